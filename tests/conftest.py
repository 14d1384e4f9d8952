"""Shared fixtures. The test command sets NUMBA_CACHE_DIR to a fresh folder
(see README): numba's on-disk cache can keep stale machine code of a caller
after a helper in another file changed.

Mini canasta (``tests/fourth_game``), a game that exists only for tests, is registered
here, before collection: every test that iterates over the registered games and presets
runs on it too."""

from __future__ import annotations

from fourth_game import MINI_GAME

from kanaszta_env.games import register_game

register_game(MINI_GAME)
