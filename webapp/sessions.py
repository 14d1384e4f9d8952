"""The server's games, each under an unguessable session id.

A session id is 32 random bytes (:func:`secrets.token_urlsafe`): holding it is
the only way to see or move its game. The store is bounded: sessions idle longer
than ``idle_seconds`` are dropped, and when it is full a new session takes the place
of the least recently used *finished* one (a session whose ``finished`` is true: a
game over, a replay at its end). A game in progress is never dropped to make room:
when every session is one, the new one is refused (:class:`StoreFull`). Every
session carries its own lock, so that requests to one game are applied one at a
time while different games run side by side.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from typing import Any, Generic, TypeVar

T = TypeVar("T")
TOKEN_BYTES = 32


class UnknownSession(KeyError):
    """No session has that id (never had, or it was dropped)."""


class StoreFull(RuntimeError):
    """The store holds its most sessions and none of them may be dropped."""


class SessionStore(Generic[T]):
    """A bounded map from session ids to sessions, least recently used first."""

    def __init__(self, max_sessions: int = 200, idle_seconds: float = 3600.0) -> None:
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {max_sessions}")
        self.max_sessions, self.idle_seconds = max_sessions, idle_seconds
        self._items: OrderedDict[str, tuple[float, T]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: T) -> str:
        """Store ``session`` under a new id and return the id."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = time.monotonic()
        with self._lock:
            self._expire(now)
            if len(self._items) >= self.max_sessions:
                done = next((t for t, (_, s) in self._items.items() if getattr(s, "finished", False)), None)
                if done is None:
                    minutes = max(1, round(self.idle_seconds / 60))
                    raise StoreFull(
                        f"the server already holds {self.max_sessions} games in progress, its most; "
                        f"try again when one ends or has been idle for {minutes} minutes"
                    )
                del self._items[done]
            self._items[token] = (now, session)
        return token

    def get(self, token: Any) -> T:
        """The session ``token``, marked as just used; :class:`UnknownSession` if none."""
        now = time.monotonic()
        with self._lock:
            self._expire(now)
            entry = self._items.get(token) if isinstance(token, str) else None
            if entry is None:
                raise UnknownSession("unknown or expired session")
            self._items[token] = (now, entry[1])
            self._items.move_to_end(token)
            return entry[1]

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def _expire(self, now: float) -> None:
        while self._items:
            token, (used, _) = next(iter(self._items.items()))
            if now - used <= self.idle_seconds:
                break
            del self._items[token]
