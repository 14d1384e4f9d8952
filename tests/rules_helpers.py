"""Builders for the rule tests (tests/test_rules_*.py).

A rule test describes a situation compactly — each seat's hand and groups, the
discard pile, a few chosen stock cards — and :func:`position` completes it into
a valid position document (docs/position.md): the stock is filled with the rest
of the 112-card deck in a fixed order, so every test is deterministic. The
filler keeps red threes at the bottom of the stock, so that a draw never meets
one unless the test puts it there (``stock_top``).

The game is then played with action names (docs/actions.md) through the public
API only: :func:`kanaszta_env.position.load`, ``GameBatch.step`` /
``legal_names`` and :func:`kanaszta_env.position.dump`; :func:`legal` also asserts
that the legal names are the independent checker's (tests/checker.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from checker import Checker, position_of

from kanaszta_env import action_from_name, position as pos
from kanaszta_env.cards import TYPE_COPIES, TYPE_NAMES
from kanaszta_env.engine import GameBatch, StepResult

#: the 112 cards, in card-type order
DECK = [name for t, name in enumerate(TYPE_NAMES) for _ in range(TYPE_COPIES[t])]
RED_THREES = ("3H", "3D")
_ORDER = {name: t for t, name in enumerate(TYPE_NAMES)}
_FILL_SEED = 20030201


def cards(names: Iterable[str]) -> list[str]:
    """Card names upper-cased and sorted in card-type order (the order of ``dump``)."""
    return sorted((c.upper() for c in names), key=_ORDER.__getitem__)


def seat(
    hand: Sequence[str] = (),
    groups: Sequence[Sequence[str]] = (),
    *,
    opened: bool | None = None,
    free_pickup: str = "gone",
    heart_aces: int = 0,
    red_threes: int = 0,
    twins: int = 0,
    total: int = 0,
    **extra: Any,
) -> dict:
    """One player's entry; ``opened`` defaults to "has groups" (R12)."""
    doc = {
        "hand": list(hand),
        "groups": [list(g) for g in groups],
        "separate_heart_aces": heart_aces,
        "red_threes": red_threes,
        "twins": twins,
        "opened": bool(groups) if opened is None else opened,
        "free_pickup": free_pickup,
        "total": total,
    }
    doc.update(extra)
    return doc


def position(
    players: Sequence[dict],
    *,
    discard: Sequence[str] = (),
    stock_top: Sequence[str] = (),
    stock_bottom: Sequence[str] = (),
    stock: Sequence[str] | None = None,
    phase: str = "draw",
    starter: int = 0,
    to_move: int | None = None,
    variant: str = "2003-02",
    opening_minimum: int = 50,
    discard_owners: Sequence[int] | None = None,
    fill: str | int = "stock",
    **extra: Any,
) -> dict:
    """A complete position document.

    Args:
        players: one :func:`seat` per player.
        discard: the discard pile, bottom card first.
        stock_top: cards on top of the stock, top card first.
        stock_bottom: cards at the bottom of the stock, the last one at the very bottom.
        stock: the whole stock (top first) instead of a filled one; must then
            complete the deck exactly.
        fill: where the cards not placed go: ``"stock"`` (between ``stock_top``
            and ``stock_bottom``), ``"discard"`` (under ``discard``) or a seat
            number (into that hand). With the last two, ``stock`` is
            ``stock_top + stock_bottom`` and the collections must hold every red
            three that the description does not place.
        to_move: defaults to the starter in phase ``cut``, else the seat after the starter.
        discard_owners: defaults to the previous seat of ``to_move`` for the top
            card (it was discarded in the preceding turn) and -1 below it.
        extra: further top-level keys (``turn_state``, ``episode``, ``max_turns`` …).
    """
    n = len(players)
    if to_move is None:
        to_move = starter if phase == "cut" else (starter + 1) % n
    players = [dict(p) for p in players]
    if stock is None:
        rest = _filler(players, discard, stock_top, stock_bottom)
        if fill != "stock" and any(c in RED_THREES for c in rest):
            raise ValueError("fill outside the stock needs every red three placed (R4.4)")
        if fill == "stock":
            stock = [*stock_top, *rest, *stock_bottom]
        else:
            stock = [*stock_top, *stock_bottom]
            if fill == "discard":
                discard = [*rest, *discard]
            else:
                players[fill] = {**players[fill], "hand": [*players[fill]["hand"], *rest]}
    if discard_owners is None:
        discard_owners = [-1] * len(discard)
        if discard:
            discard_owners[-1] = (to_move - 1) % n
    doc = {
        "variant": variant,
        "opening_minimum": opening_minimum,
        "num_players": n,
        "starter": starter,
        "to_move": to_move,
        "phase": phase,
        "stock": list(stock),
        "discard": list(discard),
        "discard_owners": list(discard_owners),
        "players": players,
    }
    doc.update(extra)
    return doc


def _filler(
    players: Sequence[dict], discard: Sequence[str], top: Sequence[str], bottom: Sequence[str]
) -> list[str]:
    """The cards of the deck that the description does not place, in a fixed
    shuffled order with the red threes last (R4: the collections' red threes
    are taken out, ``3H`` first, as the position format assumes)."""
    left = Counter(DECK)
    placed: list[str] = [*discard, *top, *bottom]
    for p in players:
        placed += p["hand"]
        placed += [c for g in p["groups"] for c in g]
        placed += ["AH"] * p["separate_heart_aces"]
    left.subtract(c.upper() for c in placed)
    collected = sum(p["red_threes"] for p in players)
    for red in RED_THREES:
        take = min(collected, left[red])
        left[red] -= take
        collected -= take
    over = {c: -k for c, k in left.items() if k < 0}
    if over or collected:
        raise ValueError(f"the description uses cards too often: {over or 'red threes'}")
    rest = [c for c in cards(left.elements()) if c not in RED_THREES]
    np.random.default_rng(_FILL_SEED).shuffle(rest)
    return rest + [c for c in cards(left.elements()) if c in RED_THREES]


# --- playing --------------------------------------------------------------------------------
def load(doc: dict) -> GameBatch:
    """The document as a batch of one game."""
    return pos.load(doc)


def play(games: GameBatch, *names: str) -> StepResult:
    """Apply the named actions in order; the result of the last one."""
    result = None
    for name in names:
        result = games.step(np.array([action_from_name(name)]))
    assert result is not None, "play() needs at least one action"
    return result


def legal(games: GameBatch) -> set[str]:
    """The legal action names of the game, asserted equal to the independent checker's."""
    names = set(games.legal_names(0))
    expected = Checker(games.rules).legal_actions(position_of(games.state, 0))
    assert names == expected, f"engine only {sorted(names - expected)}, checker {sorted(expected - names)}"
    return names


def discards(games: GameBatch) -> set[str]:
    """The cards that may be discarded now."""
    return {a.removeprefix("discard_") for a in legal(games) if a.startswith("discard_")}


def dump(games: GameBatch) -> dict:
    """The position document of the game."""
    return pos.dump(games)


def player(games: GameBatch, q: int) -> dict:
    """Seat ``q``'s entry of the position document."""
    return dump(games)["players"][q]


def group_of(games: GameBatch, q: int, rank: str) -> list[str]:
    """Seat ``q``'s group of ``rank`` (``"wild"`` for the wilds-only group), or []."""
    for g in player(games, q)["groups"]:
        naturals = [c for c in g if c != "JK" and not c.startswith("2")]
        if (rank == "wild" and not naturals) or (naturals and naturals[0][:-1] == rank):
            return g
    return []


def can_finish_with(games: GameBatch, *names: str) -> bool:
    """Whether the named actions are legal one after the other and a discard is
    legal at the end (the melding they make is accepted). Stops at the first
    illegal action, so a test of "this must not be possible" holds whichever
    step the engine refuses."""
    for name in names:
        if name not in legal(games):
            return False
        play(games, name)
    return bool(discards(games))
