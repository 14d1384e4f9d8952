"""The layout of the integer config vector the kernels read (:meth:`Rules.to_config`):
the shared positions ``CFG_*``; each game's own keys follow from ``rules_classic.CC_BASE``.

Kept apart from :mod:`kanaszta_env.rules` so that the kernels, compiled once per game
variant, import a module of constants only.
"""

from __future__ import annotations

from ..rules_classic import CC_BASE, CC_END

MAX_SCHEDULE_STEPS = 8
# positions in the config vector read by the kernels
CFG_PLAYERS = 0
CFG_HEART_ACES = 1
CFG_OPENING_MIN = 2
CFG_TARGET = 3
CFG_MAX_TURNS = 4
CFG_EPISODE_GAME = 5
CFG_MAX_HANDS = 6
CFG_RANDOM_STARTER = 7
CFG_SCHEDULE_LEN = 8
CFG_SCHEDULE = 9  # then pairs (threshold, minimum)
CFG_SIZE = CC_END  # the games' keys follow the shared ones (rules_classic.CC_*)
assert CFG_SCHEDULE + 2 * MAX_SCHEDULE_STEPS <= CC_BASE
