"""Every table on every user surface: a matrix of tables × surfaces.

The tables are every preset of every registered game with each of its player counts
(:data:`TABLES`, read from :mod:`kanaszta_env.games`), so a new game or preset is covered
without an edit here. The surfaces are the jobs a user runs, called in-process through
the ``kanaszta`` entry point (:func:`kanaszta_env.cli.main`) or the web app's JSON API:

* ``play``: a scripted person asks for the rules and a hint, moves by name and by
  number, looks at the table, saves the position and quits (``--record`` keeps his moves);
* ``position`` of that saved file; ``play --resume`` of it, played to the end of the hand;
* ``watch`` of bots with ``--record``; ``replay`` of that record, at once and by Enter;
* ``tournament`` of two bots on one duplicate deal with ``--records``;
* ``eval`` of an exported policy file of the table (random weights: ``eval`` loads and
  plays it, whatever it learnt);
* the web app: a play game from the last seat to the end of the hand, a watched game of
  bots stepped on, back and to its end, and the ``watch`` record replayed from a seat, with
  every hand open, to its end and one step back.

Games are one hand cut short after :data:`MAX_TURNS` turns (``eval`` has no such flag).
Cells tested elsewhere: ``kanaszta train``, ``eval`` and ``export`` in tests/test_training.py
(2003-02, pl 4 players, tr); ``train --backend rllib`` in tests/test_rllib.py (2003-02, pl, tr);
``kanaszta serve`` in a browser in tests/test_serve_browser.py.
"""

from __future__ import annotations

import importlib.util
import io
import json
import random
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.numpy_policy import NumpyPolicy
from agents.records import GameRecord, load_jsonl, record_actions, replay, start_game
from agents.registry import bot_names, terminal_words
from agents.tournament import seatings
from kanaszta_env import GameBatch, Rules, position
from kanaszta_env.cli import main
from kanaszta_env.games import game_of_preset, preset_names
from kanaszta_env.observation import observation_size

#: (preset, players) of every registered preset and player count
TABLES = [(p, n) for p in preset_names() for n in game_of_preset(p).player_counts(p)]
MAX_TURNS = 20
SEED = 5


@dataclass
class Run:
    """What a command did: its exit status and what it printed."""

    code: int
    out: str
    err: str


class Person(io.TextIOBase):
    """A person at the terminal: answers each prompt with the next step of ``plan``
    (a line, or a function of what the game has printed so far), then ``tail`` forever."""

    def __init__(self, plan: list[str | Callable[[str], str]], tail: str) -> None:
        self.plan, self.tail = list(plan), tail
        self.out = io.StringIO()  # the game's output, read back to answer

    def readline(self, size: int = -1) -> str:
        step = self.plan.pop(0) if self.plan else self.tail
        return (step(self.out.getvalue()) if callable(step) else step) + "\n"


def run(argv: list[str], person: Person | None = None) -> Run:
    """``kanaszta argv`` in this process; ``person`` types on its standard input."""
    out, err = (person.out if person else io.StringIO()), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), _stdin(person or io.StringIO()):
        code = main(argv)
    return Run(code, out.getvalue(), err.getvalue())


@contextmanager
def _stdin(stream: io.TextIOBase) -> Iterator[None]:
    saved, sys.stdin = sys.stdin, stream  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdin = saved


def listed(text: str) -> list[str]:
    """The move names of the last ``moves: [1] a [2] b`` line printed."""
    return re.findall(r"\[\d+\] (\S+)", re.findall(r"(?m)^(?:> )*moves: .*$", text)[-1])


def movers_moves(record: GameRecord, seat: int) -> list[str]:
    """The actions of ``record`` that ``seat`` chose."""
    games, mine = start_game(record), []
    for _, a in record_actions(record, games):
        if int(games.to_move[0]) == seat:
            mine.append(games.action_names[a])
        games.step(np.array([a]))
    return mine


def names_table(text: str, preset: str, players: int) -> bool:
    """Whether the rules line printed names the preset and the number of players."""
    return preset in text and f"{players} players" in text


def tid(table: tuple[str, int]) -> str:
    """The table's test id, ``pl-4p``."""
    return f"{table[0]}-{table[1]}p"


def table_flags(table: tuple[str, int]) -> list[str]:
    """The CLI flags of the table's preset and the short hand."""
    return ["--variant", table[0], "--max-turns", str(MAX_TURNS)]


# --- fixtures: the runs each table's cells read -----------------------------------------------
@pytest.fixture(scope="module", params=TABLES, ids=[tid(t) for t in TABLES])
def table(request: pytest.FixtureRequest) -> tuple[str, int]:
    """One (preset, players) of :data:`TABLES`; every run below is shared by its cells."""
    return request.param


@pytest.fixture(scope="module")
def folder(table: tuple[str, int], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The table's folder of saved positions and records."""
    return tmp_path_factory.mktemp(tid(table))


@dataclass
class Played:
    """A ``play`` run, its saved position and record, and what the person noted."""

    run: Run
    saved: Path
    record: Path
    notes: dict[str, Any]


@pytest.fixture(scope="module")
def played(table: tuple[str, int], folder: Path) -> Played:
    """``kanaszta play``: rules, a hint, the hinted move by name, move 1 by number, the
    table, save, quit."""
    saved, record = folder / "saved.json", folder / "play.json"
    notes: dict[str, Any] = {}

    def hinted(text: str) -> str:
        notes["moves"] = [re.findall(r"the heuristic bot would play (\S+)", text)[-1]]
        return notes["moves"][0]

    def first(text: str) -> str:
        notes["moves"].append(listed(text)[0])
        return "1"

    def mark(text: str) -> str:
        notes["from"] = len(text)
        return "table"

    def save(text: str) -> str:
        notes["table"] = text[notes["from"] :].removesuffix("> ").strip("\n")
        notes["legal"] = listed(text)
        return f"save {saved}"

    person = Person(["rules", "hint", hinted, first, mark, save], tail="quit")
    argv = ["play", *table_flags(table), "--players", str(table[1]), "--seed", str(SEED)]
    done = run([*argv, "--record", str(record)], person)
    return Played(done, saved, record, notes)


@pytest.fixture(scope="module")
def watched(table: tuple[str, int], folder: Path) -> tuple[Run, Path]:
    """``kanaszta watch`` of random bots, recorded."""
    record = folder / "watch.json"
    agents = ["random"] * table[1]
    argv = ["watch", *agents, *table_flags(table), "--speed", "0", "--seed", str(SEED)]
    return run([*argv, "--record", str(record)]), record


@pytest.fixture(scope="module")
def client() -> Any:
    """A test client of the web app (``kanaszta serve``)."""
    pytest.importorskip("starlette", reason="the web app needs the web extra")
    with warnings.catch_warnings():  # Starlette prefers httpx2 for its test client; httpx works
        warnings.filterwarnings("ignore", message="Using `httpx`")
        from starlette.testclient import TestClient
    from webapp.app import create_app

    return TestClient(create_app())


def post(client: Any, path: str, doc: dict[str, Any]) -> dict[str, Any]:
    """The JSON answer of a POST that must succeed."""
    answer = client.post(path, json=doc)
    assert answer.status_code == 200, answer.text
    return answer.json()


# --- the terminal -----------------------------------------------------------------------------
def test_play(table: tuple[str, int], played: Played) -> None:
    out, notes = played.run.out, played.notes
    assert played.run.code == 0, played.run.err
    assert names_table(out.split("\n", 1)[0], *table)
    assert names_table(out.split("> ", 2)[1], *table), "the 'rules' command"
    assert f"position saved to {played.saved}" in out and "stopped; the hand is not finished" in out
    assert "you" in notes["table"], "the 'table' command: the table from the person's seat"
    record = GameRecord.load(played.record)
    assert (record.rules["variant"], len(record.players)) == table
    assert movers_moves(record, 0) == notes["moves"], "the hinted move by name, then move 1"


def test_position(table: tuple[str, int], played: Played) -> None:
    doc = json.loads(played.saved.read_text())
    assert (position.load(doc).rules.variant, position.load(doc).rules.num_players) == table
    done = run(["position", str(played.saved)])
    assert done.code == 0, done.err
    assert done.out.splitlines()[-1] == "legal actions: " + ", ".join(played.notes["legal"])


def test_play_resume(table: tuple[str, int], played: Played, folder: Path) -> None:
    """The resumed game shows the saved table and plays on to the end of the hand."""
    record = folder / "resumed.json"
    done = run(["play", "--resume", str(played.saved), "--record", str(record)], Person([], tail="1"))
    assert done.code == 0, done.err
    assert names_table(done.out.split("\n", 1)[0], *table)
    assert played.notes["table"] in done.out.split("\nmoves: ")[0]
    assert "\nresult: " in done.out
    resumed = GameRecord.load(record)
    assert resumed.start == json.loads(played.saved.read_text())
    assert len(resumed.scores) == table[1]
    games = replay(resumed)  # ends where the record ends, with its scores
    sheet = terminal_words(games.rules)(games.rules, resumed.players, 0).score_sheet(games)[0]
    assert sheet in done.out  # the game's own score sheet, whole


def test_watch(table: tuple[str, int], watched: tuple[Run, Path]) -> None:
    done, path = watched
    assert done.code == 0, done.err
    assert names_table(done.out.splitlines()[1], *table)
    record = GameRecord.load(path)
    assert (record.rules["variant"], record.seed) == (table[0], SEED)
    assert record.players == [f"random (seat {q})" for q in range(table[1])]
    result = next(line for line in done.out.splitlines() if line.startswith("result: "))
    assert sorted(int(s) for s in re.findall(r" (-?\d+)(?:,|$)", result)) == sorted(record.scores)
    assert f"game record saved to {path}" in done.out


def test_replay(table: tuple[str, int], watched: tuple[Run, Path]) -> None:
    """At once it tells what watch told, line for line; by Enter it stops on 'q'."""
    shown, path = watched
    done = run(["replay", str(path), "--speed", "0"])
    assert done.code == 0, done.err
    record = GameRecord.load(path)
    assert done.out.startswith(f"replaying {len(record.actions)} actions from seed {SEED}")
    told = shown.out.split("\n", 1)[1].removesuffix(f"game record saved to {path}\n")
    assert done.out.split("\n", 1)[1] == told
    stepped = run(["replay", str(path)], Person(["", ""], tail="q"))
    assert "stopped after action" in stepped.out and stepped.out.count("[Enter: next turn") == 3


def test_tournament(table: tuple[str, int], folder: Path) -> None:
    """Two bots on one duplicate deal, played once per seating (two with two sides, each bot
    alone on every side with more), whose records replay."""
    rules = Rules(variant=table[0], num_players=table[1])
    bots = list(bot_names(rules)[:2])
    records = folder / "tournament.jsonl"
    argv = ["tournament", *bots, *table_flags(table), "--players", str(table[1]), "--deals", "1"]
    done = run([*argv, "--bootstrap", "0", "--no-progress", "--seed", str(SEED), "--records", str(records)])
    assert done.code == 0, done.err
    assert f"{bots[0]} vs {bots[1]}" in done.out
    elo = re.findall(r"(?m)^Elo: (.*)$", done.out)[-1]
    assert sorted(re.findall(r"(\S+) -?\d+", elo)) == sorted(bots), elo
    games, rows = load_jsonl(records), seatings(rules.sides())
    assert len(games) == len(rows) and all(g.rules["variant"] == table[0] for g in games)
    assert {tuple(g.players) for g in games} == {tuple(bots[i] for i in row) for row in rows}
    for game in games:
        replay(game)  # to the recorded scores


@pytest.mark.skipif(importlib.util.find_spec("sb3_contrib") is None, reason="needs the training extra")
def test_eval(table: tuple[str, int], folder: Path) -> None:
    """The policy file plays the bot on one duplicate deal."""
    rules = Rules(variant=table[0], num_players=table[1], max_turns=MAX_TURNS)
    actions = len(GameBatch(rules, 1).action_names)
    weights = np.random.default_rng(SEED).normal(size=(observation_size(rules), actions))
    path = NumpyPolicy([weights], [np.zeros(actions)], rules, count_inputs=False).save(folder / "p.npz")
    argv = ["eval", str(path), "--bots", "random", "--hands", "2", "--batch", "1"]
    done = run([*argv, "--variant", table[0], "--num-players", str(table[1]), "--seed", str(SEED)])
    assert done.code == 0, done.err
    assert f"{path} vs random" in done.out or f"random vs {path}" in done.out, done.out


# --- the web app --------------------------------------------------------------------------------
def web_rules(table: tuple[str, int]) -> dict[str, Any]:
    """The web app's game options for the table."""
    return {"game": table[0], "players": table[1], "max_turns": MAX_TURNS, "seed": SEED}


def test_web_play(table: tuple[str, int], client: Any) -> None:
    """The person in the last seat sees his hand and only the sizes of the others'; random
    legal moves play the short hand to its end, and the record holds his moves and scores."""
    seat = table[1] - 1
    doc = post(client, "/api/play", {**web_rules(table), "seat": seat, "opponents": ["random"] * seat})
    sid, state = doc["session"], doc["state"]
    assert (state["rules"]["game"], state["rules"]["players"]) == table and state["table"]["viewer"] == seat
    if state["your_turn"]:  # (not so when his seat sits the hand out: sk with five players)
        players = state["table"]["players"]
        assert [p["hand"] is None for p in players] == [q != seat for q in range(table[1])]
        assert len(players[seat]["hand"]) == players[seat]["hand_size"]
    rng, moves = random.Random(0), []
    while state["your_turn"]:
        moves.append(rng.choice(state["legal"]["names"]))
        doc = post(client, f"/api/play/{sid}/actions", {"actions": moves[-1:]})
        assert doc["played"] == moves[-1:]
        state = doc["state"]
    assert state["finished"] and state["hand_end"]["players"][seat]["name"] == "you"
    record = GameRecord.from_dict(client.get(f"/api/play/{sid}/record").json())
    assert movers_moves(record, seat) == moves
    assert record.scores == [p["recorded"] for p in state["hand_end"]["players"]]


def test_web_watch(table: tuple[str, int], client: Any) -> None:
    """The game's first bot but random at every seat, six turns on, then to the end from seat
    0; stepping back replays the same game; each seat is on one side, which holds it (partners
    share one side: its melds and total)."""
    bot = bot_names(Rules(variant=table[0], num_players=table[1]))[1]
    doc = post(client, "/api/view", {**web_rules(table), "mode": "watch", "agents": [bot] * table[1]})
    sid, rules = doc["session"], doc["state"]["rules"]
    assert (rules["game"], rules["players"]) == table and rules["text"]
    assert doc["state"]["cursor"] == 0 and doc["state"]["last_action"] is None
    state = post(client, f"/api/view/{sid}/step", {"count": 6, "unit": "turn"})["state"]
    assert state["open_ended"] and state["cursor"] == state["length"] > 6 and state["last_action"]
    end = post(client, f"/api/view/{sid}/step?seat=0", {"count": 1000, "unit": "turn"})["state"]
    assert end["finished"] and not end["open_ended"] and end["hand_end"]["sheet"]
    again = post(client, f"/api/view/{sid}/step", {"goto": state["cursor"]})["state"]
    assert again["table"] == state["table"]
    players, sides = end["table"]["players"], end["table"]["sides"]
    assert [p["side"] for p in players] == rules["sides"]
    for side in sides:
        assert side["seats"] == [q for q, s in enumerate(rules["sides"]) if s == side["side"]]
        assert all(players[q]["total"] == side["total"] for q in side["seats"])
    assert sorted(q for side in sides for q in side["seats"]) == list(range(table[1]))


def test_web_replay(table: tuple[str, int], client: Any, watched: tuple[Run, Path]) -> None:
    """The watch record replayed: actions on from seat 1 (that seat's view of the engine's
    replay), a turn back with every hand open, then to its end, where it reaches its scores
    and the score sheet watch printed; one step back is before the end."""
    from webapp.table import table_json

    record = GameRecord.load(watched[1])
    doc = post(client, "/api/view", {"mode": "replay", "record": record.to_dict()})
    sid, length = doc["session"], doc["state"]["length"]
    assert length == len(record.actions) and doc["state"]["rules"]["game"] == table[0]
    k = min(40, length - 1)
    state = post(client, f"/api/view/{sid}/step?seat=1", {"count": k, "unit": "action"})["state"]
    games = replay(GameRecord(record.rules, record.actions[:k], seed=record.seed), check=False)
    assert state["cursor"] == k and state["table"] == table_json(games, record.players, viewer=1)
    back = post(client, f"/api/view/{sid}/step?seat=all", {"count": -1, "unit": "turn"})["state"]
    assert back["cursor"] < k and all(p["hand"] is not None for p in back["table"]["players"])
    end = post(client, f"/api/view/{sid}/step", {"goto": length})["state"]
    assert end["finished"] and [p["recorded"] for p in end["hand_end"]["players"]] == record.scores
    assert end["hand_end"]["sheet"] in watched[0].out, "the terminal's score sheet"
    back = post(client, f"/api/view/{sid}/step", {"count": -1})["state"]
    assert back["cursor"] == length - 1 and not back["finished"]
