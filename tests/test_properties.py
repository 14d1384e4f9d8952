"""Safety against illegal input: illegal actions, finished games, invalid rules, batch
sizes and seeds. The invariants of random legal play on every table (conservation, a
legal action in every live state, bounded turns and hands, replaying a game alone) are
in ``tests/conformance/test_invariants.py``."""

from __future__ import annotations

import numpy as np
import pytest
from conformance.positions import random_play

from kanaszta_env import NUM_ACTIONS, GameBatch, IllegalActionError, Rules, action_from_name
from kanaszta_env.games.diszitett.kernels.state import PHASE_OVER, State


def test_illegal_action_raises_and_changes_nothing() -> None:
    games = GameBatch(Rules(), batch_size=3)
    games.reset(seed=5)
    before = [a.copy() for a in games.state]
    bad = np.array([action_from_name("keep"), action_from_name("draw"), action_from_name("keep")])
    with pytest.raises(IllegalActionError, match=r"'draw'.*game 1.*phase 'cut'"):
        games.step(bad)
    for name, a, b in zip(State._fields, before, games.state, strict=True):
        np.testing.assert_array_equal(a, b, err_msg=name)
    with pytest.raises(IllegalActionError):
        games.step(np.array([0, -1, 0]))
    # an id outside the action range is named as given, whatever its integer type
    for ids, shown in (
        (np.array([0, NUM_ACTIONS, 0]), NUM_ACTIONS),
        (np.array([0, 2**64 - 1, 0], dtype=np.uint64), 2**64 - 1),
        ([0, np.uint64(2**63), 0], 2**63),
        ([0, 10**20, 0], 10**20),
    ):
        with pytest.raises(
            IllegalActionError, match=rf"action id {shown} \(ids run from 0 to {NUM_ACTIONS - 1}\) in game 1"
        ):
            games.step(ids)
    with pytest.raises(IllegalActionError, match="3 integers"):
        games.step([0, True, 0])  # NumPy would read True as 1
    with pytest.raises(IllegalActionError, match="3 integers"):
        games.step(np.array([0.0, 1.0, 0.0]))
    with pytest.raises(IllegalActionError, match="3 integers"):
        games.step([0, 0])
    for name, a, b in zip(State._fields, before, games.state, strict=True):
        np.testing.assert_array_equal(a, b, err_msg=name)


def test_finished_games_ignore_actions_and_have_empty_masks() -> None:
    *_, (_, games) = random_play(Rules(max_turns=2), 1, size=2)  # played to every game's end
    assert games.done.all()
    assert not games.legal_mask().any()
    before = [a.copy() for a in games.state]
    games.step(np.array([123, -7]))
    for a, b in zip(before, games.state, strict=True):
        np.testing.assert_array_equal(a, b)
    assert (games.state.phase == PHASE_OVER).all()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"variant": "2004"}, "unknown variant"),
        ({"num_players": 5}, "num_players"),
        ({"num_players": 1}, "num_players"),
        ({"opening_minimum": 60}, "opening_minimum"),
        ({"max_turns": 0}, "max_turns"),
        ({"target_score": -5}, "target_score"),
        ({"episode": "match"}, "episode"),
        ({"opening_schedule": [(0, 50), (0, 90)]}, "strictly increase"),
        ({"opening_schedule": [(0, 55)]}, "minimum 55"),
        ({"opening_schedule": "fast"}, "opening_schedule"),
    ],
)
def test_invalid_rules_raise_naming_the_problem(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rules(**kwargs)


def test_invalid_batch_and_seeds_raise() -> None:
    with pytest.raises(ValueError, match="batch_size"):
        GameBatch(Rules(), batch_size=0)
    games = GameBatch(Rules(), batch_size=2)
    with pytest.raises(ValueError, match="seed"):
        games.reset(seed=-1)
    with pytest.raises(ValueError, match="seeds"):
        games.reset(seed=[1, 2, 3])
