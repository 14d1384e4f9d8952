"""Constants of the classic canasta kernels: melds, card kinds, values, phases."""

from __future__ import annotations

import numpy as np

from kanaszta_env.variants import CLASSIC as _BASE, variant_of_module  # absolute: the one registry

from ....cards import (
    GROUP_SLOTS,
    IS_BLACK_THREE,
    IS_RED_THREE,
    JOKER,
    NATURAL_RANKS,
    NUM_TYPES,
    SLOT_TYPE,
    SMALL_WILDS,
    TYPE_GROUP,
    card_type,
)

CLASSIC = variant_of_module(__name__, _BASE)  # this copy's variant of classic canasta
MAX_SEATS = 6
MAX_DECK = CLASSIC.deck_size  # 162 (C1.1)
NUM_NATURAL = 11  # natural rank groups A 4 5 ... K (cards.NATURAL_RANKS order)
WILD_MELD = 11  # sk's wilds-only meld (C5.6)
BLACK_MELD = 12  # pl's black-three meld (C10.2): 3S in slot 0, 3C in slot 3
NUM_MELDS = 13
SLOTS = GROUP_SLOTS  # naturals by suit (0-3), 2S 2H 2D 2C (4-7), joker (8)
TWO_SLOT0 = 4
JOKER_SLOT = 8
CANASTA = CLASSIC.canasta_size
MIN_MELD = CLASSIC.min_meld
MAX_WILD_MELD = CLASSIC.max_wild_group
MAX_WILDS = 3  # C5.2: wilds <= naturals and never more than three

#: C1.6 value of a melded card by type (a black three: 5, pl's meld)
VALUE = np.array(CLASSIC.card_value, dtype=np.int32)
#: value of the card in each (meld, slot); the black-three meld holds 3S / 3C in slots 0 / 3
SLOT_VALUE = np.zeros((NUM_MELDS, SLOTS), dtype=np.int32)
#: card type of each (meld, slot), -1 where no card goes
MELD_SLOT_TYPE = np.full((NUM_MELDS, SLOTS), -1, dtype=np.int8)
for _g in range(NUM_MELDS - 1):
    for _k in range(SLOTS):
        _t = SLOT_TYPE[_g, _k]
        if _g < NUM_NATURAL or _k >= TWO_SLOT0:
            MELD_SLOT_TYPE[_g, _k] = _t
            SLOT_VALUE[_g, _k] = VALUE[_t]
MELD_SLOT_TYPE[BLACK_MELD, 0] = card_type(2, 0)
MELD_SLOT_TYPE[BLACK_MELD, 3] = card_type(2, 3)
SLOT_VALUE[BLACK_MELD, 0] = SLOT_VALUE[BLACK_MELD, 3] = 5

#: natural rank group of a type (-1 otherwise), and the type classes
GROUP_OF = TYPE_GROUP
IS_RED = IS_RED_THREE
TWO_TYPES = np.array(SMALL_WILDS, dtype=np.int8)
JOKER_TYPE = JOKER
#: card types of each natural group by suit
GROUP_TYPES = np.array([[card_type(r, s) for s in range(4)] for r in NATURAL_RANKS], dtype=np.int8)
BLACK_TYPES = np.array([card_type(2, 0), card_type(2, 3)], dtype=np.int8)
#: discard kind of each card type (games/classic/actions.py KIND_*), -1 for red threes
KIND_OF = np.full(NUM_TYPES, -1, dtype=np.int8)
for _t in range(NUM_TYPES):
    if TYPE_GROUP[_t] >= 0:
        KIND_OF[_t] = TYPE_GROUP[_t]
    elif IS_BLACK_THREE[_t]:
        KIND_OF[_t] = 11
    elif _t in SMALL_WILDS:
        KIND_OF[_t] = 12
    elif _t == JOKER:
        KIND_OF[_t] = 13
#: whether an upcard must be covered by another (C3.4): a wild or a three
BAD_UPCARD = np.zeros(NUM_TYPES, dtype=np.bool_)
for _t in range(NUM_TYPES):
    BAD_UPCARD[_t] = KIND_OF[_t] >= 11 or IS_RED_THREE[_t]

# canasta kinds (C6.1), read from the composition (C6.2)
KIND_NONE, KIND_MIXED, KIND_NATURAL, KIND_WILD_TWOS, KIND_WILD_JOKER = 0, 1, 2, 3, 4
CANASTA_BONUS = np.array(CLASSIC.canasta_bonus, dtype=np.int32)
# red threes of a side (C9.4): each, and four, five, six of them (five and six: sk's 162 cards)
RED_THREE_EACH = CLASSIC.red_three_each
MANY_RED_THREES = np.array([CLASSIC.all_red_threes, 1000, 1200], dtype=np.int64)
