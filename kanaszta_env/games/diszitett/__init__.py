"""Díszített kanaszta (docs/rules/diszitett.md): presets ``2003-02`` and ``2003-01``,
2-4 players each playing for himself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...variants import DISZITETT
from ..base import Game
from .actions import ACTION_NAMES

#: R12.2: the opening minima a table may agree on
OPENING_MINIMA = (50, 75, 90, 120)


class Diszitett(Game):
    """Díszített kanaszta: rank groups with lifted and placed wilds, twins, heart aces (R1-R19)."""

    name = "diszitett"
    presets = {  # noqa: RUF012 - frozen by Game.__init__
        "2003-02": {"players": (2, 3, 4), "default_players": 2, "heart_aces": True},  # R10.6
        "2003-01": {"players": (2, 3, 4), "default_players": 2, "heart_aces": False},
    }
    capabilities = frozenset({"views", "rank_melds", "training", "webapp"})
    default_target = 10_000  # R18.2
    default_opening = OPENING_MINIMA[0]

    @property
    def spec(self):
        return DISZITETT

    def validate(self, rules) -> dict[str, Any]:
        if rules.opening_minimum not in OPENING_MINIMA:
            raise ValueError(
                f"opening_minimum must be one of {OPENING_MINIMA}, got {rules.opening_minimum!r}"
            )
        return {}

    def check_schedule_minimum(self, minimum: int) -> None:
        if minimum not in OPENING_MINIMA:
            raise ValueError(f"opening_schedule minimum {minimum} is not one of {OPENING_MINIMA}")

    def action_names(self, rules) -> tuple[str, ...]:
        return ACTION_NAMES

    def observation_pieces(self, rules, piece: type) -> tuple:
        from .observation import diszitett_pieces

        return diszitett_pieces(rules.num_players)

    def pictures(self) -> tuple[Callable, Callable]:
        from .picture import diszitett_moves, diszitett_picture

        return diszitett_picture, diszitett_moves

    @property
    def position(self):
        from . import position as diszitett

        return diszitett


DISZITETT_GAME = Diszitett()
