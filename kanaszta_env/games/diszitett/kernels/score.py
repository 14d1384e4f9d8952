"""Hand scoring (R16) and tax (R17) kernels over count arrays."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import NUM_TYPES
from . import tables as T
from .melds import CANASTA_BASE, canasta_kind, group_card_value


@njit(cache=True)
def hand_base(
    groups: np.ndarray,
    red_threes: int,
    twins: int,
    heart_aces: int,
    went_out: bool,
    from_hand: bool,
    table_clearing: bool,
) -> int:
    """R16.1 base: red threes, twins, canastas, going-out bonuses, heart aces."""
    base = T.ALL_RED_THREES if red_threes == T.RED_THREES_IN_DECK else T.RED_THREE_EACH * red_threes
    base += T.TWIN * twins + T.SEPARATE_HEART_ACE * heart_aces
    for g in range(groups.shape[0]):
        base += CANASTA_BASE[canasta_kind(g, groups[g])]
    if went_out:
        base += T.GOING_OUT
        if from_hand:
            base += T.FROM_HAND
            if table_clearing:
                base += T.TABLE_CLEARING
    return base


@njit(cache=True)
def hand_card_value(groups: np.ndarray, hand: np.ndarray) -> int:
    """R16.4 card value: melded cards plus, cards left in hand minus."""
    value = 0
    for g in range(groups.shape[0]):
        value += group_card_value(g, groups[g])
    for t in range(NUM_TYPES):
        value -= hand[t] * T.HAND_PENALTY[t]
    return value


@njit(cache=True)
def _halve(x: int) -> int:
    if x % 10 == 5:  # R17.2: a score ending in 5 is rounded up first
        x += 5
    return x // 2


@njit(cache=True)
def apply_tax(previous_total: int, score: int) -> int:
    """R17: the score recorded for a hand, given the total before it."""
    if score <= 0:  # [D] R17.5
        return score
    if previous_total < T.HALF_TAX_FROM:
        return score
    if previous_total < T.QUARTER_TAX_FROM:
        return _halve(score)
    if previous_total < T.TENTH_TAX_FROM:
        return _halve(_halve(score))
    return ((score // 10 + 5) // 10) * 10  # R17.4: drop a digit, round to ten
