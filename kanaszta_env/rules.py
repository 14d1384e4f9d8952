"""The one configuration object of a game: :class:`Rules` (RULES.md R2, R12, R18, R19).

A ``Rules`` is frozen and validated on construction; the core receives it as a
small integer vector (:meth:`Rules.to_config`) so that one compiled kernel
serves every configuration. New variants (for example the partnership canasta
of R20) are meant to become new presets here, not new engines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .variants import Variant, get_variant

#: preset name -> whether separate heart aces exist (R10.6)
PRESETS = {"2003-02": True, "2003-01": False}
#: preset name -> the game variant it plays (:mod:`kanaszta_env.variants`)
PRESET_GAMES = {"2003-02": "diszitett", "2003-01": "diszitett"}
OPENING_MINIMA = (50, 75, 90, 120)
EPISODES = ("hand", "game")
#: a score-dependent opening schedule in the spirit of seed 003 (classic canasta)
CLASSIC_SCHEDULE = ((0, 50), (1500, 90), (3000, 120))
MAX_SCHEDULE_STEPS = 8

# positions in the config vector read by the kernels
CFG_PLAYERS = 0
CFG_HEART_ACES = 1
CFG_OPENING_MIN = 2
CFG_TARGET = 3
CFG_MAX_TURNS = 4
CFG_EPISODE_GAME = 5
CFG_MAX_HANDS = 6
CFG_RANDOM_STARTER = 7
CFG_SCHEDULE_LEN = 8
CFG_SCHEDULE = 9  # then pairs (threshold, minimum)
CFG_SIZE = CFG_SCHEDULE + 2 * MAX_SCHEDULE_STEPS


@dataclass(frozen=True)
class Rules:
    """Rules of one Díszített kanaszta game.

    Args:
        variant: ``"2003-02"`` (default, with separate heart aces) or ``"2003-01"``.
        num_players: 2, 3 or 4, each playing for himself (R2.1).
        opening_minimum: the agreed opening minimum, 50, 75, 90 or 120 (R12.2).
        opening_schedule: optional score-dependent minimum instead of the fixed
            one: ascending ``(threshold, minimum)`` pairs; a player whose total is
            at least ``threshold`` needs ``minimum`` (below the first threshold,
            the first minimum). ``"classic"`` selects :data:`CLASSIC_SCHEDULE`.
        target_score: total that wins the game (R18.2, default 10,000).
        max_turns: turns after which a hand is truncated and scored as R16.6 (R19.2).
        episode: ``"hand"`` (one hand per episode) or ``"game"`` (hands until the
            target is reached, R19.1).
        max_hands: in game episodes, hands after which the game is truncated.
        random_starter: draw the first starter with the game's seed instead of
            seat 0 (R2.3).
    """

    variant: str = "2003-02"
    num_players: int = 2
    opening_minimum: int = 50
    opening_schedule: tuple[tuple[int, int], ...] | str | None = None
    target_score: int = 10_000
    max_turns: int = 200
    episode: str = "hand"
    max_hands: int = 200
    random_starter: bool = False
    _config: np.ndarray = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, str) or self.variant not in PRESETS:
            raise ValueError(f"unknown variant {self.variant!r}: choose one of {sorted(PRESETS)}")
        for name in ("num_players", "opening_minimum", "target_score", "max_turns", "max_hands"):
            object.__setattr__(self, name, _integer(getattr(self, name), name))
        if not 2 <= self.num_players <= 4:
            raise ValueError(f"num_players must be 2, 3 or 4, got {self.num_players!r}")
        if self.opening_minimum not in OPENING_MINIMA:
            raise ValueError(f"opening_minimum must be one of {OPENING_MINIMA}, got {self.opening_minimum!r}")
        if not isinstance(self.random_starter, (bool, np.bool_)):
            raise ValueError(f"random_starter must be True or False, got {self.random_starter!r}")
        object.__setattr__(self, "random_starter", bool(self.random_starter))
        schedule = self.opening_schedule
        if schedule == "classic":
            schedule = CLASSIC_SCHEDULE
            object.__setattr__(self, "opening_schedule", schedule)
        if schedule is not None:
            object.__setattr__(self, "opening_schedule", _check_schedule(schedule))
        for name in ("target_score", "max_turns", "max_hands"):
            value = getattr(self, name)
            if value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if self.episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, got {self.episode!r}")
        object.__setattr__(self, "_config", self._build_config())

    @property
    def spec(self) -> Variant:
        """The game variant this preset plays: deck, deal, melds and score tables."""
        return get_variant(PRESET_GAMES[self.variant])

    @property
    def heart_aces(self) -> bool:
        """Whether separate heart aces exist (preset ``2003-02``)."""
        return PRESETS[self.variant]

    def opening_minimum_for(self, total: int) -> int:
        """Opening minimum of a player whose running total is ``total``."""
        if self.opening_schedule is None:
            return self.opening_minimum
        minimum = self.opening_schedule[0][1]
        for threshold, value in self.opening_schedule:
            if total >= threshold:
                minimum = value
        return minimum

    def to_config(self) -> np.ndarray:
        """The integer vector the compiled kernels read (see ``CFG_*``)."""
        return self._config

    def _build_config(self) -> np.ndarray:
        cfg = np.zeros(CFG_SIZE, dtype=np.int64)
        cfg[CFG_PLAYERS] = self.num_players
        cfg[CFG_HEART_ACES] = int(self.heart_aces)
        cfg[CFG_OPENING_MIN] = self.opening_minimum
        cfg[CFG_TARGET] = self.target_score
        cfg[CFG_MAX_TURNS] = self.max_turns
        cfg[CFG_EPISODE_GAME] = int(self.episode == "game")
        cfg[CFG_MAX_HANDS] = self.max_hands
        cfg[CFG_RANDOM_STARTER] = int(self.random_starter)
        steps = self.opening_schedule or ()
        cfg[CFG_SCHEDULE_LEN] = len(steps)
        for i, (threshold, minimum) in enumerate(steps):
            cfg[CFG_SCHEDULE + 2 * i] = threshold
            cfg[CFG_SCHEDULE + 2 * i + 1] = minimum
        cfg.flags.writeable = False
        return cfg


def resolve_rules(rules: Rules | None, rule_kwargs: dict[str, Any]) -> Rules:
    """The ``rules`` given, or ``Rules(**rule_kwargs)``; passing both is an error
    (the convention of every constructor that takes rules)."""
    if rules is None:
        return Rules(**rule_kwargs)
    if rule_kwargs:
        raise ValueError("pass either a Rules object or rule keyword arguments, not both")
    return rules


def _integer(value: object, name: str) -> int:
    """``value`` as a Python int: ints and numpy integers are accepted, booleans,
    floats and strings are not (``75.0`` is refused rather than stored as a float)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    return int(value)


def _check_schedule(schedule: object) -> tuple[tuple[int, int], ...]:
    try:
        steps = tuple((int(t), int(m)) for t, m in schedule)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise ValueError(
            f"opening_schedule must be 'classic' or (threshold, minimum) pairs, got {schedule!r}"
        ) from None
    if not 1 <= len(steps) <= MAX_SCHEDULE_STEPS:
        raise ValueError(f"opening_schedule needs 1 to {MAX_SCHEDULE_STEPS} steps, got {len(steps)}")
    thresholds = [t for t, _ in steps]
    if thresholds != sorted(set(thresholds)):
        raise ValueError(f"opening_schedule thresholds must strictly increase, got {thresholds}")
    for _, minimum in steps:
        if minimum not in OPENING_MINIMA:
            raise ValueError(f"opening_schedule minimum {minimum} is not one of {OPENING_MINIMA}")
    return steps
