"""The declared observation layout of Turkish kanasta (preset ``tr``).

The pieces, in order, with their shapes and meanings; the compiled encoder
(:mod:`kanaszta_env.games.turkish.kernels.observe`) writes them in this order and a test
checks it piece by piece. Seats are relative to the observer (his seat first,
then in turn order: 1 his left-hand opponent, 2 his partner, 3 the other
opponent); pairs too (his pair first). Card counts are divided by the copies
in the deck (2 of every type). Nothing of another hand is shown but the cards
publicly known to be there (taken with the pile), and no Fi card before it is
taken (T2.4, T3.4).
"""

from __future__ import annotations

from ...variants.turkish import TURKISH
from .actions import MAX_MELDS

#: scales of open-ended counts (the encoder clips to the piece's range)
HAND_SIZE_SCALE = 40.0
SCORE_SCALE = 10_000.0
OPENING_SCALE = 90.0
DECK_SIZE = TURKISH.deck_size
STOCK_SIZE = 40

_CARDS = "53 card types `AS AH AD AC 2S … KC JK`, count ÷ 2"
_PAIRS = "own pair first"


def turkish_pieces(piece: type) -> tuple:
    """The pieces of the Turkish observation, built with ``piece``
    (:class:`kanaszta_env.observation.Piece`)."""
    M = MAX_MELDS
    return (
        piece("phase", (4,), "one-hot phase: draw, meld, discard, over"),
        piece("to_move", (4,), "one-hot relative seat whose decision it is"),
        piece("progress", (2,), "turns completed ÷ turn limit; hands completed ÷ hand limit (clipped)"),
        piece("stock_size", (1,), f"cards in the stock ÷ {STOCK_SIZE}"),
        piece("hand", (53,), f"own hand: {_CARDS}"),
        piece("hand_sizes", (4,), f"cards in each seat's hand ÷ {HAND_SIZE_SCALE:g} (clipped), own first"),
        piece(
            "known_cards",
            (3, 53),
            f"cards publicly known in each other seat's hand (taken with the pile): {_CARDS}",
        ),
        piece("opened", (4,), "the seat has opened this hand (T9)"),
        piece("layoff", (4,), "the seat is a layer-off this hand (T10.2)"),
        piece(
            "fis",
            (2, 6),
            "for Fi 1 and Fi 2: one-hot relative seat that took it (4), or still on the table (1); "
            "it counts as used (T11.3)",
        ),
        piece("forced", (2, 2), f"each pair ({_PAIRS}) owes / has made a forced canasta opening (T12)"),
        piece("totals", (2,), f"each pair's game total ÷ {SCORE_SCALE:g} (clipped), {_PAIRS}", -1.0),
        piece("hand_scores", (2,), f"each pair's score of the last hand ÷ {SCORE_SCALE:g} (clipped)", -1.0),
        piece(
            "requirement",
            (2,),
            f"the observer's opening requirement ÷ {OPENING_SCALE:g} (45 or 90, T9.1); "
            "1 if his pair owes a forced canasta opening instead (T12.2)",
        ),
        piece("target", (1,), f"the game's target (5200, 7200 or 9200, T15) ÷ {SCORE_SCALE:g}"),
        piece("melds", (2, M, 53), f"each pair's {M} meld slots ({_PAIRS}): {_CARDS}"),
        piece(
            "meld_owner",
            (2, M, 2),
            "one-hot which member of the pair laid the meld: the observer's pair (himself, his partner), "
            "the other pair (his left-hand opponent, his right-hand opponent); zeros for a free slot",
        ),
        piece(
            "meld_kind", (2, M, 3), "one-hot canasta kind of the meld: half, whole, full (T8); zeros if none"
        ),
        piece(
            "meld_changed", (2, M), "the meld changed since the mover's checkpoint this turn (withdrawable)"
        ),
        piece("pile_top", (54,), "one-hot type of the pile's top card, or (last) the pile is empty"),
        piece("pile_size", (1,), f"cards in the discard pile ÷ {DECK_SIZE}"),
        piece("pile_contents", (53,), f"the discard pile's cards (all discarded face up): {_CARDS}"),
        piece("withdrawable", (1,), "cards laid since the turn's checkpoint can be taken back (T9.6)"),
    )
