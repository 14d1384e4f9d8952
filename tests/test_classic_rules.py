"""Classic canasta rules (docs/rules/classic.md), rule by rule, on engine positions.

Each test names the rule it checks (C numbers); positions are built with
``tests/classic_helpers.table``.
"""

from __future__ import annotations

import numpy as np
import pytest
from classic_helpers import legal, play, table

from kanaszta_env import GameBatch, Rules
from kanaszta_env.engine import DeadEndError

KINGS = ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]  # a natural canasta


def test_c7_2_black_three_or_wild_on_top_blocks_the_pile():
    for top in ("3S", "2C", "JK"):
        games = table(hands={0: ["QS", "QH", "QD", "2S", "5C"]}, pile=["QC", top], opened=(0, 1))
        assert "take_pile" not in legal(games), top


def test_c7_2_own_canasta_rank_blocks_the_pile_an_opponents_does_not():
    hands = {0: ["KS", "KH", "5C", "6C"]}
    own = table(hands=hands, melds={0: [KINGS]}, pile=["9C", "KC"], opened=(0, 1))
    theirs = table(hands=hands, melds={1: [KINGS]}, pile=["9C", "KC"], opened=(0, 1))
    assert "take_pile" not in legal(own)
    assert "take_pile" in legal(theirs)


def test_c16_1_opening_through_the_pile_pl_80_sk_50():
    """sk's own example: QS QH with QD on top, 5C 5D 2S from hand: 60 (C16.1)."""
    hand = {0: ["QS", "QH", "5C", "5D", "2S", "9H", "8H"]}
    assert "take_pile" in legal(table("sk", hands=hand, pile=["4C", "QD"]))
    assert "take_pile" not in legal(table("pl", hands=hand, pile=["4C", "QD"]))


def test_c7_4_before_opening_only_a_natural_pair_takes_the_pile():
    hand = {0: ["QS", "2H", "AS", "AH", "AD", "JK", "9H"]}  # one queen and a wild: not enough
    assert "take_pile" not in legal(table("sk", hands=hand, pile=["4C", "QD"]))


def test_c7_3_after_opening_natural_and_wild_or_side_meld():
    hand = {0: ["QS", "2H", "9H", "8H"]}
    games = table(hands=hand, pile=["4C", "QD"], opened=(0, 1))
    assert "take_pile" in legal(games)  # (b) natural + wild
    play(games, "take_pile")
    assert legal(games) == {"meld_Q", "meld_2_to_Q"}
    play(games, "meld_2_to_Q")
    assert legal(games) == {"meld_Q"}  # a second wild would exceed the naturals (C5.2)
    play(games, "meld_Q")
    s = games.state
    assert s.phase[0] == 2 and s.hand[0, 0].sum() == 3  # 9H 8H + the 4C from under the queen
    side_meld = table(
        hands={0: ["9H", "8H"]}, melds={0: [["QS", "QH", "QC"]]}, pile=["4C", "QD"], opened=(0, 1)
    )
    play(side_meld, "take_pile")  # (c): onto the side's meld at once
    assert side_meld.state.groups[0, 0, 9].sum() == 4


def test_c8_3_sk_a_wild_in_the_pile_freezes_it_c8_2_pl_only_on_top():
    hand = {0: ["QS", "2H", "9H", "8H", "7D"]}
    pile = ["4C", "2S", "QD"]
    assert "take_pile" not in legal(table("sk", hands=hand, pile=pile, opened=(0, 1)))
    assert "take_pile" in legal(table("pl", hands=hand, pile=pile, opened=(0, 1)))
    pair = {0: ["QS", "QH", "9H", "8H", "7D"]}
    assert "take_pile" in legal(table("sk", hands=pair, pile=pile, opened=(0, 1)))


def test_c11_opening_minimum_pl_examples():
    """C16.1: K K K + A A 2 = 90 opens under pl; K K K + 5 5 5 + 9 9 9 = 75 does not."""
    games = table(hands={0: ["KS", "KH", "KD", "AS", "AH", "2C", "7D", "8D"]}, phase="meld")
    play(games, "meld_K", "meld_K", "meld_K", "meld_A", "meld_A")
    assert not any(n.startswith("discard") for n in legal(games))  # A A: not a meld yet
    play(games, "meld_2_to_A")
    assert "discard_7" in legal(games)
    low = table(hands={0: ["KS", "KH", "KD", "5S", "5H", "5D", "9S", "9H", "9D", "7D", "8D"]}, phase="meld")
    play(low, "meld_K", "meld_K", "meld_K", "meld_5", "meld_5", "meld_5", "meld_9", "meld_9", "meld_9")
    assert not any(n.startswith("discard") for n in legal(low))
    assert "withdraw" in legal(low)


@pytest.mark.parametrize(("variant", "opened"), [("pl", [1, 1]), ("sk", [1, 0])])
def test_c11_1_pl_opening_opens_the_table_for_both_sides_sk_one_side(variant, opened):
    hands = {0: ["KS", "KH", "KD", "AS", "AH", "2C", "7D", "8D"], 1: ["5S"] * 5}
    games = table(variant, hands=hands, phase="meld")
    play(games, "meld_K", "meld_K", "meld_K", "meld_A", "meld_A", "meld_2_to_A", "discard_7")
    assert games.state.opened[0, :2].tolist() == opened


def test_c5_2_wild_limit_three_and_no_more_than_naturals():
    games = table(hands={0: ["2S", "2H", "2D", "JK", "9C", "9D"]}, melds={0: [["8S", "8H", "8D", "8C"]]},
                  opened=(0, 1), phase="meld")  # fmt: skip
    play(games, "meld_2_to_8", "meld_2_to_8", "meld_JK_to_8")
    assert "meld_2_to_8" not in legal(games) and "meld_JK_to_8" not in legal(games)


def test_c12_2_going_out_needs_the_sides_canasta_and_c4_3_the_holding_rule():
    games = table(
        hands={0: ["9C", "9D", "9H", "4S"]}, melds={0: [["8S", "8H", "8D"]]}, opened=(0, 1), phase="meld"
    )
    assert "meld_9" in legal(games)
    play(games, "meld_9", "meld_9")
    assert "meld_9" not in legal(games)  # it would leave one card, and the side has no canasta
    partner = table(hands={0: ["9C", "4S"], 2: ["7C"]}, melds={0: [KINGS]}, opened=(0, 1), phase="meld")
    assert "discard_9" in legal(partner)  # two cards: discard one; one card left to go out next turn


def test_c4_3_a_red_three_under_the_pickup_is_laid_out_not_held():
    """C7.1, C9.2: the pile's red threes go to the table, so they do not count among the
    cards the taker keeps (C4.3): laying K K and A A A from these six cards would leave him
    one card and no canasta, a turn with no legal end."""
    hand = {0: ["KS", "KH", "AS", "AH", "AD", "5S"]}
    assert "take_pile" in legal(table("pl", 2, hands=hand, pile=["4C", "KD"]))  # the 4C joins the hand
    assert "take_pile" not in legal(table("pl", 2, hands=hand, pile=["3H", "KD"]))
    games = table("pl", 2, hands={0: [*hand[0], "6S"]}, pile=["3H", "KD"])  # one card more
    play(games, "take_pile", "meld_K", "meld_K", "meld_A", "meld_A", "meld_A")
    assert legal(games) == {"discard_5", "discard_6"}
    assert games.state.red_threes[0, 0] == 1 and games.state.hand[0, 0].sum() == 2


def test_a_table_with_no_legal_action_raises_dead_end_error():
    """The engine stops a live game that offers no action instead of stepping on."""
    with pytest.raises(DeadEndError, match="game 0: player 0 has no legal action in phase 'meld'"):
        table("pl", 2, hands={0: ["5S"]}, melds={0: [["QS", "QH", "QD"]]}, opened=(0, 1), phase="meld")


def test_c12_1_pl_goes_out_by_melding_the_last_card_sk_must_discard():
    position = dict(
        hands={0: ["9C", "9D"]}, melds={0: [KINGS, ["9S", "9H", "9D"]]}, opened=(0, 1), phase="meld"
    )
    pl = table("pl", **position)
    play(pl, "meld_9")
    assert "meld_9" in legal(pl)  # the last card, as going out
    play(pl, "meld_9")
    assert pl.state.end_reason[0] == 1 and pl.state.out_how[0] == 2
    sk = table("sk", **position)
    play(sk, "meld_9")
    assert "meld_9" not in legal(sk) and "discard_9" in legal(sk)
    play(sk, "discard_9")
    assert sk.state.end_reason[0] == 1


def test_c12_5_pl_partner_question_binds_the_asker():
    position = dict(hands={0: ["9C", "4S"], 2: ["7C", "7D"]}, melds={0: [KINGS, ["9S", "9H", "9D"]]},
                    opened=(0, 1), phase="meld")  # fmt: skip
    games = table(**position)
    play(games, "meld_9")
    assert "ask" in legal(games)
    play(games, "ask")
    assert games.state.to_move[0] == 2 and legal(games) == {"yes", "no"}
    play(games, "no")
    assert games.state.to_move[0] == 0 and legal(games) == {"withdraw"}
    play(games, "withdraw")
    assert legal(games) == {"discard_9", "discard_4"}
    yes = table(**position)
    play(yes, "meld_9", "ask", "yes")
    assert "withdraw" not in legal(yes) and "discard_4" in legal(yes)
    sk = table("sk", **position)
    play(sk, "meld_9")
    assert "ask" not in legal(sk)


@pytest.mark.parametrize(
    ("variant", "hand", "ok"),
    [
        ("pl", ["3S", "3S", "3C", "4D"], True),
        ("pl", ["3S", "3S", "3C", "4D", "5D"], False),  # two other cards would stay
        ("pl", ["3S", "3C", "5C"], False),  # two threes only
        ("sk", ["3S", "3S", "3C", "4D"], False),
    ],
)
def test_c10_2_pl_black_three_meld_only_when_going_out(variant, hand, ok):
    games = table(variant, hands={0: hand}, melds={0: [KINGS]}, opened=(0, 1), phase="meld")
    assert ("meld_black_three" in legal(games)) is ok


@pytest.mark.parametrize(
    ("variant", "hand", "three", "after"),
    [
        ("pl", ["9C", "4S", "5S"], "3H", 3),  # not replaced
        ("sk", ["9C", "4S", "5S"], "3H", 4),  # replaced
        ("pl", ["9C"], "3D", 2),  # one card, no canasta: replaced [D]
    ],
)
def test_c4_2_drawn_red_three_pl_not_replaced_sk_replaced(variant, hand, three, after):
    games = table(variant, hands={0: hand}, stock=[three, "8C", "8D"])
    play(games, "draw")
    assert games.state.red_threes[0, 0] == 1 and games.state.hand[0, 0].sum() == after


def test_c4_5_empty_stock_take_the_pile_or_the_hand_ends():
    games = table(hands={0: ["9C", "4S", "5S"]}, stock=[], pile=["7C"])
    assert legal(games) == {"end_hand"}
    play(games, "end_hand")
    assert games.state.end_reason[0] == 2


def test_c2_partners_share_melds():
    games = table(hands={0: ["9C", "9D", "9H", "4S", "5S"], 2: ["9S", "6D"]}, opened=(0, 1), phase="meld")
    play(games, "meld_9", "meld_9", "meld_9", "discard_4")
    assert games.state.groups[0, 0, 6].sum() == 3  # side 0's nines (group of rank 9)


def test_c2_4_five_players_the_four_active_seats_alternate_sides_in_one_round():
    """sk 5p: the sitter has no turn; the other four play in a round that alternates the sides."""
    rules = Rules(variant="sk", num_players=5)
    games = GameBatch(rules, batch_size=20)
    games.reset(seed=3)
    s = games.state
    sides = rules.sides()
    for b in range(20):
        sitter, first = int(s.sitter[b]), int(s.starter[b])
        assert sitter >= 0 and s.next_seat[b, sitter] == -1
        round_, q = [first], int(s.next_seat[b, first])
        while q != first:
            round_.append(q)
            q = int(s.next_seat[b, q])
        assert sorted(round_) == sorted(set(range(5)) - {sitter})
        assert all(sides[round_[i]] != sides[round_[(i + 1) % 4]] for i in range(4))
    rng = np.random.default_rng(0)
    for _ in range(400):
        mask = games.legal_mask()
        games.step(np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask]))
    for b in np.flatnonzero(s.turn >= 8):
        active = [q for q in range(5) if s.next_seat[b, q] >= 0]
        played = s.turns_played[b, active]
        assert played.min() >= 2 and played.max() - played.min() <= 1


def test_a_state_with_no_legal_action_leaves_the_batch_as_it_was():
    """Writing ``GameBatch.state`` adopts it; a state whose player has no action is refused
    with DeadEndError and the batch keeps its games, masks and observations."""
    games = GameBatch(Rules(variant="pl", num_players=2), 2)
    games.reset(seed=4)
    mask, obs = games.legal_mask().copy(), games.observe().copy()
    bad = games.copy().state
    p = int(bad.to_move[1])
    bad.hand[1, p] = 0
    bad.hand[1, p, 20] = 1  # one card in the meld phase, no canasta, nothing laid this turn
    bad.phase[1] = 2
    with pytest.raises(DeadEndError, match="game 1: player"):
        games.state = bad
    np.testing.assert_array_equal(games.legal_mask(), mask)
    np.testing.assert_array_equal(games.observe(), obs)
    games.step(mask.argmax(axis=1))  # the kept games play on
    assert games.legal_mask().any(axis=1).all()
