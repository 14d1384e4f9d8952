"""Compare Turkish kanasta's engine with the independent checker (tests/checker_turkish.py).

Plays seeded games of the preset ``tr`` on the engine kernels with biased random legal
actions and compares, on every visited state, the engine's legal mask with the checker's
(docs/design-turkish.md "The mask"), after every action the engine's state with the
checker's prediction (hands, melds, owners, sizes, kinds, Fis, opened / layer-off /
forced marks, pile, stock, phase, seat, end reason), and at every hand's end the hand
scores and rewards (T14). Prints the states checked, the mismatches by kind (the first
few described) and how often each event occurred.

    python benchmarks/check_turkish_masks.py --states 100000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from checker_turkish import EVENTS, compare_crafted_melds, compare_random_games
from tqdm import tqdm


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--states", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=8, help="games played side by side")
    parser.add_argument("--max-turns", type=int, default=400, help="turn limit of a hand (T13.4)")
    parser.add_argument("--show", type=int, default=3, help="mismatches described")
    parser.add_argument(
        "--crafted", type=int, default=20_000, help="crafted meld-phase positions checked as well (0: none)"
    )
    args = parser.parse_args()
    t0 = time.perf_counter()
    with tqdm(total=args.states, unit="state") as bar:
        stats = compare_random_games(
            args.states,
            seed=args.seed,
            batch=args.batch,
            max_turns=args.max_turns,
            keep=args.show,
            progress=bar,
        )
    stats["examples"] = [e for e in stats["examples"] if not e.startswith("[over_mask]")] + [
        e for e in stats["examples"] if e.startswith("[over_mask]")
    ]
    for text in stats["examples"]:
        print(text)
        print("-----")
    print(
        f"states checked {stats['checked']}, actions {stats['actions']}, hands {stats['hands']} "
        f"in {time.perf_counter() - t0:.0f} s"
    )
    for kind in ("mask_mismatches", "state_mismatches", "score_mismatches", "deal_mismatches"):
        print(f"  {kind}: {stats[kind]}")
    print(
        f"  over_masks_nonempty: {stats['over_masks_nonempty']} of the hands ended "
        f"(by end reason 1 out / 2 exhausted / 3 turn limit: {dict(stats['over_masks_by_end'])})"
    )
    events = stats["events"]
    print("coverage: " + ", ".join(f"{e} {events[e]}" for e in EVENTS))
    print(
        "actions: " + ", ".join(f"{e} {events[e]}" for e in ("draw", "take_pile", "new", "add", "withdraw"))
    )
    bad = 0
    if args.crafted:
        crafted = compare_crafted_melds(args.crafted, seed=args.seed, keep=args.show)
        for text in crafted["examples"]:
            print(text)
            print("-----")
        print(
            f"crafted meld positions checked {crafted['checked']}, "
            f"mask_mismatches {crafted['mask_mismatches']}, "
            f"state_mismatches after one action {crafted['state_mismatches']} "
            f"({dict(crafted['events'])})"
        )
        bad += crafted["mask_mismatches"] + crafted["state_mismatches"]
    bad += (
        stats["mask_mismatches"]
        + stats["state_mismatches"]
        + stats["score_mismatches"]
        + stats["deal_mismatches"]
    )
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
