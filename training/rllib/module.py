"""The masked actor-critic RLModule of the RLlib backend (RLlib's new API stack, torch).

Input: the observation-and-mask vectors of :mod:`training.rllib.env`
(:class:`~training.rllib.env.MaskedObservationSpace`: the encoded view, the
bot's hint if the run has one, then one legal-action flag per action of the game).
The observation goes through the count features of :mod:`training.features`
(the same input as the local trainer's network), then two separate MLPs of
``net_arch`` (policy and value, as the local trainer's ``net_arch``); the
logits of illegal actions are pushed to a large negative number
(``logits + max(log(mask), FLOAT_MIN)``, so a row without any legal action —
the last observation of a finished hand — stays finite instead of NaN).

``model_config``: ``net_arch`` (list of hidden sizes), ``count_features`` (bool).

The layers are those of the local trainer's MaskablePPO policy with the same
``net_arch`` (``features -> pi -> logits``, ``features -> vf -> value``), so
:func:`training.rllib.warm_start.module_state` copies an imitation-fitted SB3
policy in one to one, and :meth:`MaskedActorCritic.to_agent` exports the actor
as the local trainer's :class:`~agents.numpy_policy.NumpyPolicy` (in a
:class:`~agents.hinted.HintedPolicy` when hinted).
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
from agents.hinted import with_hint

from ..features import CountFeatures
from ..policy import PPOAgent

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
        :func:`training.policy.frozen_actor`): a :class:`~agents.numpy_policy.NumpyPolicy`,
        wrapped in a :class:`~agents.hinted.HintedPolicy` when it reads a hint, so it plays
        plain observations and adds the hint itself."""
        space = self.observation_space
        layers = [self.pi] if isinstance(self.features, nn.Identity) else [self.features, self.pi]
        actor = copy.deepcopy(nn.Sequential(*layers))  # PPOAgent freezes the module it is given
        agent = PPOAgent(actor, name, rules=space.rules, hint=space.hint)
        return with_hint(agent.to_numpy(deterministic=deterministic, seed=seed))
