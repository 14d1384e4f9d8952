"""``GreedyBot``: simple and fast.

It takes the discard pile whenever the rules allow (free or penalised
pickup), keeps every wild, red three and ace offered at the cut, opens and
melds everything it can as soon as it can (groups, pairs with a wild, spare
wilds, separate heart aces), goes out whenever it can, and discards a black
three first, otherwise the least useful card: a lone low natural before a
card of a rank it holds several of, and wilds and heart aces last.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env import Rules
from kanaszta_env import actions as A
from kanaszta_env.cards import (
    CARD_VALUE,
    HEART_ACE,
    IS_BLACK_THREE,
    IS_RED_THREE,
    IS_WILD,
    NUM_TYPES,
    TYPE_GROUP,
)

from .common import (
    PHASE_CUT,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    CompiledBot,
    any_discard,
    melding_fallback,
    plan_and_step,
    rank_count,
)
from .plan import P_KEEP, P_MIN_LEFT, P_NEW_GROUPS, P_PAIRS, P_SPARE_WILDS, P_WANT_OUT
from .view import I_CUT_INDEX, I_HEART_ACES, I_PHASE, I_PICKUP_GROUP, View, decode

_VALUE = CARD_VALUE.astype(np.int64)


@njit(cache=True)
def greedy_discard(mask: np.ndarray, v: View) -> int:
    """Black three first, then the least useful card."""
    best = -1
    best_cost = 1 << 30
    for t in range(NUM_TYPES):
        if not mask[A.DISCARD0 + t]:
            continue
        if IS_BLACK_THREE[t]:
            return A.DISCARD0 + t
        if IS_WILD[t]:
            cost = 10_000 + _VALUE[t]
        elif t == HEART_ACE and v.info[I_HEART_ACES] == 1:
            cost = 5_000
        else:
            g = TYPE_GROUP[t]
            mine = v.groups[0, g, 0] + v.groups[0, g, 1] + v.groups[0, g, 2] + v.groups[0, g, 3]
            cost = 100 * rank_count(v.hand, t) + (40 if mine > 0 else 0) + _VALUE[t]
        if cost < best_cost:
            best_cost = cost
            best = A.DISCARD0 + t
    return best


@njit(cache=True)
def greedy_row(obs, mask, lay, v, opt, reserve, tn, tw) -> int:
    decode(obs, lay, v)
    phase = v.info[I_PHASE]
    if phase == PHASE_CUT:
        t = v.cut[v.info[I_CUT_INDEX]] if v.info[I_CUT_INDEX] < 3 else -1
        if t >= 0 and (IS_WILD[t] or IS_RED_THREE[t] or t // 4 == 0):
            return A.KEEP
        return A.LEAVE
    if phase == PHASE_DRAW:
        if mask[A.TAKE_PILE]:
            return A.TAKE_PILE
        if mask[A.TAKE_FREE]:
            return A.TAKE_FREE
        return A.DRAW
    if phase == PHASE_DISCARD:
        return greedy_discard(mask, v)
    reserve[:] = 0
    opt[P_NEW_GROUPS] = 1
    opt[P_PAIRS] = 2
    opt[P_SPARE_WILDS] = 1
    opt[P_WANT_OUT] = 1
    opt[P_KEEP] = 0
    opt[P_MIN_LEFT] = 3
    a = plan_and_step(mask, v, opt, reserve, tn, tw)
    if a >= 0:
        return a
    if phase == PHASE_MELD and any_discard(mask):
        return greedy_discard(mask, v)
    return melding_fallback(mask, v.info[I_PICKUP_GROUP])


@njit(cache=True)
def greedy_batch(obs, mask, lay, v, opt, reserve, tn, tw, out) -> None:
    for i in range(obs.shape[0]):
        out[i] = greedy_row(obs[i], mask[i], lay, v, opt, reserve, tn, tw)


class GreedyBot(CompiledBot):
    """Simple, fast rule-based player (see the module docstring)."""

    name = "greedy"

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__(rules)

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        obs, mask = self._check(obs, mask)
        out = np.empty(obs.shape[0], dtype=np.int64)
        w = self.work
        greedy_batch(obs, mask, self.layout, w.view, w.opt, w.reserve, w.tn, w.tw, out)
        return out
