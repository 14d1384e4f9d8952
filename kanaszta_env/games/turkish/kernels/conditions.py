"""The conditions that end melding in Turkish kanasta: every meld legal (T5-T7), the
opening requirement (T9, T12.2), the layer-off (T10.2) and going out (T13.1)."""

from __future__ import annotations

from numba import njit

from ....core.borrow import borrow
from .melds import SHAPE_RUN, VALID, analyse
from .tables import CANASTA, FORCED_OWED, MIN_MELD, OPEN_HIGH, OPEN_LOW, OPEN_THRESHOLD


@njit(cache=True)
def melds_ok(s, cfg, b: int, p: int) -> bool:
    """Whether seat ``p`` may end his melding now (and so discard, or take a Fi by melding):
    every meld of his pair changed since the checkpoint is legal, and if he has not opened,
    the new melds he laid meet his opening requirement (T9.1, T12.2)."""
    s = borrow(s)  # no reference counting inside (core/borrow.py)
    pair = p % 2
    count = s.meld_count[b, pair]
    first_new = s.cp_count[b]
    sizes = s.meld_size[b, pair]
    for k in range(count):  # cheap test first: every meld needs three cards (T5.5)
        if sizes[k] < MIN_MELD:
            return False
    for k in range(count):
        if (k >= first_new or sizes[k] != s.cp_size[b, k]) and analyse(s.melds[b, pair, k])[0] != VALID:
            return False
    if s.opened[b, p] == 1 or count == first_new:
        return True  # opened, or nothing new: laying off only (T10.2)
    forced = s.forced[b, pair] == FORCED_OWED
    return opening_met(s.melds[b, pair], sizes, first_new, count, s.totals[b, p], forced)


@njit(cache=True)
def opening_met(melds, sizes, first: int, count: int, pair_total: int, forced: bool) -> bool:
    """T9.1 / T12.2: whether the new melds in slots ``first..count-1`` of ``melds`` (counts) and
    ``sizes`` open for a player whose pair's total is ``pair_total`` (``forced``: his pair owes a
    canasta opening)."""
    if forced:  # T12.2: a new meld of 7 or more cards
        for k in range(first, count):
            if sizes[k] >= CANASTA:
                return True
        return False
    high = pair_total >= OPEN_THRESHOLD
    wild_free_run = False
    counted = 0
    for k in range(first, count):
        _, shape, _, wilds, value, _ = analyse(melds[k])
        if wilds == 0 and shape == SHAPE_RUN:
            wild_free_run = True
        if high or wilds == 0:  # below 900 only the wild-free melds count
            counted += value
    return wild_free_run and counted >= (OPEN_HIGH if high else OPEN_LOW)


@njit(cache=True, inline="always")
def pair_has_canasta(meld_size, count: int) -> bool:
    """Whether one of a pair's ``count`` melds holds 7 or more cards (T8.1)."""
    for k in range(count):
        if meld_size[k] >= CANASTA:
            return True
    return False


@njit(cache=True, inline="always")
def fis_left(fi_taker) -> int:
    """Fi packets nobody has taken yet."""
    return (fi_taker[0] < 0) + (fi_taker[1] < 0)


@njit(cache=True, inline="always")
def will_have_opened(s, b: int, p: int) -> bool:
    """Whether seat ``p`` ends this turn opened (not a layer-off): he had opened, or he lays
    new melds this turn (T9, T10.2)."""
    if s.opened[b, p] == 1:
        return True
    return s.layoff[b, p] == 0 and s.meld_count[b, p % 2] > s.cp_count[b]
