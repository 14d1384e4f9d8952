"""Fuzz the rules core with uniformly random legal play.

Plays complete hands across presets and player counts and checks after
every action that the 112 cards are conserved (R1.1), that every live game
has a legal action, and that no turn takes more than a fixed number of
decisions. Run it with ``NUMBA_BOUNDSCHECK=1`` to also catch any
out-of-bounds array access inside the kernels.

    python benchmarks/fuzz_core.py --hands 10000
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit
from tqdm import tqdm

from kanaszta_env import GameBatch, Rules
from kanaszta_env.actions import NUM_ACTIONS
from kanaszta_env.engine.compiled import PHASE_OVER, apply_action, below, conserved, legal_row, reset_game

TURN_BOUND = 1 + 112 + 2 * 16 + 2  # draw, one meld per card, two per wild moved, withdraw, discard


@njit(cache=True)
def fuzz_kernel(s, cfg, rng, seeds, sweeps, stats):
    """stats: [decisions, hands, conservation errors, dead ends, long turns, max turn length]."""
    B = s.phase.shape[0]
    row = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    scratch = np.zeros(53, dtype=np.int64)
    rewards = np.zeros((B, s.hand.shape[1]), dtype=np.float64)
    turn_len = np.zeros(B, dtype=np.int64)
    for _ in range(sweeps):
        for b in range(B):
            if s.phase[b] == PHASE_OVER:
                seeds[b] += np.uint64(B)
                reset_game(s, cfg, b, seeds[b])
                turn_len[b] = 0
            legal_row(s, cfg, b, row)
            n = 0
            for a in range(NUM_ACTIONS):
                if row[a]:
                    n += 1
            if n == 0:
                stats[3] += 1
                reset_game(s, cfg, b, seeds[b] + np.uint64(7))
                continue
            k = below(rng, b, n)
            chosen = -1
            for a in range(NUM_ACTIONS):
                if row[a]:
                    if k == 0:
                        chosen = a
                        break
                    k -= 1
            mover, turn = s.to_move[b], s.turn[b]
            apply_action(s, cfg, b, chosen, rewards)
            stats[0] += 1
            turn_len[b] += 1
            if s.phase[b] == PHASE_OVER or s.to_move[b] != mover or s.turn[b] != turn:
                stats[5] = max(stats[5], turn_len[b])
                if turn_len[b] > 3 + 146:
                    stats[4] += 1
                turn_len[b] = 0
            if not conserved(s, b, scratch):
                stats[2] += 1
            if s.phase[b] == PHASE_OVER:
                stats[1] += 1


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=10_000, help="complete hands to play in total")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--max-turns", type=int, default=200)
    args = parser.parse_args()
    configs = [(p, v) for p in (2, 3, 4) for v in ("2003-02", "2003-01")]
    per_config = -(-args.hands // len(configs))
    total = np.zeros(6, dtype=np.int64)
    start = time.perf_counter()
    for players, variant in configs:
        games = GameBatch(Rules(num_players=players, variant=variant, max_turns=args.max_turns), args.batch)
        games.reset(seed=players * 1_000_003)
        seeds = np.arange(args.batch, dtype=np.uint64) + np.uint64(players * 1_000_003)
        rng = np.arange(args.batch, dtype=np.uint64) + np.uint64(42)
        stats = np.zeros(6, dtype=np.int64)
        with tqdm(total=per_config, desc=f"P={players} {variant}", unit="hand") as bar:
            while stats[1] < per_config:
                before = stats[1]
                fuzz_kernel(games.state, games.rules.to_config(), rng, seeds, 100, stats)
                bar.update(int(min(stats[1], per_config) - before))
        print(
            f"P={players} {variant}: {stats[1]} hands, {stats[0]:,} decisions, "
            f"conservation errors {stats[2]}, dead ends {stats[3]}, over-long turns {stats[4]}, "
            f"longest turn {stats[5]} decisions"
        )
        total[:5] += stats[:5]
        total[5] = max(total[5], stats[5])
    print(
        f"TOTAL: {total[1]} hands, {total[0]:,} decisions in {time.perf_counter() - start:.0f} s; "
        f"conservation errors {total[2]}, dead ends {total[3]}, over-long turns {total[4]}, "
        f"longest turn {total[5]} decisions"
    )
    if total[2] or total[3] or total[4]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
