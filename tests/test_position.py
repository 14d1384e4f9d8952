"""Positions of Díszített kanaszta (docs/position.md): round trips ``dump(load(d)) ==
canonical(d)`` and ``load(dump(g))`` on hand-written documents and under the format's
rule keys, and every invalid document raising ``ValueError`` naming the problem. What
every game's positions share (round trips of random play, playing on, batches, junk
values): tests/conformance/test_positions.py."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from conformance.positions import assert_round_trip, assert_same_game

from kanaszta_env import position
from kanaszta_env.cards import TYPE_COPIES, TYPE_NAMES
from kanaszta_env.games.diszitett import actions as A
from kanaszta_env.games.diszitett.kernels.state import PHASE_NAMES
from kanaszta_env.position import canonical, dump, load

DECK = [name for t, name in enumerate(TYPE_NAMES) for _ in range(TYPE_COPIES[t])]


# --- helpers ------------------------------------------------------------------------------
def player(hand: list[str], **kw: object) -> dict:
    doc = {"hand": hand, "groups": [], "separate_heart_aces": 0, "red_threes": 0, "twins": 0}
    return doc | {"opened": False, "free_pickup": "gone", "total": 0, **kw}


def complete(doc: dict, collection: tuple[str, ...] = ()) -> dict:
    """Fill ``stock`` with every card not elsewhere, in a fixed shuffled order; ``collection``
    lists the red threes held by the players (counts alone do not say which)."""
    used = [*doc["discard"], *collection]
    for p in doc["players"]:
        used += [*p["hand"], *(c for g in p["groups"] for c in g), *["AH"] * p["separate_heart_aces"]]
    left = Counter(DECK)
    left.subtract(c.upper() for c in used)
    assert min(left.values()) >= 0, "test document uses a card too often"
    doc["stock"] = sorted(left.elements(), key=TYPE_NAMES.index)
    np.random.default_rng(7).shuffle(doc["stock"])
    return doc


P1_HAND = ["5S", "5H", "7C", "9D", "10H", "QS", "QC", "3S", "JD", "8H", "6C"]


def example_doc(**changes: object) -> dict:
    """The example of docs/position.md made complete: a second player, and a stock
    holding every other card."""
    p0 = player(
        ["AH", "AS", "4D"],
        groups=[["KS", "KD", "KH", "2C"], ["JK", "JK", "2S"]],
        separate_heart_aces=1,
        red_threes=2,
        opened=True,
        free_pickup="used",
        total=1234,
    )
    doc = {
        "variant": "2003-02",
        "opening_minimum": 50,
        "num_players": 2,
        "starter": 0,
        "to_move": 1,
        "phase": "draw",
        "discard": ["7C", "KD"],
        "players": [p0, player(list(P1_HAND), free_pickup="now")],
    }
    doc.update(changes)
    return complete(doc, ("3H", "3D"))


def meld_doc() -> dict:
    """Player 1 has drawn and laid two fives: an incomplete group (R12.5 take-back
    still possible)."""
    doc = example_doc(phase="meld")
    p1 = doc["players"][1]
    p1["hand"] = [c for c in P1_HAND if c not in ("5S", "5H")] + ["4S"]
    p1["groups"] = [["5S", "5H"]]
    doc["turn_state"] = {
        "checkpoint": {"hand": [*P1_HAND, "4S"], "groups": [], "separate_heart_aces": 0},
        "changed": True,
    }
    return complete(doc, ("3H", "3D"))


def cut_doc() -> dict:
    doc = {
        "variant": "2003-01",
        "opening_minimum": 90,
        "num_players": 3,
        "starter": 2,
        "to_move": 2,
        "phase": "cut",
        "discard": [],
        "players": [player([], free_pickup="waiting") for _ in range(3)],
    }
    return complete(doc)


# --- hand-written documents -----------------------------------------------------------------
@pytest.mark.parametrize("make", [example_doc, meld_doc, cut_doc])
def test_hand_written_documents_round_trip(make: Callable[[], dict]) -> None:
    doc = make()
    assert dump(load(doc)) == canonical(doc)
    assert_round_trip(load(doc))


def test_canonical_form_of_the_interfaces_example() -> None:
    """Defaults are filled in, names upper-cased, groups in group order with their
    cards in type order; the red threes of the collection are 3H first (R4)."""
    doc = example_doc()
    p0 = doc["players"][0]
    p0["hand"] = ["4d", "as", "ah"]
    p0["groups"] = [["JK", "2s", "jk"], ["2C", "kh", "KD", "KS"]]
    c = canonical(doc)
    assert c["players"][0]["hand"] == ["AS", "AH", "4D"]
    assert c["players"][0]["groups"] == [["2C", "KS", "KH", "KD"], ["2S", "JK", "JK"]]
    assert c["stock"] == [card.upper() for card in doc["stock"]]  # order kept: top first
    assert (c["turn"], c["hand_number"], c["rng"]) == (1, 0, 0)
    assert [p["turns_played"] for p in c["players"]] == [1, 0]
    assert [p["red_three_hearts"] for p in c["players"]] == [1, 0]
    assert c["top_fresh"] is True and c["discard_owners"] == [-1, -1]
    assert (c["end_reason"], c["out_player"], c["cut"]) == ("none", None, None)
    assert c["target_score"] == 10_000 and c["max_turns"] == 200 and c["episode"] == "hand"
    assert c["turn_state"] == {  # no checkpoint: in phase draw it is the mover's cards
        "locked": {},
        "lifted": None,
        "lifted_from": None,
        "changed": False,
        "pickup": {"kind": "none", "size": 0, "card": None, "from_hand": 0},
    }
    assert canonical(json.dumps(doc)) == c


def test_loaded_example_encodes_the_position() -> None:
    """Stock top first becomes the engine's last stock entry; discard bottom first."""
    doc = example_doc()
    s = load(doc).state
    assert s.stock_len[0] == len(doc["stock"]) and s.pile_len[0] == 2
    assert TYPE_NAMES[s.stock[0, s.stock_len[0] - 1]] == doc["stock"][0]
    assert [TYPE_NAMES[t] for t in s.pile[0, :2]] == ["7C", "KD"]
    assert s.red_threes[0].tolist() == [[1, 1], [0, 0]]
    assert s.sep_heart_aces[0].tolist() == [1, 0]
    assert PHASE_NAMES[s.phase[0]] == "draw" and s.to_move[0] == 1


def test_r12_5_incomplete_meld_can_be_withdrawn_after_loading() -> None:
    games = load(meld_doc())
    assert "withdraw" in games.legal_names()
    assert not any(name.startswith("discard_") for name in games.legal_names())  # R10.2: 2 cards
    games.step(np.array([A.WITHDRAW]))
    after = dump(games)
    assert after["phase"] == "discard" and after["players"][1]["groups"] == []
    assert after["players"][1]["known"] == ["5S", "5H"]  # seen going down and back


def test_r3_cut_position_keeps_the_stock_top_as_cut_cards() -> None:
    doc = cut_doc()
    games = load(doc)
    assert dump(games)["cut"] == {"cards": doc["stock"][:3], "kept": []}
    games.step(np.array([A.KEEP]))
    assert dump(games)["cut"]["kept"] == [True]
    assert_same_game(load(dump(games)), 0, games, 0)


# --- invalid documents ---------------------------------------------------------------------------
def _set(path: str, value: object) -> Callable[[dict], object]:
    """A mutation that sets ``doc[path]`` (dots and indices, e.g. ``players.0.twins``)."""
    head, _, last = path.rpartition(".")

    def mutate(doc: dict) -> None:
        target = _get(doc, head)
        target[int(last) if isinstance(target, list) else last] = value  # type: ignore[index]

    return mutate


def _get(doc: dict, path: str) -> object:
    """``doc[path]`` (``path`` as for :func:`_set`; empty: the document)."""
    target: object = doc
    for key in path.split(".") if path else ():
        target = target[int(key)] if isinstance(target, list) else target[key]  # type: ignore[index]
    return target


def _with(change: Callable[[dict], object], base: Callable[[], dict] = example_doc) -> Callable[[], dict]:
    """A maker of ``base`` changed by ``change``."""

    def make() -> dict:
        doc = base()
        change(doc)
        return doc

    return make


def _edit(path: str, value: object, base: Callable[[], dict] = example_doc) -> Callable[[], dict]:
    return _with(_set(path, value), base)


def _rebuild(change: Callable[[dict], object], base: Callable[[], dict] = example_doc) -> Callable[[], dict]:
    """A maker of ``base`` with ``change`` to the players or discard, the stock recomputed."""
    return _with(lambda doc: (change(doc), complete(doc, ("3H", "3D") if base is not cut_doc else ())), base)


def _add(path: str, *cards: object, base: Callable[[], dict] = example_doc) -> Callable[[], dict]:
    """``base`` with ``cards`` added to the list at ``path`` (a hand, the discard, the groups)."""
    return _rebuild(lambda doc: _get(doc, path).extend(cards), base)


def _turn(key: str, value: object, **more: object) -> Callable[[], dict]:
    """:func:`meld_doc` with ``turn_state[key]`` set (a dict updated) and ``more`` keys."""

    def change(doc: dict) -> None:
        state = doc["turn_state"]
        state[key] = {**state[key], **value} if isinstance(value, dict) and key in state else value
        state.update(more)

    return _with(change, meld_doc)


INVALID: list[tuple[str, Callable[[], dict], str]] = [
    ("unknown_key", _edit("stok", []), r"unknown key.*'stok'.*did you mean 'stock' for 'stok'"),
    (
        "misspelt_variant",
        _with(lambda d: d.update(varient=d.pop("variant"))),
        r"variant: missing \(did you mean 'variant' for 'varient'\?\)",
    ),
    ("unknown_player_key", _edit("players.0.twin", 0), r"unknown key.*'twin'.*players\[0\]"),
    ("missing_key", _with(lambda d: d.pop("stock")), r"missing required key.*'stock'"),
    ("missing_player_key", _with(lambda d: d["players"][1].pop("free_pickup")), r"missing.*'free_pickup'"),
    ("not_an_object", lambda: [1, 2], r"position must be a JSON object"),  # type: ignore[list-item]
    ("bad_json", lambda: "{variant: 2003", r"not valid JSON"),  # type: ignore[list-item]
    ("starter_type", _edit("starter", "0"), r"starter must be an integer"),
    ("opened_type", _edit("players.0.opened", 1), r"opened must be true or false"),
    ("hand_type", _edit("players.1.hand", "AS"), r"hand must be a list"),
    ("players_type", _edit("players", {}), r"players must be a list"),
    ("variant", _edit("variant", "2004-01"), r"unknown variant '2004-01'"),
    ("phase", _edit("phase", "play"), r"unknown phase 'play'"),
    ("free_pickup", _edit("players.0.free_pickup", "never"), r"unknown .*free_pickup 'never'"),
    ("num_players_mismatch", _edit("num_players", 3), r"num_players is 3 but players lists 2"),
    ("num_players_range", _edit("num_players", 5), r"num_players must be in 2..4"),
    ("starter_range", _edit("starter", 2), r"starter must be in 0..1"),
    ("to_move_range", _edit("to_move", -1), r"to_move must be in 0..1"),
    ("card_token", _edit("players.1.hand.0", "1S"), r"players\[1\]\.hand.*'1S'"),
    ("r1_1_too_many", _with(lambda d: d["players"][1]["hand"].append("5C")), r"112-card.*5C: 3"),
    ("r1_1_too_few", _with(lambda d: d["stock"].remove("QD")), r"112-card.*QD: 1 instead of 2"),
    ("r4_4_red_three_in_hand", _add("players.1.hand", "3H"), r"hand holds red three 3H.*R4\.4"),
    ("r4_4_red_three_in_discard", _add("discard", "3D"), r"discard pile holds red three"),
    ("r1_4_red_three_in_group", _add("players.0.groups", ["3H", "3D", "JK"]), r"red three 3H"),
    ("r1_4_black_three_in_group", _add("players.0.groups", ["3S", "3C", "2D"]), r"black three 3S"),
    ("r10_2_short_group", _add("players.0.groups", ["QH", "QD"]), r"not a legal group"),
    ("r10_2_wild_majority", _add("players.0.groups", ["QH", "QD", "2D", "2H"]), r"not a legal group"),
    ("r10_3_small_wild_group", _rebuild(_set("players.0.groups.1", ["JK", "2S"])), r"not a legal group"),
    ("r10_1_mixed_ranks", _add("players.0.groups", ["QH", "QD", "JH"]), r"mixes naturals"),
    ("r10_4_two_groups_of_a_rank", _add("players.0.groups", ["KC", "KC", "KS"]), r"two groups of rank K"),
    ("r10_4_two_wild_groups", _add("players.0.groups", ["2D", "2D", "2H"]), r"two wilds-only groups"),
    ("r10_6_heart_ace_in_2003_01", _edit("variant", "2003-01"), r"no separate heart aces"),
    ("r10_6_three_heart_aces", _edit("players.0.separate_heart_aces", 3), r"aces must be in 0..2"),
    ("red_threes_range", _edit("players.1.red_threes", 5), r"red_threes must be in 0..4"),
    ("r4_red_threes_vs_stock", _edit("players.1.red_threes", 1), r"together they must be 4"),
    ("negative_twins", _edit("players.0.twins", -1), r"twins must be in 0\.\."),
    ("r12_2_opening_minimum", _edit("opening_minimum", 60), r"unknown opening_minimum 60"),
    ("r3_cut_with_dealt_hands", _add("players.1.hand", "AS", base=cut_doc), r"phase 'cut' with dealt hands"),
    ("r5_3_empty_hand", _rebuild(_set("players.1.hand", [])), r"players\[1\] has an empty hand"),
    ("known_exceeds_hand", _edit("players.1.known", ["AS"]), r"known lists cards that are not in the hand"),
    # turn states (meld_doc: two fives laid, R12.5)
    ("r13_2_lifted_natural", _turn("lifted", "KS", lifted_from="K"), r"lifted must be a wild"),
    ("natural_group_of_wilds", _turn("locked", {"Q": [1, 0]}), r"group Q has no naturals"),
    (
        "r10_checkpoint_group",
        _turn("checkpoint", {"groups": [["4S", "4S"]]}),
        r"checkpoint.groups.*not a legal",
    ),
    (
        "r12_5_checkpoint_cards",
        _turn("checkpoint", {"hand": P1_HAND}),
        r"checkpoint must hold the same cards",
    ),
    ("r10_other_group", _rebuild(_set("players.0.groups.0", ["KS", "KD"]), meld_doc), r"players\[0\]\.gr"),
    ("r8_pickup_phase_needs_pile_pickup", _edit("phase", "pickup", meld_doc), r"needs turn_state.pickup"),
    ("draw_phase_checkpoint", _edit("turn_state", {"changed": True}), r"nothing can have been"),
    # the flow keys
    ("turns_played_mismatch", _edit("players.0.turns_played", 4), r"turns_played is 4"),
    ("to_move_vs_turn", _edit("turn", 2), r"to_move must be \(starter \+ turn\)"),
    (
        "top_fresh_on_empty_pile",
        _rebuild(lambda d: d.update(discard=[], top_fresh=True)),
        r"top_fresh needs a non-empty",
    ),
    ("end_reason_before_the_end", _edit("end_reason", "out"), r"describe a finished hand"),
    ("discard_owners_length", _edit("discard_owners", [0]), r"discard_owners has 1 entries"),
    ("stock_known_bottom", _edit("stock_known_bottom", 4), r"stock_known_bottom must be in"),
    ("r12_opened_without_groups", _edit("players.1.opened", True), r"opened but has no groups"),
    ("groups_without_opening", _edit("players.0.opened", False), r"groups but has not opened"),
    ("red_three_hearts", _edit("players.0.red_three_hearts", 2), r"red_three_hearts add up"),
    ("schedule", _edit("opening_schedule", [[0, 50], [0, 90]]), r"strictly increase"),
    (
        "cut_cards_in_cut_phase",
        _edit("cut", {"cards": ["AS", "AS", "AS"], "kept": []}, cut_doc),
        r"top three",
    ),
]


@pytest.mark.parametrize(("make", "message"), [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_invalid_document_raises_value_error_naming_the_problem(
    make: Callable[[], dict], message: str
) -> None:
    doc = make()
    with pytest.raises(ValueError, match=message):
        load(doc)
    with pytest.raises(ValueError, match=message):
        canonical(doc)


def test_every_key_of_the_format_is_documented() -> None:
    """docs/position.md describes every key the module accepts."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "position.md").read_text()
    keys = (
        *position.REQUIRED_KEYS,
        *position.OPTIONAL_KEYS,
        *position.PLAYER_REQUIRED,
        *position.PLAYER_OPTIONAL,
        *position.TURN_STATE_KEYS,
        *(f"pickup.{k}" for k in position.PICKUP_KEYS),
        *position.END_NAMES,
        *PHASE_NAMES,
    )
    missing = [k for k in keys if f"`{k}`" not in text]
    assert missing == []


def test_r5_4_an_empty_stock_beside_a_discard_pile_is_rejected() -> None:
    """R5.4: the pile becomes the new stock the moment the stock runs out, so a
    position between actions never has an empty stock and a non-empty pile (it
    used to load, a `draw` then ended the hand as exhausted, and its dump no
    longer loaded)."""
    doc = example_doc()
    red = [c for c in doc["stock"] if c in ("3H", "3D")]  # red threes never lie in the pile (R4.4)
    doc["discard"] = [c for c in doc["stock"] if c not in red] + doc["discard"]
    doc["stock"] = []
    doc["players"][0]["red_threes"] += len(red)
    doc["players"][0]["red_three_hearts"] = 1 + red.count("3H")
    with pytest.raises(ValueError, match=r"stock is empty but the discard pile holds \d+ cards.*R5\.4"):
        load(doc)
    doc["phase"] = "meld"
    with pytest.raises(ValueError, match=r"R5\.4"):
        load(doc)


# --- hand-editing a dumped position ---------------------------------------
def test_dump_leaves_out_a_derived_checkpoint_and_a_hand_edit_names_the_cards() -> None:
    """In phases draw and discard the checkpoint is the mover's cards: ``dump`` leaves it
    out (mid-meld it differs and is written) and an older dump that wrote it has the same
    canonical form. A 9th JK added to the mover's hand is reported as the joker count,
    whether the document carries no checkpoint, a stale one or one kept mid-meld; a
    checkpoint that really is wrong is still reported as such."""
    doc = dump(load(example_doc()))
    assert doc["phase"] == "draw" and "checkpoint" not in doc["turn_state"]
    old = copy.deepcopy(doc)
    old["turn_state"]["checkpoint"] = {
        "hand": doc["players"][1]["hand"],
        "groups": [],
        "separate_heart_aces": 0,
    }
    assert canonical(old) == doc
    mid = dump(load(meld_doc()))
    assert sorted(mid["turn_state"]["checkpoint"]["hand"]) == sorted([*P1_HAND, "4S"])
    for edited in map(copy.deepcopy, (doc, old, mid)):
        edited["players"][edited["to_move"]]["hand"].append("JK")
        with pytest.raises(ValueError, match=r"112-card deck: JK: 9 instead of 8"):
            load(edited)
    old["turn_state"]["checkpoint"]["hand"] = doc["players"][1]["hand"][1:]
    with pytest.raises(ValueError, match=r"checkpoint must equal the mover's cards"):
        load(old)
