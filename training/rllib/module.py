"""The masked actor-critic RLModule of the RLlib backend (RLlib's new API stack, torch).

Input: the observation-and-mask vectors of :mod:`training.rllib.env` (the view, the hint if the
run has one, the legal-action flags). The observation goes through the count features of
:mod:`training.features`, then separate policy and value MLPs of ``net_arch``
(``model_config``: ``net_arch``, ``count_features``), as the local trainer's network; illegal
logits get ``logits + max(log(mask), FLOAT_MIN)``, finite even on a row without a legal action
(the last observation of a finished hand). Being the local trainer's layers, an imitation-fitted
SB3 policy copies in one to one (:func:`training.rllib.warm_start.module_state`) and
:meth:`MaskedActorCritic.to_agent` exports the actor as the local trainer's
:class:`~agents.numpy_policy.NumpyPolicy` (in a :class:`~agents.hinted.HintedPolicy` when hinted).
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from torch import nn

from agents.base import Agent
from agents.checkpoint import PPOAgent
from agents.hinted import with_hint

from ..features import CountFeatures

FLOAT_MIN = -3.4e38  # finite: log(0) clamped here keeps the softmax defined


def mlp(sizes: list[int], out: int) -> nn.Sequential:
    """``Linear, Tanh`` per hidden size of ``sizes[1:]``, then a linear layer of ``out``."""
    layers: list[nn.Module] = []
    for a, b in itertools.pairwise(sizes):
        layers += [nn.Linear(a, b), nn.Tanh()]
    layers.append(nn.Linear(sizes[-1], out))
    return nn.Sequential(*layers)


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """Masked policy logits and a value head over the learner's observation."""

    def setup(self) -> None:
        cfg = self.model_config or {}
        arch = [int(n) for n in cfg.get("net_arch", [128, 128])]
        size = int(self.observation_space.observation_size)
        obs_space = self.observation_space.inner()
        if cfg.get("count_features", True):
            self.features: nn.Module = CountFeatures(obs_space)
            width = int(self.features.features_dim)
        else:
            self.features = nn.Identity()
            width = size
        self.pi = mlp([width, *arch], int(self.action_space.n))
        self.vf = mlp([width, *arch], 1)
        self.observation_size = size

    def _inputs(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        obs = batch[Columns.OBS].float()
        return self.features(obs[:, : self.observation_size]), obs[:, self.observation_size :]

    def masked_logits(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.pi(x) + torch.clamp(torch.log(mask.float()), min=FLOAT_MIN)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        x, mask = self._inputs(batch)
        return {Columns.ACTION_DIST_INPUTS: self.masked_logits(x, mask)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        x, mask = self._inputs(batch)
        return {Columns.ACTION_DIST_INPUTS: self.masked_logits(x, mask), Columns.EMBEDDINGS: x}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is None:
            embeddings, _ = self._inputs(batch)
        return self.vf(embeddings).squeeze(-1)

    def to_agent(self, name: str = "rllib", *, deterministic: bool = True, seed: int = 0) -> Agent:
        """A frozen copy of the actor as the local trainer's agent (as
        :func:`agents.checkpoint.frozen_actor`): a :class:`~agents.numpy_policy.NumpyPolicy`,
        wrapped in a :class:`~agents.hinted.HintedPolicy` when it reads a hint, so it plays
        plain observations and adds the hint itself."""
        space = self.observation_space
        layers = [self.pi] if isinstance(self.features, nn.Identity) else [self.features, self.pi]
        actor = copy.deepcopy(nn.Sequential(*layers))  # PPOAgent freezes the module it is given
        agent = PPOAgent(actor, name, rules=space.rules, hint=space.hint)
        return with_hint(agent.to_numpy(deterministic=deterministic, seed=seed))
