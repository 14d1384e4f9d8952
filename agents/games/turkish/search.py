"""The Turkish kanasta (preset ``tr``) kit of :class:`agents.search.SimulatedSearchBot`.

Candidates: at the draw the other of draw / take the whole pile (T4.1a), at the
discard :class:`~agents.games.turkish.bots.TurkishHeuristicBot`'s next
``max_discards - 1`` discards. Worlds are sampled by
:func:`agents.games.turkish.determinise.determinise` (the observer at seat 0) and
played on by the compiled rollout policy (:mod:`agents.games.turkish.rollout`); a
world's value is the hand's recorded scores if it ended, else each pair's score if
it ended now (T14, hands at ``hand_weight`` of their value), its pair's minus the
other's. The defaults were tuned against the heuristic on deals of seeds 9000+ only.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.games.turkish.actions import DISCARD0, DRAW, TAKE_PILE

from ...search import SearchKit
from . import rollout as R
from .bots import _VALUE, TurkishHeuristicBot
from .determinise import determinise
from .keep import keep_value


class TurkishSearch(SearchKit):
    """Candidates, sampled worlds and rollouts of Turkish kanasta (module doc)."""

    #: the settings a bare "search" plays with
    defaults: ClassVar[dict[str, float]] = dict(
        samples=24, horizon=12, max_discards=3, hand_weight=0.5, prior=0.0, z=1.0
    )

    starts, discard0 = (DRAW, TAKE_PILE), DISCARD0

    def __init__(self) -> None:
        self.heuristic = TurkishHeuristicBot()

    def discards(self, pieces: dict[str, np.ndarray], mask: np.ndarray, i: int) -> list[int]:
        """Row ``i``'s legal discards, the heuristic's likeliest (the least needed) first."""
        hand = np.rint(pieces["hand"][i] * 2).astype(np.int64)
        options = [t for t in range(NUM_TYPES) if mask[i, DISCARD0 + t]]
        options.sort(key=lambda t: -(_VALUE[t] - 100.0 * keep_value(hand, t)))
        return [DISCARD0 + t for t in options]

    def determinise(self, i: int, row: dict[str, np.ndarray], rng: np.random.Generator, samples: int):
        """Worlds of one observation row; the observer sits at seat 0."""
        return determinise(self.rules, row, rng, samples, lambda n: R.new_state(n, 4)), 0

    def simulate(self, state, seat: int, first: np.ndarray, horizon: int, hand_weight: float) -> np.ndarray:
        """Pair 0's value minus pair 1's after the rollouts (the observer sits at seat 0)."""
        values = np.zeros(len(first), dtype=np.float64)
        R.rollout(state, self.cfg, first, horizon, hand_weight, values)
        return values
