"""Classic canasta's table as JSON for the web app (:meth:`Game.table_picture`,
:meth:`Game.move_picture`; the shared keys are described in ``docs/webapp.md``).

Melds, red threes, the opening and the score belong to a side (partners sit
opposite, C2): a side's melds are one per rank, the wild meld (sk, C5.6) and the
black threes laid when going out (pl, C10.2). A ``viewer`` sees the other hands as
their sizes and the cards publicly known in them (taken with the pile) until the hand
is over. Actions name
ranks, not suits (``meld_K``, ``discard_9``), so a move is offered on every hand card
of its rank.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...cards import (
    GROUP_NAMES,
    GROUP_SLOTS,
    JOKER,
    NUM_GROUPS,
    SLOT_TYPE,
    TYPE_NAMES,
    card_type,
)
from ...engine.kernels import kernels_for
from ...rules import Rules
from ..pictures import end_notes, header, meld, pile, seat, side as side_picture
from . import actions as A

_ASKED = ("", "asked the partner: may I go out? (waiting)", "partner said yes", "partner said no")
#: the side's meld rows: 11 ranks and the wild meld as in cards.SLOT_TYPE, then the black threes
_BLACK_MELD = NUM_GROUPS
_BLACK_SLOTS = {0: card_type(2, 0), 3: card_type(2, 3)}  # 3S, 3C
_BLACK_ID = "black threes"


def _meld(g: int, row: np.ndarray, canasta_size: int) -> dict[str, Any]:
    if g == _BLACK_MELD:
        return meld(_BLACK_ID, [TYPE_NAMES[t] for k, t in _BLACK_SLOTS.items() for _ in range(int(row[k]))])
    cards = [TYPE_NAMES[SLOT_TYPE[g, k]] for k in range(GROUP_SLOTS) for _ in range(int(row[k]))]
    kind = None
    if len(cards) >= canasta_size:
        wilds = int(row[4:].sum())
        kind = "wild canasta" if g == NUM_GROUPS - 1 else "natural canasta" if wilds == 0 else "mixed canasta"
    return meld(GROUP_NAMES[g], cards, kind)


def classic_picture(state: Any, rules: Rules, b: int, names: list[str], viewer: int | None) -> dict[str, Any]:
    """Game ``b`` as the web app's JSON, from seat ``viewer`` (``None``: every hand open)."""
    s = state
    phase = kernels_for(rules.spec).ruleset.PHASE_NAMES[int(s.phase[b])]
    over = phase == "over"
    sides = rules.sides()
    players = []
    for q in range(rules.num_players):
        side = sides[q]
        player = seat(s, b, q, names[q], side, bool(s.opened[b, side]), viewer in (None, q) or over)
        player["notes"] = ["sits this hand out"] if q == int(s.sitter[b]) else []
        players.append(player)
    out = []
    for side in sorted(set(sides)):
        seats = [q for q in range(rules.num_players) if sides[q] == side]
        rows = s.groups[b, side]
        melds = [_meld(g, rows[g], rules.spec.canasta_size) for g in range(NUM_GROUPS + 1) if rows[g].any()]
        notes = [f"red threes {int(s.red_threes[b, side])}"]
        out.append(side_picture(s, b, side, seats, bool(s.opened[b, side]), melds, notes))
    notes = end_notes(s, b, names, over)
    if not over and int(s.asked[b]):
        notes.append(f"{names[int(s.mover[b])]} {_ASKED[int(s.asked[b])]}")
    return {
        **header(s, b, phase, viewer),
        "stock": {"size": int(s.stock_len[b]), "known_bottom": []},
        "pile": pile(s, b, frozen=bool(s.pile_wilds[b])),
        "players": players,
        "sides": out,
        "extras": [],
        "notes": notes,
    }


def _cards_of(hand: np.ndarray, types: list[int]) -> list[str]:
    """The names of the card types among ``types`` held in ``hand`` (counts)."""
    return [TYPE_NAMES[t] for t in types if hand[t]]


def _rank_types(g: int) -> list[int]:
    """The card types of meld row ``g``'s naturals (a rank's four suits)."""
    return [int(SLOT_TYPE[g, k]) for k in range(4)]


_TWOS = [card_type(1, s) for s in range(4)]
_BLACK = list(_BLACK_SLOTS.values())
_WILD_ROW = NUM_GROUPS - 1


def _card_move(a: int) -> tuple[list[int], str] | None:
    """The card types an action lays and the meld it lays them on; None for other actions."""
    if A.MELD0 <= a < A.TWO0:
        return _rank_types(a - A.MELD0), GROUP_NAMES[a - A.MELD0]
    if A.TWO0 <= a < A.JOKER0:
        return _TWOS, GROUP_NAMES[a - A.TWO0]
    if A.JOKER0 <= a < A.TWO_TO_WILD:
        return [JOKER], GROUP_NAMES[a - A.JOKER0]
    if a in (A.TWO_TO_WILD, A.JOKER_TO_WILD):
        return (_TWOS if a == A.TWO_TO_WILD else [JOKER]), GROUP_NAMES[_WILD_ROW]
    if a == A.BLACK_THREE:
        return _BLACK, _BLACK_ID
    return None


def _discard_types(kind: int) -> list[int]:
    if kind < A.KIND_BLACK_THREE:
        return _rank_types(kind)
    return {A.KIND_BLACK_THREE: _BLACK, A.KIND_TWO: _TWOS, A.KIND_JOKER: [JOKER]}[kind]


def classic_moves(state: Any, rules: Rules, b: int, legal: np.ndarray) -> dict[str, Any]:
    """The legal actions of mask row ``legal`` by what the page clicks: ``cards`` (every
    hand card of the rank an action lays, with the meld it goes to, ``new`` if the side has
    none yet), ``discard`` (by hand
    card) and ``buttons`` (draw, take the pile, withdraw, ask, the answers …)."""
    mover = int(state.to_move[b])
    hand = state.hand[b, mover]
    rows = state.groups[b, rules.sides()[mover]]
    laid = {_meld(g, rows[g], 0)["id"] for g in range(NUM_GROUPS + 1) if rows[g].any()}
    cards: dict[str, list[dict[str, Any]]] = {}
    discard: dict[str, str] = {}
    buttons: list[str] = []
    for a in map(int, np.flatnonzero(legal)):
        name = A.ACTION_NAMES[a]
        move = _card_move(a)
        if move is not None:
            for card in _cards_of(hand, move[0]):
                cards.setdefault(card, []).append({"action": name, "to": move[1], "new": move[1] not in laid})
        elif a >= A.DISCARD0:
            for card in _cards_of(hand, _discard_types(a - A.DISCARD0)):
                discard[card] = name
        else:
            buttons.append(name)
    return {"cards": cards, "melds": {}, "discard": discard, "buttons": buttons}
