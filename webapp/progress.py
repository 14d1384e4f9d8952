"""Stepping one game for the browser: what each action is told as and the scoring of
every hand that ends, in the game's own words.

The words are the terminal game's (:class:`agents.human.TerminalWords`, registered per
game in :mod:`agents.registry`): Díszített kanaszta's narration and score sheet, classic
canasta's questions and answers, the plain words of a game without its own. They are
made for the person's seat (or a spectator's, ``None``), so another player's hidden
cards are never told.

In a game episode the engine deals the next hand within the step that ends a
hand, so the end of the hand (the melds and the cards left in the hands that
the score sheet reads) never appears in the game itself. :func:`hand_end`
replays the hand's last action on a copy of the position taken just before
it, under the same rules cut to one hand, which stops at the end of the hand
with the same scores (the next deal is what it leaves out).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np

from agents.human import TerminalWords
from agents.registry import terminal_words
from kanaszta_env import GameBatch
from kanaszta_env.engine.states import copy_state

from .table import table_json

#: narration lines kept per game (the client shows the latest)
LOG_LINES = 60
_END_REASONS = {
    "out": "went out",
    "exhausted": "stock exhausted",
    "turn_limit": "turn limit reached",
    "truncated": "turn limit reached",
}


def hand_end(before: NamedTuple, action: int, games: GameBatch, words: TerminalWords) -> dict[str, Any]:
    """The scoring of the hand that ``action`` ended, played from ``before`` (a copy of
    the state of ``games`` just before it): the table with every hand open, the game's
    score sheet as text and, per seat, the cards left, the recorded hand score, the raw
    sum where the sheet has one (before Díszített's R17 tax) and the new total."""
    last = GameBatch(replace(games.rules, episode="hand"), 1)
    last.state = copy_state(before)
    last.step(np.array([action]))
    summary = last.summary()
    sheet, raws = words.score_sheet(last)
    names = words.names
    table = table_json(last, names, viewer=None)
    players = [
        {
            "name": names[q],
            "hand": table["players"][q]["hand"],
            "raw": raws[q] if raws is not None else None,
            "recorded": summary["hand_scores"][q],
            "total": summary["totals"][q],
        }
        for q in range(len(names))
    ]
    out = summary["went_out"]
    return {
        "hand": summary["hands_played"],
        "reason": _END_REASONS.get(summary["end_reason"], summary["end_reason"]),
        "went_out": names[out] if out is not None else None,
        "sheet": sheet,
        "players": players,
        "table": table,
        "game_over": bool(games.done[0]),
    }


class Progress:
    """Applies actions to game 0 of ``games`` and keeps what the browser shows
    of their effect: the narration (from ``viewer``'s seat, public information
    only for the others), the history of action ids and the end of each hand."""

    def __init__(self, games: GameBatch, names: Sequence[str], viewer: int | None) -> None:
        self.games, self.names, self.viewer = games, list(names), viewer
        self.words = self._words()
        self.lines: deque[str] = deque(maxlen=LOG_LINES)
        self.history: list[int] = []
        self.movers: list[int] = []  # the seat that took each action of the history

    def _words(self) -> TerminalWords:
        """Fresh words of the game for the viewer (a hand's words start empty)."""
        return terminal_words(self.games.rules)(self.games.rules, self.names, self.viewer)

    def apply(self, a: int) -> dict[str, Any] | None:
        """Play legal action ``a`` for the mover; the hand's scoring if it ended the hand."""
        games = self.games
        state = copy_state(games.state)
        mover, hand = int(state.to_move[0]), int(state.hand_number[0])
        before = self.words.before(games)
        games.step(np.array([a]))
        self.history.append(a)
        self.movers.append(mover)
        self.lines.extend(self.words.told(before, games, a))
        if int(games.state.hand_number[0]) == hand and not games.done[0]:
            return None
        self.lines.extend(self.words.flush())
        end = hand_end(state, a, games, self.words)
        self.words = self._words()
        return end

    def log(self) -> list[str]:
        """The latest narration lines (another player's turn is told once it is over)."""
        return list(self.lines)

    def prompt(self) -> list[str]:
        """What the person needs to see before he chooses (his seat's words' header)."""
        return self.words.header(self.games)
