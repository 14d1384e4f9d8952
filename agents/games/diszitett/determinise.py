"""Determinisation: a full game state consistent with one player's view.

The search bot cannot see the other hands or the stock, so it samples them:
the cards of the ``unknown`` piece (the deck minus everything the player has
seen) are dealt at random to the hidden part of the other hands (their
publicly known cards stay) and to the unknown part of the stock (its known
bottom cards stay at the bottom); red threes go only to the stock, since a
hand never holds one (R4). Everything public is copied from the view (the
engine's structured view of the seat, the same information as its observation).
The order of the discard pile below its top card is not observed and is
sampled too.

The sampled game puts the observer in seat 0 (seats stay in turn order).
Encoding it for seat 0 gives back the observation in the ``draw`` and
``discard`` phases; in the ``meld`` phase the checkpoint is taken to be the
present (the search only uses meld-phase states to try a discard, which ends
the turn).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env.cards import DECK_SIZE, IS_RED_THREE, NUM_TYPES
from kanaszta_env.games.diszitett import compiled as C
from kanaszta_env.games.diszitett.compiled import View, below, next_u64

from .plan_groups import NAT_TYPE


@njit(cache=True)
def determinise(v: View, s, b: int, seed: np.uint64) -> None:
    """Write into game ``b`` of the state batch ``s`` a game consistent with the
    row view ``v`` (observer in seat 0), sampling hidden cards from ``seed``."""
    P = v.groups.shape[0]
    info = v.info
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = seed
    next_u64(rng, 0)
    # --- public per-player facts -------------------------------------------------
    starter = (P - info[C.I_STARTER_OFFSET]) % P
    turn = info[C.I_TURN]
    for q in range(P):
        s.groups[b, q] = v.groups[q]
        s.sep_heart_aces[b, q] = v.heart_aces[q]
        s.red_threes[b, q] = v.red_threes[q]
        s.red_three_debt[b, q] = v.red_three_debt[q]
        s.twins[b, q] = v.twins[q]
        s.opened[b, q] = v.opened[q]
        s.free_pickup[b, q] = v.free[q]
        s.known[b, q] = v.known[q]
        s.turns_played[b, q] = (turn - (q - starter + P) % P + P - 1) // P
        s.totals[b, q] = v.total[q]
        s.hand_scores[b, q] = v.last_score[q]
    s.hand[b, 0] = v.hand
    # --- the hidden cards: dealt to the other hands and the stock ---------------------
    pool = np.empty(DECK_SIZE, dtype=np.int64)
    reds = 0
    m = 0
    for t in range(NUM_TYPES):
        for _ in range(v.unknown[t]):
            if IS_RED_THREE[t]:
                reds += 1
            else:
                pool[m] = t
                m += 1
    for i in range(m - 1, 0, -1):
        j = below(rng, 0, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    stock_n = info[C.I_STOCK_N]
    known_bottom = min(info[C.I_STOCK_KNOWN], stock_n)
    stock_hidden = stock_n - known_bottom
    k = 0
    for q in range(1, P):
        s.hand[b, q] = v.known[q]
        hidden = v.hand_size[q]
        for t in range(NUM_TYPES):
            hidden -= v.known[q, t]
        if q == P - 1:  # whatever the stock does not take (robust to clipped sizes)
            hidden = m + reds - k - stock_hidden
        for _ in range(max(hidden, 0)):
            if k < m:
                s.hand[b, q, pool[k]] += 1
                k += 1
    # stock: known bottom cards first (index 0 is the bottom), then the rest
    i = 0
    for t in range(NUM_TYPES):
        for _ in range(v.stock_bottom[t]):
            if i < known_bottom:
                s.stock[b, i] = t
                i += 1
    start = i
    for t in range(NUM_TYPES):
        if IS_RED_THREE[t]:
            for _ in range(v.unknown[t]):
                s.stock[b, i] = t
                i += 1
    while k < m:
        s.stock[b, i] = pool[k]
        i += 1
        k += 1
    for x in range(i - 1, start, -1):  # shuffle the hidden part of the stock
        y = start + below(rng, 0, x - start + 1)
        tmp = s.stock[b, x]
        s.stock[b, x] = s.stock[b, y]
        s.stock[b, y] = tmp
    s.stock_len[b] = i
    s.stock_known[b] = info[C.I_STOCK_KNOWN]
    # --- discard pile: the top card on top, the rest in a sampled order -------------------
    n = info[C.I_PILE_N]
    top = info[C.I_TOP]
    i = 0
    skipped = False
    for t in range(NUM_TYPES):
        for _ in range(v.pile[t]):
            if t == top and not skipped:
                skipped = True
                continue
            s.pile[b, i] = t
            s.pile_owner[b, i] = 0
            i += 1
    for x in range(i - 1, 0, -1):
        y = below(rng, 0, x + 1)
        tmp = s.pile[b, x]
        s.pile[b, x] = s.pile[b, y]
        s.pile[b, y] = tmp
    if n > 0 and top >= 0:
        s.pile[b, i] = top
        s.pile_owner[b, i] = max(info[C.I_TOP_OWNER], 0)
        i += 1
    s.pile_len[b] = i
    s.pile_fresh[b] = info[C.I_FRESH]
    # --- flow and the current turn -------------------------------------------------------
    s.cut_cards[b] = 0
    s.cut_kept[b] = 0
    s.cut_index[b] = 3
    mover = info[C.I_MOVER]
    s.phase[b] = info[C.I_PHASE]
    s.to_move[b] = mover
    s.starter[b] = starter
    s.turn[b] = turn
    s.hand_number[b] = info[C.I_HAND_NUMBER]
    s.end_reason[b] = 0
    s.out_player[b] = -1
    s.rng[b] = next_u64(rng, 0)
    # The turn's checkpoint is taken as the position now, not rebuilt from the view's ``laid``:
    # in the middle of a pile pickup the top card then looks unmelded, and a world can reach a
    # position without a legal move (the rollouts stop there).
    s.cp_hand[b] = s.hand[b, mover]
    s.cp_groups[b] = s.groups[b, mover]
    s.cp_sep_heart_aces[b] = s.sep_heart_aces[b, mover]
    s.locked[b] = 0
    s.lifted[b] = -1
    s.lifted_from[b] = -1
    s.changed[b] = 0
    s.pickup_kind[b] = max(info[C.I_PICKUP_KIND], 0)
    s.pickup_size[b] = info[C.I_PICKUP_SIZE]
    g = info[C.I_PICKUP_GROUP]
    s.pickup_card[b] = NAT_TYPE[g, 0] if g >= 0 else -1
    s.pickup_from_hand[b] = info[C.I_PICKUP_FROM_HAND]
