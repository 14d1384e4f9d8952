"""Which games' (and bots') numba kernels this server process has already run.

The first game of a preset in a process loads its rules kernels from numba's
on-disk cache, or compiles them when the cache is empty or outdated (tens of
seconds to a minute, :mod:`kanaszta_env._compile_notice`); a bot's own kernels
likewise on its first game. That happens inside the request that starts the
game. ``/api/options`` reports, per game, whether its kernels are *warm* (a game
of the preset has been dealt in this process) and the bots whose kernels are, so
that the page can say "compiling the rules for … (first use)" while such a
request is pending instead of waiting silently. Kernels are process-wide, so the
tracker is too (:data:`WARMTH`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable


class Warmth:
    """The presets whose rules kernels have run in this process, and per preset the bots'."""

    def __init__(self) -> None:
        self._games: set[str] = set()
        self._bots: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    def mark(self, preset: str, bots: Iterable[object] = ()) -> None:
        """A game of ``preset`` has been dealt (and ``bots`` have moved in it)."""
        with self._lock:
            self._games.add(preset)
            self._bots.setdefault(preset, set()).update(b for b in bots if isinstance(b, str))

    def warm(self, preset: str) -> bool:
        """Whether a game of ``preset`` has been dealt in this process."""
        with self._lock:
            return preset in self._games

    def warm_bots(self, preset: str) -> list[str]:
        """The bots (by the names asked for) that have played ``preset`` in this process."""
        with self._lock:
            return sorted(self._bots.get(preset, ()))


#: the process's tracker (numba's kernels are loaded once per process)
WARMTH = Warmth()
