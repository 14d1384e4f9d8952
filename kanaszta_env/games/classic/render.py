"""Text rendering of a classic canasta game (presets ``pl``, ``sk``): stock and
pile, every seat's hand (or, for a ``viewer``, its size and publicly known
cards), and each side's melds, red threes, opening and totals."""

from __future__ import annotations

import numpy as np

from ...cards import GROUP_NAMES, GROUP_SLOTS, NUM_GROUPS, SLOT_TYPE, TYPE_NAMES, card_type, counts_to_cards
from ...engine.kernels import kernels_for
from ...rules import Rules

_END_NAMES = ("", "went out", "stock exhausted", "turn limit")
_ASKED = ("", "asked the partner: waiting", "partner said yes", "partner said no")
#: the side's meld rows: 11 ranks and the wild meld as in cards.SLOT_TYPE, then the black threes
_BLACK_MELD = NUM_GROUPS
_BLACK_SLOTS = {0: card_type(2, 0), 3: card_type(2, 3)}  # 3S, 3C
_CANASTA = 7


def _meld_text(g: int, row: np.ndarray) -> str:
    if g == _BLACK_MELD:
        cards = [TYPE_NAMES[t] for k, t in _BLACK_SLOTS.items() for _ in range(int(row[k]))]
        return f"black threes: {' '.join(cards)}"
    cards = [TYPE_NAMES[SLOT_TYPE[g, k]] for k in range(GROUP_SLOTS) for _ in range(int(row[k]))]
    text = f"{GROUP_NAMES[g]}: {' '.join(cards)}"
    if len(cards) >= _CANASTA:
        wilds = int(row[4:].sum())
        kind = "wild" if g == NUM_GROUPS - 1 else ("natural" if wilds == 0 else "mixed")
        text += f" [{kind} canasta]"
    return text


def classic_table(state, rules: Rules, b: int, names: list[str], viewer: int | None) -> str:
    """Game ``b`` as a multi-line string (every hand shown unless ``viewer`` is a seat)."""
    phase_names = kernels_for(rules.spec).ruleset.PHASE_NAMES
    over = phase_names[int(state.phase[b])] == "over"
    head = f"hand {int(state.hand_number[b]) + (not over)} · turn {int(state.turn[b])} · "
    head += f"phase {phase_names[int(state.phase[b])]}"
    if over:
        out = int(state.out_player[b])
        head += f" · ended: {_END_NAMES[int(state.end_reason[b])]}" + (f" ({names[out]})" if out >= 0 else "")
    else:
        head += f" · {names[int(state.to_move[b])]} to move"
        if int(state.asked[b]):
            head += f" · {names[int(state.mover[b])]} {_ASKED[int(state.asked[b])]}"
    n = int(state.pile_len[b])
    pile = f"discard pile {n}, top {TYPE_NAMES[int(state.pile[b, n - 1])]}" if n else "discard pile empty"
    if int(state.pile_wilds[b]):
        pile += " (holds a wild)"
    lines = [head, f"stock {int(state.stock_len[b])} · {pile}"]
    sides = rules.sides()
    for side in sorted(set(sides)):
        seats = [q for q in range(rules.num_players) if sides[q] == side]
        q0 = seats[0]
        flags = [
            f"total {int(state.totals[b, q0])}",
            f"last hand {int(state.hand_scores[b, q0])}",
            "opened" if state.opened[b, side] else "not opened",
            f"red threes {int(state.red_threes[b, side])}",
        ]
        lines.append(f"side {side} ({', '.join(names[q] for q in seats)}): " + " · ".join(flags))
        melds = [
            _meld_text(g, state.groups[b, side, g])
            for g in range(NUM_GROUPS + 1)
            if state.groups[b, side, g].sum()
        ]
        lines.append(f"    melds: {' | '.join(melds) or '-'}")
        for q in seats:
            marker = "*" if q == int(state.to_move[b]) and not over else " "
            hand = counts_to_cards(state.hand[b, q])
            known = counts_to_cards(state.known[b, q])
            if q == int(state.sitter[b]):
                lines.append(f"   {marker}{names[q]}: sits this hand out")
            elif viewer is None or q == viewer or over:
                lines.append(f"   {marker}{names[q]} hand ({len(hand)}): {' '.join(hand) or '-'}")
            else:
                shown = f", known: {' '.join(known)}" if known else ""
                lines.append(f"   {marker}{names[q]} hand: {len(hand)} cards{shown}")
    return "\n".join(lines)
