#!/usr/bin/env bash
# Set up and run every test (the README's second quick-start command).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet "torch==2.13.0"   # CPU build; an unpinned torch pulls GBs of CUDA
python -m pip install --quiet -e ".[rl,test,web,ray]"
# The browser tests of `kanaszta serve` drive the system's Chromium (never a downloaded one).
if ! command -v chromedriver >/dev/null || ! { command -v chromium || command -v chromium-browser; } >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing chromium and chromium-driver for the browser tests (apt-get)"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; } \
            >/dev/null || echo "could not install chromium: the browser tests will be skipped (they fail when CI is set)"
    else
        echo "chromium/chromedriver missing and not root: the browser tests will be skipped (they fail when CI is set)"
    fi
fi
# A fresh numba cache folder: every run compiles the kernels it tests.
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$(mktemp -d)}"
# One worker per core, each test file on one worker (its module fixtures stay shared); the
# slowest tests are listed at the end.
python -m pytest -q -n auto --dist loadfile --durations=25 tests --nbmake notebooks "$@"
