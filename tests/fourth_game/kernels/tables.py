"""Constants of the mini canasta kernels, read from the variant this copy compiles."""

from __future__ import annotations

import numpy as np

from kanaszta_env.cards import JOKER, NUM_TYPES, RANK_2, card_rank
from kanaszta_env.variants import variant_of_module

from ..actions import MELD_RANKS
from ..spec import MINI as _BASE

MINI = variant_of_module(__name__, _BASE)  # this copy's variant of mini canasta
DECK = MINI.deck_size  # 54 (M1)
COPIES = np.array(MINI.type_copies, dtype=np.int8)
DEAL = MINI.deal_others  # M2
PLAYERS = 2
MIN_MELD = MINI.min_meld  # M4
CANASTA = MINI.canasta_size  # M8
CANASTA_BONUS = MINI.canasta_bonus[1]
GOING_OUT = MINI.going_out
VALUE = np.array(MINI.card_value, dtype=np.int32)
PENALTY = np.array(MINI.hand_penalty, dtype=np.int32)
#: M1: the jokers and the 2s are wild; the wild types in the order they are laid (M4)
IS_WILD = np.array([t == JOKER or card_rank(t) == RANK_2 for t in range(NUM_TYPES)], dtype=np.bool_)
WILD_ORDER = np.array([t for t in range(NUM_TYPES) if IS_WILD[t]], dtype=np.int64)
#: the natural rank of each meld slot (actions.MELD_RANKS)
MELD_RANK = np.array(MELD_RANKS, dtype=np.int64)
