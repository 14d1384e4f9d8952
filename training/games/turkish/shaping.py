"""The shaping potential of Turkish kanasta (preset ``tr``), read from the observation
alone (docs/observation-turkish.md) like classic canasta's
:class:`training.games.classic.shaping.ClassicScoreEstimate`.

``phi = scale * (my pair's estimate - the other pair's)``, where a pair's estimate
is what its hand would score if it ended now (T14): the card values of its melds
(a wild at its own value, a 2 in its own place in a run too: a few points off),
its canasta bonuses (half, whole, full), the Fi bonus per used Fi it took, the
no-Fi penalty if it took none, minus ``hand_weight`` times the value of the
cards in both partners' hands — the observer's own cards exactly, every other
hand as its publicly known cards plus the mean card value for the rest; a hand
that is a Fi not used yet costs nothing. Going out arrives with the real reward
(``phi`` of a finished hand is 0); the forced opening's penalty (T12.3) is left out.

Every number is the game's: the spec's card values, copies and canasta bonuses,
and the Fi bonus and no-Fi penalty as :func:`~kanaszta_env.games.turkish.scoring.pair_score`
computes them.
"""

from __future__ import annotations

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.games.turkish.observation import HAND_SIZE_SCALE
from kanaszta_env.games.turkish.scoring import pair_score
from kanaszta_env.observation import split


class TurkishScoreEstimate:
    """``phi`` of a batch of Turkish kanasta observations (see the module docstring)."""

    def __init__(self, rules: Rules, scale: float = 1e-3, hand_weight: float = 0.5) -> None:
        if rules.game.name != "turkish":
            raise ValueError("TurkishScoreEstimate reads Turkish kanasta observations (variant tr)")
        spec = rules.spec
        self.rules, self.scale, self.hand_weight = rules, scale, hand_weight
        self.copies = np.asarray(spec.type_copies, dtype=np.float64)
        self.value = np.asarray(spec.card_value, dtype=np.float64)
        self.penalty = np.asarray(spec.hand_penalty, dtype=np.float64)
        self.mean_card = float(self.copies @ self.penalty / self.copies.sum())
        self.bonus = np.asarray(spec.canasta_bonus[1:], dtype=np.float64)  # half, whole, full
        self.no_fi = float(pair_score([], fis_taken=1) - pair_score([]))
        self.fi_bonus = float(pair_score([], fis_taken=1, fis_used=1) - pair_score([], fis_taken=1))
        self.pair_of = np.eye(2)[np.asarray(rules.sides())]  # (seats, pairs): relative seat k in pair k % 2
        self.seats = rules.num_players  # the fis piece: one-hot taker, then "on the table", then "used"

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        """(N,) potential of each observation."""
        p = split(np.asarray(obs, dtype=np.float64), self.rules)
        melds = np.rint(p["melds"] * self.copies)  # (N, 2, slots, 53), own pair first
        table = (melds @ self.value).sum(axis=2) + (p["meld_kind"] @ self.bonus).sum(axis=2)
        fis = p["fis"]  # (N, 2 Fis, 6)
        taker = fis[:, :, : self.seats]  # (N, Fis, seats)
        taken = taker @ self.pair_of  # (N, Fis, pairs)
        used = fis[:, :, -1:]
        table += self.fi_bonus * (taken * used).sum(axis=1) - self.no_fi * (taken.sum(axis=1) == 0)
        # hands: the observer's exactly, the others' known cards and the mean value for the rest
        sizes = np.rint(p["hand_sizes"] * HAND_SIZE_SCALE)  # (N, seats), own first
        known = np.rint(p["known_cards"] * self.copies)  # (N, 3, 53)
        hands = np.empty_like(sizes)
        hands[:, 0] = np.rint(p["hand"] * self.copies) @ self.penalty
        rest = np.maximum(sizes[:, 1:] - known.sum(axis=2), 0.0)
        hands[:, 1:] = known @ self.penalty + rest * self.mean_card
        hands *= 1.0 - np.minimum((taker * (1.0 - used)).sum(axis=1), 1.0)  # an unused Fi costs nothing
        estimate = table - self.hand_weight * hands @ self.pair_of
        return self.scale * (estimate[:, 0] - estimate[:, 1])
