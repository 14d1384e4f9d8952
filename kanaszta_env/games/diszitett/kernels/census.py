"""Card census of a game: where every card of the deck is (R1.1)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import HEART_ACE, RED_THREES, SLOT_TYPE
from .melds import group_legal, group_size
from .state import PHASE_DRAW
from .tables import TYPE_COPIES

_RED3_H, _RED3_D = RED_THREES


@njit(cache=True)
def card_census(s, b: int, out: np.ndarray) -> None:
    """Count of each card type in game ``b`` (stock, pile, hands, groups,
    collections and a wild being moved) into ``out`` (53,)."""
    out[:] = 0
    for i in range(s.stock_len[b]):
        out[s.stock[b, i]] += 1
    for i in range(s.pile_len[b]):
        out[s.pile[b, i]] += 1
    players = s.hand.shape[1]
    for p in range(players):
        for t in range(out.shape[0]):
            out[t] += s.hand[b, p, t]
        for g in range(SLOT_TYPE.shape[0]):
            for k in range(SLOT_TYPE.shape[1]):
                if SLOT_TYPE[g, k] >= 0:
                    out[SLOT_TYPE[g, k]] += s.groups[b, p, g, k]
        out[_RED3_H] += s.red_threes[b, p, 0]
        out[_RED3_D] += s.red_threes[b, p, 1]
        out[HEART_ACE] += s.sep_heart_aces[b, p]
    if s.lifted[b] >= 0:
        out[s.lifted[b]] += 1


@njit(cache=True)
def conserved(s, b: int, scratch: np.ndarray) -> bool:
    """Whether game ``b`` holds exactly the deck of its variant (112 cards in Díszített)."""
    card_census(s, b, scratch)
    for t in range(scratch.shape[0]):
        if scratch[t] != TYPE_COPIES[t]:
            return False
    return True


@njit(cache=True)
def conserved_in(s, cfg, b: int, scratch: np.ndarray) -> bool:
    """:func:`conserved` with the signature every rule set's census shares (``cfg`` unused here)."""
    return conserved(s, b, scratch)


@njit(cache=True)
def table_consistent(s, cfg, b: int) -> bool:
    """At a turn's start (the draw), whether the table agrees with the rules: every group
    legal (R10) and no wild being moved (R13). Between the steps of a turn a group may
    be incomplete."""
    if s.phase[b] != PHASE_DRAW:
        return True
    if s.lifted[b] >= 0:
        return False
    for p in range(s.groups.shape[1]):
        for g in range(s.groups.shape[2]):
            grp = s.groups[b, p, g]
            if group_size(grp) > 0 and not group_legal(g, grp):
                return False
    return True
