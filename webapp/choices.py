"""What a browser may choose, checked: games, agents, checkpoints and record files.

Every choice arrives as untrusted JSON. Games are the rules presets the
engine has whose game draws a table here (:func:`kanaszta_env.games.all_games`,
capability ``webapp``: every game of the package has it, a user's game may not),
each with its own player counts, default table and target; agents are the bots by
their plain names (no options: a request cannot ask for a search of unbounded
size) or ``checkpoint:<path>`` relative to the configured runs folder; record
files are relative to the configured records folder. A path is resolved
(symbolic links too) and must stay inside its folder.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent
from agents.registry import BOT_NAMES, bot_names, make_agent
from kanaszta_env.games import game_of_preset, preset_names
from kanaszta_env.rules import Rules

CHECKPOINT_PREFIX = "checkpoint:"
#: most files listed from a folder (a huge runs folder is not walked to its end)
MAX_LISTED = 200
MAX_SEED = 2**31 - 1
MAX_TURNS_LIMIT = 400
#: targets offered in every game (besides the game's own default)
TARGETS = (1000, 2000, 3000, 5000, 10_000)
#: the game a request that names none plays: the package's default preset
DEFAULT_GAME = Rules().variant


class ChoiceError(ValueError):
    """A request asked for something that does not exist or is not allowed."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters (an error message quotes untrusted values)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def games_offered() -> list[dict[str, Any]]:
    """Every game whose table the web app draws: one entry per rules preset of the
    games with the ``webapp`` capability, with its player counts, the players of its
    usual table, the side of every seat at each count, its default target and the
    bots it has (computed once per set of presets)."""
    return [dict(entry) for entry in _offered(preset_names())]


@lru_cache(maxsize=8)
def _offered(presets: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
    out = []
    for preset in presets:
        game = game_of_preset(preset)
        if not game.has("webapp"):
            continue
        settings = game.presets[preset]
        table = settings.get("table_players", settings["default_players"])
        counts = game.player_counts(preset)
        out.append(
            {
                "id": preset,
                "title": f"{game.title} ({preset})",
                "players": list(counts),
                "default_players": table,
                "sides": {str(p): list(Rules(variant=preset, num_players=p).sides()) for p in counts},
                "target": game.default_target,
                "partnerships": game.partnerships,
                "bots": list(bot_names(Rules(variant=preset, num_players=table))),
            }
        )
    return tuple(out)


def inside(folder: Path | None, relative: object, suffixes: tuple[str, ...], what: str) -> Path:
    """The file ``relative`` inside ``folder``; ``ChoiceError`` if there is no such
    folder, the name escapes it, has another suffix or is not a file."""
    if folder is None:
        raise ChoiceError(f"no {what} folder is configured on this server")
    if not isinstance(relative, str) or not relative or len(relative) > 400 or "\x00" in relative:
        raise ChoiceError(f"a {what} is named by its path inside the {what} folder")
    root = folder.resolve()
    path = (root / relative).resolve()
    if not path.is_relative_to(root) or path == root:
        raise ChoiceError(f"{relative!r} is outside the {what} folder")
    if path.suffix not in suffixes or not path.is_file():
        raise ChoiceError(f"no {what} {relative!r} (expected a {' or '.join(suffixes)} file in the folder)")
    return path


def listed(folder: Path | None, suffixes: tuple[str, ...]) -> list[str]:
    """The files of ``folder`` (recursively) with one of ``suffixes``, as paths relative to it."""
    if folder is None or not folder.is_dir():
        return []
    root = folder.resolve()
    out = []
    for path in sorted(root.rglob("*")):
        if path.suffix in suffixes and path.is_file() and path.resolve().is_relative_to(root):
            out.append(path.relative_to(root).as_posix())
            if len(out) >= MAX_LISTED:
                break
    return out


class _SharedAgent(Agent):
    """A stateless checkpoint policy shared by sessions: calls are serialised."""

    def __init__(self, inner: Agent, lock: threading.Lock) -> None:
        self.inner, self.name, self._lock = inner, inner.name, lock

    def setup(self, rules: Rules) -> None:
        with self._lock:
            self.inner.setup(rules)

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        with self._lock:
            return self.inner.act(obs, mask, slots)


@dataclass
class Choices:
    """The server's configuration of what may be chosen, and its checkpoint cache."""

    runs_dir: Path | None = None
    records_dir: Path | None = None
    _checkpoints: dict[Path, _SharedAgent] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def agents_offered(self) -> list[str]:
        """Bot names and the checkpoints of the runs folder."""
        return list(BOT_NAMES) + [CHECKPOINT_PREFIX + p for p in listed(self.runs_dir, (".zip",))]

    def records_offered(self) -> list[str]:
        """Record files of the records folder."""
        return listed(self.records_dir, (".json", ".jsonl"))

    def agent(self, spec: object, rules: Rules, seed: int) -> Agent:
        """A new agent for one seat (a checkpoint's policy is loaded once and shared)."""
        if isinstance(spec, str) and spec in BOT_NAMES:
            try:
                return make_agent(spec, rules, seed=seed)
            except ValueError as error:  # the shipped ppo policy plays one game only
                raise ChoiceError(str(error)) from None
        if not isinstance(spec, str) or not spec.startswith(CHECKPOINT_PREFIX):
            raise ChoiceError(f"unknown agent {shown(spec)}: choose one of {list(BOT_NAMES)} or a checkpoint")
        path = inside(self.runs_dir, spec[len(CHECKPOINT_PREFIX) :], (".zip",), "checkpoint")
        with self._lock:
            if path not in self._checkpoints:
                self._checkpoints[path] = _SharedAgent(make_agent(str(path), rules), threading.Lock())
            agent = self._checkpoints[path]
        agent.setup(rules)
        return agent

    def record_path(self, relative: object) -> Path:
        """A record file of the records folder."""
        return inside(self.records_dir, relative, (".json", ".jsonl"), "record")


def integer(doc: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    """``doc[key]`` (or ``default``) as an int in ``low..high``; ``ChoiceError`` otherwise."""
    value = doc.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ChoiceError(f"{key} must be an integer from {low} to {high}, got {shown(value)}")
    return value


def rules_from_request(doc: dict[str, Any]) -> Rules:
    """The rules a create request asks for: ``game`` (a preset), ``players``,
    ``episode`` ("hand" or "game"), ``target``, ``max_turns``, ``opening_minimum``."""
    game = doc.get("game", DEFAULT_GAME)
    offered = {g["id"]: g for g in games_offered()}
    if not isinstance(game, str) or game not in offered:
        raise ChoiceError(f"unknown game {shown(game)}: choose one of {sorted(offered)}")
    counts = offered[game]["players"]
    players = integer(doc, "players", offered[game]["default_players"], min(counts), max(counts))
    if players not in counts:
        raise ChoiceError(f"players must be one of {counts} in {game}, got {players}")
    episode = doc.get("episode", "hand")
    if episode not in ("hand", "game"):
        raise ChoiceError(f"episode must be 'hand' or 'game', got {shown(episode)}")
    targets = sorted({*TARGETS, offered[game]["target"]})
    target = doc.get("target", offered[game]["target"])
    if isinstance(target, bool) or target not in targets:
        raise ChoiceError(f"target must be one of {targets}, got {shown(target)}")
    minimum = doc.get("opening_minimum")
    if minimum is not None and (isinstance(minimum, bool) or not isinstance(minimum, int)):
        raise ChoiceError(f"opening_minimum must be an integer or null, got {shown(minimum)}")
    max_turns = integer(doc, "max_turns", 200, 1, MAX_TURNS_LIMIT)
    try:
        return Rules(
            variant=game,
            num_players=players,
            episode=episode,
            target_score=target,
            max_turns=max_turns,
            opening_minimum=minimum,
        )
    except ValueError as error:  # the game's own checks (e.g. its opening minima) name the problem
        raise ChoiceError(str(error)) from None
