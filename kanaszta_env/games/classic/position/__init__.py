"""Positions of classic canasta (presets ``pl`` and ``sk``): the document of
docs/position.md, "Classic canasta". :mod:`kanaszta_env.position` dispatches
here on the document's ``variant`` (and on the rules of a dumped batch).

:mod:`.parse` reads each key and derives the optional ones, :mod:`.validate`
checks the position as a whole, :mod:`.engine_state` converts to and from the
engine's :class:`~kanaszta_env.games.classic.kernels.state.ClassicState`,
:mod:`.document` writes the canonical document; :mod:`.cards` converts card
lists and melds.
"""

from __future__ import annotations

from ....position.codec import Codec
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


CODEC = Codec(parse, check, to_games, to_doc, from_games)
checked, load, load_batch, canonical, dump = (
    CODEC.checked,
    CODEC.load,
    CODEC.load_batch,
    CODEC.canonical,
    CODEC.dump,
)
