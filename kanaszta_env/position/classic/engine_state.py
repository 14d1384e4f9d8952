"""The parsed form of a classic position <-> the engine's :class:`ClassicState`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.classic.state import (
    ASKED_NOT,
    END_NAMES,
    OUT_DISCARD,
    OUT_MELD,
    PHASE_NAMES,
)
from ...core.classic.tables import KIND_OF
from ...engine import GameBatch
from .cards import counts, from_counts, melds_array, melds_from_array
from .parse import ASKED_NAMES, CHECKPOINT_PHASES, START_PHASES, mover_side

_OUT_HOW = {"discard": OUT_DISCARD, "meld": OUT_MELD}


def to_games(c: dict) -> GameBatch:
    """A batch of one game holding the (validated) parsed position ``c``."""
    games = GameBatch(c["rules"], 1)
    s = games.state._replace()  # the arrays of a fresh batch, written in place below
    q_range = range(c["num_players"])
    for q in q_range:
        p = c["players"][q]
        s.hand[0, q] = counts(p["hand"])
        s.known[0, q] = counts(p["known"])
        s.laid_before[0, q] = p["laid_before"]
        s.turns_played[0, q] = p["turns_played"]
        side = c["sides"][c["side_of"][q]]
        s.totals[0, q] = side["total"]
        s.hand_scores[0, q] = side["hand_score"]
        s.side_of[0, q] = c["side_of"][q]
        s.next_seat[0, q] = c["next_seat"][q]
    table_opening = c["rules"].opening_scope == "table"
    for i, side in enumerate(c["sides"]):
        s.groups[0, i] = melds_array(side["melds"])
        s.red_threes[0, i] = side["red_threes"]
        s.opened[0, i] = side["opened"]
    if table_opening:  # pl: the engine opens every side index at once (C11.1)
        s.opened[0, :] = c["sides"][0]["opened"]
    stock, pile = c["stock"][::-1], c["discard"]
    s.stock[0] = 0
    s.stock[0, : len(stock)] = stock
    s.stock_len[0] = len(stock)
    s.pile[0] = 0
    s.pile[0, : len(pile)] = pile
    s.pile_len[0] = len(pile)
    s.pile_wilds[0] = sum(1 for t in pile if KIND_OF[t] >= 12)
    s.phase[0] = PHASE_NAMES.index(c["phase"])
    s.to_move[0] = c["to_move"]
    s.starter[0] = c["starter"]
    s.sitter[0] = -1 if c["sitter"] is None else c["sitter"]
    s.turn[0] = c["turn"]
    s.hand_number[0] = c["hand_number"]
    s.end_reason[0] = END_NAMES.index(c["end_reason"])
    s.out_player[0] = -1 if c["out_player"] is None else c["out_player"]
    s.out_how[0] = 0 if c["out_how"] is None else _OUT_HOW[c["out_how"]]
    s.rng[0] = np.uint64(c["rng"])
    _write_turn(s, c)
    games.state = s
    return games


def _write_turn(s: Any, c: dict) -> None:
    mover = c["mover"]
    current = melds_array(mover_side(c)["melds"])
    cp = c["checkpoint"]
    s.mover[0] = mover
    s.cp_hand[0] = counts(c["players"][mover]["hand"] if cp is None else cp["hand"])
    s.cp_groups[0] = current if cp is None else melds_array(cp["melds"])
    s.start_groups[0] = current if c["start_melds"] is None else melds_array(c["start_melds"])
    s.changed[0] = c["changed"]
    s.took_pile[0] = c["pickup"] is not None
    s.pickup_card[0] = -1 if c["pickup"] is None else c["pickup"]
    s.pickup_rest[0] = len(c["discard"]) if c["phase"] == "pickup" else 0
    s.pile_locked[0] = counts(c["locked"])
    s.asked[0] = ASKED_NAMES.index(c["asked"]) if c["asked"] != "none" else ASKED_NOT


def from_games(games: GameBatch, b: int) -> dict:
    """The parsed form of game ``b`` (the inverse of :func:`to_games`)."""
    s, rules = games.state, games.rules
    n = rules.num_players
    sides = list(rules.sides())
    phase = PHASE_NAMES[int(s.phase[b])]
    c: dict[str, Any] = {"variant": rules.variant, "num_players": n, "rules": rules, "phase": phase}
    for key in ("to_move", "mover", "starter", "turn", "hand_number"):
        c[key] = int(getattr(s, key)[b])
    c["rng"] = int(s.rng[b])
    c["sitter"] = None if s.sitter[b] < 0 else int(s.sitter[b])
    c["side_of"] = sides
    c["end_reason"] = END_NAMES[int(s.end_reason[b])]
    c["out_player"] = None if s.out_player[b] < 0 else int(s.out_player[b])
    c["out_how"] = {OUT_DISCARD: "discard", OUT_MELD: "meld"}.get(int(s.out_how[b]))
    if c["out_player"] is None:
        c["out_how"] = None
    c["stock"] = [int(t) for t in s.stock[b, : int(s.stock_len[b])][::-1]]
    c["discard"] = [int(t) for t in s.pile[b, : int(s.pile_len[b])]]
    c["players"] = [
        {
            "hand": from_counts(s.hand[b, q]),
            "known": from_counts(s.known[b, q]),
            "laid_before": bool(s.laid_before[b, q]),
            "turns_played": int(s.turns_played[b, q]),
        }
        for q in range(n)
    ]
    first_seat = {side: sides.index(side) for side in set(sides)}
    c["sides"] = [
        {
            "melds": melds_from_array(s.groups[b, i]),
            "red_threes": int(s.red_threes[b, i]),
            "opened": bool(s.opened[b, i]),
            "total": int(s.totals[b, first_seat[i]]),
            "hand_score": int(s.hand_scores[b, first_seat[i]]),
        }
        for i in range(max(sides) + 1)
    ]
    pickup = int(s.pickup_card[b])
    c["pickup"] = None if pickup < 0 else pickup
    c["locked"] = from_counts(s.pile_locked[b])
    c["asked"] = ASKED_NAMES[int(s.asked[b])]
    c["changed"] = bool(s.changed[b])
    if phase in CHECKPOINT_PHASES:
        c["checkpoint"] = {"hand": from_counts(s.cp_hand[b]), "melds": melds_from_array(s.cp_groups[b])}
    else:
        c["checkpoint"] = None
    c["start_melds"] = melds_from_array(s.start_groups[b]) if phase in START_PHASES else None
    return c
