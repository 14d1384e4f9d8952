"""Sets and runs (T5-T7) read from a meld's card counts.

A meld is a multiset of cards (T7.2): it is legal when some placement of its
wild makes it a set (one rank, any suits, T5) or a run (one suit, consecutive
ranks, ace low or high, T6), with at most one wild (T7.1), and a wild in a run
only beside three consecutive naturals (T6.3). A 2 of the run's suit is a
natural in its own place whenever a legal placement allows it (T7.3). Run
positions are bits: ace low 0, 2 1, 3 2, ... K 12, ace high 13.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....core.bits import trailing_zeros
from . import tables as T

# status of a meld's cards
DEAD = 0  # no legal meld contains these cards
PARTIAL = 1  # not legal yet, but more cards can make it a legal meld
VALID = 2
# shapes of a legal meld
SHAPE_NONE, SHAPE_SET, SHAPE_RUN = 0, 1, 2
_RANK_TWO = 1
_ACE_HIGH = 13
_ALL_RANKS = 13
# type bits (bit t: card type t = 4 * rank + suit): the four suits of rank A, every rank of
# suit S, the naturals (neither a 2 nor the joker), the wilds
RANK_BITS = np.int64(0xF)
SUIT_BITS = np.int64(sum(1 << (4 * r) for r in range(_ALL_RANKS)))
WILD_BITS = np.int64((0xF << (4 * _RANK_TWO)) | (1 << T.JK))
NATURAL_BITS = np.int64(((1 << T.JK) - 1) & ~(0xF << (4 * _RANK_TWO)))


@njit(cache=True, inline="always")
def _longest_streak(mask: int) -> int:
    best, cur = 0, 0
    for bit in range(_ACE_HIGH + 1):
        if (mask >> bit) & 1:
            cur += 1
            best = max(best, cur)
        else:
            cur = 0
    return best


@njit(cache=True, inline="always")
def _span(mask: int) -> int:
    lo, hi = -1, -1
    for bit in range(_ACE_HIGH + 1):
        if (mask >> bit) & 1:
            if lo < 0:
                lo = bit
            hi = bit
    return hi - lo + 1


@njit(cache=True, inline="always")
def _run_valid(mask: int, naturals: int, wilds: int, cards: int) -> bool:
    """T6: naturals at the positions of ``mask`` and ``wilds`` (0 or 1) wilds make a run."""
    if cards < T.MIN_MELD:
        return False
    gaps = _span(mask) - naturals
    if wilds == 0:
        return gaps == 0
    if gaps == 0:  # the wild stands at an end, or beside all 13 ranks (T7.4)
        return naturals >= T.RUN_WITH_WILD
    return gaps == 1 and _longest_streak(mask) >= T.RUN_WITH_WILD


@njit(cache=True, inline="always")
def _present(c):
    """Bits of the card types the counts ``c`` hold (bit ``t``: type ``t``), and of those they
    hold more than once."""
    present, twice = 0, 0
    for t in range(T.JK + 1):  # no branch in the loop
        present |= np.int64(c[t] > 0) << t
        twice |= np.int64(c[t] > 1) << t
    return present, twice


@njit(cache=True, inline="always")
def _first_natural(naturals: int):
    """Of the natural types ``naturals`` (bits, not 0): the first one, its suit, and the bits
    of every type of its rank and of its suit (a set or a run takes only those)."""
    first = trailing_zeros(naturals)
    suit = T.SUIT[first]
    return first, suit, RANK_BITS << (first - suit), SUIT_BITS << suit


@njit(cache=True, inline="always")
def _scan(c):
    """The naturals of the meld ``c`` other than 2s: their count and value, the first one's rank
    and suit, whether they mix ranks or suits, whether a card repeats, the mask of their ranks."""
    present, twice = _present(c)
    naturals = present & NATURAL_BITS
    if naturals == 0:
        return 0, 0, -1, -1, False, False, False, 0
    nat, nat_value, mask = 0, 0, 0
    bits = naturals
    while bits:  # only the types held
        t = trailing_zeros(bits)
        bits &= bits - 1
        nat += c[t]
        nat_value += c[t] * T.VALUE[t]
        mask |= 1 << T.RANK[t]
    first, suit, its_rank, its_suit = _first_natural(naturals)
    multi_rank, multi_suit = (naturals & ~its_rank) != 0, (naturals & ~its_suit) != 0
    return nat, nat_value, T.RANK[first], suit, multi_rank, multi_suit, (twice & naturals) != 0, mask


@njit(cache=True)
def analyse(c):
    """``(status, shape, naturals, wilds, value, full)`` of the meld with card counts ``c``:
    its status (DEAD, PARTIAL, VALID) and, when VALID, its shape, natural and wild counts,
    card value (T1.5) and whether it is a run of all 13 ranks as naturals (T8.4)."""
    nat, nat_value, _, suit, multi_rank, multi_suit, dup, mask = _scan(c)
    twos = c[4] + c[5] + c[6] + c[7]
    cards = nat + twos + c[T.JK]
    status = DEAD
    if nat == 0:
        return status, SHAPE_NONE, 0, 0, 0, False
    if not multi_rank and twos + c[T.JK] <= 1:  # a set: every 2 is a wild (T5.3)
        w = twos + c[T.JK]
        if cards >= T.MIN_MELD:
            return VALID, SHAPE_SET, nat, w, nat_value + T.WILD_VALUE * w, False
        status = PARTIAL
    if multi_suit or dup:
        return status, SHAPE_NONE, 0, 0, 0, False
    own_twos = c[4 + suit]
    other_wilds = twos - own_twos + c[T.JK]
    for nat2 in range(min(own_twos, 1), -1, -1):  # the 2 in its own place first (T7.3)
        w = other_wilds + own_twos - nat2
        if w > 1:
            continue
        status = PARTIAL
        base = mask | (nat2 << _RANK_TWO)
        n = nat + nat2
        value = nat_value + T.NATURAL_TWO_VALUE * nat2 + T.WILD_VALUE * w
        if _run_valid(base, n, w, cards):
            return VALID, SHAPE_RUN, n, w, value, n == _ALL_RANKS
        if base & 1:  # the ace high instead of low
            high = (base & ~1) | (1 << _ACE_HIGH)
            if _run_valid(high, n, w, cards):
                return VALID, SHAPE_RUN, n, w, value, n == _ALL_RANKS
    return status, SHAPE_NONE, 0, 0, 0, False


@njit(cache=True)
def meld_value(c) -> int:
    """T1.5 card value of a legal meld (0 for cards that are not one)."""
    return analyse(c)[4]


@njit(cache=True)
def canasta_kind(c, cards: int, kind: int) -> int:
    """T8.2-T8.3: the kind of the meld ``c`` of ``cards`` cards at the end of a turn, given its
    kind before (0: none). A meld of 7+ cards gets its kind once; a run of either kind becomes
    full once it holds all 13 ranks as naturals."""
    status, shape, naturals, _, _, full = analyse(c)
    if status != VALID:
        return kind
    if shape == SHAPE_RUN and full:
        return T.KIND_FULL
    if kind != 0 or cards < T.CANASTA:
        return kind
    return T.KIND_WHOLE if naturals >= T.CANASTA else T.KIND_HALF


@njit(cache=True, inline="always")
def accepted(c) -> int:
    """Bits of the card types (bit ``t``: type ``t``) that, added to the meld ``c``, leave cards
    that can still become a legal meld: a set's rank, and a wild while the set has none (T5.3);
    a run's missing naturals of its suit, and a wild or the suit's 2 while the run may take one
    (T6, T7.1, T7.3)."""
    present, twice = _present(c)
    naturals = present & NATURAL_BITS
    if naturals == 0:
        return 0
    _, suit, its_rank, its_suit = _first_natural(naturals)
    wilds = c[4] + c[5] + c[6] + c[7] + c[T.JK]
    out = 0
    if (naturals & ~its_rank) == 0 and wilds <= 1:  # a set of one rank
        out |= its_rank
        if wilds == 0:
            out |= WILD_BITS
    if (naturals & ~its_suit) == 0 and (twice & naturals) == 0:
        own = c[4 + suit]  # the run suit's 2s: one may stand in its own place (T7.3)
        other = wilds - own
        if other + max(own - 1, 0) <= 1:  # a run of one suit
            out |= its_suit & NATURAL_BITS & ~naturals
            two = np.int64(1) << (4 + suit)
            if other + own <= 1:
                out |= two
            if other == 0 and own <= 1:
                out |= WILD_BITS & ~two
    return out


@njit(cache=True, inline="always")
def present_bits(c) -> int:
    """Bits of the card types the counts ``c`` (a hand, a meld) hold: bit ``t`` for type ``t``."""
    return _present(c)[0]
