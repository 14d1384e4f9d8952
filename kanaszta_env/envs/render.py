"""Text rendering of one game: a readable table of the whole position.

This is a spectator's view (every hand is shown); it is meant for people
watching or debugging, not for agents, which see only their observation.
"""

from __future__ import annotations

import numpy as np

from ..cards import GROUP_NAMES, GROUP_SLOTS, NUM_GROUPS, SLOT_TYPE, TYPE_NAMES, counts_to_cards
from ..engine.compiled import CANASTA_NAMES, FREE_NAMES, PHASE_NAMES, PHASE_OVER, State, canasta_kind
from ..rules import Rules

_END_NAMES = ("", "went out", "stock exhausted", "turn limit")
#: the RGB image of a table: pixels per character cell, margin, colours
_CELL = (7, 14)
_MARGIN = 8
_BACKGROUND = (20, 90, 50)
_INK = (240, 240, 230)


def _group_text(g: int, row: np.ndarray) -> str:
    cards = [TYPE_NAMES[SLOT_TYPE[g, k]] for k in range(GROUP_SLOTS) for _ in range(int(row[k]))]
    kind = CANASTA_NAMES[canasta_kind(g, row)]
    text = f"{GROUP_NAMES[g]}: {' '.join(cards)}"
    return f"{text} [{kind}]" if kind else text


def render_table(state: State, rules: Rules, game: int = 0, agent_names: list[str] | None = None) -> str:
    """The position of game ``game`` as a multi-line string."""
    b = game
    players = rules.num_players
    names = agent_names or [f"player_{q}" for q in range(players)]
    phase = int(state.phase[b])
    mover = int(state.to_move[b])
    lines = []
    head = (
        f"hand {int(state.hand_number[b]) + (phase != PHASE_OVER)} · turn {int(state.turn[b])} · "
        f"phase {PHASE_NAMES[phase]}"
    )
    if phase == PHASE_OVER:
        reason = _END_NAMES[int(state.end_reason[b])]
        out = int(state.out_player[b])
        head += f" · ended: {reason}" + (f" ({names[out]})" if out >= 0 else "")
    else:
        head += f" · {names[mover]} to move · starter {names[int(state.starter[b])]}"
    lines.append(head)
    if phase == 0:  # the cut: three cards shown to everybody (R3.1)
        decided = ["kept" if k == 1 else "left" if k == 0 else "?" for k in state.cut_kept[b]]
        cut = ", ".join(
            f"{TYPE_NAMES[int(t)]} ({d})" for t, d in zip(state.cut_cards[b], decided, strict=True)
        )
        lines.append(f"cut cards: {cut}")
    n = int(state.pile_len[b])
    stock = int(state.stock_len[b])
    known = int(min(state.stock_known[b], stock))
    bottom = " ".join(TYPE_NAMES[int(t)] for t in state.stock[b, :known])
    stock_text = f"stock {stock}" + (f" (bottom, known: {bottom})" if known else "")
    if n:
        top = TYPE_NAMES[int(state.pile[b, n - 1])]
        owner = int(state.pile_owner[b, n - 1])
        pile_text = f"discard pile {n}, top {top} from {names[owner] if owner >= 0 else 'an unknown seat'}"
    else:
        pile_text = "discard pile empty"
    lines.append(f"{stock_text} · {pile_text}")
    for q in range(players):
        hand = counts_to_cards(state.hand[b, q])
        flags = [
            f"total {int(state.totals[b, q])}",
            f"last hand {int(state.hand_scores[b, q])}",
            "opened" if state.opened[b, q] else "not opened",
            f"free pickup {FREE_NAMES[int(state.free_pickup[b, q])]}",
        ]
        marker = "*" if q == mover and phase != PHASE_OVER else " "
        lines.append(f"{marker}{names[q]}: " + " · ".join(flags))
        lines.append(f"    hand ({len(hand)}): {' '.join(hand) or '-'}")
        known_cards = counts_to_cards(state.known[b, q])
        if known_cards:
            lines.append(f"    known to all: {' '.join(known_cards)}")
        groups = [
            _group_text(g, state.groups[b, q, g]) for g in range(NUM_GROUPS) if state.groups[b, q, g].sum()
        ]
        lines.append(f"    groups: {' | '.join(groups) or '-'}")
        red = "3H " * int(state.red_threes[b, q, 0]) + "3D " * int(state.red_threes[b, q, 1])
        lines.append(
            f"    red threes: {red.strip() or '-'} · twins {int(state.twins[b, q])}"
            f" · separate heart aces {int(state.sep_heart_aces[b, q])}"
        )
    return "\n".join(lines)


def text_to_rgb(text: str) -> np.ndarray:
    """The table text drawn as an ``(H, W, 3)`` uint8 image (``render_mode="rgb_array"``)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as error:  # pragma: no cover - pillow is a dependency
        raise RuntimeError(f"render_mode='rgb_array' needs Pillow (pip install pillow): {error}") from None
    lines = text.splitlines() or [""]
    width = _MARGIN * 2 + _CELL[0] * max(len(line) for line in lines)
    height = _MARGIN * 2 + _CELL[1] * len(lines)
    image = Image.new("RGB", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    for i, line in enumerate(lines):
        draw.text((_MARGIN, _MARGIN + i * _CELL[1]), line, fill=_INK, font=font)
    return np.asarray(image, dtype=np.uint8)


def show(text: str, render_mode: str | None, warn: object) -> str | np.ndarray | None:
    """What ``render()`` returns in ``render_mode``: the text (``ansi``), an image
    (``rgb_array``), or ``None`` after printing it (``human``). Without a render
    mode ``warn`` is called and ``None`` returned (the Gymnasium convention)."""
    if render_mode is None:
        warn("render() called without a render_mode; pass render_mode='ansi', 'human' or 'rgb_array'")
        return None
    if render_mode == "ansi":
        return text
    if render_mode == "rgb_array":
        return text_to_rgb(text)
    print(text + "\n")
    return None
