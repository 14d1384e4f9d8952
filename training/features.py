"""Count features for the policy network: the observation plus a few exact counts in one-hot form.

The observation stores hand sizes as ``size / 64`` and canastas as one-hot
kinds per group (see ``docs/observation.md``): complete, but a small MLP
reads "three cards left" versus "two cards left" from a difference of 1/64 in
one input, and "has a canasta" from a maximum over 12 groups. Those two counts
decide whether melding another card is safe: a player without a canasta who
melds down to one card can never go out (R14.1) and plays on to the turn
limit. Imitating the teacher, the plain network got these decisions wrong
often enough to lose about 9% of its hands against RandomBot.

:class:`CountFeatures` is an SB3 features extractor (no parameters) that
appends, for every seat (own seat first, as in the observation):

* the hand size, one-hot ``0, 1, ..., 15`` and ``16+``;
* the number of canastas, one-hot ``0, 1, 2`` and ``3+``.

It only re-expresses what the observation holds, so the policy still sees
nothing but the player's own information. The number of players and the
slots it reads come from the declaration: the rules the observation space
names (:class:`kanaszta_env.encoding.ObservationSpace`, which every
environment of the package uses) and the spec's piece offsets.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from kanaszta_env.encoding import HAND_SIZE_SCALE, piece_offsets, rules_of_space
from kanaszta_env.encoding_classic import HAND_SIZE_SCALE as CLASSIC_HAND_SIZE_SCALE
from kanaszta_env.encoding_classic import relative_sides

HAND_BUCKETS = 17  # hand sizes 0..15, then 16 or more
CANASTA_BUCKETS = 4  # canastas 0, 1, 2, then 3 or more


class CountFeatures(BaseFeaturesExtractor):
    """Observation followed by one-hot hand sizes and canasta counts of every seat.

    ``observation_space`` must declare its rules (an
    :class:`~kanaszta_env.encoding.ObservationSpace`, as the package's
    environments give); a plain ``Box`` is refused.
    """

    def __init__(self, observation_space: gym.spaces.Box) -> None:
        rules = rules_of_space(observation_space)
        size = int(observation_space.shape[0])
        players = rules.num_players
        super().__init__(observation_space, size + players * (HAND_BUCKETS + CANASTA_BUCKETS))
        self.observation_size = size  # read by training.policy to check inputs
        self.rules = rules  # the rules it was built for (training.policy reports them)
        offsets = piece_offsets(rules)
        if rules.classic:  # hand sizes per seat; a side's canasta flag, one per seat by its side
            start, _ = offsets["hand_sizes"]
            self.hand_slots = [start + seat for seat in range(players)]
            self.hand_scale = CLASSIC_HAND_SIZE_SCALE
            self.canasta_slice = (offsets["canasta"][0], offsets["canasta"][0] + len(set(rules.sides())))
            self.canasta_shape = ()
            self.partner_slice = (offsets["partners"][0], offsets["partners"][0] + players)
            return
        self.hand_scale = HAND_SIZE_SCALE
        ps_start, ps_shape = offsets["player_state"]  # rows: twins, hand size, opened; one column per seat
        self.hand_slots = [ps_start + ps_shape[1] + seat for seat in range(players)]
        can_start, can_shape = offsets["canasta"]  # (seats, groups, kinds)
        self.canasta_slice = (can_start, can_start + int(np.prod(can_shape)))
        self.canasta_shape = tuple(int(n) for n in can_shape)
        self.partner_slice: tuple[int, int] | None = None

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        hand = torch.round(observations[:, self.hand_slots] * self.hand_scale).long()
        hand = hand.clamp(0, HAND_BUCKETS - 1)
        if self.partner_slice is not None:  # classic: has each seat's side a canasta (C6)
            lo, hi = self.partner_slice
            rel = relative_sides(self.rules.sides(), observations[:, lo:hi].detach().cpu().numpy())
            lo, hi = self.canasta_slice
            side = torch.from_numpy(rel).to(observations.device)
            canastas = (torch.gather(observations[:, lo:hi], 1, side) > 0.5).long()
        else:
            lo, hi = self.canasta_slice
            kinds = observations[:, lo:hi].reshape(-1, *self.canasta_shape)
            canastas = (kinds.sum(dim=-1) > 0.5).sum(dim=-1).clamp(max=CANASTA_BUCKETS - 1)
        extra = [
            torch.nn.functional.one_hot(hand, HAND_BUCKETS).flatten(1),
            torch.nn.functional.one_hot(canastas, CANASTA_BUCKETS).flatten(1),
        ]
        return torch.cat([observations, *(e.to(observations.dtype) for e in extra)], dim=1)
