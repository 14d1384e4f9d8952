"""The structured view of a seat (``games/diszitett/kernels/view.py``) and the observation that encodes it.

* the float observation is an encoding of the view: encoding the engine's
  views gives the engine's observations bit for bit, and decoding an
  observation (:func:`kanaszta_env.games.diszitett.observation.decode`) gives the view back
  exactly, for every seat in every phase, with 2 to 4 players and game
  episodes;
* the view clips exactly what the observation clips (hand sizes, twins,
  totals, the last hand's score, a pickup's hand cards), so it holds no more;
* the engine hands views to the policies that want them (compiled bots in
  seats of a ``GameBatch`` or of the environments), and the spaces of the
  environments declare their rules (the features extractor reads them).

The information-leak test of the view is in ``test_observation.py``.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from gymnasium import spaces

from agents import GreedyBot, HeuristicBot
from kanaszta_env import GameBatch, Rules
from kanaszta_env.engine.states import select
from kanaszta_env.envs import KanasztaGymEnv, KanasztaVecEnv, env
from kanaszta_env.games.diszitett.kernels.state import PHASE_MELD, State
from kanaszta_env.games.diszitett.kernels.view import (
    I_MOVER,
    I_PHASE,
    I_PICKUP_FROM_HAND,
    View,
    fill_views,
    new_views,
)
from kanaszta_env.games.diszitett.observation import decode, encode, encode_view_batch
from kanaszta_env.observation import observation_size
from kanaszta_env.spaces import ObservationSpace, rules_of_space


def assert_views_equal(a: View, b: View, what: str = "") -> None:
    for name, x, y in zip(View._fields, a, b, strict=True):
        np.testing.assert_array_equal(x, y, err_msg=f"{what} {name}")


def played(rules: Rules, games: int, steps: int, seed: int) -> list[GameBatch]:
    """Snapshots of uniformly random play (the built-in random seats after seat 0)."""
    batch = GameBatch(rules, games, seats=["external"] + ["random"] * (rules.num_players - 1))
    batch.reset(seed=seed)
    rng = np.random.default_rng(seed)
    snaps = []
    for step in range(steps):
        if step % 4 == 0:
            snaps.append(batch.copy())
        mask = batch.legal_mask()
        batch.step(np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask]))
        if batch.done.any():
            if len(snaps) % 2:
                snaps.append(batch.copy())  # finished games too (phase "over")
            batch.reset(seed=seed + 1000 * (step + 1), which=batch.done)
    return snaps


@pytest.mark.parametrize(
    ("players", "variant", "episode"),
    [(2, "2003-02", "hand"), (3, "2003-01", "game"), (4, "2003-02", "game")],
    ids=["2p", "3p-game", "4p-game"],
)
def test_observation_encodes_the_view_and_decodes_back_exactly(
    players: int, variant: str, episode: str
) -> None:
    rules = Rules(num_players=players, variant=variant, episode=episode, max_hands=3, max_turns=40)
    phases = set()
    rows = 0
    for games in played(rules, 12, 240, seed=players):
        for p in range(players):
            views = games.views(seats=p)
            obs = games.observe(seats=p)
            np.testing.assert_array_equal(
                encode_view_batch(views, rules).view(np.uint32), obs.view(np.uint32)
            )
            assert_views_equal(decode(obs, rules), views, f"seat {p}")
            phases |= set(views.info[:, I_PHASE].tolist())
            rows += len(obs)
    assert {0, 1, 2, 3, 4, 5} <= phases, f"every phase should occur, saw {phases}"
    assert rows > 1000


def one_game(rules: Rules, seed: int = 4) -> State:
    games = GameBatch(rules, 1)
    games.reset(seed=seed)
    return select(games.state, 0)


def view_of(s: State, rules: Rules, p: int) -> View:
    views = new_views(1, rules.num_players)
    fill_views(s, rules.to_config(), np.zeros(1, dtype=np.int64), np.array([p], dtype=np.int64), views)
    return views


def test_view_clips_what_the_observation_clips() -> None:
    """Counts beyond an encoding's scale are clipped in the view too (the
    observation cannot tell them apart), and decoding stays exact."""
    rules = Rules(target_score=10000)
    s = one_game(rules)
    s.phase[0] = PHASE_MELD
    s.hand[0, 1, :20] = 2  # 40 cards of the first 20 types ...
    s.hand[0, 1, 52] = 30  # ... and 30 jokers: 70 cards in hand
    s.twins[0] = (12, 3)
    s.totals[0] = (12500, -15000)
    s.hand_scores[0] = (2600, -2400)
    s.pickup_from_hand[0] = 5
    v = view_of(s, rules, 0)
    assert v.hand_size[0].tolist() == [int(s.hand[0, 0].sum()), 64]
    assert v.twins[0].tolist() == [10, 3]
    assert v.total[0].tolist() == [10000, -10000]
    assert v.tax_bracket[0].tolist() == [3, 0]  # from the real totals
    assert v.last_score[0].tolist() == [2000, -2000]
    assert v.info[0, I_PICKUP_FROM_HAND] == 3
    assert_views_equal(decode(encode(s, rules, 0), rules), v)


def test_views_of_the_batch() -> None:
    """``GameBatch.views``: by default every game seen by its mover; a subset of
    games and seats on request; bad seats and games are refused."""
    rules = Rules(num_players=3)
    games = GameBatch(rules, 5)
    games.reset(seed=1)
    views = games.views()
    assert views.hand.shape == (5, 53) and views.groups.shape == (5, 3, 12, 9)
    assert (views.info[:, I_MOVER] == 0).all()  # the mover sees himself as seat 0
    some = games.views(seats=[2, 1], games=[4, 0])
    assert_views_equal(some.rows(np.array([0])), games.views(seats=2).rows(np.array([4])))
    assert_views_equal(some.rows(np.array([1])), games.views(seats=1).rows(np.array([0])))
    with pytest.raises(ValueError, match="observer seats"):
        games.views(seats=3)
    with pytest.raises(ValueError, match="game indices"):
        games.views(games=[5])
    with pytest.raises(ValueError, match="slots"):
        decode(np.zeros((2, 10), dtype=np.float32), rules)


def test_engine_hands_views_to_the_policies_that_want_them() -> None:
    """A seat's policy with ``wants_views`` receives the deciding seats' views
    (equal to decoding their observations); a plain ``(obs, mask)`` policy keeps
    its two arguments; a bot decides alike either way."""
    rules = Rules(num_players=3, max_turns=30)
    seen = {"views": 0, "plain": 0}

    class Viewer:
        wants_views = True

        def __call__(self, obs: np.ndarray, mask: np.ndarray, views: View | None = None) -> np.ndarray:
            assert views is not None and views.info.shape[0] == len(obs)
            assert_views_equal(decode(obs, rules), views)
            seen["views"] += len(obs)
            return mask.argmax(axis=1)

    def plain(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        seen["plain"] += len(obs)
        return mask.argmax(axis=1)

    games = GameBatch(rules, 6, seats=["random", Viewer(), plain])
    games.reset(seed=3)  # no external seat: the hands are played to their end inside reset
    assert games.done.all()
    assert seen["views"] > 20 and seen["plain"] > 20
    # the same hands with the bots as policies (views) and as plain callables (decoded observations)
    scores = []
    for wrap in (False, True):
        bots = [HeuristicBot(rules), GreedyBot(rules)]
        seats = [(lambda o, m, b=b: b.act(o, m)) if wrap else b for b in bots]
        games = GameBatch(rules, 4, seats=["random", *seats])
        games.reset(seed=9)
        assert games.done.all()
        scores.append(games.state.hand_scores.copy())
    np.testing.assert_array_equal(scores[0], scores[1])


def test_environment_spaces_declare_their_rules() -> None:
    rules = Rules(num_players=3, max_turns=50)
    vec = KanasztaVecEnv(2, rules)
    for space in (
        KanasztaGymEnv(rules).observation_space,
        vec.observation_space,
        env(rules=rules).observation_space("player_0"),
    ):
        assert rules_of_space(space) == rules
    space = pickle.loads(pickle.dumps(ObservationSpace(rules)))
    assert space.rules == rules and space == spaces.Box(space.low, space.high, dtype=np.float32)
    assert space.shape == (observation_size(rules),)
    with pytest.raises(ValueError, match="does not declare its rules"):
        rules_of_space(spaces.Box(-1.0, 1.0, (observation_size(rules),)))
    vec.seed(1)
    obs = vec.reset()
    assert_views_equal(vec.views(), decode(obs, rules))
