"""Scoring helpers of INTERFACES §2: hand score (R16) and tax (R17)."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings, strategies as st

import kanaszta_env.games.diszitett.scoring
from kanaszta_env.scoring import apply_tax, hand_score  # the public address (INTERFACES)

# R1.6 written out independently of the package: value of a card by rank
RANK_VALUE = {"A": 20, "2": 20, "4": 5, "5": 5, "6": 5, "7": 5, "JK": 50}
RANK_VALUE |= {r: 10 for r in ["8", "9", "10", "J", "Q", "K"]}
NATURAL_RANKS = ["A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SMALL_WILDS = ["2S", "2H", "2D", "2C"]
WILD_POOL = SMALL_WILDS * 2 + ["JK"] * 8  # every wild of the deck


def value(card: str) -> int:
    return RANK_VALUE[card if card == "JK" else card[:-1]]


def naturals_of(rank: str) -> list[str]:
    """The eight naturals of a rank in the deck."""
    return [rank + s for s in "SHDC" for _ in range(2)]


RED_CANASTA_OF_SEVENS = ["7S", "7S", "7H", "7H", "7D", "7D", "7C"]  # card value 35


def test_module_docstring_examples_run():
    result = doctest.testmod(kanaszta_env.games.diszitett.scoring)
    assert result.attempted >= 9
    assert result.failed == 0


BLACK_WILD = ["JK", "JK", "JK", "2S", "2H", "2D", "2C"]
EIGHTS = ["8S", "8S", "8H", "8H", "8D", "8D", "8C"]
JACKS = ["JS", "JH", "JD", "JC", "2S", "2H", "2D"]
FIVES = ["5S", "5S", "5H", "5H", "5D", "5D", "5C"]
OUT = {"went_out": True}
#: (rule, groups, hand, keyword arguments, hand score)
HANDS = [
    # R16.5 [D]: the seed prints 2300 from an old wild-canasta value; with the R11 table the base is
    # 800 + 300 + 200 + 100 + 100 = 1500, the card value 3 × 50 + 4 × 20
    ("r16_5_base", [BLACK_WILD], [], {**OUT, "red_threes": 4, "twins": 3, "from_hand": True}, 1500 + 230),
    # a red canasta of eights (400), three aces melded, two jacks in hand: 70 + 60 - 20
    ("r16_5_card_value", [EIGHTS, ["AS", "AD", "AC"]], ["JS", "JD"], {}, 400 + 110),
    # black canasta of jacks and 2s, red of fives, a red three, a twin, an ace in hand: 900 + 115
    ("r16_5_hand", [JACKS, FIVES], ["AS"], {"red_threes": 1, "twins": 1}, 1015),
    # R11 canasta kinds: base + card value
    ("r11_black_wild", [["JK", "2S", "2H", "2D", "2C", "2S", "2H"]], [], {}, 200 + 50 + 6 * 20),
    ("r11_black_1_wild", [["KS", "KS", "KH", "KH", "KD", "KD", "JK"]], [], {}, 300 + 60 + 50),
    ("r11_black_3_wilds", [["9S", "9H", "9D", "9C", "2S", "2H", "JK"]], [], {}, 300 + 40 + 40 + 50),
    ("r11_red", [RED_CANASTA_OF_SEVENS], [], {}, 400 + 35),
    ("r11_red_wild_small", [["2S", "2S", "2H", "2H", "2D", "2D", "2C"]], [], {}, 500 + 7 * 20),
    ("r11_red_wild_big", [["JK"] * 7], [], {}, 500 + 7 * 50),
    ("r11_gold", [["AS", "AS", "AH", "AH", "AD", "AD", "AC", "AC"]], [], {}, 600 + 8 * 20),
    ("r11_six_cards", [["QS", "QS", "QH", "QH", "2D", "JK"]], [], {}, 40 + 70),
    # R16.1: red threes 100 each, 800 for all four; twins 100 each
    *(
        (f"r16_1_red_threes_{n}", [], ["4S"], {"red_threes": n}, b - 5)
        for n, b in enumerate((0, 100, 200, 300, 800))
    ),
    *((f"r16_1_twins_{n}", [["KS", "KD", "KH"]], ["4S"], {"twins": n}, 100 * n + 25) for n in (0, 1, 2, 7)),
    # R16.1: separate heart aces 500 each, no card value; an aces group beside one counts its own
    ("r16_1_heart_ace", [], ["4S"], {"separate_heart_aces": 1}, 500 - 5),
    ("r16_1_heart_aces", [], ["4S"], {"separate_heart_aces": 2}, 1000 - 5),
    ("r16_1_heart_ace_and_aces", [["AH", "AS", "AD"]], ["4S"], {"separate_heart_aces": 1}, 500 + 60 - 5),
    # R16.1, R16.3: going out 100, from hand +100, table clearing +100
    ("r16_1_out", [RED_CANASTA_OF_SEVENS], [], OUT, 435 + 100),
    ("r16_1_from_hand", [RED_CANASTA_OF_SEVENS], [], {**OUT, "from_hand": True}, 435 + 200),
    ("r16_3_clearing", [RED_CANASTA_OF_SEVENS], [], {**OUT, "from_hand": True, "table_clearing": True}, 735),
    # R1.6: a black three in hand is -100 in total
    ("r1_6_black_three", [], ["3S"], {}, -100),
    ("r1_6_black_threes", [], ["3S", "3C"], {}, -200),
    ("r1_6_black_three_and_king", [], ["3C", "KD"], {}, -110),
    # R16.4: wilds in groups count 20 and 50
    ("r16_4_two", [["KS", "KD", "KH", "2C"]], [], {}, 30 + 20),
    ("r16_4_joker", [["KS", "KD", "KH", "JK"]], [], {}, 30 + 50),
    ("r16_4_both", [["4S", "4D", "4H", "2C", "JK"]], [], {}, 15 + 20 + 50),
    ("r16_4_wilds_only", [["JK", "JK", "2C"]], [], {}, 50 + 50 + 20),
]


@pytest.mark.parametrize(
    ("groups", "hand", "kwargs", "score"), [h[1:] for h in HANDS], ids=[h[0] for h in HANDS]
)
def test_hand_score(groups, hand, kwargs, score):
    assert hand_score(groups, hand, **kwargs) == score


# --- R16.4 card value ---------------------------------------------------------
@pytest.mark.parametrize("card", [r + s for r in [*NATURAL_RANKS, "2"] for s in "SHDC"] + ["JK"])
def test_r16_4_each_card_left_in_hand_costs_its_value(card):
    assert hand_score([], [card]) == -value(card)


@pytest.mark.parametrize("rank", NATURAL_RANKS)
def test_r16_4_each_natural_in_a_group_adds_its_value(rank):
    group = naturals_of(rank)[:3]
    assert hand_score([group], []) == 3 * value(group[0])


# --- R17 tax ------------------------------------------------------------------
def test_r17_worked_examples():
    assert apply_tax(5000, 545) == 275  # R17.2: 545 -> 550 -> 275
    assert apply_tax(7000, 1015) == 255  # R17.3: 1015 -> 1020 -> 510 -> 255
    assert 9725 + apply_tax(9725, 2375) == 9965  # R17.4: 2375 -> 237 -> 240


#: R17.1: the taxed value of a 1015 score by bracket, at the brackets' bounds
BRACKETS = {1015: (-300, 0, 4999), 510: (5000, 6999), 255: (7000, 8999), 100: (9000, 15000)}
#: R17.2-R17.4: (total, score, taxed), rounding to 5 before and after halving or dividing
ROUNDING = [(5000, 540, 270), (5000, 545, 275), (7000, 540, 135), (7000, 1000, 250), (9000, 2345, 230)]
ROUNDING += [(9000, 2355, 240), (9000, 40, 0), (9000, 50, 10)]
ROUNDING += [(total, 1015, taxed) for taxed, totals in BRACKETS.items() for total in totals]


@pytest.mark.parametrize(("total", "score", "taxed"), ROUNDING)
def test_r17_1_to_r17_4_brackets_and_rounding(total, score, taxed):
    assert apply_tax(total, score) == taxed


@pytest.mark.parametrize("total", [0, 4999, 5000, 7000, 9000, 20000])
@pytest.mark.parametrize("score", [0, -5, -345, -1015])
def test_r17_5_zero_and_negative_scores_untaxed(total, score):
    assert apply_tax(total, score) == score


# --- invalid input ------------------------------------------------------------
KINGS = ["KS", "KD", "KH"]
INVALID = [
    # (groups, hand, keyword arguments, expected message fragment)
    ([["KS", "1S", "KD"]], [], {}, "'1S'"),
    ([], ["AX"], {}, "'AX'"),
    ("KS KD KH", [], {}, "groups must be a list"),
    (["KSKDKH"], [], {}, "group 1 must be a list"),
    ([KINGS], "AS", {}, "hand must be a list"),
    ([[]], [], {}, "is empty"),
    ([["KS", "KD"]], [], {}, "has 2 cards"),
    (
        [["KS", "KD", "2C", "2D"]],
        [],
        {},
        r'group \["KS","KD","2C","2D"\] has 2 wilds and 2 naturals: wilds must be fewer \(R10.2\)',
    ),
    ([["KS", "KS", "KH", "KH", "KD", "KD", "2C", "2D"]], [], {}, "8 cards with 2 wilds"),
    ([[*naturals_of("Q"), "2S"]], [], {}, "has 9 cards"),
    ([["JK", "2S"]], [], {}, r"wilds-only group .* has 2 wilds.*R10.3"),
    ([["JK"] * 8], [], {}, r"has 8 wilds.*R10.3"),
    ([["KS", "KD", "3S"]], [], {}, r"three 3S.*R1.4"),
    ([["KS", "KD", "3H"]], [], {}, r"three 3H.*R1.4"),
    ([KINGS, ["KC", "KC", "2S"]], [], {}, r"two groups of rank K.*R10.4"),
    ([["JK"] * 3, ["2S", "2H", "2D"]], [], {}, r"two wilds-only groups.*R10.4"),
    ([["KS", "KD", "QS"]], [], {}, r"mixes naturals of ranks K and Q.*R10.1"),
    ([KINGS], ["3D"], {}, r"red three 3D in the hand.*R4.4"),
    ([KINGS], ["4S"], {"from_hand": True}, "from_hand requires went_out"),
    ([RED_CANASTA_OF_SEVENS], [], {"went_out": True, "table_clearing": True}, "requires from_hand"),
    ([KINGS], [], {"red_threes": 5}, "red_threes must be 0..4"),
    ([KINGS], [], {"red_threes": -1}, "red_threes must be 0..4"),
    ([KINGS], [], {"twins": -1}, "twins must be"),
    ([KINGS], [], {"separate_heart_aces": -1}, "separate_heart_aces must be 0..2"),
    ([KINGS], [], {"separate_heart_aces": 3}, "separate_heart_aces must be 0..2"),
    ([KINGS], [], {"went_out": True}, r"without a canasta.*R14.1"),
    ([RED_CANASTA_OF_SEVENS], ["4S"], {"went_out": True}, r"left in hand.*R14.1"),
    ([KINGS], ["KS", "KS"], {}, r"3 copies of KS.*holds 2"),
    ([["JK"] * 7, ["4S", "4D", "JK"]], ["JK"], {}, r"9 copies of JK.*holds 8"),
    ([["AH", "AH", "AS"]], [], {"separate_heart_aces": 1}, r"3 copies of AH.*holds 2"),
    ([KINGS], ["AH"], {"separate_heart_aces": 2}, r"3 copies of AH"),
    ([KINGS], [], {"went_out": 1}, "went_out must be True or False"),
    ([KINGS], [], {"from_hand": "yes"}, "from_hand must be True or False"),
    ([KINGS], [], {"table_clearing": None}, "table_clearing must be True or False"),
    ([KINGS], [], {"twins": 1.0}, "twins must be an int"),
    ([KINGS], [], {"red_threes": "1"}, "red_threes must be an int"),
    ([KINGS], [], {"separate_heart_aces": True}, "separate_heart_aces must be an int"),
]


@pytest.mark.parametrize(("groups", "hand", "kwargs", "message"), INVALID)
def test_invalid_hand_input_raises_value_error(groups, hand, kwargs, message):
    with pytest.raises(ValueError, match=message):
        hand_score(groups, hand, **kwargs)


@pytest.mark.parametrize(
    ("total", "score"), [(5000.0, 545), ("5000", 545), (True, 545), (None, 545), (5000, 545.0), (5000, "5")]
)
def test_r17_tax_rejects_non_int_arguments(total, score):
    with pytest.raises(ValueError, match="must be an int"):
        apply_tax(total, score)


# --- properties ---------------------------------------------------------------
@st.composite
def natural_group(draw, rank: str, max_size: int, wilds: list[str]) -> list[str]:
    """A legal group of ``rank`` (R10.2) of 3 to ``max_size`` cards; its wilds are
    taken from the front of ``wilds`` (a shuffled pool of the deck's wilds)."""
    n = draw(st.integers(2, min(8, max_size)))
    max_w = 0 if n >= 7 else min(n - 1, 7 - n, max_size - n)
    w = draw(st.integers(max(0, 3 - n), max_w))
    naturals = draw(st.permutations(naturals_of(rank)))[:n]
    taken = wilds[:w]
    del wilds[:w]
    return naturals + taken


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_r16_4_adding_a_natural_adds_its_value(data):
    """A natural added to a legal non-canasta group that stays legal and below
    seven cards raises the score by that card's value (R16.4)."""
    rank = data.draw(st.sampled_from(NATURAL_RANKS))
    pool = data.draw(st.permutations(WILD_POOL))
    group = data.draw(natural_group(rank, 5, pool))
    extra = naturals_of(rank)
    for card in group:
        if card in extra:
            extra.remove(card)
    card = data.draw(st.sampled_from(extra))
    hand = data.draw(st.sampled_from([[], ["3S"], ["3C", "JK"]]))
    assert hand_score([[*group, card]], hand) - hand_score([group], hand) == value(card)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_r16_score_is_additive_over_groups(data):
    """Each group contributes its own canasta base and card value (R16.1, R16.4)."""
    ranks = data.draw(st.lists(st.sampled_from(NATURAL_RANKS), min_size=1, max_size=5, unique=True))
    pool = data.draw(st.permutations(WILD_POOL))
    groups = [data.draw(natural_group(rank, 8, pool)) for rank in ranks]
    whole = hand_score(groups, ["3S"])
    assert whole == sum(hand_score([g], []) for g in groups) - 100


@settings(max_examples=200, deadline=None)
@given(st.integers(-2000, 20000), st.integers(1, 4000))
def test_r17_tax_never_increases_and_keeps_multiples_of_5(total, fives):
    score = 5 * fives
    taxed = apply_tax(total, score)
    assert 0 <= taxed <= score
    assert taxed % 5 == 0
    assert taxed <= apply_tax(total, score + 5)  # a higher score never records less
