"""``kanaszta watch`` (bots playing a hand at a chosen speed) and ``kanaszta
replay`` (a recorded game played back), both told with the narration of the
terminal game; records written by ``watch --record`` and ``play --record``."""

from __future__ import annotations

import io
import json
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


def test_watch_tells_the_hand_records_it_and_replay_tells_the_same(capsys, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    argv = ["watch", "random", "greedy", "--speed", "0", "--seed", "3", "--record", str(record)]
    assert main(argv) == 0
    watched = capsys.readouterr().out
    lines = told(watched)
    assert len(lines) >= 10 and lines[-1].startswith("the hand is over: ")
    assert "scoring (R16):" in watched and "result: " in watched
    assert f"game record saved to {record}" in watched
    saved = GameRecord.load(record)
    assert saved.seed == 3 and saved.players == ["random (seat 0)", "greedy (seat 1)"] and saved.scores
    assert main(["replay", str(record), "--speed", "0"]) == 0
    replayed = capsys.readouterr().out
    assert told(replayed) == lines
    assert "differ from the record" not in replayed


def test_watch_pauses_speed_seconds_after_each_turn() -> None:
    rules = Rules()
    waits: list[float] = []
    out = io.StringIO()
    record = watch([RandomBot(seed=1), GreedyBot()], rules, 4, Show(out, speed=0.25, sleep=waits.append))
    turns = [line for line in told(out.getvalue()) if not line.startswith("the hand is over")]
    assert record.scores is not None
    assert waits and set(waits) == {0.25}
    assert len(turns) - 1 <= len(waits) <= len(turns)  # no wait after the last turn


def test_replay_steps_with_enter_shows_the_table_and_stops_on_q(tmp_path: Path) -> None:
    rules = Rules()
    record = watch([RandomBot(seed=2), GreedyBot()], rules, 7, Show(io.StringIO()))
    out = io.StringIO()
    finished = replay_record(record, Show(out, speed=None, table=True, input=io.StringIO("\n\nq\n")))
    text = out.getvalue()
    assert not finished and "stopped after action" in text
    assert text.count("[Enter: next turn · a: all · q: quit]") == 3
    assert text.count("\nhand 1 · turn ") == 4  # the table at the start and after each of three turns


def test_replay_all_runs_to_the_end(tmp_path: Path) -> None:
    record = watch([RandomBot(seed=2), GreedyBot()], Rules(), 7, Show(io.StringIO()))
    out = io.StringIO()
    assert replay_record(record, Show(out, speed=None, input=io.StringIO("a\n")))
    assert out.getvalue().count("[Enter") == 1 and "result: " in out.getvalue()


def test_replay_picks_a_game_of_a_json_lines_file(capsys, tmp_path: Path) -> None:
    records = [watch([RandomBot(seed=s), GreedyBot()], Rules(), s, Show(io.StringIO())) for s in (1, 2)]
    path = tmp_path / "games.jsonl"
    save_jsonl(records, path)
    first = main_output(capsys, ["replay", str(path), "--game", "1", "--speed", "0"]).splitlines()[0]
    assert first.startswith("replaying") and "from seed 2" in first


def main_output(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def test_play_record_can_be_replayed(capsys, tmp_path: Path, monkeypatch) -> None:
    record = tmp_path / "mine.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("keep\nkeep\nkeep\nquit\n"))
    assert main(["play", "--opponent", "greedy", "--seed", "2", "--record", str(record)]) == 0
    capsys.readouterr()
    assert GameRecord.load(record).actions == ["keep", "keep", "keep"]
    text = main_output(capsys, ["replay", str(record), "--speed", "0"])
    assert "kept cut card 3 of 3" in text
    assert "the record ends after 3 actions, before the end of the game" in text


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["watch", "random"], ["one agent per seat", "got 1"]),
        (["watch", "random", "greedy", "--speed", "-1"], ["--speed", "non-negative number"]),
        (["watch", "random", "greedy", "--speed", "fast"], ["--speed", "'fast'"]),
        (["watch", "random", "nosuchbot"], ["unknown agent", "'nosuchbot'"]),
        (["watch", "random", "greedy", "--record", "no/such/dir/g.json"], ["--record", "does not exist"]),
    ],
)
def test_watch_rejects_bad_arguments(capsys, argv: list[str], words: list[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("kanaszta watch: error: ") and len(err.splitlines()) == 1
    assert all(word in err for word in words), err


def test_replay_rejects_bad_records(capsys, tmp_path: Path) -> None:
    cases = {
        "missing.json": (None, "No such file"),
        "text.json": ("not json at all\nstill not\n", "neither JSON nor JSON lines"),
        "list.json": ("[1, 2]", "not a game record"),
        "other.json": (json.dumps({"format": "something/1"}), "not a game record of format"),
        "bad_action.json": (
            json.dumps({"format": "kanaszta-record/1", "rules": {}, "actions": ["keep", "fly"], "seed": 1}),
            "unknown action name 'fly'",
        ),
    }
    for name, (content, words) in cases.items():
        path = tmp_path / name
        if content is not None:
            path.write_text(content)
        assert main(["replay", str(path), "--speed", "0"]) == 2, name
        out, err = capsys.readouterr()
        assert err.startswith("kanaszta replay: error: ") and words in err, (name, err)
        assert "Traceback" not in out + err
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"format": "kanaszta-record/1", "rules": {}, "actions": [], "seed": 1}))
    assert main(["replay", str(good), "--game", "3"]) == 2
    assert "--game 3" in capsys.readouterr().err
