"""Exact legal-action masks of Turkish kanasta (T4-T13).

Melding is a chain of one-card actions checked at its end (the discard, or a
Fi taken by melding the last card): between steps a meld may still be short,
but a card goes only where the meld's cards can still become a legal set or
run (:func:`~.melds.accepted`). ``withdraw`` undoes the turn's melding, so the
mask never traps a player. Hand-size conditions (T4.2, T11.2, T13.1):

* a meld that empties the hand needs a Fi to take and the melding complete;
* with no Fi left, a meld that leaves one card needs the player to be able to
  go out with it: his pair has a meld of 7+ cards and he is not a layer-off
  (he has opened, or lays new melds this turn);
* a discard of the last card takes a Fi, or goes out under T13.1.
"""

from __future__ import annotations

from numba import njit

from ....cards import NUM_TYPES
from ....core.bits import trailing_zeros
from ....core.borrow import borrow
from ....core.common import hand_size
from .. import actions as A
from .conditions import fis_left, melds_ok, pair_has_canasta, will_have_opened
from .melds import NATURAL_BITS, accepted, present_bits
from .state import PHASE_DISCARD, PHASE_DRAW, PHASE_OVER
from .tables import CANASTA, MELDS, NEW_INDEX


@njit(cache=True, inline="always")
def legal_row(s, cfg, b: int, row) -> int:
    """Write the legal actions of game ``b`` into ``row``; returns how many."""
    row[:] = False
    p = s.to_move[b]
    if s.phase[b] == PHASE_OVER:
        return 0
    if s.phase[b] == PHASE_DRAW:
        row[A.DRAW] = s.stock_len[b] > 0
        row[A.TAKE_PILE] = s.pile_len[b] > 0
        return int(row[A.DRAW]) + int(row[A.TAKE_PILE])
    hand = s.hand[b, p]
    total = hand_size(hand)
    held = present_bits(hand)
    left = fis_left(s.fi_taker[b])
    pair = p % 2
    count = 0
    done = s.phase[b] == PHASE_DISCARD or s.changed[b] == 0 or melds_ok(s, cfg, b, p)
    if done:
        last_ok = left > 0 or (
            pair_has_canasta(s.meld_size[b, pair], s.meld_count[b, pair]) and will_have_opened(s, b, p)
        )
        if total > 1 or last_ok:
            bits = held
            while bits:  # every card type held
                row[A.DISCARD0 + trailing_zeros(bits)] = True
                bits &= bits - 1
                count += 1
    if s.phase[b] == PHASE_DISCARD:
        return count
    if s.changed[b] == 1:
        row[A.WITHDRAW] = True
        count += 1
    return count + _meld_row(s, cfg, b, p, held, total, left, row)


@njit(cache=True, inline="always")
def _meld_row(s, cfg, b: int, p: int, held: int, total: int, left: int, row) -> int:
    """The ``new_*`` and ``add_*`` actions of seat ``p`` in the meld phase (``held``: the bits
    of the card types in his hand, :func:`~.melds.present_bits`)."""
    pair = p % 2
    used = s.meld_count[b, pair]
    sizes = s.meld_size[b, pair]
    canasta = pair_has_canasta(sizes, used)
    count = 0
    if s.layoff[b, p] == 0 and used < MELDS:
        bits = held & NATURAL_BITS  # the types that start a meld
        while bits:
            t = trailing_zeros(bits)
            bits &= bits - 1
            if total > 2 or _last_cards_ok(s, cfg, b, p, total, left, canasta, True, used, t):
                row[A.NEW0 + NEW_INDEX[t]] = True
                count += 1
    opening = will_have_opened(s, b, p)
    for k in range(used):
        bits = accepted(s.melds[b, pair, k]) & held
        while bits:
            t = trailing_zeros(bits)
            bits &= bits - 1
            if total > 2 or _last_cards_ok(
                s, cfg, b, p, total, left, canasta or sizes[k] + 1 >= CANASTA, opening, k, t
            ):
                row[A.ADD0 + k * NUM_TYPES + t] = True
                count += 1
    return count


@njit(cache=True)
def _last_cards_ok(s, cfg, b: int, p: int, total: int, left: int, canasta, opening, k: int, t: int) -> bool:
    """Hand-size conditions of a meld that leaves ``total - 1`` cards (see the module doc):
    ``canasta`` and ``opening`` are the pair's canasta and the player's opening after it."""
    s = borrow(s)  # no reference counting inside (core/borrow.py)
    if total == 2:
        return left > 0 or (canasta and opening)
    if left == 0:
        return False
    pair = p % 2  # the hand empties: the melding must be complete, so try it
    melds = s.melds[b, pair]
    new = k == s.meld_count[b, pair]
    if new:
        s.meld_owner[b, pair, k] = p
        s.meld_count[b, pair] += 1
    melds[k, t] += 1
    s.meld_size[b, pair, k] += 1
    ok = melds_ok(s, cfg, b, p)
    melds[k, t] -= 1
    s.meld_size[b, pair, k] -= 1
    if new:
        s.meld_owner[b, pair, k] = -1
        s.meld_count[b, pair] -= 1
    return ok


__all__ = ["legal_row"]
