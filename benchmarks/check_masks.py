"""Compare every game's legal masks with its independent plain-Python checker.

Each game has a checker written from its rules contract (``tests/checker.py``,
``tests/checker_classic.py``, ``tests/checker_turkish.py``); this plays seeded games
of every preset and player count (or those named) and compares, on every visited
state, the engine's mask with the checker's legal actions (Turkish kanasta's checker
also predicts every action's effect and the hand scores). Prints the states checked,
the mismatches (the first few described) and the states skipped because a search of
a checker exceeded its node budget.

    python benchmarks/check_masks.py --states 100000
    python benchmarks/check_masks.py --variant pl --variant sk --states 100000 --builder
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the checkers

from fuzz import tables as every_table

from kanaszta_env import Rules


def _diszitett(rules: Rules, states: int, seed: int, args: argparse.Namespace) -> dict:
    from test_mask_exactness import BATCH, check_games

    report = check_games(rules, seed=seed, steps=-(-states // BATCH))
    checked = sum(report.states.values())
    return {"checked": checked, "mismatches": len(report.mismatches), "skipped": report.skipped,
            "examples": report.mismatches[: args.show]}  # fmt: skip


def _classic(rules: Rules, states: int, seed: int, args: argparse.Namespace) -> dict:
    from checker_classic import compare_random_games

    return compare_random_games(rules.variant, rules.num_players, states, seed=seed, batch=args.batch,
                                keep=args.show, builder=args.builder)  # fmt: skip


def _turkish(rules: Rules, states: int, seed: int, args: argparse.Namespace) -> dict:
    from checker_turkish import compare_random_games

    stats = compare_random_games(states, seed=seed, batch=args.batch, keep=args.show)
    kinds = ("mask_mismatches", "state_mismatches", "score_mismatches", "deal_mismatches")
    return {**stats, "mismatches": sum(stats[k] for k in kinds), "skipped": 0}


#: game name -> its comparison: (rules, states, seed, args) -> checked, mismatches, skipped, examples
CHECKERS = {"diszitett": _diszitett, "classic": _classic, "turkish": _turkish}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--states", type=int, default=100_000, help="states in total, split evenly")
    parser.add_argument("--variant", action="append", help="a preset (repeatable; default: all)")
    parser.add_argument("--batch", type=int, default=8, help="games played side by side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="mismatches described per configuration")
    parser.add_argument("--builder", action="store_true", help="classic: biased play that builds melds")
    args = parser.parse_args()
    tables = [(rules.game, rules) for rules in every_table(args.variant, None)]
    unchecked = sorted({game.name for game, _ in tables} - set(CHECKERS))
    if unchecked:
        print(f"no checker for {unchecked}", file=sys.stderr)
    per_table = -(-args.states // max(1, len(tables)))
    mismatches = 0
    for i, (game, rules) in enumerate(tables):
        if game.name not in CHECKERS:
            continue
        t0 = time.perf_counter()
        stats = CHECKERS[game.name](rules, per_table, args.seed * 100 + i, args)
        mismatches += stats["mismatches"]
        took = time.perf_counter() - t0
        what = f"{stats['mismatches']} mismatches, {stats['skipped']} skipped, {took:.1f} s"
        print(
            f"{rules.variant} {rules.num_players}p: {stats['checked']:,} states checked, {what}", flush=True
        )
        for example in stats["examples"]:
            print("  MISMATCH", example, flush=True)
    print("MISMATCHES" if mismatches else "no mismatches")
    raise SystemExit(1 if mismatches or unchecked else 0)


if __name__ == "__main__":
    main()
