"""The single-game path of the AEC env: every step is one compiled call that finds the engine's
arrays through one table of their addresses (``driver.drive``, ``GameBatch._bind``).

On every preset the AEC env must play exactly like a batch of several games stepped through
the checked :meth:`GameBatch.step`; the arrays it returns are its own; copies and pickles
step on their own arrays (loaded positions: tests/conformance/test_positions.py).
"""

from __future__ import annotations

import copy
import pickle
from typing import NamedTuple

import numpy as np
import pytest
from numba import njit, typeof

from kanaszta_env import GameBatch, Rules
from kanaszta_env.core.packed import address_table, unpack
from kanaszta_env.envs import env
from kanaszta_env.games import preset_names


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row (a row without one: 0, ignored by the engine)."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


@pytest.mark.parametrize("preset", preset_names())
def test_aec_env_steps_like_game_one_of_a_checked_batch(preset: str) -> None:
    """1000 random decisions of game episodes (two hands of at most 16 turns): at every
    decision the AEC env's agent, observation and mask are those of game 1 of a batch of
    three (``GameBatch.step``, automatic resets), and after every step its rewards and
    episode ends are that game's; at an episode's end seat 0's observation is the batch's
    terminal one, and the AEC env deals the batch's next game."""
    rules = Rules(variant=preset, episode="game", max_hands=2, max_turns=16)
    games = GameBatch(rules, 3, observe=True, auto_reset=True, reward_scale=1e-3)
    games.reset(seed=40)
    e = env(rules)
    e.reset(seed=41)
    rng = np.random.default_rng(3)
    episodes = hand_rewards = 0
    for _ in range(1000):
        agent = e.agent_selection
        assert agent == f"player_{games.to_move[1]}"
        obs = e.observe(agent)
        np.testing.assert_array_equal(obs["observation"], games.observe()[1])
        np.testing.assert_array_equal(obs["action_mask"], games.legal_mask()[1].astype(np.int8))
        actions = random_legal(games.legal_mask(), rng)
        e.step(int(actions[1]))
        result = games.step(actions)
        rewards = np.array([e.rewards[a] for a in e.possible_agents])
        np.testing.assert_array_equal(rewards, result.rewards[1])
        ended = result.terminated[1] or result.truncated[1]
        assert all(e.terminations.values()) == result.terminated[1]
        assert all(e.truncations.values()) == result.truncated[1]
        if ended:
            np.testing.assert_array_equal(
                e.observe("player_0")["observation"], games.terminal_observations[1]
            )
            for _agent in e.agent_iter():
                e.step(None)
            e.reset(seed=int(games.deal_seeds[1]))
            episodes += 1
        else:
            hand_rewards += bool(rewards.any())
    assert episodes >= 3 and hand_rewards >= 3


@pytest.mark.parametrize("preset", ["2003-02", "pl", "tr"])
def test_returned_observations_stay_as_they_were(preset: str) -> None:
    """A learner may keep what ``observe()`` returned: neither later steps nor a reset
    change it (each observation and mask is an array of its own)."""
    e = env(variant=preset, max_turns=6)
    e.reset(seed=2)
    rng = np.random.default_rng(0)
    kept: list[tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]] = []
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy()))
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    e.reset(seed=3)
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert len(kept) > 10
    for obs, observation, mask in kept:
        np.testing.assert_array_equal(obs["observation"], observation)
        np.testing.assert_array_equal(obs["action_mask"], mask)


@pytest.mark.parametrize("preset", ["2003-02", "sk"])
def test_copies_and_pickles_step_their_own_game(preset: str) -> None:
    """A deep copy and a pickle of an env in mid-hand play on like the original, and
    stepping them leaves the original as it was."""
    e = env(variant=preset)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(15):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    before = [a.copy() for a in e.games.state]
    clones = [copy.deepcopy(e), pickle.loads(pickle.dumps(e))]
    actions = []
    for _ in range(25):
        mask = clones[0].observe(clones[0].agent_selection)["action_mask"]
        actions.append(int(rng.choice(np.flatnonzero(mask))))
        for clone in clones:
            clone.step(actions[-1])
        assert clones[0].agent_selection == clones[1].agent_selection
        np.testing.assert_array_equal(
            clones[0].observe(clones[0].agent_selection)["observation"],
            clones[1].observe(clones[1].agent_selection)["observation"],
        )
    assert not any(clones[0].terminations.values())
    assert all(np.array_equal(a, b) for a, b in zip(before, e.games.state, strict=True))
    for a in actions:  # the original plays the same game
        e.step(a)
    for clone in clones:
        assert all(np.array_equal(a, b) for a, b in zip(clone.games.state, e.games.state, strict=True))


class _Pair(NamedTuple):
    grid: np.ndarray
    row: np.ndarray


@njit
def _touch(table, kinds):
    pair, flags, values = unpack(table, kinds)
    pair.grid[1, 2, 3, 4] += 7
    values[1] = pair.row.sum() + pair.row[1]
    flags[2, 1] = True
    return pair.grid.shape[3] * 1000 + pair.row.shape[0] * 100 + flags.shape[1] * 10 + values.shape[0]


def test_address_table_reads_nested_arrays_in_place() -> None:
    """``unpack`` rebuilds a tuple of arrays and tuples of arrays (4-D, strided, bool) over
    the memory ``address_table`` addresses: writes land in the original arrays."""
    grid = np.zeros((2, 3, 4, 5), dtype=np.int8)
    strided = np.arange(12, dtype=np.int16)[::3]  # 0, 3, 6, 9: not contiguous
    flags = np.zeros((3, 2), dtype=np.bool_)
    values = np.zeros(4)
    owned = (_Pair(grid, strided), flags, values)
    table = address_table(owned)
    # per array: its address, then its extents and its strides
    assert table.dtype == np.int64 and table.shape == ((1 + 4 + 4) + (1 + 1 + 1) + (1 + 2 + 2) + (1 + 1 + 1),)
    assert table[0] == grid.ctypes.data and table[9 + 2] == strided.strides[0] == 6
    assert _touch(table, typeof(owned)) == 5 * 1000 + 4 * 100 + 2 * 10 + 4
    assert grid[1, 2, 3, 4] == 7 and grid.sum() == 7
    assert values.tolist() == [0.0, 21.0, 0.0, 0.0]
    assert flags[2, 1] and flags.sum() == 1
