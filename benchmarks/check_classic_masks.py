"""Compare classic canasta's legal masks with the independent checker (issue 13).

Plays seeded games of the presets ``pl`` (2-4 players) and ``sk`` (2-6 players) with
uniformly random legal actions and compares, on every visited state, the engine's mask
with the legal actions of ``tests/checker_classic.py`` (written from the rules contract,
C4-C12). Prints the states checked per configuration, the mismatches (the first few
described: position, engine-only and checker-only actions) and the states skipped
because a search of the checker exceeded its node budget.

    python benchmarks/check_classic_masks.py --states 100000
    python benchmarks/check_classic_masks.py --states 100000 --builder --coverage
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from checker_classic import DEFAULT_BUDGET, compare_random_games

CONFIGS = (("pl", 2), ("pl", 3), ("pl", 4), ("sk", 2), ("sk", 3), ("sk", 4), ("sk", 5), ("sk", 6))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--states", type=int, default=100_000, help="states in total, split evenly")
    parser.add_argument("--batch", type=int, default=8, help="games played side by side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="search nodes per state")
    parser.add_argument("--show", type=int, default=3, help="mismatches described per configuration")
    parser.add_argument(
        "--builder",
        action="store_true",
        help="biased play (take the pile when allowed, prefer melding) instead of uniform",
    )
    parser.add_argument("--coverage", action="store_true", help="print what the states covered")
    args = parser.parse_args()
    per_config = -(-args.states // len(CONFIGS))
    totals = {"checked": 0, "mismatches": 0, "skipped": 0}
    for i, (variant, players) in enumerate(CONFIGS):
        t0 = time.perf_counter()
        stats = compare_random_games(
            variant,
            players,
            per_config,
            seed=args.seed * 100 + i,
            batch=args.batch,
            budget=args.budget,
            keep=args.show,
            builder=args.builder,
        )
        for key in totals:
            totals[key] += stats[key]
        print(
            f"{variant} {players}p: {stats['checked']:,} states checked, "
            f"{stats['mismatches']} mismatches, {stats['skipped']} skipped, "
            f"{time.perf_counter() - t0:.1f} s",
            flush=True,
        )
        if args.coverage:
            print("  legal in:", ", ".join(f"{k} {v:,}" for k, v in sorted(stats["coverage"].items())))
        for example in stats["examples"]:
            print("  MISMATCH", example, flush=True)
    print(
        f"total: {totals['checked']:,} states checked, {totals['mismatches']} mismatches, "
        f"{totals['skipped']} skipped"
    )
    raise SystemExit(1 if totals["mismatches"] else 0)


if __name__ == "__main__":
    main()
