"""Exact legal-action masks of classic canasta (C4-C12).

Every candidate is checked against the rules and against dead ends: a pickup
is legal only if its obligation can be met (C7.1, C11.6) and leaves a card to
discard (C4.3); a meld that leaves one card needs the side's canasta (the last
card can then be discarded as going out), a meld that leaves none is pl's
going out by melding (C12.1).
"""

from __future__ import annotations

from numba import njit

from ....core.common import hand_size
from ....rules_classic import (
    CC_GO_OUT_BY_MELD,
    CC_PERMISSION,
)
from .. import actions as A
from .conditions import _opening_done, can_take_pile
from .meld_row import _discard_row, _meld_row, _meld_row_quick
from .melds import all_valid, canasta_and_valid, has_canasta
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
    total = hand_size(own)
    asked = s.asked[b]
    if phase == PHASE_DISCARD:  # the discard row only: the going-out test short-circuits
        final_ok = (
            asked != ASKED_NO
            and has_canasta(grp)
            and all_valid(grp)
            and _opening_done(s.opened[b, side], s.totals, cfg, b, p, grp)
        )
        return _discard_row(own, total, row, final_ok)
    canasta, valid = canasta_and_valid(grp)
    done = valid and _opening_done(s.opened[b, side], s.totals, cfg, b, p, grp)  # may end the turn
    out_ok = canasta and done
    if asked == ASKED_NO:  # C12.5: he may not go out this turn and takes a card back
        row[A.WITHDRAW] = True
        return 1
    count = 0
    if asked == ASKED_YES:  # he must go out now: discard the card or (pl) meld it
        count += _discard_row(own, total, row, out_ok)
        if cfg[CC_GO_OUT_BY_MELD] == 1:
            count += _meld_row(s, cfg, b, p, phase, row)
        return count
    if phase == PHASE_MELD and total >= 3:
        count += _meld_row_quick(cfg, grp, own, s.pile_locked[b], asked, row, total, canasta)
    else:
        count += _meld_row(s, cfg, b, p, phase, row)
    if s.changed[b] == 1:
        row[A.WITHDRAW] = True
        count += 1
        if cfg[CC_PERMISSION] == 1 and asked == ASKED_NOT and total == 1 and out_ok:
            row[A.ASK] = True
            count += 1
    if done:
        count += _discard_row(own, total, row, out_ok)
    return count


__all__ = ["legal_row"]
