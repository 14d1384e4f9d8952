"""How a :class:`~kanaszta_env.engine.GameBatch` is set up: seeds, the seats'
controllers, the anchor seat and the reward and illegal-action policies,
validated once and turned into the driver's arrays."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from . import driver as D

Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]
#: what may sit in a seat: "external", "random" or a batched policy
Controller = str | Policy

_MAX_SEED = 2**64


class IllegalActionError(ValueError):
    """An action that the rules do not permit in that game's position."""


class DeadEndError(RuntimeError):
    """A live game whose player to move has no legal action. From a dealt game this is a
    defect of the rules kernels; from a loaded position, a position that cannot be played."""

    def __init__(self, game: int, player: int, phase: str) -> None:
        self.game, self.player, self.phase = game, player, phase
        super().__init__(
            f"game {game}: player {player} has no legal action in phase {phase!r} "
            "(a dealt game never gets here: please report the seed and the actions)"
        )


def read_actions(actions: object, batch_size: int, num_actions: int, out: np.ndarray) -> dict[int, int]:
    """Write ``actions`` (one per game) into the int64 row ``out`` the kernels read; ids outside
    ``[0, num_actions)`` become -1 (illegal). Returns those ids as given, by game, for the error
    message. Raises :class:`IllegalActionError` unless they are ``batch_size`` integers."""
    if batch_size == 1 and not isinstance(actions, (np.ndarray, list, tuple)):
        if isinstance(actions, (bool, np.bool_)):
            raise IllegalActionError(f"an action must be an integer, got {actions!r}")
        try:
            value = operator.index(actions)  # type: ignore[arg-type]
        except TypeError:
            raise IllegalActionError(f"an action must be an integer, got {actions!r}") from None
        in_range = 0 <= value < num_actions  # the AEC env's path: one action, no lists
        out[0] = value if in_range else -1
        return {} if in_range else {0: value}
    # a list is read element by element: NumPy would make [True, 1] ints, [2**63, 1] floats
    listed = isinstance(actions, (list, tuple))
    acts = np.array(actions, dtype=object) if listed else np.asarray(actions)
    if acts.shape == () and batch_size == 1:
        acts = acts.reshape(1)
    whole = np.issubdtype(acts.dtype, np.integer) or (
        acts.dtype == object
        and all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in acts.flat)
    )
    if acts.shape != (batch_size,) or not whole:
        raise IllegalActionError(f"actions must be {batch_size} integers, got {actions!r}")
    if acts.dtype == np.int64 and (acts.size == 0 or (acts.min() >= -1 and acts.max() < num_actions)):
        out[:] = acts  # the common case: no id out of range
        return {}
    values = [int(x) for x in acts]
    given = {i: v for i, v in enumerate(values) if not 0 <= v < num_actions}
    out[:] = [-1 if i in given else v for i, v in enumerate(values)]
    return given


def game_seeds(seed: int | Sequence[int] | np.ndarray | None, batch_size: int) -> np.ndarray:
    """Per-game seeds: an int ``s`` gives games ``s, s+1, …`` (modulo 2**64); a
    sequence is used as is. Seeds are integers in ``0 .. 2**64 - 1``."""
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))
    if isinstance(seed, (bool, np.bool_)):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if isinstance(seed, (int, np.integer)):
        seed = int(seed)
        if not 0 <= seed < _MAX_SEED:
            raise ValueError(f"seed must be an integer in 0..2**64-1, got {seed}")
        return ((seed + np.arange(batch_size, dtype=object)) % _MAX_SEED).astype(np.uint64)
    seeds = np.asarray(seed)
    if (
        seeds.shape != (batch_size,)
        or not np.issubdtype(seeds.dtype, np.integer)
        or (seeds.dtype.kind == "i" and (seeds < 0).any())
    ):
        raise ValueError(f"seeds must be {batch_size} non-negative integers, got {seed!r}")
    return seeds.astype(np.uint64)


def seat_option(value: object, players: int, name: str) -> int | str:
    """``value`` as a seat option: ``"random"`` or a seat ``0 .. players - 1``
    (numpy integers accepted, booleans not); else ``ValueError`` naming ``name``."""
    if value == "random":
        return "random"
    if (
        isinstance(value, (int, np.integer))
        and not isinstance(value, (bool, np.bool_))
        and 0 <= value < players
    ):
        return int(value)
    raise ValueError(f"{name} must be 'random' or a seat 0..{players - 1}, got {value!r}")


@dataclass(frozen=True)
class BatchOptions:
    """The options of a :class:`~kanaszta_env.engine.GameBatch` besides its rules
    and size (see its docstring)."""

    seats: tuple[Controller, ...] | None = None
    first_seat: int | str = 0
    auto_reset: bool = False
    observe: bool = False
    reward: str = "score"
    reward_scale: float = 1.0
    illegal: str = "raise"
    illegal_reward: float = -1.0
    seat_order: str = "turn"
    policies: list[Policy] = field(default_factory=list, init=False, compare=False, repr=False)

    def lineup(self, players: int) -> np.ndarray:
        """The controller codes in turn order from the anchor (``driver.EXTERNAL``,
        ``driver.RANDOM`` or the index of a policy in :attr:`policies`)."""
        seats = ["external"] * players if self.seats is None else list(self.seats)
        if len(seats) != players:
            raise ValueError(f"{players} players need {players} seat controllers, got {len(seats)}")
        self.policies.clear()
        return np.array([self._code(c) for c in seats], dtype=np.int64)

    def _code(self, controller: object) -> int:
        if isinstance(controller, str):
            if controller == "external":
                return D.EXTERNAL
            if controller == "random":
                return D.RANDOM
            raise ValueError(f"unknown controller {controller!r}: use 'external', 'random' or a policy")
        if not callable(controller):
            raise ValueError(
                f"a seat's controller must be 'external', 'random' or callable, got {controller!r}"
            )
        for k, known in enumerate(self.policies):
            if known is controller:
                return k
        self.policies.append(controller)
        return len(self.policies) - 1

    def params(self, players: int) -> np.ndarray:
        """The driver's parameter vector (``driver.PRM_*``)."""
        if self.reward not in D.REWARD_MODES:
            raise ValueError(f"reward must be one of {sorted(D.REWARD_MODES)}, got {self.reward!r}")
        if self.illegal not in ("raise", "penalty"):
            raise ValueError(f"illegal must be 'raise' or 'penalty', got {self.illegal!r}")
        if self.seat_order not in ("turn", "side"):
            raise ValueError(f"seat_order must be 'turn' or 'side', got {self.seat_order!r}")
        anchor = seat_option(self.first_seat, players, "first_seat")
        prm = np.zeros(D.PRM_SIZE, dtype=np.float64)
        prm[D.PRM_REWARD_MODE] = D.REWARD_MODES[self.reward]
        prm[D.PRM_REWARD_SCALE] = float(self.reward_scale)
        prm[D.PRM_ANCHOR] = D.ANCHOR_RANDOM if anchor == "random" else anchor
        prm[D.PRM_AUTO_RESET] = float(bool(self.auto_reset))
        prm[D.PRM_PENALTY] = float(self.illegal == "penalty")
        prm[D.PRM_ILLEGAL_REWARD] = float(self.illegal_reward)
        prm[D.PRM_OBSERVE] = float(bool(self.observe))
        prm[D.PRM_BY_SIDE] = float(self.seat_order == "side")
        prm[D.PRM_DEAD_END] = -1.0
        return prm
