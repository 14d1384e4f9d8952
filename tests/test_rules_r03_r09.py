"""Rules R3-R9 played out on position documents: the cut and deal, red threes,
the turn, twins, the free and the penalised pickup, and freezing.

Each test builds a small situation with :mod:`rules_helpers`, plays named
actions and checks the rule's effect through the public API only."""

from __future__ import annotations

import pytest
from rules_helpers import cards, discards, dump, legal, load, play, player, position, seat

VARIANTS = ("2003-02", "2003-01")
DRAW_FAMILY = {"draw", "take_free", "take_pile"}


def only_discards(names: set[str]) -> bool:
    return bool(names) and all(a.startswith("discard_") for a in names)


# --- R3 cut and deal ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("num_players", "starter", "decisions"),
    [
        (2, 0, ("keep", "leave", "keep")),
        (2, 1, ("leave", "leave", "leave")),
        (3, 2, ("keep", "keep", "keep")),
        (4, 1, ("leave", "keep", "leave")),
    ],
)
def test_r3_cut_keep_leave_and_deal(num_players: int, starter: int, decisions: tuple[str, ...]) -> None:
    """R3.1-R3.4: keep/leave decides each cut card in turn; the starter then holds
    15 cards and the others 14; kept cards are known, left ones lie at the bottom
    of the stock and are public; the starter's first turn is discard-only (R5.1)."""
    cut = ["KS", "9H", "4C"]
    doc = position([seat() for _ in range(num_players)], phase="cut", starter=starter, stock_top=cut)
    games = load(doc)
    for i, decision in enumerate(decisions):
        assert legal(games) == {"keep", "leave"}
        assert dump(games)["cut"]["kept"] == [d == "keep" for d in decisions[:i]]
        play(games, decision)
    after = dump(games)
    kept = [c for c, d in zip(cut, decisions, strict=True) if d == "keep"]
    left = [c for c, d in zip(cut, decisions, strict=True) if d == "leave"]
    sizes = [len(p["hand"]) for p in after["players"]]
    assert sizes == [15 if q == starter else 14 for q in range(num_players)]
    assert [p["known"] for p in after["players"]] == [
        cards(kept) if q == starter else [] for q in range(num_players)
    ]
    assert after["stock_known_bottom"] == len(left)
    assert cards(after["stock"][len(after["stock"]) - len(left) :]) == cards(left)
    assert len(after["stock"]) == 112 - 15 - 14 * (num_players - 1)
    assert after["phase"] == "discard" and after["to_move"] == starter
    assert only_discards(legal(games))


def test_r3_4_known_bottom_stock_card_stays_known_when_drawn() -> None:
    """R3.4: a left cut card at the bottom of the stock is public; whoever draws it
    holds a known card."""
    players = [seat(["5S", "9D"], red_threes=2), seat(["7C", "8H"], red_threes=2)]
    doc = position(players, stock_top=["KS", "9H"], stock_known_bottom=1, discard=["4C"], fill="discard")
    games = load(doc)
    play(games, "draw")
    assert player(games, 1)["known"] == []
    play(games, "discard_KS", "draw")
    assert player(games, 0)["known"] == ["9H"]
    assert dump(games)["stock_known_bottom"] == 0


# --- R4 red threes --------------------------------------------------------------------------
CUT = ["KS", "9H", "4C"]
DEAL_0 = ["3H", "5S", "5H", "6D", "7C", "8S", "9D", "10C", "JS", "QD", "KH", "AS", "4D", "6S", "7H"]
DEAL_1 = ["3D", "5D", "6H", "7D", "8H", "9C", "10S", "JH", "QC", "KD", "AC", "4S", "8C", "10H"]
AFTER_DEAL = ["3H", "QS", "QH", "JD"]


def test_r4_dealt_red_threes_are_laid_out_and_replaced_at_the_first_turn() -> None:
    """R4.1-R4.3: dealt red threes go to the collection at once; each player draws
    his replacements at the start of his first turn (a red three drawn as a
    replacement is laid out and replaced too); no red three ever sits in a hand."""
    doc = position([seat(), seat()], phase="cut", stock_top=CUT + DEAL_0 + DEAL_1 + AFTER_DEAL)
    games = load(doc)
    play(games, "leave", "leave", "leave")
    p0, p1 = player(games, 0), player(games, 1)
    assert (p0["red_threes"], p0["red_three_debt"]) == (2, 0)  # dealt 3H, then drew 3H, then QS
    assert p0["hand"] == cards([*DEAL_0[1:], "QS"])
    assert (p1["red_threes"], p1["red_three_debt"]) == (1, 1)  # replaced at his first turn
    assert p1["hand"] == cards(DEAL_1[1:])
    play(games, "discard_5S")
    p1 = player(games, 1)
    assert (p1["red_threes"], p1["red_three_debt"], len(p1["hand"])) == (1, 0, 14)
    assert "QH" in p1["hand"] and dump(games)["phase"] == "draw"
    play(games, "draw")
    assert "JD" in player(games, 1)["hand"]
    for p in dump(games)["players"]:
        assert "3H" not in p["hand"] and "3D" not in p["hand"]


def test_r4_1_a_kept_red_three_cut_card_is_laid_out_and_replaced() -> None:
    """R3.2, R4.1-R4.2: a red three kept from the cut goes to the collection like a
    dealt one, and the starter still holds 15 cards after his replacement."""
    games = load(position([seat(), seat()], phase="cut", stock_top=["3H", "9H", "4C"]))
    play(games, "keep", "keep", "leave")
    p0 = player(games, 0)
    assert (p0["red_threes"], p0["red_three_debt"], len(p0["hand"])) == (1, 0, 15)
    assert p0["known"] == ["9H"] and "3H" not in p0["hand"]
    assert dump(games)["stock"][-1] == "4C" and dump(games)["stock_known_bottom"] == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_r4_3_drawn_red_threes_are_laid_out_and_replaced_at_once(variant: str) -> None:
    """R4.3: drawing 3D then 3H lays both out and draws the next card in their place."""
    doc = position([seat(["5S", "9D"]), seat(["7C", "8H"])], stock_top=["3D", "3H", "9S"], variant=variant)
    games = load(doc)
    play(games, "draw")
    p1 = player(games, 1)
    assert p1["red_threes"] == 2 and p1["red_three_hearts"] == 1
    assert p1["hand"] == cards(["7C", "8H", "9S"])
    assert dump(games)["phase"] == "meld" and len(dump(games)["stock"]) == 112 - 4 - 3


# --- R5 the turn ----------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", [3, 4])
def test_r5_turn_order_and_draw_meld_discard(num_players: int) -> None:
    """R5.1-R5.3: the starter only discards in his first turn; then each seat in
    order draws (mandatory), may meld, and discards."""
    hands = [["5S", "9D", "JC"], ["7C", "8H", "QS"], ["4D", "6H", "10C"], ["AS", "KD", "QH"]]
    players = [seat(hands[q], free_pickup="waiting") for q in range(num_players)]
    games = load(position(players, phase="discard", starter=0, to_move=0))
    assert only_discards(legal(games))
    play(games, "discard_5S")
    assert len(player(games, 0)["hand"]) == 2  # no draw in the first turn
    for k in range(num_players + 1):
        q = (1 + k) % num_players
        state = dump(games)
        assert (state["to_move"], state["phase"]) == (q, "draw")
        assert legal(games) <= DRAW_FAMILY and "draw" in legal(games)
        before = len(state["stock"])
        play(games, "draw")
        assert len(dump(games)["stock"]) == before - 1 and dump(games)["phase"] == "meld"
        hand = player(games, q)["hand"]
        assert discards(games) == set(hand) and len(hand) == 4 - (q == 0)
        play(games, f"discard_{hand[0]}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_r5_4_empty_stock_is_refilled_from_the_shuffled_pile_at_once(variant: str) -> None:
    """R5.4: drawing the last stock card turns the whole discard pile into the new
    stock at once (shuffled), leaving the pile empty."""
    players = [seat(["5S", "9D"], red_threes=2), seat(["7C", "8H"], red_threes=2)]
    games = load(position(players, stock_top=["KS"], discard=["4C", "9H"], fill="discard", variant=variant))
    pile = dump(games)["discard"]
    play(games, "draw")
    state = dump(games)
    assert state["discard"] == [] and state["phase"] == "meld"
    assert cards(state["stock"]) == cards(pile) and len(pile) > 100
    assert state["stock"] not in (pile, pile[::-1])  # shuffled, not just turned over
    assert "KS" in player(games, 1)["hand"]


def test_r5_4_discard_onto_empty_pile_with_empty_stock_refills_at_once() -> None:
    """R5.4 (design): the refill also happens after a discard when the stock was
    already empty, so the next player can draw that card."""
    players = [seat(["5S", "9D"], red_threes=2), seat(["7C", "8H", "KS"], red_threes=2)]
    games = load(position(players, phase="meld", fill=0))
    play(games, "discard_8H")
    state = dump(games)
    assert (state["stock"], state["discard"], state["phase"], state["to_move"]) == (["8H"], [], "draw", 0)
    play(games, "draw")
    assert "8H" in player(games, 0)["hand"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_r5_4_draw_with_stock_and_pile_empty_ends_the_hand_as_exhausted(variant: str) -> None:
    """R5.4 [D], R16.6: a red three as the last card leaves nothing to draw in its
    place; the hand ends as exhausted and is scored without going-out bonus."""
    canasta = ["KS", "KS", "KH", "KH", "KD", "KD", "KC"]
    players = [seat([], red_threes=3), seat(["9C", "4D"], [canasta])]
    games = load(position(players, stock_top=["3H"], fill=0, variant=variant))
    result = play(games, "draw")
    state = dump(games)
    assert (state["phase"], state["end_reason"], state["out_player"]) == ("over", "exhausted", None)
    assert result.terminated[0] and not result.truncated[0]
    # red canasta 400 + one red three 100, card value 70 - 10 - 5; no going out
    assert state["players"][1]["hand_score"] == 555
    assert state["players"][1]["red_threes"] == 1


# --- R6 twins --------------------------------------------------------------------------------
TWINS = [("8D", "8D", 1), ("3S", "3S", 1), ("2H", "2H", 1)]  # rank and suit, black threes and 2s too
NO_TWINS = [("JK", "JK", 0), ("8D", "8H", 0), ("2S", "2C", 0), ("3S", "3C", 0)]  # jokers, another suit


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize(("top", "card", "twins"), TWINS + NO_TWINS)
def test_r6_twin_on_the_previous_seats_identical_discard(
    num_players: int, top: str, card: str, twins: int
) -> None:
    """R6.1-R6.2: the same card (rank and suit, black threes and 2s included) as
    the previous seat's discard is a twin; jokers never make twins."""
    mover = num_players - 1
    hands = [["5S", "9D", "JC"], ["6S", "10D", "JH"], ["7S", "4H", "KC"]]
    players = [seat(hands[q]) for q in range(num_players - 1)]
    players.append(seat([card, "7C", "QH"]))
    games = load(position(players, discard=["4C", top], stock_top=["5C"], to_move=mover))
    play(games, "draw", f"discard_{card}")
    assert player(games, mover)["twins"] == twins
    assert dump(games)["discard"][-2:] == [top, card]


def test_r6_3_no_twin_after_a_pickup_with_an_older_discard_on_top() -> None:
    """R6.3 with R2.2 (3 players): after seat 1 takes seat 0's discard, the new top
    card was discarded by seat 2; discarding its twin scores nothing."""
    players = [seat(["5S", "9D"]), seat(["9H", "7C", "QH"], free_pickup="now"), seat(["4S", "JD"])]
    games = load(position(players, discard=["4C", "9H", "KD"], discard_owners=[1, 2, 0], to_move=1))
    play(games, "take_free", "discard_9H")
    assert player(games, 1)["twins"] == 0
    assert player(games, 1)["free_pickup"] == "used"


def test_r6_4_a_going_out_discard_makes_a_twin() -> None:
    """R6.4: the discard that goes out can be a twin; it is scored (R16.1)."""
    canasta = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]
    mover = seat(["8D"], [canasta, ["5H", "5D", "5C"]])
    games = load(position([seat(["4S", "JD"]), mover], discard=["8D"], stock_top=["5S"]))
    result = play(games, "draw", "meld_5S", "discard_8D")
    state = dump(games)
    assert (state["phase"], state["end_reason"], state["out_player"]) == ("over", "out", 1)
    assert state["players"][1]["twins"] == 1
    # red canasta 400 + going out 100 + twin 100; card value 70 + 20
    assert state["players"][1]["hand_score"] == 690
    assert result.terminated[0]


# --- R7 free pickup -------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", [2, 3])
def test_r7_2_free_pickup_takes_only_the_top_card_without_obligation(num_players: int) -> None:
    """R7.2: in the opportunity turn the top card alone joins the hand, with no
    condition (no matching card needed) and no obligation to meld it."""
    hands = [["5S", "9D"], ["7C", "8H", "4S"], ["6D", "JC"]]
    players = [seat(hands[q]) for q in range(num_players)]
    players[1] = seat(hands[1], free_pickup="now")
    games = load(position(players, discard=["4C", "9S", "KD"], to_move=1))
    assert legal(games) == {"draw", "take_free"}
    play(games, "take_free")
    state = dump(games)
    assert state["discard"] == ["4C", "9S"] and state["phase"] == "meld"
    p1 = state["players"][1]
    assert p1["hand"] == cards(["7C", "8H", "4S", "KD"]) and p1["known"] == ["KD"]
    assert p1["free_pickup"] == "used"
    assert discards(games) == {"7C", "8H", "4S", "KD"}


def test_r7_5_no_penalised_pickup_in_the_opportunity_turn() -> None:
    """R7.5, R8: a pile that could be taken with penalty is not available in the
    opportunity turn, nor before it; once the opportunity is gone, it is."""
    hand = ["KS", "KH", "AS", "AD", "AC", "9C"]
    cases = (("now", {"draw", "take_free"}), ("gone", {"draw", "take_pile"}), ("waiting", {"draw"}))
    for state, expected in cases:
        games = load(position([seat(["5S", "9D"]), seat(hand, free_pickup=state)], discard=["4C", "KD"]))
        assert legal(games) == expected


@pytest.mark.parametrize("top", ["2C", "JK"])
def test_r7_4_a_wild_on_top_cannot_be_taken_free(top: str) -> None:
    """R7.4 [D] with R9, R7.3: a wild on top is frozen; drawing then loses the opportunity."""
    games = load(position([seat(["5S", "9D"]), seat(["7C", "8H"], free_pickup="now")], discard=["4C", top]))
    assert legal(games) == {"draw"}
    play(games, "draw", "discard_7C")
    assert player(games, 1)["free_pickup"] == "gone"


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_r7_1_opportunity_is_the_previous_seats_first_non_black_three_discard(num_players: int) -> None:
    """R7.1, R7.3, R7.6, R2.2: a seat's opportunity comes from the first discard of
    the seat before it that is not a black three, and lasts that one turn."""
    hands = [["3S", "3C", "5S", "9D"], ["7C", "8H", "QS"], ["4D", "6H", "10C"], ["AS", "KD", "QH"]]
    players = [seat(hands[q], free_pickup="waiting") for q in range(num_players)]
    games = load(position(players, phase="discard", starter=0, to_move=0))

    def states() -> list[str]:
        return [p["free_pickup"] for p in dump(games)["players"]]

    play(games, "discard_3S")  # a black three opens nobody's opportunity
    assert states() == ["waiting"] * num_players
    for q in range(1, num_players):  # each draws (forfeiting a "now") and discards
        play(games, "draw", f"discard_{hands[q][0]}")
        expected = ["waiting"] * 2 + ["gone"] * (q - 1) + ["waiting"] * (num_players - q - 1)
        expected[(q + 1) % num_players] = "now"
        assert states() == expected
    assert "take_free" in legal(games)  # R7.6: the starter's opportunity
    play(games, "take_free", "discard_3C")
    assert states() == ["used", "waiting"] + ["gone"] * (num_players - 2)
    play(games, "draw", "discard_8H")  # seat 1's card has not come yet
    for q in range(2, num_players):
        play(games, "draw", f"discard_{hands[q][1]}")
    assert states()[1] == "waiting"
    play(games, "draw", "discard_5S")  # seat 0's first non-black-three discard
    assert states() == ["used", "now"] + ["gone"] * (num_players - 2)
    assert legal(games) == {"draw", "take_free"}


# --- R8 penalised pickup --------------------------------------------------------------------
KINGS = ["KS", "KH", "KD"]
QUEENS = ["QS", "QH", "QD"]


@pytest.mark.parametrize(
    ("hand", "allowed"),
    [
        (["KC", "9H", "4D", "7S"], False),  # one king in hand: the group's kings do not count
        (["KC", "KH", "9H", "4D"], True),
        (["KC", "2S", "9H", "4D"], True),  # a natural and a wild
        (["JK", "2S", "9H", "4D"], True),
    ],
)
def test_r8_1_pickup_needs_two_hand_cards(hand: list[str], allowed: bool) -> None:
    """R8.1: the top card must be meldable with two cards from the hand; the
    player's melded group of that rank does not count towards the two."""
    mover = seat(hand, [KINGS])
    games = load(position([seat(["5S", "9D"]), mover], discard=["4C", "KD"]))
    assert ("take_pile" in legal(games)) is allowed


def test_r8_1_a_pickup_displacing_a_wild_needs_room_for_it() -> None:
    """R8.1 [D] with R13.3: 3+2 kings plus the top king and two hand kings is 6+2,
    legal only by moving a wild into another group; without one, no pickup."""
    kings = ["KS", "KH", "KC", "2C", "2D"]
    alone = load(
        position([seat(["5S", "9D"]), seat(["KS", "KH", "9C", "4D"], [kings])], discard=["4C", "KD"])
    )
    assert legal(alone) == {"draw"}
    mover = seat(["KS", "KH", "9C", "4D"], [kings, QUEENS])
    games = load(position([seat(["5S", "9D"]), mover], discard=["4C", "KD"]))
    play(games, "take_pile", "meld_KD", "meld_KS", "meld_KH")
    assert dump(games)["phase"] == "pickup" and legal(games) == {"lift_small_from_K"}
    play(games, "lift_small_from_K")
    assert legal(games) == {"place_on_Q"}
    play(games, "place_on_Q")
    p1 = player(games, 1)
    assert dump(games)["phase"] == "meld" and p1["hand"] == cards(["4C", "4D", "9C"])
    assert p1["groups"] == [cards([*QUEENS, "2D"]), cards(["KS", "KS", "KH", "KH", "KD", "KC", "2C"])]


@pytest.mark.parametrize(
    ("hand", "pile", "allowed"),
    [
        (["KS", "KH", "9C", "4D", "7S"], ["4C", "KD"], False),  # 30 < 50
        (["KS", "KH", "AS", "AD", "AC", "9C"], ["4C", "KD"], True),  # 30 + 60
        (["KS", "KH", "9C", "4D", "7S"], ["AS", "AD", "AC", "KD"], False),  # the pile's aces do not count
        (["KS", "AS", "AD", "AC", "AH", "9C"], ["4C", "KD"], False),  # top card needs two hand cards
        (["KS", "JK", "AS", "AD", "AC", "9C"], ["4C", "KD"], True),
    ],
)
@pytest.mark.parametrize("variant", VARIANTS)
def test_r8_2_unopened_player_needs_the_opening_from_hand_and_top_card(
    hand: list[str], pile: list[str], allowed: bool, variant: str
) -> None:
    """R8.2, R8.3: before opening, the opening meld must be makeable from the hand
    and the top card alone, the top card in a group with two hand cards."""
    games = load(position([seat(["5S", "9D"]), seat(hand)], discard=pile, variant=variant))
    assert ("take_pile" in legal(games)) is allowed


@pytest.mark.parametrize(("minimum", "allowed"), [(90, True), (120, False)])
def test_r8_2_the_best_opening_from_hand_counts(minimum: int, allowed: bool) -> None:
    """R8.2, R12.3: with a joker and three aces the best opening is AS AS AD JK + the
    5s + the 6s = 80 + 15 + 15."""
    hand = ["5S", "5S", "6H", "6H", "6D", "9C", "JK", "AS", "AS", "AD"]
    doc = position([seat(["4S", "9D"]), seat(hand)], discard=["KC", "5D"], opening_minimum=minimum)
    assert ("take_pile" in legal(load(doc))) is allowed


def test_r8_3_obligatory_meld_then_the_rest_of_the_pile_joins_the_hand() -> None:
    """R8.3-R8.4: take the top card, meld it with two hand cards (nothing else is
    possible meanwhile), then the rest of the pile joins the hand, known to all;
    the pickup size is remembered."""
    mover = seat(["KS", "KH", "9C", "QC"], [["QS", "QH", "QD"]])
    games = load(position([seat(["5S", "9D"]), mover], discard=["4C", "7D", "JS", "KD"]))
    play(games, "take_pile")
    state = dump(games)
    assert state["phase"] == "pickup" and state["discard"] == ["4C", "7D", "JS"]
    assert state["turn_state"]["pickup"]["size"] == 4
    assert legal(games) == {"meld_KS", "meld_KH", "meld_KD"}
    play(games, "meld_KD", "meld_KS")
    assert dump(games)["phase"] == "pickup" and legal(games) == {"meld_KH"}
    play(games, "meld_KH")
    state = dump(games)
    p1 = state["players"][1]
    assert state["phase"] == "meld" and state["discard"] == []
    assert p1["hand"] == cards(["9C", "QC", "4C", "7D", "JS"])
    assert p1["known"] == cards(["4C", "7D", "JS"])
    assert ["KS", "KH", "KD"] in p1["groups"]
    assert state["turn_state"]["pickup"]["size"] == 4
    assert "withdraw" not in legal(games)  # nothing laid since the obligatory meld


def test_r8_3_pickup_may_meld_the_whole_hand_when_the_pile_refills_it() -> None:
    """R8.1-R8.3 with R14.2: two hand kings and the top king are the whole hand; the
    rest of the pile joins it afterwards, so a card is left to discard."""
    mover = seat(["KS", "KH"], [["8S", "8H", "8D"]])
    games = load(position([seat(["5S", "9D"]), mover], discard=["5C", "9D", "KD"]))
    play(games, "take_pile", "meld_KD", "meld_KS", "meld_KH")
    assert player(games, 1)["hand"] == cards(["5C", "9D"]) and "discard_5C" in legal(games)
    alone = load(position([seat(["5S", "9D"]), mover], discard=["KD"]))
    assert "take_pile" not in legal(alone)  # nothing would be left to discard


def test_r8_3_the_obligatory_meld_cannot_be_withdrawn() -> None:
    """R12.5 [D]: withdraw returns to the moment after the obligatory meld."""
    mover = seat(["KS", "KH", "9C", "QC"], [["QS", "QH", "QD"]])
    games = load(position([seat(["5S", "9D"]), mover], discard=["4C", "7D", "JS", "KD"]))
    play(games, "take_pile", "meld_KD", "meld_KS", "meld_KH")
    after_pickup = player(games, 1)
    play(games, "meld_QC")
    assert ["QS", "QH", "QD", "QC"] in player(games, 1)["groups"]
    play(games, "withdraw")
    back = player(games, 1)
    assert (back["hand"], back["groups"]) == (after_pickup["hand"], after_pickup["groups"])
    assert ["KS", "KH", "KD"] in back["groups"] and dump(games)["phase"] == "discard"
    assert discards(games) == set(back["hand"])


def test_r8_2_unopened_pickup_completes_the_opening_first() -> None:
    """R8.2-R8.3: an unopened player's obligation is the whole opening (50): the
    kings alone (30) are not enough to take the rest of the pile."""
    hand = ["KS", "KH", "AS", "AD", "AC", "9C", "4D"]
    games = load(position([seat(["5S", "9D"]), seat(hand)], discard=["7C", "JD", "KD"]))
    play(games, "take_pile", "meld_KD", "meld_KS", "meld_KH")
    assert dump(games)["phase"] == "pickup" and len(dump(games)["discard"]) == 2
    assert "withdraw" not in legal(games) and not discards(games)
    play(games, "meld_AS", "meld_AD", "meld_AC")
    state = dump(games)
    assert state["phase"] == "meld" and state["discard"] == []
    assert state["players"][1]["hand"] == cards(["9C", "4D", "7C", "JD"])
    play(games, "discard_9C")
    assert player(games, 1)["opened"] is True


# --- R9 freezing ----------------------------------------------------------------------------
@pytest.mark.parametrize("top", ["3S", "3C", "2D", "JK"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_r9_black_three_or_wild_on_top_freezes_the_pile(top: str, variant: str) -> None:
    """R9: a black three or a wild on top blocks both pickups."""
    hand = ["KS", "KH", "2C", "9C"]
    for free in ("now", "gone"):
        mover = seat(hand, [["QS", "QH", "QD"]], free_pickup=free)
        games = load(position([seat(["5S", "9D"]), mover], discard=["KD", top], variant=variant))
        assert legal(games) == {"draw"}
    unfrozen = load(position([seat(["5S", "9D"]), seat(hand, [["QS", "QH", "QD"]])], discard=[top, "KD"]))
    assert legal(unfrozen) == {"draw", "take_pile"}  # only the top card freezes
