"""The scoring of a finished hand, item by item (R16, R17), as text.

The terminal game (:mod:`agents.human`), ``kanaszta watch`` and ``kanaszta
replay`` print it when a hand ends; its items add up to the engine's scores.
"""

from __future__ import annotations

from collections.abc import Sequence

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


def score_breakdown(
    games: GameBatch, names: Sequence[str], out_bonus: dict[int, tuple[str, int]]
) -> tuple[str, list[int]]:
    """The R16 scoring of every player of game 0 at the end of the hand as text, item by item,
    and the raw scores (their sums, before the R17 tax); ``out_bonus`` maps the player who went
    out to his going-out bonus, named (:func:`going_out_bonus`)."""
    s = games.state
    lines, raws = ["scoring (R16):"], []
    for q in range(games.num_players):
        items: list[tuple[str, int]] = []
        red, twins, aces = int(s.red_threes[0, q].sum()), int(s.twins[0, q]), int(s.sep_heart_aces[0, q])
        if red:
            items.append((f"red threes {red}", _bonus(red=red)))
        if twins:
            items.append((f"twins {twins}", _bonus(twins=twins)))
        for g in range(NUM_GROUPS):
            kind = canasta_kind(g, s.groups[0, q, g])
            if kind:
                items.append((f"{CANASTA_NAMES[kind]} of {GROUP_NAMES[g]}", int(CANASTA_BASE[kind])))
        if aces:
            items.append((f"separate heart aces {aces}", _bonus(aces=aces)))
        if q in out_bonus:
            items.append(out_bonus[q])
        melded = sum(int(group_card_value(g, s.groups[0, q, g])) for g in range(NUM_GROUPS))
        held = int((s.hand[0, q].astype(np.int64) * HAND_PENALTY).sum())
        parts = [f"{what}: {points}" for what, points in items] + [f"melded cards: +{melded}"]
        hand = counts_to_cards(s.hand[0, q])
        if hand:
            parts.append(f"cards in hand ({' '.join(hand)}): -{held}")
        raws.append(sum(points for _, points in items) + melded - held)
        recorded = int(s.hand_scores[0, q])
        taxed = "" if recorded == raws[-1] else f" (after tax, R17: {recorded})"
        lines.append(f"  {names[q]}: " + "; ".join(parts) + f" = {raws[-1]}{taxed}")
    return "\n".join(lines), raws
