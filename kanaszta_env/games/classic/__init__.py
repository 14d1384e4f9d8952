"""Classic canasta (docs/rules/classic.md): presets ``pl`` (2-4 players) and ``sk``
(2-6), partners opposite; the presets' differences are the options of C0."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import rules_classic as RC
from ...variants import CLASSIC
from ..base import Game
from .actions import ACTION_NAMES
from .observation import classic_pieces


class Classic(Game):
    """Classic canasta: one meld per rank per side, freezing, red and black threes (C0-C16)."""

    name = "classic"
    presets = {  # noqa: RUF012 - frozen by Game.__init__
        preset: {**settings, "default_players": 2, "table_players": 4, "random_starter": True}  # C2.8
        for preset, settings in RC.PRESET_SETTINGS.items()
    }
    options = RC.CLASSIC_KEYS
    capabilities = frozenset({"training", "webapp"})
    default_target = 5000  # C14.2
    default_opening = RC.PL_OPENING

    @property
    def spec(self):
        return CLASSIC

    def validate(self, rules) -> dict[str, Any]:
        settings = self.presets[rules.variant]
        keys = RC.resolve_classic(rules.variant, settings, self._keys(rules), rules.num_players)
        if not 0 <= rules.opening_minimum <= 1000:
            raise ValueError(f"opening_minimum must be in 0..1000, got {rules.opening_minimum!r}")
        if rules.opening_schedule is None and settings["opening_schedule"] is not None:
            keys["opening_schedule"] = settings["opening_schedule"]  # sk's C11.2
        return keys

    def check_schedule_minimum(self, minimum: int) -> None:
        if not 0 <= minimum <= 1000:
            raise ValueError(f"opening_schedule minimum {minimum} is not in 0..1000")

    def sides(self, rules) -> tuple[int, ...]:
        return RC.side_of_seats(rules.num_players, self._keys(rules))

    def write_config(self, rules, cfg) -> None:
        RC.write_classic_config(cfg, rules.variant, self._keys(rules), rules.num_players)

    def _keys(self, rules) -> dict[str, Any]:
        """The C0 keys of ``rules`` by name."""
        return {k: getattr(rules, k) for k in self.options}

    def action_names(self, rules) -> tuple[str, ...]:
        return ACTION_NAMES

    def observation_pieces(self, rules, piece: type) -> tuple:
        return classic_pieces(rules.num_players, max(rules.sides()) + 1, piece)

    def pictures(self) -> tuple[Callable, Callable]:
        from .picture import classic_moves, classic_picture

        return classic_picture, classic_moves

    @property
    def position(self):
        from . import position as classic

        return classic


CLASSIC_GAME = Classic()
