"""Positions of classic canasta (docs/position.md, "Classic canasta"): the rule keys that
differ from the preset, the derived keys ``canonical`` fills in, the five-player sitter,
and invalid documents raising ``ValueError`` naming the problem. What every game's
positions share (round trips of random play in every preset and player count, under
changed rule keys (C0), game episodes, playing on, batches, the envs' reset, junk
values): tests/conformance/test_positions.py."""

from __future__ import annotations

import json

import pytest
from conformance.positions import after, assert_same_game, random_play

from kanaszta_env import GameBatch, Rules
from kanaszta_env.position import canonical, dump, load, load_batch


def fresh(variant: str = "pl", players: int = 4, seed: int = 0, steps: int = 0, **rule_keys) -> GameBatch:
    """One game after ``steps`` steps of random play biased to take the pile, ask and meld."""
    return after(seed, steps, 1, variant=variant, num_players=players, **rule_keys)


def test_canonical_is_idempotent_and_fills_in_the_derived_keys() -> None:
    """A document cut down to its required keys gets its derived keys back."""
    games = fresh("pl", 4, 1, steps=9)
    full = dump(games)
    assert canonical(full) == full and canonical(canonical(full)) == full
    short = {
        k: full[k] for k in ("variant", "num_players", "phase", "to_move", "starter", "stock", "discard")
    }
    short["players"] = [{k: p[k] for k in ("hand", "known", "laid_before")} for p in full["players"]]
    short["sides"] = [{k: s[k] for k in ("melds", "red_threes", "opened")} for s in full["sides"]]
    short["rng"] = full["rng"]
    kept = ("pickup", "locked", "checkpoint", "start_melds")
    short["turn_state"] = {k: v for k, v in full["turn_state"].items() if k in kept}
    assert canonical(short) == full
    assert_same_game(games, 0, load(short), 0)


def test_rule_keys_that_differ_from_the_preset() -> None:
    """``rules`` holds the keys that differ from the preset; the preset's own values are dropped."""
    games = fresh("sk", 4, 0, free_upcard=True, target_score=3000, opening_schedule=((0, 50), (2000, 90)))
    doc = dump(games)
    assert doc["rules"] == {
        "opening_schedule": [[0, 50], [2000, 90]],
        "target_score": 3000,
        "free_upcard": True,
    }
    assert load(doc).rules == games.rules
    doc["rules"]["wild_canastas"] = True  # sk's own value
    assert canonical(doc)["rules"] == dump(games)["rules"]
    pl = dump(fresh("pl", 2, 0))
    assert pl["rules"] == {} and pl["sitter"] is None and pl["mover"] == pl["to_move"]


# --- invalid documents ----------------------------------------------------------------------
def _base() -> dict:
    """pl 4p in the middle of a hand, a turn's draw: melds of side 0 only, a pile."""
    rules = Rules(variant="pl", num_players=4, random_starter=False)  # seat 0 starts: side 0 melds
    for step, games in random_play(rules, 16, size=1):
        doc = dump(games)
        if step >= 20 and doc["phase"] == "draw" and doc["discard"] and not doc["sides"][1]["melds"]:
            assert doc["sides"][0]["melds"]
            return doc
    raise AssertionError("random play met no such position")


def _first_card_holder(doc: dict) -> dict:
    return next(p for p in doc["players"] if p["hand"])


def _set(path: tuple, value: object):
    def edit(doc: dict) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _red_three_in_hand(doc: dict) -> None:
    hand = _first_card_holder(doc)["hand"]
    doc["stock"].append(hand[0])
    hand[0] = "3H"


def _melds(side: int, *melds: list[str]):
    """An edit replacing the melds of ``side``."""
    return _set(("sides", side, "melds"), list(melds))


INVALID = [
    ("unknown key", _set(("colour",), "red"), "unknown key"),
    ("missing sides", lambda d: d.pop("sides"), "missing required key"),
    ("pl with 5 players", _set(("num_players",), 5), "num_players must be one of"),
    ("unknown phase", _set(("phase",), "cut"), "unknown phase"),
    ("to_move outside the seats", _set(("to_move",), 4), "to_move must be in 0..3"),
    ("a card missing", lambda d: d["stock"].pop(), "do not add up to the 108-card deck"),
    ("an extra joker", lambda d: d["stock"].append("JK"), r"5 × JK \(the deck has 4\)"),
    ("red three in a hand", _red_three_in_hand, "red three 3H"),
    ("four wilds in a meld", _melds(0, ["KS", "KH", "KD", "2C", "2S", "JK", "JK"]), "C5.2"),
    ("a meld of two ranks", _melds(1, ["KS", "QH", "KD"]), "is not a meld"),
    ("two melds of one rank", _melds(1, ["KS", "KH", "KD"], ["KC", "KS", "2C"]), "two K melds"),
    ("wild meld in pl", _melds(1, ["2S", "2H", "JK"]), "wild_canastas"),
    ("three sides for four players", lambda d: d["sides"].append(d["sides"][0]), "has 2 sides"),
    ("a sitter with four players", _set(("sitter",), 1), "sitter is only for five players"),
    ("turns_played off", lambda d: d["players"][0].update(turns_played=99), "turns_played is 99"),
    ("exhausted with a stock", lambda d: d.update(phase="over", end_reason="exhausted"), "needs an empty"),
    ("checkpoint in draw", _set(("turn_state",), {"checkpoint": {"hand": [], "melds": []}}), "phase 'draw'"),
    ("waiting outside the answer", _set(("turn_state", "asked"), "waiting"), "answer"),
    ("unknown rule key", _set(("rules",), {"jokers": 8}), "unknown rule key"),
    ("bad rule value", _set(("rules",), {"wild_freeze": "never"}), "wild_freeze must be one of"),
    ("known cards not held", lambda d: _first_card_holder(d).update(known=["JK"] * 5), "known lists cards"),
    ("pl sides opened apart", _set(("sides", 1, "opened"), False), "every side has opened or none"),
    ("pickup of a wild", _set(("turn_state", "pickup"), "2S"), "only a natural"),
    ("a card name", lambda d: d["discard"].append("1X"), "unknown card '1X'"),
    ("a hand that is a string", lambda d: d["players"][0].update(hand="AS KS"), "must be a list"),
    ("answer without permission", _set(("phase",), "answer"), "mover's partner"),
]


@pytest.mark.parametrize(("name", "edit", "message"), INVALID, ids=[case[0] for case in INVALID])
def test_invalid_documents_raise_value_error_naming_the_problem(name: str, edit, message: str) -> None:
    doc = _base()
    load(doc)  # the base document is valid
    edit(doc)
    with pytest.raises(ValueError, match=message):
        load(doc)
    with pytest.raises(ValueError, match=message):
        canonical(json.dumps(doc))


def test_a_position_with_no_legal_action_is_refused() -> None:
    """Every live position offers an action: in his meld phase a player holding one card,
    with no canasta and nothing laid this turn to take back, has none (C4.3, C12.2)."""
    games = GameBatch(Rules(variant="pl", num_players=2), 1)
    games.reset(seed=3)
    doc = dump(games)
    hand = doc["players"][doc["to_move"]]["hand"]
    doc["stock"] = hand[1:] + doc["stock"]
    doc["players"][doc["to_move"]]["hand"] = hand[:1]
    doc["phase"] = "meld"
    with pytest.raises(ValueError, match="player 1 has no legal action in phase 'meld'"):
        load(doc)
    with pytest.raises(ValueError, match="position 1: player 1 has no legal action"):
        load_batch([dump(games), doc])
    with pytest.raises(ValueError, match="position 0: player 1 has no legal action"):
        load_batch([doc, dump(games)])


def test_six_and_five_player_documents_are_checked_too() -> None:
    """sk 6p counts a 162-card deck; with five players the sitter (a trio member) has no
    hand and no turn, and holds no cards."""
    six = dump(fresh("sk", 6, 1, steps=30))
    assert len(six["sides"]) == 2 and len(six["players"]) == 6
    six["stock"].append("KD")
    with pytest.raises(ValueError, match=r"162-card deck \(C1.1\): 4 × KD \(the deck has 3\)"):
        load(six)
    five = dump(fresh("sk", 5, 1, steps=30))
    sitter = five["sitter"]
    assert five["players"][sitter]["hand"] == [] and five["players"][sitter]["turns_played"] == 0
    with pytest.raises(ValueError, match="sitter must be a trio member"):
        load({**five, "sitter": 1})  # a member of the pair
    giver = next(q for q, p in enumerate(five["players"]) if len(p["hand"]) > 2)
    five["players"][sitter]["hand"] = [five["players"][giver]["hand"].pop()]
    five["players"][giver]["known"] = []
    with pytest.raises(ValueError, match=r"players\[\d\] sits this hand out"):
        load(five)
