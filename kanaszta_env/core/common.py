"""What every game's rule set shares: the codes of how a hand ended, a hand's card count,
the opening minimum the config vector sets for a player (a fixed minimum, or a
schedule by his total), and a pile taken whole into a hand."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import NUM_TYPES
from .config import CFG_OPENING_MIN, CFG_SCHEDULE, CFG_SCHEDULE_LEN

# how a hand ended (``state.end_reason``); each game's rules say when
END_NONE = 0
END_OUT = 1  # a player went out
END_EXHAUSTED = 2  # the cards ran out
END_TRUNCATED = 3  # the turn limit
END_NAMES = ("none", "out", "exhausted", "turn_limit")


@njit(cache=True)
def opening_minimum(totals: np.ndarray, cfg: np.ndarray, b: int, p: int) -> int:
    """R12.2: the fixed minimum, or the schedule's value for the player's total."""
    steps = cfg[CFG_SCHEDULE_LEN]
    if steps == 0:
        return cfg[CFG_OPENING_MIN]
    total = totals[b, p]
    minimum = cfg[CFG_SCHEDULE + 1]
    for i in range(steps):
        if total >= cfg[CFG_SCHEDULE + 2 * i]:
            minimum = cfg[CFG_SCHEDULE + 2 * i + 1]
    return minimum


@njit(cache=True)
def hand_size(hand: np.ndarray) -> int:
    total = 0
    for t in range(NUM_TYPES):
        total += hand[t]
    return total


@njit(cache=True, inline="always")
def pile_to_hand(s, b: int, p: int) -> None:
    """The whole discard pile of game ``b`` joins player ``p``'s hand, every card of it known
    to the table (it lay face up)."""
    for i in range(s.pile_len[b]):
        t = s.pile[b, i]
        s.hand[b, p, t] += 1
        s.known[b, p, t] += 1
    s.pile_len[b] = 0
