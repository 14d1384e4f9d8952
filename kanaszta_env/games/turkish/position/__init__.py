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
from .parse import parse
from .validate import check

CODEC = Codec(parse, check, to_games, to_doc, from_games)
load, load_batch, canonical, dump = CODEC.load, CODEC.load_batch, CODEC.canonical, CODEC.dump
