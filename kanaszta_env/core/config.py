"""The layout of the integer config vector the kernels read (:meth:`Rules.to_config`):
the shared positions ``CFG_*``, the sides of the seats every game writes
(:meth:`Game.write_config`) and the driver reads, and room for a game's own keys.

Kept apart from :mod:`kanaszta_env.rules` so that the kernels, compiled once per game
variant, import a module of constants only.
"""

from __future__ import annotations

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
#: a game's own keys start here (classic canasta's: rules_classic.CC_*), around the sides below
CFG_GAME = 32
MAX_SEATS = 6
# the sides every game writes: partners share rewards (the driver's win reward and lineups)
CFG_SIDES = CFG_GAME + 2  # number of sides
CFG_SIDE_OF = CFG_SIDES + 1  # MAX_SEATS entries: the side of each seat
CFG_SIZE = 60
assert CFG_SCHEDULE + 2 * MAX_SCHEDULE_STEPS <= CFG_GAME
