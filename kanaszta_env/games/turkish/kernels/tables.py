"""Constants of the Turkish kanasta kernels: the deck, card values, meld slots, kinds."""

from __future__ import annotations

import numpy as np

from kanaszta_env.variants import TURKISH as _BASE, variant_of_module  # absolute: the one registry

from ....cards import JOKER, NUM_TYPES
from ..actions import MAX_MELDS, NEW_TYPES

TURKISH = variant_of_module(__name__, _BASE)  # this copy's variant of Turkish kanasta
DECK = TURKISH.deck_size  # 106 (T1.1)
PACKET = TURKISH.deal_others  # 11 cards in every hand and Fi (T3.1)
NUM_FIS = 2  # T3.2
PLAYERS = 4
PAIRS = 2
JK = JOKER
MELDS = MAX_MELDS
CANASTA = TURKISH.canasta_size  # 7 (T8.1)
MIN_MELD = TURKISH.min_meld  # 3 (T5.5)
RUN_WITH_WILD = 3  # consecutive naturals a run needs beside a wild (T6.3)
NATURAL_TWO_VALUE = 5  # a 2 in its own place in a run (T1.5, T6.4)
WILD_VALUE = 10  # T1.5
FI_BONUS = 100  # T14.2
NO_FI_PENALTY = 100  # T11.4
FORCED_PENALTY = 600  # T12.3
OPEN_LOW = 45  # T9.1: pair total below OPEN_THRESHOLD
OPEN_HIGH = 90  # T9.1: from OPEN_THRESHOLD on
OPEN_THRESHOLD = 900
TARGET_STEP = 2000  # T15.2: 5200 -> 7200 -> 9200
TARGET_EXTENSIONS = 2

#: T1.5 value of a card as a wild or left in hand (a natural 2 in a run: NATURAL_TWO_VALUE)
VALUE = np.array(TURKISH.card_value, dtype=np.int32)
#: rank (0 = A ... 12 = K) and suit of each type; the joker -1
RANK = np.array([t // 4 if t != JK else -1 for t in range(NUM_TYPES)], dtype=np.int8)
SUIT = np.array([t % 4 if t != JK else -1 for t in range(NUM_TYPES)], dtype=np.int8)
#: index into NEW_TYPES of each type, -1 for the types that cannot start a meld
NEW_TYPE = np.array(NEW_TYPES, dtype=np.int8)  # card type of each new_* action
NEW_INDEX = np.full(NUM_TYPES, -1, dtype=np.int16)
for _i, _t in enumerate(NEW_TYPES):
    NEW_INDEX[_t] = _i

# canasta kinds (T8.1), fixed at the end of the completing turn (T8.2)
KIND_NONE, KIND_HALF, KIND_WHOLE, KIND_FULL = 0, 1, 2, 3
KIND_NAMES = ("none", "half", "whole", "full")
CANASTA_BONUS = np.array(TURKISH.canasta_bonus, dtype=np.int32)
GOING_OUT = TURKISH.going_out  # T14.3

# forced canasta opening of a pair (T12)
FORCED_NO, FORCED_OWED, FORCED_DONE = 0, 1, 2
