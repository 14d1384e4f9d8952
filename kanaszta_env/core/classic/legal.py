"""Exact legal-action masks of classic canasta (C4-C12).

Every candidate is checked against the rules and against dead ends: a pickup
is legal only if its obligation can be met (C7.1, C11.6) and leaves a card to
discard (C4.3); a meld that leaves one card needs the side's canasta (the last
card can then be discarded as going out), a meld that leaves none is pl's
going out by melding (C12.1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import actions_classic as A
from ...rules_classic import (
    CC_BLACK_MELD,
    CC_CANASTA_OPENING,
    CC_FREE_UPCARD,
    CC_GO_OUT_BY_MELD,
    CC_PERMISSION,
    CC_PILE_FREEZE,
    CC_WILD_CANASTAS,
)
from ..legal import hand_size, opening_minimum
from .melds import (
    all_valid,
    first_unlocked,
    hand_naturals,
    hand_twos,
    has_canasta,
    naturals,
    opening_reachable,
    opening_value,
    size,
    slot_of,
    wild_fits,
    wilds,
)
from .state import (
    ASKED_NO,
    ASKED_NOT,
    ASKED_YES,
    PHASE_ANSWER,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    PHASE_PICKUP,
)
from .tables import (
    BLACK_MELD,
    BLACK_TYPES,
    CANASTA,
    GROUP_OF,
    GROUP_TYPES,
    JOKER_TYPE,
    KIND_OF,
    NUM_NATURAL,
    TWO_TYPES,
    WILD_MELD,
)


@njit(cache=True)
def opening_done(s, cfg, b: int, p: int, grp) -> bool:
    """The side has opened, laid nothing yet, or its melds reach the minimum (C11)."""
    return _opening_done(s.opened[b, s.side_of[b, p]], s.totals, cfg, b, p, grp)


@njit(cache=True)
def _opening_done(opened: int, totals, cfg, b: int, p: int, grp) -> bool:
    """:func:`opening_done` from the arrays it reads (``opened``: the side's flag); the
    per-decision paths call it so as not to pass the state tuple (core/borrow.py)."""
    if opened == 1:
        return True
    if size_total(grp) == 0:
        return True
    return opening_value(grp, cfg[CC_CANASTA_OPENING] == 1) >= opening_minimum(totals, cfg, b, p)


@njit(cache=True)
def size_total(grp) -> int:
    n = 0
    for g in range(grp.shape[0]):
        n += size(grp, g)
    return n


@njit(cache=True)
def can_finish(cfg, asked: int, opened: int, totals, b: int, p: int, grp, left: int) -> bool:
    """Whether holding ``left`` cards after a meld keeps a way to end the turn (C4.3, C12)
    (``asked``: the turn's answer, ``opened``: the side's flag)."""
    if left >= 2:
        return True
    if not has_canasta(grp) or asked == ASKED_NO:
        return False
    if left == 1:
        return True
    return cfg[CC_GO_OUT_BY_MELD] == 1 and all_valid(grp) and _opening_done(opened, totals, cfg, b, p, grp)


@njit(cache=True)
def pickup_keep(grp) -> int:
    """Cards a pickup must leave in the hand (C4.3, C7.7) [D]: two, or one when the side
    already has a canasta (he can then go out by discarding it)."""
    return 1 if has_canasta(grp) else 2


@njit(cache=True)
def can_take_pile(
    pile, n: int, pile_wilds: int, grp, hand, opened: int, turn: int, totals, cfg, b, p
) -> bool:
    """C7.2-C7.4: whether seat ``p`` may take the pile now (``n``: the pile's length). Reads
    arrays only, not the state tuple (core/borrow.py)."""
    if n == 0:
        return False
    top = pile[n - 1]
    g = GROUP_OF[top]
    if g < 0:  # a wild, a black three (C7.2), or a red three: no rank to take it with
        return False
    if size(grp, g) >= CANASTA:  # the side's canasta rank blocks it (C7.2)
        return False
    if cfg[CC_FREE_UPCARD] == 1 and turn == 0:
        return True  # C4.4 option: the upcard alone, without conditions
    total = hand_size(hand)
    rest = n - 1
    keep = pickup_keep(grp)
    h = hand_naturals(hand, g)
    if opened == 0:  # (a) only, completing the opening (C7.4, C11.6)
        if h < 2:
            return False
        work = grp.copy()
        work[g, 0] += 1
        need = opening_minimum(totals, cfg, b, p)
        budget = total + rest - keep
        return opening_reachable(
            work, hand, need, g, budget, cfg[CC_WILD_CANASTAS] == 1, cfg[CC_CANASTA_OPENING] == 1
        )
    frozen = cfg[CC_PILE_FREEZE] == 1 and pile_wilds > 0
    if not frozen and size(grp, g) > 0:  # (c) onto the side's meld
        return total + rest >= keep
    if total + rest - 2 < keep:
        return False
    if h >= 2:  # (a)
        return True
    return not frozen and h >= 1 and hand_twos(hand) + hand[JOKER_TYPE] >= 1  # (b)


@njit(cache=True)
def pickup_complete(s, cfg, b: int, p: int) -> bool:
    """Whether the meld obliged by this turn's pickup is made (C7.1), with the opening."""
    side = s.side_of[b, p]
    grp = s.groups[b, side]
    g = GROUP_OF[s.pickup_card[b]]
    if s.opened[b, side] == 0:
        return naturals(grp, g) >= 3 and all_valid(grp) and opening_done(s, cfg, b, p, grp)
    if (
        cfg[CC_PILE_FREEZE] == 1
        and s.pile_wilds[b] > 0
        and naturals(s.start_groups[b], g) + 3 > naturals(grp, g)
    ):
        return False  # frozen: two naturals from the hand (C8.3)
    return size(grp, g) >= 3


@njit(cache=True)
def _pickup_ok_after(
    cfg,
    totals,
    b: int,
    p: int,
    opened: int,
    start,
    g: int,
    rest: int,
    pile_wilds: int,
    work,
    hand,
    g_add: int,
) -> bool:
    """Whether the pickup's obligation can still be met after laying a card on meld
    ``g_add`` (the caller has applied it to ``work`` and ``hand``). ``start``: the side's
    melds when the turn began, ``g``: the meld of the pickup's top card, ``rest``: the
    cards under it, ``opened``: the side's flag."""
    keep = pickup_keep(start)  # the side's melds before the pickup, as can_take_pile
    if opened == 0:
        need = opening_minimum(totals, cfg, b, p)
        budget = hand_size(hand) + rest - keep
        return opening_reachable(
            work, hand, need, g, budget, cfg[CC_WILD_CANASTAS] == 1, cfg[CC_CANASTA_OPENING] == 1
        )
    # an opened side lays only on T's meld: done, or one more natural / wild completes it
    frozen = cfg[CC_PILE_FREEZE] == 1 and pile_wilds > 0
    if g_add != g:
        return False
    n = naturals(work, g)
    w = wilds(work, g)
    if frozen:  # two naturals from the hand (C8.3); wilds may join the meld too (C7.3)
        short = naturals(start, g) + 3 - n
        if short <= 0:
            return True
        return hand_naturals(hand, g) >= short and hand_size(hand) - short + rest >= keep
    if n + w >= 3:
        return True
    return hand_naturals(hand, g) >= 1 or (w < n and hand_twos(hand) + hand[JOKER_TYPE] >= 1)


@njit(cache=True)
def _meld_row(s, cfg, b: int, p: int, phase: int, row) -> int:
    """Meld candidates of the meld and pickup phases.

    In the meld phase with three or more cards in hand every candidate is legal (two
    cards stay, see ``can_finish``): that common case is :func:`_meld_row_quick`."""
    side = s.side_of[b, p]
    grp = s.groups[b, side]
    own = s.hand[b, p]
    locked = s.pile_locked[b]
    if phase == PHASE_MELD and hand_size(own) >= 3:
        return _meld_row_quick(cfg, grp, own, locked, s.asked[b], row)
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
        GROUP_OF[card] if card >= 0 else -1,
        s.pickup_rest[b],
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
    work,
    hand,
) -> bool:
    """Whether laying a card of type ``t`` on meld ``g`` is legal (applied to the copies
    ``work`` and ``hand``)."""
    work[:, :] = grp
    hand[:] = own
    hand[t] -= 1
    work[g, slot_of(g, t)] += 1
    if phase == PHASE_PICKUP:
        return _pickup_ok_after(cfg, totals, b, p, opened, start, pg, rest, pile_wilds, work, hand, g)
    return can_finish(cfg, asked, opened, totals, b, p, work, hand_size(hand))


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
    work = np.empty((grp.shape[0], grp.shape[1]), dtype=np.int8)
    hand = np.empty(own.shape[0], dtype=np.int8)
    t2 = first_unlocked(own, locked, TWO_TYPES)
    joker = own[JOKER_TYPE] > locked[JOKER_TYPE]
    for g in range(NUM_NATURAL):
        t = first_unlocked(own, locked, GROUP_TYPES[g])
        if t >= 0 and _meld_ok_arrays(
            cfg, totals, b, p, phase, g, t, grp, own, opened, asked, start, pg, rest, pile_wilds, work, hand
        ):
            row[A.MELD0 + g] = True
            count += 1
        if not wild_fits(grp, g):
            continue
        if t2 >= 0 and _meld_ok_arrays(
            cfg, totals, b, p, phase, g, t2, grp, own, opened, asked, start, pg, rest, pile_wilds, work, hand
        ):
            row[A.TWO0 + g] = True
            count += 1
        if joker and _meld_ok_arrays(
            cfg,
            totals,
            b,
            p,
            phase,
            g,
            JOKER_TYPE,
            grp,
            own,
            opened,
            asked,
            start,
            pg,
            rest,
            pile_wilds,
            work,
            hand,
        ):
            row[A.JOKER0 + g] = True
            count += 1
    if cfg[CC_WILD_CANASTAS] == 1 and wild_fits(grp, WILD_MELD) and (phase == PHASE_MELD or opened == 0):
        if t2 >= 0 and _meld_ok_arrays(
            cfg,
            totals,
            b,
            p,
            phase,
            WILD_MELD,
            t2,
            grp,
            own,
            opened,
            asked,
            start,
            pg,
            rest,
            pile_wilds,
            work,
            hand,
        ):
            row[A.TWO_TO_WILD] = True
            count += 1
        if joker and _meld_ok_arrays(
            cfg,
            totals,
            b,
            p,
            phase,
            WILD_MELD,
            JOKER_TYPE,
            grp,
            own,
            opened,
            asked,
            start,
            pg,
            rest,
            pile_wilds,
            work,
            hand,
        ):
            row[A.JOKER_TO_WILD] = True
            count += 1
    return count


@njit(cache=True)
def _meld_row_quick(cfg, grp, own, locked, asked: int, row) -> int:
    """:func:`_meld_row` in the meld phase with three or more cards in hand: every
    candidate is legal (``can_finish``), and so is a black three that passes the first checks
    of :func:`_black_three_ok` (two or more cards are in play). Reads arrays only, not the
    state tuple (core/borrow.py)."""
    count = 0
    t2 = first_unlocked(own, locked, TWO_TYPES)
    joker = own[JOKER_TYPE] > locked[JOKER_TYPE]
    for g in range(NUM_NATURAL):
        if first_unlocked(own, locked, GROUP_TYPES[g]) >= 0:
            row[A.MELD0 + g] = True
            count += 1
        if not wild_fits(grp, g):
            continue
        if t2 >= 0:
            row[A.TWO0 + g] = True
            count += 1
        if joker:
            row[A.JOKER0 + g] = True
            count += 1
    if cfg[CC_WILD_CANASTAS] == 1 and wild_fits(grp, WILD_MELD):
        if t2 >= 0:
            row[A.TWO_TO_WILD] = True
            count += 1
        if joker:
            row[A.JOKER_TO_WILD] = True
            count += 1
    if cfg[CC_BLACK_MELD] == 1:
        black = own[BLACK_TYPES[0]] + own[BLACK_TYPES[1]]
        if (
            black > 0
            and has_canasta(grp)
            and asked != ASKED_NO
            and hand_size(own) - black <= 1
            and black + naturals(grp, BLACK_MELD) >= 3
        ):
            row[A.BLACK_THREE] = True
            count += 1
    return count


@njit(cache=True)
def _black_three_ok(s, cfg, b: int, p: int, grp, own) -> bool:
    """pl C10.2: black threes are melded only as the last step before going out; melding
    the last card is going out (C12.1), which needs every meld legal and the opening made."""
    black = own[BLACK_TYPES[0]] + own[BLACK_TYPES[1]]
    if black == 0 or not has_canasta(grp) or s.asked[b] == ASKED_NO:
        return False
    others = hand_size(own) - black
    if others > 1 or black + naturals(grp, BLACK_MELD) < 3:
        return False
    if others + black > 1:
        return True
    work = grp.copy()
    work[BLACK_MELD, 0] += 1  # the slot does not matter to the checks below
    return all_valid(work) and opening_done(s, cfg, b, p, work)


@njit(cache=True)
def _discard_row(own, row, final_ok: bool) -> int:
    """Discards from the hand ``own``: any card; the last one only as going out
    (``final_ok``, C12.2)."""
    total = hand_size(own)
    if total == 1 and not final_ok:
        return 0
    count = 0
    for t in range(own.shape[0]):
        if own[t] > 0 and KIND_OF[t] >= 0 and not row[A.DISCARD0 + KIND_OF[t]]:
            row[A.DISCARD0 + KIND_OF[t]] = True
            count += 1
    return count


@njit(cache=True, inline="always")
def legal_row(s, cfg, b: int, row) -> int:
    """Write the legal actions of game ``b`` into ``row``; returns how many."""
    row[:] = False
    phase = s.phase[b]
    p = s.to_move[b]
    if phase == PHASE_ANSWER:
        row[A.ANSWER_YES] = True
        row[A.ANSWER_NO] = True
        return 2
    if phase == PHASE_DRAW:
        count = 0
        if s.stock_len[b] > 0:
            row[A.DRAW] = True
            count += 1
        else:
            row[A.END_HAND] = True
            count += 1
        side = s.side_of[b, p]
        if can_take_pile(
            s.pile[b],
            s.pile_len[b],
            s.pile_wilds[b],
            s.groups[b, side],
            s.hand[b, p],
            s.opened[b, side],
            s.turn[b],
            s.totals,
            cfg,
            b,
            p,
        ):
            row[A.TAKE_PILE] = True
            count += 1
        return count
    if phase == PHASE_PICKUP:
        return _meld_row(s, cfg, b, p, phase, row)
    side = s.side_of[b, p]
    grp = s.groups[b, side]
    own = s.hand[b, p]
    opened = s.opened[b, side]
    out_ok = has_canasta(grp) and all_valid(grp) and _opening_done(opened, s.totals, cfg, b, p, grp)
    asked = s.asked[b]
    if phase == PHASE_DISCARD:
        return _discard_row(own, row, out_ok and asked != ASKED_NO)
    if asked == ASKED_NO:  # C12.5: he may not go out this turn and takes a card back
        row[A.WITHDRAW] = True
        return 1
    count = 0
    if asked == ASKED_YES:  # he must go out now: discard the card or (pl) meld it
        count += _discard_row(own, row, out_ok)
        if cfg[CC_GO_OUT_BY_MELD] == 1:
            count += _meld_row(s, cfg, b, p, phase, row)
        return count
    if phase == PHASE_MELD and hand_size(own) >= 3:
        count += _meld_row_quick(cfg, grp, own, s.pile_locked[b], asked, row)
    else:
        count += _meld_row(s, cfg, b, p, phase, row)
    if s.changed[b] == 1:
        row[A.WITHDRAW] = True
        count += 1
    if (
        cfg[CC_PERMISSION] == 1
        and asked == ASKED_NOT
        and s.changed[b] == 1
        and hand_size(own) == 1
        and out_ok
    ):
        row[A.ASK] = True
        count += 1
    if all_valid(grp) and _opening_done(opened, s.totals, cfg, b, p, grp):
        count += _discard_row(own, row, out_ok)
    return count


__all__ = ["legal_row"]
