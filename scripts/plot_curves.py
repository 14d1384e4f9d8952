"""Regenerate the learning curves in ``docs/results/`` from their evaluation histories.

Every training run writes ``history.json`` (its periodic evaluations: score
difference with the 95 % interval and win rate against each bot, at each
learner-decision count and minute of training). The runs the documentation
shows keep a copy as ``docs/results/curves/NAME.json``; this script draws
``docs/results/curves/NAME.png`` from each (score difference over learner
decisions and over wall time, and the win rate):

    python scripts/plot_curves.py                      # every history in docs/results/curves/
    python scripts/plot_curves.py --add runs/x NAME    # copy runs/x/history.json in as NAME, then draw

A history JSON holds ``{"title": ..., "command": ..., "history": [...]}``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tqdm import tqdm

from training.evaluate import plot_learning_curve

CURVES = Path(__file__).resolve().parents[1] / "docs" / "results" / "curves"


def add(run_dir: Path, name: str, title: str, command: str) -> Path:
    """Copy a run's ``history.json`` into ``docs/results/curves/NAME.json``."""
    history = json.loads((run_dir / "history.json").read_text(encoding="utf-8"))
    CURVES.mkdir(parents=True, exist_ok=True)
    path = CURVES / f"{name}.json"
    document = {"title": title or name, "command": command, "history": history}
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    return path


def draw(path: Path) -> Path:
    """``NAME.png`` beside the history ``NAME.json``."""
    document = json.loads(path.read_text(encoding="utf-8"))
    out = path.with_suffix(".png")
    plot_learning_curve(document["history"], out, title=document.get("title", path.stem))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--add", nargs=2, metavar=("RUN_DIR", "NAME"), help="copy a run's history in first")
    parser.add_argument("--title", default="", help="with --add: the figure's title")
    parser.add_argument("--command", default="", help="with --add: the command that trained the run")
    args = parser.parse_args()
    if args.add:
        print(f"added {add(Path(args.add[0]), args.add[1], args.title, args.command)}")
    paths = sorted(CURVES.glob("*.json"))
    for path in tqdm(paths, desc="learning curves"):
        draw(path)
    print(f"drew {len(paths)} learning curves in {CURVES}")


if __name__ == "__main__":
    main()
