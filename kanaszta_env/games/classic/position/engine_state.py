"""The parsed form of a classic position <-> the engine's :class:`ClassicState`."""

from __future__ import annotations

from typing import Any

from ....engine import GameBatch
from ....position.batching import batch_of, read_table, write_table
from ..kernels.state import ASKED_NOT, END_NAMES, OUT_DISCARD, OUT_MELD, PHASE_NAMES
from ..kernels.tables import KIND_OF
from .cards import counts, from_counts, melds_array, melds_from_array
from .parse import ASKED_NAMES, CHECKPOINT_PHASES, START_PHASES, mover_side

_OUT_HOW = {"discard": OUT_DISCARD, "meld": OUT_MELD}


def to_games(cs: list[dict]) -> GameBatch:
    """A batch holding the (validated) parsed positions ``cs``, game ``b`` from ``cs[b]``
    (all of one rule set)."""
    return batch_of(cs, _write_game)


def _write_game(s: Any, b: int, c: dict) -> None:
    q_range = range(c["num_players"])
    for q in q_range:
        p = c["players"][q]
        s.hand[b, q] = counts(p["hand"])
        s.known[b, q] = counts(p["known"])
        s.laid_before[b, q] = p["laid_before"]
        s.turns_played[b, q] = p["turns_played"]
        side = c["sides"][c["side_of"][q]]
        s.totals[b, q] = side["total"]
        s.hand_scores[b, q] = side["hand_score"]
        s.side_of[b, q] = c["side_of"][q]
        s.next_seat[b, q] = c["next_seat"][q]
    table_opening = c["rules"].opening_scope == "table"
    for i, side in enumerate(c["sides"]):
        s.groups[b, i] = melds_array(side["melds"])
        s.red_threes[b, i] = side["red_threes"]
        s.opened[b, i] = side["opened"]
    if table_opening:  # pl: the engine opens every side index at once (C11.1)
        s.opened[b, :] = c["sides"][0]["opened"]
    write_table(s, b, c, PHASE_NAMES, END_NAMES, ("to_move", "starter", "turn", "hand_number"))
    s.pile_wilds[b] = sum(1 for t in c["discard"] if KIND_OF[t] >= 12)
    s.sitter[b] = -1 if c["sitter"] is None else c["sitter"]
    s.out_how[b] = 0 if c["out_how"] is None else _OUT_HOW[c["out_how"]]
    _write_turn(s, b, c)


def _write_turn(s: Any, b: int, c: dict) -> None:
    mover = c["mover"]
    current = melds_array(mover_side(c)["melds"])
    cp = c["checkpoint"]
    s.mover[b] = mover
    s.cp_hand[b] = counts(c["players"][mover]["hand"] if cp is None else cp["hand"])
    s.cp_groups[b] = current if cp is None else melds_array(cp["melds"])
    s.start_groups[b] = current if c["start_melds"] is None else melds_array(c["start_melds"])
    s.changed[b] = c["changed"]
    s.took_pile[b] = c["pickup"] is not None
    s.pickup_card[b] = -1 if c["pickup"] is None else c["pickup"]
    s.pickup_rest[b] = len(c["discard"]) if c["phase"] == "pickup" else 0
    s.pile_locked[b] = counts(c["locked"])
    s.asked[b] = ASKED_NAMES.index(c["asked"]) if c["asked"] != "none" else ASKED_NOT


def from_games(games: GameBatch, b: int) -> dict:
    """The parsed form of game ``b`` (the inverse of :func:`to_games`)."""
    s, rules = games.state, games.rules
    n = rules.num_players
    sides = list(rules.sides())
    keys = ("to_move", "mover", "starter", "turn", "hand_number")
    c: dict[str, Any] = {"variant": rules.variant, "num_players": n, "rules": rules}
    c.update(read_table(s, b, PHASE_NAMES, END_NAMES, keys))
    phase = c["phase"]
    c["sitter"] = None if s.sitter[b] < 0 else int(s.sitter[b])
    c["side_of"] = sides
    c["out_how"] = {OUT_DISCARD: "discard", OUT_MELD: "meld"}.get(int(s.out_how[b]))
    if c["out_player"] is None:
        c["out_how"] = None
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
