"""``kanaszta serve`` under abuse and load (findings of the soak run): the listening socket
sets TCP_NODELAY for every connection it accepts, a full server never drops a game in
progress to make room for a new one, and hostile bodies and query strings are refused
with 4xx and a sentence, never a 500."""

from __future__ import annotations

import asyncio
import random
import socket
import warnings

import pytest

pytest.importorskip("starlette", reason="kanaszta serve needs the web extra: pip install -e '.[web]'")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 for its test client; httpx works
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient

from kanaszta_env.cli import main
from webapp.app import create_app
from webapp.cli import listening_socket
from webapp.sessions import SessionStore, StoreFull


def _accepted_nodelay(listener: socket.socket) -> int:
    """TCP_NODELAY of a connection accepted by ``listener``."""
    listener.listen()
    with socket.create_connection(listener.getsockname()[:2]) as _client:
        accepted, _ = listener.accept()
        with accepted:
            return accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_accepted_connections_have_tcp_nodelay() -> None:
    with listening_socket("127.0.0.1", 0) as listener:
        assert listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        assert _accepted_nodelay(listener) == 1
    with socket.socket() as plain:  # a plain socket's connections do not: the check can fail
        plain.bind(("127.0.0.1", 0))
        assert _accepted_nodelay(plain) == 0


def test_kanaszta_serve_listens_on_a_nodelay_socket(monkeypatch, capsys) -> None:
    import uvicorn

    seen: list[socket.socket] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: seen.extend(sockets or []))
    assert main(["serve", "--port", "0"]) == 0
    assert len(seen) == 1 and _accepted_nodelay(seen[0]) == 1
    seen[0].close()
    assert "open http://127.0.0.1:" in capsys.readouterr().out


def _play_to_the_end(client: TestClient, sid: str, state: dict) -> None:
    rng = random.Random(0)
    while not state["finished"]:
        r = client.post(f"/api/play/{sid}/actions", json={"actions": [rng.choice(state["legal"]["names"])]})
        state = r.json()["state"]


def test_a_full_server_refuses_a_new_game_rather_than_drop_one_in_progress() -> None:
    c = TestClient(create_app(max_sessions=2))
    doc = {"opponents": ["random"], "max_turns": 2}
    first, second = (c.post("/api/play", json=doc | {"seed": s}).json() for s in (1, 2))
    refused = c.post("/api/play", json=doc | {"seed": 3})
    assert refused.status_code == 503 and "games in progress" in refused.json()["error"]
    assert refused.headers["retry-after"]
    assert c.get(f"/api/play/{first['session']}").status_code == 200  # both games are still there
    assert c.get(f"/api/play/{second['session']}").status_code == 200
    _play_to_the_end(c, second["session"], second["state"])
    third = c.post("/api/play", json=doc | {"seed": 3})
    assert third.status_code == 200  # the finished game made room
    assert c.get(f"/api/play/{second['session']}").status_code == 404
    assert c.get(f"/api/play/{first['session']}").status_code == 200


class _Session:
    def __init__(self, finished: bool) -> None:
        self.finished = finished


def test_the_store_drops_the_least_recently_used_finished_session() -> None:
    store: SessionStore[_Session] = SessionStore(max_sessions=3)
    a, b, c = (store.add(_Session(f)) for f in (True, False, True))
    store.get(a)  # a is now used more recently than c
    store.add(_Session(False))
    assert store.get(a) and store.get(b)
    with pytest.raises(KeyError):
        store.get(c)
    store.get(a).finished = False
    with pytest.raises(StoreFull):
        store.add(_Session(False))
    assert len(store) == 3


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_a_deeply_nested_body_is_refused_with_400(client: TestClient, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    depth = 40_000 // (len(opener) + 1) + 1
    body = (opener * depth + "1" + closer * depth).encode()
    assert len(body) >= 40_000
    sid = client.post("/api/play", json={"opponents": ["random"]}).json()["session"]
    for path in ("/api/play", f"/api/play/{sid}/actions", "/api/view"):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "nested too deeply" in r.json()["error"], path


@pytest.mark.parametrize("seat", ["9" * 5000, "1" + "0" * 4999, "²", "-1", "1.0", "00001"])
def test_a_seat_that_is_no_seat_number_is_refused_with_400(client: TestClient, seat: str) -> None:
    doc = {"mode": "watch", "agents": ["random", "random"], "seed": 1}
    sid = client.post("/api/view", json=doc).json()["session"]
    r = client.get(f"/api/view/{sid}", params={"seat": seat})
    assert r.status_code == 400 and "seat must be 'all' or 0 to 1" in r.json()["error"]
    assert len(r.json()["error"]) < 120  # the bad value is quoted cut short
    step = client.post(f"/api/view/{sid}/step", params={"seat": seat}, json={"count": 1})
    assert step.status_code == 400
    assert client.get(f"/api/view/{sid}", params={"seat": "1"}).status_code == 200


def test_a_huge_number_in_a_body_is_refused_with_400(client: TestClient) -> None:
    body = b'{"seed": ' + b"7" * 5000 + b"}"
    r = client.post("/api/play", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]


def test_a_content_length_of_thousands_of_digits_is_refused_with_413() -> None:
    """Sent straight to the ASGI application (HTTP clients fix the header themselves)."""
    sent: list[dict] = []
    headers = [(b"content-length", b"9" * 5000), (b"content-type", b"application/json")]
    scope = {"type": "http", "method": "POST", "path": "/api/play", "raw_path": b"/api/play",
             "headers": headers, "query_string": b"", "http_version": "1.1", "scheme": "http",
             "server": ("test", 80), "client": ("test", 1), "root_path": ""}  # fmt: skip

    async def receive() -> dict:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(create_app()(scope, receive, send))
    assert sent[0]["status"] == 413
    assert b"larger than" in b"".join(m.get("body", b"") for m in sent[1:])
