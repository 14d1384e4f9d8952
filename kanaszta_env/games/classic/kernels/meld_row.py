"""The meld and discard rows of classic canasta's legal mask (C5, C10, C12): which cards
may go onto the side's melds now, and which discards end the turn."""

from __future__ import annotations

from numba import njit

from ....core.common import hand_size
from ....rules_classic import CC_BLACK_MELD, CC_WILD_CANASTAS
from .. import actions as A
from . import tables as T
from .conditions import _pickup_ok_after, can_finish, opening_done, rest_to_hand
from .melds import all_valid, first_unlocked, hand_naturals, has_canasta, naturals, slot_of, wild_fits
from .state import ASKED_NO, PHASE_MELD, PHASE_PICKUP


@njit(cache=True)
def _meld_row(s, cfg, b: int, p: int, phase: int, row) -> int:
    """Meld candidates of the meld and pickup phases.

    In the meld phase with three or more cards in hand every candidate is legal (two
    cards stay, see ``can_finish``): that common case is :func:`_meld_row_quick`."""
    side = s.side_of[b, p]
    grp = s.groups[b, side]
    own = s.hand[b, p]
    locked = s.pile_locked[b]
    total = hand_size(own)
    if phase == PHASE_MELD and total >= 3:
        return _meld_row_quick(cfg, grp, own, locked, s.asked[b], row, total, has_canasta(grp))
    card = s.pickup_card[b]
    count = _meld_row_checked(
        cfg,
        s.totals,
        b,
        p,
        phase,
        grp,
        own,
        locked,
        s.opened[b, side],
        s.asked[b],
        s.start_groups[b],
        T.GROUP_OF[card] if card >= 0 else -1,
        rest_to_hand(s.pile[b], s.pickup_rest[b]),
        s.pile_wilds[b],
        row,
    )
    if phase == PHASE_MELD and cfg[CC_BLACK_MELD] == 1 and _black_three_ok(s, cfg, b, p, grp, own):
        row[A.BLACK_THREE] = True
        count += 1
    return count


@njit(cache=True)
def _meld_ok_arrays(
    cfg,
    totals,
    b: int,
    p: int,
    phase: int,
    g: int,
    t: int,
    grp,
    own,
    opened: int,
    asked: int,
    start,
    pg: int,
    rest: int,
    pile_wilds: int,
) -> bool:
    """Whether laying a card of type ``t`` on meld ``g`` is legal: applied to ``grp`` and
    ``own`` in place, checked, and undone (no copies; the checks only read)."""
    k = slot_of(g, t)
    own[t] -= 1
    grp[g, k] += 1
    if phase == PHASE_PICKUP:
        ok = _pickup_ok_after(cfg, totals, b, p, opened, start, pg, rest, pile_wilds, grp, own, g)
    else:
        ok = can_finish(cfg, asked, opened, totals, b, p, grp, hand_size(own))
    own[t] += 1
    grp[g, k] -= 1
    return ok


@njit(cache=True)
def _meld_row_checked(
    cfg,
    totals,
    b: int,
    p: int,
    phase: int,
    grp,
    own,
    locked,
    opened: int,
    asked: int,
    start,
    pg: int,
    rest: int,
    pile_wilds: int,
    row,
) -> int:
    """The meld candidates of :func:`_meld_row` other than the black three, each checked
    by :func:`_meld_ok_arrays` (``pg``: the meld of the pickup's top card, ``rest``: the
    cards under it, ``start``: the side's melds when the turn began). Reads arrays only,
    not the state tuple (core/borrow.py)."""
    count = 0
    t2 = first_unlocked(own, locked, T.TWO_TYPES)
    jk = T.JOKER_TYPE if own[T.JOKER_TYPE] > locked[T.JOKER_TYPE] else -1
    pickup = phase == PHASE_PICKUP
    for g in range(T.NUM_NATURAL):
        if pickup and opened != 0 and g != pg:
            continue  # an opened side's pickup lays only on the top card's meld (_pickup_ok_after)
        t = first_unlocked(own, locked, T.GROUP_TYPES[g])
        if pickup and opened == 0 and t >= 0 and naturals(grp, g) + hand_naturals(own, g) == 1:
            t = -1  # a lone natural can never make meld g valid: opening_reachable says no
        if t >= 0 and _meld_ok_arrays(
            cfg, totals, b, p, phase, g, t, grp, own, opened, asked, start, pg, rest, pile_wilds
        ):
            row[A.MELD0 + g] = True
            count += 1
        if not wild_fits(grp, g):
            continue
        if t2 >= 0 and _meld_ok_arrays(
            cfg, totals, b, p, phase, g, t2, grp, own, opened, asked, start, pg, rest, pile_wilds
        ):
            row[A.TWO0 + g] = True
            count += 1
        if jk >= 0 and _meld_ok_arrays(
            cfg, totals, b, p, phase, g, jk, grp, own, opened, asked, start, pg, rest, pile_wilds
        ):
            row[A.JOKER0 + g] = True
            count += 1
    if cfg[CC_WILD_CANASTAS] == 1 and wild_fits(grp, T.WILD_MELD) and (phase == PHASE_MELD or opened == 0):
        if t2 >= 0 and _meld_ok_arrays(
            cfg, totals, b, p, phase, T.WILD_MELD, t2, grp, own, opened, asked, start, pg, rest, pile_wilds
        ):
            row[A.TWO_TO_WILD] = True
            count += 1
        if jk >= 0 and _meld_ok_arrays(
            cfg, totals, b, p, phase, T.WILD_MELD, jk, grp, own, opened, asked, start, pg, rest, pile_wilds
        ):
            row[A.JOKER_TO_WILD] = True
            count += 1
    return count


@njit(cache=True)
def _meld_row_quick(cfg, grp, own, locked, asked: int, row, total: int, canasta: bool) -> int:
    """:func:`_meld_row` in the meld phase with three or more cards in hand: every
    candidate is legal (``can_finish``), and so is a black three that passes the first checks
    of :func:`_black_three_ok` (two or more cards are in play). ``total``: the hand's size,
    ``canasta``: whether the side has one. Reads arrays only, not the state tuple
    (core/borrow.py)."""
    count = 0
    t2 = first_unlocked(own, locked, T.TWO_TYPES)
    joker = own[T.JOKER_TYPE] > locked[T.JOKER_TYPE]
    wild = t2 >= 0 or joker
    for g in range(T.NUM_NATURAL):
        if first_unlocked(own, locked, T.GROUP_TYPES[g]) >= 0:
            row[A.MELD0 + g] = True
            count += 1
        if not wild or not wild_fits(grp, g):
            continue
        if t2 >= 0:
            row[A.TWO0 + g] = True
            count += 1
        if joker:
            row[A.JOKER0 + g] = True
            count += 1
    if wild and cfg[CC_WILD_CANASTAS] == 1 and wild_fits(grp, T.WILD_MELD):
        if t2 >= 0:
            row[A.TWO_TO_WILD] = True
            count += 1
        if joker:
            row[A.JOKER_TO_WILD] = True
            count += 1
    if cfg[CC_BLACK_MELD] == 1:
        black = own[T.BLACK_TYPES[0]] + own[T.BLACK_TYPES[1]]
        if (
            black > 0
            and canasta
            and asked != ASKED_NO
            and total - black <= 1
            and black + naturals(grp, T.BLACK_MELD) >= 3
        ):
            row[A.BLACK_THREE] = True
            count += 1
    return count


@njit(cache=True)
def _black_three_ok(s, cfg, b: int, p: int, grp, own) -> bool:
    """pl C10.2: black threes are melded only as the last step before going out; melding
    the last card is going out (C12.1), which needs every meld legal and the opening made."""
    black = own[T.BLACK_TYPES[0]] + own[T.BLACK_TYPES[1]]
    if black == 0 or not has_canasta(grp) or s.asked[b] == ASKED_NO:
        return False
    others = hand_size(own) - black
    if others > 1 or black + naturals(grp, T.BLACK_MELD) < 3:
        return False
    if others + black > 1:
        return True
    work = grp.copy()
    work[T.BLACK_MELD, 0] += 1  # the slot does not matter to the checks below
    return all_valid(work) and opening_done(s, cfg, b, p, work)


@njit(cache=True)
def _discard_row(own, total: int, row, final_ok: bool) -> int:
    """Discards from the hand ``own`` of ``total`` cards: any card; the last one only as
    going out (``final_ok``, C12.2)."""
    if total == 1 and not final_ok:
        return 0
    count = 0
    for t in range(own.shape[0]):
        if own[t] > 0 and T.KIND_OF[t] >= 0 and not row[A.DISCARD0 + T.KIND_OF[t]]:
            row[A.DISCARD0 + T.KIND_OF[t]] = True
            count += 1
    return count
