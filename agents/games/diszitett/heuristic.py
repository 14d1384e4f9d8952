"""``HeuristicBot``: a rule-based player that plays well.

What it does, from the observation alone (read as the seat's view):

* **Card counting.** The ``unknown`` piece (the deck minus everything the
  player has seen) and the cards publicly known in the opponent's hand give,
  for every rank, the chance that the next player holds two cards that let
  him take the discard pile (R8.1); the same counts say which of its own
  pairs are still live.
* **Discards** weigh how much a card is worth keeping (wilds, heart aces and
  ranks it collects most; live pairs over dead ones over lone cards) against
  the risk of feeding the next player (his chance to take the pile times what
  the pile holds, or the card itself if it becomes his free pickup, R7), with
  a bonus for a twin (R6). A black three or a wild on top freezes the pile
  (R9), so when the next player threatens a big pickup a black three is
  discarded first.
* **Pickups** are taken when the pile (or the free card) is worth more than a
  random draw and a possible twin.
* **Melding** opens with as few wilds as possible, lays groups of three or
  more naturals, keeps a healthy hand (pairs for pickups, wilds for canastas)
  until it has a canasta, spends wilds where they complete canastas, turns
  black canastas red or gold by moving their wilds out (R13.3), and lays every
  heart ace separately (R10.6).
* **Going out** is compared with playing on: it goes out when the score it
  would lock in is good enough against what the opponent holds, or when the
  opponent is close to going out himself.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env import Rules
from kanaszta_env.cards import HEART_ACE, JOKER
from kanaszta_env.games.diszitett import actions as A, compiled as C
from kanaszta_env.games.diszitett.compiled import View, borrow, view_row

from .common import (
    PHASE_CUT,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    PHASE_PICKUP,
    CompiledBot,
    any_discard,
    cut_choice,
    emit_plan,
    make_plan,
    melding_fallback,
)
from .heuristic_params import (
    DEFAULT_PARAMS,
    H_ACE_OPENS,
    H_DRAW_VALUE,
    H_MIN_LEFT,
    H_MODE,
    H_PILE_CARD,
    H_TWIN,
    PARAM_ORDER,
    params_vector,
)
from .heuristic_values import card_use, discard_choice, pile_worth, want_out
from .plan import P_MIN_LEFT, PLAN_OK, set_options

__all__ = ["DEFAULT_PARAMS", "PARAM_ORDER", "HeuristicBot", "heuristic_view", "meld_plan", "params_vector"]


@njit(cache=True)
def heuristic_view(mask, v, opt, reserve, tn, tw, prm) -> int:
    """The heuristic's action for a row view ``v``."""
    phase = v.info[C.I_PHASE]
    if phase == PHASE_CUT:
        return cut_choice(v)
    top = v.info[C.I_TOP]
    twin_chance = top >= 0 and top != JOKER and v.info[C.I_FRESH] == 1 and v.hand[top] > 0
    if phase == PHASE_DRAW:
        draw_value = prm[H_DRAW_VALUE] + (prm[H_TWIN] if twin_chance else 0.0)
        if mask[A.TAKE_PILE]:
            gain = pile_worth(v, 0, prm[H_PILE_CARD]) + 40.0
            if v.opened[0] == 0:
                gain += 80.0  # the pickup opens
            if gain > draw_value:
                return A.TAKE_PILE
        if mask[A.TAKE_FREE] and card_use(v, top) > draw_value:
            return A.TAKE_FREE
        return A.DRAW
    if phase == PHASE_DISCARD:
        return discard_choice(mask, v, prm)
    code, aces, _left, _out = meld_plan(v, prm, int(prm[H_MODE]), opt, reserve, tn, tw)
    if code == PLAN_OK:
        a = emit_plan(mask, v, tn, tw, aces, reserve)
        if a >= 0:
            return a
    if phase == PHASE_MELD and any_discard(mask):
        return discard_choice(mask, v, prm)
    if phase == PHASE_PICKUP:
        return melding_fallback(mask, v.info[C.I_PICKUP_GROUP])
    return melding_fallback(mask, -1)


@njit(cache=True)
def meld_plan(v: View, prm: np.ndarray, mode: int, opt, reserve, tn, tw) -> tuple[int, int, int, bool]:
    """The meld or pickup phase plan of ``mode``: 0 the heuristic's own choice
    (go out when :func:`want_out` says so, else keep ``min_left`` cards until a
    canasta), 1 never go out, 2 meld without keeping cards back (still not
    going out), 3 go out whenever possible. Returns the planner's ``(code,
    heart aces, cards left)`` and whether the plan goes out."""
    phase = v.info[C.I_PHASE]
    if phase == PHASE_MELD and (mode == 0 or mode == 3):
        reserve[:] = 0
        set_options(opt, pairs=2, spare_wilds=1, want_out=1, min_left=0)
        code, aces, left = make_plan(v, opt, reserve, tn, tw)
        if code == PLAN_OK and left == 1 and (mode == 3 or want_out(v, prm, tn, tw)):
            return code, aces, left, True
    reserve[:] = 0
    top = v.info[C.I_TOP]
    if phase == PHASE_MELD and top >= 0 and top != JOKER and v.info[C.I_FRESH] == 1 and v.hand[top] > 0:
        reserve[top] = 1  # keep the twin to discard (R6)
    keep = int(prm[H_MIN_LEFT]) if phase == PHASE_MELD and mode != 2 else 2
    set_options(opt, pairs=1, spare_wilds=0, want_out=0, min_left=keep)
    if v.opened[0] == 0 and v.info[C.I_HEART_ACES] == 1 and v.hand[HEART_ACE] > 0 and prm[H_ACE_OPENS] > 0:
        opt[P_MIN_LEFT] = 2  # open now: a separate heart ace is worth 500 (R10.6)
    code, aces, left = make_plan(v, opt, reserve, tn, tw)
    return code, aces, left, False


@njit(cache=True)
def heuristic_batch(views, mask, opt, reserve, tn, tw, prm, out) -> None:
    views = borrow(views)  # no reference counting of the view's arrays per call
    for i in range(mask.shape[0]):
        out[i] = heuristic_view(mask[i], view_row(views, i), opt, reserve, tn, tw, prm)


class HeuristicBot(CompiledBot):
    """Rule-based player with card counting (see the module docstring).

    ``params`` overrides entries of :data:`DEFAULT_PARAMS`.
    """

    name = "heuristic"

    def __init__(self, rules: Rules | None = None, params: dict[str, float] | None = None) -> None:
        self.params = params_vector(params)
        super().__init__(rules)

    def act(
        self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None, views: View | None = None
    ) -> np.ndarray:
        views, mask = self._inputs(obs, mask, views)
        out = np.empty(mask.shape[0], dtype=np.int64)
        heuristic_batch(views, mask, *self.work.scratch, self.params, out)
        return out
