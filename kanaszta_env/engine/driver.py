"""The compiled driver behind :class:`~kanaszta_env.engine.GameBatch`: the one
place where games are reset, stepped and observed.

Every seat of every game has a *controller*: ``EXTERNAL`` (its actions come from
:meth:`GameBatch.step`), ``RANDOM`` (uniformly random legal actions, played inside the compiled
call) or a Python policy (index ``k >= 0``; the Python layer gathers the games where such a seat is
to move, asks the policy for a batch of actions and applies them here). A step applies the external
actions, then plays the built-in seats until every game awaits an external decision or is over,
crediting rewards per seat on the way.

The controllers are given as a *lineup* in turn order from an *anchor* seat, which is fixed or drawn
from each game's seed per episode (a learner that changes seats). The driver's arrays are
:class:`Seats`; :func:`drive` takes them with the state, config and parameters and loops over
the batch, so the Python layer never loops over games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit, typeof

from ..core.borrow import borrow
from ..core.config import CFG_PLAYERS, CFG_SIDE_OF
from ..core.packed import unpack
from ..core.rng import below, next_u64
from ..core.ruleset import (
    NUM_ACTIONS,
    PHASE_OVER,
    apply_action,
    encode_games,
    episode_truncated,
    legal_row,
    reset_game,
)
from .seats import EXTERNAL, NOBODY, RANDOM, WAIT, Seats, new_seats as _new_seats

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
PRM_ANCHOR = 2  # a fixed anchor seat, or ANCHOR_RANDOM
PRM_AUTO_RESET = 3
PRM_PENALTY = 4  # 1: an illegal external action ends the episode with a penalty
PRM_ILLEGAL_REWARD = 5
PRM_OBSERVE = 6  # 1: steps write the observations of the seats that decide next
PRM_BY_SIDE = 7  # 1: the lineup is (anchor, its partners, the other seats in turn order)
PRM_DEAD_END = 8  # a game whose awaited seat has no legal action (-1: none); GameBatch raises
PRM_SIZE = 9
ANCHOR_RANDOM = -1  # the anchor seat is drawn from the game's seed each episode

#: resets of one game within one step after which the driver gives up: only
#: episodes that end before any external decision can cause them
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
    (a ``GameBatch`` owns its arrays, so they do).
    """
    entry = dispatcher.compile(tuple(typeof(a) for a in args))
    return entry if callable(entry) else dispatcher


# --- rewards ------------------------------------------------------------------------
# Cost model of the helpers below: numba increfs and decrefs every array of a
# tuple argument when a call receives it (and an ``inline="always"`` helper when
# its inlined body runs), about 0.4 µs for the 41-array state ``s``. Helpers that
# receive ``s`` or ``S`` therefore run once per driver call or once per episode;
# the per-decision work calls only the core's ``legal_row`` / ``apply_action`` with
# ``s``, and everything else with the few arrays it reads.
@njit(cache=True)
def _credit(phase, totals, cfg, prm, acc, core, b: int) -> bool:
    """After an action applied to game ``b``: add every seat's reward (R16-R18).
    True when the episode has ended.

    ``score``: the core's zero-sum hand reward (score minus the others' mean,
    paid when a hand ends) times the scale. ``win``: when the episode ends,
    +1 for the single highest total, 0 for a tie at the top, -1 otherwise (a
    hand or game cut short is judged by the totals it reached). Partners share
    a total: a tie is between seats of different sides (C14).
    """
    players = cfg[CFG_PLAYERS]
    over = phase[b] == PHASE_OVER
    if prm[PRM_REWARD_MODE] == REWARD_SCORE:
        for q in range(players):
            acc[b, q] += core[b, q] * prm[PRM_REWARD_SCALE]
    elif over:
        best = totals[b, 0]
        for q in range(players):
            best = max(best, totals[b, q])
        top_side, tied = -1, False
        for q in range(players):
            if totals[b, q] == best:
                side = cfg[CFG_SIDE_OF + q]
                tied = tied or (top_side >= 0 and side != top_side)
                top_side = side
        for q in range(players):
            acc[b, q] += -1.0 if totals[b, q] < best else (0.0 if tied else 1.0)
    return over


# --- episodes -----------------------------------------------------------------------
@njit(cache=True)
def _seat_controllers(cfg, lineup, control, by_side: float, b: int, anchor: int) -> None:
    """Seat game ``b``'s controllers around ``anchor``: the lineup in turn order, or (``by_side``)
    the anchor's, one for all his partners, then the other seats' (sk's 5 players: any distance)."""
    players = cfg[CFG_PLAYERS]
    if by_side == 0.0:
        for i in range(players):
            control[b, (anchor + i) % players] = lineup[b, i]
        return
    own = cfg[CFG_SIDE_OF + anchor]
    control[b, anchor] = lineup[b, 0]
    j = 2
    for i in range(1, players):
        q = (anchor + i) % players
        if cfg[CFG_SIDE_OF + q] == own:
            control[b, q] = lineup[b, 1]
        else:
            control[b, q] = lineup[b, j]
            j += 1


@njit(inline="always")
def _start_episode(s, cfg, S, prm, b: int, seed: np.uint64) -> None:
    """Deal game ``b`` from ``seed``, choose the anchor seat and seat the controllers."""
    reset_game(s, cfg, b, seed)
    S.seeds[b] = seed
    S.rng[b] = seed ^ _SEAT_MIX
    next_u64(S.rng, b)
    players = cfg[CFG_PLAYERS]
    anchor = np.int64(prm[PRM_ANCHOR])
    if anchor == ANCHOR_RANDOM:
        anchor = np.int64(below(S.rng, b, players))
    S.anchor[b] = anchor
    _seat_controllers(cfg, S.lineup, S.control, prm[PRM_BY_SIDE], b, anchor)
    S.over[b] = False
    S.acc[b, :] = 0.0


@njit(cache=True)
def _end_episode(s, cfg, S, prm, b: int, flags: int) -> None:
    """Game ``b`` has ended with ``flags`` (``_BY_GAME``: terminated or truncated):
    record the rewards and the anchor's terminal observation, then deal again
    or mark it over. Runs once per episode, so it may take the whole state."""
    if flags == _BY_GAME:
        flags = ENDED_TRUNCATED if episode_truncated(s, cfg, b) else ENDED_TERMINATED
    n = S.anchor.shape[0]
    if S.ended[b] != 0:
        # a second end within one step: nobody outside saw that episode
        S.acc[b, :] = 0.0
    else:
        S.ended[b] = flags
        S.reward[b, :] = S.acc[b, :]
        S.anchor_reward[b] = S.acc[b, S.anchor[b]]
        S.acc[b, :] = 0.0
        if prm[PRM_OBSERVE] == 1.0:
            # encode_games itself, not a one-row wrapper: a wrapper would be one more compiled entry
            encode_games(s, cfg, np.array([b]), S.anchor[b : b + 1], S.terminal_obs[b : b + 1])
    if prm[PRM_AUTO_RESET] == 1.0:
        S.resets[b] += 1
        _start_episode(s, cfg, S, prm, b, S.seeds[b] + np.uint64(n))
    else:
        S.over[b] = True


@njit(cache=True)
def _illegal(legal: np.ndarray, b: int, a: int, who: int) -> bool:
    return (a != WAIT or who != EXTERNAL) and (a < 0 or a >= NUM_ACTIONS or not legal[b, a])


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


@njit(inline="always")
def _apply(s, cfg, S, prm, b: int, a: int) -> None:
    """Apply a legal action to game ``b`` and credit its rewards."""
    S.core[b, :] = 0.0
    apply_action(s, cfg, b, a, S.core)
    if _credit(s.phase, s.totals, cfg, prm, S.acc, S.core, b):
        _end_episode(s, cfg, S, prm, b, _BY_GAME)


# --- one step ---------------------------------------------------------------------
@njit(inline="always")
def _play(
    s, cfg, S, prm, actions: np.ndarray, obs: np.ndarray, who: int, advance: bool, observe: bool,
    settle: bool,
) -> int:  # fmt: skip
    """The step, in one pass over the games (each game's state stays in cache
    for its whole step): the actions ``actions[b]`` of the games whose awaited
    seat is played by ``who`` (``EXTERNAL``, a Python policy, or ``NOBODY``),
    built-in random seats until each game awaits a seat that is not random
    (``advance``), the masks and observations of the awaited seats
    (``observe``), and the rewards the step returns (``settle``).

    The masks of the seats awaited by a Python policy are written too (by
    ``advance``, and for the games this call moved), for :func:`_gather`. One call site of
    the core's ``legal_row`` and ``apply_action`` (both inlined): each inlined
    copy costs seconds of compilation on a first run.

    Returns ``-1``, or the failing game: ``b`` for an illegal action (nothing is
    applied then; in penalty mode an external one ends the episode with the
    penalty instead), ``-2 - b`` when game ``b`` keeps ending before any
    external decision.
    """
    n = S.anchor.shape[0]
    legal, over, rng, resets, control = S.legal, S.over, S.rng, S.resets, S.control
    to_move = s.to_move
    if who == EXTERNAL:
        S.ended[:] = 0
        S.reward[:] = 0.0
        S.anchor_reward[:] = 0.0
        resets[:] = 0
    if who >= 0 or (who == EXTERNAL and prm[PRM_PENALTY] != 1.0):
        for b in range(n):
            if not over[b] and control[b, to_move[b]] == who and _illegal(legal, b, actions[b], who):
                return b
    for b in range(n):
        a = -1
        moved = False
        if who != NOBODY and not over[b] and control[b, to_move[b]] == who and actions[b] != WAIT:
            a = actions[b]
            if who == EXTERNAL and _illegal(legal, b, a, who):  # penalty mode
                offender = S.anchor[b] if prm[PRM_BY_SIDE] == 1.0 else to_move[b]  # by side: the learner
                S.acc[b, offender] += prm[PRM_ILLEGAL_REWARD]
                _end_episode(s, cfg, S, prm, b, _BY_ILLEGAL)
                a = -1
            elif resets[b] > MAX_RESETS_PER_STEP:
                return -2 - b
        while True:
            if a < 0:
                if over[b]:
                    if observe:
                        legal[b] = False
                    break
                c = control[b, to_move[b]]
                pick = advance and c == RANDOM
                if not (pick or (c == EXTERNAL and observe) or (c >= 0 and (advance or moved))):
                    if observe:
                        legal[b] = False
                    break
                if pick and resets[b] > MAX_RESETS_PER_STEP:
                    return -2 - b
                count = legal_row(s, cfg, b, legal[b])
                if count == 0:  # a live game with no legal action: GameBatch raises DeadEndError
                    prm[PRM_DEAD_END] = b
                if count == 0 or not pick:
                    break  # the awaited seat's mask
                a = _pick(legal[b], np.int64(count), rng, b)  # the built-in random seat's move
            _apply(s, cfg, S, prm, b, a)
            moved = True
            a = -1
    if observe and prm[PRM_OBSERVE] == 1.0:
        encode_games(s, cfg, np.arange(n), to_move.astype(np.int64), obs)  # one call for all rows
        for b in range(n):
            if over[b]:
                obs[b] = S.terminal_obs[b]
    if settle:
        for b in range(n):
            if S.ended[b] == 0:
                S.reward[b, :] = S.acc[b, :]
                S.anchor_reward[b] = S.acc[b, S.anchor[b]]
                S.acc[b, :] = 0.0
    return -1


@njit(inline="always")
def _gather(s, cfg, S, k: int, idx: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> int:
    """Collect the games whose mover is played by Python policy ``k``: their
    indices, the mover's observation and legal mask (written by the last
    :func:`_play`). Returns how many."""
    over, to_move, control = S.over, s.to_move, S.control
    movers = np.empty(over.shape[0], dtype=np.int64)
    n = 0
    for b in range(over.shape[0]):
        if not over[b] and control[b, to_move[b]] == k:
            idx[n] = b
            movers[n] = to_move[b]
            masks[n] = S.legal[b]
            n += 1
    encode_games(s, cfg, idx[:n], movers[:n], obs)
    return n


@njit(inline="always")
def _start(s, cfg, S, prm, seeds: np.ndarray, which: np.ndarray) -> None:
    """Start every game ``b`` with ``which[b]`` from ``seeds[b]``; clears the step outputs."""
    for b in range(seeds.shape[0]):
        if which[b]:
            _start_episode(s, cfg, S, prm, b, seeds[b])
            S.ended[b] = 0
            S.reward[b, :] = 0.0
            S.anchor_reward[b] = 0.0
    S.resets[:] = 0


@njit(inline="always")
def _adopt(s, cfg, S, prm, anchors: np.ndarray) -> None:
    """Take the state as it stands (a loaded position): seat the controllers
    around ``anchors`` and mark finished games over."""
    for b in range(anchors.shape[0]):
        S.anchor[b] = anchors[b]
        _seat_controllers(cfg, S.lineup, S.control, prm[PRM_BY_SIDE], b, anchors[b])
        S.over[b] = s.phase[b] == PHASE_OVER
        S.acc[b, :] = 0.0
        S.ended[b] = 0
        S.reward[b, :] = 0.0
        S.anchor_reward[b] = 0.0
    S.resets[:] = 0


# --- the one compiled entry -----------------------------------------------------------
OP_START = 0  # start the games ``which`` from ``seeds``
OP_STEP = 1  # external actions, random seats, observations: a whole step
OP_EXTERNAL = 2  # external actions only
OP_ADVANCE = 3  # random seats until every game awaits a seat that is not random
OP_GATHER = 4  # collect the decisions of Python policy ``arg``
OP_POLICY = 5  # apply a Python policy's actions to the ``arg`` gathered games
OP_OBSERVE = 6  # masks and observations of the awaited seats
OP_ADOPT = 7  # take the state as it is, anchors in ``idx``
OP_FINISH = 8  # the end of a step with Python policies: masks, observations and rewards


@njit(cache=True, nogil=True)  # lets an overlapped PPO update run meanwhile
def drive(table, kinds, op: int, actions, obs, idx, arg: int, seeds, which) -> int:
    """Every operation of the driver in one compiled function: numba re-optimises the rules core
    into each compiled entry that reaches it, so one entry (the helpers above inlined) compiles
    one copy. A ``GameBatch``'s own arrays come as one table of addresses of types ``kinds``
    (:mod:`~kanaszta_env.core.packed`): a call unboxes a few arrays, not some fifty. Returns
    ``-1`` on success, else see each helper."""
    s, cfg, S, prm, masks = unpack(table, kinds)
    s = borrow(s)  # no reference counting inside the kernel (core/borrow.py)
    S = borrow(S)
    if op == OP_START:
        _start(s, cfg, S, prm, seeds, which)
        return -1
    if op == OP_ADOPT:
        _adopt(s, cfg, S, prm, idx)
        return -1
    if op == OP_GATHER:
        return _gather(s, cfg, S, arg, idx, obs, masks)
    # every other operation is a part of one step (a single inlined copy of its loop)
    who = NOBODY
    acts = actions
    if op in (OP_STEP, OP_EXTERNAL):
        who = EXTERNAL
    elif op == OP_POLICY:  # the policy's actions for the ``arg`` games gathered in ``idx``
        if arg == 0:
            return -1
        who = S.control[idx[0], s.to_move[idx[0]]]
        acts = np.full(S.anchor.shape[0], -1, dtype=np.int64)
        for i in range(arg):
            acts[idx[i]] = actions[i]
    advance = op in (OP_STEP, OP_ADVANCE)
    observe = op in (OP_STEP, OP_OBSERVE, OP_FINISH)
    settle = op in (OP_STEP, OP_FINISH)
    code = _play(s, cfg, S, prm, acts, obs, who, advance, observe, settle)
    if op == OP_POLICY and code >= 0:
        for i in range(arg):  # the policy's row of the illegal action
            if idx[i] == code:
                return i
    if op == OP_ADVANCE and code < -1:
        return -2 - code  # this operation returns the stuck game itself
    return code


def new_seats(n: int, players: int, obs_size: int, lineup: np.ndarray) -> Seats:
    """Driver arrays for ``n`` games of this rule set (its action count)."""
    return _new_seats(n, players, obs_size, lineup, NUM_ACTIONS)
