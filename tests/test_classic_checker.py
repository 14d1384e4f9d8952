"""The classic canasta engine's legal mask equals an independent checker's legal actions
(docs/rules/classic.md C4-C12 and its "Engine decisions").

``tests/checker_classic.py`` re-derives legality in plain Python from the rules contract;
here it is compared with the engine's mask on targeted positions built with
``tests/classic_helpers.table`` for conditions random play rarely reaches. The comparison
on every state of seeded random games of both presets at every player count (C2) is
tests/conformance/test_masks.py; ``benchmarks/check_masks.py`` runs it on 100,000+ states.
"""

from __future__ import annotations

import numpy as np
import pytest
from checker_classic import legal_actions, position_of
from classic_helpers import legal, play, table

from kanaszta_env.cards import parse_cards

KINGS = ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]  # a natural canasta (C6.1)


def melds_array(melds: list[list[str]]) -> np.ndarray:
    """A side's melds as (13, 9) counts, incomplete ones too (cards laid in this turn):
    naturals by suit, 2S 2H 2D 2C, joker; a meld of wilds only is sk's wild meld (11), of
    black threes pl's black-three meld (12)."""
    ranks = ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    grp = np.zeros((13, 9), dtype=np.int8)
    for cards in melds:
        natural = [c for c in cards if c != "JK" and c[:-1] in ranks]
        g = ranks.index(natural[0][:-1]) if natural else 11
        if all(c in ("3S", "3C") for c in cards):
            g = 12
        for c in cards:
            if c == "JK":
                grp[g, 8] += 1
            elif c.startswith("2"):
                grp[g, 4 + "SHDC".index(c[-1])] += 1
            elif c in ("3S", "3C"):
                grp[g, 0 if c == "3S" else 3] += 1
            else:
                grp[g, "SHDC".index(c[-1])] += 1
    return grp


def tab(variant: str = "pl", *, melds=None, adopt: bool = True, **kw):
    """``classic_helpers.table`` with melds that may be incomplete (laid this turn)."""
    games = table(variant, adopt=False, **kw)
    s = games.state
    for side, side_melds in (melds or {}).items():
        s.groups[0, side] = melds_array(side_melds)
    side = s.side_of[0, s.to_move[0]]
    s.start_groups[0] = s.groups[0, side]
    s.cp_groups[0] = s.groups[0, side]
    if adopt:
        games.adopt()
    return games


def agrees(games) -> set[str]:
    """The engine's legal set of game 0, asserted equal to the checker's."""
    engine = legal(games)
    checker = legal_actions(position_of(games, 0), games.rules)
    assert engine == checker, (
        f"engine only {sorted(engine - checker)}, checker only {sorted(checker - engine)}"
    )
    return engine


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
    games = tab(
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
    got = agrees(games)
    assert {"meld_8", "meld_2_to_8", "meld_JK_to_8"} <= got
    play(games, "meld_JK_to_8", "meld_8")
    assert "meld_8" in agrees(games)  # the second natural from the hand is still owed
    play(games, "meld_8")
    assert games.state.phase[0] == 2  # the obligation is met: meld phase


def test_c4_3_c7_7_an_opened_sides_pickup_lays_only_on_the_top_cards_meld():
    """C7.1, C4.3: during an opened side's pickup only T's meld grows; with the side's
    canasta one card may stay (4 4 4 is refused, K K allowed)."""
    queens = ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]
    games = pickup_position(
        "pl", hand=["KS", "KH", "4S", "4H", "4D", "9S"], melds=[queens, ["KD"]], top="KD", rest=[]
    )
    got = agrees(games)
    assert "meld_K" in got and "meld_4" not in got


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
    games = tab(variant, hands={0: hand}, melds={0: melds}, pile=["KC"], opened=(0, 1))
    assert ("take_pile" in agrees(games)) == legal_take


def test_c12_1_pl_pickup_that_melds_the_whole_hand_goes_out():
    """C12.1: in pl, taking the pile with K K and a side canasta, then melding both kings, is
    going out by melding: the hand ends at once."""
    games = tab("pl", hands={0: ["KH", "KD"]}, melds={0: [QUEENS]}, pile=["KC"], opened=(0, 1))
    play(games, "take_pile")
    assert agrees(games) == {"meld_K"}
    play(games, "meld_K", "meld_K")
    assert games.done[0] and games.state.out_player[0] == 0


def test_c10_2_c5_1_black_three_meld_as_going_out_needs_legal_melds():
    """C10.2 with C12.1 and C5.1: melding the last card (a black three) is going out, which
    needs every meld of the side legal; a one-card meld laid this turn forbids it."""
    games = tab(
        "pl",
        hands={0: ["3S"]},
        melds={0: [KINGS, ["QS"], ["3S", "3C"]]},
        opened=(0, 1),
        phase="meld",
        adopt=False,
    )
    lay_this_turn(games, 0, ["QS", "3S", "3C"])
    got = agrees(games)
    assert "meld_black_three" not in got and "withdraw" in got
    ok = tab(
        "pl", hands={0: ["3S"]}, melds={0: [KINGS, ["3S", "3C"]]}, opened=(0, 1), phase="meld", adopt=False
    )
    lay_this_turn(ok, 0, ["3S", "3C"])
    assert "meld_black_three" in agrees(ok)


# --- targeted positions: engine and checker agree ------------------------------------
TARGETED = [
    # C7.2: black three / wild on top, own canasta rank
    dict(hands={0: ["QS", "QH", "QD", "2S", "5C"]}, pile=["QC", "3S"], opened=(0, 1)),
    dict(hands={0: ["QS", "QH", "QD", "2S", "5C"]}, pile=["QC", "JK"], opened=(0, 1)),
    dict(hands={0: ["KS", "KH", "5C", "6C"]}, melds={0: [KINGS]}, pile=["9C", "KC"], opened=(0, 1)),
    dict(hands={0: ["KS", "KH", "5C", "6C"]}, melds={1: [KINGS]}, pile=["9C", "KC"], opened=(0, 1)),
    # C16.1 / C11.2: the opening through the pile, pl 80 and sk 50
    dict(hands={0: ["QS", "QH", "5C", "5D", "2S", "9H", "8H"]}, pile=["4C", "QD"]),
    dict(variant="sk", hands={0: ["QS", "QH", "5C", "5D", "2S", "9H", "8H"]}, pile=["4C", "QD"]),
    # C7.4: before opening only a natural pair; after: natural + wild, side meld
    dict(hands={0: ["QS", "2H", "AS", "AH", "AD", "JK", "9H"]}, pile=["QD"]),
    dict(hands={0: ["QS", "2H", "5C"]}, pile=["QD"], opened=(0, 1)),
    dict(hands={0: ["5C", "6C"]}, melds={0: [["QS", "QH", "QC"]]}, pile=["QD"], opened=(0, 1)),
    dict(hands={0: ["5C"]}, melds={0: [["QS", "QH", "QC"]]}, pile=["QD"], opened=(0, 1)),
    dict(hands={0: ["5C"]}, melds={0: [KINGS, ["QS", "QH", "QC"]]}, pile=["QD"], opened=(0, 1)),
    # C8.3: sk frozen pile (a wild in it), pl only on top
    dict(variant="sk", hands={0: ["QS", "2H", "5C"]}, pile=["JK", "QD"], opened=(0, 1)),
    dict(variant="sk", hands={0: ["QS", "QH", "5C", "6C"]}, pile=["JK", "QD"], opened=(0, 1)),
    dict(hands={0: ["QS", "2H", "5C"]}, pile=["JK", "QD"], opened=(0, 1)),
    dict(
        variant="sk",
        hands={0: ["5C", "6C"]},
        melds={0: [["QS", "QH", "QC"]]},
        pile=["2C", "QD"],
        opened=(0, 1),
    ),
    # C4.5: empty stock
    dict(hands={0: ["QS", "QH", "5C", "6C"]}, pile=["QD"], opened=(0, 1), stock=[]),
    dict(hands={0: ["5C", "6C"]}, pile=["QD"], opened=(0, 1), stock=[]),
    # C5.2 wild limit, C5.6 sk wild meld, C12 going out, C4.3 holding rule (meld phase)
    dict(
        hands={0: ["2S", "2H", "JK", "KS", "5C"]},
        melds={0: [["QS", "QH", "QD", "2C", "2D", "JK"]]},
        opened=(0, 1),
        phase="meld",
    ),
    dict(variant="sk", hands={0: ["2S", "2H", "JK", "5C"]}, opened=(0, 1), phase="meld"),
    dict(
        variant="sk",
        hands={0: ["2S", "5C"]},
        melds={0: [["2H", "2D", "JK", "2C", "JK", "2S"]]},
        opened=(0, 1),
        phase="meld",
    ),
    dict(hands={0: ["KC", "5C"]}, melds={0: [KINGS[:6]]}, opened=(0, 1), phase="meld"),
    dict(hands={0: ["KC", "5C"]}, melds={0: [KINGS[:6]]}, opened=(0, 1), phase="meld", variant="sk"),
    dict(hands={0: ["KC"]}, melds={0: [KINGS]}, opened=(0, 1), phase="meld"),
    dict(hands={0: ["KC"]}, melds={0: [KINGS]}, opened=(0, 1), phase="meld", variant="sk"),
    dict(hands={0: ["5C", "6C"]}, melds={0: [["QS", "QH", "QD"]]}, opened=(0, 1), phase="meld"),
    # C10.2: pl black threes only as the last step before going out
    dict(hands={0: ["3S", "3C", "3S", "5C"]}, melds={0: [KINGS]}, opened=(0, 1), phase="meld"),
    dict(hands={0: ["3S", "3C", "3S", "5C", "6C"]}, melds={0: [KINGS]}, opened=(0, 1), phase="meld"),
    dict(hands={0: ["3S", "3C", "5C"]}, melds={0: [KINGS]}, opened=(0, 1), phase="meld"),
    # C11.1 pl: the table's opening; sk: each side's own
    dict(hands={0: ["QS", "QH", "5C", "6C"]}, melds={1: [["KS", "KH", "KD"]]}, pile=["QD"], opened=(0, 1)),
    dict(variant="sk", hands={0: ["QS", "QH", "5C", "6C"]}, pile=["QD"], opened=(1,)),
]


@pytest.mark.parametrize("position", TARGETED, ids=range(len(TARGETED)))
def test_c4_c12_targeted_positions_agree(position):
    agrees(tab(**position))


def test_c11_2_sk_minimum_rises_with_the_sides_total():
    """C11.2, C16.1: the 60 of sk's example opens at a total of 0 and 1495, not at 1500;
    at a negative total the minimum is 15."""
    hand = {0: ["QS", "QH", "5C", "5D", "2S", "9H", "8H"]}
    for total, ok in ((0, True), (1495, True), (1500, False), (-20, True)):
        games = table("sk", hands=hand, pile=["4C", "QD"])
        games.state.totals[0] = total
        games.adopt()
        assert ("take_pile" in agrees(games)) is ok, total
    small = table("sk", hands={0: ["4S", "4H", "9H", "8H"]}, pile=["4C"])
    small.state.totals[0] = -20
    small.adopt()
    assert "take_pile" in agrees(small)  # 15 points suffice below zero


@pytest.mark.parametrize(
    ("total", "hand", "pile", "ok"),
    [
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
    """C11.2-C11.3, C7.1: sk's opening through the pile, checked against the side's total."""
    games = tab("sk", hands={0: hand}, pile=pile)
    games.state.totals[0] = total
    games.adopt()
    assert ("take_pile" in agrees(games)) is ok


def test_c12_5_pl_partner_question_agrees_at_every_step():
    """C12.5: ask when going out would be legal; the partner answers; "no" leaves only
    withdraw and then a discard that is not the last card."""
    for answer in ("yes", "no"):
        games = tab(
            "pl", hands={0: ["QC", "QS", "5C"]}, melds={0: [KINGS, ["QH", "QD"]]}, opened=(0, 1), phase="meld"
        )
        play(games, "meld_Q")
        agrees(games)
        play(games, "meld_Q")
        assert "ask" in agrees(games)
        play(games, "ask")
        assert agrees(games) == {"yes", "no"}
        play(games, answer)
        got = agrees(games)
        if answer == "no":
            assert got == {"withdraw"}
            play(games, "withdraw")
            agrees(games)
        else:
            assert "discard_5" in got and "withdraw" not in got


def test_c7_1_opening_pickup_step_by_step_agrees():
    """C7.1, C11.6: a closed pl table opened through the pile, card by card."""
    games = table(
        "pl", hands={0: ["QS", "QH", "KS", "KH", "KD", "AS", "AH", "AD", "9H", "8H"]}, pile=["4C", "QD"]
    )
    assert "take_pile" in agrees(games)
    play(games, "take_pile")
    while games.state.phase[0] == 4:
        got = sorted(agrees(games))
        assert got, "dead end in the pickup"
        play(games, "meld_Q" if "meld_Q" in got else got[0])
    agrees(games)
    assert np.any(games.state.groups[0, 0])
