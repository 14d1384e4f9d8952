"""Card lists of a classic position <-> the engine's counts: the deck of the
rules (108 or 162 cards, C1.1), melds as card lists <-> (13, 9) slot counts."""

from __future__ import annotations

import numpy as np

from ....cards import IS_BLACK_THREE, IS_RED_THREE, NUM_TYPES, TYPE_GROUP, TYPE_WILD_SLOT
from ....position.cardlists import counts, from_counts, from_rows, names, row  # noqa: F401 - the package's card lists
from ....rules import Rules
from ....rules_classic import DECKS
from ..kernels.tables import BLACK_MELD, MELD_SLOT_TYPE, NUM_MELDS, SLOTS, WILD_MELD

#: meld index -> name used in messages (natural ranks, then the wild and black-three melds)
MELD_NAMES = ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "wild", "black three")
#: melds of a side: meld index -> card types, sorted
Melds = dict[int, list[int]]


def decks(rules: Rules) -> int:
    """Decks shuffled together: three with six players, else two (C1.1)."""
    return DECKS[rules.num_players]


def copies(rules: Rules) -> np.ndarray:
    """(53,) copies of each card type in the game's deck (two jokers per deck)."""
    out = np.full(NUM_TYPES, decks(rules), dtype=np.int64)
    out[-1] = 2 * decks(rules)
    return out


def meld_index(types: list[int]) -> int | None:
    """The meld a card list belongs to: its natural rank, the wild meld (wilds only), the
    black-three meld (black threes only); ``None`` if it mixes kinds or holds a red three."""
    if any(IS_RED_THREE[t] for t in types):
        return None
    if all(IS_BLACK_THREE[t] for t in types):
        return BLACK_MELD
    if any(IS_BLACK_THREE[t] for t in types):
        return None
    ranks = {int(TYPE_GROUP[t]) for t in types if TYPE_WILD_SLOT[t] < 0}
    if len(ranks) > 1:
        return None
    return ranks.pop() if ranks else WILD_MELD


def meld_row(types: list[int]) -> np.ndarray:
    """The (9,) slot counts of one meld's cards (naturals and black threes by suit, wilds 4-8:
    the slots of any row of the package's group arrays, whatever its meld)."""
    return row(types)


def melds_array(melds: Melds) -> np.ndarray:
    """A side's melds as the engine's (13, 9) array."""
    out = np.zeros((NUM_MELDS, SLOTS), dtype=np.int8)
    for g, types in melds.items():
        out[g] = meld_row(types)
    return out


def melds_from_array(grp: np.ndarray) -> Melds:
    """A side's non-empty melds from the engine's (13, 9) array, cards in type order."""
    return from_rows(grp, MELD_SLOT_TYPE)


def melds_counts(melds: Melds) -> np.ndarray:
    """(53,) counts of every card in a side's melds."""
    return counts([t for types in melds.values() for t in types])


def doc_melds(melds: Melds) -> list[list[str]]:
    """Melds as card-name lists, in meld order (A 4 ... K, wild, black three)."""
    return [names(melds[g]) for g in sorted(melds)]
