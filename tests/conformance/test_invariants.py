"""The engine's invariants on every table, under uniformly random legal play: every live
game has a legal action and a finished one none; the deck is conserved after every action
and the table agrees with the rules at every turn's start (the rule set's ``conserved`` and
``consistent``: R1.1, C1.1, T1.1); every turn ends within a bound of decisions and every
hand within the turn limit; and a game replays identically alone, from its own seed, with
its actions (the batch it is in changes nothing). ``benchmarks/fuzz.py`` runs the same
checks on a million decisions per table."""

from __future__ import annotations

import numpy as np

from kanaszta_env import GameBatch
from kanaszta_env.engine.kernels import kernels_for

from .test_envs import random_actions

BATCH = 6


def test_invariants_under_random_play(table) -> None:
    rules = table.rules(max_turns=40)
    ruleset = kernels_for(rules.spec).ruleset
    games = GameBatch(rules, BATCH)
    games.reset(seed=table.players)
    rng, cfg, scratch = np.random.default_rng(table.players), rules.to_config(), np.zeros(53, dtype=np.int64)
    bound = 3 + 2 * rules.spec.deck_size  # decisions of one turn: far above any rule set's
    in_turn, ended, steps = np.zeros(BATCH, dtype=np.int64), np.zeros(BATCH, dtype=np.int64), 0
    while not games.done.all():
        mask, live = games.legal_mask(), ~games.done
        assert mask[live].any(axis=1).all() and not mask[~live].any()
        mover, turn = games.to_move.copy(), games.state.turn.copy()
        result = games.step(random_actions(mask, rng))
        ended += result.terminated | result.truncated
        same = live & ~games.done & (games.to_move == mover) & (games.state.turn == turn)
        in_turn = np.where(same, in_turn + 1, 0)
        assert in_turn.max() <= bound
        for b in range(BATCH):
            assert ruleset.conserved(games.state, cfg, b, scratch), f"game {b}: the deck is not whole"
            assert ruleset.consistent(games.state, cfg, b), f"game {b}: the table breaks the rules"
        steps += 1
        assert steps < rules.max_turns * bound, "a hand outlived the turn limit"
    assert (ended == 1).all()


def test_a_game_replays_alone_from_its_seed(table) -> None:
    """Game 1 of a batch, replayed alone from its own seed with its actions, passes through
    the same states: a game's randomness depends on its seed only."""
    rules = table.rules(max_turns=20)
    batch = GameBatch(rules, 3)
    batch.reset(seed=40 + table.players)
    alone = GameBatch(rules, 1)
    alone.reset(seed=[41 + table.players])  # game 1 of the batch had seed + 1
    rng = np.random.default_rng(table.players)
    while not alone.done[0]:
        actions = random_actions(batch.legal_mask(), rng)
        batch.step(actions)
        alone.step(actions[1:2])
        for name, a, b in zip(type(alone.state)._fields, alone.state, batch.state, strict=True):
            np.testing.assert_array_equal(a[0], b[1], err_msg=name)
