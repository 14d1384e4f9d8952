"""Turkish kanasta (docs/rules/turkish.md): preset ``tr``, four players in two pairs,
sets and runs, the Fi hands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...variants import TURKISH
from ..base import Game
from .actions import ACTION_NAMES
from .observation import turkish_pieces

#: T9.1: the opening below a pair total of 900 (90 from 900 on)
OPENING = 45


class Turkish(Game):
    """Turkish kanasta: pair melds in slots holding sets and runs, the Fis (T1-T17)."""

    name = "turkish"
    presets = {"tr": {"players": (4,), "default_players": 4, "random_starter": True}}  # noqa: RUF012 - T2.1-2
    capabilities = frozenset({"training", "webapp"})
    default_target = 5200  # T15.1

    @property
    def spec(self):
        return TURKISH

    def defaults(self, rules) -> dict[str, Any]:
        """T2.1 and T9.1 fix the players and the opening: refused when given otherwise."""
        out = super().defaults(rules)
        players = out.get("num_players", rules.num_players)
        if players != 4 or isinstance(players, bool):
            raise ValueError(
                f"Turkish kanasta is played by 4 players in two pairs, got num_players={players!r}"
            )
        if rules.opening_minimum not in (None, OPENING) or isinstance(rules.opening_minimum, bool):
            raise ValueError(
                f"Turkish kanasta opens at {OPENING}, and at 90 from a pair total of 900 (T9.1); "
                f"opening_minimum cannot be set (got {rules.opening_minimum!r})"
            )
        if rules.opening_schedule is not None:
            raise ValueError(
                "Turkish kanasta's opening requirement is fixed by T9.1; opening_schedule cannot be set"
            )
        out["opening_minimum"] = OPENING
        return out

    def validate(self, rules) -> dict[str, Any]:
        return {}

    def check_schedule_minimum(self, minimum: int) -> None:  # pragma: no cover - refused in defaults
        raise ValueError("Turkish kanasta's opening requirement is fixed by T9.1")

    def action_names(self, rules) -> tuple[str, ...]:
        return ACTION_NAMES

    def observation_pieces(self, rules, piece: type) -> tuple:
        return turkish_pieces(piece)

    def pictures(self) -> tuple[Callable, Callable]:
        from .picture import turkish_moves, turkish_picture

        return turkish_picture, turkish_moves

    @property
    def position(self):
        from . import position as turkish

        return turkish


TURKISH_GAME = Turkish()
