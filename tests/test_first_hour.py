"""What a newcomer tries first, written as the PettingZoo, Gymnasium and
sb3-contrib docs write it: each must work (or fail with a sentence)."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest

import kanaszta_env
from kanaszta_env import GameBatch, IllegalActionError, Rules, env, position
from kanaszta_env.envs import KanasztaGymEnv
from kanaszta_env.envs.render import render_table
from kanaszta_env.observation import split


def test_sb3_make_vec_env_and_maskable_ppo_from_the_id() -> None:
    """SB3 passes render_mode='rgb_array' when it builds an env from its id."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("Kanaszta-v0", n_envs=2)
    assert venv.reset().shape == (2, *venv.observation_space.shape)
    model = MaskablePPO("MlpPolicy", "Kanaszta-v0", n_steps=16, batch_size=16, n_epochs=1)
    model.learn(32)
    assert model.num_timesteps >= 32


def test_gym_make_exposes_action_masks_and_int8_masks() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.wrappers import ActionMasker

    e = gym.make("Kanaszta-v0")
    _, info = e.reset(seed=0)
    assert e.action_masks().dtype == np.int8 and info["action_mask"].dtype == np.int8
    action = e.action_space.sample(mask=info["action_mask"])
    assert info["action_mask"][action] == 1
    masked = ActionMasker(e, lambda env_: env_.action_masks())
    np.testing.assert_array_equal(masked.action_masks(), info["action_mask"])
    masked.step(int(action))


def test_gym_make_with_the_module_prefix_needs_no_import() -> None:
    code = (
        "import gymnasium as gym; e = gym.make('kanaszta_env:Kanaszta-v0'); print(e.reset(seed=1)[0].shape)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().startswith("(")


@pytest.mark.parametrize("mode", ["rgb_array", "ansi"])
def test_render_modes(mode: str) -> None:
    e = gym.make("Kanaszta-v0", render_mode=mode)
    e.reset(seed=3)
    frame = e.render()
    if mode == "rgb_array":
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3 and frame.std() > 0
    else:
        assert "hand" in frame
    with pytest.raises(ValueError, match="render_mode must be one of"):
        KanasztaGymEnv(render_mode="video")


def test_opponents_by_name_are_built_with_the_envs_rules() -> None:
    pytest.importorskip("stable_baselines3")
    from agents.games.diszitett.heuristic import HeuristicBot
    from kanaszta_env.envs.vec_env import KanasztaVecEnv

    e = gym.make("Kanaszta-v0", opponents="heuristic", num_players=3)
    _, info = e.reset(seed=2)
    for _ in range(30):
        _obs, _, term, trunc, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
        if term or trunc:
            break
    # a bot built for two players, seated in a three-player VecEnv, is set up for three
    venv = KanasztaVecEnv(4, num_players=3, opponents=HeuristicBot())
    venv.reset()
    venv.step(venv.action_masks().argmax(axis=1))
    with pytest.raises(ValueError, match="unknown agent"):
        KanasztaGymEnv(opponents="nosuchbot")


def test_unknown_discard_owner_is_not_told_to_anyone() -> None:
    """A position may leave the top card's discarder unknown (-1): no observer
    is told he or anybody else discarded it."""
    games = GameBatch(Rules(), 1)
    games.reset(seed=11)
    doc = position.dump(games)
    while doc["phase"] != "draw" or not doc["discard"]:
        games.step(int(np.flatnonzero(games.legal_mask()[0])[0]))
        doc = position.dump(games)
    doc["discard_owners"] = [-1] * len(doc["discard"])
    loaded = position.load(doc)
    for seat in range(2):
        owner = split(loaded.observe(seat)[0])["pile_top_owner"]
        assert not owner.any()

    def pile(state) -> str:
        return next(
            line for line in render_table(state, loaded.rules, 0).splitlines() if "discard pile" in line
        )

    assert " from player_" in pile(games.state)
    assert " from " not in pile(loaded.state)  # the top card's discarder is unknown, not guessed


def test_rules_and_small_api_edges() -> None:
    assert isinstance(kanaszta_env.__version__, str)
    assert {"GameBatch", "Rules", "env"} <= set(kanaszta_env.__all__)
    assert Rules(num_players=np.int64(3)).num_players == 3
    with pytest.raises(ValueError, match="opening_minimum must be an integer"):
        Rules(opening_minimum=75.0)
    with pytest.raises(ValueError, match="random_starter"):
        Rules(random_starter="yes")
    assert env(Rules(num_players=3)).possible_agents == ["player_0", "player_1", "player_2"]
    games = GameBatch(Rules(), 1)
    with pytest.raises(RuntimeError, match="reset"):
        games.step(0)
    games.reset(seed=0)
    games.step(0)  # a batch of one takes a scalar
    e = env()
    e.reset(seed=2**64 - 1)
    with pytest.raises(IllegalActionError, match="integer"):
        e.step(True)
    with pytest.raises(ValueError, match="seed"):
        e.reset(seed=2**64)
    with pytest.raises(ValueError, match="seed"):
        GameBatch(Rules(), 2).reset(seed=-1)


def test_aec_reset_from_a_position_copies_state_and_final_infos() -> None:
    source = GameBatch(Rules(max_turns=12), 1)
    source.reset(seed=5)
    for _ in range(7):
        source.step(int(np.flatnonzero(source.legal_mask()[0])[-1]))
    doc = position.dump(source)
    e = env(Rules(max_turns=12))
    e.reset(options={"position": doc})
    assert position.dump(e.games) == doc
    assert e.agent_selection == f"player_{doc['to_move']}"
    twin = copy.deepcopy(e)
    again = pickle.loads(pickle.dumps(e))
    for other in (twin, again):
        assert position.dump(other.games) == doc and other.agent_selection == e.agent_selection
    assert e.state().shape == e.state_space.shape
    rng = np.random.default_rng(0)
    for _agent in e.agent_iter(5_000):
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            assert {"hand_scores", "totals", "end_reason"} <= set(info)
            assert info["end_reason"] in ("out", "exhausted", "turn_limit")
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not twin.games.done[0]  # the copies are independent


def test_gym_reset_from_a_position_puts_the_learner_in_the_seat_to_move() -> None:
    source = GameBatch(Rules(), 1)
    source.reset(seed=9)
    for _ in range(5):
        source.step(int(np.flatnonzero(source.legal_mask()[0])[0]))
    doc = position.dump(source)
    e = KanasztaGymEnv(opponents="random")
    obs, info = e.reset(options={"position": doc})
    assert info["learner_seat"] == doc["to_move"]
    np.testing.assert_array_equal(obs, source.observe(doc["to_move"])[0])
