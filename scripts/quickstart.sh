#!/usr/bin/env bash
# The README's first command: set up, train a MaskablePPO agent by self-play with the
# quick-start budget (about 10 minutes of training on 2 CPU cores, 15 in all), and
# report it against the bots (2,000 duplicate hands each).
#
#   bash scripts/quickstart.sh                    # defaults of training/config.py
#   bash scripts/quickstart.sh --max-minutes 3    # any `kanaszta train` flag
#
# Output in runs/quickstart/: final.zip, report.md, learning_curve.png, tb/ (TensorBoard).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet torch==2.13.0
python -m pip install --quiet -e ".[rl]"
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$HOME/.cache/kanaszta-numba}"
python -m training.cli train --run-dir runs/quickstart "$@"
