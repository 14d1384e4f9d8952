"""Mini canasta's bot for the agents layer (``make_agent("heuristic", rules)``): the
opponent and the adviser of ``kanaszta play``, registered with the game's package."""

from __future__ import annotations

import numpy as np

from agents.base import Agent
from agents.registry import Bot, register_bot

from . import actions as A
from .spec import MINI

#: preference of each action: melds, then lay-offs of naturals, then of wilds (M4, M5); then
#: the discard of the most valuable card, which would cost its value in hand (M8)
_PREFERENCE = np.zeros(A.NUM_ACTIONS)
_PREFERENCE[A.MELD0 : A.ADD0] = 3000
_PREFERENCE[A.ADD0 : A.WILD0] = 2000
_PREFERENCE[A.WILD0 : A.DISCARD0] = 1000
_PREFERENCE[A.DISCARD0 :] = MINI.card_value


class MiniHeuristicBot(Agent):
    """Lays every card it can, and discards its most valuable card (the lowest type on a tie)."""

    name = "heuristic"

    def __init__(self, rules: object = None) -> None:
        self.rules = rules

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        return np.where(np.asarray(mask, dtype=bool), _PREFERENCE, -1.0).argmax(axis=1)


register_bot(MINI.name, "heuristic", Bot(MiniHeuristicBot))
