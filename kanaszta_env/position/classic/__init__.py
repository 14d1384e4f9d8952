"""Positions of classic canasta (presets ``pl`` and ``sk``): the document of
docs/position.md, "Classic canasta". :mod:`kanaszta_env.position` dispatches
here on the document's ``variant`` (and on the rules of a dumped batch).

:mod:`.parse` reads each key and derives the optional ones, :mod:`.validate`
checks the position as a whole, :mod:`.engine_state` converts to and from the
engine's :class:`~kanaszta_env.core.classic.state.ClassicState`,
:mod:`.document` writes the canonical document; :mod:`.cards` converts card
lists and melds.
"""

from __future__ import annotations

from ...engine import GameBatch
from .document import to_doc
from .engine_state import from_games, to_games
from .parse import (
    CHECKPOINT_KEYS,
    OPTIONAL_KEYS,
    PHASES,
    PLAYER_OPTIONAL,
    PLAYER_REQUIRED,
    REQUIRED_KEYS,
    RULE_KEYS,
    SIDE_OPTIONAL,
    SIDE_REQUIRED,
    TURN_STATE_KEYS,
    parse,
)
from .validate import check

CLASSIC_VARIANTS = ("pl", "sk")

__all__ = [
    "CHECKPOINT_KEYS",
    "CLASSIC_VARIANTS",
    "OPTIONAL_KEYS",
    "PHASES",
    "PLAYER_OPTIONAL",
    "PLAYER_REQUIRED",
    "REQUIRED_KEYS",
    "RULE_KEYS",
    "SIDE_OPTIONAL",
    "SIDE_REQUIRED",
    "TURN_STATE_KEYS",
    "canonical",
    "dump",
    "load",
]


def checked(doc: dict) -> dict:
    """The parsed and validated form of a classic document."""
    c = parse(doc)
    check(c)
    return c


def load(doc: dict) -> GameBatch:
    return to_games([checked(doc)])


def load_batch(docs: list[dict]) -> GameBatch:
    return to_games([checked(doc) for doc in docs])


def canonical(doc: dict) -> dict:
    return to_doc(checked(doc))


def dump(games: GameBatch, index: int) -> dict:
    return to_doc(from_games(games, index))
