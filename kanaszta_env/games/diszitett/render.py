"""Díszített kanaszta's table as text (:meth:`Game.render_table`; see
:func:`kanaszta_env.envs.render.render_table`)."""

from __future__ import annotations

import numpy as np

from ...cards import (
    GROUP_NAMES,
    GROUP_SLOTS,
    IS_BLACK_THREE,
    IS_WILD,
    NUM_GROUPS,
    SLOT_TYPE,
    TYPE_NAMES,
    counts_to_cards,
)
from ...rules import Rules
from .compiled import CANASTA_NAMES, FREE_NAMES, PHASE_NAMES, PHASE_OVER, State, canasta_kind

_END_NAMES = ("", "went out", "stock exhausted", "turn limit")
PHASE_PICKUP = PHASE_NAMES.index("pickup")
#: card types whose presence on top freezes the discard pile: black threes and wilds (R9)
FREEZING = frozenset(int(t) for t in np.flatnonzero(IS_BLACK_THREE | IS_WILD))


def group_text(g: int, row: np.ndarray) -> str:
    """One group as ``K: KS KD 2C [black canasta]``."""
    cards = [TYPE_NAMES[SLOT_TYPE[g, k]] for k in range(GROUP_SLOTS) for _ in range(int(row[k]))]
    kind = CANASTA_NAMES[canasta_kind(g, row)]
    text = f"{GROUP_NAMES[g]}: {' '.join(cards)}"
    return f"{text} [{kind}]" if kind else text


def diszitett_table(state: State, rules: Rules, b: int, names: list[str], viewer: int | None) -> str:
    """Díszített kanaszta's table of game ``b`` (see :func:`render_table`)."""
    phase = int(state.phase[b])
    lines = [_headline(state, b, names)]
    if phase == 0:  # the cut: three cards shown to everybody (R3.1)
        decided = ["kept" if k == 1 else "left" if k == 0 else "?" for k in state.cut_kept[b]]
        cut = ", ".join(
            f"{TYPE_NAMES[int(t)]} ({d})" for t, d in zip(state.cut_cards[b], decided, strict=True)
        )
        lines.append(f"cut cards: {cut}")
    lines.append(f"{_stock_text(state, b)} · {_pile_text(state, b, names)}")
    for q in range(rules.num_players):
        lines += _player_lines(state, rules, b, q, names, viewer)
    if phase == PHASE_PICKUP:
        card = TYPE_NAMES[int(state.pickup_card[b])]
        lines.append(f"penalised pickup of {card}: meld it with at least two cards from the hand (R8)")
    if state.lifted[b] >= 0 and phase != PHASE_OVER:
        lines.append(f"lifted {TYPE_NAMES[int(state.lifted[b])]}: place it on another group (R13.2)")
    return "\n".join(lines)


def _headline(state: State, b: int, names: list[str]) -> str:
    phase = int(state.phase[b])
    head = (
        f"hand {int(state.hand_number[b]) + (phase != PHASE_OVER)} · turn {int(state.turn[b])} · "
        f"phase {PHASE_NAMES[phase]}"
    )
    if phase == PHASE_OVER:
        reason = _END_NAMES[int(state.end_reason[b])]
        out = int(state.out_player[b])
        return head + f" · ended: {reason}" + (f" ({names[out]})" if out >= 0 else "")
    return head + f" · {names[int(state.to_move[b])]} to move · starter {names[int(state.starter[b])]}"


def _stock_text(state: State, b: int) -> str:
    stock = int(state.stock_len[b])
    known = int(min(state.stock_known[b], stock))
    bottom = " ".join(TYPE_NAMES[int(t)] for t in state.stock[b, :known])
    return f"stock {stock}" + (f" (bottom, known: {bottom})" if known else "")


def _pile_text(state: State, b: int, names: list[str]) -> str:
    n = int(state.pile_len[b])
    if not n:
        return "discard pile empty"
    top = int(state.pile[b, n - 1])
    owner = int(state.pile_owner[b, n - 1])
    text = f"discard pile {n}, top {TYPE_NAMES[top]} from {names[owner] if owner >= 0 else 'an unknown seat'}"
    return text + (" (frozen, R9)" if top in FREEZING else "")


def _player_lines(
    state: State, rules: Rules, b: int, q: int, names: list[str], viewer: int | None
) -> list[str]:
    phase = int(state.phase[b])
    flags = [
        f"total {int(state.totals[b, q])}",
        f"last hand {int(state.hand_scores[b, q])}",
        "opened" if state.opened[b, q] else "not opened",
        f"free pickup {FREE_NAMES[int(state.free_pickup[b, q])]}",
    ]
    marker = "*" if q == int(state.to_move[b]) and phase != PHASE_OVER else " "
    lines = [f"{marker}{names[q]}: " + " · ".join(flags)]
    hand = counts_to_cards(state.hand[b, q])
    known_cards = counts_to_cards(state.known[b, q])
    if viewer is None or q == viewer or phase == PHASE_OVER:
        lines.append(f"    hand ({len(hand)}): {' '.join(hand) or '-'}")
        if known_cards:
            lines.append(f"    known to all: {' '.join(known_cards)}")
    else:
        lines.append(
            f"    hand: {len(hand)} cards" + (f", known: {' '.join(known_cards)}" if known_cards else "")
        )
    groups = [group_text(g, state.groups[b, q, g]) for g in range(NUM_GROUPS) if state.groups[b, q, g].sum()]
    lines.append(f"    groups: {' | '.join(groups) or '-'}")
    red = "3H " * int(state.red_threes[b, q, 0]) + "3D " * int(state.red_threes[b, q, 1])
    extras = f"    red threes: {red.strip() or '-'} · twins {int(state.twins[b, q])}"
    if rules.heart_aces:  # preset 2003-02 only (R10.6)
        extras += f" · separate heart aces {int(state.sep_heart_aces[b, q])}"
    lines.append(extras)
    return lines
