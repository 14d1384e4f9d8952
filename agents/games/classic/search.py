"""The classic canasta (``pl``, ``sk``) kit of :class:`agents.search.SimulatedSearchBot`.

Candidates: at the draw the other of draw / take_pile (C4.1, C7), at the discard
:class:`~agents.games.classic.bots.ClassicHeuristicBot`'s next ``max_discards - 1``
discards. Positions are sampled by :func:`agents.games.classic.determinise.determinise`
and played on by the compiled heuristic (:mod:`agents.games.classic.rollout`); a
position's value is what the reward counts: the hand's recorded scores if it ended,
else the standings (C13.2) with the cards in hand at ``hand_weight`` of their penalty.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.games.classic.actions import DISCARD0, DRAW, TAKE_PILE

from ...search import SearchKit
from . import rollout as R
from .bots import ClassicHeuristicBot
from .determinise import determinise


class ClassicSearch(SearchKit):
    """Candidates, sampled positions and rollouts of classic canasta (module doc)."""

    #: the settings a bare "search" plays with
    defaults: ClassVar[dict[str, float]] = dict(
        samples=16, horizon=16, max_discards=3, hand_weight=0.25, prior=0.0, z=1.5
    )

    starts, discard0 = (DRAW, TAKE_PILE), DISCARD0

    def __init__(self) -> None:
        self.heuristic = ClassicHeuristicBot()

    def setup(self, rules: Rules) -> None:
        """Set the heuristic up for ``rules``; the simulations play single hands."""
        super().setup(rules)
        self.rules = dataclasses.replace(rules, episode="hand")
        self.cfg = self.rules.to_config()

    def discards(self, pieces: dict[str, np.ndarray], mask: np.ndarray, i: int) -> list[int]:
        """Row ``i``'s legal discards by the heuristic's preference."""
        prefs = self.heuristic.scores({name: v[i : i + 1] for name, v in pieces.items()})[0]
        return [int(a) for a in DISCARD0 + np.argsort(-prefs[DISCARD0:], kind="stable") if mask[i, a]]

    def determinise(self, i: int, row: dict[str, np.ndarray], rng: np.random.Generator, samples: int):
        """Positions of one observation row and the observer's seat in them."""
        return determinise(self.rules, row, rng, samples)

    def simulate(self, state, seat: int, first: np.ndarray, horizon: int, hand_weight: float) -> np.ndarray:
        """``seat``'s side's value after the rollouts."""
        over = np.zeros(len(first), dtype=np.bool_)
        R.rollout(state, self.cfg, first, horizon, over)
        return R.values(state, self.cfg, over, seat, hand_weight)
