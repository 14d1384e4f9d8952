"""The constants of the variant these kernels are compiled for.

numba freezes module globals into the machine code, so every fact of a game
the kernels read — deck, deal, meld sizes, score tables — is defined here from
the :class:`~kanaszta_env.variants.Variant` this copy of the rule modules was
imported for (:func:`kanaszta_env.variants.variant_of_module`): the package's
own modules compile the default game, and
:func:`kanaszta_env.engine.kernels.kernels_for` imports a fresh copy of them per
other variant, each with its own on-disk cache.
"""

from __future__ import annotations

import numpy as np

from kanaszta_env.variants import variant_of_module  # absolute: the one registry, from every copy

from ....cards import NATURAL_RANKS, RED_THREES, card_type

VARIANT = variant_of_module(__name__)

# --- cards and deal (R1, R3) ----------------------------------------------------------
TYPE_COPIES = np.array(VARIANT.type_copies, dtype=np.int8)
DECK_SIZE = VARIANT.deck_size
CUT_CARDS = VARIANT.cut_cards
DEAL_STARTER = VARIANT.deal_starter
DEAL_OTHERS = VARIANT.deal_others
#: card value by type (R1.6); a black three is its in-hand value
CARD_VALUE = np.array(VARIANT.card_value, dtype=np.int32)
#: what a card of each type left in hand costs (R16.4)
HAND_PENALTY = np.array(VARIANT.hand_penalty, dtype=np.int32)
#: value of one card in a group of each group index when opening (R12.3)
GROUP_CARD_VALUE = np.array(
    [VARIANT.card_value[card_type(r, 0)] for r in NATURAL_RANKS] + [VARIANT.wild_group_card_opening],
    dtype=np.int32,
)

# --- melds (R10, R11) ---------------------------------------------------------------
MIN_MELD = VARIANT.min_meld
MAX_NATURAL_GROUP = VARIANT.max_natural_group
MAX_MIXED_GROUP = MAX_NATURAL_GROUP - 1  # a group of the largest size holds no wild (R10.2)
MAX_WILD_GROUP = VARIANT.max_wild_group
CANASTA_SIZE = VARIANT.canasta_size
CANASTA_BONUS = np.array(VARIANT.canasta_bonus, dtype=np.int32)

# --- score (R16, R17) ---------------------------------------------------------------
RED_THREES_IN_DECK = sum(VARIANT.type_copies[t] for t in RED_THREES)
RED_THREE_EACH = VARIANT.red_three_each
ALL_RED_THREES = VARIANT.all_red_threes
TWIN = VARIANT.twin
GOING_OUT = VARIANT.going_out
FROM_HAND = VARIANT.from_hand
TABLE_CLEARING = VARIANT.table_clearing
TABLE_CLEARING_PILE = VARIANT.table_clearing_pile
SEPARATE_HEART_ACE = VARIANT.separate_heart_ace
HALF_TAX_FROM, QUARTER_TAX_FROM, TENTH_TAX_FROM = VARIANT.tax_brackets
