"""Writing parsed positions into one engine batch and reading them back, with the keys every
game's positions share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

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


def write_table(s: Any, b: int, c: dict, phases: tuple, ends: tuple, keys: tuple[str, ...]) -> None:
    """Write game ``b``'s stock and pile (the stock's top last in the arrays), phase, end,
    rng and the integer keys ``keys`` of the parsed position ``c``."""
    stock, pile = c["stock"][::-1], c["discard"]
    s.stock[b] = 0
    s.stock[b, : len(stock)] = stock
    s.stock_len[b] = len(stock)
    s.pile[b] = 0
    s.pile[b, : len(pile)] = pile
    s.pile_len[b] = len(pile)
    s.phase[b] = phases.index(c["phase"])
    for key in keys:
        getattr(s, key)[b] = c[key]
    s.end_reason[b] = ends.index(c["end_reason"])
    s.out_player[b] = -1 if c["out_player"] is None else c["out_player"]
    s.rng[b] = np.uint64(c["rng"])


def read_table(s: Any, b: int, phases: tuple, ends: tuple, keys: tuple[str, ...]) -> dict:
    """The parsed keys :func:`write_table` writes, read from game ``b``."""
    return {
        "phase": phases[int(s.phase[b])],
        **{key: int(getattr(s, key)[b]) for key in keys},
        "rng": int(s.rng[b]),
        "end_reason": ends[int(s.end_reason[b])],
        "out_player": None if s.out_player[b] < 0 else int(s.out_player[b]),
        "stock": [int(t) for t in s.stock[b, : int(s.stock_len[b])][::-1]],
        "discard": [int(t) for t in s.pile[b, : int(s.pile_len[b])]],
    }
