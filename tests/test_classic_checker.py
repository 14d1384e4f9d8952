"""The classic canasta engine's legal mask equals an independent checker's legal actions
(docs/rules/classic.md C4-C12 and its "Engine decisions").

``tests/checker_classic.py`` re-derives legality in plain Python from the rules contract;
here it is compared with the engine's mask on targeted positions built with
``tests/classic_helpers.table`` for conditions random play rarely reaches (its ``legal``
asserts the agreement, in the rule tests of tests/test_classic_rules.py too). The comparison
on every state of seeded random games of both presets at every player count (C2) is
tests/conformance/test_masks.py; ``benchmarks/check_masks.py`` runs it on 100,000+ states.
"""

from __future__ import annotations

import numpy as np
import pytest
from classic_helpers import legal, melds_array, play, table

from kanaszta_env.cards import parse_cards

KINGS = ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]  # a natural canasta (C6.1)


def lay_this_turn(games, seat: int, cards: list[str]) -> None:
    """Mark ``cards`` (already in the side's melds) as laid in this turn: they go back into
    the checkpoint hand, so that a withdraw would return them (C5.8)."""
    s = games.state
    for t in parse_cards(cards):
        s.cp_hand[0, t] += 1
    s.changed[0] = 1
    games.adopt()


def pickup_position(variant: str, *, hand, melds, top: str, rest: list[str], opened=(), start=None):
    """A position in the middle of a pile pickup (C7.1 step 1): ``top`` already on its meld."""
    games = table(
        variant,
        hands={0: hand},
        melds={0: melds},
        pile=[*rest, top],
        opened=opened,
        phase="pickup",
        adopt=False,
    )
    s = games.state
    (top_type,) = parse_cards([top])
    s.pile_len[0] = len(rest)
    s.pickup_card[0] = top_type
    s.pickup_rest[0] = len(rest)
    s.took_pile[0] = 1
    s.start_groups[0] = melds_array(start or [])
    games.adopt()
    return games


# --- regressions of the engine fixes ----------------------------------------------------
def test_c8_3_c7_3_sk_frozen_pickup_wilds_may_join_the_pair():
    """C8.3: a frozen pile is taken with a natural pair only, but C7.3 lets wilds join the
    obliged meld; the engine used to refuse a wild before the second natural."""
    games = pickup_position(
        "sk",
        hand=["8D", "8H", "2S", "JK", "4C", "7S"],
        melds=[["4D", "4H", "4S"], ["8S"]],
        top="8S",
        rest=["3C", "KH", "JK", "AH", "9H"],
        opened=(0,),
        start=[["4D", "4H", "4S"]],
    )
    got = legal(games)
    assert {"meld_8", "meld_2_to_8", "meld_JK_to_8"} <= got
    play(games, "meld_JK_to_8", "meld_8")
    assert "meld_8" in legal(games)  # the second natural from the hand is still owed
    play(games, "meld_8")
    assert games.state.phase[0] == 2  # the obligation is met: meld phase


def test_c4_3_c7_7_an_opened_sides_pickup_lays_only_on_the_top_cards_meld():
    """C7.1, C4.3: during an opened side's pickup only T's meld grows; with the side's
    canasta one card may stay (4 4 4 is refused, K K allowed)."""
    queens = ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]
    games = pickup_position(
        "pl", hand=["KS", "KH", "4S", "4H", "4D", "9S"], melds=[queens, ["KD"]], top="KD", rest=[]
    )
    got = legal(games)
    assert "meld_K" in got and "meld_4" not in got


OPEN = (0, 1)  # both sides opened
MELD = dict(opened=OPEN, phase="meld")
SIX_KINGS = ["KS", "KS", "KH", "KH", "KD", "KD"]
QUEENS = ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]


@pytest.mark.parametrize(
    ("variant", "hand", "melds", "legal_take"),
    [
        # C12.2 "possibly completed in that turn": the pickup completes the kings' canasta and
        # leaves one card, which he may discard to go out (sk C7.7 forbids only an empty hand)
        ("pl", ["9H"], [SIX_KINGS], True),
        ("sk", ["9H"], [SIX_KINGS], True),
        # one card and no canasta after it: he could not finish the turn
        ("pl", ["9H"], [SIX_KINGS[:5]], False),
        # pl going out by melding (C12.1): K K K from the hand empties it, the side has a canasta;
        # sk demands the discard (C12.1), so the pickup would leave no card (C7.7)
        ("pl", ["KH", "KD"], [QUEENS], True),
        ("sk", ["KH", "KD"], [QUEENS], False),
        # the pile's king and his last king complete a canasta: going out by melding in pl only
        ("pl", ["KH"], [SIX_KINGS[:5]], True),
        ("sk", ["KH"], [SIX_KINGS[:5]], False),
    ],
)
def test_c4_3_c7_7_c12_2_pickup_may_leave_one_card_with_a_canasta_of_that_turn(
    variant: str, hand: list[str], melds: list[list[str]], legal_take: bool
) -> None:
    """The holding rule of a pickup (C4.3, C7.7) counts a canasta completed in that turn
    (C12.2) and pl's going out by melding (C12.1); the engine and the checker agree."""
    games = table(variant, hands={0: hand}, melds={0: melds}, pile=["KC"], opened=(0, 1))
    assert ("take_pile" in legal(games)) == legal_take


def test_c12_1_pl_pickup_that_melds_the_whole_hand_goes_out():
    """C12.1: in pl, taking the pile with K K and a side canasta, then melding both kings, is
    going out by melding: the hand ends at once."""
    games = table("pl", hands={0: ["KH", "KD"]}, melds={0: [QUEENS]}, pile=["KC"], opened=(0, 1))
    play(games, "take_pile")
    assert legal(games) == {"meld_K"}
    play(games, "meld_K", "meld_K")
    assert games.done[0] and games.state.out_player[0] == 0


@pytest.mark.parametrize(
    ("melds", "ok"), [([KINGS, ["QS"], ["3S", "3C"]], False), ([KINGS, ["3S", "3C"]], True)]
)
def test_c10_2_c5_1_black_three_meld_as_going_out_needs_legal_melds(melds, ok):
    """C10.2 with C12.1 and C5.1: melding the last card (a black three) is going out, which
    needs every meld of the side legal; a one-card meld laid this turn forbids it."""
    games = table("pl", hands={0: ["3S"]}, melds={0: melds}, **MELD, adopt=False)
    lay_this_turn(games, 0, [c for m in melds[1:] for c in m])  # all but the kings
    got = legal(games)
    assert ("meld_black_three" in got) is ok and "withdraw" in got


# --- targeted positions: engine and checker agree ------------------------------------
TARGETED = [
    # C7.4: before opening only a natural pair; after: natural + wild, side meld
    dict(hands={0: ["QS", "2H", "AS", "AH", "AD", "JK", "9H"]}, pile=["QD"]),
    dict(hands={0: ["QS", "2H", "5C"]}, pile=["QD"], opened=OPEN),
    dict(hands={0: ["5C", "6C"]}, melds={0: [["QS", "QH", "QC"]]}, pile=["QD"], opened=OPEN),
    dict(hands={0: ["5C"]}, melds={0: [["QS", "QH", "QC"]]}, pile=["QD"], opened=OPEN),
    dict(hands={0: ["5C"]}, melds={0: [KINGS, ["QS", "QH", "QC"]]}, pile=["QD"], opened=OPEN),
    # C8.3: sk frozen pile (a wild in it), pl only on top
    dict(variant="sk", hands={0: ["QS", "2H", "5C"]}, pile=["JK", "QD"], opened=OPEN),
    dict(variant="sk", hands={0: ["QS", "QH", "5C", "6C"]}, pile=["JK", "QD"], opened=OPEN),
    dict(hands={0: ["QS", "2H", "5C"]}, pile=["JK", "QD"], opened=OPEN),
    dict(
        variant="sk", hands={0: ["5C", "6C"]}, melds={0: [["QS", "QH", "QC"]]}, pile=["2C", "QD"], opened=OPEN
    ),
    # C4.5: empty stock
    dict(hands={0: ["QS", "QH", "5C", "6C"]}, pile=["QD"], opened=OPEN, stock=[]),
    dict(hands={0: ["5C", "6C"]}, pile=["QD"], opened=OPEN, stock=[]),
    # C5.2 wild limit, C5.6 sk wild meld, C12 going out, C4.3 holding rule (meld phase)
    dict(
        hands={0: ["2S", "2H", "JK", "KS", "5C"]}, melds={0: [["QS", "QH", "QD", "2C", "2D", "JK"]]}, **MELD
    ),
    dict(variant="sk", hands={0: ["2S", "2H", "JK", "5C"]}, **MELD),
    dict(variant="sk", hands={0: ["2S", "5C"]}, melds={0: [["2H", "2D", "JK", "2C", "JK", "2S"]]}, **MELD),
    dict(hands={0: ["KC", "5C"]}, melds={0: [KINGS[:6]]}, **MELD),
    dict(hands={0: ["KC", "5C"]}, melds={0: [KINGS[:6]]}, **MELD, variant="sk"),
    dict(hands={0: ["KC"]}, melds={0: [KINGS]}, **MELD),
    dict(hands={0: ["KC"]}, melds={0: [KINGS]}, **MELD, variant="sk"),
    dict(hands={0: ["5C", "6C"]}, melds={0: [["QS", "QH", "QD"]]}, **MELD),
    # C11.1 pl: the table's opening; sk: each side's own
    dict(hands={0: ["QS", "QH", "5C", "6C"]}, melds={1: [["KS", "KH", "KD"]]}, pile=["QD"], opened=OPEN),
    dict(variant="sk", hands={0: ["QS", "QH", "5C", "6C"]}, pile=["QD"], opened=(1,)),
]


@pytest.mark.parametrize("position", TARGETED, ids=range(len(TARGETED)))
def test_c4_c12_targeted_positions_agree(position):
    legal(table(**position))


@pytest.mark.parametrize(
    ("total", "hand", "pile", "ok"),
    [
        # C11.2, C16.1: the 60 of sk's example opens at a total of 0 and 1495, not at 1500
        (0, ["QS", "QH", "5C", "5D", "2S", "9H", "8H"], ["4C", "QD"], True),
        (1495, ["QS", "QH", "5C", "5D", "2S", "9H", "8H"], ["4C", "QD"], True),
        (1500, ["QS", "QH", "5C", "5D", "2S", "9H", "8H"], ["4C", "QD"], False),
        (-20, ["QS", "QH", "5C", "5D", "2S", "9H", "8H"], ["4C", "QD"], True),
        (-20, ["4S", "4H", "9H", "8H"], ["4C"], True),  # at a negative total 15 points suffice
        # C16.1: the mixed canasta 7 7 7 7 7 2 2 counts 365 with its bonus, even at 150
        (1500, ["7S", "7H", "7D", "7C", "2S", "2H", "9H", "8H"], ["4C", "7S"], True),
        (5000, ["7S", "7H", "7D", "7C", "2S", "2H", "9H", "8H"], ["4C", "7S"], True),
        # C5.6, C11.3: a wild meld helps the opening (Q Q Q + JK 80, 2 2 2 60: 140 >= 120)
        (3000, ["QS", "QH", "2S", "2H", "2D", "JK", "9H", "8H"], ["4C", "QD"], True),
        (5000, ["QS", "QH", "2S", "2H", "2D", "JK", "9H", "8H"], ["4C", "QD"], False),
        # C4.3, C7.7: two cards must stay, so only four of the six may open (100 < 120)
        (3000, ["QS", "QH", "2S", "2H", "2D", "JK"], ["QD"], False),
        (1500, ["QS", "QH", "2S", "2H", "2D", "JK"], ["QD"], True),
    ],
)
def test_c11_sk_opening_through_the_pile_by_total(total, hand, pile, ok):
    """C11.2-C11.3, C7.1: sk's opening through the pile, checked against the side's total
    (the minimum: 15 below zero, 50 from 0, 90 from 1500, 120 from 3000, 150 from 5000)."""
    games = table("sk", hands={0: hand}, pile=pile)
    games.state.totals[0] = total
    games.adopt()
    assert ("take_pile" in legal(games)) is ok


def test_c7_1_opening_pickup_step_by_step_agrees():
    """C7.1, C11.6: a closed pl table opened through the pile, card by card."""
    games = table(
        "pl", hands={0: ["QS", "QH", "KS", "KH", "KD", "AS", "AH", "AD", "9H", "8H"]}, pile=["4C", "QD"]
    )
    assert "take_pile" in legal(games)
    play(games, "take_pile")
    while games.state.phase[0] == 4:
        got = sorted(legal(games))
        assert got, "dead end in the pickup"
        play(games, "meld_Q" if "meld_Q" in got else got[0])
    legal(games)
    assert np.any(games.state.groups[0, 0])
