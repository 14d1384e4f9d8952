"""A meld gesture: cards selected in the hand, laid on one meld, as the game's actions.

The page does not know any game's action names: it sends the cards and the meld it
clicked (``to``, an id of the table's picture) or none. :func:`gesture_actions` asks
the game (:meth:`Game.move_picture`) on a copy of the position, card by card, which
legal action lays a selected card on that meld, steps it and asks again, so that a
meld started by the first card (Turkish kanasta's next free slot, a new rank group)
takes the rest. Without ``to`` the first card placed chooses the meld: the move that
starts a new meld when the card has one, else its only move. The names found are then
played all or none like any other request (:meth:`PlaySession.play`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kanaszta_env import GameBatch

from .play import MAX_ACTIONS, ActionError


def _choice(options: list[dict[str, Any]], target: str | None) -> dict[str, Any] | None:
    """The move among ``options`` (one card's) that lays it on ``target`` (or chooses one)."""
    if target is not None:
        return next((m for m in options if m["to"] == target), None)
    new = [m for m in options if m.get("new")]
    if len(new) == 1:
        return new[0]
    return options[0] if len(options) == 1 else None


def gesture_actions(games: GameBatch, cards: object, to: object) -> list[str]:
    """The action names that lay ``cards`` (hand card names) on the meld ``to`` of game 0
    of ``games`` (its mover's turn); :class:`ActionError` if some card cannot go there."""
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        raise ActionError("a meld gesture needs a non-empty list of card names")
    if len(cards) > MAX_ACTIONS:
        raise ActionError(f"at most {MAX_ACTIONS} cards per gesture, got {len(cards)}")
    if to is not None and not isinstance(to, str):
        raise ActionError("a meld gesture's target is a meld's id or null")
    trial = games.copy()
    lookup = {n: a for a, n in enumerate(trial.action_names)}
    mover, remaining, target = int(trial.to_move[0]), list(cards), to
    names: list[str] = []
    while remaining:
        if trial.done[0] or int(trial.to_move[0]) != mover:
            raise ActionError(f"the turn ends before {' '.join(remaining)[:80]} can be laid")
        moves = trial.rules.game.move_picture(trial.state, trial.rules, 0, trial.legal_mask()[0])["cards"]
        pick = next(
            ((i, m) for i, card in enumerate(remaining) if (m := _choice(moves.get(card, []), target))), None
        )
        if pick is None:
            where = f"meld {target}" if target is not None else "one meld (click the meld to lay them on)"
            raise ActionError(f"{' '.join(remaining)[:80]} cannot be laid on {where} now")
        i, move = pick
        target = move["to"]
        names.append(move["action"])
        del remaining[i]
        trial.step(np.array([lookup[move["action"]]]))
    return names
