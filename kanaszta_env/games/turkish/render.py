"""Text rendering of a Turkish kanasta game (preset ``tr``): stock and pile, the
Fis, every seat's hand (or, for a ``viewer``, its size and publicly known cards),
and each pair's melds by slot with who laid them and their canasta kind."""

from __future__ import annotations

import numpy as np

from ...cards import TYPE_NAMES, counts_to_cards
from ...rules import Rules

_PHASES = ("-", "draw", "meld", "discard", "-", "over")
_END_NAMES = ("", "went out", "stock exhausted", "turn limit")
_KINDS = ("", "half canasta", "whole canasta", "full canasta")
_FORCED = ("", "owes a canasta opening (T12)", "made its canasta opening")


def _meld_text(k: int, row: np.ndarray, owner: str, kind: int) -> str:
    text = f"m{k} ({owner}): {' '.join(counts_to_cards(row))}"
    return text + (f" [{_KINDS[kind]}]" if kind else "")


def _fi_text(state, b: int, names: list[str]) -> str:
    parts = []
    for f in range(2):
        taker = int(state.fi_taker[b, f])
        if taker < 0:
            parts.append(f"Fi {f + 1} on the table")
        else:
            used = "used" if state.fi_used[b, f] else "not used yet"
            parts.append(f"Fi {f + 1} taken by {names[taker]} ({used})")
    return " · ".join(parts)


def turkish_table(state, rules: Rules, b: int, names: list[str], viewer: int | None) -> str:
    """Game ``b`` as a multi-line string (every hand shown unless ``viewer`` is a seat)."""
    phase = _PHASES[int(state.phase[b])]
    over = phase == "over"
    head = f"hand {int(state.hand_number[b]) + (not over)} · turn {int(state.turn[b])} · phase {phase}"
    if over:
        out = int(state.out_player[b])
        head += f" · ended: {_END_NAMES[int(state.end_reason[b])]}" + (f" ({names[out]})" if out >= 0 else "")
    else:
        head += f" · {names[int(state.to_move[b])]} to move"
    n = int(state.pile_len[b])
    pile = f"discard pile {n}, top {TYPE_NAMES[int(state.pile[b, n - 1])]}" if n else "discard pile empty"
    lines = [head, f"stock {int(state.stock_len[b])} · {pile} · {_fi_text(state, b, names)}"]
    for pair in range(2):
        seats = [pair, pair + 2]
        flags = [f"total {int(state.totals[b, pair])}", f"last hand {int(state.hand_scores[b, pair])}"]
        if state.forced[b, pair]:
            flags.append(_FORCED[int(state.forced[b, pair])])
        lines.append(f"pair {pair} ({', '.join(names[q] for q in seats)}): " + " · ".join(flags))
        melds = [
            _meld_text(
                k,
                state.melds[b, pair, k],
                names[int(state.meld_owner[b, pair, k])],
                int(state.meld_kind[b, pair, k]),
            )
            for k in range(int(state.meld_count[b, pair]))
        ]
        lines += [f"    {m}" for m in melds] or ["    melds: -"]
        for q in seats:
            marker = "*" if q == int(state.to_move[b]) and not over else " "
            status = "opened" if state.opened[b, q] else "layer-off" if state.layoff[b, q] else "not opened"
            hand = counts_to_cards(state.hand[b, q])
            known = counts_to_cards(state.known[b, q])
            if viewer is None or q == viewer or over:
                lines.append(f"   {marker}{names[q]} ({status}) hand ({len(hand)}): {' '.join(hand) or '-'}")
            else:
                shown = f", known: {' '.join(known)}" if known else ""
                lines.append(f"   {marker}{names[q]} ({status}) hand: {len(hand)} cards{shown}")
    return "\n".join(lines)
