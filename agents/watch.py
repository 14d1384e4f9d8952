"""Watching games in the terminal: bots playing a hand (``kanaszta watch``) and a
recorded game played back (``kanaszta replay``).

Both tell the game with the words of the terminal game (the game's
:class:`~agents.human.TerminalWords` from a spectator's seat: Díszített kanaszta's narration,
a turn per line from public information; the other games' moves by name) and show the
table from a spectator's seat (every hand open, :func:`kanaszta_env.envs.render.render_table`).
``watch`` pauses ``speed`` seconds after each turn; ``replay`` waits for Enter
after each turn (``a`` runs to the end, ``q`` stops) unless a speed is given.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from kanaszta_env import GameBatch, Rules
from kanaszta_env.envs.render import render_table

from .base import Agent, mover_action
from .records import GameRecord, final_scores, make_record, record_actions, start_game


@dataclass
class Show:
    """Where and how a watched game is shown."""

    output: TextIO
    speed: float | None = 0.0  # seconds after each turn; None: wait for Enter on ``input``
    table: bool = False  # the table after every turn (else only at the start and the end)
    input: TextIO | None = None
    sleep: Callable[[float], None] = time.sleep

    def say(self, text: str = "") -> None:
        """Print a line at once (a watched game is read as it goes)."""
        print(text, file=self.output, flush=True)

    def pause(self) -> bool:
        """Wait after a turn; False if the viewer asked to stop."""
        if self.speed is not None:
            if self.speed > 0:
                self.sleep(self.speed)
            return True
        self.output.write("[Enter: next turn · a: all · q: quit] ")
        self.output.flush()
        answer = (self.input or sys.stdin).readline()
        if not answer:  # end of input: play the rest without waiting
            self.speed = 0.0
            return True
        word = answer.strip().lower()
        if word in ("a", "all"):
            self.speed = 0.0
        return word not in ("q", "quit")


class Teller:
    """Steps one game and tells it in its game's words, from the seat of ``seat`` (by
    default a spectator's) on ``show``."""

    def __init__(self, games: GameBatch, names: Sequence[str], show: Show, seat: int | None = None) -> None:
        from .registry import terminal_words

        self.games, self.show, self.seat = games, show, seat
        self.words = terminal_words(games.rules)(games.rules, names, seat)
        self.names = self.words.names
        self.history: list[int] = []

    def start(self, heading: str) -> None:
        """The heading, the rules and the table before the first move."""
        self.show.say(heading)
        self.show.say(self.words.rules_text())
        self.show.say(self.table())

    def table(self) -> str:
        """The table from the seat (a spectator's: every hand open; else the others hidden
        until the hand ends)."""
        return render_table(self.games.state, self.games.rules, 0, self.names, viewer=self.seat)

    def step(self, a: int) -> list[str]:
        """Apply ``a``; the lines it completes."""
        before = self.words.before(self.games)
        self.games.step(np.array([a]))
        self.history.append(a)
        return self.words.told(before, self.games, a)

    def play(self, a: int) -> bool:
        """Apply ``a``; tell the lines it completes. False if the viewer stops."""
        mover, turn = int(self.games.to_move[0]), int(self.games.state.turn[0])
        lines = self.step(a)
        turned = int(self.games.to_move[0]) != mover or int(self.games.state.turn[0]) != turn
        return self.tell(lines, turned or self.words.tells_turns)

    def tell(self, lines: list[str], turned: bool = True) -> bool:
        """Print ``lines``; after a turn, the table if asked and the pause. False to stop."""
        for line in lines:
            self.show.say(line)
        if not lines or not turned or self.games.done[0]:
            return True
        if self.show.table:
            self.show.say(self.table())
        return self.show.pause()

    def finish(self) -> list[int] | None:
        """The final table, the scoring of the hand and the result; the score sheet's raw
        sums if it has them."""
        self.tell(self.words.flush())
        self.show.say()
        self.show.say(self.table())
        raws = None
        if self.games.rules.episode == "hand" and self.games.done[0]:
            text, raws = self.words.score_sheet(self.games)
            self.show.say(text)
        scores = final_scores(self.games)
        ranking = sorted(range(len(scores)), key=lambda q: -scores[q])
        self.show.say("result: " + ", ".join(f"{self.names[q]} {scores[q]}" for q in ranking))
        return raws


def watch(agents: Sequence[Agent], rules: Rules, seed: int, show: Show) -> GameRecord:
    """Let ``agents`` (one per seat, in seat order) play a hand dealt from
    ``seed``, telling it on ``show``; returns the game's record."""
    if len(agents) != rules.num_players:
        raise ValueError(f"{rules.num_players} players need {rules.num_players} agents, got {len(agents)}")
    for agent in agents:
        agent.setup(rules)
        agent.reset(rules.num_players)
    games = GameBatch(rules, 1)
    games.reset(seed=seed)
    names = [f"{agent.name} (seat {q})" for q, agent in enumerate(agents)]
    teller = Teller(games, names, show)
    teller.start(f"watching {', '.join(names)} · seed {seed}")
    stopped = False
    while not games.done[0] and not stopped:
        stopped = not teller.play(mover_action(agents[int(games.to_move[0])], games))
    if stopped:
        show.say("stopped")
        return make_record(rules, teller.history, seed=seed, players=names)
    teller.finish()
    return make_record(rules, teller.history, seed=seed, players=names, scores=final_scores(games))


def replay_record(record: GameRecord, show: Show) -> bool:
    """Play ``record`` back on ``show``; True if it ran to its end (its final
    scores, if recorded, are compared and any difference is told)."""
    games = start_game(record)
    players = games.rules.num_players
    names = list(record.players) if len(record.players) == players else [f"seat {q}" for q in range(players)]
    teller = Teller(games, names, show)
    deal = f"seed {record.seed}" if record.seed is not None else "a saved position"
    teller.start(f"replaying {len(record.actions)} actions from {deal}: {', '.join(names)}")
    for i, action in record_actions(record, games):
        if not teller.play(action):
            show.say(f"stopped after action {i + 1} of {len(record.actions)}")
            return False
    teller.finish()
    if not games.done[0]:
        show.say(f"the record ends after {len(record.actions)} actions, before the end of the game")
    elif record.scores is not None and final_scores(games) != list(record.scores):
        show.say(f"the replayed scores {final_scores(games)} differ from the record's {record.scores}")
    return True
