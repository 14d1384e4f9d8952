"""Pieces shared by the compiled rule-based bots: a Python base class that
takes the seats' views (or decodes them from observations) and holds the
workspaces, and compiled helpers for the meld and pickup phases (plan, emit,
and the always-legal fallbacks).

The bots read the engine's structured view of a seat
(:class:`kanaszta_env.games.diszitett.compiled.View`): integer counts of what that seat
may see, the same information as its observation. :func:`play_batch
<agents.base.play_batch>` and the engine's Python-policy seats hand them the
views; a caller that has only observations gets them decoded by
:func:`kanaszta_env.games.diszitett.observation.decode`, the exact inverse of the encoder."""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env import Rules
from kanaszta_env.cards import HEART_ACE, IS_ACE, IS_RED_THREE, IS_WILD, NUM_TYPES, TYPE_GROUP, WILD_TYPES
from kanaszta_env.games.diszitett import actions as A, compiled as C
from kanaszta_env.games.diszitett.compiled import (
    PHASE_CUT,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    PHASE_OVER,
    PHASE_PICKUP,
    View,
    new_views,
)
from kanaszta_env.games.diszitett.observation import decode

from ...base import Agent
from .plan import P_FORCE_GROUP, P_FORCE_NEED, P_SIZE, PLAN_OK, next_meld_action, plan_melds
from .plan_groups import NAT_TYPE

__all__ = ["PHASE_CUT", "PHASE_DISCARD", "PHASE_DRAW", "PHASE_MELD", "PHASE_OVER", "PHASE_PICKUP"]

_LIFTED_TYPE = np.array(WILD_TYPES, dtype=np.int64)  # card type of a lifted wild by its wild slot


class Workspace:
    """Scratch arrays of one compiled bot (reused across calls)."""

    def __init__(self, players: int) -> None:
        self.view: View = new_views(1, players).rows(0)  # a row view (the search's simulations)
        self.tn = np.zeros(12, dtype=np.int64)
        self.tw = np.zeros(12, dtype=np.int64)
        self.reserve = np.zeros(NUM_TYPES, dtype=np.int64)
        self.opt = np.zeros(P_SIZE, dtype=np.int64)
        self.scratch = (self.opt, self.reserve, self.tn, self.tw)  # in the order the kernels take them


class CompiledBot(Agent):
    """A bot whose decisions are a numba kernel over the rows of a batched view."""

    wants_views = True

    def __init__(self, rules: Rules | None = None) -> None:
        self.setup(rules or Rules())

    def setup(self, rules: Rules) -> None:
        self.rules = rules
        self.work = Workspace(rules.num_players)
        self._decoded: View | None = None  # views decoded from observations (grown, reused)

    def _inputs(self, obs: np.ndarray, mask: np.ndarray, views: View | None) -> tuple[View, np.ndarray]:
        """The views of the rows (decoded from ``obs`` unless given) and the mask, checked."""
        mask = np.ascontiguousarray(mask, dtype=np.bool_)
        if views is None:
            n = len(obs)
            rows = 0 if self._decoded is None else self._decoded.info.shape[0]
            if rows < n:  # grown to the batches asked (a game of the web app asks one row)
                self._decoded = new_views(max(n, 2 * rows), self.rules.num_players)
            try:
                views = decode(obs, self.rules, self._decoded.rows(slice(0, n)))
            except ValueError as error:
                raise ValueError(f"{self.name}: {error}") from None
        n, players = views.info.shape[0], self.rules.num_players
        if views.groups.shape[1:2] != (players,):
            raise ValueError(
                f"{self.name} is set up for {players} players, the views have {views.groups.shape[1]}"
            )
        if mask.shape != (n, A.NUM_ACTIONS):
            raise ValueError(f"mask must have shape ({n}, {A.NUM_ACTIONS}), got {mask.shape}")
        return views, mask


@njit(cache=True)
def first_legal(mask: np.ndarray) -> int:
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1


@njit(cache=True)
def melding_fallback(mask: np.ndarray, force: int) -> int:
    """An always-legal choice for the meld and pickup phases when the plan has
    nothing legal left: naturals, then wilds into the forced group, then any
    wild, lifts and placements; in the meld phase withdraw before those."""
    if force >= 0:
        for s in range(4):
            if mask[A.MELD0 + 4 * force + s] and NAT_TYPE[force, s] != HEART_ACE:
                return A.MELD0 + 4 * force + s
        for k in range(5):
            if mask[A.WILD0 + 12 * k + force]:
                return A.WILD0 + 12 * k + force
    for i in range(A.MELD_TYPE.shape[0]):
        if mask[A.MELD0 + i] and A.MELD_TYPE[i] != HEART_ACE:
            return A.MELD0 + i
    if mask[A.WITHDRAW]:
        return A.WITHDRAW
    for a in range(A.MELD0, A.WITHDRAW):
        if mask[a]:
            return a
    return first_legal(mask)


@njit(cache=True)
def make_plan(v: View, opt: np.ndarray, reserve: np.ndarray, tn, tw) -> tuple[int, int, int]:
    """Plan the meld or pickup phase under planner options ``opt`` (the
    ``P_FORCE_*`` entries are filled here); returns the planner's
    ``(code, heart aces, cards left)``."""
    info = v.info
    heart = info[C.I_HEART_ACES] == 1
    if heart:
        reserve[HEART_ACE] = v.hand[HEART_ACE]  # laid separately, never into the aces group
    force = info[C.I_PICKUP_GROUP] if info[C.I_PHASE] == PHASE_PICKUP else -1
    opt[P_FORCE_GROUP] = force
    opt[P_FORCE_NEED] = max(3 - info[C.I_PICKUP_FROM_HAND], 0) if force >= 0 else 0
    return plan_melds(
        v.hand, v.groups[0], v.locked, v.laid, v.opened[0] == 1, v.minimum[0], heart, reserve, opt, tn, tw
    )


@njit(cache=True)
def emit_plan(mask: np.ndarray, v: View, tn, tw, aces: int, reserve: np.ndarray) -> int:
    """The next legal action of a plan, or -1 when it is complete."""
    info = v.info
    lifted = _LIFTED_TYPE[info[C.I_LIFTED]] if info[C.I_LIFTED] >= 0 else -1
    return next_meld_action(
        mask, v.hand, v.groups[0], v.locked, lifted, info[C.I_LIFTED_FROM], tn, tw, aces, reserve
    )


@njit(cache=True)
def plan_and_step(mask: np.ndarray, v: View, opt: np.ndarray, reserve: np.ndarray, tn, tw) -> int:
    """The next action of the meld or pickup phase under planner options
    ``opt``, or -1 when the plan is complete or cannot be made."""
    code, aces, _left = make_plan(v, opt, reserve, tn, tw)
    if code != PLAN_OK:
        return -1
    return emit_plan(mask, v, tn, tw, aces, reserve)


@njit(cache=True)
def cut_choice(v: View) -> int:
    """Keep a wild, red three or ace offered at the cut, leave any other card."""
    t = v.cut[v.info[C.I_CUT_INDEX]] if v.info[C.I_CUT_INDEX] < v.cut.shape[0] else -1
    if t >= 0 and (IS_WILD[t] or IS_RED_THREE[t] or IS_ACE[t]):
        return A.KEEP
    return A.LEAVE


@njit(cache=True)
def any_discard(mask: np.ndarray) -> bool:
    for t in range(NUM_TYPES):
        if mask[A.DISCARD0 + t]:
            return True
    return False


@njit(cache=True)
def rank_count(hand: np.ndarray, t: int) -> int:
    """Cards in ``hand`` of the natural rank of card type ``t`` (0 for others)."""
    g = TYPE_GROUP[t]
    if g < 0:
        return 0
    return hand[NAT_TYPE[g, 0]] + hand[NAT_TYPE[g, 1]] + hand[NAT_TYPE[g, 2]] + hand[NAT_TYPE[g, 3]]
