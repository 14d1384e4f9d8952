"""The opponent pool of self-play training and the VecEnv that plays it.

The pool holds baseline bots by name and frozen snapshots of the learner taken
during training; each has a weight (``"random:1,greedy:2,self:2"`` — ``self``
stands for the snapshots as a whole: the newest with probability
``latest_prob``, otherwise a uniformly drawn older one).

:class:`PoolVecEnv` realises the pool on the batched environment: the games
are split into a few slots, each one :class:`~kanaszta_env.envs.KanasztaVecEnv`
whose opponent seats are played by a :class:`SlotOpponent`; at the start of
every rollout each slot draws its opponent from the pool with the weights.
(``KanasztaVecEnv`` hands an opponent policy observations and masks but not
the game indices, so one sub-environment per slot is how different games get
different opponents.) Bots are stateless functions of the observation, so
changing a slot's opponent between rollouts is harmless even mid-hand.

Deals: slot ``k`` is seeded with ``seed + k * 2**40 + 2**48``; evaluation deals
(small seeds, ``TrainConfig.eval_seed``) are never training deals.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn

from agents.base import Agent
from agents.registry import BOT_NAMES, make_agent
from kanaszta_env import Rules
from kanaszta_env.envs.vec_env import InProcessVecEnv, KanasztaVecEnv
from kanaszta_env.games.diszitett.observation import View

from .config import TrainConfig, parse_weights

TRAIN_SEED_OFFSET = 2**48
SLOT_SEED_STRIDE = 2**40


def make_bot(name: str, rules: Rules | None = None, seed: int = 0) -> Agent:
    """A baseline bot set up for ``rules``: ``random``, ``greedy``, ``heuristic`` or ``search``,
    with the options of :func:`agents.registry.make_agent` (``search:samples=8``)."""
    spec = name.strip().lower()
    if spec.partition(":")[0] not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}: choose one of {list(BOT_NAMES)}")
    bot = make_agent(spec, rules, seed=seed)
    bot.setup(rules or Rules())
    return bot


class SlotOpponent:
    """A callable opponent whose agent can be swapped between rollouts.

    It asks the engine for views when its current agent reads them (the engine
    reads ``wants_views`` at every call), so a compiled bot in the slot does not
    decode the observations and a network in the slot costs no views."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    @property
    def wants_views(self) -> bool:
        """Whether the current agent reads views (the engine asks at every call)."""
        return self.agent.wants_views

    def __call__(self, obs: np.ndarray, mask: np.ndarray, views: View | None = None) -> np.ndarray:
        return self.agent(obs, mask, views=views)  # Agent.__call__ passes views on only if it reads them


class OpponentPool:
    """Bots and learner snapshots with sampling weights.

    Args:
        weights: name -> weight; ``"self"`` weighs all snapshots together.
        rules: rules the bots are set up for.
        max_snapshots: snapshots kept (the oldest is dropped).
        latest_prob: probability of the newest snapshot when ``self`` is drawn.
        seed: seed of the draws.
    """

    def __init__(
        self,
        weights: dict[str, float],
        rules: Rules,
        *,
        max_snapshots: int = 8,
        latest_prob: float = 0.5,
        seed: int = 0,
    ) -> None:
        self.weights = {k: float(v) for k, v in weights.items() if v > 0}
        self.rules, self.max_snapshots, self.latest_prob = rules, max_snapshots, latest_prob
        self.rng = np.random.default_rng(seed)
        self.bots = {n: make_bot(n, rules, seed=seed) for n in self.weights if n != "self"}
        self.snapshots: list[Agent] = []

    @classmethod
    def of_config(cls, config: TrainConfig) -> OpponentPool:
        """The pool a :class:`~training.config.TrainConfig` asks for (its ``opponents`` weights,
        snapshot limits and seed)."""
        return cls(
            parse_weights(config.opponents),
            config.rules(),
            max_snapshots=config.max_snapshots,
            latest_prob=config.latest_snapshot_prob,
            seed=config.seed,
        )

    def add_snapshot(self, agent: Agent) -> None:
        """Add a frozen learner; drop the oldest beyond ``max_snapshots``."""
        agent.setup(self.rules)
        self.snapshots.append(agent)
        del self.snapshots[: -self.max_snapshots]

    def sample(self) -> Agent:
        """One opponent drawn with the weights (``self`` needs a snapshot, else it is skipped)."""
        names = [n for n in self.weights if n != "self" or self.snapshots]
        if not names:
            raise ValueError("the pool only has 'self' and no snapshot yet")
        p = np.array([self.weights[n] for n in names])
        name = names[self.rng.choice(len(names), p=p / p.sum())]
        if name != "self":
            return self.bots[name]
        if len(self.snapshots) == 1 or self.rng.random() < self.latest_prob:
            return self.snapshots[-1]
        return self.snapshots[self.rng.integers(len(self.snapshots) - 1)]


class PoolVecEnv(InProcessVecEnv):
    """``num_envs`` learner games split into slots, each against its pool opponent.

    Extra keyword arguments go to every :class:`KanasztaVecEnv` (``reward``, ``reward_scale`` …).
    """

    def __init__(
        self, num_envs: int, rules: Rules, pool: OpponentPool, slots: int = 4, **env_kwargs: Any
    ) -> None:
        self.pool = pool
        sizes = [num_envs // slots + (1 if k < num_envs % slots else 0) for k in range(slots)]
        self.opponents = [SlotOpponent(pool.sample()) for _ in sizes]
        self.envs = [
            KanasztaVecEnv(n, rules, opponents=opp, learner_seat="random", **env_kwargs)
            for n, opp in zip(sizes, self.opponents, strict=True)
        ]
        self.bounds = np.cumsum([0, *sizes])
        self.render_mode = None
        first = self.envs[0]
        super().__init__(num_envs, first.observation_space, first.action_space)

    def resample(self) -> list[str]:
        """Draw a new opponent for every slot; their names."""
        for opp in self.opponents:
            opp.agent = self.pool.sample()
        return [opp.agent.name for opp in self.opponents]

    # --- the VecEnv contract ----------------------------------------------------------
    def seed(self, seed: int | None = None) -> Sequence[int | None]:  # type: ignore[override]
        base = TRAIN_SEED_OFFSET + (0 if seed is None else int(seed))
        for k, env in enumerate(self.envs):
            env.seed(base + k * SLOT_SEED_STRIDE)
        return [None] * self.num_envs

    def reset(self) -> np.ndarray:
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return np.concatenate([env.reset() for env in self.envs])

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions)
        for k, env in enumerate(self.envs):
            env.step_async(actions[self.bounds[k] : self.bounds[k + 1]])

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, dones, infos = zip(*(env.step_wait() for env in self.envs), strict=True)
        return np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones), [*itertools.chain(*infos)]

    def action_masks(self) -> np.ndarray:
        """(N, A) legal actions of the learners, all slots concatenated."""
        return np.concatenate([env.action_masks() for env in self.envs])

    def close(self) -> None:
        for env in self.envs:
            env.close()
