"""``kanaszta serve``: start the browser app on a local address and print it.

    kanaszta serve                                  http://127.0.0.1:8000/
    kanaszta serve --port 8080 --runs-dir runs --records-dir results

The server binds 127.0.0.1 unless ``--host`` says otherwise; ``--port 0``
takes a free port. The address is printed once the server accepts connections
(:func:`make_server`), so it can be opened at once. The listening socket has
TCP_NODELAY set, which the connections it accepts inherit: an answer is sent at
once, not held back for a delayed acknowledgement (:func:`listening_socket`).
Checkpoints are offered (and loaded) only from ``--runs-dir``, record files only
from ``--records-dir``.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import Any

from kanaszta_env.cli import UsageError, bounded_int, non_negative_int, positive_int


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``serve`` subcommand."""
    s = subparsers.add_parser(
        "serve",
        help="play, watch and replay in the browser (a local web app)",
        description="Start the web app: play against bots and checkpoints, watch agents, replay records.",
    )
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default: this machine only)")
    s.add_argument("--port", type=non_negative_int, default=8000, help="port (0: any free port)")
    s.add_argument("--runs-dir", default=None, help="folder whose .zip checkpoints may be opponents")
    s.add_argument("--records-dir", default=None, help="folder whose records (.json, .jsonl) may be replayed")
    s.add_argument("--max-sessions", type=positive_int, default=200,
                   help="games kept at once (beyond, a finished one makes room)")  # fmt: skip
    s.add_argument("--idle-minutes", type=bounded_int(1), default=60, help="drop a game idle this long")
    s.set_defaults(command="serve", func=run)


def _folder(path: str | None, flag: str) -> Path | None:
    if path is None:
        return None
    folder = Path(path)
    if not folder.is_dir():
        raise UsageError(f"{flag} {path}: no such folder")
    return folder


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (IPv6 if ``host`` has a colon), with
    SO_REUSEADDR and TCP_NODELAY set (accepted connections inherit TCP_NODELAY)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    return sock


def make_server(app: Any, url: str) -> Any:
    """The uvicorn server of ``app`` as ``kanaszta serve`` runs it. It prints ``url``
    once it is listening (uvicorn's startup complete: printed earlier, the address could
    refuse a connection); a shutdown waits 2 s for the requests still running, which
    are then answered 503 (:func:`webapp.app.create_app`)."""
    import uvicorn

    class Server(uvicorn.Server):
        address = url

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                print(f"kanaszta serve: open {self.address} (Ctrl-C stops)", flush=True)

    return Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    try:
        import uvicorn  # noqa: F401  (make_server's)

        from .app import create_app
    except ImportError as error:
        raise UsageError(f"kanaszta serve needs the web extra (pip install -e '.[web]'): {error}") from None
    if args.port > 65535:
        raise UsageError(f"--port must be at most 65535, got {args.port}")
    app = create_app(_folder(args.runs_dir, "--runs-dir"), _folder(args.records_dir, "--records-dir"),
                     args.max_sessions, args.idle_minutes * 60.0)  # fmt: skip
    sock = listening_socket(args.host, args.port)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if sock.family == socket.AF_INET6 else args.host
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: bound to {args.host}: other machines can reach this server", file=sys.stderr)
    make_server(app, f"http://{shown}:{port}/").run(sockets=[sock])
    return 0
