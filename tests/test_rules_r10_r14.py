"""Rules R10-R14 played out on position documents: groups and separate heart
aces, canastas (their scores are in test_rules_r16_r18.py), the opening meld
and take-back, rearrangement, and going out. Melding is checked when it ends,
so most tests look at whether a discard (``discard_*``) is legal after a
sequence of one-card melding actions."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from rules_helpers import (
    can_finish_with,
    cards,
    discards,
    dump,
    group_of,
    legal,
    load,
    play,
    player,
    position,
    seat,
)

from kanaszta_env import GameBatch, position as pos

VARIANTS = ("2003-02", "2003-01")
QUEENS = ["QS", "QH", "QD"]
OPPONENT = seat(["7C", "10D"])


def melding(
    hand: Sequence[str], groups: Sequence[Sequence[str]] = (), *, total: int = 0, **doc: object
) -> GameBatch:
    """Seat 1 in the meld phase (he has drawn) with this hand and these groups;
    ``doc`` holds further top-level keys (``variant``, ``opening_minimum`` …)."""
    return load(position([OPPONENT, seat(hand, groups, total=total)], phase="meld", **doc))


# --- R10 groups ------------------------------------------------------------------------------
HAND = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "2C", "2D", "JK", "9C", "4D"]
K3 = ["meld_KS", "meld_KH", "meld_KD"]


@pytest.mark.parametrize(
    ("actions", "ok"),
    [
        (["meld_KS", "meld_KH"], False),  # 2 cards
        (K3, True),
        (["meld_KS", "meld_KH", "meld_2C_to_K"], True),  # 2 + 1
        (["meld_KS", "meld_KH", "meld_2C_to_K", "meld_JK_to_K"], False),  # 2 + 2: no minority
        (["meld_KS", "meld_KH", "meld_2C_to_K", "meld_JK_to_K", "meld_KD"], True),  # 3 + 2
        ([*K3, "meld_2C_to_K", "meld_2D_to_K", "meld_JK_to_K"], False),  # 3 + 3
        ([*K3, "meld_2C_to_K", "meld_2D_to_K", "meld_JK_to_K", "meld_KC"], True),  # 4 + 3
        ([*K3, "meld_KC", "meld_KS", "meld_KH", "meld_2C_to_K"], True),  # 6 + 1
    ],
)
@pytest.mark.parametrize("variant", VARIANTS)
def test_r10_2_group_size_and_wild_minority(actions: list[str], ok: bool, variant: str) -> None:
    """R10.1-R10.2: 3 to 8 cards, wilds fewer than naturals (3-4 cards: 1 wild,
    5-6: 2, 7: 3, 8: none); an illegal group blocks the discard until fixed or
    withdrawn."""
    games = melding(HAND, [QUEENS], variant=variant)
    play(games, *actions)
    assert bool(discards(games)) is ok
    assert "withdraw" in legal(games)


def test_r10_2_no_wild_joins_seven_naturals() -> None:
    """R10.2: six naturals take one wild, seven none (an eight-card group holds no wild)."""
    games = melding(HAND, [QUEENS])
    play(games, *K3, "meld_KC", "meld_KS", "meld_KH", "meld_2C_to_K")
    assert not {"meld_2D_to_K", "meld_JK_to_K"} & legal(games)
    games = melding(HAND, [QUEENS])
    play(games, *K3, "meld_KC", "meld_KS", "meld_KH", "meld_KD")
    assert not {"meld_2C_to_K", "meld_2D_to_K", "meld_JK_to_K"} & legal(games)
    assert discards(games) == {"2C", "2D", "JK", "9C", "4D"}


def test_r10_3_wilds_only_group_holds_three_to_seven() -> None:
    """R10.3: a wilds-only group needs 3 wilds and takes at most 7."""
    hand = ["JK"] * 5 + ["2S", "2H", "2D", "9C", "4D"]
    games = melding(hand, [QUEENS])
    play(games, "meld_JK_to_wild", "meld_JK_to_wild")
    assert not discards(games)
    play(games, "meld_2S_to_wild")
    assert discards(games) == {"JK", "2H", "2D", "9C", "4D"}
    play(games, "meld_JK_to_wild", "meld_JK_to_wild", "meld_JK_to_wild", "meld_2H_to_wild")
    assert group_of(games, 1, "wild") == cards(["JK"] * 5 + ["2S", "2H"])
    assert "meld_2D_to_wild" not in legal(games)


def test_r10_4_one_group_per_rank() -> None:
    """R10.4-R10.5: a natural joins the player's one group of its rank (never the
    opponent's); a document with two groups of one rank is rejected."""
    opponent = seat(["5S", "9D"], [["KS", "KH", "KD"]])
    games = load(position([opponent, seat(["KC", "KS", "KH", "9C"], [QUEENS])], phase="meld"))
    play(games, "meld_KC", "meld_KS", "meld_KH")
    assert player(games, 1)["groups"] == [["QS", "QH", "QD"], ["KS", "KH", "KC"]]
    assert player(games, 0)["groups"] == [["KS", "KH", "KD"]]
    doc = position([OPPONENT, seat(["9C", "4D"], [["KS", "KH", "KD"], ["KS", "KH", "KC"]])])
    with pytest.raises(ValueError, match=r"R10\.4"):
        pos.load(doc)


def test_r10_6_separate_heart_ace_needs_an_opening_and_does_not_count() -> None:
    """R10.6 [D], R12.3: a separate heart ace alone is no opening, and it does not
    count towards the minimum; with an opening it is laid, outside the aces group."""
    hand = ["AH", "KS", "KH", "KD", "5S", "5H", "5D", "5C", "9C", "4D"]
    games = melding(hand)
    assert "lay_heart_ace" in legal(games)
    play(games, "lay_heart_ace")
    assert not discards(games) and player(games, 1)["separate_heart_aces"] == 1
    play(games, *K3, "meld_5S", "meld_5H", "meld_5D")  # 45 + heart ace
    assert not discards(games)
    play(games, "meld_5C")  # 50
    assert discards(games) == {"9C", "4D"}
    p1 = player(games, 1)
    assert p1["separate_heart_aces"] == 1 and "AH" not in p1["hand"]
    assert not any(a.startswith(("lift", "place")) and a.endswith("_A") for a in legal(games))


def test_r10_6_heart_ace_separate_or_in_the_aces_group_never_moves() -> None:
    """R10.6, R13.4: an AH melded with the aces stays there; a separate one never
    joins the aces group (no action moves either)."""
    games = melding(["AH", "AH", "AS", "AD", "9C", "4D"], [QUEENS])
    play(games, "meld_AS", "meld_AD", "meld_AH", "lay_heart_ace")
    p1 = player(games, 1)
    assert group_of(games, 1, "A") == ["AS", "AH", "AD"] and p1["separate_heart_aces"] == 1
    assert not {"meld_AH", "lay_heart_ace"} & legal(games)
    assert discards(games) == {"9C", "4D"}


def test_r10_6_no_separate_heart_aces_in_2003_01() -> None:
    """R10.6: preset 2003-01 has no separate heart aces; AH is an ordinary ace."""
    games = melding(["AH", "AS", "AD", "9C", "4D"], [QUEENS], variant="2003-01")
    assert "lay_heart_ace" not in legal(games) and "meld_AH" in legal(games)
    play(games, "meld_AH", "meld_AS", "meld_AD")
    assert "lay_heart_ace" not in legal(games) and discards(games) == {"9C", "4D"}


# --- R12 opening meld ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("minimum", "hand", "short", "last"),
    [
        (50, ["KS", "KH", "KD", "5S", "5H", "5D", "5C"], [*K3, "meld_5S", "meld_5H", "meld_5D"], "meld_5C"),
        (75, ["KS", "KH", "KD", "KC", "6S", "6H", "6D", "4S", "4H", "4D", "4C"],
         [*K3, "meld_KC", "meld_6S", "meld_6H", "meld_6D", "meld_4S", "meld_4H", "meld_4D"], "meld_4C"),
        (90, ["AS", "AD", "AC", "5S", "5S", "5H", "5D", "5C", "5H"],
         ["meld_AS", "meld_AD", "meld_AC", "meld_5S", "meld_5S", "meld_5H", "meld_5D", "meld_5C"], "meld_5H"),
        (120, ["AS", "AD", "AC", "AS", "AD", "5S", "5H", "5D", "5C"],
         ["meld_AS", "meld_AD", "meld_AC", "meld_AS", "meld_AD", "meld_5S", "meld_5H", "meld_5D"], "meld_5C"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("variant", VARIANTS)
def test_r12_opening_minimum(
    minimum: int, hand: list[str], short: list[str], last: str, variant: str
) -> None:
    """R12.1-R12.2: the cards laid in the opening turn must be worth the agreed
    minimum (50, 75, 90 or 120): five points short blocks the discard."""
    games = melding([*hand, "9C", "4D"], opening_minimum=minimum, variant=variant)
    play(games, *short)
    assert not discards(games)
    play(games, last)
    assert discards(games) == {"9C", "4D"}
    play(games, "discard_9C")
    assert player(games, 1)["opened"] is True


@pytest.mark.parametrize(
    ("minimum", "actions", "ok"),
    [
        (50, ["meld_AS", "meld_AD", "meld_2C_to_A"], True),  # the 2 counts as an ace: 60
        (50, ["meld_4S", "meld_4H", "meld_4D", "meld_JK_to_4", "meld_5S", "meld_5H", "meld_5D"], False),  # 35
        (50, ["meld_4S", "meld_4H", "meld_4D", "meld_JK_to_4", *K3], True),  # 20 + 30
        (50, ["meld_JK_to_wild", "meld_JK_to_wild", "meld_JK_to_wild"], True),  # 3 x 20
        (75, ["meld_JK_to_wild", "meld_JK_to_wild", "meld_JK_to_wild"], False),  # jokers count 20 here
    ],
)
def test_r12_3_wilds_count_as_the_rank_they_stand_for(minimum: int, actions: list[str], ok: bool) -> None:
    """R12.3: a wild counts as the natural it stands for; every card of a wilds-only
    group counts 20, jokers included."""
    hand = ["AS", "AD", "2C", "4S", "4H", "4D", "5S", "5H", "5D", "KS", "KH", "KD", *["JK"] * 3, "9C", "4C"]
    games = melding(hand, opening_minimum=minimum)
    play(games, *actions)
    assert bool(discards(games)) is ok


@pytest.mark.parametrize(
    ("schedule", "total", "ok"),
    [
        ([[0, 50], [1500, 90]], 1000, True),
        ([[0, 50], [1500, 90]], 2000, False),
        ("classic", 1499, True),
        ("classic", 1500, False),
        ("classic", -300, True),
    ],
)
def test_r12_2_score_dependent_opening_schedule(schedule: object, total: int, ok: bool) -> None:
    """R12.2 [D] option: the minimum follows the player's total; 60 opens below
    1500 and not at or above it (90 needed)."""
    games = melding(["AS", "AD", "AC", "KS", "KH", "KD", "9C", "4D"], total=total, opening_schedule=schedule)
    play(games, "meld_AS", "meld_AD", "meld_AC")
    assert bool(discards(games)) is ok
    play(games, *K3)  # 90
    assert discards(games) == {"9C", "4D"}


@pytest.mark.parametrize("minimum", [50, 120])
def test_r12_4_going_out_in_the_opening_turn_waives_the_minimum(minimum: int) -> None:
    """R12.4, R16.2: a red canasta of fives is worth 35, yet going out with it in
    the opening turn is allowed (from hand: 100 + 100); keeping two cards is not."""
    fives = ["5S", "5S", "5H", "5H", "5D", "5D", "5C"]
    games = melding([*fives, "9C"], opening_minimum=minimum)
    play(games, *(f"meld_{c}" for c in fives[:-1]))
    assert not discards(games)  # six fives: no canasta, 30 points
    play(games, "meld_5C")
    assert discards(games) == {"9C"}
    play(games, "discard_9C")
    assert player(games, 1)["hand_score"] == 400 + 200 + 35
    games = melding([*fives, "9C", "4D"], opening_minimum=minimum)
    play(games, *(f"meld_{c}" for c in fives))
    assert not discards(games)


@pytest.mark.parametrize("opened", [False, True])
def test_r12_5_withdraw_takes_back_this_turns_melding(opened: bool) -> None:
    """R12.5: withdraw returns every card laid this turn to the hand (seen by all),
    keeps earlier groups, and leaves only a discard."""
    groups = [QUEENS] if opened else []
    games = melding(["KS", "KH", "KD", "QC", "9C"], groups)
    before = player(games, 1)
    play(games, *K3, *(["meld_QC"] if opened else []))
    assert "withdraw" in legal(games)
    play(games, "withdraw")
    after = player(games, 1)
    assert (after["hand"], after["groups"]) == (before["hand"], before["groups"])
    assert after["known"] == cards(["KS", "KH", "KD", *(["QC"] if opened else [])])
    assert dump(games)["phase"] == "discard" and discards(games) == {"KS", "KH", "KD", "QC", "9C"}
    assert not legal(games) - {f"discard_{c}" for c in after["hand"]}


# --- R13 rearrangement -----------------------------------------------------------------------
def test_r13_1_extend_an_own_group() -> None:
    """R13.1: naturals of the rank and wilds from hand join one's own group."""
    games = melding(["KC", "2C", "9C", "4D"], [["KS", "KH", "KD"]])
    play(games, "meld_KC", "meld_2C_to_K")
    assert group_of(games, 1, "K") == cards(["KS", "KH", "KD", "KC", "2C"])
    assert discards(games) == {"9C", "4D"}


def test_r13_2_a_lifted_wild_goes_into_another_group_at_once() -> None:
    """R13.2: a wild taken out of a group must go into another own group; it never
    returns to the hand, nor to its group, and it cannot be lifted again this turn."""
    games = melding(["9C", "4D"], [["KS", "KH", "KD", "2C"], QUEENS])
    play(games, "lift_small_from_K")
    assert legal(games) == {"place_on_Q", "place_on_wild", "withdraw"}
    play(games, "place_on_Q")
    assert group_of(games, 1, "K") == ["KS", "KH", "KD"]
    assert group_of(games, 1, "Q") == cards(["QS", "QH", "QD", "2C"])
    assert player(games, 1)["hand"] == ["4D", "9C"] and discards(games) == {"9C", "4D"}
    assert "lift_small_from_Q" not in legal(games)
    play(games, "withdraw")
    assert group_of(games, 1, "K") == cards(["KS", "KH", "KD", "2C"])
    assert player(games, 1)["hand"] == ["4D", "9C"]


def test_r13_3_black_canasta_keeps_its_wilds_unless_it_turns_red() -> None:
    """R13.3: taking a wild out of a black canasta is allowed only if the missing
    naturals come in the same step, making it red."""
    black = ["KS", "KH", "KD", "KC", "KS", "2C", "2D"]
    games = melding(["KH", "KD", "9C", "4D"], [black, ["QS", "QH", "QD", "QC"]])
    play(games, "lift_small_from_K", "place_on_Q")
    assert not discards(games)  # 5 + 1: the canasta is broken
    play(games, "meld_KH")
    assert discards(games) == {"KD", "9C", "4D"}  # 6 + 1, still black
    play(games, "lift_small_from_K", "place_on_Q")
    assert not discards(games)
    play(games, "meld_KD")
    assert group_of(games, 1, "K") == cards(["KS", "KS", "KH", "KH", "KD", "KD", "KC"])
    assert discards(games) == {"9C", "4D"}


def test_r13_black_canasta_becomes_gold_by_displacing_wilds() -> None:
    """R13.3: a 6+1 black canasta takes a seventh natural only by shedding its wild
    into another group, and an eighth natural then makes it gold."""
    black = ["KS", "KS", "KH", "KH", "KD", "KD", "2C"]
    games = melding(["KC", "KC", "9C", "4D"], [black, QUEENS])
    play(games, "meld_KC")
    assert not discards(games)  # 7 + 1 is no group
    play(games, "lift_small_from_K", "place_on_Q", "meld_KC")
    assert group_of(games, 1, "K") == cards([*black[:-1], "KC", "KC"])
    assert discards(games) == {"9C", "4D"}
    result = play(games, "discard_9C")
    assert not result.terminated[0] and player(games, 1)["groups"][-1] == cards([*black[:-1], "KC", "KC"])


def test_r13_3_five_plus_two_black_canasta_with_a_sixth_natural_sheds_a_wild() -> None:
    """R13.3: a black canasta never holds more than 7 cards: 5+2 plus a natural
    becomes 6+1, the displaced wild going into another group."""
    black = ["KS", "KH", "KD", "KC", "KS", "2C", "JK"]
    games = melding(["KH", "9C", "4D"], [black, QUEENS])
    play(games, "meld_KH")
    assert not discards(games)
    play(games, "lift_big_from_K", "place_on_Q")
    assert group_of(games, 1, "K") == cards(["KS", "KS", "KH", "KH", "KD", "KC", "2C"])
    assert group_of(games, 1, "Q") == ["QS", "QH", "QD", "JK"]
    assert discards(games) == {"9C", "4D"}


@pytest.mark.parametrize(
    "actions",
    [
        ["meld_JK_to_K", "lift_small_from_K", "place_on_Q"],
        ["lift_small_from_K", "place_on_Q", "meld_JK_to_K"],
        ["meld_KH", "meld_JK_to_K", "lift_small_from_K", "place_on_Q", "lift_small_from_K", "place_on_Q"],
    ],
)
def test_r13_3_no_wild_is_swapped_into_a_black_canasta(actions: list[str]) -> None:
    """R13.1, R13.3: a black canasta never holds more than 7 cards, so no wild joins
    it, and its wilds leave only when naturals take their place. Swapping a hand
    joker in for a 2 (which moves to the queens) must not be accepted."""
    black = ["KS", "KH", "KD", "KC", "KS", "2C", "2D"]
    games = melding(["JK", "KH", "9C", "4D"], [black, QUEENS])
    assert not can_finish_with(games, *actions)


def test_r13_3_pickup_turns_a_black_canasta_gold() -> None:
    """R13.3, R8 [D]: an opened player takes a king onto a black canasta of five kings
    and two 2s: with two hand kings it turns gold and the 2s move to the eights."""
    groups = [["KS", "KH", "KD", "KC", "KS", "2C", "2D"], ["8S", "8H", "8D", "8C"]]
    one = load(position([OPPONENT, seat(["KH", "9S", "9S", "4D"], groups)], discard=["QS", "KD"]))
    assert "take_pile" not in legal(one)
    games = load(position([OPPONENT, seat(["KH", "KC", "9S", "9S", "4D"], groups)], discard=["QS", "KD"]))
    play(games, "take_pile")
    assert legal(games) == {"meld_KD", "meld_KC", "meld_KH", "lift_small_from_K"}


@pytest.mark.parametrize(
    "wilds", [["JK", "JK", "JK", "JK", "2S", "2H", "2D"], ["2S", "2S", "2H", "2H", "2D", "2D", "2C"]]
)
def test_r13_2_wild_canastas_cannot_be_broken_up(wilds: list[str]) -> None:
    """R13.2: no wild leaves a wild canasta, and none joins it (R10.3)."""
    games = melding(["2C" if "2C" not in wilds else "JK", "9C", "4D"], [wilds, QUEENS])
    names = legal(games)
    assert not {"lift_small_from_wild", "lift_big_from_wild", "meld_2C_to_wild", "meld_JK_to_wild"} & names


def test_r13_3_red_canasta_takes_no_wild_and_gold_takes_nothing() -> None:
    """R13.3: a red canasta takes only an eighth natural (gold); a gold canasta
    takes nothing, not even a wild moved from another group."""
    red = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]
    gold = ["KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC"]
    games = melding(["QC", "2C", "9C", "4D"], [red, gold, ["5S", "5H", "5D", "2D"]])
    names = legal(games)
    assert "meld_QC" in names and not {"meld_2C_to_Q", "meld_2C_to_K"} & names
    play(games, "lift_small_from_5")
    assert not {"place_on_Q", "place_on_K"} & legal(games)
    play(games, "withdraw", "discard_9C")
    games = melding(["QC", "2C", "9C", "4D"], [red, gold, ["5S", "5H", "5D"]])
    play(games, "meld_QC")
    assert group_of(games, 1, "Q") == cards([*red, "QC"])
    assert "discard_9C" in legal(games) and "meld_2C_to_Q" not in legal(games)


# --- R14 going out ----------------------------------------------------------------------------
def test_r14_1_going_out_needs_a_canasta() -> None:
    """R14.1-R14.2: without a canasta the last card cannot be discarded, so the
    melding that leaves one card must be taken back."""
    games = melding(["KC", "9C"], [["KS", "KH", "KD"]])
    play(games, "meld_KC")
    assert not discards(games) and "withdraw" in legal(games)
    red = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]
    games = melding(["KC", "9C"], [["KS", "KH", "KD"], red])
    play(games, "meld_KC")
    assert discards(games) == {"9C"}


def test_r14_2_the_last_card_is_never_melded_and_must_be_discarded() -> None:
    """R14.2-R14.3: with one card and a canasta the only action is to discard it."""
    red = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]
    games = melding(["KC"], [["KS", "KH", "KD"], red])
    assert legal(games) == {"discard_KC"}


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_r14_4_going_out_ends_the_hand_at_once(num_players: int) -> None:
    """R14.4: nobody plays on after a player goes out."""
    red = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]
    hands = [["7C", "10D"], ["KC"], ["4S", "JD"], ["6H", "8S"]]
    players = [seat(hands[q]) for q in range(num_players)]
    players[1] = seat(["KC"], [red])
    games = load(position(players, phase="meld", to_move=1))
    result = play(games, "discard_KC")
    state = dump(games)
    assert (state["phase"], state["end_reason"], state["out_player"]) == ("over", "out", 1)
    assert result.terminated[0] and legal(games) == set()
    assert [p["hand"] for p in state["players"]] == [cards(h) for h in hands[:1]] + [[]] + [
        cards(h) for h in hands[2:num_players]
    ]
