#!/usr/bin/env bash
# Set up and run every test (the README's second quick-start command).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet "torch==2.13.0"   # CPU build; an unpinned torch pulls GBs of CUDA
python -m pip install --quiet -e ".[rl,test]"
# A fresh numba cache folder: every run compiles the kernels it tests.
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$(mktemp -d)}"
python -m pytest -q tests --nbmake notebooks "$@"
