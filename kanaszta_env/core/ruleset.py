"""The rule set these kernels compile: the entry points the engine's driver calls.

Each variant's kernels are a separate import of the rule modules
(:mod:`kanaszta_env.engine.kernels`); here that copy binds the rule set its
variant names (:attr:`Variant.rule_set`, a module of the same copy), so that one
driver steps every game.
"""

from __future__ import annotations

from importlib import import_module

from .tables import VARIANT

_ENTRY = import_module(f"{__name__.split('.')[0]}.{VARIANT.rule_set}")

NUM_ACTIONS = _ENTRY.NUM_ACTIONS
PHASE_NAMES = _ENTRY.PHASE_NAMES
PHASE_OVER = _ENTRY.PHASE_OVER
apply_action = _ENTRY.apply_action
conserved = _ENTRY.conserved
encode_games = _ENTRY.encode_games
episode_truncated = _ENTRY.episode_truncated
legal_row = _ENTRY.legal_row
new_state = _ENTRY.new_state
reset_game = _ENTRY.reset_game


def __getattr__(name: str) -> object:
    """A rule set's own extra entry points (classic's ``sides_consistent``)."""
    try:
        return getattr(_ENTRY, name)
    except AttributeError:
        raise AttributeError(f"the rule set {VARIANT.rule_set} has no {name!r}") from None


__all__ = [
    "NUM_ACTIONS",
    "PHASE_NAMES",
    "PHASE_OVER",
    "apply_action",
    "conserved",
    "encode_games",
    "episode_truncated",
    "legal_row",
    "new_state",
    "reset_game",
]
