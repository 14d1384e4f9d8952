"""Díszített kanaszta's table as JSON for the web app (:meth:`Game.table_picture`,
:meth:`Game.move_picture`; the shared keys are described in ``docs/webapp.md``).

Every player is his own side: a side's melds are the player's groups (R10), its
collection his red threes (R4); twins, separate heart aces (2003-02, R10.6) and the
free pickup (R7) are notes. A ``viewer`` sees the other hands as their sizes and their
publicly known cards (R3, R8) until the hand is over and the stock as its size and known
bottom cards (R3.4), the information of his observation. The cut cards are shown to
everybody (R3.1); they, a penalised pickup (R8), a lifted wild (R13.2) and how the hand
ended are also the table's notes, which the text table shows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...cards import (
    GROUP_NAMES,
    GROUP_SLOTS,
    IS_BLACK_THREE,
    IS_WILD,
    NUM_GROUPS,
    SLOT_TYPE,
    TYPE_GROUP,
    TYPE_NAMES,
    WILD_NAMES,
)
from ...rules import Rules
from ..pictures import end_notes, header, meld, pile, seat, side
from . import actions as A
from .compiled import CANASTA_NAMES, FREE_NAMES, PHASE_NAMES, PHASE_OVER, State, canasta_kind

_DECIDED = {1: "kept", 0: "left", -1: None}
#: card types whose presence on top freezes the discard pile: black threes and wilds (R9)
FREEZING = frozenset(int(t) for t in np.flatnonzero(IS_BLACK_THREE | IS_WILD))


def _groups(row: np.ndarray) -> list[dict[str, Any]]:
    """A player's groups (12, 9) as melds: id and label the group's name, the cards by slot."""
    out = []
    for g in range(NUM_GROUPS):
        if not row[g].any():
            continue
        cards = [TYPE_NAMES[SLOT_TYPE[g, k]] for k in range(GROUP_SLOTS) for _ in range(int(row[g, k]))]
        kind = CANASTA_NAMES[canasta_kind(g, row[g])] or None
        out.append({**meld(GROUP_NAMES[g], cards, kind), "group": GROUP_NAMES[g]})
    return out


def _player(s: State, b: int, q: int, names: list[str], open_hand: bool, heart_aces: bool) -> dict[str, Any]:
    notes = [f"twins {int(s.twins[b, q])}", f"free pickup {FREE_NAMES[int(s.free_pickup[b, q])]}"]
    if heart_aces:
        notes.insert(1, f"separate heart aces {int(s.sep_heart_aces[b, q])}")
    return {
        **seat(s, b, q, names[q], q, bool(s.opened[b, q]), open_hand),
        "notes": notes,
        # Díszített's own keys (the picture before every game had one)
        "free_pickup": FREE_NAMES[int(s.free_pickup[b, q])],
        "groups": _groups(s.groups[b, q]),
        "red_threes": ["3H"] * int(s.red_threes[b, q, 0]) + ["3D"] * int(s.red_threes[b, q, 1]),
        "twins": int(s.twins[b, q]),
        "heart_aces": int(s.sep_heart_aces[b, q]),
    }


def diszitett_picture(
    state: State, rules: Rules, b: int, names: list[str], viewer: int | None
) -> dict[str, Any]:
    """Game ``b`` as the web app's JSON, from seat ``viewer`` (``None``: every hand open)."""
    s = state
    phase = int(s.phase[b])
    over = phase == PHASE_OVER
    pile_n, stock_n = int(s.pile_len[b]), int(s.stock_len[b])
    top = int(s.pile[b, pile_n - 1]) if pile_n else -1
    owner = int(s.pile_owner[b, pile_n - 1]) if pile_n else -1
    known_bottom = int(min(s.stock_known[b], stock_n))
    heart_aces = bool(rules.heart_aces)
    players = [
        _player(s, b, q, names, viewer in (None, q) or over, heart_aces) for q in range(rules.num_players)
    ]
    lifted = TYPE_NAMES[int(s.lifted[b])] if s.lifted[b] >= 0 and not over else None
    pickup = TYPE_NAMES[int(s.pickup_card[b])] if PHASE_NAMES[phase] == "pickup" else None
    notes = end_notes(s, b, names, over)
    if pickup:
        notes.append(f"penalised pickup of {pickup}: meld it with at least two cards from the hand (R8)")
    if lifted:
        notes.append(f"lifted {lifted}: place it on another group (R13.2)")
    table: dict[str, Any] = {
        **header(s, b, PHASE_NAMES[phase], viewer),
        "stock": {"size": stock_n, "known_bottom": [TYPE_NAMES[int(t)] for t in s.stock[b, :known_bottom]]},
        "pile": pile(s, b, owner if owner >= 0 else None, top in FREEZING),
        "players": players,
        "sides": [
            side(s, b, p["seat"], [p["seat"]], p["opened"], p["groups"], [], p["red_threes"]) for p in players
        ],
        "extras": [],
        "notes": notes,
        "cut": None,
        "lifted": lifted,
        "pickup_card": pickup,
    }
    if PHASE_NAMES[phase] == "cut":  # the three cut cards are shown to everybody (R3.1)
        table["cut"] = [
            {"card": TYPE_NAMES[int(t)], "decision": _DECIDED[int(k)]}
            for t, k in zip(s.cut_cards[b], s.cut_kept[b], strict=True)
        ]
        table["cut_index"] = int(s.cut_index[b])
        notes.insert(
            0, "cut cards: " + ", ".join(f"{c['card']} ({c['decision'] or '?'})" for c in table["cut"])
        )
    return table


def diszitett_moves(state: State, rules: Rules, b: int, legal: np.ndarray) -> dict[str, Any]:
    """The legal actions of mask row ``legal`` by what the page clicks: ``cards`` (a hand
    card laid on a group, by card; ``new`` if the mover has no such group yet), ``melds``
    (lifting a wild off a group, placing the lifted one, by group), ``discard`` (by card)
    and ``buttons`` (the rest)."""
    cards: dict[str, list[dict[str, Any]]] = {}
    melds: dict[str, list[dict[str, str]]] = {}
    discard: dict[str, str] = {}
    buttons: list[str] = []
    laid = state.groups[b, int(state.to_move[b])].any(axis=1)  # the mover's groups on the table
    for a in map(int, np.flatnonzero(legal)):
        name = A.ACTION_NAMES[a]
        if A.MELD0 <= a < A.WILD0:
            t = int(A.MELD_TYPE[a - A.MELD0])
            g = int(TYPE_GROUP[t])
            cards.setdefault(TYPE_NAMES[t], []).append(
                {"action": name, "to": GROUP_NAMES[g], "new": not laid[g]}
            )
        elif A.WILD0 <= a < A.HEART_ACE:
            k, g = divmod(a - A.WILD0, NUM_GROUPS)
            cards.setdefault(WILD_NAMES[k], []).append(
                {"action": name, "to": GROUP_NAMES[g], "new": not laid[g]}
            )
        elif A.LIFT0 <= a < A.PLACE0:
            k, g = divmod(a - A.LIFT0, NUM_GROUPS)
            melds.setdefault(GROUP_NAMES[g], []).append(
                {"action": name, "label": ("lift 2", "lift joker")[k]}
            )
        elif A.PLACE0 <= a < A.WITHDRAW:
            melds.setdefault(GROUP_NAMES[a - A.PLACE0], []).append({"action": name, "label": "place here"})
        elif a >= A.DISCARD0:
            discard[TYPE_NAMES[a - A.DISCARD0]] = name
        else:
            buttons.append(name)
    return {"cards": cards, "melds": melds, "discard": discard, "buttons": buttons}
