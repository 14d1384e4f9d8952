"""Positions: JSON documents that fully describe a game between two actions
(INTERFACES.md §3), like FEN in chess.

* :func:`load` turns a document (a ``dict`` or JSON text) into a
  :class:`~kanaszta_env.engine.GameBatch` of one game;
* :func:`dump` turns one game of a batch back into a document;
* :func:`canonical` is the normal form of a valid document, computed from the
  document alone (defaults filled in, card names upper-cased, order-free card
  lists sorted), so that ``dump(load(d)) == canonical(d)``.

Every invalid document raises ``ValueError`` naming the problem. The format,
with every optional key and its default, is documented in ``docs/position.md``.

A document whose ``variant`` is a classic canasta preset (``pl``, ``sk``) is a
classic document (per-side melds, the partner's answer, five-player sitter):
it is handled by :mod:`.classic`; so is a batch of classic rules given to
:func:`dump`. A document whose ``variant`` is ``tr`` (Turkish kanasta: pair
melds in slots, the Fis) is handled by :mod:`.turkish` in the same way.

The work is split by step: :mod:`.parse` reads each key (with the readers of
:mod:`.fields`), :mod:`.validate` checks the position as a whole,
:mod:`.engine_state` converts to and from the engine's arrays (and counts the
cards), :mod:`.document` writes the canonical document; :mod:`.schema` names
the format's keys.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from ..engine import GameBatch
from ..rules import PRESET_GAMES
from ..variants import get_variant
from . import classic, turkish
from .document import to_doc
from .engine_state import from_games, to_games
from .parse import parse
from .schema import (
    CHECKPOINT_KEYS,
    END_NAMES,
    OPTIONAL_KEYS,
    PICKUP_KEYS,
    PICKUP_NAMES,
    PLAYER_OPTIONAL,
    PLAYER_REQUIRED,
    REQUIRED_KEYS,
    RULE_DEFAULTS,
    TURN_STATE_KEYS,
)
from .validate import check_position, check_turn_state

__all__ = [
    "CHECKPOINT_KEYS",
    "END_NAMES",
    "OPTIONAL_KEYS",
    "PICKUP_KEYS",
    "PICKUP_NAMES",
    "PLAYER_OPTIONAL",
    "PLAYER_REQUIRED",
    "REQUIRED_KEYS",
    "RULE_DEFAULTS",
    "TURN_STATE_KEYS",
    "canonical",
    "dump",
    "load",
    "load_batch",
]


def _family_doc(doc: dict | str) -> tuple[str, dict | str]:
    """The meld family of a document's game (``Rules.family``: ``"classic"``, ``"turkish"``,
    else ``"rank_groups"``) and the document, as a dict if it is JSON text."""
    if isinstance(doc, str):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as err:
            raise ValueError(f"position is not valid JSON: {err}") from None
    variant = doc.get("variant") if isinstance(doc, dict) else None
    game = PRESET_GAMES.get(variant) if isinstance(variant, str) else None
    return (get_variant(game).meld_family if game else "rank_groups"), doc


#: the position modules of the meld families other than Díszített's rank groups
_MODULES = {"classic": classic, "turkish": turkish}


def _checked(doc: dict | str) -> tuple[dict, GameBatch]:
    """The parsed form of ``doc`` and its game, every check run in the order that
    reports the real problem first: each key, the position as a whole, the card
    census (on the built state), then the turn state — so that a hand edited
    without its checkpoint reports the cards, not the checkpoint."""
    c = parse(doc)
    check_position(c)
    games = to_games(c)
    check_turn_state(c)
    return c, games


def load(doc: dict | str) -> GameBatch:
    """A batch of one game in the position ``doc`` (a dict or JSON text).

    Raises ``ValueError`` naming the problem if the document is invalid.
    """
    family, doc = _family_doc(doc)
    if family in _MODULES:
        return _MODULES[family].load(doc)
    return _checked(doc)[1]


def load_batch(docs: Sequence[dict | str]) -> GameBatch:
    """A batch of ``len(docs)`` games, game ``b`` in the position ``docs[b]`` (all of one
    variant and rule set) — one batch instead of one per position, for programs that
    start many games from positions (a search bot's samples).

    Raises ``ValueError`` naming the problem and the position if a document is invalid.
    """
    if len(docs) == 0:
        raise ValueError("load_batch needs at least one position")
    family_docs = [_family_doc(doc) for doc in docs]
    families = {f for f, _ in family_docs}
    if len(families) > 1:
        raise ValueError(
            "load_batch takes positions of one game: all classic canasta, all Turkish kanasta "
            "or all Díszített"
        )
    try:
        family = family_docs[0][0]
        if family in _MODULES:
            return _MODULES[family].load_batch([d for _, d in family_docs])
        games = [_checked(doc)[1] for doc in docs]
    except ValueError as err:
        raise ValueError(f"in load_batch: {err}") from None
    if any(g.rules != games[0].rules for g in games):
        raise ValueError("load_batch takes positions of one rule set")
    batch = GameBatch(games[0].rules, len(games))
    batch.state = type(games[0].state)(
        *(np.concatenate(f) for f in zip(*(g.state for g in games), strict=True))
    )
    return batch


def canonical(doc: dict | str) -> dict:
    """The normal form of a valid position: every optional key filled in with its
    default (except a checkpoint equal to the one ``load`` derives, which is
    left out), card names upper-cased, hands and other order-free card lists in
    card-type order, groups in group order (``A 4 … K wild``) with their cards in
    type order. ``dump(load(doc)) == canonical(doc)``."""
    family, doc = _family_doc(doc)
    if family in _MODULES:
        return _MODULES[family].canonical(doc)
    return to_doc(_checked(doc)[0])


def dump(games: GameBatch, index: int = 0) -> dict:
    """The position of game ``index`` of ``games`` as a JSON-serialisable dict
    (the canonical form: see :func:`canonical`)."""
    if not 0 <= index < games.batch_size:
        raise IndexError(f"game index {index} outside 0..{games.batch_size - 1}")
    if games.rules.family in _MODULES:
        return _MODULES[games.rules.family].dump(games, index)
    return to_doc(from_games(games, index))
