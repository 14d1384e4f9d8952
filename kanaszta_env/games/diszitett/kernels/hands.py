"""Starting and ending hands: a new game (R2.3), the shuffle and the cut
(R3.1), and a hand's end: scoring (R16), tax (R17), the next hand or the end
of the game (R18, R19)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import NUM_TYPES
from ....core.config import CFG_EPISODE_GAME, CFG_MAX_HANDS, CFG_PLAYERS, CFG_RANDOM_STARTER, CFG_TARGET
from ....core.rng import below, next_u64, shuffle
from .bookkeeping import _clear_turn
from .score import apply_tax, hand_base, hand_card_value
from .state import END_NONE, END_OUT, END_TRUNCATED, FREE_WAITING, PHASE_CUT, PHASE_OVER, PICKUP_PILE
from .tables import CUT_CARDS, DECK_SIZE, TABLE_CLEARING_PILE, TYPE_COPIES

_COPIES = TYPE_COPIES


# --- starting games and hands -----------------------------------------------------
@njit(cache=True)
def reset_game(s, cfg, b: int, seed: np.uint64) -> None:
    """Start a new game in slot ``b`` from ``seed``."""
    s.rng[b] = seed
    next_u64(s.rng, b)
    players = cfg[CFG_PLAYERS]
    s.totals[b, :] = 0
    s.hand_scores[b, :] = 0
    s.hand_number[b] = 0
    s.starter[b] = below(s.rng, b, players) if cfg[CFG_RANDOM_STARTER] == 1 else 0
    _start_hand(s, cfg, b)


@njit(cache=True)
def _start_hand(s, cfg, b: int) -> None:
    """Shuffle and show the three cut cards (R3.1); the deal follows the cut."""
    s.hand[b] = 0
    s.groups[b] = 0
    s.sep_heart_aces[b] = 0
    s.red_threes[b] = 0
    s.red_three_debt[b] = 0
    s.twins[b] = 0
    s.opened[b] = 0
    s.free_pickup[b] = FREE_WAITING
    s.known[b] = 0
    s.turns_played[b] = 0
    s.pile_len[b] = 0
    s.pile_fresh[b] = 0
    s.turn[b] = 0
    s.end_reason[b] = END_NONE
    s.out_player[b] = -1
    s.cp_hand[b] = 0
    s.cp_groups[b] = 0
    s.cp_sep_heart_aces[b] = 0
    k = 0
    for t in range(NUM_TYPES):
        for _ in range(_COPIES[t]):
            s.stock[b, k] = t
            k += 1
    shuffle(s.rng, b, s.stock[b], np.int64(DECK_SIZE))
    # the cut cards are the stock's top three (its last entries) until the deal
    for i in range(CUT_CARDS):
        s.cut_cards[b, i] = s.stock[b, DECK_SIZE - 1 - i]
        s.cut_kept[b, i] = -1
    s.stock_len[b] = DECK_SIZE
    s.stock_known[b] = 0
    s.cut_index[b] = 0
    s.phase[b] = PHASE_CUT
    s.to_move[b] = s.starter[b]
    _clear_turn(
        s.locked, s.lifted, s.lifted_from, s.changed, s.pickup_kind, s.pickup_size, s.pickup_card,
        s.pickup_from_hand, b,
    )  # fmt: skip


# --- the end of a hand --------------------------------------------------------
@njit(cache=True)
def going_out_kind(s, b: int, q: int) -> tuple[bool, bool]:
    """R16.2-R16.3: whether seat ``q``, going out now, goes out from hand (not opened before)
    and with table clearing (from hand, having taken a pile of at least the rule's size)."""
    from_hand = s.opened[b, q] == 0
    clearing = from_hand and s.pickup_kind[b] == PICKUP_PILE and s.pickup_size[b] >= TABLE_CLEARING_PILE
    return from_hand, clearing


@njit(cache=True)
def _end_hand(s, cfg, b: int, reason: int, rewards) -> None:
    """Score every player (R16), tax (R17), and start the next hand or stop."""
    players = cfg[CFG_PLAYERS]
    out = s.out_player[b] if reason == END_OUT else -1
    scores = np.zeros(players, dtype=np.int64)
    for q in range(players):
        went_out = q == out
        from_hand, clearing = going_out_kind(s, b, q)  # read by hand_base only if he went out
        red = s.red_threes[b, q, 0] + s.red_threes[b, q, 1]
        base = hand_base(
            s.groups[b, q], red, s.twins[b, q], s.sep_heart_aces[b, q], went_out, from_hand, clearing
        )
        raw = base + hand_card_value(s.groups[b, q], s.hand[b, q])
        scores[q] = apply_tax(s.totals[b, q], raw)
    total = 0
    for q in range(players):
        total += scores[q]
    for q in range(players):
        s.hand_scores[b, q] = scores[q]
        s.totals[b, q] += scores[q]
        rewards[b, q] += scores[q] - (total - scores[q]) / (players - 1)
    s.end_reason[b] = reason
    s.hand_number[b] += 1
    if s.phase[b] != PHASE_OVER and cfg[CFG_EPISODE_GAME] == 1:
        best = s.totals[b, 0]
        for q in range(players):
            best = max(best, s.totals[b, q])
        if best < cfg[CFG_TARGET] and s.hand_number[b] < cfg[CFG_MAX_HANDS]:
            s.starter[b] = (s.starter[b] + 1) % players  # R2.3
            _start_hand(s, cfg, b)
            return
    s.phase[b] = PHASE_OVER


@njit(cache=True)
def episode_truncated(s, cfg, b: int) -> bool:
    """Whether a finished episode was cut short (R19.2) rather than ended."""
    if cfg[CFG_EPISODE_GAME] == 0:
        return s.end_reason[b] == END_TRUNCATED
    best = s.totals[b, 0]
    for q in range(cfg[CFG_PLAYERS]):
        best = max(best, s.totals[b, q])
    return best < cfg[CFG_TARGET]
