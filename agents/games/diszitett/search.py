"""``SearchBot``: determinised Monte-Carlo search on the compiled core.

At the decisions that matter most — whether to draw or take the discard pile
(R7, R8), and which card to discard — the bot compares its candidates by
simulation:

1. sample ``samples`` full games consistent with its observation
   (:mod:`agents.games.diszitett.determinise`: hidden cards dealt at random, public cards
   exactly where they are);
2. in each sample, apply each candidate and play on with ``HeuristicBot`` for
   every seat (each simulated player decides from its own view, the
   information of its observation) for ``horizon`` more turns, or to the end
   of the hand;
3. score the result for itself: the hand score difference if the hand ended,
   otherwise the table-score difference with the cards in hand counted at a
   fraction ``hand_weight`` of their penalty;
4. keep the heuristic's choice unless another candidate beats it by more
   than ``prior`` plus ``z`` standard errors of the paired difference
   (common random numbers: every candidate sees the same samples), then the
   one with the best such lower bound. Without this test the noisiest
   candidate won: the bot overruled the heuristic at most searched decisions
   on sampling noise and played no better than it.

At the start of its melding the bot also compares the heuristic's melding
modes (go out now, keep cards back until a canasta, meld freely) when they
lead to different melds, and keeps the chosen mode for the rest of the turn
(per ``slots``). The cut and the pickup's obligatory meld are played by the
heuristic. Every simulation runs in compiled code on the rules core
(``apply_action``, ``legal_row``); the simulated players decide from their
views (:func:`kanaszta_env.games.diszitett.compiled.fill_view`, the engine's view of a
seat, which its observation encodes). Decisions are a pure function of the
observation (the view it encodes, and the seeds drawn from it) and the bot's
seed, so re-dealing cards it cannot see never changes them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env import Rules
from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.games.diszitett import actions as A
from kanaszta_env.games.diszitett.compiled import (
    HAND_PENALTY,
    I_CHANGED,
    I_LIFTED,
    I_PHASE,
    View,
    apply_action,
    borrow,
    fill_view,
    group_card_value,
    hand_base,
    legal_row,
    new_state,
    view_row,
)
from kanaszta_env.observation import observation_size, piece_offsets

from .common import PHASE_DISCARD, PHASE_DRAW, PHASE_MELD, PHASE_OVER, CompiledBot
from .determinise import determinise
from .heuristic import heuristic_view, meld_plan
from .heuristic_params import H_MODE, params_vector
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
        legal_row(s, cfg, b, row)
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
def _compare(vi, cfg, prm, spec, seed, s, v, opt, reserve, tn, tw, row, rewards, cand, k, values) -> int:
    """Mean simulated value of each of the ``k`` candidates; index of the
    chosen one. The first candidate (the heuristic's) stays unless another
    beats it by more than the prior bonus plus ``z`` standard errors of the
    paired difference (common random numbers: every candidate plays the same
    samples), so sampling noise alone does not overrule the heuristic.
    ``vi`` is the deciding seat's view, ``v`` the simulated players' scratch view."""
    samples, horizon = spec[0], spec[1]
    hand_weight = spec[3] / 1000.0
    prior = float(spec[4])
    z = spec[6] / 1000.0
    pm = prm.copy()
    x = np.empty((k, samples), dtype=np.float64)
    for c in range(k):
        for j in range(samples):
            determinise(vi, s, 0, seed + np.uint64(j) * np.uint64(0x9E3779B97F4A7C15))
            start_hand = s.hand_number[0]
            end_turn = s.turn[0] + horizon + 1
            if cand[c] >= 0:
                apply_action(s, cfg, 0, cand[c], rewards)
            else:  # a melding mode for the rest of this turn
                pm[H_MODE] = MODE0 - cand[c]
                rollout(s, cfg, 0, pm, v, opt, reserve, tn, tw, row, rewards, end_turn, True)
            rollout(s, cfg, 0, prm, v, opt, reserve, tn, tw, row, rewards, end_turn, False)
            x[c, j] = evaluate(s, 0, start_hand, hand_weight)
        values[c] = x[c].mean() + (prior if c == 0 else 0.0)
    best = 0
    best_low = prior
    for c in range(1, k):
        d = x[c] - x[0]
        se = d.std() / np.sqrt(samples - 1) if samples > 1 else 0.0  # sample std / sqrt(n)
        low = d.mean() - z * se
        if low > best_low:
            best_low = low
            best = c
    return best


@njit(cache=True)
def search_batch(
    views, mask, cfg, prm, spec, seeds, modes_in, s, v, opt, reserve, tn, tw, row, rewards, cand, values,
    out, modes_out,
):  # fmt: skip
    """Choose an action for every row of the batched view ``views``. ``spec`` =
    (samples, horizon, max discards, hand weight × 1000, prior bonus, search
    melding modes); ``modes_in`` holds a melding mode already chosen this turn
    (-1 if none), ``modes_out`` receives a mode chosen now (-1 if none).
    ``values`` (N, K) receives the candidates' mean values of the last search
    of each row; ``v`` is the simulations' scratch view."""
    s = borrow(s)  # no reference counting inside the kernel (core/borrow.py)
    views = borrow(views)
    v = borrow(v)
    max_discards = spec[2]
    pm = prm.copy()
    values[:] = np.nan
    for i in range(mask.shape[0]):
        vi = view_row(views, i)
        modes_out[i] = -1
        mode = modes_in[i]
        pm[H_MODE] = max(mode, 0)
        a = heuristic_view(mask[i], vi, opt, reserve, tn, tw, pm)
        out[i] = a
        phase = vi.info[I_PHASE]
        if phase == PHASE_DRAW:
            cand[0] = a
            k = 1
            for x in (A.DRAW, A.TAKE_FREE, A.TAKE_PILE):
                if mask[i, x] and x != a:
                    cand[k] = x
                    k += 1
            if k > 1:
                best = _compare(vi, cfg, prm, spec, seeds[i], s, v, opt, reserve, tn, tw, row, rewards,
                                cand, k, values[i])  # fmt: skip
                out[i] = cand[best]
            continue
        if (
            phase == PHASE_MELD
            and mode < 0
            and spec[5] == 1
            and vi.info[I_CHANGED] == 0
            and vi.info[I_LIFTED] < 0
        ):
            k = _mode_candidates(vi, prm, opt, reserve, tn, tw, cand)
            if k > 1:
                best = _compare(vi, cfg, prm, spec, seeds[i], s, v, opt, reserve, tn, tw, row, rewards,
                                cand, k, values[i])  # fmt: skip
                mode = MODE0 - cand[best]
                modes_out[i] = mode
                pm[H_MODE] = mode
                a = heuristic_view(mask[i], vi, opt, reserve, tn, tw, pm)
                out[i] = a
        if phase in (PHASE_MELD, PHASE_DISCARD) and a >= A.DISCARD0 and max_discards > 1:
            k = _discard_candidates(mask[i], vi, pm, a, max_discards, cand)
            if k > 1:
                best = _compare(vi, cfg, prm, spec, seeds[i], s, v, opt, reserve, tn, tw, row, rewards,
                                cand, k, values[i])  # fmt: skip
                out[i] = cand[best]


class SearchBot(CompiledBot):
    """Determinised Monte-Carlo search with heuristic rollouts (see the module docstring).

    Args:
        rules: the rules of the games to play.
        samples: determinisations per candidate.
        horizon: turns simulated after the current one before the evaluation.
        max_discards: discards compared (the heuristic's best ones); 1 = none.
        hand_weight: fraction of a hand card's penalty counted at the horizon.
        prior: bonus of the heuristic's own choice (damps sampling noise).
        z: another candidate replaces the heuristic's choice only if its mean
            advantage exceeds ``prior`` by ``z`` standard errors of the paired
            difference over the samples.
        modes: also choose the melding mode of a turn by search (go out, keep
            cards back, or meld freely).
        seed: the bot's seed; with the observation it fixes every decision.
        params: ``HeuristicBot`` parameters of the rollout policy.
    """

    name = "search"

    def __init__(
        self,
        rules: Rules | None = None,
        samples: int = 12,
        horizon: int = 100,
        max_discards: int = 4,
        hand_weight: float = 0.5,
        prior: float = 10.0,
        modes: bool = True,
        z: float = 1.0,
        seed: int = 0,
        params: dict[str, float] | None = None,
    ) -> None:
        if samples < 1 or horizon < 0 or max_discards < 1:
            raise ValueError("samples and max_discards must be positive, horizon non-negative")
        spec = [samples, horizon, max_discards, round(hand_weight * 1000), round(prior), int(modes)]
        spec.append(round(z * 1000))
        self.spec = np.array(spec, dtype=np.int64)
        self.seed = seed
        self.params = params_vector(params)
        self._modes: dict[int, tuple[int, int]] = {}
        super().__init__(rules)

    def setup(self, rules: Rules) -> None:
        super().setup(rules)
        self.cfg = rules.to_config()
        self.sim = new_state(1, rules.num_players)
        self._row = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)
        self._rewards = np.zeros((1, rules.num_players), dtype=np.float64)
        gen = np.random.default_rng(0x5EED)
        self.obs_size = observation_size(rules)
        self._weights = gen.integers(1, 2**62, size=self.obs_size, dtype=np.uint64) | np.uint64(1)
        progress = piece_offsets(rules)["progress"][0]
        self._progress = slice(progress, progress + 2)
        self.last_values: np.ndarray | None = None

    def reset(self, n: int) -> None:
        self._modes = {}

    def _seeds(self, obs: np.ndarray) -> np.ndarray:
        """One seed per row from the observation and the bot's seed."""
        bits = obs.view(np.uint32).astype(np.uint64)
        with np.errstate(over="ignore"):
            h = (bits * self._weights).sum(axis=1, dtype=np.uint64)
            return h ^ (np.uint64(self.seed) * np.uint64(0xD1B54A32D192ED03))

    def _turn_ids(self, obs: np.ndarray) -> np.ndarray:
        """An id of the hand and turn of each row (the melding mode lasts one turn)."""
        return np.round(obs[:, self._progress].astype(np.float64) * [1e6, 1e9]).sum(axis=1).astype(np.int64)

    def act(
        self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None, views: View | None = None
    ) -> np.ndarray:
        """Actions for a batch; ``slots`` (one per row) let the bot keep a melding
        mode chosen by search for the rest of that turn. The observations seed
        the sampling (and name the turn); ``views`` are decoded from them unless given."""
        obs = np.ascontiguousarray(obs, dtype=np.float32)
        if obs.ndim != 2 or obs.shape[1] != self.obs_size:
            raise ValueError(
                f"{self.name} expects observations of {self.obs_size} slots "
                f"({self.rules.num_players} players), got shape {obs.shape}"
            )
        views, mask = self._inputs(obs, mask, views)
        n = obs.shape[0]
        out = np.empty(n, dtype=np.int64)
        modes_in = np.full(n, -1, dtype=np.int64)
        modes_out = np.empty(n, dtype=np.int64)
        turn_ids = self._turn_ids(obs)
        if slots is not None:
            for i, slot in enumerate(np.asarray(slots).tolist()):
                kept = self._modes.get(slot)
                if kept is not None and kept[0] == turn_ids[i]:
                    modes_in[i] = kept[1]
        cand = np.empty(max(int(self.spec[2]), 4), dtype=np.int64)
        values = np.empty((n, cand.shape[0]), dtype=np.float64)
        w = self.work
        search_batch(
            views, mask, self.cfg, self.params, self.spec, self._seeds(obs), modes_in, self.sim, w.view,
            w.opt, w.reserve, w.tn, w.tw, self._row, self._rewards, cand, values, out, modes_out,
        )  # fmt: skip
        if slots is not None:
            for i in np.flatnonzero(modes_out >= 0):
                self._modes[int(slots[i])] = (int(turn_ids[i]), int(modes_out[i]))
        self.last_values = values
        return out
