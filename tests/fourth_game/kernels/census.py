"""Card census and the table's consistency of a mini canasta game (M1, M4-M6)."""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.core.common import hand_size

from .cards import naturals, wilds
from .state import PHASE_DRAW, PHASE_MELD
from .tables import COPIES, MELD_RANK, MIN_MELD, PLAYERS


@njit(cache=True)
def conserved(s, cfg, b: int, scratch: np.ndarray) -> bool:
    """Whether game ``b`` holds the deck exactly (M1): stock, pile, hands and melds."""
    scratch[:] = 0
    for i in range(s.stock_len[b]):
        scratch[s.stock[b, i]] += 1
    for i in range(s.pile_len[b]):
        scratch[s.pile[b, i]] += 1
    for q in range(PLAYERS):
        for t in range(NUM_TYPES):
            scratch[t] += s.hand[b, q, t]
            for i in range(s.melds.shape[2]):
                scratch[t] += s.melds[b, q, i, t]
    for t in range(NUM_TYPES):
        if scratch[t] != COPIES[t]:
            return False
    return True


@njit(cache=True)
def consistent(s, cfg, b: int) -> bool:
    """Whether every meld holds only its rank's naturals and fewer wilds, three cards or more
    (M4, M5), and the mover's hand is not empty while he plays (M6)."""
    for q in range(PLAYERS):
        for i in range(s.melds.shape[2]):
            meld = s.melds[b, q, i]
            laid, wild = naturals(meld, MELD_RANK[i]), wilds(meld)
            if hand_size(meld) != laid + wild:
                return False
            if hand_size(meld) > 0 and (laid + wild < MIN_MELD or wild >= laid):
                return False
    playing = s.phase[b] == PHASE_DRAW or s.phase[b] == PHASE_MELD
    return not playing or hand_size(s.hand[b, s.to_move[b]]) > 0
