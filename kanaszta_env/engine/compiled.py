"""The engine's compiled API: functions that compiled consumers may call from
their own numba kernels (the search bot's simulations, fuzzing, benchmarks).

Everything here works on the state ``NamedTuple`` of
:mod:`kanaszta_env.core.state` for one game ``b`` of a batch, or on whole
batches; code above the engine imports it from here, never from ``core``.
"""

from __future__ import annotations

from ..core.borrow import borrow
from ..core.census import card_census, conserved
from ..core.game import apply_action, reset_game
from ..core.legal import legal_row
from ..core.playout import random_playout, sample_uniform
from ..core.rng import below, next_u64
from ..core.state import PHASE_OVER, State, copy_state, new_state, select

__all__ = [
    "PHASE_OVER",
    "State",
    "apply_action",
    "below",
    "borrow",
    "card_census",
    "conserved",
    "copy_state",
    "legal_row",
    "new_state",
    "next_u64",
    "random_playout",
    "reset_game",
    "sample_uniform",
    "select",
]
