"""Card census of a Turkish kanasta game: the 106 cards (T1.1) all accounted for in the
stock, the pile, the hands, the melds and the Fis nobody has taken."""

from __future__ import annotations

import numpy as np
from numba import njit

from .melds import VALID, analyse
from .state import PHASE_DRAW
from .tables import NUM_FIS, PACKET, PAIRS, PLAYERS


@njit(cache=True)
def conserved(s, cfg, b: int, scratch: np.ndarray) -> bool:
    """Whether game ``b`` holds exactly two cards of every type, and its meld slots agree with
    their counts (sizes, owners of the pair, free slots empty)."""
    scratch[:] = 0
    for i in range(s.stock_len[b]):
        scratch[s.stock[b, i]] += 1
    for i in range(s.pile_len[b]):
        scratch[s.pile[b, i]] += 1
    for f in range(NUM_FIS):
        if s.fi_taker[b, f] < 0:
            for i in range(PACKET):
                scratch[s.fi[b, f, i]] += 1
    for q in range(PLAYERS):
        for t in range(scratch.shape[0]):
            scratch[t] += s.hand[b, q, t]
    for pair in range(PAIRS):
        for k in range(s.melds.shape[2]):
            size = 0
            for t in range(scratch.shape[0]):
                size += s.melds[b, pair, k, t]
                scratch[t] += s.melds[b, pair, k, t]
            used = k < s.meld_count[b, pair]
            if size != s.meld_size[b, pair, k] or (used and s.meld_owner[b, pair, k] % 2 != pair):
                return False
            if not used and (size != 0 or s.meld_owner[b, pair, k] != -1):
                return False
    for t in range(scratch.shape[0]):
        if scratch[t] != 2:
            return False
    return True


@njit(cache=True)
def table_consistent(s, cfg, b: int) -> bool:
    """At a turn's start (the draw), whether the table agrees with the rules: every meld
    legal (T5-T7), a canasta kind exactly on the melds of 7 cards or more (T8.2), and no
    seat both opened and a layer-off (T10.2). Between the steps of a turn a meld may be
    incomplete."""
    if s.phase[b] != PHASE_DRAW:
        return True
    for pair in range(PAIRS):
        for k in range(s.meld_count[b, pair]):
            if analyse(s.melds[b, pair, k])[0] != VALID:
                return False
            if (s.meld_size[b, pair, k] >= 7) != (s.meld_kind[b, pair, k] > 0):
                return False
    for q in range(PLAYERS):
        if s.opened[b, q] == 1 and s.layoff[b, q] == 1:
            return False
    return True
