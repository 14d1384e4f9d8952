"""The training environment RLlib's env runners step: one vectorised env over the batched engine.

:class:`PoolVectorEnv` is a :class:`gymnasium.vector.VectorEnv` of ``num_envs`` games held in a
few :class:`~kanaszta_env.engine.GameBatch` es (the *slots*), each slot against an opponent drawn
from an :class:`~training.opponents.OpponentPool`, so RLlib sees a single-agent env whose step is
one compiled engine call per slot (``docs/rllib.md``, Design: the seats, the
``vector_entry_point`` of :func:`register`, one flat vector rather than a ``Dict``). Every game of
the package trains here: the rules give the action count, the observation size and
(:data:`training.shaping_games.POTENTIALS`) the shaping.

Observations are one float32 vector per game: the encoded view ``(D,)``, with ``hint`` the bot's
one-hot choice ``(A,)`` of :mod:`agents.hinted` (as :class:`~training.hinted_env.HintedVecEnv`
appends it), then the legal-action mask ``(A,)`` (:class:`MaskedObservationSpace`; applied by
:mod:`training.rllib.module`). Rewards are the local trainer's: the hand-score difference times
``reward_scale``, ``±win_bonus`` for a hand won or lost, minus ``step_cost``, plus the game's
potential-based shaping; a turn-limit truncation ends the episode as a termination unless
``bootstrap_truncation`` (as in :class:`training.games.diszitett.shaping.ShapedReward`).

Autoreset follows gymnasium's ``NEXT_STEP`` mode, which RLlib's ``SingleAgentEnvRunner`` expects:
the step that ends a hand returns the learner's last observation of it; the next step ignores that
game's action, deals it again and returns the first observation of the new hand (reward 0).

Deals: game ``i`` of slot ``k`` reset with seed ``s`` (RLlib: the config's seed
plus the env runner's index) plays the seeds
``TRAIN_SEED_OFFSET + s * 2**32 + k * SLOT_SEED_STRIDE + i + j * n`` for its
``j``-th hand (``n`` the slot's games): never the evaluation deals.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from agents.hinted import hint_bot, hint_inputs, hint_size
from kanaszta_env import GameBatch, Rules
from kanaszta_env.engine import ENDED_TERMINATED, ENDED_TRUNCATED
from kanaszta_env.envs.options import PARTNER_COPY, learner_seating
from kanaszta_env.observation import observation_size
from kanaszta_env.spaces import ObservationSpace

from ..opponents import SLOT_SEED_STRIDE, TRAIN_SEED_OFFSET, OpponentPool, SlotOpponent
from ..shaping_games import POTENTIALS, shaped_rewards

ENV_NAME = "kanaszta-pool-vector-v0"
RUNNER_SEED_STRIDE = 2**32


def num_actions(rules: Rules) -> int:
    """The size of the action space of the game ``rules`` play."""
    return len(rules.game.action_names(rules))


class MaskedObservationSpace(spaces.Box):
    """One learner observation: the encoded view (:class:`~kanaszta_env.spaces.ObservationSpace`
    of ``rules``), with ``hint`` the bot's one-hot choice (:func:`agents.hinted.hint_size`
    inputs), then the legal-action mask (:func:`num_actions` values, 1 = legal), one float32
    vector. It declares ``rules``, ``hint``, ``hint_size``, ``observation_size`` (the network's
    input, view and hint: where the mask starts) and ``num_actions``."""

    hint: str = ""  # class defaults: the spaces pickled in checkpoints written before hints
    hint_size: int = 0

    def __init__(self, rules: Rules, hint: str = "") -> None:
        self.rules, self.hint = rules, hint
        self.hint_size = hint_size(rules) if hint else 0
        inner = self.inner()
        self.observation_size = int(inner.shape[0])
        self.num_actions = num_actions(rules)
        low = np.concatenate([inner.low, np.zeros(self.num_actions, np.float32)])
        high = np.concatenate([inner.high, np.ones(self.num_actions, np.float32)])
        super().__init__(low, high, dtype=np.float32)

    def inner(self) -> ObservationSpace:
        """The space of the network's input: the encoded view and the hint, without the mask."""
        return ObservationSpace(self.rules, hint=self.hint, hint_size=self.hint_size)


class PoolVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` learner games against pool opponents, stepped in ``slots`` batches.

    Args:
        num_envs: games (the env runner's ``num_envs_per_env_runner``).
        rules: rules of the games.
        pool: the opponent pool (bots, and snapshots added by :meth:`add_snapshot`).
        slots: groups of games, each playing one opponent drawn from the pool.
        resample_every: steps between new opponent draws (0: never).
        seed: base seed of the deals (``reset(seed=...)`` replaces it: RLlib's env runner
            ``w`` resets with the config's seed plus ``w``).
        potential: the shaping potential ``phi(obs)`` of the game (None: no shaping).
        hint: the bot whose one-hot choice follows each view (:mod:`agents.hinted`; "": none).
        reward_scale, win_bonus, step_cost, shaping, gamma, bootstrap_truncation:
        the reward, as the :class:`~training.config.TrainConfig` fields of these names.
    """

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": gym.vector.AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int,
        rules: Rules,
        pool: OpponentPool,
        *,
        slots: int = 4,
        resample_every: int = 128,
        seed: int = 0,
        potential: Callable[[np.ndarray], np.ndarray] | None = None,
        reward_scale: float = 1e-3,
        win_bonus: float = 1.0,
        step_cost: float = 0.0,
        shaping: float = 1.0,
        gamma: float = 1.0,
        bootstrap_truncation: bool = False,
        hint: str = "",
    ) -> None:
        slots = max(1, min(slots, num_envs))
        self.num_envs, self.rules, self.pool = num_envs, rules, pool
        self.single_observation_space = MaskedObservationSpace(rules, hint)
        self.obs_size = observation_size(rules)  # the plain view: what potentials and bots read
        self.hint_bot = hint_bot(hint, rules) if hint else None
        self.single_action_space = spaces.Discrete(self.single_observation_space.num_actions)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
        sizes = [num_envs // slots + (1 if k < num_envs % slots else 0) for k in range(slots)]
        self.bounds = np.cumsum([0, *sizes])
        self.opponents = [SlotOpponent(pool.sample()) for _ in sizes]
        self.batches = [
            GameBatch(
                rules,
                n,
                **learner_seating(rules, opp, PARTNER_COPY),  # partners: copies of the learner
                first_seat="random",
                auto_reset=False,
                observe=True,
                reward="score",
                reward_scale=reward_scale,
            )
            for n, opp in zip(sizes, self.opponents, strict=True)
        ]
        self.resample_every = resample_every
        self.base_seed = TRAIN_SEED_OFFSET + int(seed) * RUNNER_SEED_STRIDE
        self.hands = [np.zeros(n, dtype=np.uint64) for n in sizes]  # hands dealt per game
        self.win_bonus, self.step_cost = win_bonus, step_cost
        self.shaping = shaping if potential is not None else 0.0
        self.gamma, self.bootstrap_truncation = gamma, bootstrap_truncation
        self.potential = potential
        self._phi = np.zeros(num_envs)
        self._pending = np.zeros(num_envs, dtype=bool)  # ended last step: dealt again in this one
        self._steps = 0

    # --- opponents -----------------------------------------------------------------
    def resample(self) -> list[str]:
        """A new pool draw for every slot; their names."""
        for opp in self.opponents:
            opp.agent = self.pool.sample()
        return [opp.agent.name for opp in self.opponents]

    def add_snapshot(self, agent: Any) -> int:
        """Add a frozen learner to the pool (called on every env runner); the snapshots held."""
        self.pool.add_snapshot(agent)
        return len(self.pool.snapshots)

    # --- the gymnasium VectorEnv contract -----------------------------------------------
    def _seeds(self, k: int, which: np.ndarray | None = None) -> np.ndarray:
        n = len(self.hands[k])
        seeds = (
            np.uint64(self.base_seed + k * SLOT_SEED_STRIDE)
            + np.arange(n, dtype=np.uint64)
            + self.hands[k] * np.uint64(n)
        )
        if which is None:
            self.hands[k] += np.uint64(1)
        else:
            self.hands[k][which] += np.uint64(1)
        return seeds

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if seed is not None:  # RLlib's env runner w passes the config's seed + w
            self.base_seed = TRAIN_SEED_OFFSET + int(seed) * RUNNER_SEED_STRIDE
            self.hands = [np.zeros_like(h) for h in self.hands]
            self.pool.rng = np.random.default_rng(int(seed))
            self.resample()
        if self.hint_bot is not None:
            self.hint_bot.reset(self.num_envs)
        for k, games in enumerate(self.batches):
            games.reset(seed=self._seeds(k))
        self._pending[:] = False
        obs = self._observe()
        self._phi = self.potential(obs[:, : self.obs_size]) if self.shaping else np.zeros(self.num_envs)
        return obs, {}

    def _observe(self) -> np.ndarray:
        out = np.empty((self.num_envs, *self.single_observation_space.shape), dtype=np.float32)
        for k, games in enumerate(self.batches):
            lo, hi = self.bounds[k], self.bounds[k + 1]
            out[lo:hi, : self.obs_size] = games.observe()
            out[lo:hi, -self.single_action_space.n :] = games.legal_mask()
        if self.hint_bot is not None:  # as HintedVecEnv; a finished hand has no legal move: hint 0
            mask = out[:, -self.single_action_space.n :] > 0
            rows = np.flatnonzero(mask.any(axis=1))
            hint = out[:, self.obs_size : self.single_observation_space.observation_size]
            hint[:] = 0.0
            if rows.size:
                hint[rows] = hint_inputs(self.hint_bot, out[rows, : self.obs_size], mask[rows])
        return out

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        pending = self._pending
        rewards = np.zeros(self.num_envs)
        ended = np.zeros(self.num_envs, dtype=np.int8)
        for k, games in enumerate(self.batches):
            lo, hi = self.bounds[k], self.bounds[k + 1]
            wait = pending[lo:hi]
            if not wait.all():
                games.step(actions[lo:hi])  # the action of a finished game is ignored
                rewards[lo:hi] = games.anchor_rewards
                ended[lo:hi] = np.where(wait, 0, games.ended)
            if wait.any():
                games.reset(seed=self._seeds(k, wait), which=wait.copy())
        obs = self._observe()
        dones = ended != 0
        phi = self.potential(obs[:, : self.obs_size]) if self.shaping else None
        rewards = shaped_rewards(rewards, dones, self._phi, phi, self.shaping, self)
        rewards[pending] = 0.0  # the step that dealt a finished game's next hand
        if phi is not None:
            self._phi = phi
        truncated = (ended & ENDED_TRUNCATED).astype(bool) & ~(ended & ENDED_TERMINATED).astype(bool)
        if self.bootstrap_truncation:
            terminated = dones & ~truncated
        else:
            terminated, truncated = dones, np.zeros_like(dones)
        self._pending = dones
        self._steps += 1
        if self.resample_every and self._steps % self.resample_every == 0:
            self.resample()
        return obs, rewards.astype(np.float32), terminated, truncated, {}

    def close_extras(self, **kwargs: Any) -> None:
        pass


def make_env(env_config: dict[str, Any]) -> PoolVectorEnv:
    """RLlib's env creator: ``env_config`` holds ``"train"`` (a TrainConfig as a dict) and,
    from the env runner, ``num_envs``."""
    from ..config import TrainConfig

    config = TrainConfig(**env_config["train"])
    rules = config.rules()
    pool = OpponentPool.of_config(config)
    num_envs = int(env_config.get("num_envs", config.num_envs))
    same = "seed reward_scale win_bonus step_cost shaping gamma bootstrap_truncation hint"
    settings = {name: getattr(config, name) for name in same.split()}  # the TrainConfig fields of these names
    settings["potential"] = POTENTIALS[rules.game.name](rules, config)
    return PoolVectorEnv(
        num_envs, rules, pool, slots=config.opponent_slots, resample_every=config.n_steps, **settings
    )


def register() -> str:
    """Register :func:`make_env` with Ray's env registry (the env runners call it with
    ``num_envs``); the name to put in ``config.environment(...)``."""
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_env)
    return ENV_NAME
