"""A critic that reads the hidden cards during training (``privileged_critic = true``).

An asymmetric actor-critic in the manner of PerfectDou (Guan et al. 2022): the value
network also reads what the learner cannot see, the hands of every other seat (the
``hand`` piece of their observations), so that its value targets need not average over
them, while the actor reads exactly what it reads without the option (measured on
Díszített 2p: no gain at equal decisions, docs/decisions.md). Nothing of it outlives training: the
actor, its snapshots, evaluations and exports never see the hidden block.

* :class:`PrivilegedVecEnv`, the outermost layer of the training VecEnv, appends the
  other seats' hands (in turn order after the seat to move) to the learner's own
  observation (and its hint): ``[own | hint | hidden]``. Hands only, not the seats'
  whole observations: the rest is public and already in the learner's, and a hand's
  columns (53 in Díszített, 14 in classic) instead of a whole observation's keep the
  critic about as cheap as without it.
* :class:`PrivilegedFeatures` applies the usual extractor (count features or none) to
  the learner's columns and passes the hidden block on after it.
* :class:`PrivilegedCriticPolicy` is MaskablePPO's policy with an MLP extractor whose
  policy net reads the learner's features only; the value net reads all of them.
  :meth:`agents.checkpoint.PPOAgent.from_sb3` takes ``actor_extractor``, so the exported
  actor is an ordinary one.

A finished hand's last observation (``terminal_observation``, read by a truncation
bootstrap) carries the hidden block of the learner's last decision in that hand: the
engine deals the next hand in the same step, so the seats' views at the very end are gone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, FlattenExtractor, MlpExtractor
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn

from agents.base import Agent, PolicyAgent
from kanaszta_env import Rules
from kanaszta_env.envs import KanasztaVecEnv
from kanaszta_env.observation import observation_bounds, piece_offsets

from .features import CountFeatures


class PrivilegedSpace(gym.spaces.Box):
    """The learner's observation space (``actor_space``) followed by the other seats'
    hands; ``rules`` and ``hint`` are the actor's (what an exported agent declares)."""

    def __init__(self, actor_space: gym.spaces.Box) -> None:
        self.actor_space = actor_space
        self.rules = actor_space.rules  # type: ignore[attr-defined]
        self.hint = getattr(actor_space, "hint", "")
        self.actor_size = int(actor_space.shape[0])
        hand = hand_columns(self.rules)
        low, high = (bound[hand] for bound in observation_bounds(self.rules))
        others = self.rules.num_players - 1
        self.hidden_size = others * len(low)
        super().__init__(
            np.concatenate([actor_space.low, np.tile(low, others)]),
            np.concatenate([actor_space.high, np.tile(high, others)]),
            dtype=np.float32,
        )


def hand_columns(rules: Rules) -> slice:
    """The columns of the ``hand`` piece in an observation of ``rules``' game."""
    start, shape = piece_offsets(rules)["hand"]
    return slice(start, start + int(np.prod(shape)))


def other_seats(env: KanasztaVecEnv) -> np.ndarray:
    """``(N, (P - 1) * H)``: for each game of ``env``, the hands of the seats after the one
    to move (the learner's), in turn order, as their own observations encode them."""
    games = env.games
    players = games.num_players
    mover = games.to_move
    hand = hand_columns(env.rules)
    return np.concatenate([games.observe((mover + k) % players)[:, hand] for k in range(1, players)], axis=1)


class PrivilegedVecEnv(VecEnvWrapper):
    """``venv``'s observations followed by the hidden block of the games of ``slots`` (the
    :class:`~kanaszta_env.envs.KanasztaVecEnv` of the pool, in row order)."""

    def __init__(self, venv: VecEnv, slots: Sequence[KanasztaVecEnv]) -> None:
        self.slots = list(slots)
        space = PrivilegedSpace(venv.observation_space)  # type: ignore[arg-type]
        #: columns the teacher of the warm start reads (plain observations, without a hint)
        self.base_size = int(getattr(venv, "base_size", space.actor_size))
        self._hidden = np.zeros((venv.num_envs, space.hidden_size), dtype=np.float32)
        super().__init__(venv, observation_space=space)

    def _with_hidden(self, obs: np.ndarray) -> np.ndarray:
        self._hidden = np.concatenate([other_seats(env) for env in self.slots])
        return np.concatenate([obs, self._hidden], axis=1)

    def reset(self) -> np.ndarray:
        return self._with_hidden(self.venv.reset())

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, dones, infos = self.venv.step_wait()
        for i, info in enumerate(infos):
            final = info.get("terminal_observation")
            if final is not None:  # the hand's last hidden block still known (see the module docstring)
                info["terminal_observation"] = np.concatenate([final, self._hidden[i]])
        return self._with_hidden(obs), rewards, dones, infos


def actor_view(agent: Agent, columns: int) -> Agent:
    """``agent`` fed the first ``columns`` of every row: the actor's part of privileged
    observations (the DAgger student of the warm start)."""
    return PolicyAgent(lambda obs, mask: agent.act(obs[:, :columns], mask), agent.name)


class PrivilegedFeatures(BaseFeaturesExtractor):
    """The learner's features (:class:`~training.features.CountFeatures` with
    ``count_features``, else the columns as they are) followed by the hidden block."""

    def __init__(self, observation_space: PrivilegedSpace, count_features: bool = True) -> None:
        inner_class = CountFeatures if count_features else FlattenExtractor
        inner = inner_class(observation_space.actor_space)
        super().__init__(observation_space, inner.features_dim + observation_space.hidden_size)
        self.actor_extractor = inner  # what the actor reads (and what exports keep)
        self.actor_size = observation_space.actor_size
        self.actor_features_dim = inner.features_dim

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        own = self.actor_extractor(observations[:, : self.actor_size])
        return torch.cat([own, observations[:, self.actor_size :]], dim=1)


class SplitMlpExtractor(MlpExtractor):
    """MLP extractor whose policy net reads the first ``actor_dim`` features only."""

    def __init__(self, actor_dim: int, feature_dim: int, **kwargs: Any) -> None:
        super().__init__(feature_dim, **kwargs)
        self.actor_dim = actor_dim
        self.policy_net = MlpExtractor(actor_dim, **kwargs).policy_net

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return self.policy_net(features[:, : self.actor_dim])


class PrivilegedCriticPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy on a :class:`PrivilegedSpace`: one (shared, parameter-free)
    :class:`PrivilegedFeatures` extractor, the actor on the learner's features, the critic on all."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("features_extractor_class", PrivilegedFeatures)
        kwargs["share_features_extractor"] = True  # the split is in the MLP extractor
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        actor_dim = self.features_extractor.actor_features_dim
        self.mlp_extractor = SplitMlpExtractor(
            actor_dim,
            self.features_dim,
            net_arch=self.net_arch,
            activation_fn=self.activation_fn,
            device=self.device,
        )


__all__ = [
    "PrivilegedCriticPolicy",
    "PrivilegedFeatures",
    "PrivilegedSpace",
    "PrivilegedVecEnv",
    "SplitMlpExtractor",
    "actor_view",
    "other_seats",
]
