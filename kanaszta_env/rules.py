"""The one configuration object of a game: :class:`Rules` (a preset and its options).

``Rules(variant=<preset>, ...)`` names a preset of a registered game
(:mod:`kanaszta_env.games`); the shared fields (players, opening, target, turn
limit, episode) are checked here, the game's own ones by the game
(:meth:`Game.defaults`, :meth:`Game.validate`). A ``Rules`` is frozen and
validated on construction; the core receives it as a small integer vector
(:meth:`Rules.to_config`) so that one compiled kernel serves every configuration.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import rules_classic as RC
from .core.config import (
    CFG_EPISODE_GAME,
    CFG_HEART_ACES,
    CFG_MAX_HANDS,
    CFG_MAX_TURNS,
    CFG_OPENING_MIN,
    CFG_PLAYERS,
    CFG_RANDOM_STARTER,
    CFG_SCHEDULE,
    CFG_SCHEDULE_LEN,
    CFG_SIZE,
    CFG_TARGET,
    MAX_SCHEDULE_STEPS,
)
from .games import Game, all_games, game_of_preset
from .variants import Variant

EPISODES = ("hand", "game")
#: a score-dependent opening schedule in the spirit of seed 003 (classic canasta)
CLASSIC_SCHEDULE = ((0, 50), (1500, 90), (3000, 120))


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
            seat 0; ``None``: the preset's rule (seat 0 in Díszített, R2.3; a random
            first dealer in classic and Turkish kanasta, C2.8, T2.2).

    The classic keys (C0; ``None`` = the preset's value, see
    :data:`kanaszta_env.rules_classic.PRESET_SETTINGS`): ``six_player_sides``,
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
    random_starter: bool | None = None
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
        game = game_of_preset(self.variant)  # names the presets of every registered game
        foreign = [k for k in _OPTION_FIELDS if k not in game.options and getattr(self, k) is not None]
        if foreign:
            raise ValueError(
                f"{foreign[0]} is not a rule of {game.title} (variant {self.variant}): {_owner(foreign[0])}"
            )
        self._set(game.defaults(self))
        for name in ("num_players", "opening_minimum", "target_score", "max_turns", "max_hands"):
            object.__setattr__(self, name, _integer(getattr(self, name), name))
        if self.num_players not in game.player_counts(self.variant):
            allowed = game.player_counts(self.variant)
            raise ValueError(
                f"num_players must be one of {allowed} for {self.variant!r}, got {self.num_players}"
            )
        self._set(game.validate(self))
        if not isinstance(self.random_starter, (bool, np.bool_)):
            raise ValueError(f"random_starter must be True or False, got {self.random_starter!r}")
        object.__setattr__(self, "random_starter", bool(self.random_starter))
        schedule = self.opening_schedule
        if schedule == "classic":
            schedule = CLASSIC_SCHEDULE
            object.__setattr__(self, "opening_schedule", schedule)
        if schedule is not None:
            object.__setattr__(self, "opening_schedule", _check_schedule(schedule, game))
        for name in ("target_score", "max_turns", "max_hands"):
            value = getattr(self, name)
            if value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if self.episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, got {self.episode!r}")
        object.__setattr__(self, "_config", self._build_config())

    def _set(self, values: dict[str, Any]) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @property
    def game(self) -> Game:
        """The game this preset plays (:class:`~kanaszta_env.games.Game`): every layer asks it."""
        return game_of_preset(self.variant)

    @property
    def spec(self) -> Variant:
        """The compile-time spec the preset plays: deck, deal, melds and score tables."""
        return self.game.spec_of(self.variant)

    def sides(self) -> tuple[int, ...]:
        """Side of every seat: partners share melds and score (C2, T2.1); each seat alone in Díszített."""
        return self.game.sides(self)

    @property
    def family(self) -> str:
        """The meld family of the game's kernels (:attr:`Variant.meld_family`)."""
        return self.spec.meld_family

    @property
    def partnerships(self) -> bool:
        """Whether the game has partnerships (classic canasta, Turkish kanasta)."""
        return self.game.partnerships

    @property
    def heart_aces(self) -> bool:
        """Whether separate heart aces exist (preset ``2003-02``)."""
        return bool(self.game.preset_setting(self, "heart_aces", False))

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
        self.game.write_config(self, cfg)
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


def _check_schedule(schedule: object, game: Game) -> tuple[tuple[int, int], ...]:
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
        game.check_schedule_minimum(minimum)
    return steps


def _owner(key: str) -> str:
    """Which presets have the option ``key``."""
    owners = [g for g in all_games() if key in g.options]
    return "; ".join(f"a {g.title} key (variants {', '.join(g.presets)})" for g in owners) or "unknown"


#: the Rules fields that are some game's own options (None: the preset's value)
_OPTION_FIELDS = RC.CLASSIC_KEYS
