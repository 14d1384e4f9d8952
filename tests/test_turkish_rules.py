"""Turkish kanasta (docs/rules/turkish.md): the worked examples of T17 reproduced with the
public scoring helpers (which call the engine's kernels), the meld examples by the
independent checker's meld analysis too (tests/checker_turkish.py), and the deal (T3)."""

from __future__ import annotations

import checker_turkish as oracle
import pytest

from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import cards_to_counts
from kanaszta_env.games.turkish.scoring import KINDS, canasta_kind, is_meld, meld_value, opens, pair_score


def run(suit: str, ranks: str) -> list[str]:
    """Cards of ``ranks`` (space-separated) in ``suit``; ``x:`` prefixes a wild given as is."""
    return [r[2:] if r.startswith("x:") else r + suit for r in ranks.split()]


def counts(cards: list[str]) -> list[int]:
    """The checker's form of ``cards``: copies of each card type."""
    return cards_to_counts(cards).tolist()


def value(cards: list[str]) -> int:
    """The engine's meld value of ``cards``, asserted equal to the checker's."""
    assert oracle.meld_value(counts(cards)) == meld_value(cards), cards
    return meld_value(cards)


def a_meld(cards: list[str]) -> bool:
    """Whether ``cards`` are a meld, by the engine, asserted equal to the checker's reading."""
    assert (oracle.meld_reading(counts(cards)) is not None) == is_meld(cards), cards
    return is_meld(cards)


def kind(cards: list[str], before: str = "none") -> str:
    """The engine's canasta kind of ``cards``, asserted equal to the checker's."""
    assert KINDS[oracle.canasta_kind(counts(cards), KINDS.index(before))] == canasta_kind(cards, before)
    return canasta_kind(cards, before)


# --- T17.1 meld values ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "points"),
    [
        (["7S", "7H", "2C"], 20),
        (["8S", "8D", "2C"], 30),
        (["AS", "AH", "2D"], 40),
        (run("S", "4 5 6 x:2D 8"), 35),  # the wild as 7
        (run("S", "8 9 10 x:2D Q"), 50),
        (run("S", "A 2 3 4 5 6 7"), 45),  # natural 2S (T6.4)
    ],
)
def test_t17_1_meld_values(cards, points):
    assert a_meld(cards)
    assert value(cards) == points


@pytest.mark.parametrize(
    "cards",
    [
        run("S", "5 6 x:2D"),  # T6.3: a wild needs three consecutive naturals
        run("S", "8 x:2D 10"),
        run("S", "x:JK 5 6"),
        ["8S", "8H", "2D", "JK"],  # T7.1: two wilds
    ],
)
def test_t17_1_illegal_melds(cards):
    assert not a_meld(cards)
    with pytest.raises(ValueError, match="not a legal set or run"):
        meld_value(cards)


def test_t6_runs_and_t5_sets_edges():
    assert a_meld(run("H", "Q K A"))  # ace high (T6.2)
    assert not a_meld(run("H", "K A 2"))  # no wrap-around
    assert not a_meld(["2S", "2H", "2D"])  # no sets of 2s (T5.3)
    assert a_meld(["8S", "8S", "8H"])  # duplicates in a set (T5.1)
    assert not a_meld(["8S", "8S", "9S"])
    assert a_meld(run("S", "3 4 5 6 7 x:2D 8 9 10 J Q K A"))  # T6.5: 13 cards, one wild
    # the checker: which laid cards can still become a meld this turn
    assert oracle.can_become_legal(counts(["8H", "8H"])) and oracle.can_become_legal(counts(["8H", "10H"]))
    assert not oracle.can_become_legal(counts(["8H", "8H", "9H"]))
    assert not oracle.can_become_legal(counts(["8H", "2C", "JK"]))
    assert oracle.can_become_legal(counts(["AH", "2H", "2C"]))  # one 2H natural, the 2C the wild
    with pytest.raises(ValueError, match="2 copies"):
        is_meld(["8S", "8S", "8S"])


# --- T17.2 / T17.3 openings ---------------------------------------------------------------------
def test_t17_2_openings_below_900():
    assert opens([run("C", "4 5 6"), ["8S", "8H", "8D"]], 0)
    assert opens([run("D", "5 6 7"), ["3S", "3H", "3D"], ["4S", "4H", "4C"]], 0)
    assert opens([run("S", "A 2 3 4 5 6 7")], 0)
    assert opens([run("H", "9 10 J"), ["KS", "KH", "KD"], ["QS", "QH", "JK"]], 0)
    assert not opens([run("C", "4 5 6"), ["8S", "8H", "2D"]], 0)  # wild-free part only 15
    assert not opens([["8S", "8H", "8D"], ["9S", "9H", "9D"]], 0)  # no run


def test_t17_3_openings_from_900():
    assert not a_meld(run("S", "10 x:2D Q"))  # the text's example breaks T6.3 ([D])
    legal = [run("H", "4 5 6"), ["8S", "8H", "2D"], run("S", "10 J Q"), ["3S", "3H", "2C"]]
    assert opens(legal, 900)
    assert opens([run("D", "8 9 10"), ["KS", "KH", "JK"], ["AS", "AH", "AD"]], 1500)
    assert not opens([run("C", "4 5 6"), ["8S", "8H", "8D"]], 900)
    assert opens([run("C", "4 5 6"), ["8S", "8H", "8D"]], 880)  # T17.9: 880 opens by the 45 rule


def test_t12_2_forced_opening_needs_a_seven_card_meld():
    assert opens([["9S", "9S", "9H", "9H", "9D", "9D", "2C"]], 0, forced=True)
    assert not opens([run("C", "4 5 6"), ["8S", "8H", "8D"]], 0, forced=True)


# --- T17.4 canasta kinds ------------------------------------------------------------------------
def test_t17_4_canasta_kinds():
    fives = ["5S", "5H", "5D", "5C", "5S", "5H", "5D"]
    whole = [*fives, "2C"]  # 5-5-5-[2] plus four 5s in one turn: 8 cards, 7 naturals
    assert kind(whole) == "whole"
    assert value(whole) == 45
    half = [*fives[:6], "2C"]  # 5-5-5-5-5-[2] plus one 5: 7 cards, 6 naturals
    assert kind(half) == "half"
    assert kind([*half, "5C"], before="half") == "half"  # T8.3: the kind stays
    base = run("H", "5 x:2C 7 8 9 10")
    assert kind([*base, "6H", "4H"]) == "whole"
    assert kind([*base, "6H"]) == "half"
    natural_two = run("H", "x:2H 5 6 7 8")  # the 2H as the 4, then 3H and 4H join
    assert kind([*natural_two, "3H", "4H"]) == "whole"
    assert value([*natural_two, "3H", "4H"]) == 40
    full = run("D", "A 2 3 4 5 6 7 8 9 10 J Q K")
    assert kind(full) == "full"
    assert value(full) == 105
    with_wild = [*full, "JK"]  # a half run completed to 13 naturals, its wild left in (T7.4)
    assert kind(with_wild, before="half") == "full"
    assert value(with_wild) == 115


# --- T17.5 - T17.8 hand scores --------------------------------------------------------------------
def test_t17_5_a_complete_hand():
    eights = ["8S", "8S", "8D", "8D", "8C", "8C", "8H"]
    pair_a = [
        (eights, "whole"),
        (["QS", "QH", "QD"], "none"),
        (run("H", "4 5 6 x:JK 8 9 10"), "half"),
        (run("C", "3 4 5"), "none"),
    ]
    assert pair_score(pair_a, [["KS", "2D"]], fis_taken=2, fis_used=2, went_out=True) == 700
    pair_b = [(["7S", "7H", "2C"], "none"), (["AS", "AH", "AD"], "none"), (run("S", "9 10 J"), "none")]
    assert pair_score(pair_b, [["JK", "9S", "9H", "3C"], ["AC", "6D"]]) == -60


def test_t17_6_forced_canasta_failure():
    seat1 = ["KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC", "5S"]  # 85
    seat3 = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]  # 70
    assert pair_score([], [seat1, seat3], forced_failed=True) == -755
    nines = (["9S", "9S", "9H", "9H", "9D", "9D", "2C"], "half")
    assert pair_score([nines], [seat1, ["JS", "JH", "5D"]]) == -40


def test_t17_7_an_unused_fi():
    whole = (["8S", "8S", "8D", "8D", "8C", "8C", "8H"], "whole")
    pair_b = [whole, (run("S", "9 10 J Q K"), "none"), (["QD", "QD", "QH"], "none")]  # melds 150
    # seat 1 holds the unused Fi 2: not charged; seat 3's hand 35
    assert pair_score(pair_b, [["KS", "KH", "10D", "5C"]], fis_taken=1, fis_used=0) == 315
    half = (["5S", "5H", "5D", "5C", "5S", "5H", "2C"], "half")
    pair_a = [half, (["10S", "10H", "10D", "10C"], "none"), (["JS", "JH", "JD", "JC"], "none")]  # 120
    assert pair_score(pair_a, [["QC"]], fis_taken=1, fis_used=1, went_out=True) == 360


def test_t17_8_both_fis_to_one_pair_the_other_goes_out():
    half = (["8S", "8S", "8H", "8H", "8D", "8D", "2C"], "half")
    pair_a = [half, (["3S", "3H", "3D", "3C"], "none")]  # melds 90
    hand_40 = ["KS", "KH", "KD", "KC"]
    assert pair_score(pair_a, [hand_40], fis_taken=2, fis_used=1) == 250
    whole = (["5S", "5S", "5H", "5H", "5D", "5D", "5C"], "whole")
    pair_b = [whole, (["AS", "AH", "AD"], "none"), (["JS", "JH", "JD"], "none")]  # melds 110
    assert pair_score(pair_b, [["5C", "QS"]], went_out=True) == 245


def test_pair_score_refuses_bad_input():
    with pytest.raises(ValueError, match="not a legal set or run"):
        pair_score([(["8S", "9H", "10D"], "none")])
    with pytest.raises(ValueError, match="cannot be a 'whole' canasta"):
        pair_score([(["8S", "8H", "8D"], "whole")])
    with pytest.raises(ValueError, match="fis_used"):
        pair_score([], fis_taken=1, fis_used=2)


# --- T15 / T17.9 the end of the game ----------------------------------------------------------
@pytest.mark.parametrize(
    ("totals", "decided", "target"),
    [
        ((5310, 5240), False, 7200),  # both passed 5200: extended
        ((5310, 5100), True, 5200),
        ((7300, 7250), False, 9200),
        ((9300, 9300), True, 9200),  # no further extension: a draw
        ((9400, 9250), True, 9200),
    ],
)
def test_t15_targets(totals, decided, target):

    from kanaszta_env.engine.kernels import kernels_for

    games = GameBatch(Rules(variant="tr", episode="game"), batch_size=1)
    games.reset(seed=0)
    st = games.state
    st.totals[0] = (totals[0], totals[1], totals[0], totals[1])
    st.target[0] = 5200 if totals[0] < 7200 or totals[1] < 7200 else 7200
    score = kernels_for(games.rules.spec).game_module("score")
    assert score.game_decided(st, games.rules.to_config(), 0) == decided
    assert st.target[0] == target


# --- T3 the deal --------------------------------------------------------------------------------
def test_t3_deal():
    games = GameBatch(Rules(variant="tr"), batch_size=8)
    games.reset(seed=3)
    st = games.state
    assert (st.hand.sum(axis=2) == 11).all()
    assert (st.stock_len == 40).all() and (st.pile_len == 0).all()  # T3.3: no upcard
    # T1.1: the 106 cards in hands, Fis and stock: checker_turkish._deal_problems at every deal
    # of tests/conformance/test_masks.py
    assert games.legal_names(0) == ["draw"]  # the first player draws (T3.3)
    # T2.2: the first dealer is random, the player after him starts; seat 0 when asked
    assert (st.to_move == (st.starter)).all() and len(set(st.to_move.tolist())) > 1
    fixed = GameBatch(Rules(variant="tr", random_starter=False), batch_size=8)
    fixed.reset(seed=3)
    assert (fixed.state.to_move == 0).all()
