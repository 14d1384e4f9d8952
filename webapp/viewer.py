"""Watching agents play and replaying a game record, stepping forward and back.

A :class:`ViewerSession` holds a game as its deal and a list of actions with a
cursor: the position shown is the deal after the first ``cursor`` actions.
Stepping back replays from the deal (a hand is a few hundred actions, replayed
in milliseconds). A watched game has agents: stepping forward past the last
action lets the agent to move choose the next one, so the client sets the
speed by how often it steps. A replayed record has its actions only; each is
checked as it is replayed (a record whose action is illegal is refused when
opened, with the reason).

The position can be shown from one seat (the other hands hidden) or with every
hand open; the narration is always the spectator's (public information).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from agents.base import Agent, mover_action
from agents.records import GameRecord, rules_from_dict, start_game
from kanaszta_env import GameBatch

from .play import ActionError, action_lookup, rules_json
from .progress import Progress, copy_state
from .table import table_json

#: most actions a record may hold (a game to 10,000 is a few thousand)
MAX_RECORD_ACTIONS = 50_000


class ViewerSession:
    """A game to watch (``agents`` given) or to replay (``record``'s actions)."""

    def __init__(self, record: GameRecord, agents: Sequence[Agent] | None = None) -> None:
        self.kind = "replay" if agents is None else "watch"
        try:
            self.rules = rules_from_dict(record.rules)
            self.start = start_game(record)
            if not isinstance(record.actions, list) or len(record.actions) > MAX_RECORD_ACTIONS:
                raise ValueError(f"the actions must be a list of at most {MAX_RECORD_ACTIONS} names")
            self.action_names = self.start.action_names
            lookup = action_lookup(tuple(self.action_names))  # any case, as records.py
            self.actions = [_action_id(lookup, k, name) for k, name in enumerate(record.actions)]
        except (TypeError, ValueError, KeyError) as error:
            raise ActionError(f"not a valid game record: {error}") from None
        if self.start.rules != self.rules:
            raise ActionError("not a valid game record: its rules and its start position disagree")
        players = self.rules.num_players
        names = list(record.players) if len(record.players) == players else []
        self.names = [str(n)[:60] for n in names] or [f"seat {q}" for q in range(players)]
        # the record is kept without what an upload may pad (names cut, odd scores dropped)
        scores = record.scores if _small_ints(record.scores, players) else None
        self.record = replace(record, actions=[], players=list(self.names), scores=scores)
        self.agents = list(agents) if agents is not None else None
        if self.agents is not None:
            for agent in self.agents:
                agent.reset(players)
        self.lock = threading.Lock()
        self.hand_ends: dict[int, dict[str, Any]] = {}
        self.progress = self._fresh()
        if self.agents is None:  # every action of a record is checked once, when it is opened
            self.goto(len(self.actions))
            self.progress = self._fresh()

    @property
    def cursor(self) -> int:
        """How many actions of the game the position shown has played."""
        return len(self.progress.history)

    @property
    def finished(self) -> bool:
        """Whether the position shown is the end of the game (its session may make room)."""
        return bool(self.progress.games.done[0])

    def _fresh(self) -> Progress:
        games = GameBatch(self.rules, 1)
        games.state = copy_state(self.start.state)  # the setter keeps the arrays it is given
        return Progress(games, self.names, viewer=None)

    def _forward(self) -> bool:
        """One action forward (an agent's choice past the end of a watched game);
        False at the end."""
        games = self.progress.games
        if games.done[0]:
            return False
        k = self.cursor
        if k == len(self.actions):
            if self.agents is None:
                return False
            self.actions.append(mover_action(self.agents[int(games.to_move[0])], games))
        a = self.actions[k]
        if not games.legal_mask()[0, a]:
            raise ActionError(f"action {k} of the record ({self.action_names[a]}) is illegal in its position")
        end = self.progress.apply(a)
        if end is not None:
            self.hand_ends[k + 1] = end
        return True

    def goto(self, k: int) -> None:
        """Show the position after ``k`` actions (the nearest one that exists)."""
        if k < self.cursor:
            self.progress = self._fresh()
        while self.cursor < k and self._forward():
            pass

    def step(self, count: int, unit: str) -> None:
        """``count`` actions or turns forward (negative: back)."""
        if unit == "action":
            self.goto(max(self.cursor + count, 0))
            return
        for _ in range(abs(count)):
            if count > 0:
                self._turn_forward()
            else:
                self.goto(self._turn_start(self.cursor - 1))

    def _turn_forward(self) -> None:
        """Play to the end of the turn being played (the mover changes or the hand ends)."""
        games = self.progress.games
        if games.done[0]:
            return
        mover, hand = int(games.to_move[0]), int(games.state.hand_number[0])
        while self._forward():
            if games.done[0] or int(games.to_move[0]) != mover or int(games.state.hand_number[0]) != hand:
                return

    def _turn_start(self, k: int) -> int:
        """The first action of the turn that action ``k`` belongs to."""
        movers = self.progress.movers
        if k <= 0:
            return 0
        while k > 0 and movers[k - 1] == movers[k] and k not in self.hand_ends:
            k -= 1
        return k

    def state(self, seat: int | None) -> dict[str, Any]:
        """The position at the cursor, from ``seat`` (``None``: every hand open)."""
        games = self.progress.games
        last = self.progress.history[-1] if self.progress.history else None
        return {
            "kind": self.kind,
            "rules": rules_json(self.rules, self.progress.words.rules_text()),
            "table": table_json(games, self.names, viewer=seat),
            "cursor": self.cursor,
            "length": len(self.actions),
            "open_ended": self.agents is not None and not games.done[0],
            "last_action": self.action_names[last] if last is not None else None,
            "log": self.progress.log(),
            "hand_end": self.hand_ends.get(self.cursor),
            "finished": bool(games.done[0]),
        }


def _action_id(lookup: Mapping[str, int], k: int, name: object) -> int:
    """The id of action ``k`` of a record, named in its game's names; ``ValueError`` if none."""
    if isinstance(name, str) and name.lower() in lookup:
        return lookup[name.lower()]
    raise ValueError(f"action {k} ({str(name)[:40]!r}) is not one of the game's actions")


def _small_ints(values: object, players: int) -> bool:
    """Whether ``values`` is a list of at most ``players`` plain integers of bounded size."""
    return (
        isinstance(values, list)
        and len(values) <= players
        and all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10**9 for v in values)
    )
