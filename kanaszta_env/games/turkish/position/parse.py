"""Reading a Turkish kanasta document (docs/position.md, "Turkish kanasta"): each key
checked on its own and the derivable keys filled in. The result, the *parsed form*,
holds card types and is shared with :mod:`.validate`, :mod:`.engine_state` and
:mod:`.document`."""

from __future__ import annotations

from typing import Any

from ....position.fields import read_bool, read_choice, read_int, read_list, read_object, read_rules
from ..kernels.melds import canasta_kind
from ..kernels.state import END_NAMES
from ..kernels.tables import CANASTA, KIND_NAMES, MELDS, NUM_FIS, PACKET, PAIRS, PLAYERS
from .cards import Meld, counts, read_pile

INT32 = 2**31 - 1
REQUIRED_KEYS = ("variant", "phase", "to_move", "starter", "stock", "discard", "fis", "players", "pairs")
OPTIONAL_KEYS = ("rules", "turn", "hand_number", "target", "rng", "end_reason", "out_player", "checkpoint")
PLAYER_REQUIRED = ("hand", "opened")
PLAYER_OPTIONAL = ("known", "layoff")
PAIR_REQUIRED = ("melds",)
PAIR_OPTIONAL = ("forced", "total", "hand_score")
MELD_REQUIRED = ("owner", "cards")
MELD_OPTIONAL = ("kind",)
FI_KEYS = ("cards", "taker", "used")
CHECKPOINT_KEYS = ("hand", "melds")
#: the Rules fields a document may set under "rules" (the rest is fixed by the preset, T2.1, T9.1)
RULE_KEYS = ("target_score", "max_turns", "episode", "max_hands", "random_starter")
PHASES = ("draw", "meld", "discard", "over")
FORCED_NAMES = ("no", "owed", "made")
#: phases in which the checkpoint means something (in phase draw the engine sets it before reading it)
CHECKPOINT_PHASES = ("meld", "discard", "over")
#: the targets a game can have: the rules' target and its two extensions (T15.2)
TARGET_STEPS = 3
TARGET_STEP = 2000


def parse(doc: dict) -> dict:
    """Read, check and complete a Turkish document (a dict whose variant is ``tr``)."""
    d = read_object(doc, "position", REQUIRED_KEYS, OPTIONAL_KEYS)
    c: dict[str, Any] = {
        "variant": d["variant"],
        "rules": read_rules(d.get("rules", {}), RULE_KEYS, variant="tr"),
    }
    c["phase"] = read_choice(d["phase"], PHASES, "phase")
    c["to_move"] = read_int(d["to_move"], "to_move", 0, PLAYERS - 1)
    c["starter"] = read_int(d["starter"], "starter", 0, PLAYERS - 1)
    over = c["phase"] == "over"
    default_turn = (c["to_move"] - c["starter"]) % PLAYERS + (1 if over else 0)
    c["turn"] = read_int(d.get("turn", default_turn), "turn", 0, INT32)
    c["hand_number"] = read_int(d.get("hand_number", 0), "hand_number", 0, INT32)
    base = c["rules"].target_score
    targets = [base + TARGET_STEP * i for i in range(TARGET_STEPS)]
    c["target"] = read_int(d.get("target", base), "target", 1, INT32)
    if c["target"] not in targets:
        raise ValueError(f"target {c['target']} must be one of {targets} (target_score and T15.2)")
    c["rng"] = read_int(d.get("rng", 0), "rng", 0, 2**64 - 1)
    c["stock"] = read_pile(d["stock"], "stock")
    c["discard"] = read_pile(d["discard"], "discard")
    out = d.get("out_player")
    c["out_player"] = None if out is None else read_int(out, "out_player", 0, PLAYERS - 1)
    default_end = (
        "none" if not over else "out" if out is not None else "exhausted" if not c["stock"] else "turn_limit"
    )
    c["end_reason"] = read_choice(d.get("end_reason", default_end), END_NAMES, "end_reason")
    c["fis"] = [_fi(raw, f"fis[{f}]") for f, raw in enumerate(_fixed(d["fis"], "fis", NUM_FIS))]
    c["players"] = [
        _player(raw, f"players[{q}]") for q, raw in enumerate(_fixed(d["players"], "players", PLAYERS))
    ]
    c["pairs"] = [_pair(raw, f"pairs[{i}]") for i, raw in enumerate(_fixed(d["pairs"], "pairs", PAIRS))]
    c["checkpoint"] = _checkpoint(d, c)
    return c


def _fixed(value: object, where: str, n: int) -> list:
    items = read_list(value, where)
    if len(items) != n:
        raise ValueError(f"{where} must list {n} entries, got {len(items)}")
    return items


def _fi(raw: object, where: str) -> dict:
    """A Fi nobody has taken (its 11 cards) or a taken one (its taker and whether it is used)."""
    d = read_object(raw, where, (), FI_KEYS)
    if "cards" in d:
        if "taker" in d or "used" in d:
            raise ValueError(
                f"{where} gives cards and a taker: a taken Fi's cards are in its taker's hand or melds"
            )
        cards = read_pile(d["cards"], f"{where}.cards", sort=True)
        if len(cards) != PACKET:
            raise ValueError(f"{where}.cards must hold the {PACKET} cards of a Fi (T3.2), got {len(cards)}")
        return {"cards": cards, "taker": None, "used": False}
    if "taker" not in d or "used" not in d:
        raise ValueError(f"{where} needs either its 11 cards (not taken) or its taker and used (taken)")
    taker = read_int(d["taker"], f"{where}.taker", 0, PLAYERS - 1)
    return {"cards": None, "taker": taker, "used": read_bool(d["used"], f"{where}.used")}


def _player(raw: object, where: str) -> dict:
    d = read_object(raw, where, PLAYER_REQUIRED, PLAYER_OPTIONAL)
    return {
        "hand": read_pile(d["hand"], f"{where}.hand", sort=True),
        "known": read_pile(d.get("known", []), f"{where}.known", sort=True),
        "opened": read_bool(d["opened"], f"{where}.opened"),
        "layoff": read_bool(d.get("layoff", False), f"{where}.layoff"),
    }


def read_melds(value: object, where: str, with_kind: bool) -> list[Meld]:
    """Melds in slot order: each ``{"owner", "cards"}`` (and ``"kind"``), at most 24 (MAX_MELDS)."""
    items = read_list(value, where)
    if len(items) > MELDS:
        raise ValueError(f"{where} lists {len(items)} melds; a pair has {MELDS} meld slots")
    out = []
    for k, raw in enumerate(items):
        at = f"{where}[{k}]"
        m = read_object(raw, at, MELD_REQUIRED, MELD_OPTIONAL if with_kind else ())
        cards = read_pile(m["cards"], f"{at}.cards", sort=True)
        if not cards:
            raise ValueError(f"{at} is an empty meld")
        owner = read_int(m["owner"], f"{at}.owner", 0, PLAYERS - 1)
        meld = {"owner": owner, "cards": cards, "kind": "none"}
        if with_kind:
            meld["kind"] = read_choice(m.get("kind", default_kind(cards)), KIND_NAMES, f"{at}.kind")
        out.append(meld)
    return out


def default_kind(cards: list[int]) -> str:
    """The kind a meld gets at the end of a turn if it has none (T8.2-T8.3)."""
    if len(cards) < CANASTA:
        return "none"
    return KIND_NAMES[int(canasta_kind(counts(cards).astype("int8"), len(cards), 0))]


def _pair(raw: object, where: str) -> dict:
    d = read_object(raw, where, PAIR_REQUIRED, PAIR_OPTIONAL)
    return {
        "melds": read_melds(d["melds"], f"{where}.melds", with_kind=True),
        "forced": read_choice(d.get("forced", "no"), FORCED_NAMES, f"{where}.forced"),
        "total": read_int(d.get("total", 0), f"{where}.total", -INT32, INT32),
        "hand_score": read_int(d.get("hand_score", 0), f"{where}.hand_score", -INT32, INT32),
    }


def mover_pair(c: dict) -> dict:
    return c["pairs"][c["to_move"] % PAIRS]


def derived_checkpoint(c: dict) -> dict | None:
    """The checkpoint ``load`` assumes: the mover's current hand and his pair's melds
    (nothing laid since); none in phase draw, where the engine sets it before reading it."""
    if c["phase"] not in CHECKPOINT_PHASES:
        return None
    melds = [{"owner": m["owner"], "cards": list(m["cards"]), "kind": "none"} for m in mover_pair(c)["melds"]]
    return {"hand": list(c["players"][c["to_move"]]["hand"]), "melds": melds}


def _checkpoint(d: dict, c: dict) -> dict | None:
    if "checkpoint" not in d:
        return derived_checkpoint(c)
    if c["phase"] not in CHECKPOINT_PHASES:
        raise ValueError(
            f"checkpoint has no meaning in phase {c['phase']!r}: give it in {list(CHECKPOINT_PHASES)}"
        )
    cp = read_object(d["checkpoint"], "checkpoint", CHECKPOINT_KEYS, ())
    return {
        "hand": read_pile(cp["hand"], "checkpoint.hand", sort=True),
        "melds": read_melds(cp["melds"], "checkpoint.melds", with_kind=False),
    }
