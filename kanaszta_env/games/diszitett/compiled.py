"""The engine's compiled API: functions that compiled consumers may call from
their own numba kernels (the search bot's simulations and plans, fuzzing,
benchmarks), the rule tables they read, and the names of the state's codes.

Everything here works on the state ``NamedTuple`` of
:mod:`kanaszta_env.games.diszitett.kernels.state` for one game ``b`` of a batch, or on whole
batches; code above the engine imports it from here, never from ``core``.
The structured view of a seat (:class:`View`, its ``I_*`` scalars,
:func:`fill_view` from a state, :func:`decode_view` from an observation) is
what compiled bots read.
"""

from __future__ import annotations

from ...core.borrow import borrow
from ...core.common import opening_minimum
from ...core.playout import random_playout, sample_uniform
from ...core.rng import below, next_u64
from ...engine.states import copy_state, select
from .kernels.census import card_census, conserved
from .kernels.decode import decode_view
from .kernels.game import apply_action, reset_game
from .kernels.hands import going_out_kind
from .kernels.legal import legal_row
from .kernels.melds import (
    CANASTA_BASE,
    CANASTA_NAMES,
    canasta_kind,
    group_card_value,
    max_wilds,
    natural_group_legal,
    opening_value,
)
from .kernels.observe import CANASTA_SIZE, encode_view
from .kernels.score import HAND_PENALTY, hand_base
from .kernels.state import (
    END_NAMES,
    FREE_NAMES,
    FREE_WAITING,
    PHASE_CUT,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_PICKUP,
    PICKUP_PILE,
    State,
    new_state,
)
from .kernels.view import (
    I_CHANGED,
    I_CUT_INDEX,
    I_FRESH,
    I_HAND_NUMBER,
    I_HEART_ACES,
    I_LIFTED,
    I_LIFTED_FROM,
    I_MOVER,
    I_NEW_ACES,
    I_PHASE,
    I_PICKUP_FROM_HAND,
    I_PICKUP_GROUP,
    I_PICKUP_KIND,
    I_PICKUP_SIZE,
    I_PILE_N,
    I_SIZE,
    I_STARTER_OFFSET,
    I_STOCK_KNOWN,
    I_STOCK_N,
    I_TOP,
    I_TOP_OWNER,
    I_TURN,
    View,
    fill_view,
    fill_views,
    new_view,
    new_views,
    view_row,
)

__all__ = [
    "CANASTA_BASE",
    "CANASTA_NAMES",
    "CANASTA_SIZE",
    "END_NAMES",
    "FREE_NAMES",
    "FREE_WAITING",
    "HAND_PENALTY",
    "I_CHANGED",
    "I_CUT_INDEX",
    "I_FRESH",
    "I_HAND_NUMBER",
    "I_HEART_ACES",
    "I_LIFTED",
    "I_LIFTED_FROM",
    "I_MOVER",
    "I_NEW_ACES",
    "I_PHASE",
    "I_PICKUP_FROM_HAND",
    "I_PICKUP_GROUP",
    "I_PICKUP_KIND",
    "I_PICKUP_SIZE",
    "I_PILE_N",
    "I_SIZE",
    "I_STARTER_OFFSET",
    "I_STOCK_KNOWN",
    "I_STOCK_N",
    "I_TOP",
    "I_TOP_OWNER",
    "I_TURN",
    "PHASE_CUT",
    "PHASE_DISCARD",
    "PHASE_DRAW",
    "PHASE_MELD",
    "PHASE_NAMES",
    "PHASE_OVER",
    "PHASE_PICKUP",
    "PICKUP_PILE",
    "State",
    "View",
    "apply_action",
    "below",
    "borrow",
    "canasta_kind",
    "card_census",
    "conserved",
    "copy_state",
    "decode_view",
    "encode_view",
    "fill_view",
    "fill_views",
    "going_out_kind",
    "group_card_value",
    "hand_base",
    "legal_row",
    "max_wilds",
    "natural_group_legal",
    "new_state",
    "new_view",
    "new_views",
    "next_u64",
    "opening_minimum",
    "opening_value",
    "random_playout",
    "reset_game",
    "sample_uniform",
    "select",
    "view_row",
]
