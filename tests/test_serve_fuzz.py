"""A fuzz of every route of ``kanaszta serve`` (:mod:`webapp.app`) with hypothesis.

Live sessions of Díszített kanaszta (``2003-02``, two players), classic canasta
(``pl``, four) and Turkish kanasta (``tr``, four) are opened for play, watch and
replay; then each example sends one request to one route: a random JSON body
(wrong types, huge integers, deep nesting within the body bound, unicode,
missing and extra keys, often the route's own keys with plausible or legal
values so that it reaches the game), random query strings and valid, foreign
or made-up session ids. Every answer must be below 500, and a 4xx answer must
be a JSON ``{"error": sentence}``. The requests are counted and the total
printed (``pytest -s``). The run is derandomized (the same examples every
time) and bounded by ``max_examples``.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from urllib.parse import quote

import pytest

pytest.importorskip("starlette", reason="kanaszta serve needs the web extra: pip install -e '.[web]'")
from hypothesis import HealthCheck, given, settings, strategies as st

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 for its test client; httpx works
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient

from webapp.app import create_app

#: one table of each game: (preset, players)
TABLES = [("2003-02", 2), ("pl", 4), ("tr", 4)]
#: every route of webapp/app.py with its method ("{sid}": a session id of the kind named)
ROUTES = [
    ("GET", "/", None),
    ("GET", "/static/app.js", None),
    ("GET", "/api/options", None),
    ("POST", "/api/play", None),
    ("GET", "/api/play/{sid}", "play"),
    ("POST", "/api/play/{sid}/actions", "play"),
    ("POST", "/api/play/{sid}/next", "play"),
    ("GET", "/api/play/{sid}/record", "play"),
    ("POST", "/api/view", None),
    ("GET", "/api/view/{sid}", "view"),
    ("POST", "/api/view/{sid}/step", "view"),
]
EXAMPLES = 3000

leaf = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from([0, 1, -1, 2**31 - 1, 2**31, 2**63, 10**300, 3, 4, 7])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["all", "hand", "game", "watch", "replay", "turn", "action", "random", "search"])
)
json_value = st.recursive(
    leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=16,
)
games = st.sampled_from([g for g, _ in TABLES]) | st.sampled_from(["pl-2", "xx", "", "2003"]) | json_value
players = st.integers(0, 9) | json_value
agent = st.sampled_from(
    ["random", "greedy", "heuristic", "nobody", "checkpoint:x.zip", "checkpoint:../x.zip"]
)
agents = st.lists(agent | json_value, max_size=5) | json_value
rules_keys = {
    "game": games,
    "players": players,
    "seat": st.integers(-1, 5) | json_value,
    "episode": st.sampled_from(["hand", "game", "set"]) | json_value,
    "target": st.sampled_from([1000, 2000, 5000, 5200, 10_000, 7]) | json_value,
    "max_turns": st.integers(-1, 500) | json_value,
    "opening_minimum": st.integers(-(10**20), 10**20) | json_value,
    "seed": st.integers(-1, 2**40) | json_value,
}
extra = st.dictionaries(st.text(max_size=8), json_value, max_size=3)


def _body(fixed: dict) -> st.SearchStrategy:
    """A dict of some of the route's keys (plausible or wild values) and extra keys."""
    return st.builds(lambda known, more: {**more, **known}, st.fixed_dictionaries({}, optional=fixed), extra)


def _nested(depth: int, opener: str) -> bytes:
    closer = "]" if opener == "[" else "}"
    return ('{"actions": ' + opener * depth + "1" + closer * depth + "}").encode()


raw_bodies = (
    st.binary(max_size=64)
    | st.sampled_from([b"", b"null", b"[]", b"1", b'"x"', b"{", b'{"a":1}x', b"\xff\xfe{}"])
    | st.builds(_nested, st.integers(1, 3000), st.sampled_from(["[", '{"a":']))
    | st.builds(lambda n: b'{"seed": ' + b"9" * n + b"}", st.integers(1, 6000))
)
queries = st.dictionaries(
    st.sampled_from(["seat", "speed", "game", "players", "session", "x"]),
    st.sampled_from(["all", "0", "1", "3", "9", "-1", "1.0", "²", "", "9" * 40, "tr", "4"])
    | st.text(max_size=10),
    max_size=3,
)


@pytest.fixture(scope="module")
def fuzz():
    """The app, its live sessions (refreshed when a game ends) and the request count."""
    client = TestClient(create_app(max_sessions=100_000), raise_server_exceptions=False)
    state = {"client": client, "count": 0, "fives": [], "refreshed": 0}
    state.update(statuses=Counter(), ok=Counter())
    plays, views = {}, {}
    for game, n in TABLES:
        plays[game] = _new_play(client, game, n, 0)
        doc = {"mode": "watch", "game": game, "players": n, "agents": ["random"] * n, "seed": 3}
        watched = client.post("/api/view", json=doc | {"max_turns": 30})
        views[game + " watch"] = watched.json()["session"]
        record = client.get(f"/api/play/{plays[game]}/record").json()
        replayed = client.post("/api/view", json={"mode": "replay", "record": record})
        views[game + " replay"] = replayed.json()["session"]
    state.update(plays=plays, views=views, record=record)
    yield state
    statuses = dict(sorted(state["statuses"].items()))
    fives = len(state["fives"])
    print(f"\nserve fuzz: {state['count']} requests tried, {fives} answers 5xx; by status {statuses}")
    print("answered 200 by route: " + ", ".join(f"{k} {n}" for k, n in sorted(state["ok"].items()) if n))


def _new_play(client: TestClient, game: str, players: int, seed: int) -> str:
    """A live game to fuzz: a game to the target of short hands against RandomBots."""
    doc = {"game": game, "players": players, "opponents": ["random"] * (players - 1), "seed": seed}
    r = client.post("/api/play", json=doc | {"episode": "game", "max_turns": 6, "target": 1000})
    assert r.status_code == 200, r.text
    return r.json()["session"]


def _request(fuzz: dict, method: str, url: str, content: bytes | None, route: str) -> None:
    client = fuzz["client"]
    headers = {"content-type": "application/json"}
    r = client.request(method, url, content=content, headers=headers if content is not None else None)
    fuzz["count"] += 1
    fuzz["statuses"][r.status_code] += 1
    fuzz["ok"][f"{method} {route}"] += r.status_code == 200
    if r.status_code >= 500:
        fuzz["fives"].append((method, url, content))
    assert r.status_code < 500, (method, url, content, r.text[:300])
    if 400 <= r.status_code < 500 and url.startswith("/api"):
        doc = r.json()
        assert isinstance(doc.get("error"), str) and len(doc["error"].split()) >= 2, (url, doc)


@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_no_route_answers_5xx(fuzz: dict, data: st.DataObject) -> None:
    """One request of random shape to one route; the answer is < 500 and a 4xx has a sentence."""
    method, path, kind = data.draw(st.sampled_from(ROUTES), label="route")
    route = path
    if data.draw(st.integers(0, 19), label="other method") == 0:  # a method the path does not take
        method = "GET" if method == "POST" else data.draw(st.sampled_from(["POST", "PUT", "DELETE"]))
    client = fuzz["client"]
    if kind is not None:
        live = fuzz["plays"] if kind == "play" else fuzz["views"]
        foreign = fuzz["views" if kind == "play" else "plays"].values()
        other = [*foreign, "", "x", "../options", "%00", "A" * 43]
        which = data.draw(st.integers(0, 9), label="which sid")  # 7 in 10: a live session of the kind
        sids = st.sampled_from(sorted(live.values())) if which < 7 else st.sampled_from(other)
        sid = data.draw(sids if which < 9 else st.text(max_size=50), label="sid")
        path = path.replace("{sid}", quote(sid, safe="") or "%20")
    query = data.draw(queries, label="query")
    url = path + ("?" + "&".join(f"{quote(k)}={quote(v)}" for k, v in query.items()) if query else "")
    content = None
    if method == "POST":
        shape = data.draw(st.integers(0, 9), label="body shape")  # 6 in 10: the route's own keys
        wild = raw_bodies if shape < 2 else json_value.map(_dump)
        content = data.draw(_body_for(path, fuzz, data).map(_dump) if shape >= 4 else wild, label="body")
    _request(fuzz, method, url, content, route)
    # a finished game cannot be moved any further: open another one in its place
    for game, sid in list(fuzz["plays"].items()):
        if path.startswith(f"/api/play/{sid}") and client.get(f"/api/play/{sid}").json().get("finished"):
            n = dict(TABLES)[game]
            fuzz["refreshed"] += 1
            fuzz["plays"][game] = _new_play(client, game, n, fuzz["refreshed"])


def _dump(doc: object) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode()


def _body_for(path: str, fuzz: dict, data: st.DataObject) -> st.SearchStrategy:
    """The route's own keys, with legal moves of the live game among the values."""
    bots = st.sampled_from(["random", "greedy", "heuristic"])
    table = st.sampled_from(TABLES)
    if path == "/api/play":
        valid = st.builds(
            lambda t, bot, more: {"game": t[0], "players": t[1], "opponents": [bot] * (t[1] - 1), **more},
            table,
            bots,
            st.fixed_dictionaries({}, optional={"max_turns": st.integers(1, 8), "seat": st.integers(0, 3)}),
        )
        return valid | _body(rules_keys | {"opponents": agents})
    if path == "/api/view":
        replay = st.just(fuzz["record"]) | st.dictionaries(
            st.sampled_from(["rules", "actions", "seed", "players", "scores", "start"]), json_value
        )
        watch = st.builds(
            lambda t, bot: {"mode": "watch", "game": t[0], "players": t[1], "agents": [bot] * t[1]},
            table,
            bots,
        )
        view_keys = {
            "mode": st.sampled_from(["watch", "replay", "x"]) | json_value,
            "agents": agents,
            "record": replay | json_value,
            "file": st.text(max_size=20) | json_value,
            "game": st.integers(-1, 3) | games,
        }
        return watch | st.just({"mode": "replay", "record": fuzz["record"]}) | _body(rules_keys | view_keys)
    if path.endswith("/step"):
        count = st.integers(-1200, 1200) | json_value
        unit = st.sampled_from(["action", "turn", "hand"]) | json_value
        return _body({"count": count, "unit": unit, "goto": st.integers(-5, 5000) | json_value})
    if path.endswith("/actions"):
        sid = path.split("/")[3]
        state = fuzz["client"].get(f"/api/play/{sid}")
        legal = state.json().get("legal") if state.status_code == 200 else None
        # the live game's legal moves and cards, picked by index: the draws' shapes must not
        # depend on the game's state (hypothesis replays them)
        legal_names = legal["names"] if legal else ["draw", "keep", "x"]
        legal_cards = sorted(legal["cards"]) if legal and legal["cards"] else ["XX"]
        names = st.integers(0, 999).map(lambda i: legal_names[i % len(legal_names)])
        cards = st.integers(0, 999).map(lambda i: legal_cards[i % len(legal_cards)])
        meld = st.fixed_dictionaries(
            {}, optional={"cards": st.lists(cards | json_value, max_size=4) | json_value, "to": json_value}
        )
        one_move = st.builds(lambda n: {"actions": [n]}, names)
        gesture = st.builds(lambda c: {"meld": {"cards": [c], "to": None}}, cards)
        actions = (
            st.lists(names, min_size=1, max_size=3) | st.lists(names | json_value, max_size=70) | json_value
        )
        return one_move | one_move | gesture | _body({"actions": actions, "meld": meld | json_value})
    return _body({})  # /next: no keys of its own


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        ("GET", "/api/view/..%2Foptions", 404),  # found by the fuzz: Starlette's plain-text 404
        ("GET", "/api/nothing", 404),
        ("DELETE", "/api/play", 405),
        ("GET", "/api/play/x/actions", 405),
    ],
)
def test_an_unknown_api_path_or_method_answers_a_json_sentence(method: str, url: str, status: int) -> None:
    """Regression: a path under /api that no route takes answered text/plain, not the API's JSON."""
    r = TestClient(create_app()).request(method, url)
    assert r.status_code == status and r.headers["content-type"] == "application/json"
    assert len(r.json()["error"].split()) >= 3
