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

from . import rules_classic as RC
from .variants import Variant, get_variant

#: preset name -> whether separate heart aces exist (R10.6)
PRESETS = {"2003-02": True, "2003-01": False, "pl": False, "sk": False, "tr": False}
#: preset name -> the game variant it plays (:mod:`kanaszta_env.variants`)
PRESET_GAMES = {
    "2003-02": "diszitett",
    "2003-01": "diszitett",
    "pl": "classic",
    "sk": "classic",
    "tr": "turkish",
}
CLASSIC_PRESETS = ("pl", "sk")
TURKISH_PRESETS = ("tr",)
#: T9.1: the opening below a pair total of 900 (90 from 900 on); T15.1: the target
TURKISH_OPENING = 45
TURKISH_TARGET = 5200
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
CFG_SIZE = RC.CC_END  # the classic keys follow the shared ones (rules_classic.CC_*)
assert CFG_SCHEDULE + 2 * MAX_SCHEDULE_STEPS <= RC.CC_BASE


@dataclass(frozen=True)
class Rules:
    """Rules of one game: Díszített kanaszta, classic canasta or Turkish kanasta.

    Args:
        variant: Díszített ``"2003-02"`` (default, with separate heart aces) or
            ``"2003-01"``; classic canasta ``"pl"`` (seed 002) or ``"sk"`` (seed 003);
            Turkish kanasta ``"tr"`` (seed 004).
        num_players: Díszített 2, 3 or 4, each playing for himself (R2.1);
            classic ``pl`` 2-4, ``sk`` 2-6, partners opposite (C2); Turkish 4 (T2.1).
            Default: 4 in Turkish kanasta, else 2.
        opening_minimum: the agreed opening minimum, 50, 75, 90 or 120 (R12.2);
            classic: any minimum (``pl`` 80; ``sk`` uses its schedule); Turkish:
            fixed by T9.1 (45, and 90 from a pair total of 900), not settable.
        opening_schedule: optional score-dependent minimum instead of the fixed
            one: ascending ``(threshold, minimum)`` pairs; a player whose total is
            at least ``threshold`` needs ``minimum`` (below the first threshold,
            the first minimum). ``"classic"`` selects :data:`CLASSIC_SCHEDULE`.
        target_score: total that wins the game (R18.2, default 10,000; classic 5000, C14.2;
            Turkish 5200, extended twice by 2000 when both pairs reach it together, T15).
        max_turns: turns after which a hand is truncated and scored as R16.6 (R19.2).
        episode: ``"hand"`` (one hand per episode) or ``"game"`` (hands until the
            target is reached, R19.1).
        max_hands: in game episodes, hands after which the game is truncated.
        random_starter: draw the first starter with the game's seed instead of
            seat 0 (R2.3, C2.8).

    The classic keys (C0; ``None`` = the preset's value, see
    :data:`kanaszta_env.rules_classic.CLASSIC_PRESETS`): ``six_player_sides``,
    ``red_three_draw_replaced``, ``opening_scope``, ``canasta_counts_for_opening``,
    ``wild_freeze``, ``pile_meld_same_turn``, ``wild_canastas``, ``black_three_meld``,
    ``black_three_in_hand``, ``red_threes_partial_penalty``, ``go_out_by_meld``,
    ``going_out_bonus``, ``from_hand``, ``from_hand_scope``, ``partner_permission``,
    ``canastaless_melds_negative``, ``exhaustion_penalty``, ``target_strict``,
    ``free_upcard``. They are refused with the Díszített presets.
    """

    variant: str = "2003-02"
    num_players: int | None = None
    opening_minimum: int | None = None
    opening_schedule: tuple[tuple[int, int], ...] | str | None = None
    target_score: int | None = None
    max_turns: int = 200
    episode: str = "hand"
    max_hands: int = 200
    random_starter: bool = False
    # classic canasta (C0); None: the preset's value
    six_player_sides: str | None = None
    red_three_draw_replaced: bool | None = None
    opening_scope: str | None = None
    canasta_counts_for_opening: bool | None = None
    wild_freeze: str | None = None
    pile_meld_same_turn: bool | None = None
    wild_canastas: bool | None = None
    black_three_meld: str | None = None
    black_three_in_hand: int | None = None
    red_threes_partial_penalty: bool | None = None
    go_out_by_meld: bool | None = None
    going_out_bonus: int | None = None
    from_hand: int | None = None
    from_hand_scope: str | None = None
    partner_permission: bool | None = None
    canastaless_melds_negative: bool | None = None
    exhaustion_penalty: int | None = None
    target_strict: bool | None = None
    free_upcard: bool | None = None
    _config: np.ndarray = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, str) or self.variant not in PRESETS:
            raise ValueError(f"unknown variant {self.variant!r}: choose one of {sorted(PRESETS)}")
        classic = self.variant in CLASSIC_PRESETS
        if self.num_players is None:  # Turkish is played by four, the others default to two
            object.__setattr__(self, "num_players", 4 if self.variant in TURKISH_PRESETS else 2)
        if self.variant in TURKISH_PRESETS:
            self._check_turkish()
        if self.opening_minimum is None:
            object.__setattr__(self, "opening_minimum", RC.PL_OPENING if classic else 50)
        if self.target_score is None:
            object.__setattr__(
                self, "target_score", TURKISH_TARGET if self.turkish else 5000 if classic else 10_000
            )
        for name in ("num_players", "opening_minimum", "target_score", "max_turns", "max_hands"):
            object.__setattr__(self, name, _integer(getattr(self, name), name))
        if classic:
            keys = RC.resolve_classic(
                self.variant, {k: getattr(self, k) for k in RC.CLASSIC_KEYS}, self.num_players
            )
            for key, value in keys.items():
                object.__setattr__(self, key, value)
            if not 0 <= self.opening_minimum <= 1000:
                raise ValueError(f"opening_minimum must be in 0..1000, got {self.opening_minimum!r}")
            if self.variant == "sk" and self.opening_schedule is None:
                object.__setattr__(self, "opening_schedule", RC.SK_SCHEDULE)
        elif not self.turkish:
            given = [k for k in RC.CLASSIC_KEYS if getattr(self, k) is not None]
            if given:
                raise ValueError(
                    f"{given[0]} is a classic canasta key (variants pl, sk), not a {self.variant} rule"
                )
            if not 2 <= self.num_players <= 4:
                raise ValueError(f"num_players must be 2, 3 or 4, got {self.num_players!r}")
            if self.opening_minimum not in OPENING_MINIMA:
                raise ValueError(
                    f"opening_minimum must be one of {OPENING_MINIMA}, got {self.opening_minimum!r}"
                )
        if not isinstance(self.random_starter, (bool, np.bool_)):
            raise ValueError(f"random_starter must be True or False, got {self.random_starter!r}")
        object.__setattr__(self, "random_starter", bool(self.random_starter))
        schedule = self.opening_schedule
        if schedule == "classic":
            schedule = CLASSIC_SCHEDULE
            object.__setattr__(self, "opening_schedule", schedule)
        if schedule is not None:
            object.__setattr__(self, "opening_schedule", _check_schedule(schedule, classic))
        for name in ("target_score", "max_turns", "max_hands"):
            value = getattr(self, name)
            if value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if self.episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, got {self.episode!r}")
        object.__setattr__(self, "_config", self._build_config())

    def _check_turkish(self) -> None:
        """The keys Turkish kanasta fixes (T2.1, T9.1) or does not have (C0)."""
        given = [k for k in RC.CLASSIC_KEYS if getattr(self, k) is not None]
        if given:
            raise ValueError(f"{given[0]} is a classic canasta key (variants pl, sk), not a Turkish rule")
        if self.num_players != 4 or isinstance(self.num_players, (bool, np.bool_)):
            raise ValueError(
                f"Turkish kanasta is played by 4 players in two pairs, got num_players={self.num_players!r}"
            )
        if self.opening_minimum not in (None, TURKISH_OPENING) or isinstance(self.opening_minimum, bool):
            raise ValueError(
                f"Turkish kanasta opens at {TURKISH_OPENING}, and at 90 from a pair total of 900 (T9.1); "
                f"opening_minimum cannot be set (got {self.opening_minimum!r})"
            )
        if self.opening_schedule is not None:
            raise ValueError(
                "Turkish kanasta's opening requirement is fixed by T9.1; opening_schedule cannot be set"
            )
        object.__setattr__(self, "opening_minimum", TURKISH_OPENING)

    @property
    def spec(self) -> Variant:
        """The game variant this preset plays: deck, deal, melds and score tables."""
        return get_variant(PRESET_GAMES[self.variant])

    @property
    def classic(self) -> bool:
        """Whether this is a classic canasta preset (``pl``, ``sk``)."""
        return self.variant in CLASSIC_PRESETS

    def sides(self) -> tuple[int, ...]:
        """Side of every seat: partners share melds and score (C2); each seat alone in Díszített."""
        if self.turkish:
            return self.spec.sides(self.num_players)  # T2.1: partners opposite
        if not self.classic:
            return tuple(range(self.num_players))
        return RC.side_of_seats(self.num_players, {k: getattr(self, k) for k in RC.CLASSIC_KEYS})

    @property
    def family(self) -> str:
        """The meld family of the game: ``"rank_groups"`` (Díszített), ``"classic"`` or ``"turkish"``."""
        return self.spec.meld_family

    @property
    def partnerships(self) -> bool:
        """Whether partners share melds and score (classic canasta, Turkish kanasta)."""
        return self.spec.partnerships

    @property
    def turkish(self) -> bool:
        """Whether this is Turkish kanasta (preset ``tr``)."""
        return self.variant in TURKISH_PRESETS

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
        if self.classic:
            keys = {k: getattr(self, k) for k in RC.CLASSIC_KEYS}
            RC.write_classic_config(cfg, self.variant, keys, self.num_players)
        elif self.turkish:
            cfg[RC.CC_SIDES] = 2
            cfg[RC.CC_SIDE_OF : RC.CC_SIDE_OF + 4] = self.sides()
        else:  # every player is a side of his own (read by the side-aware parts of the engine)
            cfg[RC.CC_SIDES] = self.num_players
            cfg[RC.CC_SIDE_OF : RC.CC_SIDE_OF + self.num_players] = range(self.num_players)
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


def _check_schedule(schedule: object, classic: bool = False) -> tuple[tuple[int, int], ...]:
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
        if classic and not 0 <= minimum <= 1000:
            raise ValueError(f"opening_schedule minimum {minimum} is not in 0..1000")
        if not classic and minimum not in OPENING_MINIMA:
            raise ValueError(f"opening_schedule minimum {minimum} is not one of {OPENING_MINIMA}")
    return steps
