"""Positions: JSON documents that fully describe a game between two actions
(INTERFACES.md §3), like FEN in chess.

* :func:`load` turns a document (a ``dict`` or JSON text) into a
  :class:`~kanaszta_env.engine.GameBatch` of one game;
* :func:`dump` turns one game of a batch back into a document;
* :func:`canonical` is the normal form of a valid document, computed from the
  document alone (defaults filled in, card names upper-cased, order-free card
  lists sorted), so that ``dump(load(d)) == canonical(d)``.

Every invalid document raises ``ValueError`` naming the problem. The format,
with every optional key and its default, is documented in ``docs/position.md``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from .cards import (
    DECK_SIZE,
    GROUP_NAMES,
    GROUP_SLOTS,
    HEART_ACE,
    IS_BLACK_THREE,
    IS_RED_THREE,
    IS_WILD,
    JOKER,
    NUM_GROUPS,
    NUM_TYPES,
    RED_THREES,
    SLOT_TYPE,
    TYPE_COPIES,
    TYPE_GROUP,
    TYPE_NAMES,
    TYPE_WILD_SLOT,
    WILD_GROUP,
    WILD_SLOT0,
    parse_card,
)
from .core.melds import group_legal
from .core.state import FREE_NAMES, NO_CARD, PHASE_NAMES, new_state
from .engine import GameBatch
from .invariants import conservation_errors
from .rules import CLASSIC_SCHEDULE, EPISODES, OPENING_MINIMA, PRESETS, Rules

END_NAMES = ("none", "out", "exhausted", "truncated")
PICKUP_NAMES = ("none", "free", "pile")
#: optional rule keys and their defaults (those of :class:`~kanaszta_env.rules.Rules`)
RULE_DEFAULTS: dict[str, Any] = {"opening_schedule": None, "target_score": 10_000, "max_turns": 200,
                                 "episode": "hand", "max_hands": 200}  # fmt: skip
REQUIRED_KEYS = ("variant", "opening_minimum", "num_players", "starter", "to_move", "phase", "stock",
                 "discard", "players")  # fmt: skip
OPTIONAL_KEYS = (*RULE_DEFAULTS, "turn", "hand_number", "rng", "end_reason", "out_player",
                 "stock_known_bottom", "discard_owners", "top_fresh", "cut", "turn_state")  # fmt: skip
PLAYER_REQUIRED = ("hand", "groups", "separate_heart_aces", "red_threes", "twins", "opened",
                   "free_pickup", "total")  # fmt: skip
PLAYER_OPTIONAL = ("red_three_hearts", "red_three_debt", "known", "turns_played", "hand_score")
TURN_STATE_KEYS = ("checkpoint", "locked", "lifted", "lifted_from", "changed", "pickup")
CHECKPOINT_KEYS = ("hand", "groups", "separate_heart_aces")
PICKUP_KEYS = ("kind", "size", "card", "from_hand")

_INT32 = 2**31 - 1
_TURN_PHASES = ("meld", "pickup")  # the mover's groups may be incomplete in these
_Groups = dict[int, list[int]]  # group index -> card types, sorted


# --- public API -------------------------------------------------------------------
def load(doc: dict | str) -> GameBatch:
    """A batch of one game in the position ``doc`` (a dict or JSON text).

    Raises ``ValueError`` naming the problem if the document is invalid.
    """
    return _build(_parse(doc))


def canonical(doc: dict | str) -> dict:
    """The normal form of a valid position: every optional key filled in with its
    default, card names upper-cased, hands and other order-free card lists in
    card-type order, groups in group order (``A 4 … K wild``) with their cards in
    type order. ``dump(load(doc)) == canonical(doc)``."""
    c = _parse(doc)
    _build(c)  # the deck check runs on the built state (one implementation of it)
    return _to_doc(c)


def dump(games: GameBatch, index: int = 0) -> dict:
    """The position of game ``index`` of ``games`` as a JSON-serialisable dict."""
    if not 0 <= index < games.batch_size:
        raise IndexError(f"game index {index} outside 0..{games.batch_size - 1}")
    return _to_doc(_read(games, index))


# --- small readers that name what is wrong ------------------------------------------
def _object(value: object, where: str, required: tuple, optional: tuple) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a JSON object, got {type(value).__name__}")
    unknown = sorted(str(k) for k in value if k not in required and k not in optional)
    if unknown:
        raise ValueError(f"unknown key(s) {unknown} in {where}")
    missing = [k for k in required if k not in value]
    if missing:
        raise ValueError(f"missing required key(s) {missing} in {where}")
    return value


def _int(value: object, where: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{where} must be an integer, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{where} must be in {lo}..{hi}, got {value}")
    return int(value)


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{where} must be true or false, got {value!r}")
    return bool(value)


def _choice(value: object, names: tuple, where: str) -> Any:
    if isinstance(value, (bool, float)) or value not in names:
        raise ValueError(f"unknown {where} {value!r}: expected one of {list(names)}")
    return value


def _list(value: object, where: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{where} must be a list, got {type(value).__name__}")
    return value


def _cards(value: object, where: str) -> list[int]:
    """Card types of a list of card names, in the given order."""
    try:
        return [parse_card(token) for token in _list(value, where)]
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def _card(value: object, where: str) -> int:
    try:
        return parse_card(value)  # type: ignore[arg-type]
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def _counts(types: list[int], where: str) -> np.ndarray:
    """Counts of 53 types; no single place may hold more copies than the deck."""
    counts = np.bincount(np.asarray(types, dtype=np.int64), minlength=NUM_TYPES)
    for t in np.flatnonzero(counts > TYPE_COPIES):
        raise ValueError(f"{where} holds {counts[t]} × {TYPE_NAMES[t]}; the deck has {TYPE_COPIES[t]}")
    return counts


def _hand(value: object, where: str) -> list[int]:
    types = sorted(_cards(value, where))
    _counts(types, where)
    for t in types:
        if IS_RED_THREE[t]:
            raise ValueError(f"{where} holds red three {TYPE_NAMES[t]} (R4.4: it goes to the collection)")
    return types


def _group_index(types: list[int], where: str) -> int:
    """The group slot a card list belongs to: its natural rank, or the wild group."""
    for t in types:
        if IS_RED_THREE[t] or IS_BLACK_THREE[t]:
            kind = "red" if IS_RED_THREE[t] else "black"
            raise ValueError(f"{where} holds {kind} three {TYPE_NAMES[t]} (R1.4: threes are never melded)")
    ranks = sorted({int(TYPE_GROUP[t]) for t in types if not IS_WILD[t]})
    if len(ranks) > 1:
        names = [GROUP_NAMES[g] for g in ranks]
        raise ValueError(f"{where} mixes naturals of ranks {names} (R10.1)")
    return ranks[0] if ranks else WILD_GROUP


def _groups(value: object, where: str) -> _Groups:
    groups: _Groups = {}
    for i, raw in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        types = sorted(_cards(raw, at))
        if not types:
            raise ValueError(f"{at} is an empty group")
        _counts(types, at)
        g = _group_index(types, at)
        if g in groups:
            what = "two wilds-only groups" if g == WILD_GROUP else f"two groups of rank {GROUP_NAMES[g]}"
            raise ValueError(f"{where} has {what} (R10.4: one group per rank, one wilds-only group)")
        groups[g] = types
    return dict(sorted(groups.items()))


def _row(g: int, types: list[int]) -> np.ndarray:
    row = np.zeros(GROUP_SLOTS, dtype=np.int8)
    for t in types:
        row[WILD_SLOT0 + TYPE_WILD_SLOT[t] if IS_WILD[t] else t % 4] += 1
    return row


def _check_legal(groups: _Groups, where: str) -> None:
    for g, types in groups.items():
        if not group_legal(g, _row(g, types)):
            raise ValueError(
                f"{where}: {_names(types)} is not a legal group (R10.2: 3-8 cards with fewer wilds "
                "than naturals and no wild among 8; R10.3: 3-7 wilds only)"
            )


def _heart_aces(value: object, where: str, heart_aces: bool) -> int:
    n = _int(value, where, 0, 2)
    if n and not heart_aces:
        raise ValueError(f"{where} is {n}, but variant 2003-01 has no separate heart aces (R10.6)")
    return n


# --- parsing: document -> checked dict of card types ---------------------------------
def _parse(doc: dict | str) -> dict:
    """Read, check and complete a document; the result holds card types."""
    if isinstance(doc, str):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as err:
            raise ValueError(f"position is not valid JSON: {err}") from None
    d = _object(doc, "position", REQUIRED_KEYS, OPTIONAL_KEYS)
    c: dict[str, Any] = {
        "variant": _choice(d["variant"], tuple(PRESETS), "variant"),
        "opening_minimum": _choice(d["opening_minimum"], OPENING_MINIMA, "opening_minimum"),
        "opening_schedule": _schedule(d.get("opening_schedule")),
        "episode": _choice(d.get("episode", "hand"), EPISODES, "episode"),
    }
    for key in ("target_score", "max_turns", "max_hands"):
        c[key] = _int(d.get(key, RULE_DEFAULTS[key]), key, 1, _INT32)
    n = c["num_players"] = _int(d["num_players"], "num_players", 2, 4)
    raw_players = _list(d["players"], "players")
    if len(raw_players) != n:
        raise ValueError(f"num_players is {n} but players lists {len(raw_players)} players")
    c["rules"] = Rules(**{k: c[k] for k in ("variant", "num_players", "opening_minimum", *RULE_DEFAULTS)})
    c["starter"] = _int(d["starter"], "starter", 0, n - 1)
    c["to_move"] = _int(d["to_move"], "to_move", 0, n - 1)
    c["phase"] = _choice(d["phase"], PHASE_NAMES, "phase")
    c["stock"] = _cards(d["stock"], "stock")
    c["discard"] = _cards(d["discard"], "discard")
    for key in ("stock", "discard"):
        _counts(c[key], key)
    heart_aces = c["rules"].heart_aces
    c["players"] = [_player(raw, f"players[{q}]", heart_aces) for q, raw in enumerate(raw_players)]
    _table(d, c)
    _turn_state(d.get("turn_state", {}), c)
    _defaults(d, c)
    _check(c)
    return c


def _schedule(value: object) -> list[list[int]] | None:
    if value is None:
        return None
    if value == "classic":
        return [list(step) for step in CLASSIC_SCHEDULE]
    steps = _list(value, "opening_schedule")
    for i, step in enumerate(steps):
        if not isinstance(step, list) or len(step) != 2:
            raise ValueError(f"opening_schedule[{i}] must be a [threshold, minimum] pair, got {step!r}")
    return [
        [_int(t, "opening_schedule threshold", 0, _INT32), _int(m, "opening_schedule minimum", 0, 999)]
        for t, m in steps
    ]


def _player(raw: object, where: str, heart_aces: bool) -> dict:
    d = _object(raw, where, PLAYER_REQUIRED, PLAYER_OPTIONAL)
    p = {
        "hand": _hand(d["hand"], f"{where}.hand"),
        "groups": _groups(d["groups"], f"{where}.groups"),
        "separate_heart_aces": _heart_aces(
            d["separate_heart_aces"], f"{where}.separate_heart_aces", heart_aces
        ),
        "red_threes": _int(d["red_threes"], f"{where}.red_threes", 0, 4),
        "twins": _int(d["twins"], f"{where}.twins", 0, 2**15 - 1),
        "opened": _bool(d["opened"], f"{where}.opened"),
        "free_pickup": _choice(d["free_pickup"], FREE_NAMES, f"{where}.free_pickup"),
        "total": _int(d["total"], f"{where}.total", -_INT32, _INT32),
        "red_three_debt": _int(d.get("red_three_debt", 0), f"{where}.red_three_debt", 0, 4),
        "known": sorted(_cards(d.get("known", []), f"{where}.known")),
        "hand_score": _int(d.get("hand_score", 0), f"{where}.hand_score", -_INT32, _INT32),
        "raw": d,
    }
    if "red_three_hearts" in d:
        p["red_three_hearts"] = _int(d["red_three_hearts"], f"{where}.red_three_hearts", 0, 2)
    return p


def _table(d: dict, c: dict) -> None:
    """Keys of the table and the flow of the hand."""
    n = c["num_players"]
    c["hand_number"] = _int(d.get("hand_number", 0), "hand_number", 0, _INT32)
    c["rng"] = _int(d.get("rng", 0), "rng", 0, 2**64 - 1)
    c["stock_known_bottom"] = _int(d.get("stock_known_bottom", 0), "stock_known_bottom", 0, 3)
    if c["stock_known_bottom"] > len(c["stock"]):
        raise ValueError(f"stock_known_bottom is {c['stock_known_bottom']} but the stock has fewer cards")
    owners = d.get("discard_owners", [-1] * len(c["discard"]))
    c["discard_owners"] = [
        _int(x, "discard_owners entry", -1, n - 1) for x in _list(owners, "discard_owners")
    ]
    if len(c["discard_owners"]) != len(c["discard"]):
        raise ValueError(
            f"discard_owners has {len(c['discard_owners'])} entries for {len(c['discard'])} discard cards"
        )
    cut = d.get("cut")
    if cut is None:
        c["cut"] = None
    else:
        cut = _object(cut, "cut", ("cards", "kept"), ())
        cards = _cards(cut["cards"], "cut.cards")
        if len(cards) != 3:
            raise ValueError(f"cut.cards must list 3 cards, got {len(cards)}")
        kept = [_bool(k, "cut.kept entry") for k in _list(cut["kept"], "cut.kept")]
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
    d = _object(raw, "turn_state", (), TURN_STATE_KEYS)
    heart_aces = c["rules"].heart_aces
    lifted = d.get("lifted")
    c["lifted"] = None if lifted is None else _card(lifted, "turn_state.lifted")
    if c["lifted"] is not None and not IS_WILD[c["lifted"]]:
        raise ValueError(f"turn_state.lifted must be a wild (R13.2), got {TYPE_NAMES[c['lifted']]}")
    source = d.get("lifted_from")
    if (source is None) != (lifted is None):
        raise ValueError("turn_state.lifted and turn_state.lifted_from must be given together")
    c["lifted_from"] = (
        None if source is None else GROUP_NAMES.index(_choice(source, GROUP_NAMES, "turn_state.lifted_from"))
    )
    locked: dict[int, list[int]] = {}
    raw_locked = d.get("locked", {})
    if not isinstance(raw_locked, dict):
        raise ValueError("turn_state.locked must be an object {group: [small, big]}")
    for name, pair in raw_locked.items():
        g = GROUP_NAMES.index(_choice(name, GROUP_NAMES, "turn_state.locked group"))
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"turn_state.locked[{name!r}] must be [small, big], got {pair!r}")
        counts = [_int(x, f"turn_state.locked[{name!r}]", 0, 8) for x in pair]
        if any(counts):
            locked[g] = counts
    c["locked"] = dict(sorted(locked.items()))
    c["changed"] = _bool(d.get("changed", False), "turn_state.changed")
    pk = _object(d.get("pickup", {}), "turn_state.pickup", (), PICKUP_KEYS)
    card = pk.get("card")
    c["pickup"] = {
        "kind": _choice(pk.get("kind", "none"), PICKUP_NAMES, "turn_state.pickup.kind"),
        "size": _int(pk.get("size", 0), "turn_state.pickup.size", 0, DECK_SIZE),
        "card": None if card is None else _card(card, "turn_state.pickup.card"),
        "from_hand": _int(pk.get("from_hand", 0), "turn_state.pickup.from_hand", 0, 127),
    }
    if "checkpoint" in d:
        cp = _object(d["checkpoint"], "turn_state.checkpoint", CHECKPOINT_KEYS, ())
        c["checkpoint"] = {
            "hand": _hand(cp["hand"], "turn_state.checkpoint.hand"),
            "groups": _groups(cp["groups"], "turn_state.checkpoint.groups"),
            "separate_heart_aces": _heart_aces(
                cp["separate_heart_aces"], "turn_state.checkpoint.separate_heart_aces", heart_aces
            ),
        }
    else:  # the mover's current cards, with a lifted wild back where it came from
        mover = c["players"][c["to_move"]]
        groups = {g: list(types) for g, types in mover["groups"].items()}
        if c["lifted"] is not None:
            groups[c["lifted_from"]] = sorted([*groups.get(c["lifted_from"], []), c["lifted"]])
        c["checkpoint"] = {
            "hand": list(mover["hand"]),
            "groups": dict(sorted(groups.items())),
            "separate_heart_aces": mover["separate_heart_aces"],
        }


def _defaults(d: dict, c: dict) -> None:
    """Optional keys whose default depends on other keys (docs/position.md)."""
    n, phase, starter = c["num_players"], c["phase"], c["starter"]
    players = c["players"]
    if "turn" in d:
        c["turn"] = _int(d["turn"], "turn", 0, _INT32)
    elif phase == "cut":
        c["turn"] = 0
    else:  # the fewest turns that bring the move to to_move; the starter's first turn is a discard
        turn = (c["to_move"] - starter) % n
        c["turn"] = turn + n if turn == 0 and phase in ("draw", *_TURN_PHASES) else turn
    for q, p in enumerate(players):
        played = (c["turn"] - (q - starter) % n + n - 1) // n
        p["turns_played"] = _int(
            p["raw"].get("turns_played", played), f"players[{q}].turns_played", 0, 2**15 - 1
        )
        if p["turns_played"] != played:
            raise ValueError(
                f"players[{q}].turns_played is {p['turns_played']}, but {c['turn']} turns from "
                f"starter {starter} in seat order give {played}"
            )
    hearts_left = 2 - c["stock"].count(RED_THREES[0])
    for q, p in enumerate(players):
        default = min(p["red_threes"], max(hearts_left, 0))
        p.setdefault("red_three_hearts", default)
        hearts_left -= p["red_three_hearts"]
        if p["red_three_hearts"] > p["red_threes"]:
            raise ValueError(f"players[{q}].red_three_hearts exceeds its red_threes")
    empty = [q for q, p in enumerate(players) if not p["hand"]]
    out = d.get("out_player", empty[0] if phase == "over" and len(empty) == 1 else None)
    c["out_player"] = None if out is None else _int(out, "out_player", 0, n - 1)
    if "end_reason" in d:
        c["end_reason"] = _choice(d["end_reason"], END_NAMES, "end_reason")
    elif phase != "over":
        c["end_reason"] = "none"
    elif c["out_player"] is not None:
        c["end_reason"] = "out"
    else:
        c["end_reason"] = "exhausted" if not c["stock"] and not c["discard"] else "truncated"
    fresh = bool(c["discard"]) and (phase == "over" or c["pickup"]["kind"] == "none")
    c["top_fresh"] = _bool(d.get("top_fresh", fresh), "top_fresh")


# --- consistency of the whole position ----------------------------------------------
def _check(c: dict) -> None:
    phase, players, mover = c["phase"], c["players"], c["to_move"]
    for t in c["discard"]:
        if IS_RED_THREE[t]:
            raise ValueError(f"discard pile holds red three {TYPE_NAMES[t]} (R4.4)")
    stock_red = sum(1 for t in c["stock"] if IS_RED_THREE[t])
    collected = sum(p["red_threes"] for p in players)
    if collected + stock_red != 4:
        raise ValueError(
            f"players' red_threes add up to {collected} and the stock holds {stock_red} red threes; "
            "together they must be 4 (R4: red threes are only in the stock or in collections)"
        )
    hearts = sum(p["red_three_hearts"] for p in players)
    if hearts != 2 - c["stock"].count(RED_THREES[0]):
        raise ValueError(f"red_three_hearts add up to {hearts}, which does not match the 3H in the stock")
    for q, p in enumerate(players):
        where = f"players[{q}]"
        if p["red_three_debt"] > p["red_threes"]:
            raise ValueError(f"{where}.red_three_debt exceeds its red_threes (R4.2)")
        hand = _counts(p["hand"], f"{where}.hand")
        if (_counts(p["known"], f"{where}.known") > hand).any():
            raise ValueError(f"{where}.known lists cards that are not in the hand")
        if not (phase in _TURN_PHASES and q == mover):
            _check_legal(p["groups"], f"{where}.groups")
        if p["opened"] and not p["groups"]:
            raise ValueError(f"{where} has opened but has no groups")
        if p["groups"] and not p["opened"] and not (q == mover and phase in ("meld", "pickup", "discard")):
            raise ValueError(f"{where} has groups but has not opened (groups are laid only in his own turn)")
        # the obligatory meld of a pickup may empty the hand before the pile joins it
        if not p["hand"] and phase not in ("cut", "over") and not (phase == "pickup" and q == mover):
            raise ValueError(f"{where} has an empty hand in phase {phase!r} (R5.3: he would have gone out)")
    _check_phase(c)
    _check_turn_state(c)


def _check_phase(c: dict) -> None:
    phase, players, n = c["phase"], c["players"], c["num_players"]
    if phase == "cut":
        if any(p["hand"] for p in players):
            raise ValueError("phase 'cut' with dealt hands: the deal follows the cut (R3)")
        if len(c["stock"]) != DECK_SIZE:
            raise ValueError(f"in phase 'cut' all {DECK_SIZE} cards are in the stock, not {len(c['stock'])}")
        if c["stock_known_bottom"] or c["to_move"] != c["starter"]:
            raise ValueError("in phase 'cut' the starter moves and no stock card is known yet (R3.1)")
    if c["top_fresh"] and not c["discard"]:
        raise ValueError("top_fresh needs a non-empty discard pile")
    if phase != "over":
        if not c["stock"] and c["discard"]:
            raise ValueError(
                f"the stock is empty but the discard pile holds {len(c['discard'])} cards: the moment the "
                "stock runs out the pile becomes the new stock (R5.4), so no position between two actions "
                "has an empty stock beside a discard pile"
            )
        if c["end_reason"] != "none" or c["out_player"] is not None:
            raise ValueError(f"end_reason/out_player describe a finished hand, but the phase is {phase!r}")
        if c["to_move"] != (c["starter"] + c["turn"]) % n:
            raise ValueError(
                f"to_move must be (starter + turn) % num_players = {(c['starter'] + c['turn']) % n}"
            )
        return
    if c["end_reason"] == "none":
        raise ValueError("phase 'over' needs an end_reason other than 'none'")
    if (c["end_reason"] == "out") != (c["out_player"] is not None):
        raise ValueError("out_player must be given exactly when end_reason is 'out'")
    for q, p in enumerate(players):
        if not p["hand"] and q != c["out_player"]:
            raise ValueError(f"players[{q}] has an empty hand but did not go out")
    if c["out_player"] is not None and players[c["out_player"]]["hand"]:
        raise ValueError(f"out_player {c['out_player']} still holds cards (R14.1)")
    if c["end_reason"] == "exhausted" and (c["stock"] or c["discard"]):
        raise ValueError("end_reason 'exhausted' needs an empty stock and discard pile (R5.4)")


def _check_turn_state(c: dict) -> None:
    phase = c["phase"]
    mover = c["players"][c["to_move"]]
    cp, pickup = c["checkpoint"], c["pickup"]
    _check_legal(cp["groups"], "turn_state.checkpoint.groups")
    if pickup["kind"] == "pile":
        if pickup["card"] is None or TYPE_GROUP[pickup["card"]] < 0:
            raise ValueError("turn_state.pickup.card of a pile pickup must be a natural (R8, R9)")
        if pickup["size"] < 1:
            raise ValueError("turn_state.pickup.size of a pile pickup must be at least 1 (R8.4)")
    elif pickup["size"] or pickup["card"] is not None or pickup["from_hand"]:
        raise ValueError(f"a pickup of kind {pickup['kind']!r} has no size, card or from_hand")
    if phase in ("cut", "draw") and pickup["kind"] != "none":
        raise ValueError(f"no pickup can have happened in phase {phase!r}")
    if phase == "pickup" and pickup["kind"] != "pile":
        raise ValueError("phase 'pickup' needs turn_state.pickup.kind 'pile'")
    if c["lifted"] is not None and phase not in _TURN_PHASES:
        raise ValueError(f"no wild can be lifted in phase {phase!r} (R13.2)")
    if phase in ("cut", "draw", "discard") and (c["locked"] or c["changed"]):
        raise ValueError(f"nothing can have been laid or moved in phase {phase!r}")
    if phase in ("draw", "discard"):
        same = (
            cp["hand"] == mover["hand"]
            and cp["groups"] == mover["groups"]
            and cp["separate_heart_aces"] == mover["separate_heart_aces"]
        )
        if not same:
            raise ValueError(f"in phase {phase!r} turn_state.checkpoint must equal the mover's cards")
    if phase in _TURN_PHASES:
        now = _all_cards(mover["hand"], mover["groups"], mover["separate_heart_aces"])
        if c["lifted"] is not None:
            now[c["lifted"]] += 1
        if (now != _all_cards(cp["hand"], cp["groups"], cp["separate_heart_aces"])).any():
            raise ValueError(
                "turn_state.checkpoint must hold the same cards as the mover's hand, groups, "
                "separate heart aces and lifted wild (melding only moves cards, R12.5)"
            )
    for g, (small, big) in c["locked"].items():
        types = mover["groups"].get(g, [])
        if g != WILD_GROUP and not any(not IS_WILD[t] for t in types):
            raise ValueError(f"turn_state.locked: group {GROUP_NAMES[g]} has no naturals to hold wilds")
        if small > sum(1 for t in types if IS_WILD[t] and t != JOKER) or big > types.count(JOKER):
            raise ValueError(f"turn_state.locked: group {GROUP_NAMES[g]} holds fewer wilds than are locked")


def _all_cards(hand: list[int], groups: _Groups, heart_aces: int) -> np.ndarray:
    counts = np.bincount(np.asarray(hand, dtype=np.int64), minlength=NUM_TYPES)
    for types in groups.values():
        counts += np.bincount(np.asarray(types, dtype=np.int64), minlength=NUM_TYPES)
    counts[HEART_ACE] += heart_aces
    return counts


# --- building the engine state -----------------------------------------------------------
def _build(c: dict) -> GameBatch:
    n = c["num_players"]
    s = new_state(1, n)
    for q, p in enumerate(c["players"]):
        s.hand[0, q] = _counts(p["hand"], "hand")
        for g, types in p["groups"].items():
            s.groups[0, q, g] = _row(g, types)
        s.sep_heart_aces[0, q] = p["separate_heart_aces"]
        s.red_threes[0, q] = (p["red_three_hearts"], p["red_threes"] - p["red_three_hearts"])
        s.red_three_debt[0, q] = p["red_three_debt"]
        s.twins[0, q] = p["twins"]
        s.opened[0, q] = p["opened"]
        s.free_pickup[0, q] = FREE_NAMES.index(p["free_pickup"])
        s.known[0, q] = _counts(p["known"], "known")
        s.turns_played[0, q] = p["turns_played"]
        s.totals[0, q] = p["total"]
        s.hand_scores[0, q] = p["hand_score"]
    stock, pile = c["stock"][::-1], c["discard"]
    s.stock[0, : len(stock)] = stock
    s.stock_len[0] = len(stock)
    s.stock_known[0] = c["stock_known_bottom"]
    s.pile[0, : len(pile)] = pile
    s.pile_owner[0, : len(pile)] = c["discard_owners"]
    s.pile_len[0] = len(pile)
    s.pile_fresh[0] = c["top_fresh"]
    cut = c["cut"]
    s.cut_cards[0] = NO_CARD if cut is None else cut["cards"]
    s.cut_kept[0] = -1
    if cut is not None:
        s.cut_kept[0, : len(cut["kept"])] = cut["kept"]
    s.cut_index[0] = 3 if cut is None else len(cut["kept"])
    s.phase[0] = PHASE_NAMES.index(c["phase"])
    s.to_move[0] = c["to_move"]
    s.starter[0] = c["starter"]
    s.turn[0] = c["turn"]
    s.hand_number[0] = c["hand_number"]
    s.end_reason[0] = END_NAMES.index(c["end_reason"])
    s.out_player[0] = -1 if c["out_player"] is None else c["out_player"]
    s.rng[0] = np.uint64(c["rng"])
    cp = c["checkpoint"]
    s.cp_hand[0] = _counts(cp["hand"], "checkpoint hand")
    for g, types in cp["groups"].items():
        s.cp_groups[0, g] = _row(g, types)
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
    errors = conservation_errors(s, 0)
    if errors:
        raise ValueError("the cards do not add up to the 112-card deck: " + "; ".join(errors))
    games = GameBatch(c["rules"], 1)
    games.state = s
    return games


# --- reading the engine state --------------------------------------------------------------
def _read(games: GameBatch, b: int) -> dict:
    """The parsed form of game ``b`` (the inverse of :func:`_build`)."""
    s, rules = games.state, games.rules
    c: dict[str, Any] = {k: getattr(rules, k) for k in ("variant", "opening_minimum", "num_players")}
    c["rules"] = rules
    c["players"] = [
        {
            "hand": _from_counts(s.hand[b, q]),
            "groups": _from_rows(s.groups[b, q]),
            "separate_heart_aces": int(s.sep_heart_aces[b, q]),
            "red_threes": int(s.red_threes[b, q].sum()),
            "red_three_hearts": int(s.red_threes[b, q, 0]),
            "twins": int(s.twins[b, q]),
            "opened": bool(s.opened[b, q]),
            "free_pickup": FREE_NAMES[s.free_pickup[b, q]],
            "total": int(s.totals[b, q]),
            "red_three_debt": int(s.red_three_debt[b, q]),
            "known": _from_counts(s.known[b, q]),
            "turns_played": int(s.turns_played[b, q]),
            "hand_score": int(s.hand_scores[b, q]),
        }
        for q in range(rules.num_players)
    ]
    n_stock, n_pile = int(s.stock_len[b]), int(s.pile_len[b])
    c["stock"] = [int(t) for t in s.stock[b, :n_stock][::-1]]
    c["discard"] = [int(t) for t in s.pile[b, :n_pile]]
    c["discard_owners"] = [int(x) for x in s.pile_owner[b, :n_pile]]
    c["stock_known_bottom"] = int(s.stock_known[b])
    c["top_fresh"] = bool(s.pile_fresh[b])
    c["cut"] = None
    if s.cut_cards[b, 0] != NO_CARD:
        kept = s.cut_kept[b, : s.cut_index[b]]
        c["cut"] = {"cards": [int(t) for t in s.cut_cards[b]], "kept": [bool(k) for k in kept]}
    c["phase"] = PHASE_NAMES[s.phase[b]]
    c["end_reason"] = END_NAMES[s.end_reason[b]]
    for key, arr in (("starter", s.starter), ("to_move", s.to_move), ("turn", s.turn)):
        c[key] = int(arr[b])
    c["hand_number"], c["rng"] = int(s.hand_number[b]), int(s.rng[b])
    c["out_player"] = None if s.out_player[b] < 0 else int(s.out_player[b])
    c["checkpoint"] = {
        "hand": _from_counts(s.cp_hand[b]),
        "groups": _from_rows(s.cp_groups[b]),
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
    return c


def _from_counts(counts: np.ndarray) -> list[int]:
    return [t for t in range(NUM_TYPES) for _ in range(int(counts[t]))]


def _from_rows(groups: np.ndarray) -> _Groups:
    """Card types of each non-empty group of a (12, 9) group array, in type order."""
    out = {}
    for g in range(NUM_GROUPS):
        types = sorted(int(SLOT_TYPE[g, k]) for k in range(GROUP_SLOTS) for _ in range(int(groups[g, k])))
        if types:
            out[g] = types
    return out


# --- writing documents ---------------------------------------------------------------------
def _names(types: list[int]) -> list[str]:
    return [TYPE_NAMES[t] for t in types]


def _doc_groups(groups: _Groups) -> list[list[str]]:
    return [_names(groups[g]) for g in sorted(groups)]


def _to_doc(c: dict) -> dict:
    """The canonical document of a parsed position."""
    schedule = c["rules"].opening_schedule
    player_keys = (*PLAYER_REQUIRED, *PLAYER_OPTIONAL)
    players = []
    for p in c["players"]:
        doc = {k: p[k] for k in player_keys}
        doc.update(hand=_names(p["hand"]), groups=_doc_groups(p["groups"]), known=_names(p["known"]))
        players.append(doc)
    cut, cp, pickup = c["cut"], c["checkpoint"], c["pickup"]
    lifted, source = c["lifted"], c["lifted_from"]
    return {
        "variant": c["variant"],
        "opening_minimum": c["opening_minimum"],
        "opening_schedule": None if schedule is None else [list(step) for step in schedule],
        **{k: getattr(c["rules"], k) for k in ("target_score", "max_turns", "episode", "max_hands")},
        **{k: c[k] for k in ("num_players", "starter", "to_move", "phase", "turn", "hand_number", "rng")},
        "end_reason": c["end_reason"],
        "out_player": c["out_player"],
        "stock": _names(c["stock"]),
        "stock_known_bottom": c["stock_known_bottom"],
        "discard": _names(c["discard"]),
        "discard_owners": list(c["discard_owners"]),
        "top_fresh": c["top_fresh"],
        "cut": None if cut is None else {"cards": _names(cut["cards"]), "kept": list(cut["kept"])},
        "players": players,
        "turn_state": {
            "checkpoint": {
                "hand": _names(cp["hand"]),
                "groups": _doc_groups(cp["groups"]),
                "separate_heart_aces": cp["separate_heart_aces"],
            },
            "locked": {GROUP_NAMES[g]: list(pair) for g, pair in sorted(c["locked"].items())},
            "lifted": None if lifted is None else TYPE_NAMES[lifted],
            "lifted_from": None if source is None else GROUP_NAMES[source],
            "changed": c["changed"],
            "pickup": {**pickup, "card": None if pickup["card"] is None else TYPE_NAMES[pickup["card"]]},
        },
    }
