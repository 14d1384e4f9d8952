"""One game's table as JSON for the browser, seen from a seat or with every hand open.

:func:`table_json` is the only place where the browser's picture of a game is
made, so it is also where hidden cards are kept back: with a ``viewer`` seat,
another player's hand appears only as its size and the cards publicly known
to be in it (R3, R8), and the stock only as its size and its known bottom
cards (R3.4) — the same information as the seat's observation. ``viewer=None``
(watching, replays with "all hands open") shows every hand.

:func:`legal_json` lists the legal moves by name and sorts them by what the
client draws them on: a card in the hand (melds, discards), a group on the
table (wilds, lifts, places) or a button (draw, take the pile, withdraw …).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.games.diszitett.explain import turn_status
from kanaszta_env import GameBatch
from kanaszta_env.cards import (
    GROUP_NAMES,
    GROUP_SLOTS,
    NUM_GROUPS,
    SLOT_TYPE,
    TYPE_NAMES,
    WILD_NAMES,
    counts_to_cards,
)
from kanaszta_env.games.diszitett import actions as A
from kanaszta_env.games.diszitett.compiled import (
    CANASTA_NAMES,
    FREE_NAMES,
    PHASE_NAMES,
    PHASE_OVER,
    canasta_kind,
)
from kanaszta_env.games.diszitett.render import FREEZING

#: display order of ranks in a sorted hand: aces, then K down to 4, black threes, wilds
_RANK_ORDER = {r: i for i, r in enumerate(("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"))}
_SUIT_ORDER = {s: i for i, s in enumerate("SHDC")}


def card_sort_key(card: str) -> tuple[int, int]:
    """Sort key of a card name in a displayed hand (jokers last)."""
    if card == "JK":
        return (len(_RANK_ORDER), 0)
    return (_RANK_ORDER[card[:-1]], _SUIT_ORDER[card[-1]])


def sorted_cards(counts: np.ndarray) -> list[str]:
    """The cards of a count vector in display order."""
    return sorted(counts_to_cards(counts), key=card_sort_key)


def _groups(row: np.ndarray) -> list[dict[str, Any]]:
    """A player's groups (12, 9) as ``[{"group": "K", "cards": [...], "canasta": "red canasta"}]``."""
    out = []
    for g in range(NUM_GROUPS):
        if not row[g].any():
            continue
        cards = [TYPE_NAMES[SLOT_TYPE[g, k]] for k in range(GROUP_SLOTS) for _ in range(int(row[g, k]))]
        kind = canasta_kind(g, row[g])
        out.append({"group": GROUP_NAMES[g], "cards": cards, "canasta": CANASTA_NAMES[kind] or None})
    return out


def _player(games: GameBatch, q: int, names: Sequence[str], open_hand: bool) -> dict[str, Any]:
    s = games.state
    hand = s.hand[0, q]
    red = ["3H"] * int(s.red_threes[0, q, 0]) + ["3D"] * int(s.red_threes[0, q, 1])
    player: dict[str, Any] = {
        "seat": q,
        "name": names[q],
        "total": int(s.totals[0, q]),
        "last_hand": int(s.hand_scores[0, q]),
        "opened": bool(s.opened[0, q]),
        "free_pickup": FREE_NAMES[int(s.free_pickup[0, q])],
        "hand_size": int(hand.sum()),
        "known": sorted_cards(s.known[0, q]),
        "hand": sorted_cards(hand) if open_hand else None,
        "groups": _groups(s.groups[0, q]),
        "red_threes": red,
        "twins": int(s.twins[0, q]),
        "heart_aces": int(s.sep_heart_aces[0, q]),
    }
    return player


def table_json(games: GameBatch, names: Sequence[str], viewer: int | None) -> dict[str, Any]:
    """Game 0 of ``games`` as JSON, from seat ``viewer`` (others' hands hidden) or
    with every hand open (``viewer=None``)."""
    s = games.state
    phase = int(s.phase[0])
    pile_n = int(s.pile_len[0])
    top = int(s.pile[0, pile_n - 1]) if pile_n else -1
    owner = int(s.pile_owner[0, pile_n - 1]) if pile_n else -1
    stock_n = int(s.stock_len[0])
    known_bottom = int(min(s.stock_known[0], stock_n))
    over = phase == PHASE_OVER
    table: dict[str, Any] = {
        "phase": PHASE_NAMES[phase],
        "to_move": None if over else int(s.to_move[0]),
        "starter": int(s.starter[0]),
        "hand_number": int(s.hand_number[0]) + (0 if over else 1),
        "turn": int(s.turn[0]),
        "viewer": viewer,
        "stock": {"size": stock_n, "known_bottom": [TYPE_NAMES[int(t)] for t in s.stock[0, :known_bottom]]},
        "pile": {
            "size": pile_n,
            "top": TYPE_NAMES[top] if pile_n else None,
            "top_owner": owner if owner >= 0 else None,
            "frozen": top in FREEZING,
        },
        "players": [_player(games, q, names, viewer is None or q == viewer) for q in range(len(names))],
        "cut": None,
        "lifted": TYPE_NAMES[int(s.lifted[0])] if s.lifted[0] >= 0 and not over else None,
        "pickup_card": TYPE_NAMES[int(s.pickup_card[0])] if PHASE_NAMES[phase] == "pickup" else None,
        "status": "" if over else turn_status(s, games.rules.to_config()),
    }
    if PHASE_NAMES[phase] == "cut":  # the three cut cards are shown to everybody (R3.1)
        decided = {1: "kept", 0: "left", -1: None}
        table["cut"] = [
            {"card": TYPE_NAMES[int(t)], "decision": decided[int(k)]}
            for t, k in zip(s.cut_cards[0], s.cut_kept[0], strict=True)
        ]
        table["cut_index"] = int(s.cut_index[0])
    return table


def legal_json(mask: np.ndarray) -> dict[str, Any]:
    """The legal moves of one mask row: every name, and the same moves keyed by
    what the client clicks — ``meld`` and ``discard`` by hand card, ``wild`` by
    wild card then the groups it may join, ``lift`` and ``place`` by group,
    ``buttons`` for the rest."""
    names = [A.ACTION_NAMES[a] for a in np.flatnonzero(mask)]
    meld: dict[str, str] = {}
    discard: dict[str, str] = {}
    wild: dict[str, list[str]] = {}
    lift: dict[str, list[str]] = {}
    place: dict[str, str] = {}
    buttons: list[str] = []
    for a in np.flatnonzero(mask):
        a = int(a)
        name = A.ACTION_NAMES[a]
        if A.MELD0 <= a < A.WILD0:
            meld[TYPE_NAMES[int(A.MELD_TYPE[a - A.MELD0])]] = name
        elif A.WILD0 <= a < A.HEART_ACE:
            k, g = divmod(a - A.WILD0, NUM_GROUPS)
            wild.setdefault(WILD_NAMES[k], []).append(GROUP_NAMES[g])
        elif A.LIFT0 <= a < A.PLACE0:
            lift.setdefault(GROUP_NAMES[(a - A.LIFT0) % NUM_GROUPS], []).append(name)
        elif A.PLACE0 <= a < A.WITHDRAW:
            place[GROUP_NAMES[a - A.PLACE0]] = name
        elif a >= A.DISCARD0:
            discard[TYPE_NAMES[a - A.DISCARD0]] = name
        else:
            buttons.append(name)
    return {
        "names": names,
        "meld": meld,
        "wild": wild,
        "lift": lift,
        "place": place,
        "discard": discard,
        "buttons": buttons,
    }
