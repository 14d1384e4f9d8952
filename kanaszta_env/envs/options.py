"""Validation of the keyword options every environment wrapper accepts."""

from __future__ import annotations

from .kernels import REWARD_MODES

#: render modes of every wrapper
RENDER_MODES = ("human", "ansi")


def check_render_mode(render_mode: str | None) -> None:
    """``render_mode`` must be ``None``, ``"human"`` or ``"ansi"``."""
    if render_mode not in (None, *RENDER_MODES):
        raise ValueError(f"render_mode must be one of {list(RENDER_MODES)} or None, got {render_mode!r}")


def reward_mode(reward: str, illegal: str) -> int:
    """The driver's code of ``reward`` (``"score"`` or ``"win"``); also checks that
    ``illegal`` is ``"raise"`` or ``"penalty"``."""
    if reward not in REWARD_MODES:
        raise ValueError(f"reward must be one of {sorted(REWARD_MODES)}, got {reward!r}")
    if illegal not in ("raise", "penalty"):
        raise ValueError(f"illegal must be 'raise' or 'penalty', got {illegal!r}")
    return REWARD_MODES[reward]
