"""The scoring of a finished hand, item by item (R16, R17), as text.

The terminal game (:mod:`agents.human`), ``kanaszta watch`` and ``kanaszta
replay`` print it when a hand ends; its items add up to the engine's scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kanaszta_env import GameBatch
from kanaszta_env.cards import GROUP_NAMES, NUM_GROUPS, counts_to_cards
from kanaszta_env.games.diszitett.compiled import (
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


@dataclass
class PlayerScore:
    """One player's scoring of a finished hand: the items in the order of the
    printed breakdown, their sum (before tax) and the recorded score (after the
    R17 tax)."""

    items: list[tuple[str, int]]  # (what, points); cards left in hand count negative
    raw: int
    recorded: int
    hand: list[str]  # the cards left in hand

    @property
    def tax(self) -> int:
        """What the R17 tax took (0 when untaxed)."""
        return self.raw - self.recorded


def score_items(games: GameBatch, out_bonus: dict[int, int]) -> list[PlayerScore]:
    """The R16 scoring of every player of game 0 at the end of the hand, item by
    item; ``out_bonus`` maps the player who went out to his going-out bonuses
    (100, 200 from hand, 300 with table clearing)."""
    s = games.state
    out = []
    for q in range(games.num_players):
        items: list[tuple[str, int]] = []
        red = int(s.red_threes[0, q].sum())
        if red:
            items.append((f"red threes {red}", 800 if red == 4 else 100 * red))
        twins = int(s.twins[0, q])
        if twins:
            items.append((f"twins {twins}", 100 * twins))
        for g in range(NUM_GROUPS):
            kind = canasta_kind(g, s.groups[0, q, g])
            if kind:
                items.append((f"{CANASTA_NAMES[kind]} of {GROUP_NAMES[g]}", int(CANASTA_BASE[kind])))
        aces = int(s.sep_heart_aces[0, q])
        if aces:
            items.append((f"separate heart aces {aces}", 500 * aces))
        bonus = out_bonus.get(q, 0)
        if bonus:
            items.append((_OUT_NAMES[bonus], bonus))
        items.append(
            ("melded cards", sum(int(group_card_value(g, s.groups[0, q, g])) for g in range(NUM_GROUPS)))
        )
        hand = counts_to_cards(s.hand[0, q])
        items.append(("cards in hand", -int((s.hand[0, q].astype(np.int64) * HAND_PENALTY).sum())))
        raw = sum(points for _, points in items)
        out.append(PlayerScore(items, raw, int(s.hand_scores[0, q]), hand))
    return out


_OUT_NAMES = {100: "going out", 200: "going out from hand", 300: "going out with table clearing"}


def score_breakdown(
    games: GameBatch, names: Sequence[str], out_bonus: dict[int, int]
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
