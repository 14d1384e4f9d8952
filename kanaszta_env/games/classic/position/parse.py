"""Reading a classic canasta document (docs/position.md, "Classic canasta"):
each key checked on its own and the derivable keys filled in. The result, the
*parsed form*, holds card types and is shared with :mod:`.validate`,
:mod:`.engine_state` and :mod:`.document`."""

from __future__ import annotations

import dataclasses
from typing import Any

from ....cards import IS_RED_THREE, TYPE_GROUP, TYPE_NAMES
from ....position.fields import (
    changed_rules,
    read_bool,
    read_card,
    read_cards,
    read_choice,
    read_int,
    read_list,
    read_object,
    read_rules,
)
from ....rules import Rules
from ..kernels.deal import _seat_order as _engine_seat_order
from ..kernels.state import END_NAMES, new_classic_state
from .cards import MELD_NAMES, Melds, meld_index

INT32 = 2**31 - 1
REQUIRED_KEYS = (
    "variant",
    "num_players",
    "phase",
    "to_move",
    "starter",
    "stock",
    "discard",
    "players",
    "sides",
)
OPTIONAL_KEYS = ("rules", "mover", "sitter", "turn", "hand_number", "rng", "end_reason", "out_player",
                 "out_how", "turn_state")  # fmt: skip
PLAYER_REQUIRED = ("hand",)
PLAYER_OPTIONAL = ("known", "laid_before", "turns_played")
SIDE_REQUIRED = ("melds", "red_threes", "opened")
SIDE_OPTIONAL = ("total", "hand_score")
TURN_STATE_KEYS = ("pickup", "locked", "asked", "changed", "checkpoint", "start_melds")
CHECKPOINT_KEYS = ("hand", "melds")
PHASES = ("draw", "meld", "discard", "pickup", "answer", "over")
ASKED_NAMES = ("none", "waiting", "yes", "no")
OUT_HOW_NAMES = ("discard", "meld")
#: the Rules fields a document may set under "rules" (variant and num_players are top-level keys)
RULE_KEYS = tuple(
    f.name for f in dataclasses.fields(Rules) if f.init and f.name not in ("variant", "num_players")
)
#: phases in which the checkpoint (cards after the draw or the pickup) means something
CHECKPOINT_PHASES = ("meld", "discard", "answer")
#: phases in which the melds at the turn's start may differ from the side's current melds
START_PHASES = ("meld", "discard", "answer", "pickup")


def parse(doc: dict) -> dict:
    """Read, check and complete a classic document (a dict whose variant is pl or sk)."""
    d = read_object(doc, "position", REQUIRED_KEYS, OPTIONAL_KEYS)
    c: dict[str, Any] = {"variant": d["variant"]}
    c["num_players"] = n = read_int(d["num_players"], "num_players", 2, 6)
    c["rules"] = read_rules(d.get("rules", {}), RULE_KEYS, variant=c["variant"], num_players=n)
    c["phase"] = read_choice(d["phase"], PHASES, "phase")
    c["to_move"] = read_int(d["to_move"], "to_move", 0, n - 1)
    c["starter"] = read_int(d["starter"], "starter", 0, n - 1)
    c["sitter"] = _sitter(d.get("sitter"), c)
    c["side_of"] = list(c["rules"].sides())
    c["next_seat"] = seat_order(n, c["starter"], c["sitter"], c["side_of"])
    default_mover = (c["to_move"] + 2) % n if c["phase"] == "answer" else c["to_move"]
    c["mover"] = read_int(d.get("mover", default_mover), "mover", 0, n - 1)
    c["hand_number"] = read_int(d.get("hand_number", 0), "hand_number", 0, INT32)
    c["rng"] = read_int(d.get("rng", 0), "rng", 0, 2**64 - 1)
    c["stock"] = read_cards(d["stock"], "stock")
    c["discard"] = read_cards(d["discard"], "discard")
    _end(d, c)
    c["players"] = [_player(raw, f"players[{q}]") for q, raw in enumerate(read_list(d["players"], "players"))]
    if len(c["players"]) != n:
        raise ValueError(f"num_players is {n} but players lists {len(c['players'])} players")
    num_sides = max(c["side_of"]) + 1
    c["sides"] = [_side(raw, f"sides[{i}]") for i, raw in enumerate(read_list(d["sides"], "sides"))]
    if len(c["sides"]) != num_sides:
        raise ValueError(
            f"{c['variant']} with {n} players has {num_sides} sides (seats {c['side_of']}), "
            f"but sides lists {len(c['sides'])}"
        )
    _turns(d, c)
    _turn_state(d.get("turn_state", {}), c)
    return c


def rule_diff(rules: Rules) -> dict:
    """The rule keys whose value differs from the preset's (``Rules(variant, num_players)``)."""
    return changed_rules(rules, RULE_KEYS, variant=rules.variant, num_players=rules.num_players)


def _sitter(raw: object, c: dict) -> int | None:
    """C2.4: with five players one trio member sits out the hand (default: the one after the starter)."""
    n, starter = c["num_players"], c["starter"]
    if n != 5:
        if raw is not None:
            raise ValueError(f"sitter is only for five players (C2.4), got {raw!r} with {n}")
        return None
    trio = [q for q, side in enumerate(c["rules"].sides()) if side == 0]
    if raw is None:
        return next(q for q in [*range(starter + 1, n), *range(starter + 1)] if q in trio and q != starter)
    sitter = read_int(raw, "sitter", 0, n - 1)
    if sitter not in trio or sitter == starter:
        raise ValueError(f"sitter must be a trio member {trio} other than the starter {starter} (C2.4)")
    return sitter


def seat_order(players: int, starter: int, sitter: int | None, side_of: list[int]) -> list[int]:
    """Who plays after each seat (-1: sits out), as the engine sets it at the deal (C2.4):
    its own function, run on a scratch state, so that a position always follows the engine."""
    s = new_classic_state(1, players)
    s.side_of[0] = side_of
    s.starter[0] = starter
    s.sitter[0] = -1 if sitter is None else sitter
    _engine_seat_order(s, 0, players)
    return [int(q) for q in s.next_seat[0]]


def turn_seats(c: dict) -> tuple[list[int], int]:
    """The seats of turns 0, 1, ... until the order repeats, and the turn where the repeating
    part starts: turn ``k`` is played by ``seats[k]``, or later by ``seats[start:]`` in a cycle."""
    seats = [c["starter"]]
    seen = {c["starter"]: 0}
    while True:
        after = c["next_seat"][seats[-1]]
        if after in seen:
            return seats, seen[after]
        seen[after] = len(seats)
        seats.append(after)


def seat_of_turn(c: dict, k: int) -> int:
    """The seat that plays turn ``k`` of the hand (turn 0: the starter)."""
    seats, start = turn_seats(c)
    return seats[k] if k < len(seats) else seats[start + (k - start) % (len(seats) - start)]


def turns_played(c: dict, turns: int) -> list[int]:
    """How many of the first ``turns`` turns each seat played."""
    seats, start = turn_seats(c)
    if turns <= len(seats):
        return [seats[:turns].count(q) for q in range(c["num_players"])]
    cycle = seats[start:]
    full, rest = divmod(turns - start, len(cycle))
    return [
        seats[:start].count(q) + full * cycle.count(q) + cycle[:rest].count(q)
        for q in range(c["num_players"])
    ]


def _end(d: dict, c: dict) -> None:
    """How a finished hand ended: end_reason, out_player, out_how."""
    over = c["phase"] == "over"
    out = d.get("out_player")
    c["out_player"] = None if out is None else read_int(out, "out_player", 0, c["num_players"] - 1)
    default = "none" if not over else ("out" if c["out_player"] is not None else "exhausted")
    c["end_reason"] = read_choice(d.get("end_reason", default), END_NAMES, "end_reason")
    how = d.get("out_how", "discard" if c["out_player"] is not None else None)
    c["out_how"] = None if how is None else read_choice(how, OUT_HOW_NAMES, "out_how")


def _player(raw: object, where: str) -> dict:
    d = read_object(raw, where, PLAYER_REQUIRED, PLAYER_OPTIONAL)
    hand = sorted(read_cards(d["hand"], f"{where}.hand"))
    for t in hand:
        if IS_RED_THREE[t]:
            raise ValueError(
                f"{where}.hand holds red three {TYPE_NAMES[t]} (C3.2, C4.2: it is laid out at once)"
            )
    return {
        "hand": hand,
        "known": sorted(read_cards(d.get("known", []), f"{where}.known")),
        "laid_before": read_bool(d.get("laid_before", False), f"{where}.laid_before"),
        "raw": d,
    }


def read_melds(value: object, where: str) -> Melds:
    """Melds as card lists, at most one per rank, one wild meld and one black-three meld (C5.4)."""
    melds: Melds = {}
    for i, raw in enumerate(read_list(value, where)):
        at = f"{where}[{i}]"
        types = sorted(read_cards(raw, at))
        if not types:
            raise ValueError(f"{at} is an empty meld")
        g = meld_index(types)
        if g is None:
            raise ValueError(
                f"{at} {[TYPE_NAMES[t] for t in types]} is not a meld: naturals of one rank (A, 4-K) with "
                "wilds, wilds only, or black threes only; red threes are never melded (C5, C9, C10)"
            )
        if g in melds:
            raise ValueError(f"{where} has two {MELD_NAMES[g]} melds (C5.4: one meld per rank per side)")
        melds[g] = types
    return dict(sorted(melds.items()))


def _side(raw: object, where: str) -> dict:
    d = read_object(raw, where, SIDE_REQUIRED, SIDE_OPTIONAL)
    return {
        "melds": read_melds(d["melds"], f"{where}.melds"),
        "red_threes": read_int(d["red_threes"], f"{where}.red_threes", 0, 6),
        "opened": read_bool(d["opened"], f"{where}.opened"),
        "total": read_int(d.get("total", 0), f"{where}.total", -INT32, INT32),
        "hand_score": read_int(d.get("hand_score", 0), f"{where}.hand_score", -INT32, INT32),
    }


def _turns(d: dict, c: dict) -> None:
    """``turn`` (default: the fewest turns that bring the move to the mover) and each
    player's ``turns_played``, which follow from it."""
    mover = c["mover"]
    if c["next_seat"][mover] < 0:
        raise ValueError(f"seat {mover} sits this hand out (sitter, C2.4) and cannot move")
    if "turn" in d:
        c["turn"] = read_int(d["turn"], "turn", 0, INT32)
    elif c["phase"] == "over" and c["end_reason"] == "turn_limit":
        c["turn"] = c["rules"].max_turns
    else:
        seats = turn_seats(c)[0]
        if mover not in seats:
            raise ValueError(f"seat {mover} never moves in this hand's seat order {c['next_seat']}")
        c["turn"] = seats.index(mover)
    # the seat of the last turn: a hand cut by the turn limit ends after its turn was counted
    last = c["turn"] - 1 if c["phase"] == "over" and c["end_reason"] == "turn_limit" else c["turn"]
    if last < 0 or seat_of_turn(c, last) != mover:
        raise ValueError(
            f"turn {c['turn']} from starter {c['starter']} in seat order gives seat "
            f"{seat_of_turn(c, max(last, 0))}, not the mover {mover}"
        )
    played = turns_played(c, c["turn"])
    for q, p in enumerate(c["players"]):
        p["turns_played"] = read_int(
            p["raw"].get("turns_played", played[q]), f"players[{q}].turns_played", 0, 2**15 - 1
        )
        if p["turns_played"] != played[q]:
            raise ValueError(
                f"players[{q}].turns_played is {p['turns_played']}, but {c['turn']} turns from "
                f"starter {c['starter']} in seat order give {played[q]}"
            )


def _turn_state(raw: object, c: dict) -> None:
    """The current turn: the pile pickup, pile cards locked for this turn (sk, C7.6), the
    partner's answer (C12.5), cards laid since the checkpoint, the checkpoint (C5.8) and the
    side's melds when the turn began."""
    d = read_object(raw, "turn_state", (), TURN_STATE_KEYS)
    phase = c["phase"]
    pickup = d.get("pickup")
    c["pickup"] = None if pickup is None else read_card(pickup, "turn_state.pickup")
    if c["pickup"] is not None and TYPE_GROUP[c["pickup"]] < 0:
        raise ValueError(
            f"turn_state.pickup {TYPE_NAMES[c['pickup']]} cannot be a pile's top card taken: "
            "only a natural A, 4-K can be taken (C7.2)"
        )
    c["locked"] = sorted(read_cards(d.get("locked", []), "turn_state.locked"))
    asked = "waiting" if phase == "answer" else "none"
    c["asked"] = read_choice(d.get("asked", asked), ASKED_NAMES, "turn_state.asked")
    c["changed_given"] = None if "changed" not in d else read_bool(d["changed"], "turn_state.changed")
    if "checkpoint" in d:
        if phase not in CHECKPOINT_PHASES:
            raise ValueError(
                f"turn_state.checkpoint has no meaning in phase {phase!r}: give it in {CHECKPOINT_PHASES}"
            )
        cp = read_object(d["checkpoint"], "turn_state.checkpoint", CHECKPOINT_KEYS, ())
        c["checkpoint"] = {
            "hand": sorted(read_cards(cp["hand"], "turn_state.checkpoint.hand")),
            "melds": read_melds(cp["melds"], "turn_state.checkpoint.melds"),
        }
    else:
        c["checkpoint"] = derived_checkpoint(c)
    if "start_melds" in d:
        if phase not in START_PHASES:
            raise ValueError(
                f"turn_state.start_melds has no meaning in phase {phase!r}: give it in {START_PHASES}"
            )
        c["start_melds"] = read_melds(d["start_melds"], "turn_state.start_melds")
    else:
        c["start_melds"] = derived_start(c)


def mover_side(c: dict) -> dict:
    return c["sides"][c["side_of"][c["mover"]]]


def derived_checkpoint(c: dict) -> dict | None:
    """The checkpoint ``load`` assumes: the mover's current cards (none outside the meld,
    discard and answer phases, where the engine sets it before reading it)."""
    if c["phase"] not in CHECKPOINT_PHASES:
        return None
    return {"hand": list(c["players"][c["mover"]]["hand"]), "melds": dict(mover_side(c)["melds"])}


def derived_start(c: dict) -> Melds | None:
    """The side's melds when the turn began, as ``load`` assumes them: the checkpoint's
    (meld, discard, answer phases), the side's current melds in the pickup phase; none in
    the draw and over phases (the side's current melds)."""
    if c["phase"] in CHECKPOINT_PHASES:
        return dict(c["checkpoint"]["melds"])
    if c["phase"] == "pickup":
        return dict(mover_side(c)["melds"])
    return None
