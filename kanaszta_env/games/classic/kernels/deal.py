"""Starting games and hands (C2.8, C3): seats and sides, the deal, red threes
laid out and replaced, the upcard; drawing from the stock (C4.2)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import NUM_TYPES
from ....core.config import CFG_PLAYERS, CFG_RANDOM_STARTER
from ....core.rng import below, next_u64, shuffle
from ....rules_classic import CC_DEAL, CC_DECKS, CC_FIVE, CC_SIDE_OF
from .state import ASKED_NOT, END_NONE, PHASE_DRAW
from .tables import BAD_UPCARD, IS_RED, JOKER_TYPE, KIND_OF


@njit(cache=True)
def reset_game(s, cfg, b: int, seed: np.uint64) -> None:
    """Start a new game in slot ``b`` from ``seed``: the first dealer is random (C2.8)
    when ``random_starter``, else seat 0 plays first."""
    s.rng[b] = seed
    next_u64(s.rng, b)
    players = cfg[CFG_PLAYERS]
    s.totals[b, :] = 0
    s.hand_scores[b, :] = 0
    s.hand_number[b] = 0
    for q in range(players):
        s.side_of[b, q] = cfg[CC_SIDE_OF + q]
    s.starter[b] = below(s.rng, b, players) if cfg[CFG_RANDOM_STARTER] == 1 else 0
    s.sitter[b] = -1
    if cfg[CC_FIVE] == 1:  # C2.4: the trio member after the first player sits out first
        s.sitter[b] = _next_trio_member(s, b, s.starter[b], players)
    start_hand(s, cfg, b)


@njit(cache=True)
def _next_trio_member(s, b: int, seat: int, players: int) -> int:
    """The trio member (side 0) after ``seat`` in seat order, for the 5-player sit-out (C2.4)."""
    q = seat
    for _ in range(players):
        q = (q + 1) % players
        if s.side_of[b, q] == 0 and q != s.starter[b]:
            return q
    return -1


@njit(cache=True)
def _seat_order(s, b: int, players: int) -> None:
    """Who plays after whom: clockwise; with five players the four active seats alternate
    sides (C2.4) and the sitter has no turn."""
    for q in range(players):
        s.next_seat[b, q] = (q + 1) % players
    sit = s.sitter[b]
    if sit < 0:
        return
    s.next_seat[b, sit] = -1
    # walk from the first player, always to the next active seat of the other side not yet
    # placed (two of the trio and the pair alternate), and close the round at the first player
    first = s.starter[b]
    q = first
    placed = 1 << first
    for _ in range(3):
        nxt = q
        for _ in range(players):
            nxt = (nxt + 1) % players
            if nxt != sit and s.side_of[b, nxt] != s.side_of[b, q] and not placed & (1 << nxt):
                break
        s.next_seat[b, q] = nxt
        placed |= 1 << nxt
        q = nxt
    s.next_seat[b, q] = first


@njit(cache=True)
def start_hand(s, cfg, b: int) -> None:
    """Shuffle, deal (C3.1), lay out and replace red threes (C3.2), turn the upcard (C3.3-C3.4)."""
    players = cfg[CFG_PLAYERS]
    s.hand[b] = 0
    s.known[b] = 0
    s.laid_before[b] = 0
    s.turns_played[b] = 0
    s.groups[b] = 0
    s.red_threes[b] = 0
    s.opened[b] = 0
    s.turn[b] = 0
    s.end_reason[b] = END_NONE
    s.out_player[b] = -1
    s.out_how[b] = 0
    copies = cfg[CC_DECKS]
    n = 0
    for t in range(NUM_TYPES):
        for _ in range(copies if t != JOKER_TYPE else 2 * copies):
            s.stock[b, n] = t
            n += 1
    shuffle(s.rng, b, s.stock[b], n)
    s.stock_len[b] = n
    s.pile_len[b] = 0
    s.pile_wilds[b] = 0
    _seat_order(s, b, players)
    deal = cfg[CC_DEAL]
    for _ in range(deal):
        q = s.starter[b]
        for _ in range(players):
            if s.next_seat[b, q] >= 0:
                _take_top(s, b, q)
            q = (q + 1) % players
    q = s.starter[b]
    for _ in range(players):  # C3.2: seat by seat from the first player
        if s.next_seat[b, q] >= 0:
            _replace_red_threes(s, b, q)
        q = (q + 1) % players
    while s.stock_len[b] > 0:  # C3.4: rejected upcards stay in the pile
        t = _pop(s, b)
        _push_pile(s, b, t)
        if not BAD_UPCARD[t]:
            break
    begin_turn(s, b, s.starter[b])


@njit(cache=True)
def _pop(s, b: int) -> int:
    n = s.stock_len[b] - 1
    s.stock_len[b] = n
    return s.stock[b, n]


@njit(cache=True)
def _push_pile(s, b: int, t: int) -> None:
    s.pile[b, s.pile_len[b]] = t
    s.pile_len[b] += 1
    if KIND_OF[t] >= 12:
        s.pile_wilds[b] += 1


@njit(cache=True)
def _take_top(s, b: int, q: int) -> None:
    s.hand[b, q, _pop(s, b)] += 1


@njit(cache=True)
def _replace_red_threes(s, b: int, q: int) -> None:
    """Lay out the red threes of seat ``q``'s hand and replace each from the stock."""
    side = s.side_of[b, q]
    while True:
        found = 0
        for t in range(NUM_TYPES):
            if IS_RED[t] and s.hand[b, q, t] > 0:
                found += s.hand[b, q, t]
                s.red_threes[b, side] += s.hand[b, q, t]
                s.hand[b, q, t] = 0
        if found == 0 or s.stock_len[b] == 0:
            return
        for _ in range(found):
            if s.stock_len[b] > 0:
                _take_top(s, b, q)


@njit(cache=True, inline="always")
def draw_one(s, b: int, q: int) -> int:
    """Draw the top stock card into seat ``q``'s hand; a red three is laid out for the side
    instead (C4.2). Returns the card type, or -1 when the stock is empty."""
    if s.stock_len[b] == 0:
        return -1
    t = _pop(s, b)
    if IS_RED[t]:
        s.red_threes[b, s.side_of[b, q]] += 1
    else:
        s.hand[b, q, t] += 1
    return t


@njit(cache=True, inline="always")
def begin_turn(s, b: int, q: int) -> None:
    """Seat ``q`` starts a turn in the draw phase; the turn's records are cleared."""
    s.phase[b] = PHASE_DRAW
    s.to_move[b] = q
    s.mover[b] = q
    s.changed[b] = 0
    s.took_pile[b] = 0
    s.pickup_card[b] = -1
    s.pickup_rest[b] = 0
    s.pile_locked[b] = 0
    s.asked[b] = ASKED_NOT
    s.start_groups[b] = s.groups[b, s.side_of[b, q]]
