"""Bookkeeping beside the cards: what the others know of a hand, the turn's
checkpoint that ``withdraw`` returns to (R12.5), and the turn's scratch."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import GROUP_SLOTS, NUM_GROUPS, NUM_TYPES
from .state import PICKUP_NONE


@njit(inline="always")  # a two-line leaf: inlined rather than compiled once per integer type
def _forget(known: np.ndarray, b: int, p: int, t: int) -> None:
    """A card of type ``t`` left the hand: the others cannot tell whether it was
    one they knew of, so one known card of that type is forgotten (using the
    hand's true count here would leak it)."""
    if known[b, p, t] > 0:
        known[b, p, t] -= 1


# Helpers on the per-decision path take the arrays they touch, not the state
# tuple: numba increfs and decrefs all 41 arrays of the tuple at every call.
@njit(cache=True)
def _checkpoint(hand, groups, sep_heart_aces, cp_hand, cp_groups, cp_sep_heart_aces, changed, b, p) -> None:
    """Remember hand and groups: what ``withdraw`` returns to (R12.5)."""
    for t in range(NUM_TYPES):
        cp_hand[b, t] = hand[b, p, t]
    for g in range(NUM_GROUPS):
        for k in range(GROUP_SLOTS):
            cp_groups[b, g, k] = groups[b, p, g, k]
    cp_sep_heart_aces[b] = sep_heart_aces[b, p]
    changed[b] = 0


@njit(cache=True)
def _clear_turn(
    locked, lifted, lifted_from, changed, pickup_kind, pickup_size, pickup_card, pickup_from_hand, b
):
    """Forget the bookkeeping of the turn that ended."""
    for g in range(NUM_GROUPS):
        locked[b, g, 0] = 0
        locked[b, g, 1] = 0
    lifted[b] = -1
    lifted_from[b] = -1
    changed[b] = 0
    pickup_kind[b] = PICKUP_NONE
    pickup_size[b] = 0
    pickup_card[b] = -1
    pickup_from_hand[b] = 0
