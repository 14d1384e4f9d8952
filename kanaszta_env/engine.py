"""``GameBatch``: the public Python face of the rules core.

One object holds ``B`` games of one :class:`~kanaszta_env.rules.Rules`. Every
call works on the whole batch in compiled code; a single game is a batch of
one. Illegal input raises :class:`IllegalActionError` and leaves every game
unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from .actions import ACTION_NAMES, NUM_ACTIONS, action_name
from .core.batch import first_illegal, reset_batch, step_batch
from .core.legal import legal_mask
from .core.state import PHASE_NAMES, PHASE_OVER, State, copy_state, new_state, select
from .rules import Rules, resolve_rules


class IllegalActionError(ValueError):
    """An action that the rules do not permit in that game's position."""


class StepResult(NamedTuple):
    """What :meth:`GameBatch.step` returns, one row per game."""

    rewards: np.ndarray  # (B, P) float64: hand score minus the others' mean, at a hand's end
    terminated: np.ndarray  # (B,) bool: the episode ended by the rules
    truncated: np.ndarray  # (B,) bool: the episode was cut short (R19.2)


def game_seeds(seed: int | Sequence[int] | np.ndarray | None, batch_size: int) -> np.ndarray:
    """Per-game seeds: an int ``s`` gives games ``s, s+1, …``; a sequence is used as is."""
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))
    if isinstance(seed, (int, np.integer)):
        if seed < 0:
            raise ValueError(f"seed must be non-negative, got {seed}")
        return (np.uint64(seed) + np.arange(batch_size, dtype=np.uint64)).astype(np.uint64)
    seeds = np.asarray(seed)
    if seeds.shape != (batch_size,) or not np.issubdtype(seeds.dtype, np.integer) or (seeds < 0).any():
        raise ValueError(f"seeds must be {batch_size} non-negative integers, got {seed!r}")
    return seeds.astype(np.uint64)


class GameBatch:
    """``batch_size`` games of Díszített kanaszta stepped together.

    Example::

        games = GameBatch(Rules(num_players=2), batch_size=1024)
        games.reset(seed=0)
        mask = games.legal_mask()          # (1024, 200) bool
        result = games.step(actions)        # actions: (1024,) ints
    """

    def __init__(self, rules: Rules | None = None, batch_size: int = 1, **rule_kwargs: object) -> None:
        rules = resolve_rules(rules, rule_kwargs)
        if type(batch_size) is not int or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        self.rules = rules
        self.batch_size = batch_size
        self.state: State = new_state(batch_size, rules.num_players)
        self.state.phase[:] = PHASE_OVER
        self._cfg = rules.to_config()
        self._mask = np.zeros((batch_size, NUM_ACTIONS), dtype=np.bool_)
        self._rewards = np.zeros((batch_size, rules.num_players), dtype=np.float64)
        self._terminated = np.zeros(batch_size, dtype=np.bool_)
        self._truncated = np.zeros(batch_size, dtype=np.bool_)

    # --- lifecycle ---------------------------------------------------------------
    def reset(
        self, seed: int | Sequence[int] | np.ndarray | None = None, which: np.ndarray | None = None
    ) -> None:
        """Start new games. ``which`` (bool mask) restricts the reset to some games."""
        seeds = game_seeds(seed, self.batch_size)
        if which is None:
            which = np.ones(self.batch_size, dtype=np.bool_)
        which = np.asarray(which, dtype=np.bool_)
        if which.shape != (self.batch_size,):
            raise ValueError(f"which must be a bool mask of shape ({self.batch_size},)")
        reset_batch(self.state, self._cfg, seeds, which)

    def legal_mask(self) -> np.ndarray:
        """(B, 200) bool legal actions; a row of a finished game is all False.
        The array is reused by the next call: copy it to keep it."""
        legal_mask(self.state, self._cfg, self._mask)
        return self._mask

    def step(self, actions: Sequence[int] | np.ndarray) -> StepResult:
        """Apply one action per game (ignored for finished games).

        Raises :class:`IllegalActionError` naming the game and action if any
        action is illegal; then no game is changed.
        """
        acts = np.asarray(actions)
        if acts.shape != (self.batch_size,) or not np.issubdtype(acts.dtype, np.integer):
            raise IllegalActionError(f"actions must be {self.batch_size} integers, got {actions!r}")
        acts = acts.astype(np.int64)
        bad = first_illegal(self.state, self._cfg, acts)
        if bad >= 0:
            raise IllegalActionError(self._describe_illegal(bad, int(acts[bad])))
        step_batch(self.state, self._cfg, acts, self._rewards, self._terminated, self._truncated)
        return StepResult(self._rewards.copy(), self._terminated.copy(), self._truncated.copy())

    def _describe_illegal(self, b: int, a: int) -> str:
        what = f"action {action_name(a)!r} (id {a})" if 0 <= a < NUM_ACTIONS else f"action id {a}"
        legal = self.legal_names(b)
        shown = ", ".join(legal[:12]) + (" …" if len(legal) > 12 else "")
        return (
            f"illegal {what} in game {b}: player {int(self.state.to_move[b])} is in phase "
            f"{PHASE_NAMES[self.state.phase[b]]!r}; legal actions: {shown}"
        )

    # --- views --------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.rules.num_players

    @property
    def phase(self) -> np.ndarray:
        """(B,) phase ids; names in :data:`kanaszta_env.core.state.PHASE_NAMES`."""
        return self.state.phase

    @property
    def to_move(self) -> np.ndarray:
        """(B,) seat whose decision it is."""
        return self.state.to_move

    @property
    def done(self) -> np.ndarray:
        """(B,) bool: the episode is over."""
        return self.state.phase == PHASE_OVER

    def legal_names(self, game: int = 0) -> list[str]:
        """Names of the legal actions of one game."""
        row = np.zeros((1, NUM_ACTIONS), dtype=np.bool_)
        legal_mask(select(self.state, game), self._cfg, row)
        return [ACTION_NAMES[a] for a in np.flatnonzero(row[0])]

    def copy(self) -> GameBatch:
        """An independent copy of the whole batch."""
        other = GameBatch(self.rules, self.batch_size)
        other.state = copy_state(self.state)
        return other

    def game(self, index: int) -> GameBatch:
        """Game ``index`` as an independent batch of one."""
        if not 0 <= index < self.batch_size:
            raise IndexError(f"game index {index} outside 0..{self.batch_size - 1}")
        one = GameBatch(self.rules, 1)
        one.state = select(self.state, index)
        return one
