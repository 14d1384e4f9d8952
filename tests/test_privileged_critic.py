"""``privileged_critic``: the value network reads the other seats' hands during
training, the actor (and everything exported from it) reads the learner's own. A privileged
run's export, evaluation and resume: tests/test_training.py."""

from __future__ import annotations

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from agents.checkpoint import PPOAgent
from training.config import TrainConfig, parse_weights
from training.opponents import OpponentPool
from training.privileged import hand_columns
from training.train import build_env, build_model


def _setup(privileged: bool = True, hint: str = ""):
    config = TrainConfig(
        num_envs=8, opponent_slots=2, max_turns=30, net_arch=[32], opponents="random:1",
        privileged_critic=privileged, hint=hint,
    )  # fmt: skip
    env, base = build_env(config, OpponentPool(parse_weights(config.opponents), config.rules(), seed=0))
    return config, env, base, build_model(config, env, None)


def _probs_and_values(model, obs: np.ndarray, mask: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    with torch.no_grad():
        x = torch.as_tensor(obs)
        probs = model.policy.get_distribution(x, action_masks=mask).distribution.probs
        return probs, model.policy.predict_values(x).squeeze(1)


@pytest.mark.parametrize("hint", ["", "heuristic"])
def test_actor_ignores_the_hidden_block_the_critic_reads_it(hint: str) -> None:
    config, env, base, model = _setup(hint=hint)
    space = env.observation_space
    obs, mask = env.reset(), base.action_masks().astype(bool)
    own = obs[:, : space.actor_size]
    for slot in base.envs:  # the block is the other seat's view of the learner's game, not his own
        games = slot._games
        np.testing.assert_array_equal(games.observe(games.to_move), games.observe())
    hidden = obs[:, space.actor_size :]
    games, hand = base.envs[0]._games, hand_columns(config.rules())
    assert space.hidden_size == hand.stop - hand.start  # one other seat's hand
    np.testing.assert_array_equal(hidden[:4], games.observe(1 - games.to_move)[:, hand])
    assert not np.array_equal(hidden, own[:, hand])  # the other seat's hand, not the learner's

    probs, values = _probs_and_values(model, obs, mask)
    redealt = np.concatenate([own, hidden[::-1]], axis=1)  # other games' hidden cards
    noisy = np.concatenate([own, hidden + np.random.default_rng(0).random(hidden.shape, np.float32)], axis=1)
    for changed in (redealt, noisy):
        probs2, values2 = _probs_and_values(model, changed, mask)
        assert torch.equal(probs, probs2)
        assert not torch.allclose(values, values2)
    # the frozen actor (snapshots, evaluations, exports) reads the learner's columns only
    actor = PPOAgent.from_sb3(model.policy)
    assert actor.obs_size == space.actor_size
    torch.testing.assert_close(torch.softmax(actor.logits(own, mask), dim=1), probs)


def test_terminal_observations_keep_the_hands_last_hidden_block() -> None:
    _, env, base, _ = _setup()
    size = env.observation_space.actor_size
    obs, ended = env.reset(), 0
    rng = np.random.default_rng(1)
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in base.action_masks()])
        new_obs, _, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            final = infos[i]["terminal_observation"]
            assert final.shape == obs.shape[1:]
            np.testing.assert_array_equal(final[size:], obs[i, size:])  # the learner's last decision's
            ended += 1
        obs = new_obs
    assert ended > 0
