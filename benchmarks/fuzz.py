"""Fuzz every game's rules kernels with random legal play.

Plays complete hands of every preset at every player count (or those named) and
checks after every action that the deck is conserved (R1.1, C1.1, T1.1), that
every live game has a legal action, that no turn takes more decisions than the
bound, and that the table agrees with the rules at each turn's start (the rule
set's ``consistent``: every meld legal, partners' scores equal, ...). The same
compiled loop steps every game through its rule set's entry points
(``kanaszta_env.core.ruleset``).

Uniformly random play seldom goes out in games whose melds need planning, nor runs
the stock out, so the lanes of the batch take turns between random play and each style
of the game's coverage player (``fuzz_players.py``: a melder that goes out, a hoarder
that runs the stock out, ...; it decides ``--meld-bias`` of its lanes' decisions). To
show what the fuzzing reached, the end reasons of the hands are printed, and the counts
of the game's events where it counts them (``kernels/events.py``: going out by discard
and by melding, the partner's answers, the Fis taken both ways, forced openings made
and missed, ...). Run with ``NUMBA_BOUNDSCHECK=1`` (and an empty cache) to also catch
out-of-bounds accesses.

Bots reach positions random play does not (a pl pickup over a red-three upcard that
left a hand with no legal end once did), so ``--bots`` plays the game's bots instead —
random, greedy, heuristic and the shipped agent sampling its policy — seated at random
in every game, and the engine stops at a live game with no legal action
(``DeadEndError``) or a bot's illegal choice.

    python benchmarks/fuzz.py --decisions 1000000            # every preset and player count
    python benchmarks/fuzz.py --variant tr --decisions 10000000
    python benchmarks/fuzz.py --bots --variant pl --decisions 2000000
"""

from __future__ import annotations

import argparse
import dataclasses
import time
import types

import numpy as np
from fuzz_players import coverage_player
from numba import njit
from tqdm import tqdm

from kanaszta_env import GameBatch, Rules
from kanaszta_env.engine import END_NAMES, kernels_for
from kanaszta_env.games import all_games

#: a turn's bound: the draw or pickup, one action per card the deck holds (laid, moved or
#: answered), withdraw and discard; far above what any rule set allows
TURN_BOUND_PER_CARD = 2
FAILURES = ("conservation errors", "dead ends", "over-long turns", "inconsistent tables")
_MADE: dict[tuple[str, object], object] = {}
#: turn limits fuzzed (0: the rules' own) and their shares of the decisions: a short one ends
#: hands by the limit, the longer ones let the hands go out or run the stock out
TURN_LIMITS = ((20, 1), (0, 2), (2000, 2))


def make_fuzz(ruleset, player, events):
    """The compiled fuzz loop over ``ruleset``'s entry points; ``player(s, cfg, b, row, u,
    style)`` picks a legal action in the lanes of a style when their bias says so (see
    :mod:`fuzz_players`); ``events``
    (the game's ``kernels/events.py``, or :data:`NO_EVENTS`) counts what the actions did."""
    key = (ruleset.__name__, player)
    if key in _MADE:
        return _MADE[key]
    legal_row, apply_action, reset_game = ruleset.legal_row, ruleset.apply_action, ruleset.reset_game
    mark, note = events.mark, events.note
    conserved, consistent = ruleset.conserved, ruleset.consistent
    over, num_actions = ruleset.PHASE_OVER, ruleset.NUM_ACTIONS

    @njit
    def fuzz(s, cfg, rng, seeds, bias, style, turn_bound, sweeps, failures, ends, counts, stats):
        """failures: FAILURES; ends: hands by end reason; counts: the game's events;
        stats: [decisions, longest turn]."""
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
                    failures[1] += 1
                    reset_game(s, cfg, b, seeds[b] + np.uint64(7))
                    continue
                rng[b] = rng[b] * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
                u = float(rng[b] >> np.uint64(11)) / 2.0**53
                rng[b] = rng[b] * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
                if float(rng[b] >> np.uint64(11)) / 2.0**53 < bias[b]:
                    a = player(s, cfg, b, row, u, style[b])
                else:
                    k = int(u * n)
                    a = 0
                    for a in range(num_actions):
                        if row[a]:
                            if k == 0:
                                break
                            k -= 1
                mover, turn = s.to_move[b], s.turn[b]
                before = mark(s, b)
                apply_action(s, cfg, b, a, rewards)
                note(s, cfg, b, a, before, counts)
                stats[0] += 1
                turn_len[b] += 1
                if not conserved(s, cfg, b, scratch):
                    failures[0] += 1
                if s.phase[b] == over or s.turn[b] != turn or s.to_move[b] != mover:
                    stats[1] = max(stats[1], turn_len[b])
                    if turn_len[b] > turn_bound:
                        failures[2] += 1
                    turn_len[b] = 0
                    if not consistent(s, cfg, b):
                        failures[3] += 1
                if s.phase[b] == over:
                    ends[s.end_reason[b]] += 1

    _MADE[key] = fuzz
    return fuzz


def tables(variants: list[str] | None, players: list[int] | None) -> list[Rules]:
    """The rules to fuzz: every preset (or those named) at every player count it allows."""
    out = []
    for game in all_games():
        for preset, spec in game.presets.items():
            if variants and preset not in variants:
                continue
            out += [
                Rules(variant=preset, num_players=p) for p in spec["players"] if not players or p in players
            ]
    return out


def fuzz_rules(rules: Rules, decisions: int, batch: int, meld_bias: float, chunks: int = 20) -> dict:
    """Fuzz ``rules`` for at least ``decisions`` decisions; returns the counts."""
    kernels = kernels_for(rules.spec)
    player, lanes = coverage_player(rules, kernels) or (_never, (0,))
    try:
        events = kernels.game_module("events")
    except ModuleNotFoundError:
        events = NO_EVENTS
    fuzz = make_fuzz(kernels.ruleset, player, events)
    games = GameBatch(rules, batch_size=batch)
    seed = 1000 * rules.num_players + len(rules.variant)
    games.reset(seed=seed)
    seeds = np.arange(batch, dtype=np.uint64) + np.uint64(seed)
    rng = np.arange(batch, dtype=np.uint64) * np.uint64(2654435761) + np.uint64(99)
    style = np.resize(np.array(lanes, dtype=np.int64), batch)  # 0: random play
    bias = np.where(style > 0, meld_bias, 0.0)
    failures = np.zeros(len(FAILURES), dtype=np.int64)
    ends = np.zeros(len(END_NAMES), dtype=np.int64)
    counts = np.zeros(max(len(events.EVENT_NAMES), 1), dtype=np.int64)
    stats = np.zeros(2, dtype=np.int64)
    turn_bound = 3 + TURN_BOUND_PER_CARD * rules.spec.deck_size
    sweeps = max(1, -(-decisions // (batch * chunks)))
    cfg = rules.to_config()
    t0 = time.perf_counter()
    for _ in tqdm(
        range(chunks), desc=f"fuzz {rules.variant} {rules.num_players}p", unit="chunk", leave=False
    ):
        fuzz(games.state, cfg, rng, seeds, bias, style, turn_bound, sweeps, failures, ends, counts, stats)
    return {"failures": failures, "ends": ends, "decisions": int(stats[0]), "longest": int(stats[1]),
            "seconds": time.perf_counter() - t0, "bound": turn_bound,
            "events": dict(zip(events.EVENT_NAMES, counts.tolist(), strict=False))}  # fmt: skip


def fuzz_table(rules: Rules, decisions: int, batch: int, meld_bias: float) -> dict:
    """:func:`fuzz_rules` at each turn limit of :data:`TURN_LIMITS` (0: the rules' own), for
    its share of the decisions; the counts summed."""
    shares = sum(share for _, share in TURN_LIMITS)
    parts = [
        fuzz_rules(dataclasses.replace(rules, max_turns=limit or rules.max_turns),
                   -(-decisions * share // shares), batch, meld_bias)
        for limit, share in TURN_LIMITS
    ]  # fmt: skip
    total = {key: sum(p[key] for p in parts) for key in ("failures", "ends", "decisions", "seconds")}
    total["events"] = {name: sum(p["events"][name] for p in parts) for name in parts[0]["events"]}
    return {**total, "longest": max(p["longest"] for p in parts), "bound": parts[0]["bound"]}


@njit
def _never(s, cfg, b, row, u, style):  # the player of a game without a coverage player (never asked)
    return 0


@njit
def _no_mark(s, b):
    return 0


@njit
def _no_note(s, cfg, b, a, before, counts):
    pass


#: the events of a game without ``kernels/events.py``: none counted
NO_EVENTS = types.SimpleNamespace(EVENT_NAMES=(), mark=_no_mark, note=_no_note)


def fuzz_bots(rules: Rules, decisions: int, batch: int) -> dict:
    """Hands of ``rules`` between its bots (and the shipped agent, sampling), seated at random
    per game, until ``decisions`` are played; a dead end or an illegal choice raises."""
    from agents.base import play_batch
    from agents.registry import bot_names, make_agent, shipped_tables

    names = [n for n in bot_names(rules) if n != "search"]  # search: minutes per batch
    if f"{rules.variant} {rules.num_players}p" in shipped_tables():
        names.append("ppo:sample=1")
    agents = [make_agent(name, rules, seed=i) for i, name in enumerate(names)]
    rng = np.random.default_rng(1000 * rules.num_players + len(rules.variant))
    played = hands = 0
    t0 = time.perf_counter()
    with tqdm(total=decisions, desc=f"bots {rules.variant} {rules.num_players}p", leave=False) as bar:
        while played < decisions:
            seats = rng.integers(len(agents), size=(batch, rules.num_players))
            step = int(play_batch(rules, agents, seats, hands + np.arange(batch)).decisions.sum())
            played += step
            hands += batch
            bar.update(step)
    return {"decisions": played, "hands": hands, "bots": names, "seconds": time.perf_counter() - t0}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--decisions", type=int, default=1_000_000, help="decisions per preset and player count"
    )
    parser.add_argument(
        "--variant", action="append", help="a preset to fuzz (repeatable; default: every one)"
    )
    parser.add_argument("--players", type=int, action="append", help="a player count (repeatable)")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument(
        "--meld-bias", type=float, default=0.9, help="how often a coverage player decides in its lanes"
    )
    parser.add_argument("--bots", action="store_true", help="play the game's bots, not random play")
    args = parser.parse_args()
    failed = 0
    for rules in tables(args.variant, args.players):
        if args.bots:
            r = fuzz_bots(rules, args.decisions, args.batch)
            print(
                f"{rules.variant} {rules.num_players}p: {r['decisions']:,} decisions in {r['hands']:,} "
                f"hands of {', '.join(r['bots'])} in {r['seconds']:.0f} s: no dead end, no illegal choice"
            )
            continue
        r = fuzz_table(rules, args.decisions, args.batch, args.meld_bias)
        failed += int(r["failures"].sum())
        ends = ", ".join(f"{name} {n:,}" for name, n in zip(END_NAMES[1:], r["ends"][1:], strict=True))
        fails = ", ".join(f"{name} {n}" for name, n in zip(FAILURES, r["failures"], strict=True))
        print(
            f"{rules.variant} {rules.num_players}p: {r['decisions']:,} decisions in {r['seconds']:.0f} s, "
            f"hands ended: {ends}; {fails}; longest turn {r['longest']} (bound {r['bound']})"
        )
        if r["events"]:
            print("    reached: " + ", ".join(f"{name} {n:,}" for name, n in r["events"].items()))
    print("FAILURES" if failed else "no failures")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
