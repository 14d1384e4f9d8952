"""A person against bots in the browser: one game of any preset, the person in one seat.

The bots move on the server until it is the person's turn (or a hand ends,
which waits for "next hand" so that its scoring can be read). The person's
moves arrive as action names, or as a gesture (cards of his hand laid on a
meld, :mod:`webapp.gesture`); a request may carry several (melding the cards
selected in one gesture is a sequence of atomic actions). The sequence is
tried on a copy of the game first: every action must be legal, in the
person's own turn and the same hand, or nothing is played and the error names
the first one that is not and why (the game's words, :meth:`TerminalWords.why_illegal`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np

from agents.base import Agent, mover_action
from agents.human import seat_names, suggest
from agents.records import GameRecord, final_scores, make_record
from kanaszta_env import GameBatch, Rules

from .progress import Progress
from .table import legal_json, table_json

#: most actions in one request (a turn with every card melded one by one stays well below)
MAX_ACTIONS = 64


@lru_cache(maxsize=16)
def action_lookup(names: tuple[str, ...]) -> Mapping[str, int]:
    """Action ids by name in any case, shared by every game with these actions (a
    dict of Turkish kanasta's thousands of names is about 160 KiB)."""
    return MappingProxyType({n.lower(): a for a, n in enumerate(names)})


class ActionError(ValueError):
    """A move that cannot be played; ``index`` is its place in the request."""

    def __init__(self, message: str, index: int | None = None, action: object = None) -> None:
        super().__init__(message)
        self.index, self.action = index, action


class PlaySession:
    """One game: a person in ``seat``, ``agents`` in the other seats (``None`` at the person's)."""

    kind = "play"

    def __init__(self, rules: Rules, agents: Sequence[Agent | None], seat: int, seed: int, name: str = "you"):
        self.rules, self.agents, self.seat, self.seed = rules, list(agents), seat, seed
        self.specs: list[object] = []  # the agents as the request named them (webapp.warm)
        self.names = seat_names(rules, self.agents, name)
        for agent in self.agents:
            if agent is not None:
                agent.reset(rules.num_players)
        self.lock = threading.Lock()
        games = GameBatch(rules, 1)
        games.reset(seed=seed)
        self.lookup = action_lookup(tuple(games.action_names))
        self.progress = Progress(games, self.names, viewer=seat)
        self.hand_end: dict[str, Any] | None = None  # the scoring shown until "next hand"
        self.advance()

    @property
    def games(self) -> GameBatch:
        """The game (a batch of one)."""
        return self.progress.games

    @property
    def finished(self) -> bool:
        """Whether the game is over (its session may make room for another)."""
        return bool(self.games.done[0])

    def your_turn(self) -> bool:
        """Whether the game waits for the person's move."""
        g = self.games
        return not g.done[0] and self.hand_end is None and int(g.to_move[0]) == self.seat

    def advance(self) -> None:
        """Let the bots move until the person's turn, the end of a hand or of the game."""
        games = self.games
        while not games.done[0] and self.hand_end is None:
            agent = self.agents[int(games.to_move[0])]
            if agent is None:
                return
            self.hand_end = self.progress.apply(mover_action(agent, games))

    def require_turn(self) -> None:
        """:class:`ActionError` saying why the person cannot move now, if he cannot."""
        if not self.your_turn():
            over = "the game is over" if self.finished else "the hand is over: go on"
            raise ActionError("it is not your turn" if self.hand_end is None else over)

    def check(self, names: object) -> list[int]:
        """The action ids of a request's ``names``, each tried in turn on a copy of
        the game; :class:`ActionError` for the first one that cannot be played."""
        if not isinstance(names, list) or not names:
            raise ActionError("actions must be a non-empty list of action names")
        if len(names) > MAX_ACTIONS:
            raise ActionError(f"at most {MAX_ACTIONS} actions per request, got {len(names)}")
        self.require_turn()
        trial = self.games.copy()
        hand = int(trial.state.hand_number[0])
        ids = []
        for i, name in enumerate(names):
            if not isinstance(name, str):
                raise ActionError(f"action {i} is not a name: {str(name)[:40]!r}", i, name)
            if trial.done[0] or int(trial.state.hand_number[0]) != hand or int(trial.to_move[0]) != self.seat:
                raise ActionError(f"{name[:40]} comes after your turn ended (action {i})", i, name)
            a = self.lookup.get(name.lower())
            legal = trial.legal_mask()[0]
            if a is None:
                hint = suggest(name[:40], [int(x) for x in np.flatnonzero(legal)], trial.action_names)
                raise ActionError(f"unknown move {name[:40]!r}" + (f": {hint}" if hint else ""), i, name)
            if not legal[a]:
                why = self.progress.words.why_illegal(trial, a)
                raise ActionError(f"{trial.action_names[a]} is not legal now: {why}", i, name)
            trial.step(np.array([a]))
            ids.append(a)
        return ids

    def play(self, names: object) -> list[str]:
        """Play the actions ``names`` (all or none, see :meth:`check`), then the bots."""
        ids = self.check(names)
        for a in ids:
            end = self.progress.apply(a)
            if end is not None:
                self.hand_end = end
        self.advance()
        return [self.games.action_names[a] for a in ids]

    def next_hand(self) -> None:
        """Close the scoring of the hand just ended and go on."""
        if self.hand_end is None:
            raise ActionError("no hand has just ended")
        if self.games.done[0]:
            raise ActionError("the game is over")
        self.hand_end = None
        self.advance()

    def record(self) -> GameRecord:
        """The game so far as a record (:mod:`agents.records`)."""
        done = bool(self.games.done[0])
        return make_record(self.rules, self.progress.history, seed=self.seed, players=self.names,
                           scores=final_scores(self.games) if done else None)  # fmt: skip

    def state(self) -> dict[str, Any]:
        """What the person's browser shows: the table from his seat, his legal
        moves and what he needs to know before choosing when it is his turn, the
        narration and a hand's scoring."""
        games = self.games
        mine = self.your_turn()
        return {
            "kind": self.kind,
            "seat": self.seat,
            "rules": rules_json(self.rules, self.progress.words.rules_text()),
            "table": table_json(games, self.names, viewer=self.seat),
            "your_turn": mine,
            "legal": legal_json(games) if mine else None,
            "prompt": self.progress.prompt() if mine else [],
            "log": self.progress.log(),
            "hand_end": self.hand_end,
            "finished": bool(games.done[0]),
            "actions_played": len(self.progress.history),
        }


def rules_json(rules: Rules, text: str) -> dict[str, Any]:
    """The rules in force as the client shows them; ``text`` is the game's own line."""
    return {
        "game": rules.variant,
        "title": rules.spec.title,
        "text": text,
        "players": rules.num_players,
        "partnerships": bool(rules.partnerships),
        "sides": list(rules.sides()),
        "episode": rules.episode,
        "target": rules.target_score,
        "max_turns": rules.max_turns,
        "opening_minimum": rules.opening_minimum,
    }
