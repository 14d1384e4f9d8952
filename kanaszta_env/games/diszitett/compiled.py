"""The engine's compiled API: functions that compiled consumers may call from
their own numba kernels (the search bot's simulations and plans, fuzzing,
benchmarks), the rule tables they read, and the names of the state's codes.

Everything here works on the state ``NamedTuple`` of
:mod:`kanaszta_env.games.diszitett.kernels.state` for one game ``b`` of a batch, or on whole
batches; code above the engine imports it from here, never from ``core``.
The structured view of a seat (:class:`View`, its ``I_*`` scalars,
:func:`fill_view` from a state, :func:`decode_view` from an observation) is
what compiled bots read. Every name imported here (``name as name``) is the API.
"""

from __future__ import annotations

from ...core.borrow import borrow as borrow
from ...core.common import opening_minimum as opening_minimum
from ...core.playout import random_playout as random_playout, sample_uniform as sample_uniform
from ...core.rng import below as below, next_u64 as next_u64
from ...engine.states import copy_state as copy_state, select as select
from .kernels.census import card_census as card_census, conserved as conserved
from .kernels.decode import decode_view as decode_view
from .kernels.game import apply_action as apply_action, reset_game as reset_game
from .kernels.hands import going_out_kind as going_out_kind
from .kernels.legal import legal_row as legal_row
from .kernels.melds import (
    CANASTA_BASE as CANASTA_BASE,
    CANASTA_NAMES as CANASTA_NAMES,
    canasta_kind as canasta_kind,
    group_card_value as group_card_value,
    max_wilds as max_wilds,
    natural_group_legal as natural_group_legal,
    opening_value as opening_value,
)
from .kernels.observe import CANASTA_SIZE as CANASTA_SIZE, encode_view as encode_view
from .kernels.score import hand_base as hand_base
from .kernels.state import (
    END_NAMES as END_NAMES,
    FREE_NAMES as FREE_NAMES,
    FREE_WAITING as FREE_WAITING,
    PHASE_CUT as PHASE_CUT,
    PHASE_DISCARD as PHASE_DISCARD,
    PHASE_DRAW as PHASE_DRAW,
    PHASE_MELD as PHASE_MELD,
    PHASE_NAMES as PHASE_NAMES,
    PHASE_OVER as PHASE_OVER,
    PHASE_PICKUP as PHASE_PICKUP,
    PICKUP_PILE as PICKUP_PILE,
    State as State,
    new_state as new_state,
)
from .kernels.tables import HAND_PENALTY as HAND_PENALTY
from .kernels.view import (
    I_CHANGED as I_CHANGED,
    I_CUT_INDEX as I_CUT_INDEX,
    I_FRESH as I_FRESH,
    I_HAND_NUMBER as I_HAND_NUMBER,
    I_HEART_ACES as I_HEART_ACES,
    I_LIFTED as I_LIFTED,
    I_LIFTED_FROM as I_LIFTED_FROM,
    I_MOVER as I_MOVER,
    I_NEW_ACES as I_NEW_ACES,
    I_PHASE as I_PHASE,
    I_PICKUP_FROM_HAND as I_PICKUP_FROM_HAND,
    I_PICKUP_GROUP as I_PICKUP_GROUP,
    I_PICKUP_KIND as I_PICKUP_KIND,
    I_PICKUP_SIZE as I_PICKUP_SIZE,
    I_PILE_N as I_PILE_N,
    I_SIZE as I_SIZE,
    I_STARTER_OFFSET as I_STARTER_OFFSET,
    I_STOCK_KNOWN as I_STOCK_KNOWN,
    I_STOCK_N as I_STOCK_N,
    I_TOP as I_TOP,
    I_TOP_OWNER as I_TOP_OWNER,
    I_TURN as I_TURN,
    View as View,
    fill_view as fill_view,
    fill_views as fill_views,
    new_view as new_view,
    new_views as new_views,
    view_row as view_row,
)
