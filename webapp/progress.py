"""Stepping one game for the browser: the narration of each action, the
going-out bonuses and the scoring of every hand that ends.

In a game episode the engine deals the next hand within the step that ends a
hand, so the end of the hand (the melds and the cards left in the hands that
the score breakdown shows) never appears in the game itself. :func:`hand_end`
replays the hand's last action on a copy of the position taken just before
it, under the same rules cut to one hand, which stops at the end of the hand
with the same scores (the tax reads the totals, which the copy has; the next
deal is what it leaves out).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from agents.games.diszitett.narrate import Narrator, snapshot, went_out
from agents.games.diszitett.scoresheet import going_out_bonus, score_items
from kanaszta_env import GameBatch
from kanaszta_env.games.diszitett.compiled import State

from .table import card_sort_key, table_json

#: narration lines kept per game (the client shows the latest)
LOG_LINES = 60
_END_REASONS = {"out": "went out", "exhausted": "stock exhausted", "turn_limit": "turn limit reached (R19.2)"}


def hand_end(
    before: State, action: int, games: GameBatch, names: Sequence[str], out_bonus: dict[int, int]
) -> dict[str, Any]:
    """The scoring of the hand that ``action`` ended, played from ``before`` (a
    snapshot of game 0 of ``games`` just before it): the table with every hand
    open and, per player, the R16 items, the raw score, the R17 tax, the
    recorded score and the new total."""
    last = GameBatch(replace(games.rules, episode="hand"), 1)
    last.state = State(*(a.copy() for a in before))
    last.step(np.array([action]))
    summary = last.summary()
    players = []
    for q, score in enumerate(score_items(last, out_bonus)):
        players.append(
            {
                "name": names[q],
                "items": [[what, points] for what, points in score.items],
                "hand": sorted(score.hand, key=card_sort_key),
                "raw": score.raw,
                "tax": score.tax,
                "recorded": score.recorded,
                "total": int(last.state.totals[0, q]),
            }
        )
    out = summary["went_out"]
    return {
        "hand": summary["hands_played"],
        "reason": _END_REASONS.get(summary["end_reason"], summary["end_reason"]),
        "went_out": names[out] if out is not None else None,
        "players": players,
        "table": table_json(last, names, viewer=None),
        "game_over": bool(games.done[0]),
    }


class Progress:
    """Applies actions to game 0 of ``games`` and keeps what the browser shows
    of their effect: the narration (from ``viewer``'s seat, public information
    only for the others), the history of action ids and the end of each hand."""

    def __init__(self, games: GameBatch, names: Sequence[str], viewer: int | None) -> None:
        self.games = games
        self.names = list(names)
        self.narrator = Narrator(games.rules, self.names, viewer=viewer)
        self.lines: deque[str] = deque(maxlen=LOG_LINES)
        self.history: list[int] = []
        self.movers: list[int] = []  # the seat that took each action of the history
        self.out_bonus: dict[int, int] = {}

    def apply(self, a: int) -> dict[str, Any] | None:
        """Play legal action ``a`` for the mover; the hand's scoring if it ended the hand."""
        games = self.games
        before = snapshot(games.state)
        mover = int(before.to_move[0])
        games.step(np.array([a]))
        self.history.append(a)
        self.movers.append(mover)
        if went_out(before, a):
            self.out_bonus[mover] = going_out_bonus(before)
        after = snapshot(games.state)
        self.lines.extend(self.narrator.step(before, after, a))
        if int(after.hand_number[0]) == int(before.hand_number[0]):
            return None
        self.lines.extend(self.narrator.flush())
        end = hand_end(before, a, games, self.names, self.out_bonus)
        self.out_bonus = {}
        return end

    def log(self) -> list[str]:
        """The latest narration lines (another player's turn is told once it is over)."""
        return list(self.lines)
