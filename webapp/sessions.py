"""The server's games, each under an unguessable session id.

A session id is 32 random bytes (:func:`secrets.token_urlsafe`): holding it is
the only way to see or move its game. The store is bounded: when it is full,
the session used least recently is dropped; sessions idle longer than
``idle_seconds`` are dropped too. Every session carries its own lock, so that
requests to one game are applied one at a time while different games run side
by side.
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


class SessionStore(Generic[T]):
    """A bounded map from session ids to sessions, least recently used first."""

    def __init__(self, max_sessions: int = 200, idle_seconds: float = 3600.0) -> None:
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {max_sessions}")
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self._items: OrderedDict[str, tuple[float, T]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: T) -> str:
        """Store ``session`` under a new id and return the id."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = time.monotonic()
        with self._lock:
            self._expire(now)
            while len(self._items) >= self.max_sessions:
                self._items.popitem(last=False)
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
