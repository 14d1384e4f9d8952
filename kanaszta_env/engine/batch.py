"""``GameBatch``: the one stepping API of the package.

One object holds ``B`` games of one :class:`~kanaszta_env.rules.Rules`. Every
call works on the whole batch in compiled code; a single game is a batch of
one. The PettingZoo, Gymnasium and SB3 environments, the bots' tournaments,
human play and positions are all thin adapters over it.

Seats are driven by controllers (see :mod:`kanaszta_env.engine.driver`):
``"external"`` seats take the actions passed to :meth:`GameBatch.step`;
``"random"`` seats play uniformly random legal actions inside the compiled
step; a callable ``policy(obs, mask) -> actions`` plays a seat from Python, one
call per batch of the games where that seat is to move (a policy with a true
``wants_views`` attribute, such as the compiled bots, is called as
``policy(obs, mask, views=views)`` with the deciding seats' :meth:`views`; the
attribute is read at every call). A step applies the
external actions and then plays every other seat until each game awaits an
external decision again (or is over), so one call advances the whole table.

Cross-cutting policy lives here once: an illegal external action raises
:class:`IllegalActionError` naming the game, the action and the legal ones,
and no game changes (or, with ``illegal="penalty"``, ends that episode with a
penalty); finished games ignore their actions (or are dealt again at once
with ``auto_reset``); rewards are credited to every seat; the anchor seat's
last observation of a finished episode is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numba import typeof

from ..core.packed import address_table
from ..observation import observation_size
from ..rules import Rules, resolve_rules
from . import driver as D
from .batch_readout import BatchReadout
from .kernels import kernels_for
from .options import BatchOptions, Controller, DeadEndError, IllegalActionError, game_seeds, read_actions
from .states import copy_state, select

_OPTION_NAMES = (
    "seats", "first_seat", "auto_reset", "observe", "reward", "reward_scale", "illegal", "illegal_reward",
    "seat_order",
)  # fmt: skip


class StepResult(NamedTuple):
    """What :meth:`GameBatch.step` returns, one row per game."""

    rewards: np.ndarray  # (B, P) float64 rewards credited to each seat by this step
    terminated: np.ndarray  # (B,) bool: the episode ended by the rules
    truncated: np.ndarray  # (B,) bool: the episode was cut short (R19.2)


class GameBatch(BatchReadout):
    """``batch_size`` games of one rule set (Díszített or classic canasta) stepped together.

    Args:
        rules: a :class:`~kanaszta_env.rules.Rules`; or pass its fields as keyword arguments.
        batch_size: number of games.
        seats: controllers in turn order from ``first_seat``: ``"external"``
            (default for every seat), ``"random"`` or a policy
            ``(obs (n, D) float32, mask (n, 200) bool) -> (n,) actions``.
        first_seat: seat of the first controller: an int, or ``"random"``
            (drawn from each game's seed per episode, e.g. a learner that
            changes seats). Its seat is the game's *anchor*.
        auto_reset: deal a finished game again within the same step (seeds
            advance by ``batch_size``), as SB3 vector environments do.
        observe: compute the observations of the awaited seats in every step
            (:meth:`observe` then returns them without extra work).
        reward: ``"score"`` (R16-R17 hand score minus the others' mean, at a
            hand's end, times ``reward_scale``; classic: the side's score minus
            the other sides' mean, the same for partners) or ``"win"`` (+1 / 0 /
            -1 by the totals when the episode ends; partners win together).
        illegal: ``"raise"`` (default) or ``"penalty"``: an illegal external
            action ends its episode, the mover receiving ``illegal_reward``.
        seat_order: how ``seats`` are read: ``"turn"`` (default) in turn order
            from the anchor; ``"side"`` (partnership games) as the anchor's
            controller, then one controller for all his partners, then the
            other sides' seats in turn order (unused entries are ignored).

    Example::

        games = GameBatch(Rules(num_players=2), batch_size=1024)
        games.reset(seed=0)
        mask = games.legal_mask()          # (1024, 200) bool
        result = games.step(actions)        # actions: (1024,) ints
    """

    def __init__(
        self,
        rules: Rules | None = None,
        batch_size: int = 1,
        *,
        seats: Sequence[Controller] | None = None,
        first_seat: int | str = 0,
        auto_reset: bool = False,
        observe: bool = False,
        reward: str = "score",
        reward_scale: float = 1.0,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        seat_order: str = "turn",
        **rule_kwargs: Any,
    ) -> None:
        rules = resolve_rules(rules, rule_kwargs)
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        batch_size = int(batch_size)
        players = rules.num_players
        self.options = BatchOptions(
            None if seats is None else tuple(seats), first_seat, auto_reset, observe, reward, reward_scale,
            illegal, illegal_reward, seat_order,
        )  # fmt: skip
        lineup = self.options.lineup(players)
        self.policies = self.options.policies
        # policies of games without structured views read observations
        self._views_allowed = rules.game.has("views")
        self._pol_views: NamedTuple | None = None
        prm = self.options.params(players)
        self.rules = rules
        self.batch_size = batch_size
        self.obs_size = observation_size(rules)
        self._cfg = rules.to_config()
        self._kernels = kernels_for(rules.spec)  # compiled for the game the rules play
        self.action_names = rules.game.action_names(rules)
        self.num_actions = len(self.action_names)
        self._state = self._kernels.ruleset.new_state(batch_size, players)
        self._state.phase[:] = self._kernels.ruleset.PHASE_OVER
        self._seats = self._kernels.driver.new_seats(batch_size, players, self.obs_size, lineup)
        self._params = prm
        self._random_only = not self.policies
        self._has_reset = False
        self._obs = np.zeros((batch_size, self.obs_size), dtype=np.float32)
        self._obs_fresh = self._obs_lent = False  # lent: _obs is a caller's ``out`` (step)
        # buffers of the Python policies' decisions (and typed placeholders)
        self._idx = np.zeros(batch_size, dtype=np.int64)
        self._pol_obs = np.zeros((batch_size, self.obs_size), dtype=np.float32)
        self._pol_masks = np.zeros((batch_size, self.num_actions), dtype=np.bool_)
        self._no_seeds = np.zeros(0, dtype=np.uint64)
        self._no_which = np.zeros(0, dtype=np.bool_)
        self._no_actions = np.zeros(0, dtype=np.int64)
        self._actions = np.zeros(batch_size, dtype=np.int64)
        self._given: dict[int, int] = {}  # out-of-range action ids of the last step, by game
        self._drive = None
        self._fill = None
        self._owned = self._table = self._kinds = None  # the driver's table of addresses (_bind)
        self._param_items: memoryview | None = None  # self._params read as Python floats

    # --- the compiled driver ------------------------------------------------------
    def _bind(self) -> None:
        """This batch's own arrays (held in ``_owned`` while addressed) as one table of addresses
        for the compiled driver (:mod:`~kanaszta_env.core.packed`); rebuilt when the state or
        the driver's arrays are replaced (:meth:`_call` checks) and after unpickling."""
        self._owned = owned = (self._state, self._cfg, self._seats, self._params, self._pol_masks)
        self._table = address_table(owned)
        self._kinds = typeof(owned)
        self._param_items = memoryview(self._params)
        self._drive = D.compiled_entry(
            self._kernels.driver.drive, self._table, self._kinds, 0, self._no_actions, self._pol_obs,
            self._idx, 0, self._no_seeds, self._no_which,
        )  # fmt: skip

    def _call(self, op: int, actions=None, obs=None, arg: int = 0, seeds=None, which=None, idx=None) -> int:
        owned = self._owned
        if self._drive is None or owned[0] is not self._state or owned[2] is not self._seats:
            self._bind()
        result = self._drive(
            self._table,
            self._kinds,
            op,
            self._no_actions if actions is None else actions,
            self._pol_obs if obs is None else obs,
            self._idx if idx is None else idx,
            arg,
            self._no_seeds if seeds is None else seeds,
            self._no_which if which is None else which,
        )
        if self._param_items[D.PRM_DEAD_END] >= 0:
            self._dead_end(int(self._param_items[D.PRM_DEAD_END]))
        return result

    # --- lifecycle ---------------------------------------------------------------
    def reset(
        self, seed: int | Sequence[int] | np.ndarray | None = None, which: np.ndarray | None = None
    ) -> None:
        """Deal new games: game ``i`` from seed ``seed + i`` (or ``seed[i]``).
        ``which`` (bool mask) restricts the reset to some games."""
        seeds = game_seeds(seed, self.batch_size)
        if which is None:
            which = np.ones(self.batch_size, dtype=np.bool_)
        which = np.asarray(which)
        if which.shape != (self.batch_size,) or which.dtype != np.bool_:
            raise ValueError(f"which must be a bool mask of shape ({self.batch_size},), got {which!r}")
        if not self._has_reset and not which.all():
            raise ValueError("the first reset() must deal every game (which=None)")
        self._call(D.OP_START, seeds=seeds, which=np.ascontiguousarray(which))
        self._settle()

    def adopt(self, anchors: np.ndarray | int | None = None) -> None:
        """Take :attr:`state` as it stands (e.g. a loaded position) as the
        current games: seat the controllers around ``anchors`` (default: the
        fixed first seat, else 0), let non-external seats move, and recompute
        masks and observations."""
        if anchors is None:
            anchors = max(int(self._params[D.PRM_ANCHOR]), 0)
        anchors = np.broadcast_to(np.asarray(anchors, dtype=np.int64), (self.batch_size,)).copy()
        if ((anchors < 0) | (anchors >= self.rules.num_players)).any():
            raise ValueError(f"anchor seats must lie in 0..{self.rules.num_players - 1}")
        self._call(D.OP_ADOPT, idx=anchors)
        self._settle()

    def _settle(self) -> None:
        """After a deal or adopted state: seats move, masks and observations fill the batch's own array."""
        self._has_reset = True
        self._advance()
        if self._obs_lent:
            self._obs, self._obs_lent = self._obs.copy(), False
        self._call(D.OP_OBSERVE, obs=self._obs)
        self._obs_fresh = bool(self._params[D.PRM_OBSERVE])

    def step(
        self,
        actions: Sequence[int] | np.ndarray | int,
        out: np.ndarray | None = None,
        where: np.ndarray | None = None,
    ) -> StepResult:
        """Apply one action per game to the games awaiting an external decision
        (the action of any other game is ignored), then play the other seats.

        ``where`` (bool, shape (B,)) restricts the step to some games: the
        others keep awaiting their decision, unchanged (their actions are
        ignored, their reward is 0, their mask and observation are returned
        again). An adapter uses it to play several actions of one game in a
        row while the rest of the batch waits.

        ``out`` (float32, shape (B, D), C-contiguous) becomes the batch's observation buffer,
        which :meth:`observe` returns until the next step with another ``out``, reset or adopt
        (they write to an array of the batch's own): an adapter that hands the observations
        on (a VecEnv) passes a fresh array each step instead of copying them.

        Raises :class:`IllegalActionError` naming the game and action if an
        action is illegal; then no game is changed (unless ``illegal="penalty"``).
        """
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        acts = self._check_actions(actions)
        acts[acts == D.WAIT] = -1  # an illegal action like any other negative one, never "wait"
        if where is not None:
            where = np.asarray(where)
            if where.shape != (self.batch_size,) or where.dtype != np.bool_:
                raise ValueError(f"where must be a bool mask of shape ({self.batch_size},), got {where!r}")
            acts = np.where(where, acts, D.WAIT)
        if out is not None and (
            out.shape != self._obs.shape or out.dtype != np.float32 or not out.flags.c_contiguous
        ):
            raise ValueError(f"out must be a C-contiguous float32 array of shape {self._obs.shape}")
        if self._random_only:
            code = self._call(D.OP_STEP, actions=acts, obs=self._obs if out is None else out)
            if code >= 0:  # nothing changed: the old buffer still holds the observations
                raise IllegalActionError(self._describe_illegal(code, self._given.get(code, int(acts[code]))))
            if out is not None:
                self._obs, self._obs_lent = out, True
            if code < -1:
                self._stuck(-2 - code)
        else:
            bad = self._call(D.OP_EXTERNAL, actions=acts)
            if bad >= 0:
                raise IllegalActionError(self._describe_illegal(bad, self._given.get(bad, int(acts[bad]))))
            self._advance()
            if out is not None:
                self._obs, self._obs_lent = out, True
            self._call(D.OP_FINISH, obs=self._obs)
        self._obs_fresh = bool(self._params[D.PRM_OBSERVE])
        ended = self._seats.ended
        return StepResult(
            self._seats.reward.copy(),
            (ended & D.ENDED_TERMINATED) != 0,
            (ended & D.ENDED_TRUNCATED) != 0,
        )

    def step_unchecked(self, actions: np.ndarray) -> None:
        """The fast path of :meth:`step` for adapters that have validated
        ``actions`` (int64, shape (B,)) against :meth:`legal_mask` themselves,
        with no Python policies seated. The results are in the step
        attributes (:attr:`rewards`, :attr:`ended`, …); the masks and observations
        in place in the arrays :meth:`legal_mask` and :meth:`observe` return."""
        code = self._call(D.OP_STEP, actions=actions, obs=self._obs)
        if code != -1:
            if code >= 0:
                raise IllegalActionError(self._describe_illegal(code, int(actions[code])))
            self._stuck(-2 - code)
        self._obs_fresh = bool(self._param_items[D.PRM_OBSERVE])

    def _check_actions(self, actions: object) -> np.ndarray:
        self._given = read_actions(actions, self.batch_size, self.num_actions, self._actions)
        return self._actions

    def _advance(self) -> None:
        """Let the non-external seats move until every game awaits an external one."""
        if self._random_only:
            stuck = self._call(D.OP_ADVANCE)
            if stuck >= 0:
                self._stuck(stuck)
            return
        progress = True
        while progress:
            stuck = self._call(D.OP_ADVANCE)
            if stuck >= 0:
                self._stuck(stuck)
            progress = False
            for k, policy in enumerate(self.policies):
                n = self._call(D.OP_GATHER, arg=k)
                if n == 0:
                    continue
                progress = True
                # read at every call: a policy may swap the agent behind it (training's opponent slots)
                if self._views_allowed and getattr(policy, "wants_views", False):
                    if self._pol_views is None:  # reused like the observations: valid during the call
                        new_views = self._kernels.compiled.new_views
                        self._pol_views = new_views(self.batch_size, self.rules.num_players)
                    rows = self._idx[:n]
                    views = self.views(self._state.to_move[rows], rows, self._pol_views.rows(slice(0, n)))
                    acts = policy(self._pol_obs[:n], self._pol_masks[:n], views=views)
                else:
                    acts = policy(self._pol_obs[:n], self._pol_masks[:n])
                acts = np.asarray(acts).reshape(-1)
                if acts.shape != (n,) or not np.issubdtype(acts.dtype, np.integer):
                    raise ValueError(f"seat policy {policy!r} must return {n} integer actions, got {acts!r}")
                bad = self._call(D.OP_POLICY, actions=acts.astype(np.int64), arg=n)
                if bad >= 0:
                    a = int(acts[bad])
                    name = self.action_names[a] if 0 <= a < self.num_actions else str(a)
                    b = int(self._idx[bad])
                    raise IllegalActionError(
                        f"the policy in seat {int(self._state.to_move[b])} ({policy!r}) chose the illegal "
                        f"action {name!r} in game {b}"
                    )
                if bad < -1:
                    self._stuck(-2 - bad)

    def _describe_illegal(self, b: int, a: int) -> str:
        if 0 <= a < self.num_actions:
            what = f"action {self.action_names[a]!r} (id {a})"
        else:
            what = f"action id {a} (ids run from 0 to {self.num_actions - 1})"
        legal = [self.action_names[i] for i in np.flatnonzero(self._seats.legal[b])]
        shown = ", ".join(legal[:12]) + (" …" if len(legal) > 12 else "")
        return (
            f"illegal {what} in game {b}: player {int(self._state.to_move[b])} is in phase "
            f"{self._kernels.ruleset.PHASE_NAMES[self._state.phase[b]]!r}; legal actions: {shown}"
        )

    def _dead_end(self, b: int) -> None:
        self._params[D.PRM_DEAD_END] = -1.0
        phase = self._kernels.ruleset.PHASE_NAMES[self._state.phase[b]]
        raise DeadEndError(b, int(self._state.to_move[b]), phase)

    def _stuck(self, b: int) -> None:
        raise RuntimeError(
            f"game {b} ended {D.MAX_RESETS_PER_STEP} times in a row before any external decision "
            "(is the turn limit shorter than a round of turns?)"
        )

    # --- copies -------------------------------------------------------------------
    def copy(self) -> GameBatch:
        """An independent copy of the whole batch (the same controllers)."""
        other = self._like(self.batch_size)
        other._state = copy_state(self._state)
        other._seats = D.Seats(*(a.copy() for a in self._seats))
        other._obs = self._obs.copy()
        other._obs_fresh = self._obs_fresh
        other._has_reset = self._has_reset
        return other

    def game(self, index: int) -> GameBatch:
        """Game ``index`` as an independent batch of one (external seats only)."""
        if not 0 <= index < self.batch_size:
            raise IndexError(f"game index {index} outside 0..{self.batch_size - 1}")
        one = GameBatch(self.rules, 1)
        one.state = select(self._state, index)
        return one

    def _like(self, batch_size: int) -> GameBatch:
        return GameBatch(self.rules, batch_size, **{k: getattr(self.options, k) for k in _OPTION_NAMES})

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_drive"] = state["_fill"] = None  # compiled entries do not pickle; rebuilt (from cache) on use
        state["_owned"] = state["_table"] = state["_kinds"] = state["_param_items"] = None  # rebuilt on use
        del state["_kernels"]  # modules do not pickle; found again from the rules
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._owned, self._obs_lent = None, False  # the table is built on use; _obs is its own
        self._kernels = kernels_for(self.rules.spec)
