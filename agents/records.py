"""Game records: a game as its rules, its deal (a seed or a start position) and
the names of the actions taken, saved as JSON and replayed exactly.

Because every random event of a game follows from its seed (the core's
per-game random stream), the seed and the action names are the whole game;
a record started from a position (a resumed human game) keeps the position
document instead, whose ``rng`` field carries the stream on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from kanaszta_env import GameBatch, Rules, position as positions

FORMAT = "kanaszta-record/1"


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """The constructor arguments of ``rules`` as JSON-friendly values."""
    d = {k: v for k, v in asdict(rules).items() if not k.startswith("_")}
    if d["opening_schedule"] is not None:
        d["opening_schedule"] = [list(step) for step in d["opening_schedule"]]
    return d


def rules_from_dict(d: dict[str, Any]) -> Rules:
    """Inverse of :func:`rules_to_dict`."""
    d = dict(d)
    if d.get("opening_schedule") is not None and not isinstance(d["opening_schedule"], str):
        d["opening_schedule"] = tuple(tuple(step) for step in d["opening_schedule"])
    return Rules(**d)


@dataclass
class GameRecord:
    """One recorded game (one episode)."""

    rules: dict[str, Any]
    actions: list[str]
    seed: int | None = None
    start: dict[str, Any] | None = None  # a position document, when not dealt from a seed
    players: list[str] = field(default_factory=list)  # agent name per seat
    scores: list[int] | None = None  # the recorded hand scores (totals in game episodes) at the end
    format: str = FORMAT

    def __post_init__(self) -> None:
        if (self.seed is None) == (self.start is None):
            raise ValueError("a game record needs exactly one of seed and start")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        if d.get("format") != FORMAT:
            raise ValueError(f"not a game record of format {FORMAT!r}: {d.get('format')!r}")
        unknown = sorted(set(d) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"unknown key(s) {unknown} in game record")
        return cls(**d)

    def save(self, path: str | Path) -> None:
        """Write the record as JSON."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record written by :meth:`save`."""
        return cls.from_dict(json.loads(Path(path).read_text()))


def start_game(record: GameRecord) -> GameBatch:
    """A batch of one game at the record's start (dealt from the seed, or the position)."""
    if record.start is not None:
        return positions.load(record.start)
    games = GameBatch(rules_from_dict(record.rules), 1)
    games.reset(seed=int(record.seed))  # type: ignore[arg-type]
    return games


def final_scores(games: GameBatch) -> list[int]:
    """What a record stores as the result of game 0."""
    s = games.state
    scores = s.totals[0] if games.rules.episode == "game" else s.hand_scores[0]
    return [int(x) for x in scores]


def record_actions(record: GameRecord, games: GameBatch) -> Iterator[tuple[int, int]]:
    """``(i, action id)`` of the record's actions in the game's own names (any case), each
    checked when it is reached: ``games`` (stepped by the caller) must not have ended, and
    the name must be an action of its game; ``ValueError`` otherwise."""
    ids = {n.lower(): a for a, n in enumerate(games.action_names)}
    for i, name in enumerate(record.actions):
        if games.done[0]:
            raise ValueError(f"the game ended before action {i} ({name!r}) of the record")
        if not isinstance(name, str) or name.lower() not in ids:
            raise ValueError(
                f"unknown action name {name!r}: action {i} of the record is not one of "
                f"{games.rules.variant}'s actions"
            )
        yield i, ids[name.lower()]


def replay(record: GameRecord, check: bool = True) -> GameBatch:
    """Replay a record action by action (each must be legal) and return the
    final game. With ``check``, the game must end where the record ends and
    with the recorded scores; ``ValueError`` says what differs."""
    games = start_game(record)
    for _, action in record_actions(record, games):
        games.step(np.array([action]))
    if check:
        if not games.done[0]:
            raise ValueError(f"the game is not over after the record's {len(record.actions)} actions")
        if record.scores is not None and final_scores(games) != list(record.scores):
            raise ValueError(
                f"replayed scores {final_scores(games)} differ from the record's {record.scores}"
            )
    return games


def make_record(
    rules: Rules,
    action_ids: list[int],
    *,
    seed: int | None = None,
    start: dict[str, Any] | None = None,
    players: list[str] | None = None,
    scores: list[int] | None = None,
) -> GameRecord:
    """A record from action ids (as :func:`agents.base.play_batch` keeps them)."""
    return GameRecord(
        rules=rules_to_dict(rules),
        actions=[rules.game.action_names(rules)[int(a)] for a in action_ids],
        seed=None if seed is None else int(seed),
        start=start,
        players=list(players or []),
        scores=None if scores is None else [int(x) for x in scores],
    )


def save_jsonl(records: list[GameRecord], path: str | Path) -> None:
    """Many records, one JSON object per line (tournaments)."""
    with Path(path).open("w") as f:
        for rec in records:
            f.write(json.dumps(rec.to_dict()) + "\n")


def load_jsonl(path: str | Path) -> list[GameRecord]:
    """Records written by :func:`save_jsonl`."""
    with Path(path).open() as f:
        return [GameRecord.from_dict(json.loads(line)) for line in f if line.strip()]


def parse_records(text: str) -> list[dict[str, Any]]:
    """The record documents in the text of a record file: one JSON object, or
    JSON lines (:func:`save_jsonl`). ``ValueError`` says what is wrong
    ("is neither JSON nor JSON lines: …", "is not a game record: …"); the
    documents are not checked further (:meth:`GameRecord.from_dict` does)."""
    try:
        docs = [json.loads(text)]
    except json.JSONDecodeError:
        try:
            docs = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as error:
            raise ValueError(f"is neither JSON nor JSON lines: {error}") from None
    bad = [i for i, doc in enumerate(docs) if not isinstance(doc, dict)]
    if bad:
        raise ValueError(f"is not a game record: expected a JSON object (game {bad[0]})")
    return docs
