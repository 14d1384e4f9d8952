"""Meld planning for the rule-based bots (compiled).

A turn's melding is a sequence of one-card actions, so a bot first decides the
*whole* meld — the final number of naturals and wilds in each of its groups and
the separate heart aces to lay — and then emits it one action per step,
checking the legal mask each time (:func:`next_meld_action`). The planner is a
pure function of what the observation shows (hand, own groups, wilds locked
this turn, what was laid since the checkpoint) and treats cards already laid
this turn as committed; recomputed after each step it continues the same plan,
so the bots need no memory between steps.

Emission order follows the action model of ``docs/design.md``: naturals first
(a wild only joins a group that holds a natural), then wilds displaced from
groups that grow (a black canasta turning red or gold, R13.3), then wilds from
the hand, then separate heart aces (R10.6).

The group arithmetic of a plan is in :mod:`agents.games.diszitett.plan_groups`, the steps that
place wilds and hold cards back in :mod:`agents.games.diszitett.plan_steps`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env.cards import HEART_ACE, NUM_TYPES, WILD_GROUP
from kanaszta_env.games.diszitett import actions as A
from kanaszta_env.games.diszitett.compiled import CANASTA_SIZE, max_wilds

from .plan_groups import NAT_TYPE, NG, WILD_TYPE, G, _cards_left, _has_canasta, hand_naturals, plan_value
from .plan_steps import (
    _best_home,
    _cheapest_opening,
    _complete_canastas,
    _hold_back,
    _pair_groups,
    _spare_wilds,
)

# planner options (an int64 vector)
P_NEW_GROUPS = 0  # lay new natural groups of 3+ naturals (1) or not (0)
P_PAIRS = 1  # groups of a pair and a wild: 0 never, 1 when the opening needs them, 2 always
P_SPARE_WILDS = 2  # put wilds that complete nothing into groups and a wilds-only group (1)
P_WANT_OUT = 3  # go out when the plan allows it (1)
P_FORCE_GROUP = 4  # group that must be formed or extended (penalised pickup, R8), or -1
P_KEEP = 5  # naturals of a rank melded before to keep in hand for a pickup (0 = none)
P_FORCE_NEED = 6  # hand cards the forced group still needs (R8.1: three with the top card)
P_MIN_LEFT = 7  # cards to keep in hand while the plan has no canasta (a soft wish)
P_SIZE = 8

# plan result codes
PLAN_OK = 0
PLAN_INVALID = -1  # the cards laid this turn cannot end legal: withdraw
_NO_HOME = -2


@njit(cache=True)
def set_options(opt: np.ndarray, pairs: int, spare_wilds: int, want_out: int, min_left: int) -> None:
    """Planner options: new groups always, no ``P_KEEP``, the rest as given."""
    opt[P_NEW_GROUPS] = 1
    opt[P_PAIRS] = pairs
    opt[P_SPARE_WILDS] = spare_wilds
    opt[P_WANT_OUT] = want_out
    opt[P_KEEP] = 0
    opt[P_MIN_LEFT] = min_left


@njit(cache=True)
def plan_melds(
    hand: np.ndarray,
    groups: np.ndarray,
    locked: np.ndarray,
    laid: np.ndarray,
    opened: bool,
    minimum: int,
    heart_aces: bool,
    reserve: np.ndarray,
    opt: np.ndarray,
    tn: np.ndarray,
    tw: np.ndarray,
) -> tuple[int, int, int]:
    """Plan this turn's melding.

    ``groups`` (12, 9) are the player's groups now, ``locked`` (12, 2) the wilds
    put into them this turn, ``laid`` (12, 5) the encoder's changes since the
    checkpoint, ``reserve`` (53) cards not to meld. Writes the target naturals
    ``tn`` and wilds ``tw`` of every group. Returns ``(code, heart aces to lay,
    cards left in hand)``; one card left means going out.
    """
    code, aces, left = _plan(hand, groups, locked, laid, opened, minimum, heart_aces, reserve, opt, tn, tw)
    if code != _NO_HOME:
        return code, aces, left
    # displaced wilds found no home: keep the naturals of groups that would shed wilds
    keep = reserve.copy()
    for g in range(NG):
        n = groups[g, 0] + groups[g, 1] + groups[g, 2] + groups[g, 3]
        wl = groups[g, 4] + groups[g, 5] + groups[g, 6] + groups[g, 7] + groups[g, 8]
        if n > 0 and wl > max_wilds(n + 1):
            for s in range(4):
                keep[NAT_TYPE[g, s]] = hand[NAT_TYPE[g, s]]
    code, aces, left = _plan(hand, groups, locked, laid, opened, minimum, heart_aces, keep, opt, tn, tw)
    if code == _NO_HOME:
        return PLAN_INVALID, 0, left
    return code, aces, left


@njit(cache=True)
def _plan(hand, groups, locked, laid, opened, minimum, heart_aces, reserve, opt, tn, tw):
    tn[:] = 0
    tw[:] = 0
    n = np.zeros(G, dtype=np.int64)
    w = np.zeros(G, dtype=np.int64)
    cp_size = np.zeros(G, dtype=np.int64)
    h = np.zeros(G, dtype=np.int64)
    for g in range(G):
        n[g] = groups[g, 0] + groups[g, 1] + groups[g, 2] + groups[g, 3]
        w[g] = groups[g, 4] + groups[g, 5] + groups[g, 6] + groups[g, 7] + groups[g, 8]
        cp_size[g] = n[g] + w[g] - laid[g, 0] - laid[g, 1] - laid[g, 2] + laid[g, 3] + laid[g, 4]
        if g < NG:
            h[g] = hand_naturals(hand, g, reserve)
    hand_total = 0
    for t in range(NUM_TYPES):
        hand_total += hand[t]
    hw = 0
    for k in range(5):
        hw += max(hand[WILD_TYPE[k]] - reserve[WILD_TYPE[k]], 0)
    wild_fixed = cp_size[WILD_GROUP] >= CANASTA_SIZE  # a wild canasta takes nothing more (R13.2)
    force = opt[P_FORCE_GROUP]
    committed = False  # cards laid this turn must end in legal groups
    for g in range(G):
        if n[g] + w[g] != cp_size[g]:
            committed = True
    # --- 1. naturals ------------------------------------------------------------------
    for g in range(NG):
        lk = locked[g, 0] + locked[g, 1]
        f = 0
        if n[g] > 0:
            f = n[g] + h[g]
            if opt[P_KEEP] > 0 and cp_size[g] > 0 and g != force and h[g] <= opt[P_KEEP]:
                f = n[g]  # keep them in hand for a later pickup of this rank
        elif h[g] >= 3 and (opt[P_NEW_GROUPS] == 1 or g == force):
            f = h[g]
        elif g == force and h[g] == 2:
            f = 2  # completed with a wild below
        f = min(f, 8)
        if lk > 0:
            f = min(f, 7 - lk)
        tn[g] = max(f, n[g])
        tw[g] = w[g]
    tw[WILD_GROUP] = w[WILD_GROUP]
    # --- 2. wilds displaced by growing groups (a black canasta turning red or gold) -----
    displaced = 0
    for g in range(NG):
        if tn[g] == 0:
            continue
        liftable = w[g] - locked[g, 0] - locked[g, 1]
        while tn[g] > n[g] and tw[g] - max_wilds(tn[g]) > liftable:
            tn[g] -= 1
        excess = tw[g] - max_wilds(tn[g])
        if excess > 0:
            tw[g] -= excess
            displaced += excess
    # --- 3. wilds groups need to be legal, and the pickup's hand cards (R8.1) ------------
    avail = hw
    for g in range(NG):
        if tn[g] == 0:
            continue
        need = 3 - tn[g] - tw[g]
        hand_need = 0
        if g == force:
            hand_need = opt[P_FORCE_NEED] - (tn[g] - n[g])
            need = max(need, hand_need)
        while need > 0 and tw[g] < max_wilds(tn[g]):
            if displaced > 0 and hand_need <= 0:
                displaced -= 1
            elif avail > 0:
                avail -= 1
                hand_need -= 1
            else:
                break
            tw[g] += 1
            need -= 1
        if tn[g] + tw[g] < 3:
            if n[g] + w[g] > 0:
                return PLAN_INVALID, 0, hand_total
            tn[g] = 0
            tw[g] = 0
    if 0 < tw[WILD_GROUP] < 3 and not wild_fixed:
        while tw[WILD_GROUP] < 3 and (displaced > 0 or avail > 0):
            if displaced > 0:
                displaced -= 1
            else:
                avail -= 1
            tw[WILD_GROUP] += 1
        if tw[WILD_GROUP] < 3:
            return PLAN_INVALID, 0, hand_total
    # --- 4. homes for displaced wilds, canasta completion first -------------------------
    displaced -= _complete_canastas(tn, tw, wild_fixed, displaced)
    while displaced > 0:
        best = _best_home(tn, tw, wild_fixed)
        if best < 0:
            if not wild_fixed and 3 <= tw[WILD_GROUP] + displaced <= 7:
                tw[WILD_GROUP] += displaced
                break
            return _NO_HOME, 0, hand_total
        tw[best] += 1
        displaced -= 1
    # --- 5. wilds from the hand ---------------------------------------------------------
    avail -= _complete_canastas(tn, tw, wild_fixed, avail)
    if opt[P_PAIRS] == 2:
        avail = _pair_groups(h, tn, tw, avail)
    if opt[P_SPARE_WILDS] == 1:
        avail = _spare_wilds(tn, tw, wild_fixed, avail)
    # --- 6. the opening (R12): pairs and wilds while it falls short ---------------------
    if not opened and plan_value(tn, tw) < minimum and opt[P_PAIRS] >= 1:
        avail = _cheapest_opening(h, tn, tw, wild_fixed, avail, minimum)
    # --- 7. heart aces, cards left, going out (R10.6, R14) ------------------------------
    any_group = False
    for g in range(G):
        if tn[g] + tw[g] > 0:
            any_group = True
    aces = hand[HEART_ACE] if heart_aces and (opened or any_group) else 0
    left = _cards_left(hand_total, n, w, tn, tw, aces)
    canasta = _has_canasta(tn, tw)
    want_out = canasta and opt[P_WANT_OUT] == 1
    if left < 1 or (left == 1 and not want_out):  # R14: keep a discard, or two without going out
        short = (1 if want_out else 2) - left
        short = _hold_back(n, w, tn, tw, cp_size, short, True)
        left = _cards_left(hand_total, n, w, tn, tw, aces)
        canasta = _has_canasta(tn, tw)
        if left == 1 and not canasta:
            _hold_back(n, w, tn, tw, cp_size, 1, True)
            left = _cards_left(hand_total, n, w, tn, tw, aces)
        if left < 1 or (left == 1 and not canasta):
            if aces > 0 and left + aces >= 2:
                aces -= 2 - left  # keep a heart ace rather than fail
                left = 2
            else:
                return PLAN_INVALID, 0, hand_total
    min_left = opt[P_MIN_LEFT]
    if left < min_left and not canasta:  # a soft wish: keep cards to build with until a canasta
        _hold_back(n, w, tn, tw, cp_size, min_left - left, False)
        left = _cards_left(hand_total, n, w, tn, tw, aces)
        canasta = _has_canasta(tn, tw)
    if not opened:
        going_out = left == 1 and canasta  # R12.4: the minimum is then met
        if plan_value(tn, tw) < minimum and not going_out:
            if committed:
                return PLAN_INVALID, 0, hand_total
            tn[:] = n
            tw[:] = w
            return PLAN_OK, 0, hand_total
    return PLAN_OK, aces, left


@njit(cache=True)
def next_meld_action(
    mask: np.ndarray,
    hand: np.ndarray,
    groups: np.ndarray,
    locked: np.ndarray,
    lifted: int,
    lifted_from: int,
    tn: np.ndarray,
    tw: np.ndarray,
    aces: int,
    reserve: np.ndarray,
) -> int:
    """The next legal action towards the plan ``tn``/``tw``/``aces``, or -1 when
    the plan is complete (or nothing of it is legal)."""
    w = np.zeros(G, dtype=np.int64)
    for g in range(G):
        w[g] = groups[g, 4] + groups[g, 5] + groups[g, 6] + groups[g, 7] + groups[g, 8]
    if lifted >= 0:  # R13.2: a lifted wild goes into another group at once
        for g in range(G):
            if g != lifted_from and tw[g] > w[g] and mask[A.PLACE0 + g]:
                return A.PLACE0 + g
        for g in range(G):
            if mask[A.PLACE0 + g]:
                return A.PLACE0 + g
        return A.WITHDRAW if mask[A.WITHDRAW] else -1
    for g in range(NG):
        n = groups[g, 0] + groups[g, 1] + groups[g, 2] + groups[g, 3]
        if tn[g] > n:
            for s in range(4):
                t = NAT_TYPE[g, s]
                if hand[t] > reserve[t] and mask[A.MELD0 + 4 * g + s]:
                    return A.MELD0 + 4 * g + s
    receivers = False
    for g in range(G):
        if tw[g] > w[g]:
            receivers = True
    if receivers:
        for g in range(G):
            if w[g] > tw[g]:
                small = groups[g, 4] + groups[g, 5] + groups[g, 6] + groups[g, 7]
                if small > locked[g, 0] and mask[A.LIFT0 + g]:
                    return A.LIFT0 + g
                if groups[g, 8] > locked[g, 1] and mask[A.LIFT0 + 12 + g]:
                    return A.LIFT0 + 12 + g
        for g in range(G):
            if tw[g] > w[g]:
                for k in range(5):
                    t = WILD_TYPE[k]
                    if hand[t] > reserve[t] and mask[A.WILD0 + 12 * k + g]:
                        return A.WILD0 + 12 * k + g
    if aces > 0 and mask[A.HEART_ACE]:
        return A.HEART_ACE
    return -1
