"""``kanaszta watch`` (bots playing a hand at a chosen speed) and ``kanaszta
replay`` (a recorded game played back), both told with the narration of the
terminal game; records written by ``watch --record`` and ``play --record``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from agents import GreedyBot, RandomBot
from agents.records import GameRecord, save_jsonl
from agents.watch import Show, replay_record, watch
from kanaszta_env import Rules
from kanaszta_env.cli import main

NARRATION = ("random (seat 0): ", "greedy (seat 1): ", "the hand is over: ")


def told(text: str) -> list[str]:
    """The narration lines of a watched or replayed game."""
    return [line.split("] ")[-1] for line in text.splitlines() if line.split("] ")[-1].startswith(NARRATION)]


def test_watch_pauses_speed_seconds_after_each_turn() -> None:
    waits: list[float] = []
    out = io.StringIO()
    record = watch([RandomBot(seed=1), GreedyBot()], Rules(), 4, Show(out, speed=0.25, sleep=waits.append))
    turns = [line for line in told(out.getvalue()) if not line.startswith("the hand is over")]
    assert record.scores is not None
    assert waits and set(waits) == {0.25}
    assert len(turns) - 1 <= len(waits) <= len(turns)  # no wait after the last turn


@pytest.mark.parametrize(("typed", "prompts"), [("\n\nq\n", 3), ("a\n", 1)])
def test_replay_by_enter_shows_the_table_stops_on_q_and_plays_the_rest_on_a(typed: str, prompts: int) -> None:
    record = watch([RandomBot(seed=2), GreedyBot()], Rules(), 7, Show(io.StringIO()))
    out = io.StringIO()
    finished = replay_record(record, Show(out, speed=None, table=True, input=io.StringIO(typed)))
    text = out.getvalue()
    assert text.count("[Enter: next turn · a: all · q: quit]") == prompts
    assert finished == (typed == "a\n") == ("result: " in text) != ("stopped after action" in text)
    if not finished:  # the table at the start and after each of the three turns
        assert text.count("\nhand 1 · turn ") == 4


def test_replay_picks_a_game_of_a_json_lines_file(capsys, tmp_path: Path) -> None:
    records = [watch([RandomBot(seed=s), GreedyBot()], Rules(), s, Show(io.StringIO())) for s in (1, 2)]
    path = tmp_path / "games.jsonl"
    save_jsonl(records, path)
    assert main(["replay", str(path), "--game", "1", "--speed", "0"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("replaying") and "from seed 2" in first


def test_play_record_can_be_replayed(capsys, tmp_path: Path, monkeypatch) -> None:
    record = tmp_path / "mine.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("keep\nkeep\nkeep\nquit\n"))
    assert main(["play", "--opponent", "greedy", "--seed", "2", "--record", str(record)]) == 0
    capsys.readouterr()
    assert GameRecord.load(record).actions == ["keep", "keep", "keep"]
    assert main(["replay", str(record), "--speed", "0"]) == 0
    text = capsys.readouterr().out
    assert "kept cut card 3 of 3" in text
    assert "the record ends after 3 actions, before the end of the game" in text
