"""The observation encoder of classic canasta: writes the pieces that
:mod:`kanaszta_env.games.classic.observation` declares, in that order — what one seat
knows (its hand, every side's melds, red threes and scores, all hand sizes,
the pile's top, size and public contents, the state of the turn) and never a
hidden card of another seat, the partner included (C2.9).

Seats and sides are relative: the observer first, then in turn order; his
side first, then the others in side order after it.

A count ÷ copies is written as count × (1 ÷ copies): the same float32 for every
count a deck holds (three decks included, where 1/12 is inexact), with no division.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....core.borrow import borrow
from ....core.common import opening_minimum
from ....core.config import CFG_MAX_HANDS, CFG_MAX_TURNS, CFG_PLAYERS
from ....rules_classic import CC_DECKS, CC_SIDES
from ..observation import HAND_SIZE_SCALE, OPENING_SCALE, SCORE_SCALE, classic_pieces
from .melds import is_canasta, naturals
from .tables import BLACK_MELD, JOKER_SLOT, JOKER_TYPE, KIND_OF, MAX_DECK, NUM_MELDS, TWO_SLOT0

NUM_KINDS = 14
KIND_BLACK_THREE, KIND_JOKER = 11, 13
_GROUPS = JOKER_TYPE // 4  # the types before the joker, four to a group (a rank's suits)


class _Size:
    """A stand-in for ``encoding.Piece`` that only counts slots."""

    def __init__(self, name: str, shape: tuple[int, ...], meaning: str, low: float = 0.0) -> None:
        self.size = 1
        for d in shape:
            self.size *= d


def observation_size(players: int, sides: int) -> int:
    """Length of the observation vector for ``players`` seats in ``sides`` sides."""
    return sum(p.size for p in classic_pieces(players, sides, _Size))


@njit(inline="always")
def _per_copy(kind: int, per_rank: float, per_pair: float) -> float:
    """1 ÷ the copies of a card kind in the deck: ``per_pair`` for the black threes and the
    jokers (2 a deck), else ``per_rank`` (4 of a rank a deck, the twos too)."""
    return per_pair if kind in (KIND_BLACK_THREE, KIND_JOKER) else per_rank


@njit(inline="always")
def _clip(x: float, low: float) -> float:
    return min(max(x, low), 1.0)


@njit(inline="always")
def _count(counts) -> int:
    """Cards in a row of 53 type counts."""
    n = 0
    for t in range(counts.shape[0]):
        n += counts[t]
    return n


@njit(inline="always")
def _kinds(counts, out, start: int, per_rank: float, per_pair: float) -> None:
    """Counts of the 53 card types by kind, each ÷ the kind's copies (slots left 0 for no card).

    A kind's types are added in type order, rounding to float32 after each: with three
    decks (1/12 inexact) the rounded sum depends on that order, which the values keep."""
    if _count(counts) == 0:  # the known and locked cards, mostly
        return
    for g in range(_GROUPS):
        t = 4 * g
        k = KIND_OF[t]
        per = _per_copy(k, per_rank, per_pair)
        x = np.float32(0.0)
        for u in range(t, t + 4):
            if KIND_OF[u] == k:  # the threes' group holds the red threes, of no kind
                x = np.float32(x + counts[u] * per)
        out[start + k] = x
    out[start + KIND_JOKER] = counts[JOKER_TYPE] * per_pair


@njit(inline="always")
def _encode_sides_and_pile(s, cfg, b: int, p: int, out, i: int) -> int:
    """Every side's melds, red threes, opened, canasta, totals and hand scores, then the
    discard pile, from slot ``i``; returns the next slot."""
    players = cfg[CFG_PLAYERS]
    sides = cfg[CC_SIDES]
    decks = cfg[CC_DECKS]
    per_rank, per_pair = 1.0 / (4.0 * decks), 1.0 / (2.0 * decks)
    deck = MAX_DECK * decks / 3.0
    own = s.side_of[b, p]
    flags = i + 3 * NUM_MELDS * sides  # red threes, opened, canasta, totals, hand scores
    for r in range(sides):
        d = (own + r) % sides
        grp = s.groups[b, d]
        canasta = False
        for g in range(NUM_MELDS):  # naturals (the black-three meld: its threes), 2s, jokers
            natural = naturals(grp, g)
            twos = grp[g, TWO_SLOT0] + grp[g, TWO_SLOT0 + 1] + grp[g, TWO_SLOT0 + 2] + grp[g, TWO_SLOT0 + 3]
            jokers = grp[g, JOKER_SLOT]
            out[i] = natural * (per_pair if g == BLACK_MELD else per_rank)
            out[i + 1] = twos * per_rank
            out[i + 2] = jokers * per_pair
            canasta |= is_canasta(grp, g)
            i += 3
        out[flags + r] = s.red_threes[b, d] * per_pair
        out[flags + sides + r] = 1.0 if s.opened[b, d] else 0.0
        out[flags + 2 * sides + r] = 1.0 if canasta else 0.0
        for q in range(players):  # totals and hand scores are kept per seat, equal within a side
            if s.side_of[b, q] == d:
                out[flags + 3 * sides + r] = _clip(s.totals[b, q] / SCORE_SCALE, -1.0)
                out[flags + 4 * sides + r] = _clip(s.hand_scores[b, q] / SCORE_SCALE, -1.0)
                break
    i = flags + 5 * sides
    # the discard pile
    n = s.pile_len[b]
    if n > 0 and KIND_OF[s.pile[b, n - 1]] >= 0:
        out[i + KIND_OF[s.pile[b, n - 1]]] = 1.0
    elif n == 0:
        out[i + NUM_KINDS] = 1.0
    i += NUM_KINDS + 1
    out[i] = n / deck
    i += 1
    for k in range(n):
        kind = KIND_OF[s.pile[b, k]]
        if kind >= 0:
            out[i + kind] += _per_copy(kind, per_rank, per_pair)
    i += NUM_KINDS
    out[i] = 1.0 if s.pile_wilds[b] > 0 else 0.0
    i += 1
    return i


@njit(inline="always")
def encode_one(s, cfg, b: int, p: int, out) -> int:
    """Write seat ``p``'s observation of game ``b`` into ``out`` (zeroed here);
    returns the number of slots written (the declared size)."""
    out[:] = 0.0
    players = cfg[CFG_PLAYERS]
    decks = cfg[CC_DECKS]
    per_rank, per_pair = 1.0 / (4.0 * decks), 1.0 / (2.0 * decks)
    deck = MAX_DECK * decks / 3.0
    i = 0
    # phase, mover, deciding, asked, progress, stock, opening minimum
    if 1 <= s.phase[b] <= 6:
        out[i + s.phase[b] - 1] = 1.0
    i += 6
    out[i + (s.mover[b] - p) % players] = 1.0
    i += players
    out[i + (s.to_move[b] - p) % players] = 1.0
    i += players
    out[i + s.asked[b]] = 1.0
    i += 4
    out[i] = _clip(s.turn[b] / max(cfg[CFG_MAX_TURNS], 1), 0.0)
    out[i + 1] = _clip(s.hand_number[b] / max(cfg[CFG_MAX_HANDS], 1), 0.0)
    i += 2
    out[i] = s.stock_len[b] / deck
    i += 1
    out[i] = _clip(opening_minimum(s.totals, cfg, b, p) / OPENING_SCALE, 0.0)
    i += 1
    # own hand; every seat's hand size; the other seats' publicly known cards
    _kinds(s.hand[b, p], out, i, per_rank, per_pair)
    i += NUM_KINDS
    for r in range(players):
        out[i + r] = _clip(_count(s.hand[b, (p + r) % players]) / HAND_SIZE_SCALE, 0.0)
    i += players
    for r in range(1, players):
        _kinds(s.known[b, (p + r) % players], out, i, per_rank, per_pair)
        i += NUM_KINDS
    # partners, the seat sitting out, who laid cards earlier in the hand
    own = s.side_of[b, p]
    for r in range(players):
        q = (p + r) % players
        out[i + r] = 1.0 if s.side_of[b, q] == own else 0.0
        out[i + players + r] = 1.0 if s.sitter[b] == q else 0.0
        out[i + 2 * players + r] = 1.0 if s.laid_before[b, q] else 0.0
    i += 3 * players
    i = _encode_sides_and_pile(s, cfg, b, p, out, i)
    # the turn: the pickup and its obligation, what may be withdrawn, locked pile cards
    out[i] = 1.0 if s.took_pile[b] else 0.0
    i += 1
    if s.pickup_card[b] >= 0 and KIND_OF[s.pickup_card[b]] >= 0:
        out[i + KIND_OF[s.pickup_card[b]]] = 1.0
    else:
        out[i + NUM_KINDS] = 1.0
    i += NUM_KINDS + 1
    out[i] = s.pickup_rest[b] / deck
    i += 1
    out[i] = 1.0 if s.changed[b] > 0 else 0.0
    i += 1
    _kinds(s.pile_locked[b], out, i, per_rank, per_pair)
    i += NUM_KINDS
    return i


@njit(cache=True)
def encode_games(s, cfg, rows, seats, obs) -> int:
    """Observations of seat ``seats[i]`` in game ``rows[i]`` into ``obs[i]``;
    returns the slots written per row (0 for no rows). The per-row code is
    inlined and reads a borrowed state: passing the state tuple to a call costs
    more than a row's encoding (core/borrow.py)."""
    s = borrow(s)
    written = 0
    for i in range(rows.shape[0]):
        written = encode_one(s, cfg, rows[i], seats[i], obs[i])
    return written


__all__ = ["encode_games", "encode_one", "observation_size"]
