"""The declared observation layout of classic canasta (presets ``pl``, ``sk``).

The pieces, in order, with their shapes and meanings: ``docs/observation.md``
shows them beside the Díszített layout, and a test checks the compiled encoder
(:mod:`kanaszta_env.games.classic.kernels.observe`) against them piece by piece.

Seats are relative to the observer (his seat first, then in turn order) and so
are sides (his side first, then the others in side order). Card counts are
divided by the copies of that kind in the deck (so they lie in ``[0, 1]``);
open-ended counts are scaled and clipped as each meaning says. Nothing of
another seat's hand is shown except the cards publicly known to be there
(taken with the pile) — the partner's hand included (C2.9).
"""

from __future__ import annotations

import numpy as np

from ...cards import BLACK_THREES, JOKER, NATURAL_RANKS, SMALL_WILDS, card_type
from ...rules_classic import DECKS
from ...variants.classic import CLASSIC
from .actions import KIND_NAMES

#: scales of the open-ended counts (the encoder clips to the piece's range)
HAND_SIZE_SCALE = 40.0
SCORE_SCALE = 10_000.0
OPENING_SCALE = 150.0

_KINDS = f"{len(KIND_NAMES)} kinds `{' '.join(KIND_NAMES)}`"
_BY_COPIES = "count ÷ copies of the kind in the deck"
_MELDS = "11 rank melds `A 4 5 … K`, the wild meld (sk), the black-three meld (pl)"


def classic_pieces(players: int, sides: int, piece: type) -> tuple:
    """The pieces of a ``players``-seat table of ``sides`` sides, built with ``piece``
    (:class:`kanaszta_env.observation.Piece`)."""
    P, S, K = players, sides, len(KIND_NAMES)
    return (
        piece("phase", (6,), "one-hot phase: draw, meld, discard, pickup, over, answer"),
        piece("mover", (P,), "one-hot relative seat whose turn it is"),
        piece(
            "deciding",
            (P,),
            "one-hot relative seat whose decision it is (the partner while answering, C12.5)",
        ),
        piece("asked", (4,), 'one-hot state of "may I go out?" this turn: not asked, waiting, yes, no'),
        piece(
            "progress",
            (2,),
            "turns completed in the hand ÷ turn limit; hands completed ÷ hand limit (clipped)",
        ),
        piece("stock_size", (1,), "cards in the stock ÷ deck size"),
        piece(
            "opening_minimum",
            (1,),
            f"the observer's side's opening minimum ÷ {OPENING_SCALE:g} (C11, clipped)",
        ),
        piece("hand", (K,), f"own hand by kind ({_KINDS}): {_BY_COPIES}"),
        piece("hand_sizes", (P,), f"cards in each seat's hand ÷ {HAND_SIZE_SCALE:g} (clipped), own first"),
        piece(
            "known_cards",
            (P - 1, K),
            f"cards publicly known in each other seat's hand (taken with the pile): {_BY_COPIES}",
        ),
        piece("partners", (P,), "1 for the seats of the observer's side (himself included)"),
        piece("sitting_out", (P,), "one-hot seat that sits this hand out (5 players, C2.4), else 0"),
        piece("laid_before", (P,), "the seat laid cards in an earlier turn of this hand (from hand, C13.3)"),
        piece("melds", (S, 13, 3), f"each side's melds ({_MELDS}): naturals, 2s, jokers: {_BY_COPIES}"),
        piece("red_threes", (S,), "red threes laid out by each side ÷ copies"),
        piece("opened", (S,), "the side has opened (C11)"),
        piece("canasta", (S,), "the side has a canasta (C6)"),
        piece("totals", (S,), f"each side's game total ÷ {SCORE_SCALE:g} (clipped)", -1.0),
        piece("hand_scores", (S,), f"each side's score of the last hand ÷ {SCORE_SCALE:g} (clipped)", -1.0),
        piece("pile_top", (K + 1,), "one-hot kind of the pile's top card, or (last) the pile is empty"),
        piece("pile_size", (1,), "cards in the discard pile ÷ deck size"),
        piece(
            "pile_contents", (K,), f"the discard pile's cards by kind (all discarded face up): {_BY_COPIES}"
        ),
        piece("pile_wild", (1,), "the pile holds a wild (sk: frozen, C8.3)"),
        piece("took_pile", (1,), "the mover took the pile this turn (C7)"),
        piece(
            "pickup_card",
            (K + 1,),
            "one-hot kind of the taken top card whose meld is still owed, or (last) none",
        ),
        piece("pickup_rest", (1,), "cards under it still to come into the hand ÷ deck size"),
        piece("withdrawable", (1,), "cards laid since the turn's checkpoint can be taken back (C5.8)"),
        piece("pile_locked", (K,), f"pile cards not meldable this turn (sk, C7.6): {_BY_COPIES}"),
    )


def kind_copies(num_players: int) -> np.ndarray:
    """(14,) copies of each card kind in the deck (``A 4 … K``, black three, 2, joker): the divisor
    of the by-kind pieces. Two decks, three with six players (C1.1)."""
    decks = DECKS[num_players]
    return np.array([4 * decks] * 11 + [2 * decks, 4 * decks, 2 * decks], dtype=np.float64)


#: (14,) the value of a card of each kind (C1.6), as :func:`kind_copies` orders them
KIND_VALUE = np.array(
    [
        CLASSIC.card_value[t]
        for t in (*(card_type(r, 0) for r in NATURAL_RANKS), BLACK_THREES[0], SMALL_WILDS[0], JOKER)
    ],
    dtype=np.float64,
)


def observer_seats(sides: tuple[int, ...], partners: np.ndarray) -> np.ndarray:
    """(N,) a seat of the table whose partners, seen in relative order, are those of the
    ``partners`` piece (N, P) — the first such seat; -1 where none is."""
    players = len(sides)
    side = np.asarray(sides)
    seats = np.arange(players)
    out = np.full(partners.shape[0], -1, dtype=np.int64)
    for seat in range(players - 1, -1, -1):
        mine = side[(seat + seats) % players] == side[seat]
        out[((partners > 0.5) == mine).all(axis=1)] = seat
    return out


def relative_sides(sides: tuple[int, ...], partners: np.ndarray) -> np.ndarray:
    """(N, P) the side of each relative seat as the observation orders sides (the observer's 0,
    then the others in side order after it), from the ``partners`` piece (N, P) of observations
    at a table whose seats have ``sides`` (``Rules.sides()``). The observer's seat is found from
    his partners' pattern; seats with the same pattern see the sides alike (sk's 5 players differ)."""
    players = len(sides)
    side = np.asarray(sides)
    seat = observer_seats(sides, partners)
    out = (side[(seat[:, None] + np.arange(players)) % players] - side[seat][:, None]) % len(set(sides))
    out[seat < 0] = 0  # no seat of this table sees these partners
    return out
