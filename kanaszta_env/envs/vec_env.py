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
``reset(seed=s + i + k * N)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from ..encoding import ObservationSpace, View
from ..engine import ENDED_ILLEGAL, ENDED_TERMINATED, ENDED_TRUNCATED, GameBatch, seat_option
from ..rules import Rules, resolve_rules
from .options import PARTNER_COPY, check_render_mode, learner_seating
from .render import render_table, show

__all__ = ["KanasztaVecEnv"]


class KanasztaVecEnv(VecEnv):
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
        **rule_kwargs: Any,
    ) -> None:
        rules = resolve_rules(rules, rule_kwargs)
        check_render_mode(render_mode)
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
        super().__init__(num_envs, ObservationSpace(rules), spaces.Discrete(self._games.num_actions))
        self._actions: np.ndarray | None = None

    # --- the VecEnv contract ------------------------------------------------------
    def reset(self) -> np.ndarray:
        if self._seeds[0] is None:
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
        # a fresh buffer per step: SB3 keeps the returned array while the next step runs
        obs = np.empty((self.num_envs, games.obs_size), dtype=np.float32)
        games.step(np.asarray(actions).reshape(self.num_envs), out=obs)
        ended = games.ended
        dones = ended != 0
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            flags = int(ended[i])
            info = infos[i]
            info["terminal_observation"] = games.terminal_observations[i].copy()
            info["TimeLimit.truncated"] = bool(flags & ENDED_TRUNCATED) and not flags & ENDED_TERMINATED
            if flags & ENDED_ILLEGAL:
                info["illegal_action"] = True
        return games.observe(), games.anchor_rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """(N, A) int8 legal actions of the learners' current observations."""
        return self._games.legal_mask().astype(np.int8)

    def views(self) -> View:
        """The learners' structured views of their current observations (one row
        per game: :meth:`kanaszta_env.engine.GameBatch.views` of the learner's
        seat), e.g. for a compiled bot labelling the learners' decisions."""
        return self._games.views(self._games.anchor)

    @property
    def learner_seats(self) -> np.ndarray:
        """(N,) the learner's seat in each game's current episode."""
        return self._games.anchor.copy()

    def close(self) -> None:
        pass

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

    def render(self, mode: str | None = None) -> str | np.ndarray | None:  # type: ignore[override]
        """Game 0's table: a string (``"ansi"``), an RGB image (``"rgb_array"``), or printed (``"human"``)."""
        mode = mode or self.render_mode
        if mode is None:
            return None
        seat = int(self._games.anchor[0])
        names = [f"player_{q}" + (" (learner)" if q == seat else "") for q in range(self.rules.num_players)]
        return show(render_table(self._games.state, self.rules, 0, names), mode, print)
