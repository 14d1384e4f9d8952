"""The JSON API of ``kanaszta serve`` (issue 17), through Starlette's TestClient:
every action checked by the engine, all-or-nothing move sequences, no hidden
card in the JSON, session ids and isolation, bounded bodies, folders that a
path cannot leave, hand scoring and the replay viewer."""

from __future__ import annotations

import json
import os
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette", reason="kanaszta serve needs the web extra: pip install -e '.[web]'")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 for its test client; httpx works
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient

from agents.records import GameRecord, replay
from agents.registry import make_agent
from agents.watch import Show, watch
from kanaszta_env import GameBatch, Rules
from kanaszta_env.cli import main
from kanaszta_env.games import all_games
from webapp.app import MAX_BODY, create_app
from webapp.table import table_json


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def new_game(client: TestClient, **doc) -> tuple[str, dict]:
    doc.setdefault("opponents", ["random"] * (doc.get("players", 2) - 1))
    r = client.post("/api/play", json=doc)
    assert r.status_code == 200, r.text
    return r.json()["session"], r.json()["state"]


def act(client: TestClient, sid: str, *names: str) -> dict:
    r = client.post(f"/api/play/{sid}/actions", json={"actions": list(names)})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def to_meld_phase(client: TestClient, sid: str, state: dict) -> dict:
    """Keep cut cards and draw until the person may meld (or discard)."""
    while state["table"]["phase"] not in ("meld",):
        names = state["legal"]["names"]
        simple = [n for n in ("keep", "draw") if n in names]
        state = act(client, sid, simple[0] if simple else sorted(state["legal"]["discard"].values())[0])
    return state


def test_options_offer_every_playable_rules_preset_and_the_bots(client: TestClient) -> None:
    """Every Díszített preset; classic canasta's join when its bots exist (issue 13)."""
    doc = client.get("/api/options").json()
    assert [g["id"] for g in doc["games"]] == [p for g in all_games() if g.has("webapp") for p in g.presets]
    assert "pl" not in [g["id"] for g in doc["games"]]  # classic's table is not drawn yet
    assert {"random", "greedy", "heuristic", "search"} <= set(doc["agents"])
    assert doc["records"] == []  # no records folder configured


def test_the_person_sees_his_hand_and_only_sizes_and_known_cards_of_the_others(client: TestClient) -> None:
    _, state = new_game(client, players=3, seat=1, seed=4, opponents=["random", "random"])
    players = state["table"]["players"]
    assert players[1]["hand"] is not None and len(players[1]["hand"]) == players[1]["hand_size"]
    assert players[0]["hand"] is None and players[2]["hand"] is None
    assert state["table"]["viewer"] == 1
    assert state["your_turn"] and state["legal"]["names"]


def test_hidden_cards_do_not_change_the_json_of_a_seat() -> None:
    """Swap a card of seat 1's hidden hand with a hidden stock card: seat 0's
    JSON is the same; the open view (every hand) does change, so the test can fail."""
    games = GameBatch(Rules(num_players=2), 1)
    games.reset(seed=9)
    rng = np.random.default_rng(0)
    while games.state.phase[0] == 0 or int(games.to_move[0]) != 0:
        games.step(np.array([rng.choice(np.flatnonzero(games.legal_mask()[0]))]))
    names = ["a", "b"]
    before = json.dumps(table_json(games, names, viewer=0))
    open_before = json.dumps(table_json(games, names, viewer=None))
    s = games.state
    hidden = s.hand[0, 1].astype(int) - s.known[0, 1]
    t = int(np.flatnonzero(hidden > 0)[0])
    i = next(i for i in range(int(s.stock_known[0]), int(s.stock_len[0])) if s.stock[0, i] != t)
    u = int(s.stock[0, i])
    state = s._replace(hand=s.hand.copy(), stock=s.stock.copy())
    state.hand[0, 1, t] -= 1
    state.hand[0, 1, u] += 1
    state.stock[0, i] = t
    games.state = state
    assert json.dumps(table_json(games, names, viewer=0)) == before
    assert json.dumps(table_json(games, names, viewer=None)) != open_before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"actions": "draw"}, "non-empty list"),
        ({"actions": []}, "non-empty list"),
        ({"actions": [3]}, "not a name"),
        ({"actions": ["drw"]}, "unknown move 'drw'"),
        ({"actions": ["take_pile"]}, "not legal now"),
        ({"actions": ["keep"] * 65}, "at most 64"),
        ({}, "non-empty list"),
    ],
)
def test_a_bad_or_illegal_request_is_refused_and_changes_nothing(client, body, message) -> None:
    sid, _ = new_game(client, seed=1)
    before = client.get(f"/api/play/{sid}").json()
    r = client.post(f"/api/play/{sid}/actions", json=body)
    assert r.status_code == 400 and message in r.json()["error"]
    assert client.get(f"/api/play/{sid}").json() == before


def test_a_body_that_is_not_a_json_object_is_refused(client: TestClient) -> None:
    sid, _ = new_game(client, seed=1)
    for raw in (b"{not json", b"[1, 2]", b"\xff\xfe"):
        r = client.post(f"/api/play/{sid}/actions", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "JSON" in r.json()["error"]


def test_a_meld_gesture_is_played_as_atomic_actions_all_or_none(client: TestClient) -> None:
    """Three naturals of a rank melded in one request; a sequence with a bad
    action at index 1 plays nothing and names that action."""
    for seed in range(40):
        sid, state = new_game(client, seed=seed)
        state = to_meld_phase(client, sid, state)
        hand = state["table"]["players"][0]["hand"]
        ranks = [c[:-1] for c in hand if c in state["legal"]["meld"]]
        triple = next((r for r in ranks if ranks.count(r) >= 3), None)
        if triple:
            break
    else:
        pytest.fail("no deal in 40 with three meldable naturals of a rank")
    cards = [c for c in hand if c[:-1] == triple][:3]
    before = client.get(f"/api/play/{sid}").json()
    bad = client.post(f"/api/play/{sid}/actions", json={"actions": [f"meld_{cards[0]}", "meld_XX", "draw"]})
    assert bad.status_code == 400 and bad.json()["index"] == 1 and bad.json()["action"] == "meld_XX"
    assert client.get(f"/api/play/{sid}").json() == before
    state = act(client, sid, *[f"meld_{c}" for c in cards])
    mine = state["table"]["players"][0]
    group = next(g for g in mine["groups"] if g["group"] == triple)
    assert sorted(group["cards"]) == sorted(cards)
    assert mine["hand_size"] == len(hand) - 3 and state["your_turn"]


def test_actions_after_the_turn_ends_are_refused(client: TestClient) -> None:
    sid, state = new_game(client, seed=2)
    state = to_meld_phase(client, sid, state)
    before = client.get(f"/api/play/{sid}").json()
    discard = sorted(state["legal"]["discard"].values())[0]
    r = client.post(f"/api/play/{sid}/actions", json={"actions": [discard, "draw"]})
    assert r.status_code == 400 and "after your turn ended" in r.json()["error"] and r.json()["index"] == 1
    assert client.get(f"/api/play/{sid}").json() == before


def test_session_ids_are_long_random_and_games_do_not_interfere(client: TestClient) -> None:
    a, state_a = new_game(client, seed=7)
    b, state_b = new_game(client, seed=7)
    assert a != b and len(a) >= 40 and len(b) >= 40
    assert state_a["table"] == state_b["table"]
    act(client, a, state_a["legal"]["names"][0])
    assert client.get(f"/api/play/{b}").json()["table"] == state_b["table"]
    assert client.get(f"/api/play/{a}").json()["table"] != state_b["table"]
    assert client.get("/api/play/not-a-session").status_code == 404
    assert client.get(f"/api/view/{a}").status_code == 404  # a play id is not a viewer id


def test_the_oldest_session_is_dropped_when_the_store_is_full() -> None:
    small = TestClient(create_app(max_sessions=2))
    first, _ = new_game(small, seed=1)
    new_game(small, seed=2)
    new_game(small, seed=3)
    assert small.get(f"/api/play/{first}").status_code == 404


def test_request_bodies_are_bounded(client: TestClient) -> None:
    sid, _ = new_game(client, seed=1)
    big = {"actions": ["draw"], "pad": "x" * MAX_BODY}
    assert client.post(f"/api/play/{sid}/actions", json=big).status_code == 413

    def chunks():  # no content-length: counted while read
        for _ in range(MAX_BODY // 1024 + 2):
            yield b" " * 1024

    assert client.post(f"/api/play/{sid}/actions", content=chunks()).status_code == 413
    assert client.post("/api/play", json={"pad": "x" * MAX_BODY}).status_code == 413


def test_checkpoints_load_only_from_the_runs_folder(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    (runs / "a").mkdir(parents=True)
    (tmp_path / "secret.zip").write_bytes(b"not a model")
    (runs / "a" / "link.zip").symlink_to(tmp_path / "secret.zip")
    c = TestClient(create_app(runs_dir=runs))
    assert "checkpoint:a/link.zip" not in c.get("/api/options").json()["agents"]
    refused = {
        "checkpoint:../secret.zip": "outside the checkpoint folder",
        f"checkpoint:{tmp_path / 'secret.zip'}": "outside the checkpoint folder",
        "checkpoint:a/link.zip": "outside the checkpoint folder",  # a link out of the folder
        "checkpoint:a": "no checkpoint 'a'",
        "checkpoint:": "named by its path inside",
        "../secret.zip": "unknown agent",
        "random:seed=3": "unknown agent",  # no options: a request cannot size a search
    }
    for spec, message in refused.items():
        r = c.post("/api/play", json={"opponents": [spec]})
        assert r.status_code == 400 and message in r.json()["error"], spec
    r = TestClient(create_app()).post("/api/play", json={"opponents": ["checkpoint:x.zip"]})
    assert r.status_code == 400 and "no checkpoint folder" in r.json()["error"]


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"game": "classic"}, "unknown game"),
        ({"players": 5}, "players must be"),
        ({"players": 3, "opponents": ["random"]}, "need a list of 2"),
        ({"seat": 2}, "seat must be"),
        ({"max_turns": 10**6}, "max_turns must be"),
        ({"seed": -1}, "seed must be"),
        ({"episode": "forever"}, "episode must be"),
    ],
)
def test_a_bad_new_game_request_names_the_problem(client: TestClient, doc: dict, message: str) -> None:
    r = client.post("/api/play", json=doc)
    assert r.status_code == 400 and message in r.json()["error"]


def test_a_hand_ends_with_its_scoring_and_the_game_goes_on(client: TestClient) -> None:
    """Random legal moves in a game episode of short hands: the scoring's items
    add up to the raw score, raw minus tax is the recorded score, the totals are
    the table's; moves wait for "next hand"; the record replays to the same totals."""
    sid, state = new_game(client, seed=3, episode="game", target=1000, max_turns=4)
    rng = random.Random(0)
    while not state["hand_end"]:
        state = act(client, sid, rng.choice(state["legal"]["names"]))
    end = state["hand_end"]
    assert end["hand"] == 1 and not end["game_over"]
    for q, player in enumerate(end["players"]):
        assert sum(points for _, points in player["items"]) == player["raw"]
        assert player["raw"] - player["tax"] == player["recorded"]
        assert state["table"]["players"][q]["total"] == player["total"] == player["recorded"]
        assert end["table"]["players"][q]["hand"] is not None  # every hand shown at the end
    assert client.post(f"/api/play/{sid}/actions", json={"actions": ["draw"]}).status_code == 400
    nxt = client.post(f"/api/play/{sid}/next", json={})
    assert nxt.status_code == 200 and nxt.json()["state"]["hand_end"] is None
    assert nxt.json()["state"]["table"]["hand_number"] == 2
    assert client.post(f"/api/play/{sid}/next", json={}).status_code == 400
    record = GameRecord.from_dict(client.get(f"/api/play/{sid}/record").json())
    games = replay(record, check=False)
    assert [int(x) for x in games.state.totals[0]] == [p["total"] for p in end["players"]]


def _bots_record(folder: Path) -> GameRecord:
    rules = Rules(num_players=2)
    agents = [make_agent("greedy", rules), make_agent("random", rules)]
    with open(os.devnull, "w") as sink:
        record = watch(agents, rules, seed=5, show=Show(sink))
    record.save(folder / "game.json")
    return record


def test_a_record_is_replayed_forward_and_back_from_a_seat_or_open(tmp_path: Path) -> None:
    record = _bots_record(tmp_path)
    c = TestClient(create_app(records_dir=tmp_path))
    assert c.get("/api/options").json()["records"] == ["game.json"]
    r = c.post("/api/view", json={"mode": "replay", "file": "game.json"})
    assert r.status_code == 200, r.text
    sid, state = r.json()["session"], r.json()["state"]
    assert state["cursor"] == 0 and state["length"] == len(record.actions)
    k = 25
    state = c.post(f"/api/view/{sid}/step?seat=0", json={"count": k, "unit": "action"}).json()["state"]
    expected = GameRecord(record.rules, record.actions[:k], seed=record.seed, players=record.players)
    games = replay(expected, check=False)
    assert state["cursor"] == k and state["table"] == table_json(games, record.players, viewer=0)
    assert state["table"]["players"][1]["hand"] is None
    back = c.post(f"/api/view/{sid}/step?seat=all", json={"count": -1, "unit": "turn"}).json()["state"]
    assert back["cursor"] < k and all(p["hand"] is not None for p in back["table"]["players"])
    end = c.post(f"/api/view/{sid}/step", json={"goto": len(record.actions)}).json()["state"]
    assert end["finished"] and end["hand_end"] is not None
    assert [p["recorded"] for p in end["hand_end"]["players"]] == record.scores
    assert c.get(f"/api/view/{sid}?seat=7").status_code == 400


def test_a_bad_record_is_refused(tmp_path: Path) -> None:
    record = _bots_record(tmp_path)
    c = TestClient(create_app(records_dir=tmp_path))
    broken = record.to_dict() | {"actions": ["keep", "discard_7D", "draw"] * 3}
    for body in ({"mode": "replay", "record": broken}, {"mode": "replay", "record": {"format": "x"}},
                 {"mode": "replay", "file": "../game.json"}, {"mode": "replay", "file": "/etc/passwd"},
                 {"mode": "replay"}, {"mode": "both"}):  # fmt: skip
        r = c.post("/api/view", json=body)
        assert r.status_code == 400, body


def test_watching_agents_generates_moves_and_steps_back(client: TestClient) -> None:
    r = client.post("/api/view", json={"mode": "watch", "agents": ["random", "greedy"], "seed": 4})
    sid = r.json()["session"]
    state = client.post(f"/api/view/{sid}/step", json={"count": 5, "unit": "turn"}).json()["state"]
    assert state["cursor"] > 5 and state["open_ended"] and state["length"] == state["cursor"]
    again = client.post(f"/api/view/{sid}/step", json={"goto": 3}).json()["state"]
    forward = client.post(f"/api/view/{sid}/step", json={"goto": state["cursor"]}).json()["state"]
    assert again["cursor"] == 3 and forward["table"] == state["table"]


def test_serve_command_checks_its_flags(capsys) -> None:
    assert main(["serve", "--runs-dir", "/no/such/folder", "--port", "0"]) == 2
    assert "--runs-dir /no/such/folder: no such folder" in capsys.readouterr().err
    assert main(["serve", "--port", "70000"]) == 2
    assert "at most 65535" in capsys.readouterr().err


def test_make_record_of_a_played_game_replays(client: TestClient) -> None:
    sid, state = new_game(client, seed=8, max_turns=3)
    rng = random.Random(1)
    while not state["finished"]:
        state = act(client, sid, rng.choice(state["legal"]["names"]))
    doc = client.get(f"/api/play/{sid}/record").json()
    games = replay(GameRecord.from_dict(doc))  # checks the end and the scores
    assert doc["scores"] == [int(x) for x in games.state.hand_scores[0]] and doc["seed"] == 8
