"""Drawing from the stock: red threes drawn are laid out and replaced at once
(R4.3), and an empty stock is replaced by the shuffled discard pile (R5.4)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import IS_RED_THREE, RED_THREE_INDEX
from ....core.rng import shuffle


# Helpers on the per-decision path take the arrays they touch, not the state
# tuple: numba increfs and decrefs all 41 arrays of the tuple at every call.
@njit(cache=True)
def _refill_from_pile(stock, stock_len, stock_known, pile, pile_len, pile_fresh, rng, b: int) -> None:
    """R5.4: an empty stock is replaced at once by the shuffled discard pile."""
    n = pile_len[b]
    for i in range(n):
        stock[b, i] = pile[b, i]
    shuffle(rng, b, stock[b], np.int64(n))
    stock_len[b] = n
    stock_known[b] = 0
    pile_len[b] = 0
    pile_fresh[b] = 0


@njit(cache=True)
def _draw(s, b: int, p: int) -> bool:
    """Draw one card into the hand; red threes go to the collection and are
    replaced at once (R4.3). False if the stock is exhausted (R5.4)."""
    return _draw_card(
        s.hand, s.known, s.red_threes, s.stock, s.stock_len, s.stock_known, s.pile, s.pile_len, s.pile_fresh,
        s.rng, b, p,
    )  # fmt: skip


@njit(cache=True)
def _draw_card(
    hand, known, red_threes, stock, stock_len, stock_known, pile, pile_len, pile_fresh, rng, b, p
) -> bool:
    """:func:`_draw` on the arrays."""
    while True:
        n = stock_len[b]
        if n == 0:
            return False
        t = stock[b, n - 1]
        stock_len[b] = n - 1
        revealed = n - 1 < stock_known[b]  # one of the known bottom cards
        if revealed:
            stock_known[b] = n - 1
        if n == 1 and pile_len[b] > 0:
            _refill_from_pile(stock, stock_len, stock_known, pile, pile_len, pile_fresh, rng, b)
        if IS_RED_THREE[t]:
            red_threes[b, p, RED_THREE_INDEX[t]] += 1
            continue
        hand[b, p, t] += 1
        if revealed:
            known[b, p, t] += 1
        return True
