#!/usr/bin/env bash
# Set up and run every test (the README's second quick-start command).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet -e ".[test]"
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$(mktemp -d)}"
python -m pytest -q "$@"
