"""The Díszített kanaszta kit of :class:`agents.search.SimulatedSearchBot`, and ``SearchBot``.

Candidates: at the draw the other ways to start the turn (draw, take the free
pile, take the pile: R7, R8); at the start of melding the heuristic's melding
modes (go out now, keep cards back until a canasta, meld freely) that lead to
different melds, the chosen one kept for the rest of the turn (per ``slots``);
at a discard the heuristic's next ``max_discards - 1`` cheapest discards. The
cut and the pickup's obligatory meld are the heuristic's.

Worlds are sampled by :func:`agents.games.diszitett.determinise.determinise`
(observer at seat 0) and played on in compiled code by ``HeuristicBot`` for every
seat, each simulated player deciding from its own view
(:func:`kanaszta_env.games.diszitett.compiled.fill_view`, the information of its
observation). A world's value: the hand-score difference to the others' mean if
the hand ended, else the table-score difference with the cards in hand at
``hand_weight`` of their penalty.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from numba import njit

from kanaszta_env import Rules
from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.games.diszitett import actions as A, compiled as C
from kanaszta_env.games.diszitett.compiled import (
    HAND_PENALTY,
    apply_action,
    borrow,
    fill_view,
    group_card_value,
    hand_base,
    legal_row,
    new_state,
    view_row,
)
from kanaszta_env.observation import piece_offsets

from ...search import SearchKit, SimulatedSearchBot
from .common import PHASE_DISCARD, PHASE_DRAW, PHASE_MELD, PHASE_OVER
from .determinise import determinise
from .heuristic import HeuristicBot, heuristic_view, meld_plan
from .heuristic_params import H_MODE
from .heuristic_values import discard_costs
from .plan import PLAN_OK

MODE0 = -10  # candidate code of melding mode m (heuristic.meld_plan): MODE0 - m

_PENALTY = HAND_PENALTY.astype(np.int64)


@njit(cache=True)
def evaluate(s, b: int, start_hand: int, hand_weight: float) -> float:
    """Seat 0's value of game ``b``: the hand-score difference to the others'
    mean if the hand started at ``start_hand`` is over, else the table-score
    difference with hand cards at ``hand_weight`` of their penalty."""
    P = s.hand.shape[1]
    vals = np.zeros(P, dtype=np.float64)
    if s.hand_number[b] > start_hand:
        for q in range(P):
            vals[q] = s.hand_scores[b, q]
    else:
        for q in range(P):
            red = s.red_threes[b, q, 0] + s.red_threes[b, q, 1]
            x = hand_base(s.groups[b, q], red, s.twins[b, q], s.sep_heart_aces[b, q], False, False, False)
            for g in range(12):
                x += group_card_value(g, s.groups[b, q, g])
            pen = 0
            for t in range(NUM_TYPES):
                pen += s.hand[b, q, t] * _PENALTY[t]
            vals[q] = x - hand_weight * pen
    others = 0.0
    for q in range(1, P):
        others += vals[q]
    return vals[0] - others / (P - 1)


@njit(cache=True)
def rollout(s, cfg, b, prm, v, opt, reserve, tn, tw, row, rewards, end_turn: int, one_turn: bool):
    """Play game ``b`` with the heuristic (weights ``prm``) for every seat until
    the hand ends, turn ``end_turn`` begins, or (``one_turn``) the current turn ends."""
    start_hand = s.hand_number[b]
    start_turn = s.turn[b]
    for _ in range(5000):  # a safety bound; turns are finite by the action model
        if s.phase[b] == PHASE_OVER or s.hand_number[b] > start_hand:
            return
        if one_turn and s.turn[b] != start_turn:
            return
        if s.turn[b] >= end_turn and s.phase[b] == PHASE_DRAW:
            return
        if legal_row(s, cfg, b, row) == 0:
            return  # a sampled world with no legal move (see determinise): valued as it stands
        fill_view(s, cfg, b, s.to_move[b], v)  # the simulated mover's view
        a = heuristic_view(row, v, opt, reserve, tn, tw, prm)
        if a < 0 or not row[a]:
            for x in range(row.shape[0]):
                if row[x]:
                    a = x
                    break
        apply_action(s, cfg, b, a, rewards)


@njit(cache=True)
def _mode_candidates(v, prm, opt, reserve, tn, tw, out) -> int:
    """Melding modes with distinct plans, the heuristic's own first, as
    candidate codes ``MODE0 - mode``; returns how many."""
    plans = np.zeros((4, 25), dtype=np.int64)
    _code, aces, _left, goes_out = meld_plan(v, prm, 0, opt, reserve, tn, tw)
    plans[0, :12] = tn
    plans[0, 12:24] = tw
    plans[0, 24] = aces
    own = 3 if goes_out else 1
    out[0] = MODE0 - own
    k = 1
    for mode in (1, 2, 3):
        if mode == own:
            continue
        code, aces, _left, goes_out = meld_plan(v, prm, mode, opt, reserve, tn, tw)
        if code != PLAN_OK or (mode == 3 and not goes_out):
            continue
        plans[k, :12] = tn
        plans[k, 12:24] = tw
        plans[k, 24] = aces
        same = False
        for j in range(k):
            if np.array_equal(plans[j], plans[k]):
                same = True
        if not same:
            out[k] = MODE0 - mode
            k += 1
    return k


@njit(cache=True)
def _discard_candidates(mask, v, prm, first: int, max_discards: int, out) -> int:
    """``first`` and the next cheapest discards of the heuristic."""
    costs = np.empty(NUM_TYPES, dtype=np.float64)
    discard_costs(mask, v, prm, costs)
    out[0] = first
    costs[first - A.DISCARD0] = np.inf
    k = 1
    while k < max_discards:
        best = -1
        for t in range(NUM_TYPES):
            if costs[t] < np.inf and (best < 0 or costs[t] < costs[best]):
                best = t
        if best < 0:
            break
        out[k] = A.DISCARD0 + best
        costs[best] = np.inf
        k += 1
    return k


@njit(cache=True)
def row_candidates(vi, mask, prm, mode, search_modes, max_discards, opt, reserve, tn, tw, out) -> int:
    """One row's candidates (module doc) written to ``out``; returns how many. The first is
    the heuristic's action under melding ``mode`` (-1: none chosen this turn, its own);
    melding modes (``search_modes`` and no mode chosen) are codes ``MODE0 - mode``."""
    pm = prm.copy()
    pm[H_MODE] = max(mode, 0)
    a = heuristic_view(mask, vi, opt, reserve, tn, tw, pm)
    out[0] = a
    phase = vi.info[C.I_PHASE]
    if phase == PHASE_DRAW:
        k = 1
        for x in (A.DRAW, A.TAKE_FREE, A.TAKE_PILE):
            if mask[x] and x != a:
                out[k] = x
                k += 1
        return k
    if (
        phase == PHASE_MELD
        and search_modes
        and mode < 0
        and vi.info[C.I_CHANGED] == 0
        and vi.info[C.I_LIFTED] < 0
    ):
        k = _mode_candidates(vi, prm, opt, reserve, tn, tw, out)
        if k > 1:
            return k
        out[0] = a
    if phase in (PHASE_MELD, PHASE_DISCARD) and a >= A.DISCARD0 and max_discards > 1:
        return _discard_candidates(mask, vi, pm, a, max_discards, out)
    return 1


@njit(cache=True)
def candidates_batch(views, mask, prm, modes, search_modes, max_discards, opt, reserve, tn, tw, cand, count):
    """:func:`row_candidates` of every row: row ``i``'s in ``cand[i, :count[i]]``."""
    views = borrow(views)  # no reference counting of the view's arrays per call
    for i in range(mask.shape[0]):
        vi = view_row(views, i)
        count[i] = row_candidates(
            vi, mask[i], prm, modes[i], search_modes, max_discards, opt, reserve, tn, tw, cand[i]
        )


@njit(cache=True)
def determinise_worlds(vi, s, seeds) -> None:
    """World ``b`` of the state batch ``s``: a game consistent with the row view ``vi``."""
    for b in range(seeds.shape[0]):
        determinise(vi, s, b, seeds[b])


@njit(cache=True)
def simulate_worlds(s, cfg, prm, first, horizon, hand_weight, v, opt, reserve, tn, tw, row, rewards, values):
    """In world ``b`` play ``first[b]`` (an action, or a melding mode for the rest of the
    turn), then the heuristic for ``horizon`` more turns or to the hand's end; ``values[b]``
    is seat 0's value then (:func:`evaluate`)."""
    pm = prm.copy()
    for b in range(first.shape[0]):
        start_hand = s.hand_number[b]
        end_turn = s.turn[b] + horizon + 1
        if first[b] >= 0:
            apply_action(s, cfg, b, first[b], rewards)
        else:
            pm[H_MODE] = MODE0 - first[b]
            rollout(s, cfg, b, pm, v, opt, reserve, tn, tw, row, rewards, end_turn, True)
        rollout(s, cfg, b, prm, v, opt, reserve, tn, tw, row, rewards, end_turn, False)
        values[b] = evaluate(s, b, start_hand, hand_weight)


class DiszitettSearch(SearchKit):
    """Candidates, sampled worlds and rollouts of Díszített kanaszta (module doc).

    ``modes``: also choose a turn's melding mode by search; ``params``: ``HeuristicBot``
    parameters of the heuristic and the rollout policy."""

    #: the settings a bare "search" plays with
    defaults: ClassVar[dict[str, float]] = dict(
        samples=12, horizon=100, max_discards=4, hand_weight=0.5, prior=10.0, z=1.0
    )
    wants_views = True

    def __init__(self, modes: bool = True, params: dict[str, float] | None = None) -> None:
        self.heuristic = HeuristicBot(params=params)
        self.modes = bool(modes)
        self._kept: dict[int, tuple[int, int]] = {}  # slot -> (turn id, melding mode chosen)

    def setup(self, rules: Rules) -> None:
        """Set the heuristic up for ``rules``, and the scratch of the candidates."""
        super().setup(rules)
        progress = piece_offsets(rules)["progress"][0]
        self._progress = slice(progress, progress + 2)
        self._row = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)

    def reset(self, n: int) -> None:
        """Forget the melding modes kept."""
        self._kept = {}

    def candidates(self, obs, pieces, mask, slots, views, max_discards: int) -> list[list[int]]:
        """Per row (module doc); a row whose slot chose a melding mode this turn keeps it."""
        views, mask = self.heuristic._inputs(obs, mask, views)
        n = len(mask)
        turn = np.round(obs[:, self._progress].astype(np.float64) * [1e6, 1e9]).sum(axis=1).astype(np.int64)
        modes = np.full(n, -1, dtype=np.int64)
        if slots is not None:
            for i, slot in enumerate(np.asarray(slots).tolist()):
                kept = self._kept.get(slot)
                if kept is not None and kept[0] == turn[i]:
                    modes[i] = kept[1]
        self._batch = (views, slots, turn, max_discards)
        cand = np.empty((n, max(max_discards, 4)), dtype=np.int64)
        count = np.empty(n, dtype=np.int64)
        h = self.heuristic
        candidates_batch(views, mask, h.params, modes, self.modes, max_discards, *h.work.scratch, cand, count)
        return [c[:k].tolist() for c, k in zip(cand, count.tolist(), strict=True)]

    def settle(self, i: int, candidate: int, mask: np.ndarray) -> list[int]:
        """An action stays; a melding mode is kept for the turn and gives the heuristic's
        action under it, and its discards to compare."""
        if candidate >= 0:
            return [candidate]
        views, slots, turn, max_discards = self._batch
        mode = MODE0 - candidate
        if slots is not None:
            self._kept[int(slots[i])] = (int(turn[i]), mode)
        out = np.empty(max(max_discards, 4), dtype=np.int64)
        h = self.heuristic
        k = row_candidates(views.rows(i), mask, h.params, mode, False, max_discards, *h.work.scratch, out)
        return out[:k].tolist()

    def determinise(self, i: int, row: dict, rng: np.random.Generator, samples: int):
        """Worlds of row ``i``; the observer sits at seat 0."""
        worlds = new_state(samples, self.rules.num_players)
        seeds = rng.integers(0, np.iinfo(np.int64).max, size=samples, dtype=np.int64).astype(np.uint64)
        determinise_worlds(self._batch[0].rows(i), worlds, seeds)
        return worlds, 0

    def simulate(self, state, seat: int, first: np.ndarray, horizon: int, hand_weight: float) -> np.ndarray:
        """Seat 0's value after the rollouts (the observer sits at seat 0)."""
        n, h = len(first), self.heuristic
        values = np.empty(n, dtype=np.float64)
        rewards = np.zeros((n, self.rules.num_players), dtype=np.float64)
        simulate_worlds(state, self.cfg, h.params, first, horizon, hand_weight, h.work.view, *h.work.scratch,
                        self._row, rewards, values)  # fmt: skip
        return values


class SearchBot(SimulatedSearchBot):
    """Díszített kanaszta's search bot: :class:`~agents.search.SimulatedSearchBot` with
    :class:`DiszitettSearch` (``modes``, ``params``); the other settings are
    :data:`agents.search.SETTINGS`, by default :attr:`DiszitettSearch.defaults`."""

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int = 0,
        modes: bool = True,
        params: dict[str, float] | None = None,
        **settings: float,
    ) -> None:
        super().__init__(rules or Rules(), DiszitettSearch(modes, params), seed=seed, **settings)
