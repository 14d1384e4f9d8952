"""Group arithmetic of the meld planner (compiled): the card types of each
group, and what a plan of ``tn`` naturals and ``tw`` wilds per group holds —
its R12.3 value, the room for more wilds, a canasta, the cards left in hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env.cards import GROUP_CARD_VALUE, JOKER, NATURAL_RANKS, WILD_GROUP
from kanaszta_env.games.diszitett.compiled import CANASTA_SIZE, max_wilds

NG = 11  # natural groups
G = 12
NAT_TYPE = np.array([[r * 4 + s for s in range(4)] for r in NATURAL_RANKS], dtype=np.int64)
WILD_TYPE = np.array([4, 5, 6, 7, JOKER], dtype=np.int64)
_GROUP_VALUE = GROUP_CARD_VALUE.astype(np.int64)


@njit(cache=True)
def hand_naturals(hand: np.ndarray, g: int, reserve: np.ndarray) -> int:
    """Naturals of group ``g`` in the hand, not counting reserved cards."""
    total = 0
    for s in range(4):
        t = NAT_TYPE[g, s]
        total += max(hand[t] - reserve[t], 0)
    return total


@njit(cache=True)
def plan_value(tn: np.ndarray, tw: np.ndarray) -> int:
    """R12.3 value of groups with ``tn`` naturals and ``tw`` wilds."""
    v = 0
    for g in range(G):
        v += (tn[g] + tw[g]) * _GROUP_VALUE[g]
    return v


@njit(cache=True)
def _room(g: int, tn: np.ndarray, tw: np.ndarray, wild_fixed: bool) -> int:
    """Wilds group ``g`` can still take in the plan."""
    if g == WILD_GROUP:
        return 0 if wild_fixed else 7 - tw[g]
    if tn[g] == 0:
        return 0
    return max(max_wilds(tn[g]) - tw[g], 0)


@njit(cache=True)
def _has_canasta(tn: np.ndarray, tw: np.ndarray) -> bool:
    for g in range(G):
        if tn[g] + tw[g] >= CANASTA_SIZE:
            return True
    return False


@njit(cache=True)
def _cards_left(hand_total, n, w, tn, tw, aces) -> int:
    """Hand cards after the plan; wilds moved between groups do not leave the hand."""
    melded = aces
    for g in range(G):
        melded += tn[g] - n[g] + tw[g] - w[g]
    return hand_total - melded
