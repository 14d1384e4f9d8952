"""Positions of Díszített kanaszta (presets ``2003-02``, ``2003-01``): the document of
docs/position.md. :mod:`kanaszta_env.position` reaches this codec through the game
(:attr:`Game.position`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ....engine import DeadEndError, GameBatch
from .document import to_doc
from .engine_state import from_games, to_games
from .parse import parse
from .validate import check_position, check_turn_state


def _checked(doc: dict | str) -> tuple[dict, GameBatch]:
    """The parsed form of ``doc`` and its game, every check run in the order that
    reports the real problem first: each key, the position as a whole, the card
    census (on the built state), then the turn state — so that a hand edited
    without its checkpoint reports the cards, not the checkpoint."""
    c = parse(doc)
    check_position(c)
    try:
        games = to_games(c)
    except DeadEndError:  # a position with no legal action: an inconsistent turn is the real problem
        check_turn_state(c)
        raise
    check_turn_state(c)
    return c, games


def load(doc: dict | str) -> GameBatch:
    return _checked(doc)[1]


def load_batch(docs: Sequence[dict | str]) -> GameBatch:
    games = [_checked(doc)[1] for doc in docs]
    if any(g.rules != games[0].rules for g in games):
        raise ValueError("load_batch takes positions of one rule set")
    batch = GameBatch(games[0].rules, len(games))
    batch.state = type(games[0].state)(
        *(np.concatenate(f) for f in zip(*(g.state for g in games), strict=True))
    )
    return batch


def canonical(doc: dict | str) -> dict:
    return to_doc(_checked(doc)[0])


def dump(games: GameBatch, index: int) -> dict:
    return to_doc(from_games(games, index))
