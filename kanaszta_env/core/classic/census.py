"""Card census of a classic canasta game: the 108 or 162 cards (C1.1) all accounted for."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rules_classic import CC_DECKS
from .tables import IS_RED, JOKER_TYPE, MELD_SLOT_TYPE


@njit(cache=True)
def conserved(s, cfg, b: int, scratch: np.ndarray) -> bool:
    """Whether game ``b`` holds exactly its deck: every card type in stock, pile, hands and
    melds, and the red threes (laid out as a count per side) in total."""
    scratch[:] = 0
    for i in range(s.stock_len[b]):
        scratch[s.stock[b, i]] += 1
    for i in range(s.pile_len[b]):
        scratch[s.pile[b, i]] += 1
    red = 0
    for q in range(s.hand.shape[1]):
        for t in range(scratch.shape[0]):
            scratch[t] += s.hand[b, q, t]
        for g in range(MELD_SLOT_TYPE.shape[0]):
            for k in range(MELD_SLOT_TYPE.shape[1]):
                if MELD_SLOT_TYPE[g, k] >= 0:
                    scratch[MELD_SLOT_TYPE[g, k]] += s.groups[b, q, g, k]
        red += s.red_threes[b, q]
    decks = cfg[CC_DECKS]
    for t in range(scratch.shape[0]):
        if IS_RED[t]:
            red += scratch[t]
        elif scratch[t] != (2 * decks if t == JOKER_TYPE else decks):
            return False
    return red == 2 * decks
