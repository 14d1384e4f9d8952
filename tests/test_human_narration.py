"""``kanaszta play`` can be followed (issue 18, item 4): each move says what it
changed, a refused move says why, near misses get "did you mean", a discard
that ends the hand is confirmed, the rules in force are shown, the other
players' turns are told in a line each from public information, and Ctrl-C
ends the game quietly. Every test drives the terminal game with scripted input
and reads its output."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from test_human import Script

from agents import GreedyBot
from agents.games.diszitett.narrate import snapshot
from agents.human import play_human
from agents.records import start_game
from kanaszta_env import Rules, action_from_name
from kanaszta_env.cli import main

POSITIONS = Path(__file__).resolve().parent.parent / "docs" / "positions"


def position(name: str) -> dict:
    return json.loads((POSITIONS / f"{name}.json").read_text())


def play(lines: list[str], tail: str | None = None, **kwargs) -> tuple[str, object]:
    """Play with GreedyBot opponents on scripted input; the output text and the result."""
    out = io.StringIO()
    kwargs.setdefault("opponents", [GreedyBot()])
    game = play_human(input_stream=Script(lines, tail=tail), output=out, **kwargs)
    return out.getvalue(), game


def test_rules_are_shown_at_the_start_and_on_request_and_the_cut_card_is_named() -> None:
    text, _ = play(["rules", "keep", "quit"], rules=Rules(opening_minimum=75), seed=3)
    rules_lines = [line for line in text.splitlines() if "rules: variant 2003-02" in line.lstrip("> ")]
    assert len(rules_lines) == 2, text  # at the start and after "rules"
    assert "opening minimum 75" in rules_lines[0] and "2 players" in rules_lines[0]
    first, second = re.findall(r"cut card (\d) of 3: (\S+) — keep it", text)[:2]
    assert (first[0], second[0]) == ("1", "2")
    assert f"you kept cut card 1 of 3 ({first[1]})" in text


def test_variant_2003_01_never_shows_separate_heart_aces() -> None:
    """A whole hand under 2003-01: the rules line names the variant and nothing
    on the screen speaks of separate heart aces (R10.6 does not apply)."""
    text, game = play([], tail="1", rules=Rules(variant="2003-01"), seed=5)
    assert game.finished
    assert "variant 2003-01 (heart aces are ordinary aces)" in text
    assert "separate heart ace" not in text
    with_aces, _ = play(["quit"], rules=Rules(variant="2003-02"), seed=5)
    assert "separate heart aces 0" in with_aces  # the 2003-02 table does show them


def test_a_frozen_pile_is_refused_with_the_reason_and_the_draw_names_the_card() -> None:
    doc = position("frozen-pile")
    text, _ = play(["take_pile", "draw", "quit"], start=doc, seat=0)
    assert "take_pile is not legal now: the discard pile is frozen: its top card 3C" in text
    assert "(R9)" in text
    assert f"you drew {doc['stock'][0]}\n" in text  # the stock's top card, told to its drawer only


def test_melds_show_the_groups_of_the_turn_and_the_opening_progress() -> None:
    """A player who has not opened builds groups: every meld is told, the
    turn's groups and "opening N / 50" are shown without asking for the table,
    and a discard below the minimum is refused with the figures (R12)."""
    lines = ["draw", "meld_7S", "meld_7H", "discard_QD", "meld_JK_to_7", "discard_QD", "withdraw", "quit"]
    text, _ = play(lines, start=position("pickup-decision"), seat=0)
    assert "you laid 7: 7S (new)" in text and "you laid 7: +7H" in text
    assert "this turn: 7: 7S 7H (new) · unfinished (R10.2): 7 2 cards · opening 10 / 50" in text
    assert "discard_QD is not legal now: your groups are not finished: 7 has 2 cards" in text
    assert "this turn: 7: 7S 7H JK (new) · opening 15 / 50" in text
    assert "discard_QD is not legal now: opening 15 / 50: the groups laid this turn do not reach" in text
    assert "you took back everything laid this turn (R12.5)" in text
    assert text.count("\nmoves: ") >= 7  # the legal moves follow every refusal


def test_a_pile_pickup_tells_what_came_in() -> None:
    doc = position("pickup-decision")
    lines = ["take_pile"] + ["1"] * 14
    text, _ = play(lines, start=doc, seat=1)
    assert "you took the discard pile of 9 cards with its top card 4D (penalised pickup" in text
    assert "penalised pickup of 4D: lay 4D with at least two cards of its rank or wilds" in text
    rest = re.search(r"the rest of the pile joined the hand \(8 cards: ([^,]+), R8\.3\)", text)
    assert rest, text
    assert sorted(rest.group(1).split()) == sorted(doc["discard"][:-1])


@pytest.mark.parametrize(
    ("typed", "suggestion"),
    [
        ("discard-9c", "did you mean discard_9C [8]?"),
        ("meld-7S", "did you mean meld_7S?"),  # a real name, but not legal in this phase
        ("9C", "did you mean discard_9C [8]?"),
        ("tabel", "did you mean table?"),
        ("discrad_9C", "did you mean discard_9C [8]?"),
    ],
)
def test_near_misses_get_a_did_you_mean(typed: str, suggestion: str) -> None:
    text, _ = play([typed, "quit"], start=position("start-of-hand"), seat=0)
    assert f"unknown move {typed!r}: {suggestion}" in text


def test_a_discard_that_goes_out_asks_for_confirmation() -> None:
    """The discard of the last card ends the hand (R14): "n" keeps the game
    going, "y" (or the move again) plays it; the scoring follows."""
    lines = ["discard_QC", "n", "discard_QC", "discard_QC"]
    text, game = play(lines, start=position("going-out"), seat=1)
    assert "discard_QC ends the hand: you went out (R14). Play it?" in text
    assert "discard_QC not played" in text
    assert game.finished and text.count("ends the hand") == 2
    assert "you discarded QC and went out (R14)" in text
    assert re.search(r"you: .*going out: 100", text)


def test_other_players_turns_are_one_public_line_each() -> None:
    """Over a whole hand, the opponent's turns are single lines that never name a
    card drawn from the stock (unless it was a known bottom card), and every one
    of the human's own moves is told at once."""
    text, game = play([], tail="1", seed=6)
    assert game.finished
    theirs = [line for line in text.splitlines() if line.startswith("greedy (seat 1): ")]
    assert len(theirs) >= 5
    for line in theirs:
        assert line.count("discarded ") <= 1, line
        for drew in re.findall(r"drew (\S+)", line):
            assert drew == "a" or "a known card from the bottom of the stock" in line, line
    games = start_game(game.record)
    own = 0
    for name in game.record.actions:
        own += int(snapshot(games.state).to_move[0]) == 0
        games.step(action_from_name(name))
    told = [
        line
        for line in text.splitlines()
        if re.match(r"(> )*you (kept|left|drew|took|laid|placed|lifted|discarded)", line)
    ]
    assert len(told) == own


def test_ctrl_c_ends_play_quietly(capsys, monkeypatch) -> None:
    class Interrupted(io.StringIO):
        def readline(self, size: int = -1) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr("sys.stdin", Interrupted())
    assert main(["play", "--opponent", "greedy", "--seed", "1"]) == 130
    out, err = capsys.readouterr()
    assert err.strip() == "kanaszta play: interrupted"
    assert "Traceback" not in out + err and out.endswith("> \n")
