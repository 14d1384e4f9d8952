"""The terminal game driven by scripted input: bad input and re-prompts,
moves by number and by name, saving and resuming a position, the scoring
breakdown (R16) and the game record."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator

import pytest

from agents import GreedyBot
from agents.human import play_human
from agents.records import replay
from kanaszta_env import Rules, position as positions


class Script(io.TextIOBase):
    """An input stream: the given lines, then ``tail`` forever (or EOF)."""

    def __init__(self, lines: list[str], tail: str | None = "1") -> None:
        self.lines: Iterator[str] = iter(lines)
        self.tail = tail
        self.read_lines = 0

    def readline(self, size: int = -1) -> str:
        self.read_lines += 1
        line = next(self.lines, None)
        if line is None:
            return "" if self.tail is None else self.tail + "\n"
        return line + "\n"


def test_bad_input_gets_a_message_and_a_new_prompt(tmp_path) -> None:
    """Unknown words, out-of-range numbers, unknown and illegal move names are
    refused with a message; help, hint and save work; quit stops."""
    out = io.StringIO()
    save = tmp_path / "pos.json"
    lines = ["", "foo", "999", "meld_ZZ", "discard_JK", "help", "hint", "save", f"save {save}", "quit"]
    script = Script(lines)
    game = play_human([GreedyBot()], Rules(), seed=3, input_stream=script, output=out)
    text = out.getvalue()
    assert not game.finished and game.scores is None
    for message in (
        "unknown move 'foo'",
        "no move number 999: choose 1 to 2",
        "unknown move 'meld_ZZ'",
        "discard_JK is not legal now",
        "commands:",
        "the heuristic bot would play",
        "usage: save FILE",
        f"position saved to {save}",
        "stopped",
    ):
        assert message in text
    prompts = sum(len(m) // 2 for m in re.findall(r"(?m)^(?:> )+", text))
    assert script.read_lines == len(lines) == prompts  # a new prompt for every line read
    assert positions.load(json.loads(save.read_text())).state.phase[0] == 0  # the cut


def test_moves_by_name_and_number_finish_the_hand() -> None:
    """Cut decisions by name, then the first listed move each time; the hand
    ends with the scoring breakdown, and the record replays to the same scores."""
    out = io.StringIO()
    game = play_human([GreedyBot()], Rules(), seed=8, input_stream=Script(["keep", "LEAVE", "2"]), output=out)
    text = out.getvalue()
    assert game.finished
    assert "scoring (R16):" in text and "result:" in text
    assert game.record.actions[:3] == ["keep", "leave", "leave"]
    final = replay(game.record)
    assert [int(x) for x in final.state.hand_scores[0]] == game.scores


def test_the_breakdown_adds_up_to_the_engine_scores() -> None:
    """The items of the printed R16 breakdown sum to the engine's hand scores
    (no tax at a total of 0, R17.1), for hands that end in different ways."""
    ends = set()
    for seed in (1, 2, 5, 6):
        out = io.StringIO()
        game = play_human([GreedyBot()], Rules(), seed=seed, input_stream=Script([]), output=out)
        assert game.finished
        assert game.raw_scores == game.scores
        ends.add(int(replay(game.record).state.end_reason[0]))
        assert "melded cards" in out.getvalue()
    assert ends  # at least one way of ending was exercised


def test_save_and_resume_continue_the_same_game(tmp_path) -> None:
    """A position saved mid-hand and resumed plays on exactly like the original."""
    save = tmp_path / "mid.json"
    first = Script(["1"] * 40 + [f"save {save}"])
    whole = play_human([GreedyBot()], Rules(), seed=12, input_stream=first, output=io.StringIO())
    assert whole.finished
    doc = json.loads(save.read_text())
    resumed = play_human([GreedyBot()], start=doc, input_stream=Script([]), output=io.StringIO())
    assert resumed.finished and resumed.scores == whole.scores
    assert resumed.record.start == doc
    assert replay(resumed.record).state.hand_scores[0].tolist() == whole.scores


def test_input_end_stops_cleanly() -> None:
    """End of input leaves the hand unfinished without an error."""
    out = io.StringIO()
    game = play_human([GreedyBot()], Rules(), seed=4, input_stream=Script(["1", "1"], tail=None), output=out)
    assert not game.finished and "input ended" in out.getvalue()
    assert game.record.actions == ["keep", "keep"]


def test_human_seat_and_player_count_are_checked() -> None:
    with pytest.raises(ValueError, match="opponents"):
        play_human([], Rules(), seed=1, input_stream=Script([]), output=io.StringIO())
    with pytest.raises(ValueError, match="seat"):
        play_human([GreedyBot()], Rules(), seat=2, seed=1, input_stream=Script([]), output=io.StringIO())


def test_other_hands_are_hidden() -> None:
    """The table lists the human's own cards but only the size (and publicly
    known cards) of the opponent's hand."""
    out = io.StringIO()
    play_human([GreedyBot()], Rules(), seed=9, input_stream=Script(["1"] * 8, tail=None), output=out)
    text = out.getvalue()
    own = re.findall(r"(?m)^ {3}[ *]you \(.*\) hand \((\d+)\): (.*?)(?: · known to all: .*)?$", text)
    assert own and all(int(n) == len(cards.split()) for n, cards in own if n != "0"), "own hand listed"
    assert int(own[-1][0]) >= 14
    theirs = re.findall(r"(?m)^ {3}[ *]greedy \(seat 1\) \(.*\) (hand.*)$", text)
    assert len(theirs) == len(own), "the opponent's seat at every table"
    assert all(re.fullmatch(r"hand: \d+ cards(, known: .*)?", t) for t in theirs), "only as a count"
