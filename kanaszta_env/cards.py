"""Cards, card types and the text notation of the rules R1 (docs/rules/diszitett.md).

The 112 cards come in 53 *card types*: 52 rank-suit pairs (two copies each) and
the joker (eight copies). Cards of one type are indistinguishable, so every
hand, group and pile is stored as counts or as a sequence of type indices.

Type index ``rank * 4 + suit`` with ranks ``A 2 3 … K`` (0–12) and suits
``S H D C`` (0–3); the joker is type 52.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
NUM_SUITS = 4
NUM_TYPES = 53
JOKER = 52


def card_type(rank: int, suit: int) -> int:
    """Type index of the card of ``rank`` (0 = A … 12 = K) and ``suit`` (0–3)."""
    return rank * NUM_SUITS + suit


def card_rank(t: int) -> int:
    """Rank (0 = A … 12 = K) of a non-joker card type."""
    return t // NUM_SUITS


def card_suit(t: int) -> int:
    """Suit (0–3, ``S H D C``) of a non-joker card type."""
    return t % NUM_SUITS


TYPE_NAMES = (*tuple(r + s for r in RANKS for s in SUITS), "JK")
_NAME_TO_TYPE = {name: t for t, name in enumerate(TYPE_NAMES)}

# --- classes of card types -------------------------------------------------------
RANK_2, RANK_3 = 1, 2
SMALL_WILDS = tuple(card_type(RANK_2, s) for s in range(4))
BLACK_THREES = (card_type(RANK_3, 0), card_type(RANK_3, 3))
RED_THREES = (card_type(RANK_3, 1), card_type(RANK_3, 2))
HEART_ACE = card_type(0, 1)

#: the 11 meldable natural ranks (R1.5), in group order: A 4 5 6 7 8 9 10 J Q K
NATURAL_RANKS = (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
NUM_GROUPS = 12  # one group per natural rank + the wilds-only group (R10.4)
WILD_GROUP = 11
GROUP_NAMES = (*tuple(RANKS[r] for r in NATURAL_RANKS), "wild")

# Each group is stored as 9 counts: naturals by suit, then the wild types.
GROUP_SLOTS = 9
WILD_SLOT0 = NUM_SUITS  # slots 4..7 are 2S 2H 2D 2C, slot 8 the joker
JOKER_SLOT = WILD_SLOT0 + NUM_SUITS
NUM_WILD_KINDS = len(SMALL_WILDS) + 1  # the four 2s and the joker
#: the two classes of wilds (small: a 2, big: the joker), e.g. the wilds placed in a group this turn
SMALL_WILD, BIG_WILD = 0, 1
NUM_WILD_CLASSES = 2
WILD_TYPES = (*SMALL_WILDS, JOKER)
WILD_NAMES = tuple(TYPE_NAMES[t] for t in WILD_TYPES)

# type -> group index of a natural (-1 for wilds and threes)
TYPE_GROUP = np.full(NUM_TYPES, -1, dtype=np.int8)
for _g, _r in enumerate(NATURAL_RANKS):
    for _s in range(4):
        TYPE_GROUP[card_type(_r, _s)] = _g
# type -> wild slot (0..4) or -1
TYPE_WILD_SLOT = np.full(NUM_TYPES, -1, dtype=np.int8)
for _k, _t in enumerate(WILD_TYPES):
    TYPE_WILD_SLOT[_t] = _k
IS_WILD = TYPE_WILD_SLOT >= 0
IS_BLACK_THREE = np.zeros(NUM_TYPES, dtype=np.bool_)
IS_BLACK_THREE[list(BLACK_THREES)] = True
IS_RED_THREE = np.zeros(NUM_TYPES, dtype=np.bool_)
IS_RED_THREE[list(RED_THREES)] = True
IS_ACE = np.zeros(NUM_TYPES, dtype=np.bool_)
IS_ACE[[card_type(0, suit) for suit in range(NUM_SUITS)]] = True
#: type -> index of a red three in a collection (0 = 3H, 1 = 3D) or -1
RED_THREE_INDEX = np.full(NUM_TYPES, -1, dtype=np.int8)
for _i, _t in enumerate(RED_THREES):
    RED_THREE_INDEX[_t] = _i
IS_SMALL_WILD = np.zeros(NUM_TYPES, dtype=np.bool_)
IS_SMALL_WILD[list(SMALL_WILDS)] = True


#: type of the card held in each (group, slot); slot < 4 of the wild group is unused
SLOT_TYPE = np.full((NUM_GROUPS, GROUP_SLOTS), -1, dtype=np.int8)
for _g, _r in enumerate(NATURAL_RANKS):
    for _s in range(4):
        SLOT_TYPE[_g, _s] = card_type(_r, _s)
for _g in range(NUM_GROUPS):
    for _k, _t in enumerate(WILD_TYPES):
        SLOT_TYPE[_g, WILD_SLOT0 + _k] = _t


def parse_card(token: str) -> int:
    """Type index of a card written as in R1.2 (case-insensitive): ``"10s"`` → 36."""
    if not isinstance(token, str):
        raise ValueError(f"card must be a string like 'AH', got {token!r}")
    t = _NAME_TO_TYPE.get(token.upper())
    if t is None:
        raise ValueError(f"unknown card {token!r}: expected rank A 2-10 J Q K + suit S H D C, or JK")
    return t


def parse_cards(tokens: Iterable[str]) -> list[int]:
    """Type indices of a list of card strings; the first bad token raises ``ValueError``."""
    if isinstance(tokens, str):
        raise ValueError(f"expected a list of cards, got the string {tokens!r}")
    return [parse_card(tok) for tok in tokens]


def card_name(t: int) -> str:
    """Upper-case notation of card type ``t``."""
    return TYPE_NAMES[int(t)]


def counts_to_cards(counts: np.ndarray) -> list[str]:
    """Card list (in type order) of a vector of 53 counts."""
    return [TYPE_NAMES[t] for t in range(NUM_TYPES) for _ in range(int(counts[t]))]


def cards_to_counts(cards: Iterable[str]) -> np.ndarray:
    """Vector of 53 counts of a list of card strings."""
    counts = np.zeros(NUM_TYPES, dtype=np.int16)
    for t in parse_cards(cards):
        counts[t] += 1
    return counts


# --- the default game's tables, for Python code (the kernels read games/diszitett/kernels/tables.py) ------
# Imported last: the variant specs use the notation above.
from kanaszta_env.variants.diszitett import DISZITETT as _DEFAULT  # noqa: E402  (absolute: one spec object)

#: copies of each type in the deck of the default game (R1.1)
TYPE_COPIES = np.array(_DEFAULT.type_copies, dtype=np.int8)
DECK_SIZE = _DEFAULT.deck_size
#: R1.6 card value by type; a black three is -100 (its value left in hand)
CARD_VALUE = np.array(_DEFAULT.card_value, dtype=np.int32)
#: R12.3 value of one card in a group of each group index (the rank it stands for)
GROUP_CARD_VALUE = np.array(
    [CARD_VALUE[card_type(r, 0)] for r in NATURAL_RANKS] + [_DEFAULT.wild_group_card_opening], dtype=np.int32
)
