"""The engine: the one way anything steps a game.

* :class:`GameBatch` — a batch of games with seat controllers (external
  actions, the built-in random player, batched Python policies), reset, exact
  legal masks, step, observations, rewards per seat, auto-reset;
* :func:`kernels_for` — the rule kernels compiled for a game variant
  (:mod:`kanaszta_env.variants`), each cached on disk on its own: the rule set's entry
  points, random play, and the game's compiled API where it has one (Díszített's
  :mod:`~kanaszta_env.games.diszitett.compiled`, which its compiled bots call);
* :data:`END_NAMES` — how a hand ended (``state.end_reason``), in every game.

Nothing above this package imports :mod:`kanaszta_env.core` or a game's kernels directly.
"""

from __future__ import annotations

from ..core.common import END_NAMES
from .batch import DeadEndError, GameBatch, IllegalActionError, StepResult
from .driver import ENDED_ILLEGAL, ENDED_TERMINATED, ENDED_TRUNCATED, MAX_RESETS_PER_STEP, REWARD_MODES
from .kernels import Kernels, kernels_for
from .options import Controller, Policy, game_seeds, seat_option
from .random_policy import RandomPolicy

__all__ = [
    "ENDED_ILLEGAL",
    "ENDED_TERMINATED",
    "ENDED_TRUNCATED",
    "END_NAMES",
    "MAX_RESETS_PER_STEP",
    "REWARD_MODES",
    "Controller",
    "DeadEndError",
    "GameBatch",
    "IllegalActionError",
    "Kernels",
    "Policy",
    "RandomPolicy",
    "StepResult",
    "game_seeds",
    "kernels_for",
    "seat_option",
]
