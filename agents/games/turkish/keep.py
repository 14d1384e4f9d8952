"""How much a Turkish kanasta hand needs a card: one scoring, read by the heuristic bot
(:mod:`agents.games.turkish.bots`) and by its compiled port, the search's rollout policy
(:mod:`agents.games.turkish.rollout`). Card type ``t`` is rank ``t // 4`` (ace 0, two 1,
…, king 12) of suit ``t % 4``; the joker is the last type; twos and the joker are wild (T2)."""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env.cards import JOKER

_TWO = 1  # the rank of the twos


@njit(cache=True)
def is_wild(t: int) -> bool:
    """Whether card type ``t`` is a two or the joker (T2)."""
    return t == JOKER or t // 4 == _TWO


@njit(cache=True)
def rank_count(hand: np.ndarray, rank: int) -> int:
    """Cards of ``hand`` of rank ``rank``, every suit."""
    return hand[rank * 4] + hand[rank * 4 + 1] + hand[rank * 4 + 2] + hand[rank * 4 + 3]


@njit(cache=True)
def _neighbours(hand: np.ndarray, t: int) -> int:
    """Cards of ``hand`` up to two ranks from ``t`` in its suit (the ace also above the king, T6.2)."""
    rank, suit = t // 4, t % 4
    near = 0
    for d in (-2, -1, 1, 2):
        if 0 <= rank + d <= 13 and hand[((rank + d) % 13) * 4 + suit] > 0:
            near += 1
    return near


@njit(cache=True)
def keep_value(hand: np.ndarray, t: int) -> float:
    """How much ``hand`` (counts by type, ``t`` among them) needs card ``t``: 3 for a wild,
    else up to 2 for other cards of its rank plus 0.75 per run neighbour (up to two)."""
    if is_wild(t):
        return 3.0
    return min(rank_count(hand, t // 4) - 1, 2) + 0.75 * min(_neighbours(hand, t), 2)


@njit(cache=True)
def joins(hand: np.ndarray, t: int) -> bool:
    """Whether card ``t`` is wild or joins ``hand`` (without it): a card of its rank or a run
    neighbour — the one-card pile worth taking."""
    return is_wild(t) or rank_count(hand, t // 4) > 0 or _neighbours(hand, t) > 0
