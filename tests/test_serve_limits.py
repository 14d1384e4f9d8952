"""``kanaszta serve`` under abuse and load (findings of the soak runs): the listening socket
sets TCP_NODELAY for every connection it accepts, the address is printed once it accepts
them, a full server never drops a game in progress to make room for a new one, hostile
bodies and query strings are refused with 4xx and a sentence, never a 500, a client that
goes away mid-body leaves no traceback, and a request cut off by a shutdown (SIGTERM) is
answered 503 in JSON."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import random
import signal
import socket
import sys
import threading
import tracemalloc
import warnings
from collections.abc import Callable
from types import SimpleNamespace

import pytest

pytest.importorskip("starlette", reason="kanaszta serve needs the web extra: pip install -e '.[web]'")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 for its test client; httpx works
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient
import httpx

from kanaszta_env.cli import main
from webapp.app import create_app
from webapp.choices import Choices
from webapp.cli import listening_socket
from webapp.routes import Api
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


def test_kanaszta_serve_listens_on_a_nodelay_socket(monkeypatch) -> None:
    import uvicorn

    seen: list[tuple[uvicorn.Server, socket.socket]] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: seen.append((self, *sockets)))
    assert main(["serve", "--port", "0"]) == 0
    (server, sock), port = seen[0], seen[0][1].getsockname()[1]
    assert len(seen) == 1 and _accepted_nodelay(sock) == 1
    sock.close()
    assert server.address == f"http://127.0.0.1:{port}/"


class _Stdout(io.StringIO):  # a StringIO answers uvicorn's log formatter's isatty(): False
    """Standard output that runs ``on_address(url)`` in the printing thread as soon as
    ``kanaszta serve`` prints its address."""

    def __init__(self, on_address: Callable[[str], None]) -> None:
        super().__init__()
        self.on_address = on_address

    def write(self, text: str) -> int:
        if "open http://" in text:
            self.on_address(text.split("open ")[1].split()[0])
        return len(text)


def _serve(monkeypatch, client: Callable[[str], None], on_address=None) -> list[logging.LogRecord]:
    """``kanaszta serve --port 0`` in this thread. Once it prints its address, ``client(url)``
    runs in another thread, then sends the process a SIGTERM (as ``kill`` does), which
    stops the server. The server's log records are returned."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    def started(url: str) -> None:
        if on_address is not None:
            on_address(url)
        logging.getLogger("uvicorn.error").addHandler(keep)  # after uvicorn configured its logging

        def run() -> None:
            try:
                client(url)
            finally:
                os.kill(os.getpid(), signal.SIGTERM)
                while not stopped.wait(0.5):  # again, should it come before uvicorn takes it
                    os.kill(os.getpid(), signal.SIGTERM)

        threading.Thread(target=run, daemon=True).start()

    stopped, keep = threading.Event(), Keep()
    monkeypatch.setattr(sys, "stdout", _Stdout(started))
    # uvicorn takes SIGTERM while it serves and raises it again after: let that one pass
    previous = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        assert main(["serve", "--port", "0"]) == 0
    finally:
        stopped.set()
        signal.signal(signal.SIGTERM, previous)
        logging.getLogger("uvicorn.error").removeHandler(keep)
    return records


def _tracebacks(records: list[logging.LogRecord]) -> list[str]:
    return [r.getMessage() for r in records if r.exc_info]


def test_the_address_is_printed_once_the_server_accepts_connections(monkeypatch) -> None:
    connected: list[bool] = []

    def try_to_connect(url: str) -> None:  # at once, before the server goes on
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        try:
            socket.create_connection((host, int(port)), timeout=2).close()
            connected.append(True)
        except OSError:
            connected.append(False)

    records = _serve(monkeypatch, lambda url: None, on_address=try_to_connect)
    assert connected == [True]
    assert not _tracebacks(records)


def test_a_client_gone_mid_body_is_dropped_quietly(monkeypatch) -> None:
    """A body shorter than its Content-Length, then the connection closed: no traceback
    in the server's log (and the next request is served)."""
    answers: list[int] = []

    def client(url: str) -> None:
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        for path in ("/api/play", "/api/view"):
            with socket.create_connection((host, int(port))) as sock:
                head = f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                sock.sendall(head.encode() + b'content-length: 100\r\n\r\n{"seed": ')
        answers.append(httpx.get(url + "api/options", timeout=30).status_code)

    records = _serve(monkeypatch, client)
    assert answers == [200]
    assert not _tracebacks(records), _tracebacks(records)
    assert not [r for r in records if "ClientDisconnect" in r.getMessage()]


def test_a_request_cut_off_by_a_shutdown_is_answered_503_in_json(monkeypatch) -> None:
    """SIGTERM while a long watch step runs: once uvicorn's grace period ends, the step's
    request is answered 503 with a JSON sentence, not a text 500 with a traceback."""
    begun, release = threading.Event(), threading.Event()
    answers: list[httpx.Response] = []
    requests: list[threading.Thread] = []

    def long_step(self, doc, query, sid):  # a step of search bots can take this long
        begun.set()
        release.wait(60)
        return {"state": None}

    monkeypatch.setattr(Api, "view_step", long_step)

    def client(url: str) -> None:
        def post() -> None:
            answers.append(httpx.post(url + "api/view/x/step", json={"count": 1000}, timeout=60))

        requests.append(threading.Thread(target=post))
        requests[0].start()
        assert begun.wait(30)  # the step is being computed: now the SIGTERM

    try:
        records = _serve(monkeypatch, client)
        requests[0].join(30)
    finally:
        release.set()
    (answer,) = answers
    assert answer.status_code == 503 and answer.headers["content-type"] == "application/json"
    assert "shutting down" in answer.json()["error"]
    assert not _tracebacks(records), _tracebacks(records)


#: what a kept game may hold after its bots have moved (they held about 400 KiB: a
#: Díszített bot's 64-row seat-view buffer, Turkish kanasta's table of action names per game)
SESSION_KIB = 150


@pytest.mark.parametrize("game,players", [("2003-02", 2), ("pl", 4), ("tr", 4)])
def test_a_game_with_its_bots_holds_little_memory(game: str, players: int) -> None:
    """Memory allocated (tracemalloc) by games against heuristic bots played to a short
    hand's end, the bots having moved, per game kept."""
    api = Api(Choices(), SessionStore(), SessionStore())
    doc = {"game": game, "players": players, "opponents": ["heuristic"] * (players - 1), "max_turns": 4}

    def played(seed: int) -> object:
        sid, state = (new := api.new_play(doc | {"seed": seed}, {}))["session"], new["state"]
        rng = random.Random(seed)
        while not state["finished"]:
            state = api.play_actions({"actions": [rng.choice(state["legal"]["names"])]}, {}, sid)["state"]
        session = api.plays.get(sid)
        assert any(m != session.seat for m in session.progress.movers)  # the bots have moved
        return session

    played(0)  # the kernels, loaded once per process
    tracemalloc.start()
    try:
        kept = [played(seed) for seed in range(1, 4)]
        per_game = tracemalloc.get_traced_memory()[0] / len(kept) / 1024
    finally:
        tracemalloc.stop()
    assert per_game < SESSION_KIB, f"{per_game:.0f} KiB per game"


def test_a_full_server_refuses_a_new_game_rather_than_drop_one_in_progress() -> None:
    c = TestClient(create_app(max_sessions=2))
    doc = {"opponents": ["random"], "max_turns": 2}
    first, second = (c.post("/api/play", json=doc | {"seed": s}).json() for s in (1, 2))
    refused = c.post("/api/play", json=doc | {"seed": 3})
    assert refused.status_code == 503 and "games in progress" in refused.json()["error"]
    assert refused.headers["retry-after"]
    assert c.get(f"/api/play/{first['session']}").status_code == 200  # both games are still there
    assert c.get(f"/api/play/{second['session']}").status_code == 200
    state, rng = second["state"], random.Random(0)
    while not state["finished"]:
        doc = {"actions": [rng.choice(state["legal"]["names"])]}
        state = c.post(f"/api/play/{second['session']}/actions", json=doc).json()["state"]
    third = c.post("/api/play", json=doc | {"seed": 3})
    assert third.status_code == 200  # the finished game made room
    assert c.get(f"/api/play/{second['session']}").status_code == 404
    assert c.get(f"/api/play/{first['session']}").status_code == 200


def test_the_store_drops_the_least_recently_used_finished_session() -> None:
    store: SessionStore[SimpleNamespace] = SessionStore(max_sessions=3)
    a, b, c = (store.add(SimpleNamespace(finished=f)) for f in (True, False, True))
    store.get(a)  # a is now used more recently than c
    store.add(SimpleNamespace(finished=False))
    assert store.get(a) and store.get(b)
    with pytest.raises(KeyError):
        store.get(c)
    store.get(a).finished = False
    with pytest.raises(StoreFull):
        store.add(SimpleNamespace(finished=False))
    assert len(store) == 3


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[" * 20_001 + b"1" + b"]" * 20_001, "nested too deeply"),
        (b'{"a":' * 6_667 + b"1" + b"}" * 6_667, "nested too deeply"),
        (b'{"seed": ' + b"7" * 5000 + b"}", "JSON"),  # a huge number
    ],
    ids=["list", "object", "number"],
)
def test_a_deeply_nested_body_or_a_huge_number_is_refused_with_400(client, body: bytes, message: str) -> None:
    sid = client.post("/api/play", json={"opponents": ["random"]}).json()["session"]
    for path in ("/api/play", f"/api/play/{sid}/actions", "/api/view"):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and message in r.json()["error"], path


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
