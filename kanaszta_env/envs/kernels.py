"""Compiled pieces shared by the environment wrappers: rewards, and the
kernel of the "learner games" driver, in which one seat per game acts from
outside while the other seats are played inside the step.

The driver's state is :class:`Learners`, a NamedTuple of arrays with one row
per game; :func:`drive` takes ``(state, cfg, learners, params, op, …)`` and
loops over the batch, so the Python layer never loops over games. The
Python side of the driver is :class:`kanaszta_env.envs.gym_env.LearnerGames`;
the AEC env, the Gymnasium env and the SB3 VecEnv all run on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numba import njit, typeof

from ..actions import NUM_ACTIONS
from ..core.borrow import borrow
from ..core.game import apply_action, episode_truncated, reset_game
from ..core.legal import legal_row
from ..core.observe import encode_games, encode_row
from ..core.rng import below, next_u64
from ..core.state import PHASE_OVER
from ..rules import CFG_PLAYERS

# reward modes
REWARD_SCORE = 0  # hand score minus the others' mean, times a scale
REWARD_WIN = 1  # +1 / 0 / -1 by the totals when the episode ends
REWARD_MODES = {"score": REWARD_SCORE, "win": REWARD_WIN}

# episode end codes of a step (bit flags)
ENDED_TERMINATED = 1
ENDED_TRUNCATED = 2
ENDED_ILLEGAL = 4

# positions in the float64 parameter vector of the driver
PRM_REWARD_MODE = 0
PRM_REWARD_SCALE = 1
PRM_SEAT = 2  # a fixed learner seat, or SEAT_RANDOM, or SEAT_MOVER
PRM_AUTO_RESET = 3
PRM_PENALTY = 4  # 1: an illegal learner action ends the episode with a penalty
PRM_ILLEGAL_REWARD = 5
PRM_SIZE = 6
SEAT_RANDOM = -1  # the learner's seat is drawn from the game's seed each episode
SEAT_MOVER = -2  # whoever is to decide acts from outside (no opponents: the AEC env)

#: resets of one game within one step after which the driver gives up: only
#: episodes that end before the learner's first decision can cause them
MAX_RESETS_PER_STEP = 64
_SEAT_MIX = np.uint64(0xD1B54A32D192ED03)
# flags of _end_episode, as np.int64 so that numba compiles it once (a plain
# constant argument would be typed as a literal: one compilation per value)
_BY_GAME = np.int64(0)  # the game decides: terminated or truncated
_BY_ILLEGAL = np.int64(ENDED_TERMINATED | ENDED_ILLEGAL)


def compiled_entry(dispatcher: Any, *args: Any) -> Callable[..., Any]:
    """The compiled function of ``dispatcher`` for the exact types of ``args``.

    Calling it skips numba's argument type resolution, which for the
    41-array game state costs several microseconds per call — most of a
    single-game step. Only safe while later arguments have the same types
    (the wrappers own their state arrays, so they do).
    """
    entry = dispatcher.compile(tuple(typeof(a) for a in args))
    return entry if callable(entry) else dispatcher


@njit(cache=True)
def seat_reward(s, cfg, b: int, q: int, core_rewards: np.ndarray, mode: int, scale: float) -> float:
    """Reward of seat ``q`` for the step just applied to game ``b``.

    ``score``: the core's zero-sum hand reward (R16-R17 score minus the
    others' mean, paid when a hand ends) times ``scale``. ``win``: when the
    episode ends, +1 for the single highest total, 0 for a tie at the top,
    -1 otherwise (R18; a hand or game cut short is judged by the totals it
    reached); 0 before.
    """
    return _seat_reward(s.phase, s.totals, cfg, b, q, core_rewards, mode, scale)


@njit(cache=True)
def _seat_reward(
    phase: np.ndarray,
    totals: np.ndarray,
    cfg,
    b: int,
    q: int,
    core_rewards: np.ndarray,
    mode: int,
    scale: float,
) -> float:
    """:func:`seat_reward` on the two state arrays it reads (cheap to call per decision)."""
    if mode == REWARD_SCORE:
        return core_rewards[b, q] * scale
    if phase[b] != PHASE_OVER:
        return 0.0
    best = totals[b, 0]
    for k in range(cfg[CFG_PLAYERS]):
        best = max(best, totals[b, k])
    if totals[b, q] < best:
        return -1.0
    tied = 0
    for k in range(cfg[CFG_PLAYERS]):
        if totals[b, k] == best:
            tied += 1
    return 1.0 if tied == 1 else 0.0


class Learners(NamedTuple):
    """Per-game arrays of the learner driver (N games)."""

    seat: np.ndarray  # (N,) int64 learner seat of the current episode
    legal: np.ndarray  # (N,A) bool the learner's legal actions (all False when not his decision)
    acc: np.ndarray  # (N,) float64 learner reward not yet returned
    reward: np.ndarray  # (N,) float64 reward returned by this step
    ended: np.ndarray  # (N,) int8 ENDED_* flags of this step
    terminal_obs: np.ndarray  # (N,D) float32 learner's last observation of an ended episode
    over: np.ndarray  # (N,) bool finished and waiting for a reset (no auto-reset)
    seeds: np.ndarray  # (N,) uint64 seed of the current episode
    rng: np.ndarray  # (N,) uint64 per-game stream for random seats and random opponents
    core: np.ndarray  # (N,P) float64 scratch rewards of the core
    resets: np.ndarray  # (N,) int32 resets during this step


def new_learners(n: int, players: int, obs_size: int) -> Learners:
    """Zeroed driver arrays for ``n`` games."""
    return Learners(
        seat=np.zeros(n, dtype=np.int64),
        legal=np.zeros((n, NUM_ACTIONS), dtype=np.bool_),
        acc=np.zeros(n, dtype=np.float64),
        reward=np.zeros(n, dtype=np.float64),
        ended=np.zeros(n, dtype=np.int8),
        terminal_obs=np.zeros((n, obs_size), dtype=np.float32),
        over=np.zeros(n, dtype=np.bool_),
        seeds=np.zeros(n, dtype=np.uint64),
        rng=np.zeros(n, dtype=np.uint64),
        core=np.zeros((n, players), dtype=np.float64),
        resets=np.zeros(n, dtype=np.int32),
    )


# --- episodes -----------------------------------------------------------------------
# Cost model of the helpers below: numba increfs and decrefs every array of a
# tuple argument when a call receives it (and an ``inline="always"`` helper when
# its inlined body runs), about 0.4 µs for the 41-array state ``s``. Helpers that
# receive ``s`` or ``L`` therefore run once per driver call or once per episode;
# the per-decision work calls only the core's ``legal_row`` / ``apply_action`` with
# ``s``, and everything else with the few arrays it reads.
@njit(inline="always")
def _start_episode(s, cfg, L, prm, b: int, seed: np.uint64) -> None:
    """Deal game ``b`` from ``seed`` and choose the learner's seat."""
    reset_game(s, cfg, b, seed)
    L.seeds[b] = seed
    L.rng[b] = seed ^ _SEAT_MIX
    next_u64(L.rng, b)
    seat = int(prm[PRM_SEAT])
    if seat == SEAT_MOVER:
        L.seat[b] = s.to_move[b]
    else:
        L.seat[b] = below(L.rng, b, cfg[CFG_PLAYERS]) if seat == SEAT_RANDOM else seat
    L.over[b] = False
    L.acc[b] = 0.0


@njit(inline="always")
def _start_all(s, cfg, L, prm, seeds: np.ndarray) -> None:
    """Start every game ``b`` from ``seeds[b]``; clears the step outputs."""
    for b in range(seeds.shape[0]):
        _start_episode(s, cfg, L, prm, b, seeds[b])
    L.ended[:] = 0
    L.reward[:] = 0.0
    L.resets[:] = 0


@njit(cache=True)
def _end_episode(s, cfg, L, prm, b: int, flags: int) -> None:
    """Game ``b`` has ended with ``flags`` (``_BY_GAME``: terminated or truncated):
    record the learner's terminal observation and reward, then deal again or
    mark it over. Runs once per episode, so it may take the whole state."""
    if flags == _BY_GAME:
        flags = ENDED_TRUNCATED if episode_truncated(s, cfg, b) else ENDED_TERMINATED
    n = L.seat.shape[0]
    if L.ended[b] != 0:
        # a second end within one step: the learner never acted in that episode
        L.acc[b] = 0.0
    else:
        L.ended[b] = flags
        L.reward[b] = L.acc[b]
        L.acc[b] = 0.0
        encode_row(s, cfg, b, L.seat[b], L.terminal_obs[b])
    if prm[PRM_AUTO_RESET] == 1.0:
        L.resets[b] += 1
        _start_episode(s, cfg, L, prm, b, L.seeds[b] + np.uint64(n))
    else:
        L.over[b] = True


@njit(cache=True)
def _credit(
    phase: np.ndarray,
    to_move: np.ndarray,
    totals: np.ndarray,
    cfg,
    prm: np.ndarray,
    seat: np.ndarray,
    acc: np.ndarray,
    core: np.ndarray,
    b: int,
) -> bool:
    """After an action applied to game ``b``: credit the learner's reward,
    follow the mover in ``SEAT_MOVER`` mode. True when the episode has ended."""
    mode = int(prm[PRM_REWARD_MODE])
    acc[b] += _seat_reward(phase, totals, cfg, b, seat[b], core, mode, prm[PRM_REWARD_SCALE])
    if prm[PRM_SEAT] == SEAT_MOVER:
        seat[b] = to_move[b]
    return phase[b] == PHASE_OVER


@njit(cache=True)
def _illegal(legal: np.ndarray, b: int, a: int) -> bool:
    return a < 0 or a >= NUM_ACTIONS or not legal[b, a]


@njit(cache=True)
def _pick(row: np.ndarray, count: int, rng: np.ndarray, b: int) -> int:
    """A uniformly random one of the ``count`` legal actions of ``row``."""
    k = below(rng, b, count)
    for a in range(NUM_ACTIONS):
        if row[a]:
            if k == 0:
                return a
            k -= 1
    return -1


# --- one step ---------------------------------------------------------------------
@njit(inline="always")
def _play(
    s, cfg, L, prm, actions: np.ndarray, obs: np.ndarray, learners: bool, advance: bool, observe: bool
) -> int:
    """The learner games' step, in one pass over the games (each game's state
    stays in cache for its whole step): the learners' actions (``learners``),
    uniformly random opponents until each game awaits its learner
    (``advance``), the learners' masks, observations and rewards (``observe``).

    Returns ``-1``, or the failing game: ``b`` for an illegal learner action
    (nothing is applied then; in penalty mode it ends the episode with the
    penalty instead), ``-2 - b`` when game ``b`` keeps ending before its
    learner's first decision.
    """
    n = L.seat.shape[0]
    seat, legal, acc, over, rng, core, resets = L.seat, L.legal, L.acc, L.over, L.rng, L.core, L.resets
    phase, to_move, totals = s.phase, s.to_move, s.totals
    if learners:
        L.ended[:] = 0
        L.reward[:] = 0.0
        resets[:] = 0
        if prm[PRM_PENALTY] != 1.0:
            for b in range(n):
                if not over[b] and _illegal(legal, b, actions[b]):
                    return b
    row = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for b in range(n):
        a = -1
        if learners and not over[b]:
            a = actions[b]
            if _illegal(legal, b, a):
                acc[b] += prm[PRM_ILLEGAL_REWARD]
                _end_episode(s, cfg, L, prm, b, _BY_ILLEGAL)
                a = -1
        while True:
            if a < 0:
                # the next random opponent's move, if there is one
                if not advance or over[b] or to_move[b] == seat[b]:
                    break
                if resets[b] > MAX_RESETS_PER_STEP:
                    return -2 - b
                a = _pick(row, legal_row(s, cfg, b, row), rng, b)
            core[b, :] = 0.0
            apply_action(s, cfg, b, a, core)
            if _credit(phase, to_move, totals, cfg, prm, seat, acc, core, b):
                _end_episode(s, cfg, L, prm, b, _BY_GAME)
            a = -1
        if observe:
            if over[b]:
                legal[b] = False
            else:
                legal_row(s, cfg, b, legal[b])
    if observe:
        encode_games(s, cfg, np.arange(n), seat, obs)  # one call for all rows
        for b in range(n):
            if over[b]:
                obs[b] = L.terminal_obs[b]
            if L.ended[b] == 0:
                L.reward[b] = acc[b]
                acc[b] = 0.0
    return -1


@njit(inline="always")
def _gather_opponents(s, cfg, L, rel: int, idx: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> int:
    """Collect the games whose mover sits ``rel`` seats after the learner:
    their indices, the mover's observation and legal mask. Returns how many."""
    players = cfg[CFG_PLAYERS]
    seat, over, to_move = L.seat, L.over, s.to_move
    movers = np.empty(seat.shape[0], dtype=np.int64)
    n = 0
    for b in range(seat.shape[0]):
        if over[b]:
            continue
        mover = to_move[b]
        if mover != seat[b] and (mover - seat[b] + players) % players == rel:
            idx[n] = b
            movers[n] = mover
            legal_row(s, cfg, b, masks[n])
            n += 1
    encode_games(s, cfg, idx[:n], movers[:n], obs)
    return n


@njit(inline="always")
def _apply_opponents(s, cfg, L, prm, idx: np.ndarray, n: int, actions: np.ndarray, masks: np.ndarray) -> int:
    """Apply opponents' actions to games ``idx[:n]``. Returns the first row
    whose action is illegal (nothing applied then), or -1."""
    for i in range(n):
        if _illegal(masks, i, actions[i]):
            return i
    seat, acc, core, resets = L.seat, L.acc, L.core, L.resets
    phase, to_move, totals = s.phase, s.to_move, s.totals
    for i in range(n):
        b = idx[i]
        if resets[b] > MAX_RESETS_PER_STEP:
            return -2 - b
        core[b, :] = 0.0
        apply_action(s, cfg, b, actions[i], core)
        if _credit(phase, to_move, totals, cfg, prm, seat, acc, core, b):
            _end_episode(s, cfg, L, prm, b, _BY_GAME)
    return -1


# --- the one compiled entry -----------------------------------------------------------
OP_START = 0  # start every game from ``seeds``
OP_STEP_RANDOM = 1  # learners' actions, random opponents, observations: a whole step
OP_LEARNERS = 2  # learners' actions only
OP_ADVANCE_RANDOM = 3  # random opponents until every game awaits its learner
OP_GATHER = 4  # collect the decisions of the opponents ``arg`` seats after the learner
OP_OPPONENTS = 5  # apply opponents' actions to the ``arg`` gathered games
OP_OBSERVE = 6  # learners' observations, masks and rewards


@njit(cache=True)
def drive(s, cfg, L, prm, op: int, actions, obs, idx, masks, arg: int, seeds) -> int:
    """Every operation of the learner driver behind one compiled function.

    numba links and re-optimises the whole rules core into each compiled entry
    that reaches it, so one entry (the helpers above are inlined) keeps the
    first-run compile time to a single copy of the core. Return values: see
    each helper; ``-1`` means success.
    """
    s = borrow(s)  # no reference counting inside the kernel (core/borrow.py)
    L = borrow(L)
    if op == OP_START:
        _start_all(s, cfg, L, prm, seeds)
        return -1
    if op == OP_GATHER:
        return _gather_opponents(s, cfg, L, arg, idx, obs, masks)
    if op == OP_OPPONENTS:
        return _apply_opponents(s, cfg, L, prm, idx, arg, actions, masks)
    # the other operations are parts of one step (a single inlined copy of its loop)
    learners = op in (OP_STEP_RANDOM, OP_LEARNERS)
    advance = op in (OP_STEP_RANDOM, OP_ADVANCE_RANDOM)
    observe = op in (OP_STEP_RANDOM, OP_OBSERVE)
    code = _play(s, cfg, L, prm, actions, obs, learners, advance, observe)
    if op == OP_ADVANCE_RANDOM and code < -1:
        return -2 - code  # this operation returns the stuck game itself
    return code
