"""The engine's compiled API: functions that compiled consumers may call from
their own numba kernels (the search bot's simulations and plans, fuzzing,
benchmarks), the rule tables they read, and the names of the state's codes.

Everything here works on the state ``NamedTuple`` of
:mod:`kanaszta_env.core.state` for one game ``b`` of a batch, or on whole
batches; code above the engine imports it from here, never from ``core``.
"""

from __future__ import annotations

from ..core.borrow import borrow
from ..core.census import card_census, conserved
from ..core.game import apply_action, reset_game
from ..core.legal import legal_row, opening_minimum
from ..core.melds import (
    CANASTA_BASE,
    CANASTA_NAMES,
    canasta_kind,
    group_card_value,
    max_wilds,
    natural_group_legal,
    opening_value,
)
from ..core.playout import random_playout, sample_uniform
from ..core.rng import below, next_u64
from ..core.score import HAND_PENALTY, hand_base
from ..core.state import (
    END_NAMES,
    FREE_NAMES,
    PHASE_NAMES,
    PHASE_OVER,
    PICKUP_PILE,
    State,
    copy_state,
    new_state,
    select,
)

__all__ = [
    "CANASTA_BASE",
    "CANASTA_NAMES",
    "END_NAMES",
    "FREE_NAMES",
    "HAND_PENALTY",
    "PHASE_NAMES",
    "PHASE_OVER",
    "PICKUP_PILE",
    "State",
    "apply_action",
    "below",
    "borrow",
    "canasta_kind",
    "card_census",
    "conserved",
    "copy_state",
    "group_card_value",
    "hand_base",
    "legal_row",
    "max_wilds",
    "natural_group_legal",
    "new_state",
    "next_u64",
    "opening_minimum",
    "opening_value",
    "random_playout",
    "reset_game",
    "sample_uniform",
    "select",
]
