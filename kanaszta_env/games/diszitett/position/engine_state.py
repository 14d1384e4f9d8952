"""The parsed form of a position <-> the engine's state arrays: :func:`to_games`
builds a :class:`~kanaszta_env.engine.GameBatch` of one game (and checks the
card census on it), :func:`from_games` reads one game of a batch back."""

from __future__ import annotations

from typing import Any

from ....cards import NUM_GROUPS
from ....engine import GameBatch
from ....position.batching import read_table, write_table
from ....position.cardlists import from_counts, from_rows, row
from ....position.fields import counts
from ..invariants import conservation_errors
from ..kernels.state import FREE_NAMES, NO_CARD, PHASE_NAMES, State
from .schema import END_NAMES, PICKUP_NAMES


# --- parsed form -> engine state -----------------------------------------------------------
def to_games(c: dict) -> GameBatch:
    """A batch of one game holding the parsed position ``c``; raises ``ValueError``
    if its cards do not add up to the deck (R1.1)."""
    games = GameBatch(c["rules"], 1)
    s = games.state  # the state type of the kernels the rules compile (a preset's own variant too)
    _write_players(s, c)
    _write_table(s, c)
    _write_turn(s, c)
    errors = conservation_errors(s, 0)
    if errors:
        raise ValueError("the cards do not add up to the 112-card deck: " + "; ".join(errors))
    games.state = s
    return games


def _write_players(s: State, c: dict) -> None:
    for q, p in enumerate(c["players"]):
        s.hand[0, q] = counts(p["hand"], "hand")
        for g, types in p["groups"].items():
            s.groups[0, q, g] = row(types)
        s.sep_heart_aces[0, q] = p["separate_heart_aces"]
        s.red_threes[0, q] = (p["red_three_hearts"], p["red_threes"] - p["red_three_hearts"])
        s.red_three_debt[0, q] = p["red_three_debt"]
        s.twins[0, q] = p["twins"]
        s.opened[0, q] = p["opened"]
        s.free_pickup[0, q] = FREE_NAMES.index(p["free_pickup"])
        s.known[0, q] = counts(p["known"], "known")
        s.turns_played[0, q] = p["turns_played"]
        s.totals[0, q] = p["total"]
        s.hand_scores[0, q] = p["hand_score"]


def _write_table(s: State, c: dict) -> None:
    write_table(s, 0, c, PHASE_NAMES, END_NAMES, ("to_move", "starter", "turn", "hand_number"))
    s.stock_known[0] = c["stock_known_bottom"]
    s.pile_owner[0, : len(c["discard"])] = c["discard_owners"]
    s.pile_fresh[0] = c["top_fresh"]
    cut = c["cut"]
    s.cut_cards[0] = NO_CARD if cut is None else cut["cards"]
    s.cut_kept[0] = -1
    if cut is not None:
        s.cut_kept[0, : len(cut["kept"])] = cut["kept"]
    s.cut_index[0] = 3 if cut is None else len(cut["kept"])


def _write_turn(s: State, c: dict) -> None:
    cp = c["checkpoint"]
    s.cp_hand[0] = counts(cp["hand"], "checkpoint hand")
    for g, types in cp["groups"].items():
        s.cp_groups[0, g] = row(types)
    s.cp_sep_heart_aces[0] = cp["separate_heart_aces"]
    for g, pair in c["locked"].items():
        s.locked[0, g] = pair
    s.lifted[0] = NO_CARD if c["lifted"] is None else c["lifted"]
    s.lifted_from[0] = -1 if c["lifted_from"] is None else c["lifted_from"]
    s.changed[0] = c["changed"]
    pickup = c["pickup"]
    s.pickup_kind[0] = PICKUP_NAMES.index(pickup["kind"])
    s.pickup_size[0] = pickup["size"]
    s.pickup_card[0] = NO_CARD if pickup["card"] is None else pickup["card"]
    s.pickup_from_hand[0] = pickup["from_hand"]


# --- engine state -> parsed form -----------------------------------------------------------
def from_games(games: GameBatch, b: int) -> dict:
    """The parsed form of game ``b`` (the inverse of :func:`to_games`)."""
    s, rules = games.state, games.rules
    c: dict[str, Any] = {k: getattr(rules, k) for k in ("variant", "opening_minimum", "num_players")}
    c["rules"] = rules
    c["players"] = [_read_player(s, b, q) for q in range(rules.num_players)]
    c.update(read_table(s, b, PHASE_NAMES, END_NAMES, ("starter", "to_move", "turn", "hand_number")))
    c["discard_owners"] = [int(x) for x in s.pile_owner[b, : len(c["discard"])]]
    c["stock_known_bottom"] = int(s.stock_known[b])
    c["top_fresh"] = bool(s.pile_fresh[b])
    c["cut"] = None
    if s.cut_cards[b, 0] != NO_CARD:
        kept = s.cut_kept[b, : s.cut_index[b]]
        c["cut"] = {"cards": [int(t) for t in s.cut_cards[b]], "kept": [bool(k) for k in kept]}
    _read_turn(s, b, c)
    return c


def _read_player(s: State, b: int, q: int) -> dict:
    return {
        "hand": from_counts(s.hand[b, q]),
        "groups": from_rows(s.groups[b, q]),
        "separate_heart_aces": int(s.sep_heart_aces[b, q]),
        "red_threes": int(s.red_threes[b, q].sum()),
        "red_three_hearts": int(s.red_threes[b, q, 0]),
        "twins": int(s.twins[b, q]),
        "opened": bool(s.opened[b, q]),
        "free_pickup": FREE_NAMES[s.free_pickup[b, q]],
        "total": int(s.totals[b, q]),
        "red_three_debt": int(s.red_three_debt[b, q]),
        "known": from_counts(s.known[b, q]),
        "turns_played": int(s.turns_played[b, q]),
        "hand_score": int(s.hand_scores[b, q]),
    }


def _read_turn(s: State, b: int, c: dict) -> None:
    c["checkpoint"] = {
        "hand": from_counts(s.cp_hand[b]),
        "groups": from_rows(s.cp_groups[b]),
        "separate_heart_aces": int(s.cp_sep_heart_aces[b]),
    }
    c["locked"] = {g: [int(x) for x in s.locked[b, g]] for g in range(NUM_GROUPS) if s.locked[b, g].any()}
    c["lifted"] = None if s.lifted[b] == NO_CARD else int(s.lifted[b])
    c["lifted_from"] = None if s.lifted_from[b] < 0 else int(s.lifted_from[b])
    c["changed"] = bool(s.changed[b])
    c["pickup"] = {
        "kind": PICKUP_NAMES[s.pickup_kind[b]],
        "size": int(s.pickup_size[b]),
        "card": None if s.pickup_card[b] == NO_CARD else int(s.pickup_card[b]),
        "from_hand": int(s.pickup_from_hand[b]),
    }
