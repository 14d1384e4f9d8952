"""Positions: JSON documents that fully describe a game between two actions
(docs/position.md), like FEN in chess.

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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from ..engine import DeadEndError, GameBatch
from ..games import Game, game_of_preset, get_game, preset_names
from ..games.diszitett.position.schema import (
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
from .fields import misspelt

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


def _game_doc(doc: dict | str) -> tuple[Game, dict | str]:
    """The game of a document (from its ``variant``; Díszített's codec reports a missing
    or bad one) and the document, as a dict if it is JSON text."""
    if isinstance(doc, str):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as err:
            raise ValueError(f"position is not valid JSON: {err}") from None
    variant = doc.get("variant") if isinstance(doc, dict) else None
    if isinstance(variant, str):
        named = [p for p in preset_names() if p.lower() == variant.strip().lower()]
        if not named:
            raise ValueError(f"variant: unknown variant {variant!r}; choose one of {list(preset_names())}")
        return game_of_preset(named[0]), doc
    if isinstance(doc, dict) and "variant" not in doc:
        typo = [k for k in doc if isinstance(k, str) and misspelt(k, ("variant",))]
        if typo:  # not read as a Díszített document: its other keys would be reported instead
            raise ValueError(f"variant: missing (did you mean 'variant' for {typo[0]!r}?)")
    return get_game("diszitett"), doc


@contextmanager
def _playable(batch: bool = False) -> Iterator[None]:
    """A position whose player to move has no legal action is refused, as invalid (naming
    the position in a ``batch``)."""
    try:
        yield
    except DeadEndError as err:
        where = f"position {err.game}: " if batch else ""
        raise ValueError(
            f"{where}player {err.player} has no legal action in phase {err.phase!r}: "
            "no game can be played on from this position"
        ) from None


def load(doc: dict | str) -> GameBatch:
    """A batch of one game in the position ``doc`` (a dict or JSON text).

    Raises ``ValueError`` naming the problem if the document is invalid.
    """
    game, doc = _game_doc(doc)
    with _playable():
        return game.position.load(doc)


def load_batch(docs: Sequence[dict | str]) -> GameBatch:
    """A batch of ``len(docs)`` games, game ``b`` in the position ``docs[b]`` (all of one
    variant and rule set) — one batch instead of one per position, for programs that
    start many games from positions (a search bot's samples).

    Raises ``ValueError`` naming the problem and the position if a document is invalid.
    """
    if len(docs) == 0:
        raise ValueError("load_batch needs at least one position")
    game_docs = [_game_doc(doc) for doc in docs]
    games = {g.name: g for g, _ in game_docs}
    if len(games) > 1:
        raise ValueError(
            f"load_batch takes positions of one game, got {' and '.join(g.title for g in games.values())}"
        )
    try:
        with _playable(batch=True):
            return game_docs[0][0].position.load_batch([d for _, d in game_docs])
    except ValueError as err:
        raise ValueError(f"in load_batch: {err}") from None


def canonical(doc: dict | str) -> dict:
    """The normal form of a valid position: every optional key filled in with its
    default (except a checkpoint equal to the one ``load`` derives, which is
    left out), card names upper-cased, hands and other order-free card lists in
    card-type order, groups in group order (``A 4 … K wild``) with their cards in
    type order. ``dump(load(doc)) == canonical(doc)``."""
    game, doc = _game_doc(doc)
    return game.position.canonical(doc)


def dump(games: GameBatch, index: int = 0) -> dict:
    """The position of game ``index`` of ``games`` as a JSON-serialisable dict
    (the canonical form: see :func:`canonical`)."""
    if not 0 <= index < games.batch_size:
        raise IndexError(f"game index {index} outside 0..{games.batch_size - 1}")
    return games.rules.game.position.dump(games, index)
