"""A Stable-Baselines3 ``VecEnv`` backed directly by the batched core.

``KanasztaVecEnv(num_envs)`` holds ``num_envs`` games in one batch. Only the
learner's seat of each game is exposed; the other seats are played inside
:meth:`step_wait` by batched opponent policies (the built-in random player
runs inside the same compiled call as the learners' actions, so a step is one
numba call plus the assembly of SB3's ``infos``). The SB3 contract:

* same-step auto-reset: a finished game is dealt again at once; its last
  observation is in ``infos[i]["terminal_observation"]`` and
  ``infos[i]["TimeLimit.truncated"]`` tells a turn-limit truncation (R19.2);
* the learner's terminal reward is delivered even when the hand ends on an
  opponent's move, and trajectories contain the learner's decisions only;
* ``action_masks()`` (read by sb3-contrib's ``MaskablePPO`` through
  ``env_method("action_masks")``) gives the masks of the returned
  observations, post-reset ones included.

Seeds: after ``seed(s)``, game ``i`` plays the core deals ``s + i``,
``s + i + N``, ``s + i + 2N``, … — the same deals as the AEC env's
``reset(seed=s + i + k * N)``. A later ``reset()`` without a new seed goes on with
each game's sequence (as a seeded Gymnasium env goes on with its generator); before
any seed, ``reset()`` draws fresh entropy.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from ..engine import (
    ENDED_ILLEGAL,
    ENDED_TERMINATED,
    ENDED_TRUNCATED,
    GameBatch,
    IllegalActionError,
    seat_option,
)
from ..games import all_games
from ..games.diszitett.observation import View
from ..rules import Rules, resolve_rules
from ..spaces import ObservationSpace
from .options import PARTNER_COPY, check_render_mode, learner_seating
from .rank_melds import NUM_RANK_MELDS, RANK_MELD0, RANK_MELD_NAMES, extend_mask, next_atoms
from .render import render_table, show

__all__ = ["InProcessVecEnv", "KanasztaVecEnv", "ObservationBuffers"]


class ObservationBuffers:
    """Fresh-looking observation arrays without fresh memory.

    SB3 keeps the array a step returned while the next step runs, so every step
    needs an array nobody else holds. A new array of fresh pages costs a page
    fault per 4 KB written (at 4096 Turkish games, about 30% of the step); this
    hands out again an array of an earlier step that its caller has let go of
    (no reference left to it or to a view of it), and a new one otherwise.
    """

    KEEP = 4  # arrays kept for reuse; beyond them a caller that keeps every array gets new ones

    def __init__(self, shape: tuple[int, int]) -> None:
        self.shape = shape
        self._kept: list[np.ndarray] = []

    def take(self) -> np.ndarray:
        """A float32 array of :attr:`shape` that no one else references (its content is stale)."""
        for i in range(len(self._kept)):
            if sys.getrefcount(self._kept[i]) == 2:  # the list's reference and the call's
                return self._kept[i]
        out = np.empty(self.shape, dtype=np.float32)
        if len(self._kept) < self.KEEP:
            self._kept.append(out)
        return out


class InProcessVecEnv(VecEnv):
    """A VecEnv whose games all live in this process, in one object: an attribute or a method
    is the VecEnv's own, the same for every game (``action_masks``: its rows)."""

    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices) if isinstance(indices, Iterable) else [indices]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]


class KanasztaVecEnv(InProcessVecEnv):
    """``num_envs`` learner games stepped together (see the module docstring).

    Args:
        num_envs: number of games.
        rules: a :class:`~kanaszta_env.rules.Rules`; or pass its fields as keyword arguments.
        opponents: a bot name (``"random"``, ``"greedy"``, ``"heuristic"``, …), a
            policy ``(obs, mask) -> actions``, or one of them per opponent seat (in
            turn order after the learner). Bots are built with the env's rules.
        partner: who plays the learner's partners in classic canasta: ``"copy"``
            (default, the learner) or an opponent entry; see
            :class:`~kanaszta_env.envs.gym_env.KanasztaGymEnv`.
        learner_seat: ``"random"`` (drawn from each game's seed) or a fixed seat.
        reward, reward_scale, illegal, illegal_reward: as in
            :class:`~kanaszta_env.envs.gym_env.KanasztaGymEnv`.
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"`` (renders game 0).
        rank_melds: add one action per rank group that melds all of the learner's
            naturals of that rank in one decision (Díszített kanaszta only;
            :mod:`kanaszta_env.envs.rank_melds`).
    """

    def __init__(
        self,
        num_envs: int,
        rules: Rules | None = None,
        *,
        opponents: object = "random",
        partner: object = PARTNER_COPY,
        learner_seat: int | str = "random",
        reward: str = "score",
        reward_scale: float = 1e-3,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        rank_melds: bool = False,
        **rule_kwargs: Any,
    ) -> None:
        rules = resolve_rules(rules, rule_kwargs)
        check_render_mode(render_mode)
        if rank_melds and not rules.game.has("rank_melds"):
            owners = " and ".join(g.title for g in all_games() if g.has("rank_melds"))
            raise ValueError(
                f"rank_melds is an action layer of {owners}, not of {rules.game.title} ({rules.variant!r})"
            )
        self.rank_melds = bool(rank_melds)
        self._illegal = illegal
        self.rules = rules
        self.render_mode = render_mode  # read by VecEnv.__init__ through get_attr
        self._games = GameBatch(
            rules,
            num_envs,
            **learner_seating(rules, opponents, partner),
            first_seat=seat_option(learner_seat, rules.num_players, "learner_seat"),
            auto_reset=True,
            observe=True,
            reward=reward,
            reward_scale=reward_scale,
            illegal=illegal,
            illegal_reward=illegal_reward,
        )
        actions = self._games.num_actions + (NUM_RANK_MELDS if self.rank_melds else 0)
        super().__init__(num_envs, ObservationSpace(rules), spaces.Discrete(actions))
        self._actions: np.ndarray | None = None
        self._buffers = ObservationBuffers((num_envs, self._games.obs_size))

    # --- the VecEnv contract ------------------------------------------------------
    def reset(self) -> np.ndarray:
        if self._seeds[0] is None and self._games.has_reset:  # go on with each game's deals
            seeds = self._games.deal_seeds + np.uint64(self.num_envs)
        elif self._seeds[0] is None:
            base = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(2))
            seeds = base + np.arange(self.num_envs, dtype=np.uint64)
        else:
            seeds = np.array(self._seeds, dtype=np.uint64)
        self._reset_seeds()
        self._games.reset(seed=seeds)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self._games.observe().copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        actions, self._actions = self._actions, None
        games = self._games
        obs = self._buffers.take()  # SB3 keeps the returned array while the next step runs
        actions = np.asarray(actions)
        if actions.size != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, one per game; got shape {actions.shape}")
        actions = actions.reshape(self.num_envs)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if not self.rank_melds:
            games.step(actions, out=obs)
            return games.observe(), games.anchor_rewards.astype(np.float32), self._ended(infos), infos
        return self._step_rank_melds(actions, obs, infos)

    def _step_rank_melds(
        self, actions: np.ndarray, obs: np.ndarray, infos: list[dict[str, Any]]
    ) -> VecEnvStepReturn:
        """One decision per game, a rank's action being as many natural melds as
        stay legal: the games with more melds to make step on alone (``where``)."""
        games = self._games
        groups = np.where(actions >= RANK_MELD0, actions - RANK_MELD0, -1)
        ranked = groups >= 0
        if ranked.any():
            # a rank's action with none of its melds legal becomes an illegal atom (-1), which
            # the engine refuses or penalises like any illegal action (``illegal``)
            rows = np.flatnonzero(ranked)
            atoms = next_atoms(games.legal_mask()[rows], groups[rows])
            if self._illegal == "raise" and (atoms < 0).any():
                b = int(rows[atoms < 0][0])
                name = RANK_MELD_NAMES[groups[b]] if groups[b] < NUM_RANK_MELDS else str(actions[b])
                raise IllegalActionError(f"the action {name!r} of game {b} is not legal now")
            actions = actions.copy()
            actions[rows] = atoms
        games.step(actions, out=obs)
        rewards = games.anchor_rewards.astype(np.float32)
        dones = self._ended(infos)
        going = ranked & ~dones
        while going.any():
            atoms = np.full(self.num_envs, -1, dtype=np.int64)
            atoms[going] = next_atoms(games.legal_mask()[going], groups[going])
            going &= atoms >= 0
            if not going.any():
                break
            games.step(atoms, where=going)
            rewards += games.anchor_rewards
            dones |= self._ended(infos)
            going &= ~dones
        return games.observe(), rewards, dones, infos

    def _ended(self, infos: list[dict[str, Any]]) -> np.ndarray:
        """The games the last step ended: their SB3 infos are filled in."""
        games = self._games
        ended = games.ended
        dones = ended != 0
        for i in np.flatnonzero(dones):
            flags = int(ended[i])
            info = infos[i]
            info["terminal_observation"] = games.terminal_observations[i].copy()
            info["TimeLimit.truncated"] = bool(flags & ENDED_TRUNCATED) and not flags & ENDED_TERMINATED
            if flags & ENDED_ILLEGAL:
                info["illegal_action"] = True
        return dones

    def action_masks(self) -> np.ndarray:
        """(N, A) int8 legal actions of the learners' current observations."""
        mask = self._games.legal_mask()
        return (extend_mask(mask) if self.rank_melds else mask).astype(np.int8)

    def views(self) -> View:
        """The learners' structured views of their current observations (one row
        per game: :meth:`kanaszta_env.engine.GameBatch.views` of the learner's
        seat), e.g. for a compiled bot labelling the learners' decisions."""
        return self._games.views(self._games.anchor)

    @property
    def games(self) -> GameBatch:
        """The :class:`~kanaszta_env.engine.GameBatch` this VecEnv steps, for reading any
        seat (e.g. ``games.observe(seats)``); stepping it directly desynchronises the VecEnv."""
        return self._games

    def close(self) -> None:
        pass

    def render(self, mode: str | None = None) -> str | np.ndarray | None:  # type: ignore[override]
        """Game 0's table: a string (``"ansi"``), an RGB image (``"rgb_array"``), or printed (``"human"``)."""
        mode = mode or self.render_mode
        if mode is None:
            return None
        seat = int(self._games.anchor[0])
        names = [f"player_{q}" + (" (learner)" if q == seat else "") for q in range(self.rules.num_players)]
        return show(render_table(self._games.state, self.rules, 0, names), mode, print)
