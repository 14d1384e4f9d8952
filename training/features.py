"""Count features for the policy network, as an SB3 features extractor.

:class:`CountFeatures` (no parameters) returns the observation followed by
the one-hot hand sizes and canasta counts of every seat that
:func:`agents.count_features.count_features` computes — see that module for
why a small network needs them. It only re-expresses what the observation
holds, so the policy still sees nothing but the player's own information.
The number of players and the slots it reads come from the declaration: the
rules the observation space names (:class:`kanaszta_env.spaces.ObservationSpace`,
which every environment of the package uses) and the spec's piece offsets.
"""

from __future__ import annotations

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from agents.count_features import CANASTA_BUCKETS, HAND_BUCKETS, count_features, count_layout
from kanaszta_env.spaces import rules_of_space

__all__ = ["CANASTA_BUCKETS", "HAND_BUCKETS", "CountFeatures"]


class CountFeatures(BaseFeaturesExtractor):
    """Observation followed by one-hot hand sizes and canasta counts of every seat.

    ``observation_space`` must declare its rules (an
    :class:`~kanaszta_env.spaces.ObservationSpace`, as the package's
    environments give); a plain ``Box`` is refused.
    """

    def __init__(self, observation_space: gym.spaces.Box) -> None:
        rules = rules_of_space(observation_space)
        size = int(observation_space.shape[0])
        self.layout = count_layout(rules)
        super().__init__(observation_space, size + self.layout.size)
        self.observation_size = size  # read by agents.checkpoint to check inputs
        self.rules = rules  # the rules it was built for (agents.checkpoint reports them)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        extra = count_features(observations.detach().cpu().numpy(), self.layout)
        extra_t = torch.from_numpy(extra).to(device=observations.device, dtype=observations.dtype)
        return torch.cat([observations, extra_t], dim=1)
