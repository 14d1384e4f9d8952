"""Writing parsed positions into one engine batch (classic and Turkish positions)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine import GameBatch


def batch_of(cs: list[dict], write_game: Callable[[Any, int, dict], None]) -> GameBatch:
    """A batch holding the (validated) parsed positions ``cs`` (all of one rule set), game
    ``b`` written from ``cs[b]`` by ``write_game(state, b, cs[b])``."""
    games = GameBatch(cs[0]["rules"], len(cs))
    s = games.state._replace()  # the arrays of a fresh batch, written in place below
    for b, c in enumerate(cs):
        if c["rules"] != cs[0]["rules"]:
            raise ValueError(f"position {b} has other rules than position 0: one batch plays one rule set")
        write_game(s, b, c)
    games.state = s
    return games
