"""Turkish kanasta's turn rules through the engine, from positions: the pile (T4.1), the
holding rule (T4.2), canasta kinds at the end of the turn (T8.2-T8.3), openings (T9),
layer-offs (T10.2), the Fis (T11), the forced canasta opening (T12), going out and the
end of the hand (T13)."""

from __future__ import annotations

import pytest
from conformance.positions import example_position
from turkish_helpers import meld, play, table

from kanaszta_env import position

HAND0 = ["3C", "5D", "7S", "JC", "QD"]  # loose cards of seat 0
OTHERS = [["3D", "6D", "7C", "JD"], ["3H", "4D", "7D", "JH"], ["4C", "6C", "10D", "10C"]]


def test_t4_1_the_whole_pile_with_no_condition():
    games = table([HAND0, *OTHERS], pile=["4S", "JH", "6C", "AD"])
    play(games, "take_pile")
    doc = position.dump(games)
    assert doc["discard"] == [] and doc["phase"] == "meld"
    assert {"4S", "JH", "6C", "AD"} <= set(doc["players"][0]["hand"])
    assert set(doc["players"][0]["known"]) == {"4S", "JH", "6C", "AD"}  # taken face up
    empty = table([HAND0, *OTHERS])
    assert empty.legal_names(0) == ["draw"]  # an empty pile cannot be taken


def _opened_pair0(hand, extra_melds=(), **kw):
    melds = ([meld(0, "KS", "KH", "KD"), *extra_melds], [])
    return table([hand, *OTHERS], melds, opened=(True, False, False, False), **kw)


RUN = ["5H", "2C", "7H", "8H", "9H", "10H"]


@pytest.mark.parametrize(
    ("laid", "hand", "adds", "kind"),
    [
        # 5-5-5-[2]; four more 5s in one turn: 8 cards, 7 naturals -> whole
        (["5S", "5H", "5D", "2C"], ["5C", "5C", "5S", "5H", "QD", "JC"], ["5C", "5C", "5S", "5H"], "whole"),
        # the same cards one 5 per turn: 7 cards with 6 naturals -> half, and half it stays
        (["5S", "5H", "5D", "5C", "5H", "2C"], ["5C", "5S", "QD", "JC"], ["5C"], "half"),
        (RUN, ["6H", "4H", "QD", "JC"], ["6H", "4H"], "whole"),  # a run: two cards in one turn
        (RUN, ["6H", "4H", "QD", "JC"], ["6H"], "half"),  # one card
    ],
)
def test_t8_2_kind_fixed_at_the_end_of_the_turn(laid, hand, adds, kind):
    games = _opened_pair0(hand, [meld(0, *laid)], phase="meld")
    play(games, *(f"add_{c}_to_m1" for c in adds))
    assert position.dump(games)["pairs"][0]["melds"][1]["kind"] == "none"  # not until the turn ends
    play(games, "discard_QD")
    assert position.dump(games)["pairs"][0]["melds"][1]["kind"] == kind


def test_t9_1_opening_needs_45_wild_free_with_a_run():
    games = position.load(position.canonical(example_position("turkish-opening")))
    play(games, "new_KS", "add_KD_to_m0", "add_KC_to_m0")  # a set of 30, no run
    assert not any(n.startswith("discard_") for n in games.legal_names(0))
    play(games, "new_8H", "add_9H_to_m1", "add_10H_to_m1")  # + a run of 27: 57 with a run
    assert "discard_JC" in games.legal_names(0)
    play(games, "discard_JC")
    assert position.dump(games)["players"][0]["opened"]


def test_t10_2_layer_off_cannot_lay_new_melds_or_go_out():
    melds = ([meld(2, "KS", "KH", "KD"), meld(2, "AS", "2S", "3S", "4S", "5S", "6S", "7S", kind="whole")], [])
    games = table([["KC", "5D", "7S", "JC"], *OTHERS], melds, phase="meld",
                  opened=(False, False, True, False))  # fmt: skip
    play(games, "add_KC_to_m0", "discard_JC")
    doc = position.dump(games)
    assert doc["players"][0]["layoff"] and not doc["players"][0]["opened"]


def test_t11_2b_fi_taken_by_melding_the_last_card_is_used_at_once():
    games = _opened_pair0(["KC", "QD"], [meld(0, "QS", "QH", "QC")], phase="meld")
    play(games, "add_KC_to_m0")
    assert "add_QD_to_m1" in games.legal_names(0)
    play(games, "add_QD_to_m1")
    doc = position.dump(games)
    assert doc["phase"] == "meld" and doc["to_move"] == 0  # the turn goes on
    assert doc["fis"][0] == {"taker": 0, "used": True}
    assert len(doc["players"][0]["hand"]) == 11


def test_t11_2a_fi_taken_by_discarding_is_used_at_the_next_turn():
    games = _opened_pair0(["KC", "QD"], phase="meld")
    play(games, "add_KC_to_m0", "discard_QD")
    doc = position.dump(games)
    assert doc["fis"][0] == {"taker": 0, "used": False}
    assert doc["to_move"] == 1 and len(doc["players"][0]["hand"]) == 11
    for _ in range(3):  # seats 1-3 draw and discard
        play(games, "draw")
        play(games, next(n for n in games.legal_names(0) if n.startswith("discard_")))
    assert position.dump(games)["fis"][0] == {"taker": 0, "used": True}


def test_t4_2_without_a_fi_a_player_who_cannot_go_out_keeps_two_cards():
    taken = ({"taker": 1, "used": True}, {"taker": 3, "used": True})
    games = _opened_pair0(["KC", "QD"], phase="meld", fis=taken)  # no canasta: cannot go out
    assert "add_KC_to_m0" not in games.legal_names(0)
    assert "discard_QD" in games.legal_names(0)  # he keeps a card
    canasta = meld(0, "AS", "2S", "3S", "4S", "5S", "6S", "7S", kind="whole")
    games = _opened_pair0(["KC", "QD"], [canasta], phase="meld", fis=taken)
    play(games, "add_KC_to_m0", "discard_QD")  # T13.1: a canasta, both Fis taken, a discard
    doc = position.dump(games)
    assert doc["phase"] == "over" and doc["end_reason"] == "out" and doc["out_player"] == 0


def test_t12_forced_opening_owed_and_its_penalty():
    # seat 0 (pair 0) already holds Fi 1; emptying his hand again takes Fi 2 while nobody in
    # pair 1 has opened: pair 1 owes a canasta opening (T12.1)
    games = _opened_pair0(["KC", "QD"], phase="meld", fis=({"taker": 0, "used": True}, "deal"))
    play(games, "add_KC_to_m0", "discard_QD")
    assert position.dump(games)["pairs"][1]["forced"] == "owed"


def test_t13_3_the_last_stock_card_ends_the_hand_after_its_turn():
    games = table([HAND0, *OTHERS], stock=["8D"])
    play(games, "draw")
    assert position.dump(games)["phase"] == "meld"  # the drawer plays his turn
    play(games, "discard_8D")
    doc = position.dump(games)
    assert doc["phase"] == "over" and doc["end_reason"] == "exhausted"


def test_t12_3_forced_pair_pays_600_when_the_others_go_out():
    both = ({"taker": 0, "used": True}, {"taker": 2, "used": True})
    canasta = meld(0, "AS", "2S", "3S", "4S", "5S", "6S", "7S", kind="whole")
    games = _opened_pair0(["KC", "QD"], [canasta], phase="meld", fis=both, forced=("no", "owed"))
    play(games, "add_KC_to_m0", "discard_QD")
    doc = position.dump(games)
    assert doc["end_reason"] == "out"
    # pair 1: no Fi, still owing its canasta opening: -600 instead of -100, and its hands (25 + 30)
    assert doc["pairs"][1]["hand_score"] == -600 - 55
    # pair 0: K-set 40, whole canasta 200 + 45, two used Fis 200, going out 50, seat 2's hand 25
    assert doc["pairs"][0]["hand_score"] == 40 + 200 + 45 + 200 + 50 - 25


def test_t13_1_a_fi_left_or_a_layer_off_does_not_go_out():
    canasta = meld(0, "AS", "2S", "3S", "4S", "5S", "6S", "7S", kind="whole")
    games = _opened_pair0(["KC", "QD"], [canasta], phase="meld")  # both Fis still on the table
    play(games, "add_KC_to_m0", "discard_QD")
    doc = position.dump(games)
    assert doc["phase"] == "draw" and doc["fis"][0] == {"taker": 0, "used": False}  # T11.2a, no end
    both = ({"taker": 1, "used": True}, {"taker": 3, "used": True})
    melds = ([meld(2, "KS", "KH", "KD"), {**canasta, "owner": 2}], [])
    games = table([["KC", "QD"], *OTHERS], melds, phase="meld", fis=both,
                  opened=(False, False, True, False), layoff=(True, False, False, False))  # fmt: skip
    assert "add_KC_to_m0" not in games.legal_names(0)  # he could never go out with the last card
