"""kanaszta-env: Díszített kanaszta (Hungarian decorated canasta) for reinforcement learning."""

from . import (
    _compile_notice,  # noqa: F401  (says "compiling …" when the cache is cold)
    _numba_cache,  # noqa: F401  (first: sets numba's cache folder before any kernel)
)
from .engine import GameBatch, IllegalActionError, StepResult
from .envs import registration as _registration  # noqa: F401  (registers kanaszta_v0 and Kanaszta-v0)
from .envs.aec import env, raw_env
from .games import register_preset
from .games.diszitett.actions import ACTION_NAMES, NUM_ACTIONS, action_from_name, action_name
from .rules import Rules

__all__ = [
    "ACTION_NAMES",
    "NUM_ACTIONS",
    "GameBatch",
    "IllegalActionError",
    "Rules",
    "StepResult",
    "action_from_name",
    "action_name",
    "env",
    "raw_env",
    "register_preset",
]
__version__ = "0.1.0"
