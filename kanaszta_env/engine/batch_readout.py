"""What a :class:`~kanaszta_env.engine.batch.GameBatch` shows: its state, the
legal masks, observations and views of the seats, the results of the last
step and the scores. :class:`BatchReadout` is the read side of the class (a
mixin: it reads the arrays that ``GameBatch`` keeps and computes nothing of
the games itself).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..core.common import END_NAMES
from ..rules import Rules
from . import driver as D
from .kernels import Kernels
from .options import DeadEndError


class BatchReadout:
    """The read side of a :class:`~kanaszta_env.engine.batch.GameBatch` (and the setter of its state)."""

    # kept by GameBatch (see its __init__)
    rules: Rules
    batch_size: int
    obs_size: int
    _state: NamedTuple  # the rule set's state tuple
    _seats: D.Seats
    _cfg: np.ndarray
    _params: np.ndarray
    _kernels: Kernels
    action_names: tuple[str, ...]
    _obs: np.ndarray
    _obs_fresh: bool
    _has_reset: bool
    _drive: Any
    _fill: Any
    # and its methods adopt() (the state setter) and _call() (the compiled driver)

    @property
    def state(self) -> NamedTuple:
        """The state arrays (read them freely; after writing them, call :meth:`adopt`)."""
        return self._state

    @state.setter
    def state(self, state: NamedTuple) -> None:
        if type(state) is not type(self._state):
            want = type(self._state).__name__
            raise ValueError(f"expected a {want} for {self.rules.variant!r}, got {type(state).__name__}")
        if len(state.phase) != self.batch_size or state.hand.shape[1] != self.rules.num_players:
            raise ValueError("the state does not match this batch's size and number of players")
        kept = (self._state, D.Seats(*(a.copy() for a in self._seats)), self._obs.copy(), self._obs_fresh,
                self._has_reset)  # fmt: skip
        self._state = type(state)(*(np.ascontiguousarray(a) for a in state))
        self._drive = self._fill = None  # the compiled entries are typed on the arrays they were given
        try:
            self.adopt()
        except DeadEndError:  # a state with no legal action is refused: the batch keeps its games
            self._state, self._seats, self._obs, self._obs_fresh, self._has_reset = kept
            self._drive = self._fill = None
            raise

    def legal_mask(self) -> np.ndarray:
        """(B, A) bool legal actions of the seat each game awaits (``A`` =
        :attr:`num_actions`: 200 in Díszített, 57 in classic); a row of a
        finished game is all False. The array is updated in place by the next
        step: copy it to keep it."""
        return self._seats.legal

    def observe(self, seats: np.ndarray | int | None = None) -> np.ndarray:
        """(B, D) float32 observations: by default of the seat each game awaits
        (the anchor's last one for a finished game); else row ``b`` is seat
        ``seats[b]``'s view of game ``b``."""
        if seats is None:
            if not self._obs_fresh:
                self._params[D.PRM_OBSERVE] = 1.0
                self._call(D.OP_OBSERVE, obs=self._obs)  # idempotent: only masks and observations
                self._params[D.PRM_OBSERVE] = 0.0
                self._obs_fresh = True
            return self._obs
        players = np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.batch_size,))
        if ((players < 0) | (players >= self.rules.num_players)).any():
            raise ValueError(f"observer seats must lie in 0..{self.rules.num_players - 1}, got {seats!r}")
        out = np.empty((self.batch_size, self.obs_size), dtype=np.float32)
        rows = np.arange(self.batch_size, dtype=np.int64)
        self._kernels.ruleset.encode_games(self._state, self._cfg, rows, np.ascontiguousarray(players), out)
        return out

    def views(
        self,
        seats: np.ndarray | int | None = None,
        games: np.ndarray | None = None,
        out: NamedTuple | None = None,
    ) -> NamedTuple:
        """Structured views (the game's ``View``, e.g. Díszített's
        :class:`~kanaszta_env.games.diszitett.kernels.view.View`: integer arrays
        with a leading row axis): the same information as :meth:`observe`, never
        more. Row ``i`` is seat ``seats[i]``'s view of game ``games[i]`` (default:
        every game, each seen by the seat to move); written into ``out`` if given."""
        if not self.rules.game.has("views"):
            raise ValueError(f"{self.rules.game.title} has no structured views: read its observations")
        rows = np.arange(self.batch_size) if games is None else np.asarray(games, dtype=np.int64).reshape(-1)
        if ((rows < 0) | (rows >= self.batch_size)).any():
            raise ValueError(f"game indices must lie in 0..{self.batch_size - 1}, got {games!r}")
        who = self._state.to_move[rows] if seats is None else seats
        players = np.broadcast_to(np.asarray(who, dtype=np.int64), rows.shape)
        if ((players < 0) | (players >= self.rules.num_players)).any():
            raise ValueError(f"observer seats must lie in 0..{self.rules.num_players - 1}, got {seats!r}")
        if out is None:
            out = self._kernels.compiled.new_views(rows.shape[0], self.rules.num_players)
        elif (
            out.info.shape[0] != rows.shape[0]
            or out.groups.shape[1] != self.rules.num_players
            or not all(a.dtype == np.int64 and a.flags.c_contiguous for a in out)
        ):
            raise ValueError(
                f"out must hold {rows.shape[0]} views of {self.rules.num_players} players "
                "(contiguous int64 arrays, e.g. rows of the game's new_views)"
            )
        args = (self._state, self._cfg, np.ascontiguousarray(rows), np.ascontiguousarray(players), out)
        if self._fill is None:  # skips numba's type resolution of the 63 arrays on later calls
            self._fill = D.compiled_entry(self._kernels.compiled.fill_views, *args)
        self._fill(*args)
        return out

    @property
    def deal_seeds(self) -> np.ndarray:
        """(N,) uint64 seed each game's current hand was dealt from (a copy); an automatic
        reset deals game ``i``'s next hand from ``deal_seeds[i] + N``."""
        return self._seats.seeds.copy()

    @property
    def has_reset(self) -> bool:
        """Whether the games were dealt (or adopted) at least once."""
        return self._has_reset

    @property
    def num_players(self) -> int:
        return self.rules.num_players

    @property
    def phase(self) -> np.ndarray:
        """(B,) phase ids; names in :data:`kanaszta_env.games.diszitett.kernels.state.PHASE_NAMES`."""
        return self._state.phase

    @property
    def to_move(self) -> np.ndarray:
        """(B,) seat whose decision it is."""
        return self._state.to_move

    @property
    def done(self) -> np.ndarray:
        """(B,) bool: the episode is over (by the rules, or ended by an illegal
        action in penalty mode) and waits for a reset."""
        return self._seats.over

    @property
    def anchor(self) -> np.ndarray:
        """(B,) the seat of the first controller in each game's current episode."""
        return self._seats.anchor

    @property
    def anchor_rewards(self) -> np.ndarray:
        """(B,) the anchor seat's reward of the last step (of the episode that ended, if one did)."""
        return self._seats.anchor_reward

    @property
    def ended(self) -> np.ndarray:
        """(B,) int8 end flags of the last step (``driver.ENDED_*``; 0 = still running)."""
        return self._seats.ended

    @property
    def terminal_observations(self) -> np.ndarray:
        """(B, D) the anchor's last observation of the episodes that ended in the last step."""
        return self._seats.terminal_obs

    @property
    def rewards(self) -> np.ndarray:
        """(B, P) rewards credited to each seat by the last step."""
        return self._seats.reward

    def legal_names(self, game: int = 0) -> list[str]:
        """Names of the legal actions of one game."""
        return [self.action_names[a] for a in np.flatnonzero(self._seats.legal[game])]

    def summary(self, game: int = 0) -> dict[str, Any]:
        """The scores of game ``game``: recorded hand scores and totals per seat,
        hands played, how the last hand ended and who went out."""
        s = self._state
        out = int(s.out_player[game])
        return {
            "hand_scores": [int(x) for x in s.hand_scores[game]],
            "totals": [int(x) for x in s.totals[game]],
            "hands_played": int(s.hand_number[game]),
            "end_reason": END_NAMES[int(s.end_reason[game])],
            "went_out": out if out >= 0 else None,
        } | ({"sides": list(self.rules.sides())} if self.rules.partnerships else {})
