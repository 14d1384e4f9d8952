"""The scoring of a finished hand, item by item (R16, R17), as text.

The terminal game (:mod:`agents.human`), ``kanaszta watch`` and ``kanaszta
replay`` print it when a hand ends; its items add up to the engine's scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kanaszta_env import GameBatch
from kanaszta_env.cards import GROUP_NAMES, GROUP_SLOTS, NUM_GROUPS, counts_to_cards
from kanaszta_env.games.diszitett.compiled import (
    CANASTA_BASE,
    CANASTA_NAMES,
    HAND_PENALTY,
    State,
    canasta_kind,
    going_out_kind,
    group_card_value,
    hand_base,
)

_NO_GROUPS = np.zeros((0, GROUP_SLOTS), dtype=np.int8)


def _bonus(red: int = 0, twins: int = 0, aces: int = 0, out: tuple[bool, bool] | None = None) -> int:
    """The R16.1 points of red threes, twins, separate heart aces or going out, by the
    engine's own scoring (:func:`hand_base` without melds)."""
    from_hand, clearing = out or (False, False)
    return int(hand_base(_NO_GROUPS, red, twins, aces, out is not None, from_hand, clearing))


def going_out_bonus(before: State) -> tuple[str, int]:
    """The going-out bonus (R16.1-R16.3) of the mover of ``before`` (a snapshot of one
    game just before his last discard), named: going out, from hand, with table clearing."""
    from_hand, clearing = going_out_kind(before, 0, int(before.to_move[0]))
    name = "with table clearing" if clearing else "from hand" if from_hand else ""
    return f"going out {name}".strip(), _bonus(out=(bool(from_hand), bool(clearing)))


@dataclass
class PlayerScore:
    """One player's scoring of a finished hand: the items in the order of the
    printed breakdown, their sum (before tax) and the recorded score (after the
    R17 tax)."""

    items: list[tuple[str, int]]  # (what, points); cards left in hand count negative
    raw: int
    recorded: int
    hand: list[str]  # the cards left in hand


def score_items(games: GameBatch, out_bonus: dict[int, tuple[str, int]]) -> list[PlayerScore]:
    """The R16 scoring of every player of game 0 at the end of the hand, item by
    item; ``out_bonus`` maps the player who went out to his going-out bonus, named
    (:func:`going_out_bonus`)."""
    s = games.state
    out = []
    for q in range(games.num_players):
        items: list[tuple[str, int]] = []
        red = int(s.red_threes[0, q].sum())
        if red:
            items.append((f"red threes {red}", _bonus(red=red)))
        twins = int(s.twins[0, q])
        if twins:
            items.append((f"twins {twins}", _bonus(twins=twins)))
        for g in range(NUM_GROUPS):
            kind = canasta_kind(g, s.groups[0, q, g])
            if kind:
                items.append((f"{CANASTA_NAMES[kind]} of {GROUP_NAMES[g]}", int(CANASTA_BASE[kind])))
        aces = int(s.sep_heart_aces[0, q])
        if aces:
            items.append((f"separate heart aces {aces}", _bonus(aces=aces)))
        if q in out_bonus:
            items.append(out_bonus[q])
        items.append(
            ("melded cards", sum(int(group_card_value(g, s.groups[0, q, g])) for g in range(NUM_GROUPS)))
        )
        hand = counts_to_cards(s.hand[0, q])
        items.append(("cards in hand", -int((s.hand[0, q].astype(np.int64) * HAND_PENALTY).sum())))
        raw = sum(points for _, points in items)
        out.append(PlayerScore(items, raw, int(s.hand_scores[0, q]), hand))
    return out


def score_breakdown(
    games: GameBatch, names: Sequence[str], out_bonus: dict[int, tuple[str, int]]
) -> tuple[str, list[int]]:
    """The R16 scoring of every player at the end of the hand as text, and the
    raw scores (see :func:`score_items`)."""
    lines = ["scoring (R16):"]
    scores = score_items(games, out_bonus)
    for q, score in enumerate(scores):
        parts = []
        for what, points in score.items:
            if what == "melded cards":
                parts.append(f"melded cards: +{points}")
            elif what == "cards in hand":
                if score.hand:
                    parts.append(f"cards in hand ({' '.join(score.hand)}): -{-points}")
            else:
                parts.append(f"{what}: {points}")
        taxed = "" if score.recorded == score.raw else f" (after tax, R17: {score.recorded})"
        lines.append(f"  {names[q]}: " + "; ".join(parts) + f" = {score.raw}{taxed}")
    return "\n".join(lines), [score.raw for score in scores]
