"""Properties of random legal play (hypothesis): conservation of the 112 cards
(R1.1), a legal action in every live state, bounded hands (R19.2),
determinism, and safety against illegal input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from kanaszta_env import NUM_ACTIONS, GameBatch, IllegalActionError, Rules, action_from_name
from kanaszta_env.games.diszitett.compiled import sample_uniform
from kanaszta_env.games.diszitett.invariants import conservation_errors
from kanaszta_env.games.diszitett.kernels.state import PHASE_OVER, State

rules_strategy = st.builds(
    Rules,
    variant=st.sampled_from(["2003-02", "2003-01"]),
    num_players=st.integers(2, 4),
    opening_minimum=st.sampled_from([50, 75, 90, 120]),
    max_turns=st.integers(4, 60),
)


def play_random(games: GameBatch, steps: int, seed: int, check: bool = True) -> list[np.ndarray]:
    """Step every game with uniform legal actions; return the actions taken."""
    rng = np.arange(games.batch_size, dtype=np.uint64) + np.uint64(seed)
    actions = np.zeros(games.batch_size, dtype=np.int64)
    taken = []
    for _ in range(steps):
        mask = games.legal_mask()
        if check:
            live = ~games.done
            assert mask[live].any(axis=1).all(), "a live game has no legal action"
            assert not mask[~live].any(), "a finished game has legal actions"
        sample_uniform(mask, rng, actions)
        actions[actions < 0] = 0
        taken.append(actions.copy())
        games.step(actions)
        if check:
            for b in range(games.batch_size):
                assert conservation_errors(games.state, b) == []
        if games.done.all():
            break
    return taken


@settings(max_examples=25, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_r1_cards_conserved_and_a_legal_action_always_exists(rules: Rules, seed: int) -> None:
    games = GameBatch(rules, batch_size=4)
    games.reset(seed=seed)
    play_random(games, 300, seed)


@settings(max_examples=15, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_r19_every_hand_ends_within_the_turn_limit(rules: Rules, seed: int) -> None:
    """A hand ends (terminated or truncated) and each turn takes a bounded
    number of decisions: cut (3) + draw + at most one action per card melded,
    per wild moved twice, a withdraw and a discard."""
    games = GameBatch(rules, batch_size=2)
    games.reset(seed=seed)
    rng = np.arange(2, dtype=np.uint64) + np.uint64(seed)
    actions = np.zeros(2, dtype=np.int64)
    ended = np.zeros(2, dtype=np.int64)
    bound = 3 + rules.max_turns * (1 + 112 + 2 * 16 + 2)
    for _ in range(bound):
        sample_uniform(games.legal_mask(), rng, actions)
        actions[actions < 0] = 0
        result = games.step(actions)
        ended += result.terminated | result.truncated
        assert not (result.terminated & result.truncated).any()
        if games.done.all():
            break
    assert games.done.all()
    assert (ended == 1).all()


@settings(max_examples=10, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_same_seed_and_actions_replay_identically(rules: Rules, seed: int) -> None:
    """Game b of a batch replays alone, from its own seed, with its actions."""
    batch = GameBatch(rules, batch_size=3)
    batch.reset(seed=seed)
    taken = play_random(batch, 150, seed, check=False)
    alone = GameBatch(rules, batch_size=1)
    alone.reset(seed=[seed + 1])  # game 1 of the batch had seed+1
    for acts in taken:
        if alone.done[0]:
            break
        alone.step(acts[1:2])
    for name, a, b in zip(State._fields, alone.state, batch.state, strict=True):
        np.testing.assert_array_equal(a[0], b[1], err_msg=name)


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
        games.step(np.array([0, NUM_ACTIONS, 0]))
    with pytest.raises(IllegalActionError):
        games.step(np.array([0, -1, 0]))
    with pytest.raises(IllegalActionError, match="3 integers"):
        games.step(np.array([0.0, 1.0, 0.0]))
    with pytest.raises(IllegalActionError, match="3 integers"):
        games.step([0, 0])
    for name, a, b in zip(State._fields, before, games.state, strict=True):
        np.testing.assert_array_equal(a, b, err_msg=name)


def test_finished_games_ignore_actions_and_have_empty_masks() -> None:
    games = GameBatch(Rules(max_turns=2), batch_size=2)
    games.reset(seed=1)
    play_random(games, 400, 1, check=False)
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
