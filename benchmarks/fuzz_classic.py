"""Fuzz classic canasta's rules kernels with uniformly random legal play (issue 13).

Plays complete hands of the presets ``pl`` and ``sk`` at every player count and
checks after every action that the 108 (162) cards are conserved (C1.1), that
every live game has a legal action, that no turn exceeds a bound of
decisions, and that the side-shared state is consistent (partners' scores,
complete melds within the wild limits at every turn's boundary, C2.1). Run
with ``NUMBA_BOUNDSCHECK=1`` to catch out-of-bounds accesses too.

    python benchmarks/fuzz_classic.py --decisions 10000000
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from kanaszta_env import GameBatch, Rules
from kanaszta_env.engine.kernels import kernels_for

#: draw or pickup, one action per card laid (at most the hand plus a pile of 162), ask and
#: answer, withdraw, discard
TURN_BOUND = 1 + 2 * 162 + 2 + 1 + 1
GAMES = (("pl", 2), ("pl", 3), ("pl", 4), ("sk", 2), ("sk", 3), ("sk", 4), ("sk", 5), ("sk", 6))


_MADE: dict[str, object] = {}


def make_fuzz(ruleset):
    """A compiled fuzz loop over the rule set's entry points (``kernels_for(...).ruleset``),
    one per rule set (pl and sk share one)."""
    if ruleset.__name__ in _MADE:
        return _MADE[ruleset.__name__]
    legal_row, apply_action, reset_game = ruleset.legal_row, ruleset.apply_action, ruleset.reset_game
    conserved, over, num_actions = ruleset.conserved, ruleset.PHASE_OVER, ruleset.NUM_ACTIONS
    consistent = ruleset.sides_consistent

    @njit
    def fuzz(s, cfg, rng, seeds, sweeps, stats):
        """stats: [decisions, hands, conservation errors, dead ends, long turns, longest turn,
        side inconsistencies]."""
        B = s.phase.shape[0]
        row = np.zeros(num_actions, dtype=np.bool_)
        scratch = np.zeros(53, dtype=np.int64)
        rewards = np.zeros((B, s.hand.shape[1]), dtype=np.float64)
        turn_len = np.zeros(B, dtype=np.int64)
        for _ in range(sweeps):
            for b in range(B):
                if s.phase[b] == over:
                    seeds[b] += np.uint64(B)
                    reset_game(s, cfg, b, seeds[b])
                    turn_len[b] = 0
                n = legal_row(s, cfg, b, row)
                if n == 0:
                    stats[3] += 1
                    reset_game(s, cfg, b, seeds[b] + np.uint64(7))
                    continue
                rng[b] = rng[b] * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
                k = int((rng[b] >> np.uint64(33)) % np.uint64(n))
                for a in range(num_actions):
                    if row[a]:
                        if k == 0:
                            break
                        k -= 1
                turn = s.turn[b]
                apply_action(s, cfg, b, a, rewards)
                stats[0] += 1
                turn_len[b] += 1
                if s.phase[b] == over or s.turn[b] != turn:
                    stats[5] = max(stats[5], turn_len[b])
                    if turn_len[b] > TURN_BOUND:
                        stats[4] += 1
                    turn_len[b] = 0
                if not conserved(s, cfg, b, scratch):
                    stats[2] += 1
                if not consistent(s, cfg, b):
                    stats[6] += 1
                if s.phase[b] == over:
                    stats[1] += 1

    _MADE[ruleset.__name__] = fuzz
    return fuzz


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--decisions", type=int, default=1_000_000, help="random decisions in total")
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args()
    per_game = args.decisions // len(GAMES)
    failures = 0
    for variant, players in GAMES:
        rules = Rules(variant=variant, num_players=players)
        games = GameBatch(rules, batch_size=args.batch)
        games.reset(seed=players * 1000)
        fuzz = make_fuzz(kernels_for(rules.spec).ruleset)
        seeds = np.arange(args.batch, dtype=np.uint64) + np.uint64(players * 1000)
        rng = np.arange(args.batch, dtype=np.uint64) * np.uint64(2654435761) + np.uint64(99)
        stats = np.zeros(7, dtype=np.int64)
        t0 = time.perf_counter()
        sweeps = max(1, per_game // args.batch)
        fuzz(games.state, rules.to_config(), rng, seeds, sweeps, stats)
        dt = time.perf_counter() - t0
        failures += int(stats[2] + stats[3] + stats[4] + stats[6])
        print(
            f"{variant} {players}p: {stats[0]:,} decisions, {stats[1]:,} hands, "
            f"conservation errors {stats[2]}, dead ends {stats[3]}, "
            f"turns over {TURN_BOUND} decisions {stats[4]} (longest {stats[5]}), "
            f"side inconsistencies {stats[6]}, {dt:.1f} s"
        )
    print("FAILURES" if failures else "no failures")
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
