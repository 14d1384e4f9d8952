"""Group rules: legality (R10), canasta kinds (R11), values (R12.3, R16.4) and the
end-of-melding check (R12, R13, R14) — one implementation, used by the mask,
the transition and the Python scoring helpers alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import GROUP_SLOTS, JOKER_SLOT, SLOT_TYPE, WILD_GROUP, WILD_SLOT0
from . import tables as T

CANASTA_NONE = 0
CANASTA_BLACK_WILD = 1
CANASTA_BLACK = 2
CANASTA_RED = 3
CANASTA_RED_WILD = 4
CANASTA_GOLD = 5
CANASTA_NAMES = ("", "black wild canasta", "black canasta", "red canasta", "red wild canasta", "gold canasta")
CANASTA_BASE = T.CANASTA_BONUS  # R11 base value of each kind


@njit(cache=True)
def naturals(grp: np.ndarray) -> int:
    """Naturals in a group row of 9 counts."""
    total = 0
    for k in range(WILD_SLOT0):
        total += grp[k]
    return total


@njit(cache=True)
def small_wilds(grp: np.ndarray) -> int:
    total = 0
    for k in range(WILD_SLOT0, JOKER_SLOT):
        total += grp[k]
    return total


@njit(cache=True)
def group_size(grp: np.ndarray) -> int:
    return naturals(grp) + small_wilds(grp) + grp[JOKER_SLOT]


@njit(cache=True)
def max_wilds(n: int) -> int:
    """Most wilds a natural group of ``n`` naturals may hold (R10.2): fewer than
    the naturals, within the size of a group that holds a wild."""
    if n <= 0 or n >= T.MAX_MIXED_GROUP:
        return 0
    return min(n - 1, T.MAX_MIXED_GROUP - n)


@njit(cache=True)
def natural_group_legal(n: int, w: int) -> bool:
    """R10.2: 3-8 cards, wilds a minority, 8 cards only without wilds."""
    size = n + w
    if size < T.MIN_MELD or size > T.MAX_NATURAL_GROUP:
        return False
    return w <= max_wilds(n) or (w == 0 and n == T.MAX_NATURAL_GROUP)


@njit(cache=True)
def wild_group_legal(w: int) -> bool:
    """R10.3: a wilds-only group holds 3 to 7 wilds."""
    return T.MIN_MELD <= w <= T.MAX_WILD_GROUP


@njit(cache=True)
def group_legal(g: int, grp: np.ndarray) -> bool:
    """Whether the non-empty group ``g`` is legal."""
    n = naturals(grp)
    w = small_wilds(grp) + grp[JOKER_SLOT]
    if g == WILD_GROUP:
        return n == 0 and wild_group_legal(w)
    return natural_group_legal(n, w)


@njit(cache=True)
def canasta_kind(g: int, grp: np.ndarray) -> int:
    """R11 kind of a legal group (CANASTA_NONE below 7 cards)."""
    n = naturals(grp)
    s = small_wilds(grp)
    j = grp[JOKER_SLOT]
    size = n + s + j
    if size < T.CANASTA_SIZE:
        return CANASTA_NONE
    if g == WILD_GROUP:
        return CANASTA_BLACK_WILD if (s > 0 and j > 0) else CANASTA_RED_WILD
    if size == T.MAX_NATURAL_GROUP:
        return CANASTA_GOLD
    return CANASTA_RED if s + j == 0 else CANASTA_BLACK


@njit(cache=True)
def group_card_value(g: int, grp: np.ndarray) -> int:
    """R16.4 card value of the cards in a group."""
    total = 0
    for k in range(GROUP_SLOTS):
        if grp[k] > 0:
            total += grp[k] * T.CARD_VALUE[SLOT_TYPE[g, k]]
    return total


@njit(cache=True)
def opening_value(groups: np.ndarray) -> int:
    """R12.3 value of groups laid for an opening: wilds count as the rank they
    stand for, every card of the wilds-only group counts 20."""
    total = 0
    for g in range(groups.shape[0]):
        total += group_size(groups[g]) * T.GROUP_CARD_VALUE[g]
    return total


@njit(cache=True)
def has_canasta(groups: np.ndarray) -> bool:
    for g in range(groups.shape[0]):
        if group_size(groups[g]) >= T.CANASTA_SIZE:
            return True
    return False


@njit(cache=True)
def melding_summary(groups: np.ndarray, cp_groups: np.ndarray) -> tuple[bool, bool, bool, int]:
    """One pass over a player's groups at the end of melding.

    Returns ``(legal, laid, canasta, opening_value)``: every group legal or
    empty and no canasta of the checkpoint broken up (R10, R13.2-R13.3);
    whether any group exists; whether a canasta exists; the R12.3 value.
    """
    laid = False
    canasta = False
    value = 0
    for g in range(groups.shape[0]):
        grp = groups[g]
        n = naturals(grp)
        w = small_wilds(grp) + grp[JOKER_SLOT]
        size = n + w
        cp_size = group_size(cp_groups[g])
        if size == 0:
            if cp_size >= T.CANASTA_SIZE:
                return False, laid, canasta, value
            continue
        if g == WILD_GROUP:
            if n > 0 or not wild_group_legal(w):
                return False, laid, canasta, value
        elif not natural_group_legal(n, w):
            return False, laid, canasta, value
        if size < T.CANASTA_SIZE <= cp_size:  # canastas are never broken up
            return False, laid, canasta, value
        laid = True
        canasta = canasta or size >= T.CANASTA_SIZE
        value += size * T.GROUP_CARD_VALUE[g]
    return True, laid, canasta, value


@njit(cache=True)
def any_group(groups: np.ndarray) -> bool:
    for g in range(groups.shape[0]):
        if group_size(groups[g]) > 0:
            return True
    return False


@njit(cache=True)
def can_end_melding(
    groups: np.ndarray,
    cp_groups: np.ndarray,
    hand_size: int,
    opened_before: bool,
    new_heart_aces: int,
    minimum: int,
) -> bool:
    """Whether the player may discard now (R10-R14).

    ``groups`` are his groups, ``cp_groups`` those at the turn's checkpoint,
    ``hand_size`` the cards in hand before the discard.
    """
    if hand_size < 1:
        return False
    legal, laid, canasta, value = melding_summary(groups, cp_groups)
    if not legal:
        return False
    going_out = hand_size == 1
    if going_out and not canasta:  # R14.1
        return False
    if not opened_before:
        if new_heart_aces > 0 and not laid:  # R10.6 [D]: not an opening by itself
            return False
        if laid and not going_out and value < minimum:  # R12.1, R12.3, R12.4
            return False
    return True


@njit(cache=True)
def wild_target_ok(g: int, grp: np.ndarray, cp_grp: np.ndarray, locked_after: int) -> bool:
    """Whether a wild may be put into group ``g`` while melding.

    Intermediate groups may be incomplete (checked at the discard), but a wild
    goes only where the group can still end legal: a natural group already
    started with a natural and with room for ``locked_after`` wilds that can
    no longer leave it this turn, or a wilds-only group that is not a canasta.
    """
    if group_size(cp_grp) >= T.CANASTA_SIZE:
        # R13.2-R13.3: a canasta takes no wild (a black one only swaps its wilds
        # for naturals, a wild canasta is closed)
        return False
    if g == WILD_GROUP:
        return locked_after <= T.MAX_WILD_GROUP
    n = naturals(grp)
    if n == 0:
        return False
    need = max(n, locked_after + 1)  # wilds stay a minority (R10.2)
    return need + locked_after <= T.MAX_MIXED_GROUP
