"""What each API route does, as plain methods (``doc`` is the request's JSON
body, ``query`` its query parameters); :mod:`webapp.app` wires them to paths.

Every method runs in a worker thread; one that touches a game holds the
game's session lock for the whole of its work.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agents.records import GameRecord, parse_records, rules_to_dict

from . import warm
from .choices import (
    MAX_SEED,
    TARGETS,
    ChoiceError,
    Choices,
    games_offered,
    integer,
    rules_from_request,
    shown,
)
from .gesture import gesture_actions
from .play import MAX_ACTIONS, PlaySession
from .sessions import SessionStore
from .viewer import ViewerSession
from .warm import Warmth

MAX_STEP = 1000
#: the longest ``?seat=`` read as a number (a seat is below 10)
MAX_SEAT_DIGITS = 3


class ApiError(Exception):
    """An error answer: HTTP ``status`` and a message (and extra JSON fields)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def _seed(doc: dict[str, Any]) -> int:
    if doc.get("seed") is None:
        return secrets.randbelow(MAX_SEED)
    return integer(doc, "seed", 0, 0, MAX_SEED)


def _seat_param(query: Mapping[str, str], players: int) -> int | None:
    """``?seat=all`` (every hand open, the default) or a seat number."""
    seat = query.get("seat", "all")
    if seat == "all":
        return None
    number = seat.isascii() and seat.isdigit() and len(seat) <= MAX_SEAT_DIGITS
    if not number or int(seat) >= players:
        raise ChoiceError(f"seat must be 'all' or 0 to {players - 1}, got {shown(seat)}")
    return int(seat)


@dataclass
class Api:
    """The routes' work over the server's choices and its two session stores."""

    choices: Choices
    plays: SessionStore[PlaySession]
    views: SessionStore[ViewerSession]
    warmth: Warmth = field(default_factory=lambda: warm.WARMTH)

    def options(self, doc: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
        """What the forms offer; per game also whether its kernels have run in this
        process (``warm``) and the bots whose kernels have (``warm_bots``)."""
        games = games_offered()
        for game in games:
            game["warm"] = self.warmth.warm(game["id"])
            game["warm_bots"] = self.warmth.warm_bots(game["id"])
        return {
            "games": games,
            "agents": self.choices.agents_offered(),
            "records": self.choices.records_offered(),
            "targets": list(TARGETS),
            "max_actions": MAX_ACTIONS,
        }

    # --- playing ------------------------------------------------------------------------
    def new_play(self, doc: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
        """``{"game", "players", "seat", "opponents": [agent…], "episode", "target",
        "max_turns", "opening_minimum", "seed"}`` -> a new game."""
        rules = rules_from_request(doc)
        players = rules.num_players
        seat = integer(doc, "seat", 0, 0, players - 1)
        specs = doc.get("opponents", ["heuristic"] * (players - 1))
        if not isinstance(specs, list) or len(specs) != players - 1:
            raise ChoiceError(f"{players} players need a list of {players - 1} opponents")
        seed = _seed(doc)
        others = iter(self.choices.agent(spec, rules, seed + q) for q, spec in enumerate(specs))
        agents = [None if q == seat else next(others) for q in range(players)]
        session = PlaySession(rules, agents, seat, seed)
        session.specs = list(specs)
        self._mark(session)
        sid = self.plays.add(session)
        with session.lock:
            return {"session": sid, "state": session.state()}

    def _mark(self, session: PlaySession) -> None:
        """The game's kernels have run, and the bots' once one of them has moved."""
        moved = any(m != session.seat for m in session.progress.movers)
        self.warmth.mark(session.rules.variant, session.specs if moved else ())

    def play_state(self, doc: dict[str, Any], query: Mapping[str, str], sid: str) -> dict[str, Any]:
        session = self.plays.get(sid)
        with session.lock:
            return session.state()

    def play_actions(self, doc: dict[str, Any], query: Mapping[str, str], sid: str) -> dict[str, Any]:
        """Play ``doc["actions"]`` (all or none; the error names the first that cannot be
        played), or the gesture ``doc["meld"]``: ``{"cards": [hand cards], "to": meld id or
        null}`` (:func:`webapp.gesture.gesture_actions`)."""
        session = self.plays.get(sid)
        with session.lock:
            if "meld" in doc:
                gesture = doc["meld"] if isinstance(doc["meld"], dict) else {}
                session.require_turn()
                names = gesture_actions(session.games, gesture.get("cards"), gesture.get("to"))
            else:
                names = doc.get("actions")
            played = session.play(names)
            self._mark(session)
            return {"played": played, "state": session.state()}

    def play_next(self, doc: dict[str, Any], query: Mapping[str, str], sid: str) -> dict[str, Any]:
        session = self.plays.get(sid)
        with session.lock:
            session.next_hand()
            self._mark(session)
            return {"state": session.state()}

    def play_record(self, doc: dict[str, Any], query: Mapping[str, str], sid: str) -> dict[str, Any]:
        session = self.plays.get(sid)
        with session.lock:
            return session.record().to_dict()

    # --- watching and replaying ---------------------------------------------------------------
    def new_view(self, doc: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
        """``{"mode": "watch", "agents": [one per seat], game options…}``, or
        ``{"mode": "replay", "record": {…}}`` or ``{"mode": "replay", "file": path, "game": i}``."""
        mode = doc.get("mode")
        if mode == "watch":
            rules = rules_from_request(doc)
            specs = doc.get("agents")
            if not isinstance(specs, list) or len(specs) != rules.num_players:
                raise ChoiceError(f"{rules.num_players} players need a list of {rules.num_players} agents")
            seed = _seed(doc)
            agents = [self.choices.agent(spec, rules, seed + q) for q, spec in enumerate(specs)]
            names = [f"{a.name} (seat {q})" for q, a in enumerate(agents)]
            record = GameRecord(rules_to_dict(rules), [], seed=seed, players=names)
            session = ViewerSession(record, agents)
            self.warmth.mark(rules.variant)  # the bots' kernels run on the first steps
        elif mode == "replay":
            session = ViewerSession(self._record(doc))
            self.warmth.mark(session.rules.variant)
        else:
            raise ChoiceError(f"mode must be 'watch' or 'replay', got {mode!r}")
        sid = self.views.add(session)
        with session.lock:
            return {"session": sid, "state": session.state(None)}

    def _record(self, doc: dict[str, Any]) -> GameRecord:
        if "file" in doc:
            path = self.choices.record_path(doc["file"])
            try:
                docs = parse_records(path.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError) as error:
                raise ChoiceError(f"{doc['file']} {error}") from None
            game = integer(doc, "game", 0, 0, max(len(docs) - 1, 0))
            raw = docs[game] if docs else None
        else:
            raw = doc.get("record")
        if not isinstance(raw, dict):
            raise ChoiceError("give a record (a JSON object) or a record file of the records folder")
        try:
            return GameRecord.from_dict(raw)
        except (TypeError, ValueError) as error:
            raise ChoiceError(f"not a valid game record: {error}") from None

    def view_state(self, doc: dict[str, Any], query: Mapping[str, str], sid: str) -> dict[str, Any]:
        session = self.views.get(sid)
        with session.lock:
            return session.state(_seat_param(query, session.rules.num_players))

    def view_step(self, doc: dict[str, Any], query: Mapping[str, str], sid: str) -> dict[str, Any]:
        """``{"count": ±n, "unit": "action" | "turn"}`` or ``{"goto": k}``."""
        session = self.views.get(sid)
        with session.lock:
            if "goto" in doc:
                session.goto(integer(doc, "goto", 0, 0, max(len(session.actions), 0)))
            else:
                unit = doc.get("unit", "action")
                if unit not in ("action", "turn"):
                    raise ChoiceError(f"unit must be 'action' or 'turn', got {unit!r}")
                session.step(integer(doc, "count", 1, -MAX_STEP, MAX_STEP), unit)
            return {"state": session.state(_seat_param(query, session.rules.num_players))}
