"""Add lines against more bots to a learning curve, from the checkpoints of its run.

A run evaluates against its ``eval_bots`` while it trains (HeuristicBot alone in the
shipped recipes). This plays every ``step_*.zip`` checkpoint of ``RUN_DIR`` (or every
``step_*`` folder of an RLlib run) against each of ``--bots`` on the run's own evaluation
deals (its ``eval_seed``), puts the rows into ``docs/results/curves/NAME.json`` (replacing
earlier rows against those bots; a checkpoint's wall time is read off the run's own rows)
and redraws ``NAME.png``:

    python scripts/curve_bots.py runs/sk4 classic_sk4 [--bots random,greedy] [--hands 200] [--every 2]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from tqdm import tqdm

from agents.checkpoint import load_policy
from agents.rllib_checkpoint import load_rllib_checkpoint
from kanaszta_env import Rules
from training.config import bot_list
from training.evaluate import evaluate_against_bots

CURVES = Path(__file__).resolve().parents[1] / "docs" / "results" / "curves"


def checkpoint_rows(run_dir: Path, bots: list[str], hands: int, every: int) -> list[dict]:
    """Rows of every ``every``-th checkpoint of ``run_dir`` against ``bots``."""
    config = json.loads((run_dir / "config.json").read_text(encoding="utf-8"))
    players = config["num_players"] or None
    rules = Rules(variant=config["variant"], num_players=players, max_turns=config["eval_max_turns"])
    found = sorted(p for p in run_dir.glob("step_*") if p.suffix == ".zip" or p.is_dir())
    checkpoints = found[every - 1 :: every]
    if not checkpoints:
        raise SystemExit(f"no step_*.zip checkpoints or RLlib step_* folders in {run_dir}")
    rows = []
    for path in tqdm(checkpoints, desc=f"{run_dir.name} checkpoints"):
        load = load_policy if path.suffix == ".zip" else load_rllib_checkpoint
        agent = load(path, name="ppo")
        for row in evaluate_against_bots(agent, bots, rules, hands=hands, seed=config["eval_seed"]):
            row["step"] = int(path.stem.removeprefix("step_"))
            rows.append(row)
    return rows


def with_minutes(rows: list[dict], history: list[dict]) -> None:
    """Set each row's ``minutes`` from the run's own rows (interpolated over decisions)."""
    timed = sorted((r["step"], r["minutes"]) for r in history if "minutes" in r)
    steps, minutes = np.array(timed, dtype=float).T
    for row in rows:
        row["minutes"] = float(np.interp(row["step"], steps, minutes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", type=Path, help="a training run's folder (config.json, step_*.zip)")
    parser.add_argument("name", help="the curve: docs/results/curves/NAME.json")
    parser.add_argument("--bots", default="random,greedy", help="comma-separated bot names")
    parser.add_argument("--hands", type=int, default=200, help="hands per checkpoint and bot")
    parser.add_argument("--every", type=int, default=1, help="play every n-th checkpoint")
    args = parser.parse_args()
    path = CURVES / f"{args.name}.json"
    if not path.is_file():
        raise SystemExit(f"no curve {path}: add the run's history first (scripts/plot_curves.py --add)")
    document = json.loads(path.read_text(encoding="utf-8"))
    bots = bot_list(args.bots)
    rows = checkpoint_rows(args.run_dir, bots, args.hands, args.every)
    kept = [r for r in document["history"] if r["bot"] not in bots]
    with_minutes(rows, kept)
    document["history"] = kept + rows
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    from plot_curves import draw  # the sibling script: one drawing of every curve

    print(f"wrote {path} and {draw(path)}")


if __name__ == "__main__":
    main()
