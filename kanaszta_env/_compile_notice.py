"""A visible line when numba compiles the kernels (an empty or outdated cache).

With an empty cache the first calls compile for tens of seconds to minutes.
So that this pause is not silent, :data:`NOTICE` listens to numba's compile
events, which numba fires only when a function is not found in its on-disk
cache (:mod:`kanaszta_env._numba_cache`), and logs one warning per part of the
project on the ``kanaszta_env`` logger, e.g. ``compiling the rules kernels
(first run only)…``. Without a logging configuration Python prints it on
stderr; silence it with ``logging.getLogger("kanaszta_env").setLevel(logging.ERROR)``.

This module must stay out of the cache key of :mod:`kanaszta_env._numba_cache`
(it compiles nothing), so that editing it does not throw the cache away.
"""

from __future__ import annotations

import logging
import time

from numba.core import event
from numba.core.caching import NullCache

LOGGER = logging.getLogger("kanaszta_env")
#: top-level package of a compiled function -> what the message calls its kernels
PARTS = {
    "kanaszta_env": "the rules kernels",
    "agents": "the bots' kernels",
    "training": "the training kernels",
}


class CompileNotice(event.Listener):
    """Logs ``compiling <part> (first run only)…`` the first time in this process
    that numba starts compiling a cached kernel of a part of the project, and
    adds up the compile time of each part (:attr:`seconds`).

    Functions that numba never caches (``inline`` helpers, compiled again in
    every process) are ignored, and so are functions of other packages; a
    callee compiled for its caller counts towards the caller.
    """

    def __init__(self) -> None:
        self.announced: set[str] = set()
        self.seconds: dict[str, float] = {}
        self._running: list[tuple[str | None, float]] = []

    @staticmethod
    def part(data: dict) -> str | None:
        """The part of the project a compile event belongs to, or None."""
        dispatcher = data.get("dispatcher")
        if dispatcher is None or isinstance(getattr(dispatcher, "_cache", None), NullCache):
            return None
        package = str(getattr(dispatcher.py_func, "__module__", "")).partition(".")[0]
        return package if package in PARTS else None

    def _outer(self) -> bool:
        return any(part is not None for part, _ in self._running)

    def on_start(self, ev: event.Event) -> None:
        """numba starts compiling a function (it was not in the cache)."""
        part = self.part(ev.data or {})
        outer = self._outer()
        self._running.append((part, time.perf_counter()))
        if part is not None and not outer and part not in self.announced:
            self.announced.add(part)
            LOGGER.warning("compiling %s (first run only)…", PARTS[part])

    def on_end(self, ev: event.Event) -> None:
        """numba has compiled the function of the matching :meth:`on_start`."""
        part, start = self._running.pop()
        if part is not None and not self._outer():
            self.seconds[part] = self.seconds.get(part, 0.0) + time.perf_counter() - start


NOTICE = CompileNotice()
event.register("numba:compile", NOTICE)
