"""Card notation (R1.2, INTERFACES §1), deck composition (R1.1) and values (R1.6)."""

from __future__ import annotations

import pytest

from kanaszta_env.cards import (
    CARD_VALUE,
    DECK_SIZE,
    IS_BLACK_THREE,
    IS_RED_THREE,
    IS_WILD,
    TYPE_COPIES,
    card_name,
    cards_to_counts,
    counts_to_cards,
    parse_card,
    parse_cards,
)

# written out from R1.2 (docs/rules/diszitett.md), independently of kanaszta_env.cards
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
ALL_NAMES = [r + s for r in RANKS for s in SUITS] + ["JK"]

# R1.6 by rank; black threes are -100 in hand, red threes have no value (R16.4)
RANK_VALUE = {"A": 20, "2": 20, "4": 5, "5": 5, "6": 5, "7": 5}
RANK_VALUE |= {r: 10 for r in ["8", "9", "10", "J", "Q", "K"]}


def test_r1_2_every_one_of_the_53_names_parses():
    types = [parse_card(name) for name in ALL_NAMES]
    assert len(ALL_NAMES) == 53
    assert sorted(types) == list(range(53))
    assert [card_name(t) for t in types] == ALL_NAMES


@pytest.mark.parametrize(
    ("token", "name"), [("ah", "AH"), ("10s", "10S"), ("jk", "JK"), ("Jk", "JK"), ("kD", "KD"), ("2c", "2C")]
)
def test_r1_2_parsing_is_case_insensitive_and_output_upper_case(token, name):
    assert parse_card(token) == parse_card(name)
    assert card_name(parse_card(token)) == name


def test_r1_2_card_lists_round_trip_in_upper_case():
    counts = cards_to_counts(["ah", "10s", "jk", "JK", "Ah"])
    assert counts.sum() == 5
    assert counts_to_cards(counts) == ["AH", "AH", "10S", "JK", "JK"]


@pytest.mark.parametrize("token", ["1S", "11H", "AX", "", "JOKER", None, 5, "A", "10", "3HH", " AH", "AH "])
def test_r1_2_bad_tokens_raise_naming_the_token(token):
    with pytest.raises(ValueError) as info:
        parse_card(token)
    assert repr(token) in str(info.value)


def test_r1_2_bad_token_in_a_list_is_named():
    with pytest.raises(ValueError, match="'QX'"):
        parse_cards(["AH", "QX", "KS"])
    with pytest.raises(ValueError, match="'AH'"):
        parse_cards("AH")  # a string is not a list of cards


def test_r1_1_r1_3_r1_4_deck_composition_and_card_classes():
    assert int(TYPE_COPIES.sum()) == DECK_SIZE == 112
    deck = counts_to_cards(TYPE_COPIES)
    assert {name: deck.count(name) for name in ALL_NAMES} == {
        name: 8 if name == "JK" else 2 for name in ALL_NAMES
    }
    assert {n for n in ALL_NAMES if IS_WILD[parse_card(n)]} == {"2S", "2H", "2D", "2C", "JK"}
    assert {n for n in ALL_NAMES if IS_RED_THREE[parse_card(n)]} == {"3H", "3D"}
    assert {n for n in ALL_NAMES if IS_BLACK_THREE[parse_card(n)]} == {"3S", "3C"}


def test_r1_6_values_table():
    special = {"JK": 50, "3S": -100, "3C": -100, "3H": 0, "3D": 0}
    expected = {name: special[name] if name in special else RANK_VALUE[name[:-1]] for name in ALL_NAMES}
    assert {name: CARD_VALUE[parse_card(name)] for name in ALL_NAMES} == expected
