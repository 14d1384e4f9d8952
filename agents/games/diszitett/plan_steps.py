"""The steps of the meld planner (compiled) that place wilds and hold cards
back: canasta completion, groups of a pair and a wild, spare wilds, the
cheapest opening (R12.3), and holding cards back while every group stays
legal (R10.2, R14). Each works on the plan's targets ``tn``/``tw`` in place.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env.cards import WILD_GROUP

# R10.2 group legality: the rules core's one implementation
from kanaszta_env.games.diszitett.compiled import CANASTA_SIZE, max_wilds, natural_group_legal as _legal

from .plan_groups import _GROUP_VALUE, NG, _room, plan_value


@njit(cache=True)
def _complete_canastas(tn: np.ndarray, tw: np.ndarray, wild_fixed: bool, avail: int) -> int:
    """Spend wilds where they make a canasta (fewest needed first); returns wilds spent."""
    spent = 0
    while avail - spent > 0:
        best = -1
        best_need = 99
        for g in range(NG):
            size = tn[g] + tw[g]
            if tn[g] < 4 or size >= CANASTA_SIZE:
                continue
            need = CANASTA_SIZE - size
            if need <= _room(g, tn, tw, wild_fixed) and need <= avail - spent and need < best_need:
                best = g
                best_need = need
        if best < 0:
            break
        tw[best] += best_need
        spent += best_need
    return spent


@njit(cache=True)
def _cheapest_opening(h, tn, tw, wild_fixed: bool, avail: int, minimum: int) -> int:
    """Reach the opening minimum (R12.3) with as few hand wilds as possible:
    some in a wilds-only group (20 each, at least three), the others one by
    one where they add most (a pair made a group, or a wild in a group of a
    valuable rank). Leaves the plan unchanged if the minimum is out of reach.
    Returns the wilds still available."""
    best_used = -1
    best_value = -1
    best_x = 0
    x_max = 0 if wild_fixed else min(7 - tw[WILD_GROUP], avail)
    ctn = tn.copy()
    ctw = tw.copy()
    for x in range(x_max + 1):
        if tw[WILD_GROUP] == 0 and 0 < x < 3:
            continue
        ctn[:] = tn
        ctw[:] = tw
        ctw[WILD_GROUP] += x
        used = x + _add_wilds_for_value(h, ctn, ctw, avail - x, minimum)
        value = plan_value(ctn, ctw)
        if value < minimum:
            continue
        if best_used < 0 or used < best_used or (used == best_used and value > best_value):
            best_used = used
            best_value = value
            best_x = x
    if best_used < 0:
        return avail
    tw[WILD_GROUP] += best_x
    _add_wilds_for_value(h, tn, tw, avail - best_x, minimum)
    return avail - best_used


@njit(cache=True)
def _add_wilds_for_value(h, tn, tw, avail: int, minimum: int) -> int:
    """Add wilds one at a time where they raise the R12.3 value most, until
    the value reaches ``minimum``; returns the wilds used."""
    used = 0
    while used < avail and plan_value(tn, tw) < minimum:
        best = -1
        best_gain = 0
        for g in range(NG):
            if tn[g] == 0 and h[g] == 2:
                gain = 3 * _GROUP_VALUE[g]
            elif tn[g] > 0 and tw[g] < max_wilds(tn[g]):
                gain = _GROUP_VALUE[g]
            else:
                continue
            if gain > best_gain:
                best = g
                best_gain = gain
        if best < 0:
            break
        if tn[best] == 0:
            tn[best] = 2
        tw[best] += 1
        used += 1
    return used


@njit(cache=True)
def _pair_groups(h: np.ndarray, tn: np.ndarray, tw: np.ndarray, avail: int) -> int:
    """New groups of a pair and a wild, the most valuable ranks first."""
    while avail > 0:
        best = -1
        for g in range(NG):
            if tn[g] == 0 and h[g] == 2 and (best < 0 or _GROUP_VALUE[g] > _GROUP_VALUE[best]):
                best = g
        if best < 0:
            break
        tn[best] = 2
        tw[best] += 1
        avail -= 1
    return avail


@njit(cache=True)
def _best_home(tn: np.ndarray, tw: np.ndarray, wild_fixed: bool) -> int:
    """The group with room for one more wild and the most naturals, or -1."""
    best = -1
    for g in range(NG):
        if _room(g, tn, tw, wild_fixed) > 0 and (best < 0 or tn[g] > tn[best]):
            best = g
    return best


@njit(cache=True)
def _spare_wilds(tn: np.ndarray, tw: np.ndarray, wild_fixed: bool, avail: int) -> int:
    """Leftover wilds into groups with room (the biggest first), then a wilds-only group."""
    while avail > 0:
        best = _best_home(tn, tw, wild_fixed)
        if best < 0:
            break
        tw[best] += 1
        avail -= 1
    if avail > 0 and not wild_fixed and (tw[WILD_GROUP] > 0 or avail >= 3):
        x = min(7 - tw[WILD_GROUP], avail)
        tw[WILD_GROUP] += x
        avail -= x
    return avail


@njit(cache=True)
def _hold_back(n, w, tn, tw, cp_size, k: int, may_break: bool) -> int:
    """Meld up to ``k`` fewer hand cards, keeping every group legal; canastas of
    the plan are given up only if ``may_break``, as the last resort. Returns
    how many could not be held back."""
    for keep_canastas in (True, False):
        if not keep_canastas and not may_break:
            break
        while k > 0:
            done = False
            wg = tw[WILD_GROUP]
            shrinkable = wg - 1 >= 3 or (wg == 1 and w[WILD_GROUP] == 0)
            if wg > w[WILD_GROUP] and shrinkable and not (keep_canastas and wg == CANASTA_SIZE):
                tw[WILD_GROUP] -= 1
                done = True
            if not done:  # a natural from the biggest growing group
                best = -1
                for g in range(NG):
                    f = tn[g]
                    if f <= n[g] or not _legal(f - 1, tw[g]):
                        continue
                    if (keep_canastas or cp_size[g] >= CANASTA_SIZE) and f + tw[g] == CANASTA_SIZE:
                        continue
                    if best < 0 or f > tn[best]:
                        best = g
                if best >= 0:
                    tn[best] -= 1
                    done = True
            if not done:  # a hand wild
                for g in range(NG):
                    if tw[g] > w[g] and _legal(tn[g], tw[g] - 1):
                        if (keep_canastas or cp_size[g] >= CANASTA_SIZE) and tn[g] + tw[g] == CANASTA_SIZE:
                            continue
                        tw[g] -= 1
                        done = True
                        break
            if not done:  # a whole group started this turn
                for g in range(NG):
                    if n[g] == 0 and tn[g] > 0 and not (keep_canastas and tn[g] + tw[g] >= CANASTA_SIZE):
                        k -= tn[g] + tw[g] - 1
                        tn[g] = 0
                        tw[g] = 0
                        done = True
                        break
            if not done:
                break
            k -= 1
        if k <= 0:
            return 0
    return k
