"""The turn flow: the deal hands the starter his first turn (R3.2-R3.4,
R4.1), a turn begins with the red-three replacements (R4.2, R5.1), and a
discard ends it (R5.2c, R6 twins, R7.1, R14 going out) or the hand."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import IS_BLACK_THREE, IS_RED_THREE, JOKER, NUM_TYPES, RED_THREE_INDEX
from ....core.common import hand_size
from ....core.config import CFG_MAX_TURNS, CFG_PLAYERS
from .bookkeeping import _checkpoint, _clear_turn, _forget
from .draw import _draw, _refill_from_pile
from .hands import _end_hand
from .melds import any_group
from .state import (
    END_EXHAUSTED,
    END_OUT,
    END_TRUNCATED,
    FREE_GONE,
    FREE_NOW,
    FREE_WAITING,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_OVER,
)
from .tables import CUT_CARDS, DEAL_OTHERS, DEAL_STARTER


@njit(cache=True)
def _deal(s, cfg, b: int, rewards) -> None:
    """R3.2-R3.4 and R4.1: deal, keep the chosen cut cards, put the others at
    the bottom of the stock, and lay out red threes."""
    players = cfg[CFG_PLAYERS]
    st = s.starter[b]
    s.stock_len[b] -= CUT_CARDS
    kept = 0
    for i in range(CUT_CARDS):
        kept += s.cut_kept[b, i]
    for q in range(players):
        count = DEAL_STARTER - kept if q == st else DEAL_OTHERS
        for _ in range(count):
            n = s.stock_len[b]
            s.hand[b, q, s.stock[b, n - 1]] += 1
            s.stock_len[b] = n - 1
    for i in range(CUT_CARDS):
        if s.cut_kept[b, i] == 1:
            t = s.cut_cards[b, i]
            s.hand[b, st, t] += 1
            s.known[b, st, t] += 1
    left = CUT_CARDS - kept
    n = s.stock_len[b]
    for i in range(n - 1, -1, -1):
        s.stock[b, i + left] = s.stock[b, i]
    j = 0
    for i in range(CUT_CARDS):
        if s.cut_kept[b, i] == 0:
            s.stock[b, j] = s.cut_cards[b, i]
            j += 1
    s.stock_len[b] = n + left
    s.stock_known[b] = left
    for q in range(players):
        for t in range(NUM_TYPES):
            if IS_RED_THREE[t] and s.hand[b, q, t] > 0:
                c = s.hand[b, q, t]
                s.red_threes[b, q, RED_THREE_INDEX[t]] += c
                s.red_three_debt[b, q] += c
                s.hand[b, q, t] = 0
                s.known[b, q, t] = 0
    _begin_turn(s, cfg, b, rewards)


@njit(cache=True, inline="always")
def _begin_turn(s, cfg, b: int, rewards) -> None:
    """R4.2 replacements, then the starter's discard-only first turn (R5.1) or a
    normal turn. Ends the hand if a card cannot be drawn (R5.4)."""
    p = np.int64(s.to_move[b])  # int64 like apply_action's: one compiled copy of each callee
    _clear_turn(
        s.locked, s.lifted, s.lifted_from, s.changed, s.pickup_kind, s.pickup_size, s.pickup_card,
        s.pickup_from_hand, b,
    )  # fmt: skip
    while s.red_three_debt[b, p] > 0:
        s.red_three_debt[b, p] -= 1
        if not _draw(s, b, p):
            _end_hand(s, cfg, b, np.int64(END_EXHAUSTED), rewards)
            return
    if p == s.starter[b] and s.turns_played[b, p] == 0:
        s.phase[b] = PHASE_DISCARD
    else:
        if s.stock_len[b] == 0 and s.pile_len[b] == 0:
            _end_hand(s, cfg, b, np.int64(END_EXHAUSTED), rewards)
            return
        s.phase[b] = PHASE_DRAW
    _checkpoint(
        s.hand, s.groups, s.sep_heart_aces, s.cp_hand, s.cp_groups, s.cp_sep_heart_aces, s.changed, b, p
    )


@njit(cache=True, inline="always")
def _discard(s, cfg, b: int, p: int, t: int, rewards) -> None:
    """R5.2c, R6 twins, R7.1 free-pickup opportunity, R14 going out."""
    n = s.pile_len[b]
    if s.pile_fresh[b] == 1 and n > 0 and s.pile[b, n - 1] == t and t != JOKER:
        s.twins[b, p] += 1
    s.hand[b, p, t] -= 1
    _forget(s.known, b, p, t)
    s.pile[b, n] = t
    s.pile_owner[b, n] = p
    s.pile_len[b] = n + 1
    s.pile_fresh[b] = 1
    players = cfg[CFG_PLAYERS]
    nxt = (p + 1) % players
    if s.free_pickup[b, nxt] == FREE_WAITING and not IS_BLACK_THREE[t]:
        s.free_pickup[b, nxt] = FREE_NOW
    if s.free_pickup[b, p] == FREE_NOW:  # not taken in the opportunity turn
        s.free_pickup[b, p] = FREE_GONE
    if hand_size(s.hand[b, p]) == 0:
        s.out_player[b] = p
        _end_hand(s, cfg, b, np.int64(END_OUT), rewards)
        if s.phase[b] == PHASE_OVER:
            s.opened[b, p] = 1
        return
    if any_group(s.groups[b, p]):
        s.opened[b, p] = 1
    if s.stock_len[b] == 0 and s.pile_len[b] > 0:
        _refill_from_pile(s.stock, s.stock_len, s.stock_known, s.pile, s.pile_len, s.pile_fresh, s.rng, b)
    s.turns_played[b, p] += 1
    s.turn[b] += 1
    if s.turn[b] >= cfg[CFG_MAX_TURNS]:
        _end_hand(s, cfg, b, np.int64(END_TRUNCATED), rewards)
        return
    s.to_move[b] = nxt
    _begin_turn(s, cfg, b, rewards)
