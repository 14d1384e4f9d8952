"""Dealing, applying an action, and the end of a turn, of a hand and of a game (M2-M9)."""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.core.common import END_EXHAUSTED, END_NONE, END_OUT, END_TRUNCATED, hand_size
from kanaszta_env.core.config import (
    CFG_EPISODE_GAME,
    CFG_MAX_HANDS,
    CFG_MAX_TURNS,
    CFG_RANDOM_STARTER,
    CFG_TARGET,
)
from kanaszta_env.core.rng import below, next_u64, shuffle

from .. import actions as A
from .cards import naturals, take_natural, take_wild
from .state import PHASE_DRAW, PHASE_MELD, PHASE_OVER
from .tables import (
    CANASTA,
    CANASTA_BONUS,
    COPIES,
    DEAL,
    GOING_OUT,
    MELD_RANK,
    MIN_MELD,
    PENALTY,
    PLAYERS,
    VALUE,
)


@njit(cache=True)
def reset_game(s, cfg, b: int, seed: np.uint64) -> None:
    """Start a new game in slot ``b`` from ``seed`` (M2)."""
    s.rng[b] = seed
    next_u64(s.rng, b)
    s.totals[b] = 0
    s.hand_scores[b] = 0
    s.hand_number[b] = 0
    s.starter[b] = below(s.rng, b, PLAYERS) if cfg[CFG_RANDOM_STARTER] == 1 else 0
    _start_hand(s, b)


@njit(cache=True)
def _start_hand(s, b: int) -> None:
    """M2: shuffle the deck, deal 7 cards to each, the rest is the stock."""
    s.hand[b] = 0
    s.melds[b] = 0
    s.turn[b] = 0
    s.end_reason[b] = END_NONE
    s.out_player[b] = -1
    n = 0
    for t in range(NUM_TYPES):
        for _ in range(COPIES[t]):
            s.stock[b, n] = t
            n += 1
    shuffle(s.rng, b, s.stock[b], n)
    for q in range(PLAYERS):
        for _ in range(DEAL):
            n -= 1
            s.hand[b, q, s.stock[b, n]] += 1
    s.stock_len[b] = n
    s.pile_len[b] = 0
    s.to_move[b] = s.starter[b]
    s.phase[b] = PHASE_DRAW


@njit(cache=True)
def hand_score(melds, hand, went_out: bool) -> int:
    """M8: a player's score of a hand from his melds, his hand and whether he went out."""
    v = GOING_OUT if went_out else 0
    for i in range(melds.shape[0]):
        size = 0
        for t in range(NUM_TYPES):
            size += melds[i, t]
            v += melds[i, t] * VALUE[t]
        if size >= CANASTA:
            v += CANASTA_BONUS
    for t in range(NUM_TYPES):
        v -= hand[t] * PENALTY[t]
    return v


@njit(cache=True)
def _decided(s, cfg, b: int) -> bool:
    """M9: a total has reached the target."""
    return s.totals[b, 0] >= cfg[CFG_TARGET] or s.totals[b, 1] >= cfg[CFG_TARGET]


@njit(cache=True)
def _end_hand(s, cfg, b: int, reason: int, rewards) -> None:
    """M7-M9: score the hand, credit both seats, then deal the next hand or stop."""
    for q in range(PLAYERS):
        s.hand_scores[b, q] = hand_score(
            s.melds[b, q], s.hand[b, q], reason == END_OUT and s.out_player[b] == q
        )
    for q in range(PLAYERS):
        s.totals[b, q] += s.hand_scores[b, q]
        rewards[b, q] += s.hand_scores[b, q] - s.hand_scores[b, 1 - q]
    s.end_reason[b] = reason
    s.hand_number[b] += 1
    if cfg[CFG_EPISODE_GAME] == 1 and not _decided(s, cfg, b) and s.hand_number[b] < cfg[CFG_MAX_HANDS]:
        s.starter[b] = 1 - s.starter[b]
        _start_hand(s, b)
    else:
        s.phase[b] = PHASE_OVER


@njit(cache=True)
def episode_truncated(s, cfg, b: int) -> bool:
    """Whether a finished episode was cut short (M7, M9) rather than ended."""
    if cfg[CFG_EPISODE_GAME] == 0:
        return s.end_reason[b] == END_TRUNCATED
    return not _decided(s, cfg, b)


@njit(cache=True)
def _end_turn(s, cfg, b: int, p: int, rewards) -> None:
    """After a discard (M7): out, exhausted, cut short, or the other player's turn."""
    s.turn[b] += 1
    if hand_size(s.hand[b, p]) == 0:
        s.out_player[b] = p
        _end_hand(s, cfg, b, END_OUT, rewards)
    elif s.stock_len[b] == 0:
        _end_hand(s, cfg, b, END_EXHAUSTED, rewards)
    elif s.turn[b] >= cfg[CFG_MAX_TURNS]:
        _end_hand(s, cfg, b, END_TRUNCATED, rewards)
    else:
        s.to_move[b] = 1 - p
        s.phase[b] = PHASE_DRAW


@njit(cache=True)
def apply_action(s, cfg, b: int, a: int, rewards) -> None:
    """Apply the legal action ``a`` to game ``b``, adding the seats' rewards to ``rewards``."""
    p = s.to_move[b]
    hand = s.hand[b, p]
    if a == A.DRAW:
        n = s.stock_len[b] - 1
        s.stock_len[b] = n
        hand[s.stock[b, n]] += 1
        s.phase[b] = PHASE_MELD
    elif a >= A.DISCARD0:
        t = a - A.DISCARD0
        hand[t] -= 1
        s.pile[b, s.pile_len[b]] = t
        s.pile_len[b] += 1
        _end_turn(s, cfg, b, p, rewards)
    elif a >= A.WILD0:
        s.melds[b, p, a - A.WILD0, take_wild(hand)] += 1
    elif a >= A.ADD0:
        i = a - A.ADD0
        s.melds[b, p, i, take_natural(hand, MELD_RANK[i])] += 1
    else:  # M4: three naturals, or two and a wild
        i = a - A.MELD0
        held = naturals(hand, MELD_RANK[i])
        for _ in range(min(held, MIN_MELD)):
            s.melds[b, p, i, take_natural(hand, MELD_RANK[i])] += 1
        if held < MIN_MELD:
            s.melds[b, p, i, take_wild(hand)] += 1
