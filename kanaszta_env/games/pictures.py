"""The pieces every game's table picture shares (``Game.table_picture``, keys in
docs/webapp.md): the header of a hand, the pile, a seat and how the hand ended. A game's
``picture.py`` adds its melds, sides, extras and notes."""

from __future__ import annotations

from typing import Any

from ..cards import TYPE_NAMES, counts_to_cards

END_WORDS = ("", "went out", "stock exhausted", "turn limit")


def end_notes(state: Any, b: int, names: list[str], over: bool) -> list[str]:
    """A picture's note of how game ``b``'s hand ended and who went out (none before the end)."""
    if not over:
        return []
    out = int(state.out_player[b])
    return [f"ended: {END_WORDS[int(state.end_reason[b])]}" + (f" ({names[out]})" if out >= 0 else "")]


def header(state: Any, b: int, phase: str, viewer: int | None) -> dict[str, Any]:
    """The picture's keys of the hand's progress: phase, who moves, hand and turn numbers."""
    over = phase == "over"
    return {
        "phase": phase,
        "over": over,
        "to_move": None if over else int(state.to_move[b]),
        "starter": int(state.starter[b]),
        "hand_number": int(state.hand_number[b]) + (0 if over else 1),
        "turn": int(state.turn[b]),
        "viewer": viewer,
    }


def pile(state: Any, b: int, top_owner: int | None = None, frozen: bool = False) -> dict[str, Any]:
    """The discard pile's picture: its size and top card (who discarded it, if known)."""
    n = int(state.pile_len[b])
    top = TYPE_NAMES[int(state.pile[b, n - 1])] if n else None
    return {"size": n, "top": top, "top_owner": top_owner, "frozen": frozen}


def seat(state: Any, b: int, q: int, name: str, side: int, opened: bool, shown: bool) -> dict[str, Any]:
    """Seat ``q``'s picture; its hand only when ``shown`` (its size and known cards always)."""
    hand = state.hand[b, q]
    return {
        "seat": q,
        "name": name,
        "side": side,
        "total": int(state.totals[b, q]),
        "last_hand": int(state.hand_scores[b, q]),
        "opened": opened,
        "hand_size": int(hand.sum()),
        "known": counts_to_cards(state.known[b, q]),
        "hand": counts_to_cards(hand) if shown else None,
        "notes": [],
    }


def meld(
    name: str, cards: list[str], canasta: str | None = None, run: bool = False, owner: int | None = None
) -> dict[str, Any]:
    """A meld's picture, ``name`` being its id and label."""
    return {"id": name, "label": name, "cards": cards, "canasta": canasta, "run": run, "owner": owner}


def side(
    state: Any,
    b: int,
    index: int,
    seats: list[int],
    opened: bool,
    melds: list[dict[str, Any]],
    notes: list[str],
    red_threes: list[str] | None = None,
) -> dict[str, Any]:
    """Side ``index``'s picture: its score is that of its first seat."""
    return {
        "side": index,
        "seats": seats,
        "total": int(state.totals[b, seats[0]]),
        "last_hand": int(state.hand_scores[b, seats[0]]),
        "opened": opened,
        "red_threes": red_threes or [],
        "melds": melds,
        "notes": notes,
    }
