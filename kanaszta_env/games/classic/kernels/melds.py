"""A side's melds (C5, C6, C11): sizes, limits, values, canastas, and whether an
opening can still be completed from the hand (the pile pickup's obligation, C7.1)."""

from __future__ import annotations

import numpy as np
from numba import njit

from . import tables as T

_JOKER_VALUE = T.VALUE[T.JOKER_TYPE]
_TWO_VALUE = T.VALUE[T.TWO_TYPES[0]]
_NATURAL_VALUE = np.array([T.VALUE[T.GROUP_TYPES[g, 0]] for g in range(T.NUM_NATURAL)], dtype=np.int32)


@njit(cache=True)
def naturals(grp, g: int) -> int:
    """Naturals in meld ``g`` (for the black-three meld: its threes)."""
    return grp[g, 0] + grp[g, 1] + grp[g, 2] + grp[g, 3]


@njit(cache=True)
def wilds(grp, g: int) -> int:
    """Wilds in meld ``g``."""
    return grp[g, 4] + grp[g, 5] + grp[g, 6] + grp[g, 7] + grp[g, 8]


@njit(cache=True)
def size(grp, g: int) -> int:
    return naturals(grp, g) + wilds(grp, g)


@njit(cache=True)
def is_canasta(grp, g: int) -> bool:
    """Meld ``g`` is a canasta: of at least ``CANASTA`` cards, never the black threes (C6)."""
    return g != T.BLACK_MELD and size(grp, g) >= T.CANASTA


@njit(cache=True)
def canasta_kind(grp, g: int) -> int:
    """The canasta kind of meld ``g`` from its composition (C6.1-C6.2), or KIND_NONE."""
    if not is_canasta(grp, g):
        return T.KIND_NONE
    if g == T.WILD_MELD:
        return T.KIND_WILD_JOKER if grp[g, T.JOKER_SLOT] > 0 else T.KIND_WILD_TWOS
    return T.KIND_NATURAL if wilds(grp, g) == 0 else T.KIND_MIXED


@njit(cache=True)
def has_canasta(grp) -> bool:
    for g in range(T.NUM_MELDS):
        if is_canasta(grp, g):
            return True
    return False


@njit(cache=True)
def all_valid(grp) -> bool:
    """Every meld empty or of at least three cards (C5.1; the wild limit holds on every add)."""
    for g in range(T.NUM_MELDS):
        n = size(grp, g)
        if 0 < n < T.MIN_MELD:
            return False
    return True


@njit(cache=True)
def canasta_and_valid(grp) -> tuple[bool, bool]:
    """:func:`has_canasta` and :func:`all_valid` in one pass over the melds."""
    canasta = False
    valid = True
    for g in range(T.NUM_MELDS):
        n = size(grp, g)
        if 0 < n < T.MIN_MELD:
            valid = False
        if n >= T.CANASTA and g < T.NUM_MELDS - 1:
            canasta = True
    return canasta, valid


@njit(cache=True)
def wild_fits(grp, g: int) -> bool:
    """Whether one more wild may go onto meld ``g`` (C5.2, C5.6)."""
    if g == T.WILD_MELD:
        return size(grp, g) < T.MAX_WILD_MELD
    w = wilds(grp, g)
    return w < T.MAX_WILDS and w < naturals(grp, g)


@njit(cache=True)
def melded_value(grp) -> int:
    """Card values of every melded card (C13.2)."""
    v = 0
    for g in range(T.NUM_MELDS):
        for k in range(T.SLOTS):  # a constant bound: the loop unrolls
            v += grp[g, k] * T.SLOT_VALUE[g, k]
    return v


@njit(cache=True)
def canasta_bonuses(grp) -> int:
    v = 0
    for g in range(T.NUM_MELDS - 1):  # canasta_kind, each meld's counts summed once
        w = wilds(grp, g)
        kind = T.KIND_NONE
        if naturals(grp, g) + w >= T.CANASTA:
            if g == T.WILD_MELD:
                kind = T.KIND_WILD_JOKER if grp[g, T.JOKER_SLOT] > 0 else T.KIND_WILD_TWOS
            else:
                kind = T.KIND_NATURAL if w == 0 else T.KIND_MIXED
        v += T.CANASTA_BONUS[kind]
    return v


@njit(cache=True)
def opening_value(grp, count_bonus: bool) -> int:
    """What the side's melds count toward an opening (C11.3): card values, a wild its own,
    and in sk the canasta bonuses."""
    v = melded_value(grp)
    if count_bonus:
        v += canasta_bonuses(grp)
    return v


@njit(cache=True)
def _wild_value(u: int, jokers: int) -> int:
    """Value of ``u`` wilds taken jokers first."""
    j = min(u, jokers)
    return j * _JOKER_VALUE + (u - j) * _TWO_VALUE


@njit(cache=True)
def opening_reachable(
    grp, hand, need: int, pair_group: int, budget: int, wild_melds: bool, count_bonus: bool
) -> bool:
    """Whether cards of ``hand`` added to the side's melds ``grp`` can make every meld valid,
    with at least three naturals in meld ``pair_group`` (the pickup by a natural pair, C7.3a;
    -1: none), an opening value of at least ``need`` (C11), using at most ``budget`` cards.

    A dynamic programme over the natural melds on (wilds added, cards added); the wild meld
    (sk) is tried at each size. Without a binding budget every meld takes all or none of the
    hand's naturals of its rank (more naturals never hurt), so the card axis is dropped.
    """
    jokers = hand[T.JOKER_TYPE]
    twos = hand[T.TWO_TYPES[0]] + hand[T.TWO_TYPES[1]] + hand[T.TWO_TYPES[2]] + hand[T.TWO_TYPES[3]]
    total = jokers + twos
    for g in range(T.NUM_NATURAL):
        for s in range(4):
            total += hand[T.GROUP_TYPES[g, s]]
    free = budget >= total
    wmax = jokers + twos
    if free:
        return _reachable_free(grp, need, pair_group, wild_melds, count_bonus, jokers, wmax, hand)
    cmax = max(budget, 0)
    neg = -(1 << 30)
    dp = np.full((wmax + 1, cmax + 1), neg, dtype=np.int64)
    dp[0, 0] = 0
    nxt = np.empty_like(dp)  # the two rows of the programme, swapped per meld
    for g in range(T.NUM_NATURAL):
        n0 = naturals(grp, g)
        w0 = wilds(grp, g)
        h = (
            hand[T.GROUP_TYPES[g, 0]]
            + hand[T.GROUP_TYPES[g, 1]]
            + hand[T.GROUP_TYPES[g, 2]]
            + hand[T.GROUP_TYPES[g, 3]]
        )
        if n0 + w0 + h == 0 and g != pair_group:
            continue  # an empty meld and none of its rank in hand: it stays empty, gaining nothing
        nxt[:, :] = neg
        for x in range(h + 1):
            if free and 0 < x < h:
                continue
            for y in range(T.MAX_WILDS - w0 + 1):
                n = n0 + x
                w = w0 + y
                if n + w > 0 and (n + w < T.MIN_MELD or w > n or w > T.MAX_WILDS):
                    continue
                if g == pair_group and n < 3:
                    continue
                gain = _gain(g, x, n0, w0, n, w, count_bonus)
                used = 0 if free else x + y
                for u in range(wmax + 1 - y):
                    for c in range(cmax + 1 - used):
                        if dp[u, c] != neg and dp[u, c] + gain > nxt[u + y, c + used]:
                            nxt[u + y, c + used] = dp[u, c] + gain
        dp, nxt = nxt, dp
    base = opening_value(grp, count_bonus)
    w0 = wilds(grp, T.WILD_MELD)
    for k in range(0, T.MAX_WILD_MELD + 1):
        bonus = _wild_meld_bonus(grp, k, w0, jokers, wild_melds, count_bonus)
        if bonus < 0:
            continue
        extra = k - w0
        for u in range(wmax + 1 - extra):
            for c in range(cmax + 1):
                if dp[u, c] == neg or (not free and c + extra > budget):
                    continue
                if base + dp[u, c] + _wild_value(u + extra, jokers) + bonus >= need:
                    return True
    return False


@njit(cache=True)
def _wild_meld_bonus(grp, k: int, w0: int, jokers, wild_melds: bool, count_bonus: bool) -> int:
    """The canasta bonus the wild meld (``w0`` wilds now) gains at ``k`` wilds (with
    ``count_bonus``, else 0), or -1 where ``k`` is no valid size for it."""
    if k < w0 or (0 < k < T.MIN_MELD) or (k > 0 and not wild_melds) or (k == 0 and w0 > 0):
        return -1
    if count_bonus and k == T.MAX_WILD_MELD and w0 < T.MAX_WILD_MELD:
        has_joker = grp[T.WILD_MELD, T.JOKER_SLOT] > 0 or jokers > 0
        return T.CANASTA_BONUS[T.KIND_WILD_JOKER if has_joker else T.KIND_WILD_TWOS]
    return 0


@njit(cache=True)
def _gain(g: int, x: int, n0: int, w0: int, n: int, w: int, count_bonus: bool) -> int:
    """What ``x`` naturals and ``w - w0`` wilds added to natural meld ``g`` (``n0`` naturals
    and ``w0`` wilds before, ``n`` and ``w`` after) add to the opening value, wilds' own
    values apart; with ``count_bonus`` the change of its canasta bonus too."""
    gain = x * _NATURAL_VALUE[g]
    if count_bonus and n + w >= T.CANASTA:
        gain += T.CANASTA_BONUS[T.KIND_NATURAL if w == 0 else T.KIND_MIXED]
        if w0 == 0 and n0 + w0 >= T.CANASTA:  # the bonus already counted in the base
            gain -= T.CANASTA_BONUS[T.KIND_NATURAL]
        elif n0 + w0 >= T.CANASTA:
            gain -= T.CANASTA_BONUS[T.KIND_MIXED]
    return gain


@njit(cache=True)
def _reachable_free(grp, need: int, pair_group: int, wild_melds: bool, count_bonus: bool, jokers, wmax, hand):
    """:func:`opening_reachable` without a binding budget: the programme over wilds added
    only (``dp[u]``: the best gain with ``u`` wilds), each meld taking all or none of the
    hand's naturals of its rank, empty melds without cards of their rank skipped, the
    wild counts bounded by the highest one reached (``top``)."""
    neg = -(1 << 30)
    dp = np.full(wmax + 1, neg, dtype=np.int64)
    dp[0] = 0
    nxt = np.empty_like(dp)
    top = 0  # dp[u] == neg for every u > top
    for g in range(T.NUM_NATURAL):
        n0 = naturals(grp, g)
        w0 = wilds(grp, g)
        h = hand_naturals(hand, g)
        if n0 + w0 + h == 0 and g != pair_group:
            continue  # stays empty, gaining nothing
        nxt[:] = neg
        new_top = -1
        for i in range(2 if h > 0 else 1):
            x = h if i == 1 else 0
            n = n0 + x
            if g == pair_group and n < 3:
                continue
            for y in range(T.MAX_WILDS - w0 + 1):
                w = w0 + y
                if n + w > 0 and (n + w < T.MIN_MELD or w > n or w > T.MAX_WILDS):
                    continue
                gain = _gain(g, x, n0, w0, n, w, count_bonus)
                for u in range(min(top, wmax - y) + 1):
                    if dp[u] != neg and dp[u] + gain > nxt[u + y]:
                        nxt[u + y] = dp[u] + gain
                        if u + y > new_top:
                            new_top = u + y
        if new_top < 0:
            return False  # no valid choice for meld g
        top = new_top
        dp, nxt = nxt, dp
    base = opening_value(grp, count_bonus)
    w0 = wilds(grp, T.WILD_MELD)
    for k in range(0, T.MAX_WILD_MELD + 1):
        bonus = _wild_meld_bonus(grp, k, w0, jokers, wild_melds, count_bonus)
        if bonus < 0:
            continue
        extra = k - w0
        for u in range(min(top, wmax - extra) + 1):
            if dp[u] != neg and base + dp[u] + _wild_value(u + extra, jokers) + bonus >= need:
                return True
    return False


@njit(cache=True)
def first_unlocked(hand, locked, types) -> int:
    """The first card type of ``types`` (S H D C order) of which the hand holds a copy that
    did not come from this turn's pile (``locked``, sk C7.6), or -1."""
    for i in range(types.shape[0]):
        if hand[types[i]] > locked[types[i]]:
            return types[i]
    return -1


@njit(cache=True)
def slot_of(g: int, t: int) -> int:
    """The slot of meld ``g`` that holds a card of type ``t``."""
    if g == T.BLACK_MELD:
        return 0 if t == T.BLACK_TYPES[0] else 3
    if t == T.JOKER_TYPE:
        return T.JOKER_SLOT
    for k in range(4):
        if T.TWO_TYPES[k] == t:
            return T.TWO_SLOT0 + k
    for k in range(4):
        if T.GROUP_TYPES[g, k] == t:
            return k
    return -1


@njit(cache=True)
def hand_naturals(hand, g: int) -> int:
    return (
        hand[T.GROUP_TYPES[g, 0]]
        + hand[T.GROUP_TYPES[g, 1]]
        + hand[T.GROUP_TYPES[g, 2]]
        + hand[T.GROUP_TYPES[g, 3]]
    )


@njit(cache=True)
def hand_twos(hand) -> int:
    return hand[T.TWO_TYPES[0]] + hand[T.TWO_TYPES[1]] + hand[T.TWO_TYPES[2]] + hand[T.TWO_TYPES[3]]
