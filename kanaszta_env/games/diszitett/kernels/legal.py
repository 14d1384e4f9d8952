"""The exact legal-action mask.

Melding is permissive between steps (a group may be incomplete while it is
being built) and strict at the end: the discard is legal only when
:func:`~kanaszta_env.games.diszitett.kernels.melds.can_end_melding` holds. Any position of the
ordinary meld phase can still be finished, because ``withdraw`` (R12.5) is
legal whenever something was laid or moved. The obligatory meld of a
penalised pickup cannot be withdrawn, so there every action is checked for
feasibility (``pickup.obligation_feasible``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import (
    BIG_WILD,
    HEART_ACE,
    IS_BLACK_THREE,
    IS_WILD,
    JOKER,
    JOKER_SLOT,
    NUM_GROUPS,
    NUM_SUITS,
    NUM_TYPES,
    NUM_WILD_CLASSES,
    NUM_WILD_KINDS,
    SLOT_TYPE,
    SMALL_WILD,
    TYPE_GROUP,
    TYPE_WILD_SLOT,
    WILD_GROUP,
    WILD_SLOT0,
    WILD_TYPES,
)
from ....core.borrow import borrow
from ....core.common import hand_size, opening_minimum
from ....core.config import CFG_HEART_ACES
from .. import actions as A
from .melds import can_end_melding, group_size, has_canasta, naturals, small_wilds, wild_target_ok
from .pickup import obligation_feasible
from .state import (
    FREE_GONE,
    FREE_NOW,
    FREE_USED,
    PHASE_CUT,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    PHASE_PICKUP,
)
from .tables import CANASTA_SIZE, MAX_MIXED_GROUP, MAX_NATURAL_GROUP, MIN_MELD

NUM_ACTIONS = A.NUM_ACTIONS
_MELD_TYPE = A.MELD_TYPE
_NUM_MELDS = len(A.MELD_TYPE)
_WILD_TYPES = np.array(WILD_TYPES, dtype=np.int8)


@njit(cache=True)
def is_frozen(card: int) -> bool:
    """R9: a black three or a wild on top freezes the discard pile."""
    return IS_BLACK_THREE[card] or IS_WILD[card]


@njit(cache=True)
def wild_kind(card: int) -> int:
    """Which count of ``locked`` a wild belongs to: the joker or a 2."""
    return BIG_WILD if card == JOKER else SMALL_WILD


@njit(cache=True)
def unlocked_wilds(grp: np.ndarray, locked: np.ndarray, kind: int) -> int:
    count = grp[JOKER_SLOT] if kind == BIG_WILD else small_wilds(grp)
    return count - locked[kind]


@njit(cache=True)
def pile_pickup_allowed(
    hand: np.ndarray,
    groups: np.ndarray,
    locked: np.ndarray,
    free_pickup: int,
    pile: np.ndarray,
    pile_len: int,
    opened: bool,
    minimum: int,
) -> bool:
    """R8.1-R8.2 (with R7.5 and R9): may the player take the discard pile?

    ``hand`` and ``groups`` are the player's, ``pile`` the game's discard pile.
    """
    if free_pickup != FREE_USED and free_pickup != FREE_GONE:
        return False
    n = pile_len
    if n == 0:
        return False
    top = pile[n - 1]
    if is_frozen(top):
        return False
    r = TYPE_GROUP[top]
    support = 0
    for t in range(NUM_TYPES):
        if TYPE_GROUP[t] == r or IS_WILD[t]:
            support += hand[t]
    if support < MIN_MELD - 1:  # the top card and two more make a group
        return False
    # simulate step 1 of R8.3: the top card joins the hand
    hand[top] += 1
    ok = obligation_feasible(hand, groups, groups, -1, locked, top, 0, opened, n - 1, minimum)
    hand[top] -= 1
    return ok


@njit(cache=True, inline="always")
def legal_row(s, cfg, b: int, out: np.ndarray) -> int:
    """Write game ``b``'s legal actions into the boolean row ``out`` (zeroed
    here) and return how many there are."""
    # Every njit call that receives the state tuple increfs and decrefs its 41
    # arrays (~0.5 us), so the helpers below take the arrays they need.
    out[:] = False
    phase = s.phase[b]
    p = np.int64(s.to_move[b])  # int64 like the other callers: one compiled copy of each callee
    if phase == PHASE_CUT:
        out[A.KEEP] = True
        out[A.LEAVE] = True
    elif phase == PHASE_DRAW:
        out[A.DRAW] = True
        n = s.pile_len[b]
        if s.free_pickup[b, p] == FREE_NOW:
            out[A.TAKE_FREE] = n > 0 and not is_frozen(s.pile[b, n - 1])
        else:
            out[A.TAKE_PILE] = pile_pickup_allowed(
                s.hand[b, p],
                s.groups[b, p],
                s.locked[b],
                s.free_pickup[b, p],
                s.pile[b],
                n,
                s.opened[b, p] == 1,
                opening_minimum(s.totals, cfg, b, p),
            )
    elif phase == PHASE_DISCARD:
        hand = s.hand[b, p]
        ok = hand_size(hand) >= 2 or has_canasta(s.groups[b, p])  # R14: out only with a canasta
        for t in range(NUM_TYPES):
            out[A.DISCARD0 + t] = ok and hand[t] > 0
    elif phase == PHASE_MELD:
        _meld_row(
            s.hand[b, p],
            s.groups[b, p],
            s.cp_groups[b],
            s.locked[b],
            s.lifted[b],
            s.lifted_from[b],
            s.changed[b] == 1,
            s.opened[b, p] == 1,
            s.sep_heart_aces[b, p] - s.cp_sep_heart_aces[b],
            opening_minimum(s.totals, cfg, b, p),
            cfg[CFG_HEART_ACES] == 1,
            out,
        )
    elif phase == PHASE_PICKUP:
        _pickup_row(
            s.hand[b, p],
            s.groups[b, p],
            s.cp_groups[b],
            s.locked[b],
            s.lifted[b],
            s.lifted_from[b],
            s.pickup_card[b],
            s.pickup_from_hand[b],
            s.opened[b, p] == 1,
            s.pile_len[b],
            opening_minimum(s.totals, cfg, b, p),
            out,
        )
    count = 0
    for a in range(NUM_ACTIONS):
        count += out[a]
    return count


@njit(cache=True)
def _meld_row(
    hand: np.ndarray,
    groups: np.ndarray,
    cp: np.ndarray,
    locked: np.ndarray,
    lifted: int,
    lifted_from: int,
    changed: bool,
    opened: bool,
    new_aces: int,
    minimum: int,
    heart_aces: bool,
    out: np.ndarray,
) -> None:
    """The ordinary meld phase: ``hand``/``groups`` are the mover's, ``cp`` and
    ``locked`` the turn's checkpoint groups and wilds placed this turn."""
    # groups a wild could still go to, as a bit mask (no allocation in the hot path)
    targets = 0
    count = 0
    for g in range(WILD_GROUP + 1):
        if wild_target_ok(g, groups[g], cp[g], locked[g, 0] + locked[g, 1] + 1):
            targets |= 1 << g
            count += 1
    if lifted >= 0:  # R13.2: the lifted wild must go into another group at once
        for g in range(WILD_GROUP + 1):
            out[A.PLACE0 + g] = (targets >> g) & 1 == 1 and g != lifted_from
        out[A.WITHDRAW] = True
        return
    size = hand_size(hand)
    if size >= 2:  # R14.2: the last card is never melded
        for i in range(_NUM_MELDS):
            if hand[_MELD_TYPE[i]] > 0:
                g = i // NUM_SUITS
                n = naturals(groups[g]) + 1
                fixed = locked[g, 0] + locked[g, 1]
                out[A.MELD0 + i] = n <= MAX_NATURAL_GROUP and (fixed == 0 or n + fixed <= MAX_MIXED_GROUP)
        for k in range(NUM_WILD_KINDS):
            if hand[_WILD_TYPES[k]] > 0:
                for g in range(WILD_GROUP + 1):
                    out[A.WILD0 + NUM_GROUPS * k + g] = (targets >> g) & 1 == 1
        out[A.HEART_ACE] = heart_aces and hand[HEART_ACE] > 0
    for g in range(WILD_GROUP + 1):
        if count - ((targets >> g) & 1) == 0:
            continue  # no other group could take a wild lifted from here
        if g == WILD_GROUP and group_size(cp[g]) >= CANASTA_SIZE:
            continue  # R13.2: a wild canasta is never broken up
        grp = groups[g]
        out[A.LIFT0 + NUM_GROUPS * SMALL_WILD + g] = small_wilds(grp) > locked[g, SMALL_WILD]
        out[A.LIFT0 + NUM_GROUPS * BIG_WILD + g] = grp[JOKER_SLOT] > locked[g, BIG_WILD]
    out[A.WITHDRAW] = changed
    if can_end_melding(groups, cp, size, opened, new_aces, minimum):
        for t in range(NUM_TYPES):
            out[A.DISCARD0 + t] = hand[t] > 0


@njit(cache=True)
def _pickup_row(
    hand: np.ndarray,
    groups: np.ndarray,
    cp: np.ndarray,
    locked: np.ndarray,
    lifted: int,
    lifted_from: int,
    top: int,
    from_hand: int,
    opened: bool,
    rest: int,
    minimum: int,
    out: np.ndarray,
) -> None:
    """Step 2 of R8.3: melds from hand that keep the obligation achievable.

    An opened player melds into the top card's group only (and moves wilds
    it displaces); a player who has not opened builds his opening from hand.
    Each candidate is applied to the arrays, checked with the exact
    feasibility test, and undone. ``top`` is the pile's top card, ``from_hand``
    the hand cards melded into its group so far, ``rest`` the pile left.
    """
    r = TYPE_GROUP[top]
    if lifted >= 0:
        kind = wild_kind(lifted)
        slot = WILD_SLOT0 + TYPE_WILD_SLOT[lifted]
        for g in range(WILD_GROUP + 1):
            fixed = locked[g, 0] + locked[g, 1] + 1
            if g == lifted_from or not wild_target_ok(g, groups[g], cp[g], fixed):
                continue
            groups[g, slot] += 1
            locked[g, kind] += 1
            out[A.PLACE0 + g] = obligation_feasible(
                hand, groups, cp, -1, locked, top, from_hand, opened, rest, minimum
            )
            locked[g, kind] -= 1
            groups[g, slot] -= 1
        return
    # Feasibility depends on a card's rank (and on whether it is the top card's
    # type), not its suit, and not on which wild it is: evaluate each class once.
    for i in range(_NUM_MELDS):
        t = _MELD_TYPE[i]
        g = i // NUM_SUITS
        if hand[t] == 0 or (opened and g != r):
            continue
        same = -1  # an earlier type of this rank with the same feasibility
        for i2 in range(NUM_SUITS * g, i):
            t2 = _MELD_TYPE[i2]
            if hand[t2] > 0 and (t2 == top) == (t == top):
                same = i2
                break
        if same >= 0:
            out[A.MELD0 + i] = out[A.MELD0 + same]
            continue
        hand[t] -= 1
        groups[g, t % NUM_SUITS] += 1
        bump = 1 if g == r else 0
        out[A.MELD0 + i] = obligation_feasible(
            hand, groups, cp, -1, locked, top, from_hand + bump, opened, rest, minimum
        )
        groups[g, t % NUM_SUITS] -= 1
        hand[t] += 1
    first = -1  # the first wild type held: the others share its results
    for k in range(NUM_WILD_KINDS):
        t = _WILD_TYPES[k]
        if hand[t] == 0:
            continue
        if first >= 0:
            for g in range(WILD_GROUP + 1):
                out[A.WILD0 + NUM_GROUPS * k + g] = out[A.WILD0 + NUM_GROUPS * first + g]
            continue
        first = k
        kind = wild_kind(t)
        for g in range(WILD_GROUP + 1):
            if opened and g != r:
                continue
            if not wild_target_ok(g, groups[g], cp[g], locked[g, 0] + locked[g, 1] + 1):
                continue
            hand[t] -= 1
            groups[g, WILD_SLOT0 + k] += 1
            locked[g, kind] += 1
            bump = 1 if g == r else 0
            out[A.WILD0 + NUM_GROUPS * k + g] = obligation_feasible(
                hand, groups, cp, -1, locked, top, from_hand + bump, opened, rest, minimum
            )
            locked[g, kind] -= 1
            groups[g, WILD_SLOT0 + k] -= 1
            hand[t] += 1
    if opened:
        for kind in range(NUM_WILD_CLASSES):
            if unlocked_wilds(groups[r], locked[r], kind) <= 0:
                continue
            slot = JOKER_SLOT
            if kind == SMALL_WILD:
                for k in range(WILD_SLOT0, JOKER_SLOT):
                    if groups[r, k] > 0:
                        slot = k
                        break
            groups[r, slot] -= 1
            wild = SLOT_TYPE[r, slot]
            out[A.LIFT0 + NUM_GROUPS * kind + r] = obligation_feasible(
                hand, groups, cp, wild, locked, top, from_hand, opened, rest, minimum
            )
            groups[r, slot] += 1


@njit(cache=True)
def legal_mask(s, cfg, out: np.ndarray) -> None:
    """Legal actions of every game into ``out`` of shape (B, NUM_ACTIONS)."""
    s = borrow(s)  # no reference counting inside the kernel (core/borrow.py)
    for b in range(out.shape[0]):
        legal_row(s, cfg, b, out[b])
