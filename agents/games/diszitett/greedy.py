"""``GreedyBot``: simple and fast.

It takes the discard pile whenever the rules allow (free or penalised
pickup), keeps every wild, red three and ace offered at the cut, goes out
whenever it can, otherwise opens and melds as soon as it can (groups of three
naturals or more, every natural its groups take, wilds where they complete a
canasta or the opening needs them, separate heart aces), and discards a black
three first, otherwise the least useful card: a lone low natural before a
card of a rank it holds several of, and wilds and heart aces last.

Two limits keep its hand alive until it has a canasta. Without a canasta a
player must keep two cards after melding (R14.2) and needs two hand cards to
take the pile (R8.1), so a hand of one card after the discard can never meld
or pick up again, and one of two rarely does: the bot would draw and discard
until the turn limit while the opponent melds on. So it keeps at least
``MIN_LEFT`` cards while melding until its first canasta, skips a penalised
pickup that would leave it a single card, and keeps its wilds in hand for
canastas and pickups instead of spending them on pairs (a pair and a wild
made a group of three that fills that group's only wild place, and leftover
wilds then had no group to go to: the lone wild stuck in hand).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env.cards import CARD_VALUE, HEART_ACE, IS_BLACK_THREE, IS_WILD, NUM_TYPES, TYPE_GROUP
from kanaszta_env.games.diszitett import actions as A, compiled as C
from kanaszta_env.games.diszitett.compiled import CANASTA_SIZE, View, borrow, view_row

from .common import (
    PHASE_CUT,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    CompiledBot,
    any_discard,
    cut_choice,
    emit_plan,
    make_plan,
    melding_fallback,
    plan_and_step,
    rank_count,
)
from .plan import PLAN_OK, set_options

_VALUE = CARD_VALUE.astype(np.int64)
MIN_LEFT = 4  # cards kept in hand while melding until the first canasta (three after the discard)


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
        elif t == HEART_ACE and v.info[C.I_HEART_ACES] == 1:
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
def has_canasta(v: View) -> bool:
    """Whether the observer has a canasta (a group of 7 or 8 cards, R11)."""
    for g in range(v.groups.shape[1]):
        size = 0
        for k in range(v.groups.shape[2]):
            size += v.groups[0, g, k]
        if size >= CANASTA_SIZE:
            return True
    return False


@njit(cache=True)
def pickup_keeps_hand(v: View) -> bool:
    """Whether a penalised pickup leaves at least two cards after the discard
    (or the bot has a canasta): two hand cards go with the top card (R8.1),
    the rest of the pile comes in, one card is discarded."""
    return has_canasta(v) or v.hand_size[0] - 2 + v.info[C.I_PILE_N] - 1 - 1 >= 2


@njit(cache=True)
def greedy_row(mask, v, opt, reserve, tn, tw) -> int:
    """The greedy action for one row view ``v``."""
    phase = v.info[C.I_PHASE]
    if phase == PHASE_CUT:
        return cut_choice(v)
    if phase == PHASE_DRAW:
        if mask[A.TAKE_PILE] and pickup_keeps_hand(v):
            return A.TAKE_PILE
        if mask[A.TAKE_FREE]:
            return A.TAKE_FREE
        return A.DRAW
    if phase == PHASE_DISCARD:
        return greedy_discard(mask, v)
    reserve[:] = 0
    if phase == PHASE_MELD:
        set_options(opt, pairs=2, spare_wilds=1, want_out=1, min_left=0)  # everything it can meld, to go out
        code, aces, left = make_plan(v, opt, reserve, tn, tw)
        if code == PLAN_OK and left == 1:  # the plan goes out (R14)
            a = emit_plan(mask, v, tn, tw, aces, reserve)
            if a >= 0:
                return a
    # pairs with a wild only to open; wilds kept back
    set_options(opt, pairs=1, spare_wilds=0, want_out=1, min_left=MIN_LEFT)
    a = plan_and_step(mask, v, opt, reserve, tn, tw)
    if a >= 0:
        return a
    if phase == PHASE_MELD and any_discard(mask):
        return greedy_discard(mask, v)
    return melding_fallback(mask, v.info[C.I_PICKUP_GROUP])


@njit(cache=True, nogil=True)  # lets an overlapped PPO update run meanwhile
def greedy_batch(views, mask, opt, reserve, tn, tw, out) -> None:
    views = borrow(views)  # no reference counting of the view's arrays per call
    for i in range(mask.shape[0]):
        out[i] = greedy_row(mask[i], view_row(views, i), opt, reserve, tn, tw)


class GreedyBot(CompiledBot):
    """Simple, fast rule-based player (see the module docstring)."""

    name = "greedy"

    def act(
        self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None, views: View | None = None
    ) -> np.ndarray:
        views, mask = self._inputs(obs, mask, views)
        out = np.empty(mask.shape[0], dtype=np.int64)
        greedy_batch(views, mask, *self.work.scratch, out)
        return out
