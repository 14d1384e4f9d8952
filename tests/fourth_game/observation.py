"""The observation of mini canasta: its pieces, in the order ``kernels/observe.py`` writes
them. Seats are relative to the observer (his seat first). Nothing of the other hand but
its size, nothing of the stock but its size (M3: every other card lies face up)."""

from __future__ import annotations

from .actions import NUM_MELDS
from .spec import MINI

DECK = MINI.deck_size
MAX_WILDS = 3  # wilds fewer than four naturals (M5)
SCORE_SCALE = 10_000.0
_CARDS = "53 card types `AS AH AD AC 2S … KC JK`, count ÷ copies in the deck"


def mini_pieces(piece: type) -> tuple:
    """The pieces of the observation, built with ``piece`` (:class:`kanaszta_env.observation.Piece`)."""
    return (
        piece("phase", (3,), "one-hot phase: draw, meld, over"),
        piece("to_move", (2,), "one-hot relative seat whose decision it is"),
        piece("progress", (2,), "turns completed ÷ turn limit; hands completed ÷ hand limit (clipped)"),
        piece("stock_size", (1,), f"cards in the stock ÷ {DECK}"),
        piece("hand", (53,), f"own hand: {_CARDS}"),
        piece("hand_sizes", (2,), f"cards in each hand ÷ {DECK}, own first"),
        piece("melds", (2, 53), f"each seat's melded cards, own first: {_CARDS}"),
        piece("meld_wilds", (2, NUM_MELDS), f"wilds on each seat's meld of each rank A, 3 … K ÷ {MAX_WILDS}"),
        piece("pile_top", (54,), "one-hot type of the pile's top card, or (last) the pile is empty"),
        piece("pile_contents", (53,), f"the discard pile: {_CARDS}"),
        piece("totals", (2,), f"each seat's game total ÷ {SCORE_SCALE:g} (clipped), own first", -1.0),
        piece("hand_scores", (2,), f"each seat's score of the last hand ÷ {SCORE_SCALE:g} (clipped)", -1.0),
    )
