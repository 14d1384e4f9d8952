"""Applying one action (R5-R14): draws and pickups, melds, lifted wilds,
withdrawing and discards; the deal, the turn flow and the end of a hand are in
:mod:`.turns` and :mod:`.hands`."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import (
    BIG_WILD,
    GROUP_SLOTS,
    HEART_ACE,
    JOKER,
    JOKER_SLOT,
    NUM_GROUPS,
    NUM_SUITS,
    NUM_TYPES,
    SLOT_TYPE,
    TYPE_GROUP,
    TYPE_WILD_SLOT,
    WILD_SLOT0,
    WILD_TYPES,
)
from ....core.common import opening_minimum, pile_to_hand
from .. import actions as A
from .bookkeeping import _checkpoint, _forget
from .draw import _draw_card
from .hands import _end_hand, episode_truncated, reset_game
from .legal import wild_kind
from .pickup import obligation_met
from .state import (
    END_EXHAUSTED,
    FREE_GONE,
    FREE_NOW,
    FREE_USED,
    PHASE_CUT,
    PHASE_DISCARD,
    PHASE_MELD,
    PHASE_PICKUP,
    PICKUP_FREE,
    PICKUP_PILE,
)
from .tables import CUT_CARDS
from .turns import _deal, _discard

__all__ = ["apply_action", "episode_truncated", "reset_game"]

_WILD_TYPES = np.array(WILD_TYPES, dtype=np.int8)


# --- applying one action ------------------------------------------------------
@njit(cache=True, inline="always")
def apply_action(s, cfg, b: int, a: int, rewards) -> None:
    """Apply a legal action ``a`` to game ``b`` (legality is checked by the caller)."""
    phase = s.phase[b]
    p = np.int64(s.to_move[b])  # int64 like the other callers: one compiled copy of each callee
    if phase == PHASE_CUT:
        s.cut_kept[b, s.cut_index[b]] = 1 if a == A.KEEP else 0
        s.cut_index[b] += 1
        if s.cut_index[b] == CUT_CARDS:
            _deal(s, cfg, b, rewards)
        return
    if a == A.DRAW:
        if s.free_pickup[b, p] == FREE_NOW:
            s.free_pickup[b, p] = FREE_GONE  # R7.3
        if not _draw_card(
            s.hand,
            s.known,
            s.red_threes,
            s.stock,
            s.stock_len,
            s.stock_known,
            s.pile,
            s.pile_len,
            s.pile_fresh,
            s.rng,
            b,
            p,
        ):  # only red threes were left (R5.4)
            _end_hand(s, cfg, b, np.int64(END_EXHAUSTED), rewards)
            return
        s.phase[b] = PHASE_MELD
        _checkpoint(
            s.hand, s.groups, s.sep_heart_aces, s.cp_hand, s.cp_groups, s.cp_sep_heart_aces, s.changed, b, p
        )
    elif a == A.TAKE_FREE or a == A.TAKE_PILE:
        n = s.pile_len[b]
        top = s.pile[b, n - 1]
        s.pile_len[b] = n - 1
        s.pile_fresh[b] = 0
        s.hand[b, p, top] += 1
        s.known[b, p, top] += 1
        if a == A.TAKE_FREE:  # R7.2
            s.free_pickup[b, p] = FREE_USED
            s.pickup_kind[b] = PICKUP_FREE
            s.phase[b] = PHASE_MELD
        else:  # R8.3 step 1
            s.pickup_kind[b] = PICKUP_PILE
            s.pickup_size[b] = n
            s.pickup_card[b] = top
            s.phase[b] = PHASE_PICKUP
        _checkpoint(
            s.hand, s.groups, s.sep_heart_aces, s.cp_hand, s.cp_groups, s.cp_sep_heart_aces, s.changed, b, p
        )
    elif a < A.HEART_ACE:
        g = _meld(s.hand, s.groups, s.locked, s.known, s.changed, b, p, a)
        if phase == PHASE_PICKUP and g == TYPE_GROUP[s.pickup_card[b]]:
            s.pickup_from_hand[b] += 1
    elif a == A.HEART_ACE:
        s.hand[b, p, HEART_ACE] -= 1
        s.sep_heart_aces[b, p] += 1
        _forget(s.known, b, p, HEART_ACE)
        s.changed[b] = 1
    elif a < A.PLACE0:
        kind, g = divmod(a - A.LIFT0, NUM_GROUPS)
        _lift(s.groups, s.lifted, s.lifted_from, s.changed, b, p, kind, g)
    elif a < A.WITHDRAW:
        g = a - A.PLACE0
        t = s.lifted[b]
        s.groups[b, p, g, WILD_SLOT0 + TYPE_WILD_SLOT[t]] += 1
        s.locked[b, g, wild_kind(t)] += 1
        s.lifted[b] = -1
        s.lifted_from[b] = -1
    elif a == A.WITHDRAW:
        _withdraw(
            s.hand, s.known, s.groups, s.sep_heart_aces, s.cp_hand, s.cp_groups, s.cp_sep_heart_aces,
            s.locked, s.lifted, s.lifted_from, s.changed, s.phase, b, p,
        )  # fmt: skip
    else:
        _discard(s, cfg, b, p, a - A.DISCARD0, rewards)
        return
    if s.phase[b] == PHASE_PICKUP and obligation_met(
        s.hand[b, p],
        s.groups[b, p],
        s.cp_groups[b],
        s.lifted[b],
        s.pickup_card[b],
        s.pickup_from_hand[b],
        s.opened[b, p] == 1,
        s.pile_len[b],
        opening_minimum(s.totals, cfg, b, p),
    ):
        # R8.3 step 3: once the obligatory meld is complete the rest of the
        # pile joins the hand, and the turn goes on as ordinary melding.
        pile_to_hand(s, b, p)
        s.phase[b] = PHASE_MELD
        _checkpoint(
            s.hand, s.groups, s.sep_heart_aces, s.cp_hand, s.cp_groups, s.cp_sep_heart_aces, s.changed, b, p
        )


@njit(cache=True)
def _meld(hand, groups, locked, known, changed, b: int, p: int, a: int) -> int:
    """Put a card from hand into a group (R10); returns the group."""
    if a < A.WILD0:
        t = A.MELD_TYPE[a - A.MELD0]
        g = TYPE_GROUP[t]
        groups[b, p, g, t % NUM_SUITS] += 1
    else:
        k, g = divmod(a - A.WILD0, NUM_GROUPS)
        t = _WILD_TYPES[k]
        groups[b, p, g, WILD_SLOT0 + k] += 1
        locked[b, g, wild_kind(t)] += 1
    hand[b, p, t] -= 1
    _forget(known, b, p, t)
    changed[b] = 1
    return g


@njit(cache=True)
def _lift(groups, lifted, lifted_from, changed, b: int, p: int, kind: int, g: int) -> None:
    """Take a wild out of a group (R13.2); the next action must place it."""
    if kind == BIG_WILD:
        groups[b, p, g, JOKER_SLOT] -= 1
        lifted[b] = JOKER
    else:
        for k in range(WILD_SLOT0, JOKER_SLOT):
            if groups[b, p, g, k] > 0:
                groups[b, p, g, k] -= 1
                lifted[b] = SLOT_TYPE[g, k]
                break
    lifted_from[b] = g
    changed[b] = 1


@njit(cache=True)
def _withdraw(
    hand, known, groups, sep_heart_aces, cp_hand, cp_groups, cp_sep_heart_aces, locked, lifted, lifted_from,
    changed, phase, b: int, p: int,
) -> None:  # fmt: skip
    """R12.5: take back everything laid or moved since the checkpoint; the turn
    then ends with a discard. Cards seen going down and back are known: with
    :func:`_forget`'s bookkeeping this makes the known count of each type the
    larger of the count known at the checkpoint and the count returned."""
    for t in range(NUM_TYPES):
        back = cp_hand[b, t] - hand[b, p, t]
        if back > 0:
            known[b, p, t] += back
        hand[b, p, t] = cp_hand[b, t]
    for g in range(NUM_GROUPS):
        for k in range(GROUP_SLOTS):
            groups[b, p, g, k] = cp_groups[b, g, k]
        locked[b, g, 0] = 0
        locked[b, g, 1] = 0
    sep_heart_aces[b, p] = cp_sep_heart_aces[b]
    lifted[b] = -1
    lifted_from[b] = -1
    changed[b] = 0
    phase[b] = PHASE_DISCARD
