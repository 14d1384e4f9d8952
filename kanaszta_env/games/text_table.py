"""Every game's table as text: :meth:`Game.table_picture` (the web app's JSON, keys in
docs/webapp.md) drawn line by line for the terminal and the envs' render modes.

Only the keys every picture shares are read, so a game's own facts (Díszített's cut
cards, a partner asked "may I go out?") reach the text as the picture's notes. A hand
the picture hides (``hand`` is ``null``) appears as its size and known cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards) or "-"


def _meld(meld: Mapping[str, Any], names: list[str]) -> str:
    owner = "" if meld["owner"] is None else f" by {names[meld['owner']]}"
    kinds = [k for k in ("run" if meld["run"] else None, meld["canasta"]) if k]
    return f"    {meld['label']}{owner}: {_cards(meld['cards'])}" + (
        f" [{', '.join(kinds)}]" if kinds else ""
    )


def _seat(player: Mapping[str, Any], to_move: int | None) -> str:
    marker = "*" if player["seat"] == to_move else " "
    notes = f" ({' · '.join(player['notes'])})" if player["notes"] else ""
    known = " ".join(player["known"])
    if player["hand"] is None:
        hand = f"hand: {player['hand_size']} cards" + (f", known: {known}" if known else "")
    else:
        hand = f"hand ({player['hand_size']}): {_cards(player['hand'])}" + (
            f" · known to all: {known}" if known else ""
        )
    return f"   {marker}{player['name']}{notes} {hand}"


def _extra(extra: Mapping[str, Any]) -> str:
    if extra["cards"] is not None:
        cards = _cards(extra["cards"])
    else:
        cards = f"{extra['count']} cards" if extra["count"] else ""
    return f"{extra['label']}: " + ", ".join(part for part in (cards, extra["note"]) if part)


def table_text(picture: Mapping[str, Any]) -> str:
    """The table ``picture`` (one game's :meth:`Game.table_picture`) as a multi-line string:
    the hand, turn, phase and mover; the stock, the pile and the extras; per side its
    scores, opening, red threes, notes and melds, and the hand of each of its seats; last
    the notes about the table."""
    players, to_move, stock, pile = picture["players"], picture["to_move"], picture["stock"], picture["pile"]
    names = [p["name"] for p in players]
    head = f"hand {picture['hand_number']} · turn {picture['turn']} · phase {picture['phase']}"
    if to_move is not None:
        head += f" · {names[to_move]} to move · starter {names[picture['starter']]}"
    table = f"stock {stock['size']}"
    if stock["known_bottom"]:
        table += f" (bottom, known: {' '.join(stock['known_bottom'])})"
    if pile["size"]:
        owner = "" if pile["top_owner"] is None else f" from {names[pile['top_owner']]}"
        table += f" · discard pile {pile['size']}, top {pile['top']}{owner}" + (
            " (frozen)" if pile["frozen"] else ""
        )
    else:
        table += " · discard pile empty"
    lines = [head, table]
    if picture["extras"]:
        lines.append(" · ".join(map(_extra, picture["extras"])))
    for side in picture["sides"]:
        facts = [f"total {side['total']}", f"last hand {side['last_hand']}"]
        facts.append("opened" if side["opened"] else "not opened")
        if side["red_threes"]:
            facts.append(f"red threes {' '.join(side['red_threes'])}")
        seats = ", ".join(names[q] for q in side["seats"])
        lines.append(f"side {side['side']} ({seats}): " + " · ".join(facts + side["notes"]))
        lines += [_meld(m, names) for m in side["melds"]] or ["    melds: -"]
        lines += [_seat(players[q], to_move) for q in side["seats"]]
    return "\n".join(lines + picture["notes"])
