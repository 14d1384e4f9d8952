"""The legal actions of mini canasta (M3-M6)."""

from __future__ import annotations

from numba import njit

from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.core.common import hand_size

from .. import actions as A
from .cards import naturals, wilds
from .state import PHASE_DRAW, PHASE_MELD
from .tables import MELD_RANK, MIN_MELD


@njit(cache=True)
def legal_row(s, cfg, b: int, row) -> int:
    """Write game ``b``'s legal actions into the bool ``row``; returns how many."""
    row[:] = False
    if s.phase[b] == PHASE_DRAW:  # M3 (the stock is never empty at a turn's start, M7)
        row[A.DRAW] = True
        return 1
    if s.phase[b] != PHASE_MELD:
        return 0
    p = s.to_move[b]
    hand = s.hand[b, p]
    size, wild = hand_size(hand), wilds(hand) > 0
    n = 0
    for i in range(A.NUM_MELDS):
        held, meld = naturals(hand, MELD_RANK[i]), s.melds[b, p, i]
        laid = naturals(meld, MELD_RANK[i])
        if laid == 0:  # M4, M6: three cards, one left in hand
            if size > MIN_MELD and (held >= MIN_MELD or (held == MIN_MELD - 1 and wild)):
                row[A.MELD0 + i] = True
                n += 1
        elif size > 1:  # M5, M6
            if held > 0:
                row[A.ADD0 + i] = True
                n += 1
            if wild and wilds(meld) + 1 < laid:
                row[A.WILD0 + i] = True
                n += 1
    for t in range(NUM_TYPES):
        if hand[t] > 0:
            row[A.DISCARD0 + t] = True
            n += 1
    return n
