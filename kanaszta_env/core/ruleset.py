"""The rule set these kernels compile: the entry points the engine's driver calls.

Each variant's kernels are a separate import of the rule modules
(:mod:`kanaszta_env.engine.kernels`); here that copy binds the rule set its
variant names (:attr:`Variant.rule_set`, a module of the same copy), so that one
driver steps every game.
"""

from __future__ import annotations

from importlib import import_module

from kanaszta_env.variants import variant_of_module  # absolute: the one registry, from every copy

VARIANT = variant_of_module(__name__)
_ENTRY = import_module(f"{__name__.split('.')[0]}.{VARIANT.rule_set}")

NUM_ACTIONS = _ENTRY.NUM_ACTIONS
PHASE_NAMES = _ENTRY.PHASE_NAMES
PHASE_OVER = _ENTRY.PHASE_OVER
apply_action = _ENTRY.apply_action
conserved = _ENTRY.conserved
consistent = _ENTRY.consistent
encode_games = _ENTRY.encode_games
episode_truncated = _ENTRY.episode_truncated
legal_row = _ENTRY.legal_row
new_state = _ENTRY.new_state
reset_game = _ENTRY.reset_game


__all__ = [
    "NUM_ACTIONS",
    "PHASE_NAMES",
    "PHASE_OVER",
    "apply_action",
    "conserved",
    "consistent",
    "encode_games",
    "episode_truncated",
    "legal_row",
    "new_state",
    "reset_game",
]
