"""Card census of a classic canasta game: the 108 or 162 cards (C1.1) all accounted for,
and the side-shared state consistent (C2.1)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....core.config import CFG_PLAYERS
from ....rules_classic import CC_DECKS, CC_SIDES
from .melds import all_valid, naturals, size, wilds
from .state import END_OUT, PHASE_DRAW, PHASE_OVER
from .tables import IS_RED, JOKER_TYPE, KIND_OF, MAX_WILDS, MELD_SLOT_TYPE, NUM_MELDS, WILD_MELD


@njit(cache=True)
def conserved(s, cfg, b: int, scratch: np.ndarray) -> bool:
    """Whether game ``b`` holds exactly its deck: every card type in stock, pile, hands and
    melds, and the red threes (laid out as a count per side) in total."""
    scratch[:] = 0
    for i in range(s.stock_len[b]):
        scratch[s.stock[b, i]] += 1
    for i in range(s.pile_len[b]):
        scratch[s.pile[b, i]] += 1
    red = 0
    for q in range(s.hand.shape[1]):
        for t in range(scratch.shape[0]):
            scratch[t] += s.hand[b, q, t]
        for g in range(MELD_SLOT_TYPE.shape[0]):
            for k in range(MELD_SLOT_TYPE.shape[1]):
                if MELD_SLOT_TYPE[g, k] >= 0:
                    scratch[MELD_SLOT_TYPE[g, k]] += s.groups[b, q, g, k]
        red += s.red_threes[b, q]
    decks = cfg[CC_DECKS]
    for t in range(scratch.shape[0]):
        if IS_RED[t]:
            red += scratch[t]
        elif scratch[t] != (2 * decks if t == JOKER_TYPE else decks):
            return False
    return red == 2 * decks


@njit(cache=True)
def sides_consistent(s, cfg, b: int) -> bool:
    """Whether game ``b``'s side-shared state agrees with itself (C2.1): every active seat plays
    in turn (their turn counts differ by at most one, C2.4); partners have the same
    total and hand score; at a turn's boundary every side's melds are complete (C5.1) within
    the wild limits (C5.2), a side with melds has opened (C11), and no melds lie beyond the
    last side; the pile's wild count matches the pile (C8.3)."""
    players = cfg[CFG_PLAYERS]
    least, most = 1 << 30, -1
    for p in range(players):  # every active seat takes its turn in the round (C2.4)
        if s.next_seat[b, p] >= 0:
            least = min(least, s.turns_played[b, p])
            most = max(most, s.turns_played[b, p])
    if most - least > 1:
        return False
    for p in range(players):
        for q in range(players):
            if s.side_of[b, p] == s.side_of[b, q] and (
                s.totals[b, p] != s.totals[b, q] or s.hand_scores[b, p] != s.hand_scores[b, q]
            ):
                return False
    wild_cards = 0
    for i in range(s.pile_len[b]):
        t = s.pile[b, i]
        wild_cards += t == JOKER_TYPE or KIND_OF[t] == 12
    if wild_cards != s.pile_wilds[b]:
        return False
    boundary = s.phase[b] == PHASE_DRAW or s.phase[b] == PHASE_OVER
    for d in range(s.groups.shape[1]):
        grp = s.groups[b, d]
        melded = 0
        for g in range(NUM_MELDS):
            melded += size(grp, g)
        if d >= cfg[CC_SIDES]:
            if melded:
                return False
            continue
        if not boundary:
            continue
        # the side that went out laid its last melds in a turn that ended the hand, not at a
        # turn's end, where opening is recorded (the score reads the flag as it was, C13.3)
        went_out = (
            s.phase[b] == PHASE_OVER and s.end_reason[b] == END_OUT and s.side_of[b, s.out_player[b]] == d
        )
        if not all_valid(grp) or (melded > 0 and not s.opened[b, d] and not went_out):
            return False
        for g in range(WILD_MELD):
            if size(grp, g) > 0 and (wilds(grp, g) > MAX_WILDS or wilds(grp, g) > naturals(grp, g)):
                return False
    return True
