"""The JSON API of ``kanaszta serve``, through Starlette's TestClient:
every action checked by the engine, all-or-nothing move sequences, session ids and
isolation, bounded bodies, folders that a path cannot leave, hand scoring, meld
gestures and bad requests for Díszített kanaszta, classic canasta with four players
and Turkish kanasta alike. Every table played, watched and replayed through the API:
tests/test_surfaces.py; no hidden card in a seat's JSON: tests/test_text_table.py."""

from __future__ import annotations

import os
import random
import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="kanaszta serve needs the web extra: pip install -e '.[web]'")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 for its test client; httpx works
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient

from agents.records import GameRecord, replay
from agents.registry import make_agent
from agents.watch import Show, watch
from kanaszta_env import GameBatch, Rules
from kanaszta_env.games import all_games, preset_names
from webapp.app import MAX_BODY, create_app

#: one table of each game: (preset, players)
TABLES = [("2003-02", 2), ("pl", 4), ("tr", 4)]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def new_game(client: TestClient, **doc) -> tuple[str, dict]:
    players = doc.get("players", 4 if doc.get("game") in ("pl", "tr") else 2)
    doc.setdefault("opponents", ["random"] * (players - 1))
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


def test_options_offer_every_preset_of_every_game_and_the_bots(client: TestClient) -> None:
    """Every game draws its table now (each has the ``webapp`` capability): every preset is
    offered with its own player counts, usual table, sides and target."""
    doc = client.get("/api/options").json()
    assert all(g.has("webapp") for g in all_games())
    # in registration order: a preset registered later (a user's variant) comes last
    assert [g["id"] for g in doc["games"]] == list(preset_names())
    offered = {g["id"]: g for g in doc["games"]}
    assert offered["pl"]["default_players"] == 4 and offered["pl"]["sides"]["4"] == [0, 1, 0, 1]
    assert offered["tr"]["players"] == [4] and offered["tr"]["target"] == 5200
    assert offered["2003-02"]["default_players"] == 2 and not offered["2003-02"]["partnerships"]
    assert {"random", "greedy", "heuristic", "search"} <= set(doc["agents"])
    assert doc["records"] == []  # no records folder configured


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
        (b"{not json", "JSON"),
        (b"[1, 2]", "JSON"),
        (b"\xff\xfe", "JSON"),
    ],
)
def test_a_bad_or_illegal_request_is_refused_and_changes_nothing(client, body, message) -> None:
    sid, _ = new_game(client, seed=1)
    before = client.get(f"/api/play/{sid}").json()
    raw = {"content": body, "headers": {"content-type": "application/json"}}
    r = client.post(f"/api/play/{sid}/actions", **(raw if isinstance(body, bytes) else {"json": body}))
    assert r.status_code == 400 and message in r.json()["error"]
    assert client.get(f"/api/play/{sid}").json() == before


def test_a_meld_gesture_is_played_as_atomic_actions_all_or_none(client: TestClient) -> None:
    """Three naturals of a rank melded in one request; a sequence with a bad
    action at index 1 plays nothing and names that action."""
    for seed in range(40):
        sid, state = new_game(client, seed=seed)
        state = to_meld_phase(client, sid, state)
        hand = state["table"]["players"][0]["hand"]
        ranks = [c[:-1] for c in hand if c in state["legal"]["cards"] and not c.startswith(("2", "JK"))]
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
    lines = end["sheet"].splitlines()
    assert lines[0].startswith("scoring (R16)")  # Díszített kanaszta's score sheet, item by item
    for q, player in enumerate(end["players"]):
        row = next(line for line in lines if line.strip().startswith(player["name"] + ":"))
        items, _, total = row.partition(" = ")
        assert total.split()[0] == str(player["raw"])
        assert sum(int(x) for x in re.findall(r": ([+-]?\d+)(?:;|$)", items)) == player["raw"]
        assert player["raw"] >= player["recorded"]  # the R17 tax only takes
        assert state["table"]["players"][q]["total"] == player["total"] == player["recorded"]
        assert end["table"]["players"][q]["hand"] == player["hand"]  # every hand shown at the end
    assert client.post(f"/api/play/{sid}/actions", json={"actions": ["draw"]}).status_code == 400
    nxt = client.post(f"/api/play/{sid}/next", json={})
    assert nxt.status_code == 200 and nxt.json()["state"]["hand_end"] is None
    assert nxt.json()["state"]["table"]["hand_number"] == 2
    assert client.post(f"/api/play/{sid}/next", json={}).status_code == 400
    record = GameRecord.from_dict(client.get(f"/api/play/{sid}/record").json())
    games = replay(record, check=False)
    assert [int(x) for x in games.state.totals[0]] == [p["total"] for p in end["players"]]


def _watched_record(game: str, players: int, folder: Path) -> GameRecord:
    rules = Rules(variant=game, num_players=players, max_turns=60)
    agents = [make_agent("heuristic" if q % 2 else "greedy", rules, seed=q) for q in range(players)]
    with open(os.devnull, "w") as sink:
        record = watch(agents, rules, seed=4, show=Show(sink))
    record.save(folder / f"{game}.json")
    return record


def test_a_bad_record_is_refused(tmp_path: Path) -> None:
    record = _watched_record("2003-02", 2, tmp_path)
    c = TestClient(create_app(records_dir=tmp_path))
    assert c.get("/api/options").json()["records"] == ["2003-02.json"]
    assert c.post("/api/view", json={"mode": "replay", "file": "2003-02.json"}).status_code == 200
    broken = record.to_dict() | {"actions": ["keep", "discard_7D", "draw"] * 3}
    for body in ({"mode": "replay", "record": broken}, {"mode": "replay", "record": {"format": "x"}},
                 {"mode": "replay", "file": "../game.json"}, {"mode": "replay", "file": "/etc/passwd"},
                 {"mode": "replay"}, {"mode": "both"}):  # fmt: skip
        r = c.post("/api/view", json=body)
        assert r.status_code == 400, body


# --- every game: play, watch, replay, bad requests --------------------------------------------
def _covered(legal: dict) -> list[str]:
    """Every action name the page can reach through the game's move picture."""
    names = [*legal["buttons"], *legal["discard"].values()]
    names += [m["action"] for moves in legal["cards"].values() for m in moves]
    names += [m["action"] for moves in legal["melds"].values() for m in moves]
    return names


def test_turkish_fis_are_counts_and_runs_are_runs(client) -> None:
    """The Fis are extras shown by their size (their cards only with every hand open), and a
    run laid by one gesture is a run of one meld slot in run order."""
    for seed in range(60):
        sid, state = new_game(client, game="tr", seed=seed, opponents=["random"] * 3)
        fis = state["table"]["extras"]
        assert [f["label"] for f in fis] == ["Fi 1", "Fi 2"] and all(f["cards"] is None for f in fis)
        assert all(f["count"] == 11 for f in fis)
        state = act(client, sid, "draw")
        hand = set(state["table"]["players"][0]["hand"])
        run = next(
            ([f"{r1}{s}", f"{r2}{s}", f"{r3}{s}"] for s in "SHDC"
             for r1, r2, r3 in zip("4567", "5678", "6789", strict=True)
             if {f"{r1}{s}", f"{r2}{s}", f"{r3}{s}"} <= hand),
            None,
        )  # fmt: skip
        if run is None:
            continue
        r = client.post(f"/api/play/{sid}/actions", json={"meld": {"cards": run[::-1], "to": None}})
        assert r.status_code == 200, r.text
        assert r.json()["played"][0].startswith("new_") and len(r.json()["played"]) == 3
        meld = r.json()["state"]["table"]["sides"][0]["melds"][-1]
        assert meld["run"] and meld["cards"] == run and meld["owner"] == 0
        break
    else:
        pytest.fail("no deal in 60 with a run of three to lay after the draw")


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_bad_requests_of_every_game_answer_4xx_with_a_sentence(client, game: str, players: int) -> None:
    def refused(r, status: int = 400) -> str:
        assert r.status_code == status, r.text
        message = r.json()["error"]
        assert isinstance(message, str) and len(message.split()) >= 3, message
        return message

    for doc, words in [
        ({"game": game + "x"}, "unknown game"),
        ({"seat": players}, "seat must be"),
        ({"players": 7}, "players must be"),
        ({"opponents": ["nobody"] * (players - 1)}, "unknown agent"),
        ({"opponents": ["random"] * players}, f"need a list of {players - 1}"),
        ({"max_turns": 10**6}, "max_turns must be"),
        ({"seed": -1}, "seed must be"),
        ({"episode": "forever"}, "episode must be"),
    ]:
        assert words in refused(client.post("/api/play", json={"game": game} | doc)), doc
    sid, state = new_game(client, game=game, players=players, seed=2)
    before = client.get(f"/api/play/{sid}").json()
    all_names = GameBatch(Rules(variant=game, num_players=players), 1).action_names
    illegal = next(n for n in all_names if n not in state["legal"]["names"])
    assert "not legal now" in refused(client.post(f"/api/play/{sid}/actions", json={"actions": [illegal]}))
    assert "unknown move" in refused(client.post(f"/api/play/{sid}/actions", json={"actions": ["fly"]}))
    bad_meld = {"meld": {"cards": ["XX"], "to": None}}
    assert "cannot be laid" in refused(client.post(f"/api/play/{sid}/actions", json=bad_meld))
    assert client.get(f"/api/play/{sid}").json() == before  # nothing changed
    doc = {"mode": "watch", "game": game, "players": players, "agents": ["random"]}
    assert "agents" in refused(client.post("/api/view", json=doc))
    doc["agents"] = ["random"] * players
    vid = client.post("/api/view", json=doc).json()["session"]
    assert "seat must be" in refused(client.get(f"/api/view/{vid}?seat={players}"))
    assert "unknown or expired" in refused(client.get(f"/api/view/{vid}x"), 404)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_hand_is_played_through_the_api_with_meld_gestures(client, game: str, players: int) -> None:
    """Legal moves chosen at random until the hand ends, the page reaching every legal move
    and only those; three naturals of a rank laid by one gesture make a meld of the person's
    side, and a card laid by a gesture on a meld of that side (``to``: the meld's id) joins
    that meld and no other (a meld the card cannot join is refused with the reason); the
    record replays to the scores of the hand's end."""
    for seed in range(30):
        sid, state = new_game(client, game=game, players=players, seed=seed, max_turns=40)
        rng, laid = random.Random(seed), set()
        while state["your_turn"]:
            legal, table = state["legal"], state["table"]
            assert set(_covered(legal)) == set(legal["names"])  # every legal move, and nothing else
            assert [p["hand"] is None for p in table["players"]] == [q != 0 for q in range(players)]
            assert all(p["hand_size"] >= len(p["known"]) for p in table["players"])
            side = table["sides"][table["players"][0]["side"]]
            melds = {m["id"]: m for m in side["melds"]}
            onto = [(c, m["to"]) for c, ms in legal["cards"].items() for m in ms if m["to"] in melds]
            hand = table["players"][0]["hand"]
            ranks = [c[:-1] for c in hand if c in legal["cards"] and c != "JK" and c[:-1] not in ("2", "3")]
            triple = next((r for r in ranks if ranks.count(r) >= 3), None)
            if onto and "onto" not in laid:
                card, target = onto[0]
                wrong = next((i for i in melds if (card, i) not in onto), None)
                if wrong is not None:
                    r = client.post(f"/api/play/{sid}/actions", json={"meld": {"cards": [card], "to": wrong}})
                    assert r.status_code == 400 and f"cannot be laid on meld {wrong}" in r.json()["error"]
                r = client.post(f"/api/play/{sid}/actions", json={"meld": {"cards": [card], "to": target}})
                assert r.status_code == 200, r.text
                after = {m["id"]: m for m in r.json()["state"]["table"]["sides"][side["side"]]["melds"]}
                assert sorted(after[target]["cards"]) == sorted([*melds[target]["cards"], card])
                assert all(after[i]["cards"] == m["cards"] for i, m in melds.items() if i != target)
                state = r.json()["state"]
                laid.add("onto")
            elif triple and "new" not in laid:
                cards = [c for c in hand if c[:-1] == triple][:3]
                r = client.post(f"/api/play/{sid}/actions", json={"meld": {"cards": cards, "to": None}})
                assert r.status_code == 200, r.text
                new = r.json()["state"]["table"]["sides"][side["side"]]["melds"]
                assert any(sorted(cards) == sorted(c for c in m["cards"] if c in cards) for m in new)
                state = r.json()["state"]
                laid.add("new")
            else:
                state = act(client, sid, rng.choice(legal["names"]))
        if laid == {"onto", "new"}:
            break
    else:
        pytest.fail("no deal in 30 where the person laid a new meld and a card on a meld by gestures")
    end = state["hand_end"]
    assert state["finished"] and end is not None and end["sheet"]
    assert all(p["hand"] is not None for p in end["table"]["players"])  # every hand open at the end
    record = GameRecord.from_dict(client.get(f"/api/play/{sid}/record").json())
    games = replay(record)  # checks the end and the recorded scores
    assert record.scores == [p["recorded"] for p in end["players"]] == list(games.summary()["hand_scores"])


def test_options_say_which_games_and_bots_have_warm_kernels(monkeypatch) -> None:
    """A preset is cold until a game of it is dealt in the process, a bot until it has
    moved in one (the page then says "compiling the rules for …" while a new game of a
    cold preset is pending); a refused request warms nothing."""
    import webapp.warm

    monkeypatch.setattr(webapp.warm, "WARMTH", webapp.warm.Warmth())  # as in a fresh process
    client = TestClient(create_app())

    def entry(game: str) -> dict:
        return next(g for g in client.get("/api/options").json()["games"] if g["id"] == game)

    assert all(not g["warm"] and g["warm_bots"] == [] for g in client.get("/api/options").json()["games"])
    assert client.post("/api/play", json={"game": "tr", "opponents": ["nobody"] * 3}).status_code == 400
    assert not entry("tr")["warm"]
    sid, state = new_game(client, game="tr", players=4, seat=1, seed=0, opponents=["heuristic"] * 3)
    assert state["actions_played"] == 0 and state["your_turn"]  # seat 1 begins: no bot has moved
    assert entry("tr")["warm"] and not entry("pl")["warm"] and entry("tr")["warm_bots"] == []
    while state["your_turn"]:
        state = act(client, sid, state["legal"]["names"][0])
    assert entry("tr")["warm_bots"] == ["heuristic"]
    doc = {"mode": "watch", "game": "pl", "players": 4, "agents": ["random"] * 4, "seed": 1}
    assert client.post("/api/view", json=doc).status_code == 200
    assert entry("pl")["warm"] and entry("pl")["warm_bots"] == []
