"""One game's table as JSON for the browser, seen from a seat or with every hand open.

The picture is the game's own (:meth:`Game.table_picture`, the keys every game shares
are in ``docs/webapp.md``): seats with their hands, sides (a player alone, or a
partnership) with their melds, extras such as Turkish kanasta's Fis, the pile and the
stock. The game keeps hidden cards back: with a ``viewer`` seat another player's hand
appears only as its size and the cards publicly known to be in it. ``viewer=None``
(watching, replays with "all hands open") shows every hand. Here the hands are only
sorted for display.

:func:`legal_json` lists the legal moves by name and, through the game's
:meth:`Game.move_picture`, by what the page clicks: a card in the hand, a meld on the
table or a button.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kanaszta_env import GameBatch

#: display order of ranks in a sorted hand: aces, then K down to 4, threes, wilds
_RANK_ORDER = {r: i for i, r in enumerate(("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"))}
_SUIT_ORDER = {s: i for i, s in enumerate("SHDC")}


def card_sort_key(card: str) -> tuple[int, int]:
    """Sort key of a card name in a displayed hand (jokers last)."""
    if card == "JK":
        return (len(_RANK_ORDER), 0)
    return (_RANK_ORDER[card[:-1]], _SUIT_ORDER[card[-1]])


def sorted_cards(cards: Sequence[str]) -> list[str]:
    """Card names in display order."""
    return sorted(cards, key=card_sort_key)


def table_json(games: GameBatch, names: Sequence[str], viewer: int | None) -> dict[str, Any]:
    """Game 0 of ``games`` as JSON, from seat ``viewer`` (others' hands hidden) or
    with every hand open (``viewer=None``)."""
    rules = games.rules
    table = rules.game.table_picture(games.state, rules, 0, list(names), viewer)
    for player in table["players"]:
        player["known"] = sorted_cards(player["known"])
        if player["hand"] is not None:
            player["hand"] = sorted_cards(player["hand"])
    return table


def legal_json(games: GameBatch) -> dict[str, Any]:
    """The legal moves of game 0: every name (``names``), and the same moves as the
    game sorts them for the page (``cards``, ``melds``, ``discard``, ``buttons``)."""
    mask = games.legal_mask()[0]
    moves = games.rules.game.move_picture(games.state, games.rules, 0, mask)
    return {"names": [games.action_names[a] for a in np.flatnonzero(mask)], **moves}
