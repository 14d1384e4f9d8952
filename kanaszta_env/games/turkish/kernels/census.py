"""Card census of a Turkish kanasta game: the 106 cards (T1.1) all accounted for in the
stock, the pile, the hands, the melds and the Fis nobody has taken."""

from __future__ import annotations

import numpy as np
from numba import njit

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
