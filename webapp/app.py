"""The ASGI application of ``kanaszta serve``: a JSON API and the page that uses it.

Routes (every body and answer is JSON; an error is ``{"error": "…"}`` with a
4xx status and changes nothing)::

    GET  /                          the page (static files under /static, no CDN)
    GET  /api/options               games (each with ``warm``, ``warm_bots``: webapp/warm.py),
                                    agents, checkpoints and record files on offer
    POST /api/play                  new game against agents   -> {"session", "state"}
    GET  /api/play/{id}             the table from the person's seat, legal moves, narration
    POST /api/play/{id}/actions     {"actions": [names…]}: played all or none, then the bots
    POST /api/play/{id}/next        go on after a hand's scoring
    GET  /api/play/{id}/record      the game record (agents/records.py)
    POST /api/view                  watch agents ({"mode": "watch"}) or replay a record
    GET  /api/view/{id}?seat=all|N  the position at the cursor
    POST /api/view/{id}/step        {"count": ±n, "unit": "action"|"turn"} or {"goto": k}

Bodies are read up to a bound (:data:`MAX_BODY`, records :data:`MAX_RECORD_BODY`)
and refused with 413 beyond it; a body nested deeper than JSON's parser goes, or one
the client stopped sending (it went away), is refused with 400. A new game when the
server holds its most games, all in progress, is refused with 503
(:class:`~webapp.sessions.StoreFull`). A path under ``/api`` that does not exist, or a
method it does not take, is answered 404 or 405 with a JSON error too, and a request
still running when a shutdown's grace period ends with 503. Game work runs in worker
threads, each game under its session's lock.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .choices import ChoiceError, Choices
from .play import ActionError
from .routes import Api, ApiError
from .sessions import SessionStore, StoreFull, UnknownSession

STATIC = Path(__file__).resolve().parent / "static"
#: the largest request body (bytes); a record upload may be larger
MAX_BODY = 64 * 1024
MAX_RECORD_BODY = 2 * 1024 * 1024
#: headers of every answer: nothing is loaded from elsewhere, nothing is sniffed
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]
SHUTTING_DOWN = "the server is shutting down; the request was not completed"


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read up to ``limit`` bytes (413 beyond)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or len(declared) > 12 or int(declared) > limit):
        raise ApiError(413, f"the request body is larger than {limit} bytes")
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, f"the request body is larger than {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:  # nobody reads the answer; it keeps the server's log quiet
        raise ApiError(400, "the client went away before sending the whole body") from None
    try:
        doc = json.loads(b"".join(chunks) or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "the request body is not valid JSON") from None
    except RecursionError:
        raise ApiError(400, "the request body is nested too deeply to be read as JSON") from None
    if not isinstance(doc, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return doc


def _handler(api: Api, method: Callable[..., Any], body_limit: int | None) -> Callable[[Request], Any]:
    """An endpoint that reads the body (if any), runs ``method`` in a worker
    thread and answers its result as JSON."""

    async def endpoint(request: Request) -> Response:
        doc = await read_json(request, body_limit) if body_limit is not None else {}
        params = dict(request.path_params)
        result = await run_in_threadpool(method, doc, request.query_params, **params)
        return JSONResponse(result)

    return endpoint


async def _api_error(_request: Request, error: Exception) -> Response:
    if isinstance(error, ApiError):
        return JSONResponse({"error": error.message, **error.extra}, status_code=error.status)
    if isinstance(error, UnknownSession):
        return JSONResponse({"error": "unknown or expired session"}, status_code=404)
    if isinstance(error, ActionError):
        action = error.action if isinstance(error.action, str | None) else None
        return JSONResponse({"error": str(error), "index": error.index, "action": action}, 400)
    if isinstance(error, StoreFull):
        return JSONResponse({"error": str(error)}, status_code=503, headers={"retry-after": "60"})
    return JSONResponse({"error": str(error)}, status_code=400)  # ChoiceError


async def _http_error(request: Request, error: Exception) -> Response:
    """Starlette's own 4xx (no such path, a method the path does not take) as the
    API's JSON sentence under ``/api``; the plain text elsewhere (the page's files)."""
    assert isinstance(error, HTTPException)
    if not request.url.path.startswith("/api"):
        return PlainTextResponse(str(error.detail), error.status_code, headers=error.headers)
    what = {404: "no such API path", 405: f"{request.method} is not allowed on this path"}
    message = what.get(error.status_code, str(error.detail))
    return JSONResponse({"error": message}, error.status_code, headers=error.headers)


def _with_headers(app: Any) -> Any:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every answer, and answering
    503 with a JSON sentence a request cancelled before its answer began: uvicorn
    cancels the requests still running when a shutdown's grace period ends."""

    async def wrapped(scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: dict) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        try:
            await app(scope, receive, send_with_headers)
        except asyncio.CancelledError:  # not raised on: uvicorn would log it and answer a text 500
            if not started:
                answer = JSONResponse({"error": SHUTTING_DOWN}, 503, headers={"connection": "close"})
                await answer(scope, receive, send_with_headers)

    return wrapped


def create_app(
    runs_dir: str | Path | None = None,
    records_dir: str | Path | None = None,
    max_sessions: int = 200,
    idle_seconds: float = 3600.0,
) -> Any:
    """The ASGI application. Checkpoints load only from ``runs_dir`` and record
    files only from ``records_dir`` (none when not given)."""
    choices = Choices(
        runs_dir=Path(runs_dir) if runs_dir is not None else None,
        records_dir=Path(records_dir) if records_dir is not None else None,
    )
    api = Api(choices, SessionStore(max_sessions, idle_seconds), SessionStore(max_sessions, idle_seconds))

    def route(path: str, method: Callable[..., Any], verb: str = "GET", limit: int | None = None) -> Route:
        return Route(path, _handler(api, method, limit if verb == "POST" else None), methods=[verb])

    async def index(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    routes = [
        Route("/", index),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        route("/api/options", api.options),
        route("/api/play", api.new_play, "POST", MAX_BODY),
        route("/api/play/{sid}", api.play_state),
        route("/api/play/{sid}/actions", api.play_actions, "POST", MAX_BODY),
        route("/api/play/{sid}/next", api.play_next, "POST", MAX_BODY),
        route("/api/play/{sid}/record", api.play_record),
        route("/api/view", api.new_view, "POST", MAX_RECORD_BODY),
        route("/api/view/{sid}", api.view_state),
        route("/api/view/{sid}/step", api.view_step, "POST", MAX_BODY),
    ]
    handlers = dict.fromkeys((ApiError, UnknownSession, ActionError, ChoiceError, StoreFull), _api_error)
    handlers[HTTPException] = _http_error
    app = Starlette(routes=routes, exception_handlers=handlers)  # type: ignore[arg-type]
    app.state.api = api
    return _with_headers(app)
