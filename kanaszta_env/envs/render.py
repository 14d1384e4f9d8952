"""Text rendering of one game: a readable table of the position (the game's
:meth:`Game.table_picture` drawn as text, :meth:`Game.render_table`), as text or as an image.

By default this is a spectator's view (every hand is shown), meant for
people watching or debugging, not for agents, which see only their
observation; :func:`render_table` with ``viewer`` hides the other hands (the
terminal games).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..rules import Rules

#: the RGB image of a table: pixels per character cell, margin, colours
_CELL = (7, 14)
_MARGIN = 8
_BACKGROUND = (20, 90, 50)
_INK = (240, 240, 230)


def render_table(
    state: NamedTuple,
    rules: Rules,
    game: int = 0,
    agent_names: list[str] | None = None,
    viewer: int | None = None,
) -> str:
    """The position of game ``game`` as a multi-line string (the game's picture drawn
    as text, :meth:`Game.render_table`).

    Without ``viewer`` every hand is shown (a spectator's view); with a seat
    ``viewer`` only that player's hand is, the others by their size and the
    cards publicly known to be in them, until the hand is over."""
    names = agent_names or [f"player_{q}" for q in range(rules.num_players)]
    return rules.game.render_table(state, rules, game, names, viewer)


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
