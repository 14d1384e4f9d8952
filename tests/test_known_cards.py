"""Publicly known hand cards.

The known count of a card type must be derived from public events only: a
card that leaves the hand may have been one the others knew of, so the known
count falls by one whatever the hidden rest of the hand holds."""

from __future__ import annotations

from rules_helpers import load, play, player, position, seat


def _meld_position(hand: list[str]) -> dict:
    """Seat 1 in the meld phase holding ``hand`` with one KS known to all."""
    doc = position(
        [seat(["4S", "5S", "6S", "7S", "8S"], free_pickup="gone"), seat(hand, free_pickup="gone")],
        phase="meld",
        to_move=1,
        turn=1,
    )
    doc["players"][1]["turns_played"] = 0
    doc["players"][0]["turns_played"] = 1
    doc["players"][1]["known"] = ["KS"]
    return doc


def test_known_count_does_not_reveal_the_hidden_hand_when_a_card_is_melded() -> None:
    # With one KS or with two, melding a KS leaves the others unsure of the second.
    for hand in (["KS", "KS", "9D", "9C", "QH"], ["KS", "KD", "9D", "9C", "QH"]):
        games = load(_meld_position(hand))
        play(games, "meld_KS")
        assert player(games, 1)["known"] == []


def test_withdrawn_cards_become_known() -> None:
    """R12.5: cards seen going down and back are in the hand; the count is the
    larger of what was known and what came back."""
    games = load(_meld_position(["KS", "KS", "KD", "9C", "QH"]))
    play(games, "meld_KS", "meld_KD", "withdraw")
    assert sorted(player(games, 1)["known"]) == ["KD", "KS"]
    games = load(_meld_position(["KS", "KS", "KD", "9C", "QH"]))
    play(games, "meld_KS", "meld_KS", "meld_KD", "withdraw")
    assert sorted(player(games, 1)["known"]) == ["KD", "KS", "KS"]
