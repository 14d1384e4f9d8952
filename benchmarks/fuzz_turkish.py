"""Fuzz Turkish kanasta's rules kernels with random legal play (issue 15).

Plays complete hands of the preset ``tr`` and checks after every action that the 106
cards are conserved across hands, melds, Fis, stock and pile (T1.1), that every live
game has a legal action, and that no turn exceeds a bound of decisions; at every
turn's start it checks the table: every meld legal (T5-T7), every meld of 7+ cards
with a canasta kind (T8.2), no seat both opened and a layer-off (T10.2), the pair
scores of finished hands equal for partners.

Uniformly random play almost never empties a hand, so half the games are played
by a crude melding player instead (``--meld-bias``: the chance that it, not a
uniformly random legal action, decides): openings, layer-offs, Fis taken both
ways, forced canasta openings and going out then all occur, and their counts are
printed. Every action played is legal (the melding player picks from the mask).
Run with ``NUMBA_BOUNDSCHECK=1`` (and an empty cache) to catch out-of-bounds
accesses too.

    python benchmarks/fuzz_turkish.py --decisions 10000000
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit
from tqdm import tqdm

from kanaszta_env import GameBatch, Rules
from kanaszta_env.engine.kernels import kernels_for
from kanaszta_env.games.turkish.actions import ADD0, DISCARD0, NEW0

#: the draw, one action per card laid (a hand can hold at most the 106 cards), withdraw, discard
TURN_BOUND = 1 + 106 + 1 + 1
EVENTS = (
    "hands",
    "went out",
    "exhausted",
    "turn limit",
    "Fi taken by melding",
    "Fi taken by discarding",
    "forced openings owed",
    "forced openings made",
    "layer-offs",
    "half canastas",
    "whole canastas",
    "full canastas",
    "most melds of a pair",
)
FAILURES = ("conservation errors", "dead ends", "long turns", "illegal tables")


def make_melder(melds, num_actions):
    """The compiled melding player of the coverage games (see the module docstring)."""
    analyse, valid = melds.analyse, melds.VALID

    @njit
    def melder(s, b, row, u):
        """A crude melding player for coverage (not an agent: it reads the state): finish the
        melds begun this turn, lay off where a meld stays legal, start a meld the hand holds
        three naturals of, else discard at random; ``u`` in [0, 1) is its random number."""
        p = s.to_move[b]
        pair = p % 2
        hand = s.hand[b, p]
        count = s.meld_count[b, pair]
        if row[1] and (u < 0.3 or s.pile_len[b] >= 2 or not row[0]):
            return 1  # take the pile
        if row[0]:
            return 0
        for k in range(count):  # finish the partial melds, naturals first
            if analyse(s.melds[b, pair, k])[0] != valid:
                for t in range(53):
                    if hand[t] > 0 and row[ADD0 + k * 53 + t] and t // 4 != 1 and t != 52:
                        return ADD0 + k * 53 + t
                for t in range(53):
                    if hand[t] > 0 and row[ADD0 + k * 53 + t]:
                        return ADD0 + k * 53 + t
        for k in range(count):  # lay off where the meld stays legal
            for t in range(53):
                a = ADD0 + k * 53 + t
                if hand[t] > 0 and row[a] and (t // 4 != 1 or u < 0.5):
                    s.melds[b, pair, k, t] += 1
                    ok = analyse(s.melds[b, pair, k])[0] == valid
                    s.melds[b, pair, k, t] -= 1
                    if ok:
                        return a
        for t in range(52):  # a set of three naturals, or three of a run
            if t // 4 == 1 or hand[t] == 0 or not row[NEW0 + (t - 4 if t >= 8 else t)]:
                continue
            r, suit = t // 4, t % 4
            same = hand[r * 4] + hand[r * 4 + 1] + hand[r * 4 + 2] + hand[r * 4 + 3]
            up1 = r + 1 <= 12 and hand[(r + 1) * 4 + suit] > 0
            up2 = r + 2 <= 12 and hand[(r + 2) * 4 + suit] > 0
            if same >= 3 or (up1 and up2):
                return NEW0 + (t - 4 if t >= 8 else t)
        n = 0
        for a in range(DISCARD0, num_actions):
            n += row[a]
        if n == 0:
            return 2  # withdraw
        k = int(u * n)
        for a in range(DISCARD0, num_actions):
            if row[a]:
                if k == 0:
                    return a
                k -= 1
        return 2

    return melder


def make_checks(melds):
    """The compiled checks of a table at a turn's start, and the count of a finished hand's kinds."""
    analyse, valid = melds.analyse, melds.VALID

    @njit
    def table_ok(s, b):
        for pair in range(2):
            for k in range(s.meld_count[b, pair]):
                if analyse(s.melds[b, pair, k])[0] != valid:
                    return False
                if (s.meld_size[b, pair, k] >= 7) != (s.meld_kind[b, pair, k] > 0):
                    return False
        for q in range(4):
            if s.opened[b, q] == 1 and s.layoff[b, q] == 1:
                return False
        return True

    @njit
    def count_kinds(s, b, events):
        for pair in range(2):
            for m in range(s.meld_count[b, pair]):
                kind = s.meld_kind[b, pair, m]
                if kind > 0:
                    events[8 + kind] += 1

    return table_ok, count_kinds


def make_fuzz(ruleset, melds):
    """A compiled fuzz loop over the Turkish rule set's entry points."""
    legal_row, apply_action, reset_game = ruleset.legal_row, ruleset.apply_action, ruleset.reset_game
    conserved, over, num_actions = ruleset.conserved, ruleset.PHASE_OVER, ruleset.NUM_ACTIONS
    melder = make_melder(melds, num_actions)

    table_ok, count_kinds = make_checks(melds)

    @njit
    def fuzz(s, cfg, rng, seeds, bias, sweeps, stats, events):
        B = s.phase.shape[0]
        row = np.zeros(num_actions, dtype=np.bool_)
        scratch = np.zeros(53, dtype=np.int64)
        rewards = np.zeros((B, 4), dtype=np.float64)
        turn_len = np.zeros(B, dtype=np.int64)
        for _ in range(sweeps):
            for b in range(B):
                if s.phase[b] == over:
                    seeds[b] += np.uint64(B)
                    reset_game(s, cfg, b, seeds[b])
                    turn_len[b] = 0
                n = legal_row(s, cfg, b, row)
                if n == 0:
                    stats[1] += 1
                    reset_game(s, cfg, b, seeds[b] + np.uint64(7))
                    continue
                rng[b] = rng[b] * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
                u = float(rng[b] >> np.uint64(11)) / 2.0**53
                rng[b] = rng[b] * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
                if float(rng[b] >> np.uint64(11)) / 2.0**53 < bias[b]:
                    a = melder(s, b, row, u)
                else:
                    k = int(u * n)
                    a = 0
                    for a in range(num_actions):
                        if row[a]:
                            if k == 0:
                                break
                            k -= 1
                turn = s.turn[b]
                fis = (s.fi_taker[b, 0] >= 0) + (s.fi_taker[b, 1] >= 0)
                owed = s.forced[b, 0] + s.forced[b, 1]
                layoffs = s.layoff[b].sum()
                apply_action(s, cfg, b, a, rewards)
                stats[4] += 1
                turn_len[b] += 1
                if (s.fi_taker[b, 0] >= 0) + (s.fi_taker[b, 1] >= 0) > fis:
                    events[4 if a < DISCARD0 else 5] += 1
                forced = s.forced[b, 0] + s.forced[b, 1]
                if forced > owed:  # 0 -> 1: owed; 1 -> 2: made
                    events[6 if forced % 2 == 1 else 7] += 1
                events[8] += s.layoff[b].sum() - layoffs
                for pair in range(2):
                    events[12] = max(events[12], s.meld_count[b, pair])
                if not conserved(s, cfg, b, scratch):
                    stats[0] += 1
                if s.phase[b] == over or s.turn[b] != turn:
                    if turn_len[b] > TURN_BOUND:
                        stats[2] += 1
                    turn_len[b] = 0
                    if s.phase[b] == over:
                        events[0] += 1
                        events[s.end_reason[b]] += 1
                        count_kinds(s, b, events)
                    elif not table_ok(s, b):
                        stats[3] += 1

    return fuzz


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--decisions", type=int, default=1_000_000, help="random decisions in total")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument(
        "--meld-bias", type=float, default=0.9, help="how often the melding player decides in its half"
    )
    parser.add_argument("--chunks", type=int, default=50, help="progress-bar steps")
    args = parser.parse_args()
    rules = Rules(variant="tr", max_turns=400)
    kernels = kernels_for(rules.spec)
    melds = kernels.game_module("melds")
    fuzz = make_fuzz(kernels.ruleset, melds)
    games = GameBatch(rules, batch_size=args.batch)
    games.reset(seed=4000)
    seeds = np.arange(args.batch, dtype=np.uint64) + np.uint64(4000)
    rng = np.arange(args.batch, dtype=np.uint64) * np.uint64(2654435761) + np.uint64(99)
    bias = np.where(np.arange(args.batch) % 2 == 0, args.meld_bias, 0.0)
    stats = np.zeros(5, dtype=np.int64)
    events = np.zeros(len(EVENTS), dtype=np.int64)
    sweeps = max(1, -(-args.decisions // (args.batch * args.chunks)))  # at least --decisions in all
    t0 = time.perf_counter()
    for _ in tqdm(range(args.chunks), desc="fuzz tr", unit="chunk"):
        fuzz(games.state, rules.to_config(), rng, seeds, bias, sweeps, stats, events)
    dt = time.perf_counter() - t0
    print(f"tr 4p: {stats[4]:,} decisions in {dt:.0f} s, {events[0]:,} hands")
    print("failures: " + ", ".join(f"{name} {stats[i]}" for i, name in enumerate(FAILURES)))
    print("events: " + ", ".join(f"{name} {events[i]:,}" for i, name in enumerate(EVENTS) if i))
    failed = int(stats[:4].sum())
    print("FAILURES" if failed else "no failures")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
