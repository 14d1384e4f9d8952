"""Parsing: a document (dict or JSON text) -> a checked, completed dict holding
card types (the *parsed form*, shared with :mod:`.engine_state` and
:mod:`.document`). Each key is checked on its own here; consistency between
keys is :mod:`.validate`'s job."""

from __future__ import annotations

import json
from typing import Any

from ....cards import DECK_SIZE, GROUP_NAMES, IS_WILD, RED_THREES, TYPE_NAMES
from ....position.fields import (
    counts,
    read_bool,
    read_card,
    read_cards,
    read_choice,
    read_groups,
    read_hand,
    read_heart_aces,
    read_int,
    read_list,
    read_object,
)
from ....rules import CLASSIC_SCHEDULE, EPISODES, Rules
from .. import DISZITETT_GAME, OPENING_MINIMA
from ..kernels.state import FREE_NAMES, PHASE_NAMES
from .schema import (
    CHECKPOINT_KEYS,
    END_NAMES,
    INT32,
    OPTIONAL_KEYS,
    PICKUP_KEYS,
    PICKUP_NAMES,
    PLAYER_OPTIONAL,
    PLAYER_REQUIRED,
    REQUIRED_KEYS,
    RULE_DEFAULTS,
    TURN_PHASES,
    TURN_STATE_KEYS,
)


def parse(doc: dict | str) -> dict:
    """Read, check and complete a document; the result holds card types."""
    if isinstance(doc, str):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as err:
            raise ValueError(f"position is not valid JSON: {err}") from None
    d = read_object(doc, "position", REQUIRED_KEYS, OPTIONAL_KEYS)
    c: dict[str, Any] = {
        "variant": read_choice(d["variant"], tuple(DISZITETT_GAME.presets), "variant"),
        "opening_minimum": read_choice(d["opening_minimum"], OPENING_MINIMA, "opening_minimum"),
        "opening_schedule": _schedule(d.get("opening_schedule")),
        "episode": read_choice(d.get("episode", "hand"), EPISODES, "episode"),
    }
    for key in ("target_score", "max_turns", "max_hands"):
        c[key] = read_int(d.get(key, RULE_DEFAULTS[key]), key, 1, INT32)
    n = c["num_players"] = read_int(d["num_players"], "num_players", 2, 4)
    raw_players = read_list(d["players"], "players")
    if len(raw_players) != n:
        raise ValueError(f"num_players is {n} but players lists {len(raw_players)} players")
    c["rules"] = Rules(**{k: c[k] for k in ("variant", "num_players", "opening_minimum", *RULE_DEFAULTS)})
    c["starter"] = read_int(d["starter"], "starter", 0, n - 1)
    c["to_move"] = read_int(d["to_move"], "to_move", 0, n - 1)
    c["phase"] = read_choice(d["phase"], PHASE_NAMES, "phase")
    c["stock"] = read_cards(d["stock"], "stock")
    c["discard"] = read_cards(d["discard"], "discard")
    for key in ("stock", "discard"):
        counts(c[key], key)
    heart_aces = c["rules"].heart_aces
    c["players"] = [_player(raw, f"players[{q}]", heart_aces) for q, raw in enumerate(raw_players)]
    _table(d, c)
    _turn_state(d.get("turn_state", {}), c)
    _defaults(d, c)
    return c


def derived_checkpoint(c: dict) -> dict:
    """The checkpoint ``load`` assumes when a document gives none: the mover's
    current cards, with a lifted wild back where it came from."""
    mover = c["players"][c["to_move"]]
    groups = {g: list(types) for g, types in mover["groups"].items()}
    if c["lifted"] is not None:
        groups[c["lifted_from"]] = sorted([*groups.get(c["lifted_from"], []), c["lifted"]])
    return {
        "hand": list(mover["hand"]),
        "groups": dict(sorted(groups.items())),
        "separate_heart_aces": mover["separate_heart_aces"],
    }


def _schedule(schedule: object) -> list[list[int]] | None:
    if schedule is None:
        return None
    if schedule == "classic":
        return [list(step) for step in CLASSIC_SCHEDULE]
    steps = read_list(schedule, "opening_schedule")
    for i, step in enumerate(steps):
        if not isinstance(step, list) or len(step) != 2:
            raise ValueError(f"opening_schedule[{i}] must be a [threshold, minimum] pair, got {step!r}")
    return [
        [read_int(t, "opening_schedule threshold", 0, INT32), read_int(m, "opening_schedule minimum", 0, 999)]
        for t, m in steps
    ]


def _player(raw: object, where: str, heart_aces: bool) -> dict:
    d = read_object(raw, where, PLAYER_REQUIRED, PLAYER_OPTIONAL)
    p = {
        "hand": read_hand(d["hand"], f"{where}.hand"),
        "groups": read_groups(d["groups"], f"{where}.groups"),
        "separate_heart_aces": read_heart_aces(
            d["separate_heart_aces"], f"{where}.separate_heart_aces", heart_aces
        ),
        "red_threes": read_int(d["red_threes"], f"{where}.red_threes", 0, 4),
        "twins": read_int(d["twins"], f"{where}.twins", 0, 2**15 - 1),
        "opened": read_bool(d["opened"], f"{where}.opened"),
        "free_pickup": read_choice(d["free_pickup"], FREE_NAMES, f"{where}.free_pickup"),
        "total": read_int(d["total"], f"{where}.total", -INT32, INT32),
        "red_three_debt": read_int(d.get("red_three_debt", 0), f"{where}.red_three_debt", 0, 4),
        "known": sorted(read_cards(d.get("known", []), f"{where}.known")),
        "hand_score": read_int(d.get("hand_score", 0), f"{where}.hand_score", -INT32, INT32),
        "raw": d,
    }
    if "red_three_hearts" in d:
        p["red_three_hearts"] = read_int(d["red_three_hearts"], f"{where}.red_three_hearts", 0, 2)
    return p


def _table(d: dict, c: dict) -> None:
    """Keys of the table and the flow of the hand."""
    n = c["num_players"]
    c["hand_number"] = read_int(d.get("hand_number", 0), "hand_number", 0, INT32)
    c["rng"] = read_int(d.get("rng", 0), "rng", 0, 2**64 - 1)
    c["stock_known_bottom"] = read_int(d.get("stock_known_bottom", 0), "stock_known_bottom", 0, 3)
    if c["stock_known_bottom"] > len(c["stock"]):
        raise ValueError(f"stock_known_bottom is {c['stock_known_bottom']} but the stock has fewer cards")
    owners = d.get("discard_owners", [-1] * len(c["discard"]))
    c["discard_owners"] = [
        read_int(x, "discard_owners entry", -1, n - 1) for x in read_list(owners, "discard_owners")
    ]
    if len(c["discard_owners"]) != len(c["discard"]):
        raise ValueError(
            f"discard_owners has {len(c['discard_owners'])} entries for {len(c['discard'])} discard cards"
        )
    _cut(d.get("cut"), c)


def _cut(cut: object, c: dict) -> None:
    """The cut (R3): its three cards and the decisions taken."""
    if cut is None:
        c["cut"] = None
    else:
        cut = read_object(cut, "cut", ("cards", "kept"), ())
        cards = read_cards(cut["cards"], "cut.cards")
        if len(cards) != 3:
            raise ValueError(f"cut.cards must list 3 cards, got {len(cards)}")
        kept = [read_bool(k, "cut.kept entry") for k in read_list(cut["kept"], "cut.kept")]
        c["cut"] = {"cards": cards, "kept": kept}
    if c["phase"] == "cut":
        top = c["stock"][:3]
        if c["cut"] is None:
            c["cut"] = {"cards": top, "kept": []}
        elif c["cut"]["cards"] != top:
            raise ValueError("in phase 'cut' cut.cards must be the stock's top three cards (R3.1)")
        if len(c["cut"]["kept"]) > 2:
            raise ValueError("in phase 'cut' at most 2 of the 3 cut decisions can have been made")
    elif c["cut"] is not None and len(c["cut"]["kept"]) != 3:
        raise ValueError("after the cut, cut.kept must hold the 3 decisions")


def _turn_state(raw: object, c: dict) -> None:
    """The current turn: checkpoint (R12.5), locked and lifted wilds (R13.2), pickup (R8)."""
    d = read_object(raw, "turn_state", (), TURN_STATE_KEYS)
    lifted = d.get("lifted")
    c["lifted"] = None if lifted is None else read_card(lifted, "turn_state.lifted")
    if c["lifted"] is not None and not IS_WILD[c["lifted"]]:
        raise ValueError(f"turn_state.lifted must be a wild (R13.2), got {TYPE_NAMES[c['lifted']]}")
    source = d.get("lifted_from")
    if (source is None) != (lifted is None):
        raise ValueError("turn_state.lifted and turn_state.lifted_from must be given together")
    c["lifted_from"] = (
        None
        if source is None
        else GROUP_NAMES.index(read_choice(source, GROUP_NAMES, "turn_state.lifted_from"))
    )
    c["locked"] = _locked(d.get("locked", {}))
    c["changed"] = read_bool(d.get("changed", False), "turn_state.changed")
    pk = read_object(d.get("pickup", {}), "turn_state.pickup", (), PICKUP_KEYS)
    card = pk.get("card")
    c["pickup"] = {
        "kind": read_choice(pk.get("kind", "none"), PICKUP_NAMES, "turn_state.pickup.kind"),
        "size": read_int(pk.get("size", 0), "turn_state.pickup.size", 0, DECK_SIZE),
        "card": None if card is None else read_card(card, "turn_state.pickup.card"),
        "from_hand": read_int(pk.get("from_hand", 0), "turn_state.pickup.from_hand", 0, 127),
    }
    if "checkpoint" in d:
        heart_aces = c["rules"].heart_aces
        cp = read_object(d["checkpoint"], "turn_state.checkpoint", CHECKPOINT_KEYS, ())
        c["checkpoint"] = {
            "hand": read_hand(cp["hand"], "turn_state.checkpoint.hand"),
            "groups": read_groups(cp["groups"], "turn_state.checkpoint.groups"),
            "separate_heart_aces": read_heart_aces(
                cp["separate_heart_aces"], "turn_state.checkpoint.separate_heart_aces", heart_aces
            ),
        }
    else:
        c["checkpoint"] = derived_checkpoint(c)


def _locked(raw_locked: object) -> dict[int, list[int]]:
    """Wilds placed this turn per group, ``[small, big]``, zero entries dropped (R13.2)."""
    if not isinstance(raw_locked, dict):
        raise ValueError("turn_state.locked must be an object {group: [small, big]}")
    locked: dict[int, list[int]] = {}
    for name, pair in raw_locked.items():
        g = GROUP_NAMES.index(read_choice(name, GROUP_NAMES, "turn_state.locked group"))
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"turn_state.locked[{name!r}] must be [small, big], got {pair!r}")
        pair_counts = [read_int(x, f"turn_state.locked[{name!r}]", 0, 8) for x in pair]
        if any(pair_counts):
            locked[g] = pair_counts
    return dict(sorted(locked.items()))


def _defaults(d: dict, c: dict) -> None:
    """Optional keys whose default depends on other keys (docs/position.md)."""
    _turns(d, c)
    players = c["players"]
    hearts_left = 2 - c["stock"].count(RED_THREES[0])
    for q, p in enumerate(players):
        default = min(p["red_threes"], max(hearts_left, 0))
        p.setdefault("red_three_hearts", default)
        hearts_left -= p["red_three_hearts"]
        if p["red_three_hearts"] > p["red_threes"]:
            raise ValueError(f"players[{q}].red_three_hearts exceeds its red_threes")
    n, phase = c["num_players"], c["phase"]
    empty = [q for q, p in enumerate(players) if not p["hand"]]
    out = d.get("out_player", empty[0] if phase == "over" and len(empty) == 1 else None)
    c["out_player"] = None if out is None else read_int(out, "out_player", 0, n - 1)
    if "end_reason" in d:
        c["end_reason"] = read_choice(d["end_reason"], END_NAMES, "end_reason")
    elif phase != "over":
        c["end_reason"] = "none"
    elif c["out_player"] is not None:
        c["end_reason"] = "out"
    else:
        c["end_reason"] = "exhausted" if not c["stock"] and not c["discard"] else "truncated"
    fresh = bool(c["discard"]) and (phase == "over" or c["pickup"]["kind"] == "none")
    c["top_fresh"] = read_bool(d.get("top_fresh", fresh), "top_fresh")


def _turns(d: dict, c: dict) -> None:
    """``turn`` and each player's ``turns_played``, which must agree."""
    n, phase, starter = c["num_players"], c["phase"], c["starter"]
    if "turn" in d:
        c["turn"] = read_int(d["turn"], "turn", 0, INT32)
    elif phase == "cut":
        c["turn"] = 0
    else:  # the fewest turns that bring the move to to_move; the starter's first turn is a discard
        turn = (c["to_move"] - starter) % n
        c["turn"] = turn + n if turn == 0 and phase in ("draw", *TURN_PHASES) else turn
    for q, p in enumerate(c["players"]):
        played = (c["turn"] - (q - starter) % n + n - 1) // n
        p["turns_played"] = read_int(
            p["raw"].get("turns_played", played), f"players[{q}].turns_played", 0, 2**15 - 1
        )
        if p["turns_played"] != played:
            raise ValueError(
                f"players[{q}].turns_played is {p['turns_played']}, but {c['turn']} turns from "
                f"starter {starter} in seat order give {played}"
            )
