"""The rule set these kernels compile: the entry points the engine's driver calls.

Each variant's kernels are a separate import of the rule modules
(:mod:`kanaszta_env.engine.kernels`); here that copy picks the rule set of its
variant's meld family — the Díszített core, classic canasta's
(:mod:`.classic`) or Turkish kanasta's (:mod:`.turkish`) — so that one driver steps every game of the family.
"""

from __future__ import annotations

from .tables import VARIANT

if VARIANT.meld_family == "classic":
    from ..actions_classic import NUM_ACTIONS
    from .classic.census import conserved, sides_consistent  # noqa: F401 - the classic fuzz reads it
    from .classic.game import apply_action, episode_truncated, reset_game
    from .classic.legal import legal_row
    from .classic.observe import encode_games
    from .classic.state import PHASE_NAMES, PHASE_OVER
    from .classic.state import new_classic_state as new_state
elif VARIANT.meld_family == "turkish":
    from ..actions_turkish import NUM_ACTIONS
    from .turkish.census import conserved
    from .turkish.game import apply_action, episode_truncated, reset_game
    from .turkish.legal import legal_row
    from .turkish.observe import encode_games
    from .turkish.state import PHASE_NAMES, PHASE_OVER
    from .turkish.state import new_turkish_state as new_state
else:
    from ..actions import NUM_ACTIONS
    from .census import conserved_in as conserved
    from .game import apply_action, episode_truncated, reset_game
    from .legal import legal_row
    from .observe import encode_games
    from .state import PHASE_NAMES, PHASE_OVER, new_state

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
