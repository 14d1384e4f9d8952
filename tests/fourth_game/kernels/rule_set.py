"""Mini canasta's rule set: the entry points the engine's driver calls
(:mod:`kanaszta_env.core.ruleset` binds the rule set its variant names)."""

from ..actions import NUM_ACTIONS
from .census import conserved, consistent
from .game import apply_action, episode_truncated, reset_game
from .legal import legal_row
from .observe import encode_games
from .state import PHASE_NAMES, PHASE_OVER, new_state

__all__ = ["NUM_ACTIONS", "PHASE_NAMES", "PHASE_OVER", "apply_action", "conserved", "consistent",
           "encode_games", "episode_truncated", "legal_row", "new_state", "reset_game"]  # fmt: skip
