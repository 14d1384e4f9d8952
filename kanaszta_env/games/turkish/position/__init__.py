"""Positions of Turkish kanasta (preset ``tr``): the document of docs/position.md,
"Turkish kanasta". :mod:`kanaszta_env.position` dispatches here on the document's
``variant`` (and on the rules of a dumped batch).

:mod:`.parse` reads each key and derives the optional ones, :mod:`.validate`
checks the position as a whole, :mod:`.engine_state` converts to and from the
engine's :class:`~kanaszta_env.games.turkish.kernels.state.TurkishState`,
:mod:`.document` writes the canonical document; :mod:`.cards` converts card
lists and melds.
"""

from __future__ import annotations

from ....position.codec import Codec
from .document import to_doc
from .engine_state import from_games, to_games
from .parse import (
    CHECKPOINT_KEYS,
    FI_KEYS,
    MELD_OPTIONAL,
    MELD_REQUIRED,
    OPTIONAL_KEYS,
    PAIR_OPTIONAL,
    PAIR_REQUIRED,
    PHASES,
    PLAYER_OPTIONAL,
    PLAYER_REQUIRED,
    REQUIRED_KEYS,
    RULE_KEYS,
    parse,
)
from .validate import check

TURKISH_VARIANTS = ("tr",)

__all__ = [
    "CHECKPOINT_KEYS",
    "FI_KEYS",
    "MELD_OPTIONAL",
    "MELD_REQUIRED",
    "OPTIONAL_KEYS",
    "PAIR_OPTIONAL",
    "PAIR_REQUIRED",
    "PHASES",
    "PLAYER_OPTIONAL",
    "PLAYER_REQUIRED",
    "REQUIRED_KEYS",
    "RULE_KEYS",
    "TURKISH_VARIANTS",
    "canonical",
    "dump",
    "load",
    "load_batch",
]


CODEC = Codec(parse, check, to_games, to_doc, from_games)
checked, load, load_batch, canonical, dump = (
    CODEC.checked,
    CODEC.load,
    CODEC.load_batch,
    CODEC.canonical,
    CODEC.dump,
)
