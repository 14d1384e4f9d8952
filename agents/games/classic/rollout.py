"""A compiled rollout policy of classic canasta (``pl``, ``sk``) and the search bot's rollouts.

The policy reads the whole state (numba, over ``ClassicState``): that is legitimate
only because it plays inside the search bot's own sampled worlds
(:mod:`agents.games.classic.determinise`), where every card is the bot's guess. It
plays every seat as :class:`~agents.games.classic.bots.ClassicHeuristicBot` (with its
default settings) does: the same compiled preferences
(:func:`~agents.games.classic.bots.prefer`), read from what that seat sees (its hand,
every side's melds, the pile's size, hand sizes and the opponents' known cards).

Every action it plays is legal (it picks from the engine's ``legal_row``). One
kernel copy serves both presets and every table size: the rules differ only in
the ``cfg`` array.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env import Rules
from kanaszta_env.engine.kernels import kernels_for
from kanaszta_env.games.classic import actions as A
from kanaszta_env.games.classic.observation import HAND_SIZE_SCALE
from kanaszta_env.rules_classic import CC_SIDES

from .bots import ANSWER_LIMIT, ASK_PARTNER_CARDS, RANKS, prefer

_KERNELS = kernels_for(Rules(variant="pl").spec)  # the one classic variant: pl and sk share it
legal_row = _KERNELS.game_module("legal").legal_row
apply_action = _KERNELS.game_module("game").apply_action
standings = _KERNELS.game_module("score").standings
KIND_OF = _KERNELS.game_module("tables").KIND_OF
has_canasta = _KERNELS.game_module("melds").has_canasta
PHASE_OVER = 5


@njit(cache=True)
def _fed(s, cfg, b: int, side: int, fed) -> None:
    """Cards of each rank the other sides meld or their seats are known to hold."""
    fed[:] = 0
    for q in range(s.hand.shape[1]):
        if s.side_of[b, q] != side:
            for t in range(s.known.shape[2]):
                if 0 <= KIND_OF[t] < RANKS:
                    fed[KIND_OF[t]] += s.known[b, q, t]
    for d in range(cfg[CC_SIDES]):
        if d != side:
            for g in range(RANKS):
                fed[g] += s.groups[b, d, g, :4].sum()


@njit(cache=True)
def choose(s, cfg, b: int, row, inputs, sc) -> int:
    """The policy's action in game ``b`` (``row``: its legal mask; ``inputs`` (3, 14) int64
    and ``sc`` (57,) float64: scratch): the heuristic's preferences from what the seat to
    move sees."""
    p = s.to_move[b]
    side = s.side_of[b, p]
    grp = s.groups[b, side]
    hand, own, fed = inputs[0], inputs[1, :RANKS], inputs[2, :RANKS]
    hand[:] = 0
    for t in range(s.hand.shape[2]):
        if KIND_OF[t] >= 0:  # red threes are never held
            hand[KIND_OF[t]] += s.hand[b, p, t]
    for g in range(RANKS):
        own[g] = grp[g].sum()
    partner = 0
    for q in range(s.hand.shape[1]):
        if q != p and s.side_of[b, q] == side:  # as the observation shows it: clipped
            partner = max(partner, min(s.hand[b, q].sum(), int(HAND_SIZE_SCALE)))
    if row[A.DISCARD0 :].any():  # only the discards read ``fed``
        _fed(s, cfg, b, side, fed)
    canasta = has_canasta(grp)
    prefer(hand, own, fed, canasta, s.pile_len[b], partner, ANSWER_LIMIT, ASK_PARTNER_CARDS, sc)
    best, value = -1, -np.inf
    for a in range(row.shape[0]):
        if row[a] and sc[a] > value:
            best, value = a, sc[a]
    return best


@njit(cache=True)
def rollout(s, cfg, first, horizon: int, over) -> None:
    """Play ``first[b]`` in game ``b``, then the policy for every seat for ``horizon`` turns
    or to the hand's end; ``over[b]``: whether the hand ended."""
    row = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)
    sc = np.zeros(A.NUM_ACTIONS, dtype=np.float64)
    inputs = np.zeros((3, A.NUM_KINDS), dtype=np.int64)
    rewards = np.zeros((s.phase.shape[0], s.hand.shape[1]), dtype=np.float64)
    for b in range(s.phase.shape[0]):
        hand_no = s.hand_number[b]
        stop = s.turn[b] + horizon
        apply_action(s, cfg, b, first[b], rewards)
        for _ in range(200 * horizon + 1000):
            if s.hand_number[b] != hand_no or s.phase[b] == PHASE_OVER or s.turn[b] >= stop:
                break
            if legal_row(s, cfg, b, row) == 0:
                break
            apply_action(s, cfg, b, choose(s, cfg, b, row, inputs, sc), rewards)
        over[b] = s.hand_number[b] != hand_no or s.phase[b] == PHASE_OVER


def values(s, cfg: np.ndarray, over: np.ndarray, seat: int, hand_weight: float) -> np.ndarray:
    """Seat ``seat``'s side's score minus the other sides' mean in every game: the hand's
    recorded scores where it is ``over``, else the standings (C13.2) with the cards in
    hand at ``hand_weight`` of their penalty."""
    n, sides = len(over), int(cfg[CC_SIDES])
    out = np.zeros((n, sides, 2), dtype=np.int64)
    standings(s.groups, s.red_threes, s.hand, s.side_of, cfg, np.arange(n, dtype=np.int64), out)
    now = out[:, :, 0] - hand_weight * out[:, :, 1]
    first_seat = [int(np.flatnonzero(s.side_of[0] == d)[0]) for d in range(sides)]
    now[over] = s.hand_scores[over][:, first_seat]  # a side's score is kept on each of its seats
    own = now[:, int(s.side_of[0, seat])]
    return own - (now.sum(axis=1) - own) / (sides - 1)
