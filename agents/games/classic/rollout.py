"""A compiled rollout policy of classic canasta (``pl``, ``sk``) and the search bot's rollouts.

The policy reads the whole state (numba, over ``ClassicState``): that is legitimate
only because it plays inside the search bot's own sampled worlds
(:mod:`agents.games.classic.determinise`), where every card is the bot's guess. It
plays every seat as :class:`~agents.games.classic.bots.ClassicHeuristicBot` does —
the same preferences, computed from what that seat sees (its hand, every side's
melds, the pile's size, hand sizes and the opponents' known cards): the pile when
it is big, naturals onto the side's melds, wilds only near a canasta, the least
useful card discarded without feeding the opponents.

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
from kanaszta_env.games.classic.observation import HAND_SIZE_SCALE, KIND_VALUE
from kanaszta_env.rules_classic import CC_SIDES

_KERNELS = kernels_for(Rules(variant="pl").spec)  # the one classic variant: pl and sk share it
legal_row = _KERNELS.game_module("legal").legal_row
apply_action = _KERNELS.game_module("game").apply_action
standings = _KERNELS.game_module("score").standings
KIND_OF = _KERNELS.game_module("tables").KIND_OF
CANASTA = _KERNELS.game_module("tables").CANASTA
PHASE_OVER = 5
RANKS = 11
NEVER = -1e9
ANSWER_LIMIT, ASK_PARTNER_CARDS = 60.0, 5  # ClassicHeuristicBot's defaults


@njit(cache=True)
def _kinds(cards, out) -> None:
    """Counts by discard kind (red threes, never held, aside)."""
    out[:] = 0
    for t in range(cards.shape[0]):
        if KIND_OF[t] >= 0:
            out[KIND_OF[t]] += cards[t]


@njit(cache=True)
def _scores(s, b: int, hand, sc) -> None:
    """ClassicHeuristicBot's preference of every action but the discards for the seat to move
    in game ``b`` (``hand``: its cards by kind)."""
    p = s.to_move[b]
    side = s.side_of[b, p]
    grp = s.groups[b, side]
    size = hand.sum()
    canasta = False
    for g in range(grp.shape[0] - 1):
        canasta = canasta or grp[g].sum() >= CANASTA
    sc[:] = 0.0
    sc[A.DRAW] = 10.0
    sc[A.TAKE_PILE] = 10.0 + 4.0 * s.pile_len[b]
    for g in range(RANKS):
        own = grp[g].sum()
        sc[A.MELD0 + g] = (40.0 if own > 0 else 30.0 if hand[g] >= 3 else 5.0) + KIND_VALUE[g] / 10.0
        sc[A.TWO0 + g] = 25.0 + own if own >= 4 else -5.0
        sc[A.JOKER0 + g] = 20.0 + own if own >= 4 else -10.0
    sc[A.TWO_TO_WILD] = 15.0
    sc[A.JOKER_TO_WILD] = 12.0
    sc[A.BLACK_THREE] = 30.0
    if not canasta and size <= 3:
        sc[A.MELD0 : A.BLACK_THREE] -= 50.0
    sc[A.WITHDRAW] = NEVER
    partner, worth = 0, 0.0
    for q in range(s.hand.shape[1]):
        if q != p and s.side_of[b, q] == side:
            partner = max(partner, min(s.hand[b, q].sum(), int(HAND_SIZE_SCALE)))
    sc[A.ASK] = 200.0 if partner >= ASK_PARTNER_CARDS else NEVER / 2
    for k in range(hand.shape[0]):
        worth += hand[k] * KIND_VALUE[k]
    sc[A.ANSWER_YES] = 1.0 if worth <= ANSWER_LIMIT else 0.0
    sc[A.ANSWER_NO] = 0.5


@njit(cache=True)
def _discards(s, cfg, b: int, hand, known, sc) -> None:
    """The heuristic's preference of every discard: do not feed the opponents (ranks their
    sides meld or are known to hold, the more so the bigger the pile), block with a black
    three, keep pairs and wilds."""
    p = s.to_move[b]
    side = s.side_of[b, p]
    known[:] = 0
    for q in range(s.hand.shape[1]):
        if s.side_of[b, q] != side:
            for t in range(s.known.shape[2]):
                if KIND_OF[t] >= 0:
                    known[KIND_OF[t]] += s.known[b, q, t]
    for d in range(cfg[CC_SIDES]):
        if d != side:
            for g in range(RANKS):
                known[g] += s.groups[b, d, g, :4].sum()
    feed = 20.0 * (1.0 + s.pile_len[b] / 4.0)
    for k in range(hand.shape[0]):
        sc[A.DISCARD0 + k] = (
            -KIND_VALUE[k] / 10.0 - 3.0 * min(hand[k], 3) - (feed if k < RANKS and known[k] else 0.0)
        )
    sc[A.DISCARD0 + A.KIND_BLACK_THREE] += 15.0
    sc[A.DISCARD0 + A.KIND_TWO] -= 60.0
    sc[A.DISCARD0 + A.KIND_JOKER] -= 80.0
    if hand.sum() <= 1:
        sc[A.DISCARD0 :] += 500.0


@njit(cache=True)
def choose(s, cfg, b: int, row, hand, known, sc) -> int:
    """The policy's action in game ``b`` (``row``: its legal mask; the rest: scratch)."""
    _kinds(s.hand[b, s.to_move[b]], hand)
    _scores(s, b, hand, sc)
    if row[A.DISCARD0 :].any():
        _discards(s, cfg, b, hand, known, sc)
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
    hand = np.zeros(A.NUM_KINDS, dtype=np.int64)
    known = np.zeros(A.NUM_KINDS, dtype=np.int64)
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
            apply_action(s, cfg, b, choose(s, cfg, b, row, hand, known, sc), rewards)
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
