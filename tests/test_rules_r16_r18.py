"""Rules R11 and R16-R18 (and R2.3, R19) played out on position documents: the engine's
scoring at the end of a hand, tax, and the end of a game.

The pure scoring helpers are tested in tests/test_scoring.py; here the hand
ends inside the engine (going out, exhaustion, the turn limit) and the recorded
scores, totals and rewards are checked."""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import cards, dump, legal, load, play, player, position, seat

from kanaszta_env import GameBatch, Rules

VARIANTS = ("2003-02", "2003-01")
RED_QUEENS = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]
RED_FIVES = ["5S", "5S", "5H", "5H", "5D", "5D", "5C"]


def hand_scores(games: GameBatch) -> list[int]:
    return [p["hand_score"] for p in dump(games)["players"]]


def zero_sum_rewards(scores: list[int]) -> list[float]:
    """Design: each player's score minus the mean of the others'."""
    n = len(scores)
    return [s - (sum(scores) - s) / (n - 1) for s in scores]


# --- R11 canasta kinds at the end of a hand ---------------------------------------------------
@pytest.mark.parametrize(
    ("canasta", "score"),
    [
        (["JK", "JK", "JK", "2S", "2H", "2D", "2C"], 200 + 100 + 230),  # black wild
        (["KS", "KH", "KD", "KC", "KS", "2H", "JK"], 300 + 100 + 120),  # black
        (RED_QUEENS, 400 + 100 + 70),  # red
        (["JK"] * 7, 500 + 100 + 350),  # red wild, big
        (["2S", "2S", "2H", "2H", "2D", "2D", "2C"], 500 + 100 + 140),  # red wild, small
        (["AS", "AS", "AH", "AH", "AD", "AD", "AC", "AC"], 600 + 100 + 160),  # gold
    ],
)
@pytest.mark.parametrize("variant", VARIANTS)
def test_r11_canasta_kinds_are_scored_at_the_end_of_the_hand(
    canasta: list[str], score: int, variant: str
) -> None:
    """R11, R16.1, R16.4: going out with one canasta of each kind."""
    games = load(position([seat(["7C", "10D"]), seat(["9C"], [canasta])], phase="meld", variant=variant))
    result = play(games, "discard_9C")
    state = dump(games)
    assert (state["phase"], state["end_reason"], state["out_player"]) == ("over", "out", 1)
    assert hand_scores(games) == [-15, score]
    assert result.rewards[0].tolist() == [-15 - score, score + 15]


# --- R16 scoring a hand ------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_r16_5_first_and_second_worked_examples(variant: str) -> None:
    """R16.5: going out from hand with a black wild canasta, four red threes and
    three twins has base 1500 (card value 200 on top); a red canasta of eights,
    three aces and two jacks in hand have card value 110 (plus the canasta's 400)."""
    wilds = ["JK", "JK", "2S", "2S", "2H", "2D", "2C"]
    eights = ["8S", "8S", "8H", "8H", "8D", "8D", "8C"]
    other = seat(["JS", "JD"], [eights, ["AS", "AD", "AC"]])
    mover = seat([*wilds, "9H"], red_threes=4, twins=3)
    games = load(position([other, mover], phase="meld", variant=variant))
    result = play(games, *(f"meld_{w}_to_wild" for w in wilds), "discard_9H")
    assert dump(games)["end_reason"] == "out"
    assert hand_scores(games) == [400 + 110, 1500 + 200]
    assert result.rewards[0].tolist() == zero_sum_rewards([510, 1700])


def test_r16_5_third_worked_example_with_three_players() -> None:
    """R16.5: a black canasta of four jacks and three 2s, a red canasta of fives,
    one red three, one twin and an ace in hand score 900 + 115 = 1015."""
    jacks = ["JS", "JH", "JD", "JC", "2S", "2H", "2D"]
    example = seat(["AS"], [jacks, RED_FIVES], red_threes=1, twins=1)
    games = load(position([example, seat(["KC"], [RED_QUEENS]), seat(["7C", "10D"])], phase="meld"))
    result = play(games, "discard_KC")
    scores = hand_scores(games)
    assert scores == [1015, 400 + 100 + 70, -15]
    assert np.allclose(result.rewards[0], zero_sum_rewards(scores))


@pytest.mark.parametrize(("opened", "score"), [(True, 400 + 100 + 100), (False, 400 + 200 + 100)])
def test_r16_2_going_out_from_hand_earns_another_100(opened: bool, score: int) -> None:
    """R16.1-R16.2: going out 100; going out in the opening turn, everything laid
    from hand, another 100."""
    kings = ["KS", "KH", "KD"]
    mover = seat([*RED_QUEENS, "9C"], [kings]) if opened else seat([*RED_QUEENS, *kings, "9C"])
    games = load(position([seat(["7C", "10D"]), mover], phase="meld"))
    play(games, *(f"meld_{c}" for c in player(games, 1)["hand"] if c != "9C"), "discard_9C")
    assert player(games, 1)["groups"] == [cards(RED_QUEENS), kings]
    assert hand_scores(games) == [-15, score]


@pytest.mark.parametrize(
    ("pile", "opened", "score"),
    [
        (["KS", "KH", "KC", "KC", "KD", "QS", "QH", "QD", "QC", "KD"], False, 600 + 300 + 180),
        (["KS", "KH", "KC", "KC", "KD", "QS", "QH", "QD", "KD"], False, 600 + 200 + 170),  # 9 cards
        (["KS", "KH", "KC", "KC", "KD", "QS", "QH", "QD", "QC", "KD"], True, 600 + 100 + 195),
    ],
)
def test_r16_3_table_clearing_after_a_pickup_of_ten(pile: list[str], opened: bool, score: int) -> None:
    """R16.3, R8.4: going out from hand in the turn of a penalised pickup of at
    least 10 cards (top included) adds 100 more: 300 in all."""
    hand = ["KS", "KH", "AS", "AD", "AC", "9C"]
    mover = seat(hand, [["5S", "5H", "5D"]]) if opened else seat(hand)
    games = load(position([seat(["7C", "10D"]), mover], discard=pile))
    play(games, "take_pile", "meld_KD", "meld_KS", "meld_KH")
    assert dump(games)["turn_state"]["pickup"]["size"] == len(pile)
    if not opened:
        assert dump(games)["phase"] == "pickup"  # the opening needs the aces too
    play(games, "meld_AS", "meld_AD", "meld_AC")
    rest = [c for c in player(games, 1)["hand"] if c != "9C"]
    play(games, *(f"meld_{c}" for c in rest), "discard_9C")
    state = dump(games)
    assert state["end_reason"] == "out" and len(state["players"][1]["groups"][-1]) == 8
    assert hand_scores(games) == [-15, score]


@pytest.mark.parametrize(
    ("heart_aces", "left", "other"), [(2, ["3S", "9D"], -110), (1, ["3S", "3C", "9D"], -210)]
)
def test_r16_4_heart_aces_and_black_threes(heart_aces: int, left: list[str], other: int) -> None:
    """R16.1, R16.4, R1.6: a separate heart ace scores 500 with no card value; a
    black three left in hand costs 100."""
    mover = seat(["KC"], [RED_QUEENS], heart_aces=heart_aces)
    games = load(position([seat(left), mover], phase="meld"))
    play(games, "discard_KC")
    assert hand_scores(games) == [other, 400 + 100 + 500 * heart_aces + 70]


@pytest.mark.parametrize("episode", ["hand", "game"])
def test_r16_6_turn_limit_scores_without_going_out_bonus(episode: str) -> None:
    """R19.2, R16.6: a hand cut by the turn limit is scored with base and card
    value only; it truncates a hand episode, and a game goes on with a new hand."""
    mover = seat(["KC", "9C", "4D"], [RED_QUEENS], red_threes=2, twins=1)
    players = [seat(["7C", "10D"], red_threes=1), mover]
    games = load(position(players, phase="meld", max_turns=2, episode=episode))
    result = play(games, "discard_KC")
    state = dump(games)
    assert hand_scores(games) == [100 - 15, 400 + 200 + 100 + 70 - 15]
    assert not result.terminated[0] and bool(result.truncated[0]) is (episode == "hand")
    if episode == "hand":
        assert (state["phase"], state["end_reason"], state["out_player"]) == ("over", "truncated", None)
    else:
        assert (state["phase"], state["hand_number"], state["starter"]) == ("cut", 1, 1)
        assert [p["total"] for p in state["players"]] == [85, 755]


# --- R17 tax ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("total", "recorded"),
    [(0, 535), (4999, 535), (5000, 270), (6999, 270), (7000, 135), (8999, 135), (9000, 50)],
)
def test_r17_tax_on_the_recorded_hand_score(total: int, recorded: int) -> None:
    """R17.1-R17.4: 535 (red canasta of fives, going out) is recorded whole below
    5000, halved (540 / 2) from 5000, quartered (270 / 2) from 7000, a tenth
    (53 -> 50) from 9000; the opponent's negative score is never taxed (R17.5)."""
    mover = seat(["KC"], [RED_FIVES], total=total)
    games = load(position([seat(["7C", "10D"], total=total), mover], phase="meld"))
    result = play(games, "discard_KC")
    assert hand_scores(games) == [-15, recorded]
    assert [p["total"] for p in dump(games)["players"]] == [total - 15, total + recorded]
    assert result.rewards[0].tolist() == [-15 - recorded, recorded + 15]


def test_r17_4_worked_example_9725_plus_2375() -> None:
    """R17.4: with T = 9725 a hand of 2375 is recorded as 240, making 9965."""
    mover = seat(["9C"], [["JK"] * 7, ["5S", "5S", "5H", "5D", "5C"]], red_threes=4, twins=6, total=9725)
    games = load(position([seat(["7C", "10D"]), mover], phase="meld"))
    play(games, "discard_9C")
    assert player(games, 1)["hand_score"] == 240 and player(games, 1)["total"] == 9965


# --- R18 winning, R2.3 starter rotation, R19.1 episodes --------------------------------------------
def going_out(num_players: int, totals: list[int], starter: int = 0, **extra: object) -> GameBatch:
    """Seat ``starter + 1`` about to go out with 535 raw (a red canasta of fives)."""
    mover = (starter + 1) % num_players
    hands = [["7C", "10D"], ["6H", "8S"], ["4S", "JD"], ["9H", "QD"]]
    players = [seat(hands[q], total=totals[q]) for q in range(num_players)]
    players[mover] = seat(["KC"], [RED_FIVES], total=totals[mover])
    return load(position(players, phase="meld", starter=starter, to_move=mover, **extra))


@pytest.mark.parametrize(
    ("extra", "truncated"), [({}, False), ({"episode": "game", "max_hands": 3, "hand_number": 2}, True)]
)
def test_r19_1_hand_episode_ends_after_one_hand_a_game_after_max_hands(extra: dict, truncated: bool) -> None:
    """R19.1: episode 'hand' stops after the hand, whatever the totals; a game that
    reaches its hand limit below the target is truncated."""
    games = going_out(2, [0, 0], **extra)
    result = play(games, "discard_KC")
    assert (bool(result.terminated[0]), bool(result.truncated[0])) == (not truncated, truncated)
    assert dump(games)["phase"] == "over" and legal(games) == set()


@pytest.mark.parametrize(("num_players", "starter"), [(2, 0), (3, 2), (4, 1)])
def test_r18_game_goes_on_below_the_target_and_the_starter_rotates(num_players: int, starter: int) -> None:
    """R18.2, R2.3: below the target a new hand starts with the cut, the next seat
    starting; totals are kept."""
    games = going_out(num_players, [1000] * num_players, starter, episode="game")
    result = play(games, "discard_KC")
    state = dump(games)
    assert not (result.terminated[0] or result.truncated[0])
    assert (state["phase"], state["starter"], state["to_move"]) == (
        "cut",
        (starter + 1) % num_players,
        state["starter"],
    )
    assert state["hand_number"] == 1 and legal(games) == {"keep", "leave"}
    mover = (starter + 1) % num_players
    assert state["players"][mover]["total"] == 1535 and all(not p["hand"] for p in state["players"])


@pytest.mark.parametrize(
    ("totals", "target", "ends"),
    [
        ([0, 9500], 10_000, False),  # 9500 + 50 (taxed) = 9550
        ([0, 9500], 9550, True),  # the target is configurable and reached "at least"
        ([10_020, 0], 10_000, True),  # any player's total counts, not only the one who went out
    ],
)
def test_r18_game_ends_when_a_total_reaches_the_target(totals: list[int], target: int, ends: bool) -> None:
    """R18.2-R18.3: checked at the end of a hand, the game ends once any total is
    at least the target."""
    games = going_out(2, totals, episode="game", target_score=target)
    result = play(games, "discard_KC")
    state = dump(games)
    assert bool(result.terminated[0]) is ends and not result.truncated[0]
    assert state["phase"] == ("over" if ends else "cut")
    assert [p["total"] for p in state["players"]] == [totals[0] - 15, totals[1] + (50 if totals[1] else 535)]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_r2_3_first_hand_starts_with_seat_0(num_players: int) -> None:
    """R2.3: without a random starter the first hand's starter is seat 0."""
    games = GameBatch(Rules(num_players=num_players, episode="game"), batch_size=1)
    games.reset(seed=5)
    state = dump(games)
    assert (state["starter"], state["to_move"], state["phase"]) == (0, 0, "cut")
