"""Counting and taking cards of a hand or meld (count arrays of the 53 card types)."""

from __future__ import annotations

from numba import njit

from kanaszta_env.cards import NUM_SUITS

from .tables import WILD_ORDER


@njit(cache=True)
def naturals(counts, rank: int) -> int:
    """Cards of the natural ``rank`` in ``counts``."""
    n = 0
    for suit in range(NUM_SUITS):
        n += counts[rank * NUM_SUITS + suit]
    return n


@njit(cache=True)
def wilds(counts) -> int:
    """Wild cards in ``counts`` (M1)."""
    n = 0
    for t in WILD_ORDER:
        n += counts[t]
    return n


@njit(cache=True)
def take_natural(hand, rank: int) -> int:
    """Take the lowest card of ``rank`` (by suit) out of ``hand``; its type (M4, M5)."""
    for suit in range(NUM_SUITS):
        t = rank * NUM_SUITS + suit
        if hand[t] > 0:
            hand[t] -= 1
            return t
    return -1


@njit(cache=True)
def take_wild(hand) -> int:
    """Take the lowest wild (a 2 before a joker) out of ``hand``; its type (M4, M5)."""
    for t in WILD_ORDER:
        if hand[t] > 0:
            hand[t] -= 1
            return t
    return -1
