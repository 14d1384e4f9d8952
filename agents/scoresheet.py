"""The scoring of a finished hand, item by item (R16, R17), as text.

The terminal game (:mod:`agents.human`), ``kanaszta watch`` and ``kanaszta
replay`` print it when a hand ends; its items add up to the engine's scores.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kanaszta_env import GameBatch
from kanaszta_env.cards import GROUP_NAMES, NUM_GROUPS, counts_to_cards
from kanaszta_env.engine.compiled import (
    CANASTA_BASE,
    CANASTA_NAMES,
    HAND_PENALTY,
    PICKUP_PILE,
    State,
    canasta_kind,
    group_card_value,
)


def going_out_bonus(before: State) -> int:
    """The going-out bonuses (R16.1-R16.3) of the mover of ``before`` (a snapshot
    of one game just before his last discard): 100, 200 from hand, 300 with
    table clearing."""
    mover = int(before.to_move[0])
    from_hand = before.opened[0, mover] == 0
    clearing = from_hand and before.pickup_kind[0] == PICKUP_PILE and before.pickup_size[0] >= 10
    return 300 if clearing else 200 if from_hand else 100


def score_breakdown(
    games: GameBatch, names: Sequence[str], out_bonus: dict[int, int]
) -> tuple[str, list[int]]:
    """The R16 scoring of every player at the end of the hand, and the raw
    scores; ``out_bonus`` maps the player who went out to his going-out
    bonuses (100, 200 from hand, 300 with table clearing)."""
    s = games.state
    lines = ["scoring (R16):"]
    raws = []
    for q in range(games.num_players):
        red = int(s.red_threes[0, q].sum())
        parts = []
        total = 0
        if red:
            pts = 800 if red == 4 else 100 * red
            parts.append(f"red threes {red}: {pts}")
            total += pts
        twins = int(s.twins[0, q])
        if twins:
            parts.append(f"twins {twins}: {100 * twins}")
            total += 100 * twins
        for g in range(NUM_GROUPS):
            kind = canasta_kind(g, s.groups[0, q, g])
            if kind:
                parts.append(f"{CANASTA_NAMES[kind]} of {GROUP_NAMES[g]}: {int(CANASTA_BASE[kind])}")
                total += int(CANASTA_BASE[kind])
        aces = int(s.sep_heart_aces[0, q])
        if aces:
            parts.append(f"separate heart aces {aces}: {500 * aces}")
            total += 500 * aces
        bonus = out_bonus.get(q, 0)
        if bonus:
            what = {100: "going out", 200: "going out from hand", 300: "going out with table clearing"}[bonus]
            parts.append(f"{what}: {bonus}")
            total += bonus
        melded = sum(int(group_card_value(g, s.groups[0, q, g])) for g in range(NUM_GROUPS))
        parts.append(f"melded cards: +{melded}")
        total += melded
        hand = counts_to_cards(s.hand[0, q])
        penalty = int((s.hand[0, q].astype(np.int64) * HAND_PENALTY).sum())
        if hand:
            parts.append(f"cards in hand ({' '.join(hand)}): -{penalty}")
        total -= penalty
        raws.append(total)
        recorded = int(s.hand_scores[0, q])
        taxed = "" if recorded == total else f" (after tax, R17: {recorded})"
        lines.append(f"  {names[q]}: " + "; ".join(parts) + f" = {total}{taxed}")
    return "\n".join(lines), raws
