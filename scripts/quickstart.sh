#!/usr/bin/env bash
# The README's first command: set up, train a hinted MaskablePPO agent (it also reads
# HeuristicBot's choice, see agents/hinted.py) by self-play with the quick-start budget (an
# imitation warm start, then 1,000,000 learner decisions of PPO: about 5 minutes on 2 CPU cores,
# 11 with the warm start and the evaluations; a busy machine takes longer and trains as much),
# and report it against the bots and the shipped ppo agent (2,000 duplicate hands each).
#
#   bash scripts/quickstart.sh                               # training/configs/quickstart.toml
#   bash scripts/quickstart.sh --total-timesteps 200000      # any `kanaszta train` flag
#
# Output in runs/quickstart/: final.zip, report.md, learning_curve.png, tb/ (TensorBoard);
# run with the defaults (no flags), it also copies the learning curve to the README's figure,
# docs/results/quickstart_learning_curve.png.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet torch==2.13.0
python -m pip install --quiet -e ".[rl]"
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$HOME/.cache/kanaszta-numba}"
python -m training.cli train --run-dir runs/quickstart --config training/configs/quickstart.toml "$@"
if [ $# -eq 0 ]; then
    cp runs/quickstart/learning_curve.png docs/results/quickstart_learning_curve.png
    echo "learning curve copied to docs/results/quickstart_learning_curve.png (the README's figure)"
fi
