"""The shaping potential of classic canasta (presets ``pl``, ``sk``), read from
the observation alone (docs/observation-classic.md) like Díszített's
:class:`training.games.diszitett.shaping.ScoreEstimate`.

``phi = scale * (my side's estimate - the other sides' mean)``, where a side's
estimate is what the hand would score if it ended now (C13): the card values
of its melds, canasta bonuses (C6.1: natural and mixed), the bonus per red
three, minus ``hand_weight`` times the value of the cards in its hands — the
observer's own cards exactly, every other hand as its size times the mean
card value of the deck; every number is read from the preset's spec.
``dead_end`` takes ``1000 * dead_end * min(1, (4 - h) / 3)`` from a side
without a canasta whose observer holds ``h <= 3`` cards (nobody may go out
without a canasta, C12.2, and the holding rule keeps such a hand stuck).
"""

from __future__ import annotations

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.games.classic.observation import (
    HAND_SIZE_SCALE as HAND_SIZE_SCALE_CLASSIC,
    KIND_VALUE,
    kind_copies,
    relative_sides,
)
from kanaszta_env.observation import split

RANKS = 11
BLACK_THREE, TWO, JOKER = RANKS, RANKS + 1, RANKS + 2  # the last kinds of KIND_VALUE
HAND_WORTH = 1000.0


class ClassicScoreEstimate:
    """``phi`` of a batch of classic canasta observations (see the module docstring)."""

    def __init__(
        self, rules: Rules, scale: float = 1e-3, hand_weight: float = 0.5, dead_end: float = 0.0
    ) -> None:
        if rules.game.name != "classic":
            raise ValueError("ClassicScoreEstimate reads classic canasta observations (variant pl or sk)")
        self.rules, self.scale, self.hand_weight, self.dead_end = rules, scale, hand_weight, dead_end
        self.copies = kind_copies(rules.num_players)
        self.sides = len(set(rules.sides()))
        spec = rules.spec
        self.canasta_size, self.red_three = spec.canasta_size, float(spec.red_three_each)
        self.mixed, self.natural = (float(b) for b in spec.canasta_bonus[1:3])
        self.mean_card = float(self.copies @ KIND_VALUE / self.copies.sum())  # C1.6, red threes aside

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        """(N,) potential of each observation."""
        p = split(np.asarray(obs, dtype=np.float32), self.rules)
        melds = p["melds"].astype(np.float64)  # (N, S, 13, 3), own side first
        c = self.copies
        naturals = np.rint(melds[..., 0] * np.r_[c[:RANKS], 0.0, c[BLACK_THREE]])
        twos = np.rint(melds[..., 1] * c[TWO])
        jokers = np.rint(melds[..., 2] * c[JOKER])
        values = np.r_[KIND_VALUE[:RANKS], 0.0, KIND_VALUE[BLACK_THREE]]
        table = (naturals * values).sum(axis=2)
        table += KIND_VALUE[TWO] * twos.sum(axis=2) + KIND_VALUE[JOKER] * jokers.sum(axis=2)
        size = naturals + twos + jokers
        canasta = size[:, :, :12] >= self.canasta_size
        pure = (twos + jokers)[:, :, :12] == 0
        table += (canasta * np.where(pure, self.natural, self.mixed)).sum(axis=2)
        table += self.red_three * np.rint(p["red_threes"] * c[BLACK_THREE])  # as many red as black threes
        # hands: the observer's exactly, every other seat's by its size
        sizes = np.rint(p["hand_sizes"] * HAND_SIZE_SCALE_CLASSIC)  # (N, P) own first
        own_value = np.rint(p["hand"] * self.copies) @ KIND_VALUE
        hands = sizes * self.mean_card
        hands[:, 0] = own_value
        side = relative_sides(self.rules.sides(), p["partners"])
        estimate = table.copy()
        for s in range(self.sides):
            estimate[:, s] -= self.hand_weight * (hands * (side == s)).sum(axis=1)
        if self.dead_end:
            risk = np.clip((4.0 - sizes[:, 0]) / 3.0, 0.0, 1.0)
            estimate[:, 0] -= self.dead_end * HAND_WORTH * (p["canasta"][:, 0] == 0) * risk
        others = estimate[:, 1:].mean(axis=1) if self.sides > 1 else 0.0
        return self.scale * (estimate[:, 0] - others)
