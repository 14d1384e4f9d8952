"""Starting games, hands and turns of Turkish kanasta (T2.2, T3): the deal of four hands
and two Fi packets, the first player, a Fi becoming used (T11.3)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import NUM_TYPES
from ....core.config import CFG_RANDOM_STARTER, CFG_TARGET
from ....core.rng import below, next_u64, shuffle
from .state import END_NONE, FI_WAITING, PHASE_DRAW
from .tables import FORCED_NO, NUM_FIS, PACKET, PLAYERS


@njit(cache=True)
def reset_game(s, cfg, b: int, seed: np.uint64) -> None:
    """Start a new game in slot ``b`` from ``seed``: with ``random_starter`` the first dealer
    is drawn (T2.2 [D]), else seat 0 plays first."""
    s.rng[b] = seed
    next_u64(s.rng, b)
    s.totals[b, :] = 0
    s.hand_scores[b, :] = 0
    s.hand_number[b] = 0
    s.target[b] = cfg[CFG_TARGET]
    s.starter[b] = below(s.rng, b, PLAYERS) if cfg[CFG_RANDOM_STARTER] == 1 else 0
    start_hand(s, b)


@njit(cache=True)
def start_hand(s, b: int) -> None:
    """Shuffle the 106 cards and deal four hands and the two Fis of 11; the rest is the
    stock and the pile starts empty (T3)."""
    s.hand[b] = 0
    s.known[b] = 0
    s.opened[b] = 0
    s.layoff[b] = 0
    s.melds[b] = 0
    s.meld_owner[b] = -1
    s.meld_size[b] = 0
    s.meld_kind[b] = 0
    s.meld_count[b] = 0
    s.forced[b] = FORCED_NO
    s.fi_taker[b] = FI_WAITING
    s.fi_used[b] = 0
    s.turn[b] = 0
    s.end_reason[b] = END_NONE
    s.out_player[b] = -1
    n = 0
    for t in range(NUM_TYPES):
        for _ in range(2):
            s.stock[b, n] = t
            n += 1
    shuffle(s.rng, b, s.stock[b], n)
    for q in range(PLAYERS):
        for _ in range(PACKET):
            n -= 1
            s.hand[b, q, s.stock[b, n]] += 1
    for f in range(NUM_FIS):
        for i in range(PACKET):
            n -= 1
            s.fi[b, f, i] = s.stock[b, n]
    s.stock_len[b] = n
    s.pile_len[b] = 0
    begin_turn(s, b, s.starter[b])


@njit(cache=True, inline="always")
def begin_turn(s, b: int, q: int) -> None:
    """Seat ``q`` starts a turn in the draw phase; a Fi he took by discarding is now used (T11.3)."""
    s.phase[b] = PHASE_DRAW
    s.to_move[b] = q
    s.changed[b] = 0
    for f in range(NUM_FIS):
        if s.fi_taker[b, f] == q:
            s.fi_used[b, f] = 1


@njit(cache=True, inline="always")
def checkpoint(s, b: int, p: int) -> None:
    """What ``withdraw`` returns to (T9.6): the hand and the pair's melds now."""
    pair = p % 2
    s.cp_hand[b] = s.hand[b, p]
    s.cp_melds[b] = s.melds[b, pair]
    s.cp_owner[b] = s.meld_owner[b, pair]
    s.cp_size[b] = s.meld_size[b, pair]
    s.cp_count[b] = s.meld_count[b, pair]
    s.changed[b] = 0
