"""Positions of mini canasta (the JSON documents of docs/position.md, this game's keys):
``{"variant", "rules", "phase", "to_move", "starter", "turn", "hand_number", "rng",
"end_reason", "out_player", "stock" (top first), "discard" (bottom first), "players":
[{"hand", "melds": [[cards], ...], "total", "hand_score"}, ...]}``. Parsed, checked and
converted by the package's :class:`~kanaszta_env.position.codec.Codec`."""

from __future__ import annotations

from typing import Any

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.cards import NUM_TYPES, RANKS, TYPE_NAMES, card_rank
from kanaszta_env.core.common import END_NAMES
from kanaszta_env.engine import GameBatch
from kanaszta_env.position.batching import batch_of
from kanaszta_env.position.codec import Codec
from kanaszta_env.position.fields import read_choice, read_int, read_list, read_object

from .actions import MELD_RANKS
from .kernels.state import PHASE_NAMES
from .spec import MINI

INT32 = 2**31 - 1
REQUIRED_KEYS = ("variant", "phase", "to_move", "starter", "stock", "discard", "players")
OPTIONAL_KEYS = ("rules", "turn", "hand_number", "rng", "end_reason", "out_player")
PLAYER_KEYS = ("hand", "melds", "total", "hand_score")
RULE_KEYS = ("target_score", "max_turns", "episode", "max_hands", "random_starter")
PHASES = PHASE_NAMES[1:]
WILD = np.array([t == NUM_TYPES - 1 or card_rank(t) == 1 for t in range(NUM_TYPES)])


def _cards(value: object, where: str) -> list[int]:
    """Card types of a list of card names (no more copies than the deck, M1), sorted."""
    types = []
    for i, token in enumerate(read_list(value, where)):
        name = token.strip().upper() if isinstance(token, str) else None
        if name not in TYPE_NAMES:
            raise ValueError(f"{where}[{i}]: unknown card {token!r}")
        types.append(TYPE_NAMES.index(name))
    for t in set(types):
        if types.count(t) > MINI.type_copies[t]:
            raise ValueError(f"{where} holds {types.count(t)} × {TYPE_NAMES[t]}; the deck has fewer")
    return types


def _meld(value: object, where: str) -> tuple[int, list[int]]:
    """A meld (M4, M5): its slot (the rank of its naturals) and its cards."""
    cards = sorted(_cards(value, where))
    ranks = {card_rank(t) for t in cards if not WILD[t]}
    if len(ranks) != 1:
        raise ValueError(f"{where} needs naturals of one rank (M4), got {[TYPE_NAMES[t] for t in cards]}")
    wilds = int(WILD[cards].sum())
    if len(cards) < MINI.min_meld or wilds >= len(cards) - wilds:
        raise ValueError(f"{where}: a meld has 3 cards or more and fewer wilds than naturals (M4, M5)")
    return MELD_RANKS.index(ranks.pop()), cards


def _player(raw: object, where: str) -> dict:
    d = read_object(raw, where, ("hand",), PLAYER_KEYS[1:])
    melds: dict[int, list[int]] = {}
    for k, value in enumerate(read_list(d.get("melds", []), f"{where}.melds")):
        slot, cards = _meld(value, f"{where}.melds[{k}]")
        if slot in melds:
            raise ValueError(f"{where}.melds has two melds of rank {RANKS[MELD_RANKS[slot]]} (M4)")
        melds[slot] = cards
    return {
        "hand": sorted(_cards(d["hand"], f"{where}.hand")),
        "melds": dict(sorted(melds.items())),
        "total": read_int(d.get("total", 0), f"{where}.total", -INT32, INT32),
        "hand_score": read_int(d.get("hand_score", 0), f"{where}.hand_score", -INT32, INT32),
    }


def _rules(variant: str, raw: object) -> Rules:
    if not isinstance(raw, dict) or any(k not in RULE_KEYS for k in raw):
        raise ValueError(f"rules must be a JSON object of some of {list(RULE_KEYS)}, got {raw!r}")
    try:
        return Rules(variant=variant, **raw)
    except (TypeError, ValueError) as err:
        raise ValueError(f"rules: {err}") from None


def parse(doc: Any) -> dict:
    """Read each key of ``doc``, filling in the optional ones."""
    from .game import MINI_GAME

    d = read_object(doc, "position", REQUIRED_KEYS, OPTIONAL_KEYS)
    presets = {p.lower(): p for p in MINI_GAME.presets}
    variant = presets.get(d["variant"].strip().lower()) if isinstance(d["variant"], str) else None
    if variant is None:
        raise ValueError(f"variant must be one of {list(presets.values())}, got {d['variant']!r}")
    c: dict[str, Any] = {"variant": variant, "rules": _rules(variant, d.get("rules", {}))}
    c["phase"] = read_choice(d["phase"], PHASES, "phase")
    for key, default, hi in (("to_move", None, 1), ("starter", None, 1), ("turn", 0, INT32),
                             ("hand_number", 0, INT32), ("rng", 0, 2**64 - 1)):  # fmt: skip
        c[key] = read_int(d.get(key, default), key, 0, hi)
    c["stock"], c["discard"] = _cards(d["stock"], "stock"), _cards(d["discard"], "discard")
    players = read_list(d["players"], "players")
    if len(players) != 2:
        raise ValueError(f"players must list 2 players (M2), got {len(players)}")
    c["players"] = [_player(raw, f"players[{q}]") for q, raw in enumerate(players)]
    out = d.get("out_player")
    c["out_player"] = None if out is None else read_int(out, "out_player", 0, 1)
    over = c["phase"] == "over"
    default_end = "none" if not over else "out" if out is not None else "exhausted"
    c["end_reason"] = read_choice(d.get("end_reason", default_end), END_NAMES, "end_reason")
    return c


def check(c: dict) -> None:
    """The position as a whole: the deck exactly (M1), the hand's end (M7), a playable turn."""
    everything = c["stock"] + c["discard"]
    for p in c["players"]:
        everything += p["hand"] + [t for cards in p["melds"].values() for t in cards]
    found = np.bincount(everything, minlength=NUM_TYPES)
    wrong = [f"{TYPE_NAMES[t]} {found[t]}" for t in range(NUM_TYPES) if found[t] != MINI.type_copies[t]]
    if wrong:
        raise ValueError(f"the cards are not one deck and two jokers (M1): {', '.join(wrong)}")
    if (c["phase"] == "over") == (c["end_reason"] == "none"):
        raise ValueError(f"end_reason {c['end_reason']!r} does not fit phase {c['phase']!r} (M7)")
    if (c["out_player"] is not None) != (c["end_reason"] == "out"):
        raise ValueError("out_player is given exactly when end_reason is 'out' (M7)")
    if c["phase"] != "over" and not c["players"][c["to_move"]]["hand"]:
        raise ValueError("the player to move has an empty hand (M6, M7)")
    if c["phase"] == "draw" and not c["stock"]:
        raise ValueError("the stock is empty in phase draw: the hand would have ended (M7)")


def _write_game(s: Any, b: int, c: dict) -> None:
    for q, p in enumerate(c["players"]):
        s.hand[b, q] = np.bincount(p["hand"], minlength=NUM_TYPES)
        for slot, cards in p["melds"].items():
            s.melds[b, q, slot] = np.bincount(cards, minlength=NUM_TYPES)
        s.totals[b, q], s.hand_scores[b, q] = p["total"], p["hand_score"]
    stock = c["stock"][::-1]
    s.stock[b, : len(stock)], s.stock_len[b] = stock, len(stock)
    s.pile[b, : len(c["discard"])], s.pile_len[b] = c["discard"], len(c["discard"])
    s.phase[b] = PHASE_NAMES.index(c["phase"])
    for key in ("to_move", "starter", "turn", "hand_number"):
        getattr(s, key)[b] = c[key]
    s.rng[b] = np.uint64(c["rng"])
    s.end_reason[b] = END_NAMES.index(c["end_reason"])
    s.out_player[b] = -1 if c["out_player"] is None else c["out_player"]


def to_games(cs: list[dict]) -> GameBatch:
    """A batch of the parsed positions ``cs``, one game each."""
    return batch_of(cs, _write_game)


def from_games(games: GameBatch, b: int) -> dict:
    """The parsed form of game ``b`` of ``games``."""
    s = games.state
    c: dict[str, Any] = {"variant": games.rules.variant, "rules": games.rules}
    c["phase"] = PHASE_NAMES[int(s.phase[b])]
    for key in ("to_move", "starter", "turn", "hand_number", "rng"):
        c[key] = int(getattr(s, key)[b])
    c["stock"] = [int(t) for t in s.stock[b, : int(s.stock_len[b])][::-1]]
    c["discard"] = [int(t) for t in s.pile[b, : int(s.pile_len[b])]]
    c["players"] = [
        {
            "hand": list(np.repeat(np.arange(NUM_TYPES), s.hand[b, q])),
            "melds": {
                i: list(np.repeat(np.arange(NUM_TYPES), m)) for i, m in enumerate(s.melds[b, q]) if m.any()
            },
            "total": int(s.totals[b, q]),
            "hand_score": int(s.hand_scores[b, q]),
        }
        for q in range(2)
    ]
    c["end_reason"] = END_NAMES[int(s.end_reason[b])]
    c["out_player"] = None if s.out_player[b] < 0 else int(s.out_player[b])
    return c


def to_doc(c: dict) -> dict:
    """The canonical document: every key, cards by name, melds in rank order."""
    preset = Rules(variant=c["variant"])
    names = lambda types: [TYPE_NAMES[int(t)] for t in types]  # noqa: E731
    return {
        "variant": c["variant"],
        "rules": {
            k: getattr(c["rules"], k) for k in RULE_KEYS if getattr(c["rules"], k) != getattr(preset, k)
        },
        **{k: c[k] for k in ("phase", "to_move", "starter", "turn", "hand_number", "rng", "end_reason")},
        "out_player": c["out_player"],
        "stock": names(c["stock"]),
        "discard": names(c["discard"]),
        "players": [
            {
                "hand": names(p["hand"]),
                "melds": [names(m) for m in p["melds"].values()],
                "total": p["total"],
                "hand_score": p["hand_score"],
            }
            for p in c["players"]
        ],
    }


CODEC = Codec(parse, check, to_games, to_doc, from_games)
load, load_batch, canonical, dump = CODEC.load, CODEC.load_batch, CODEC.canonical, CODEC.dump
