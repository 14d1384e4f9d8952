"""``GameBatch.step(where=...)`` and the rank-meld action layer of the VecEnv."""

from __future__ import annotations

import numpy as np
import pytest

from kanaszta_env import GameBatch, IllegalActionError, Rules
from kanaszta_env.engine.states import copy_state
from kanaszta_env.envs.rank_melds import NUM_RANK_MELDS, RANK_MELD0, extend_mask, next_atoms
from kanaszta_env.games.diszitett.actions import MELD0, NUM_ACTIONS

pytest.importorskip("stable_baselines3")
from kanaszta_env.envs.vec_env import KanasztaVecEnv


def _states_equal(a, b, rows) -> bool:
    return all(np.array_equal(x[rows], y[rows]) for x, y in zip(a, b, strict=True))


class _FirstLegal:
    """A player that takes the first legal action: as a seat (called) or an agent (``act``)."""

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.asarray(mask).argmax(axis=1)

    __call__ = act


@pytest.mark.parametrize("opponent", ["random", _FirstLegal()], ids=["compiled", "python"])
def test_step_where_moves_only_the_chosen_games(opponent) -> None:
    games = GameBatch(Rules(), 8, seats=["external", opponent])
    games.reset(seed=11)
    for _ in range(5):  # into the games, past the first draws
        games.step(games.legal_mask().argmax(axis=1))
    before, obs_before = copy_state(games.state), games.observe().copy()
    mask_before = games.legal_mask().copy()
    where = np.array([True, False] * 4)
    twin = games.copy()
    actions = games.legal_mask().argmax(axis=1)
    result = games.step(actions, where=where)
    waiting = np.flatnonzero(~where)
    assert _states_equal(games.state, before, waiting)
    assert np.array_equal(games.observe()[waiting], obs_before[waiting])
    assert np.array_equal(games.legal_mask()[waiting], mask_before[waiting])
    assert (result.rewards[waiting] == 0).all()
    twin.step(actions)  # the chosen games moved exactly as in a step of the whole batch
    moved = np.flatnonzero(where)
    assert _states_equal(games.state, twin.state, moved)
    assert not _states_equal(games.state, before, moved)


def test_step_where_is_validated_and_wait_is_never_an_action() -> None:
    games = GameBatch(Rules(), 2)
    games.reset(seed=0)
    before = copy_state(games.state)
    with pytest.raises(ValueError, match="where must be a bool mask"):
        games.step(games.legal_mask().argmax(axis=1), where=np.array([1, 0]))
    lowest = np.iinfo(np.int64).min  # the driver's "wait" value cannot be passed as an action
    with pytest.raises(IllegalActionError):
        games.step(np.array([lowest, lowest]))
    assert _states_equal(games.state, before, slice(None))


def test_extended_mask_and_next_atoms() -> None:
    mask = np.zeros((2, NUM_ACTIONS), dtype=bool)
    mask[0, MELD0 + 4 * 3 + 2] = mask[0, MELD0 + 4 * 3 + 3] = True  # two suits of group 3
    mask[1, 0] = True
    wide = extend_mask(mask)
    assert wide.shape == (2, NUM_ACTIONS + NUM_RANK_MELDS)
    assert np.flatnonzero(wide[0, RANK_MELD0:]).tolist() == [3]
    assert not wide[1, RANK_MELD0:].any()
    assert next_atoms(mask, np.array([3, 3])).tolist() == [MELD0 + 14, -1]
    assert next_atoms(mask, np.array([NUM_RANK_MELDS, -1])).tolist() == [-1, -1]  # no such rank


def _ranked_position(env: KanasztaVecEnv, rng: np.random.Generator, steps: int = 400) -> None:
    """Random play (rank actions avoided) until some game can meld two naturals of one rank."""
    for _ in range(steps):
        mask = env.action_masks().astype(bool)
        if any(
            len(_meldable_suits(mask[i], g)) >= 2 for i in range(env.num_envs) for g in range(NUM_RANK_MELDS)
        ):
            return
        atomic = mask[:, :NUM_ACTIONS]
        env.step(np.array([rng.choice(np.flatnonzero(r)) for r in atomic]))
    raise AssertionError("no game reached a rank with two meldable naturals")


def _meldable_suits(row: np.ndarray, g: int) -> list[int]:
    return [s for s in range(4) if row[MELD0 + 4 * g + s]]


def test_a_rank_action_is_its_natural_melds_in_suit_order() -> None:
    """One ``meld_all_<rank>`` decision leaves the game exactly where melding that rank's naturals
    one at a time (lowest suit first, while one is legal) leaves the atomic env."""
    ranked = KanasztaVecEnv(16, opponents="random", rank_melds=True)
    atomic = KanasztaVecEnv(16, opponents="random")
    assert ranked.action_space.n == atomic.action_space.n + NUM_RANK_MELDS
    for env in (ranked, atomic):
        env.seed(5)
        env.reset()
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    _ranked_position(ranked, rng_a)
    _ranked_position(atomic, rng_b)
    mask = ranked.action_masks().astype(bool)
    assert np.array_equal(mask[:, :NUM_ACTIONS], atomic.action_masks().astype(bool))
    b, g = next(
        (i, g) for i in range(16) for g in range(NUM_RANK_MELDS) if len(_meldable_suits(mask[i], g)) >= 2
    )
    actions = mask[:, :NUM_ACTIONS].argmax(axis=1)  # every other game: its first legal action
    actions[b] = RANK_MELD0 + g
    obs_r, rew_r, done_r, _ = ranked.step(actions)
    # the atomic env, game b melding the rank's naturals one by one (the other games do not
    # matter: a game's random seats draw from its own generator)
    total, melds, suits = 0.0, 0, _meldable_suits(mask[b], g)
    while suits:
        step = atomic.action_masks().argmax(axis=1)
        step[b] = MELD0 + 4 * g + suits[0]
        obs_a, rew_a, done_a, _ = atomic.step(step)
        total += float(rew_a[b])
        melds += 1
        suits = [] if done_a[b] else _meldable_suits(atomic.action_masks().astype(bool)[b], g)
    assert melds >= 2
    assert np.array_equal(obs_r[b], obs_a[b])
    assert rew_r[b] == pytest.approx(total)
    assert done_r[b] == done_a[b]
    assert done_r[b] or not ranked.action_masks()[b, RANK_MELD0 + g]


def test_rank_actions_refused_when_not_legal_and_outside_the_family() -> None:
    env = KanasztaVecEnv(2, opponents="random", rank_melds=True)
    env.seed(0)
    env.reset()
    mask = env.action_masks().astype(bool)
    g = next(g for g in range(NUM_RANK_MELDS) if not mask[0, RANK_MELD0 + g])
    actions = mask.argmax(axis=1)
    actions[0] = RANK_MELD0 + g
    with pytest.raises(IllegalActionError, match="meld_all_"):
        env.step(actions)
    with pytest.raises(ValueError, match="Díszített"):
        KanasztaVecEnv(2, Rules(variant="pl", num_players=4), rank_melds=True)


def test_rank_layer_random_play_keeps_the_invariants() -> None:
    """Random play that prefers rank actions: every observation has a legal action, and hands end
    with their terminal observation in the infos."""
    env = KanasztaVecEnv(32, opponents="random", rank_melds=True)
    env.seed(7)
    env.reset()
    rng = np.random.default_rng(0)
    used = ended = 0
    for _ in range(1500):
        mask = env.action_masks().astype(bool)
        assert mask.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(r)) for r in mask])
        for i in np.flatnonzero(mask[:, RANK_MELD0:].any(axis=1)):
            actions[i] = RANK_MELD0 + rng.choice(np.flatnonzero(mask[i, RANK_MELD0:]))
            used += 1
        _, _, dones, infos = env.step(actions)
        ended += int(dones.sum())
        assert all("terminal_observation" in infos[i] for i in np.flatnonzero(dones))
    assert used > 100 and ended > 5


def _study():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[1] / "scripts/horizon_study.py"
    spec = importlib.util.spec_from_file_location("horizon_study", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_horizon_study_evaluates_each_layer_on_the_same_deals_and_plots(tmp_path) -> None:
    import json

    study = _study()
    rules = Rules()
    plain = study.evaluate(_FirstLegal(), rules, "random", 6, 123, rank_melds=False)
    again = study.evaluate(_FirstLegal(), rules, "random", 6, 123, rank_melds=False)
    assert plain == again  # the same deals, seats and bot draws
    assert set(plain) == {"mean", "low", "high", "win", "decisions_per_hand"}
    assert plain["low"] <= plain["mean"] <= plain["high"] and plain["decisions_per_hand"] > 10
    # the first legal action of the wide mask is never a rank action (they come last), so the
    # rank layer plays the same hands here
    assert study.evaluate(_FirstLegal(), rules, "random", 6, 123, rank_melds=True) == plain
    study.OUT = tmp_path
    for arm, shift in (("atomic", 0.0), ("rank_melds", 100.0)):
        rows = [
            {"decisions": d, "hands": d // 300, "minutes": d / 2e5}
            | {b: {"mean": m + shift, "low": m - 50, "high": m + 50} for b in ("random", "greedy")}
            for d, m in ((0, -1000.0), (500_000, 500.0), (1_000_000, 900.0))
        ]
        document = {"arm": arm, "command": {"seed": 0}, "history": rows}
        (tmp_path / f"{arm}_seed0.json").write_text(json.dumps(document))
    png = study.plot(["random", "greedy"])
    assert png == tmp_path / "study.png" and png.stat().st_size > 10_000
