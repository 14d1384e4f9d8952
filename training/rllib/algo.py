"""PPO on RLlib's new API stack for a :class:`~training.config.TrainConfig`, and the league snapshots.

:func:`build_ppo_config` maps the run's fields onto a ``PPOConfig``: the
vectorised env of :mod:`training.rllib.env` (one per env runner, through the
``vector_entry_point``), the masked actor-critic of :mod:`training.rllib.module`
and PPO's settings. :func:`add_snapshot` freezes the learner's current
weights as an opponent on every env runner's pool (the league: bots and
snapshots, drawn with the ``opponents`` weights; ``self`` stands for the
snapshots, the newest with probability ``latest_snapshot_prob``);
:func:`load_weights` puts given weights (the imitation warm start) into the
learner and every env runner.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from ray.rllib.algorithms.algorithm import Algorithm
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_RL_MODULE, DEFAULT_MODULE_ID
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from ..config import TrainConfig
from .env import register
from .learner import LocalStylePPOLearner
from .module import MaskedActorCritic
from .options import RLlibOptions


def train_batch_size(config: TrainConfig, options: RLlibOptions) -> int:
    """Learner decisions per training iteration (all env runners, all learners)."""
    return config.num_envs * config.n_steps * max(1, options.num_env_runners)


def learning_rate(config: TrainConfig) -> float | list[list[float]]:
    """RLlib's ``lr``: the run's step size, or with ``anneal_lr`` a schedule falling linearly to
    zero at ``total_timesteps`` (as the local trainer's). RLlib reads the schedule at the
    decisions sampled so far (restored on resume) and sets it after each update."""
    if not config.anneal_lr:
        return config.learning_rate
    return [[0, config.learning_rate], [config.total_timesteps, 0.0]]


def build_ppo_config(config: TrainConfig, options: RLlibOptions) -> PPOConfig:
    """The ``PPOConfig`` of a run (not built yet: ``.build_algo()``)."""
    env_name = register()
    learners = max(1, options.num_learners)
    batch = train_batch_size(config, options)
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .environment(env_name, env_config={"train": config.to_dict()}, disable_env_checking=True)
        .framework("torch")
        .env_runners(
            num_env_runners=options.num_env_runners,
            num_envs_per_env_runner=config.num_envs,
            rollout_fragment_length=config.n_steps,
            gym_env_vectorize_mode="vector_entry_point",
            num_cpus_per_env_runner=options.num_cpus_per_env_runner,
            batch_mode="truncate_episodes",
            sample_timeout_s=None,  # wait: a timed-out sample is dropped and sampled again (miscounted steps)
        )
        .learners(num_learners=options.num_learners, num_cpus_per_learner=1 if options.num_learners else 0)
        .training(
            train_batch_size_per_learner=batch // learners,
            minibatch_size=min(config.batch_size, batch // learners),
            num_epochs=config.n_epochs,
            lr=learning_rate(config),
            gamma=config.gamma,
            lambda_=config.gae_lambda,
            clip_param=config.clip_range,
            entropy_coeff=config.ent_coef,
            vf_loss_coeff=config.vf_coef,
            grad_clip=config.max_grad_norm,
            grad_clip_by="global_norm",
            learner_class=LocalStylePPOLearner,
            use_kl_loss=False,
            kl_coeff=0.0,
            vf_clip_param=float("inf"),
        )
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=MaskedActorCritic,
                model_config={
                    "net_arch": [int(n) for n in config.net_arch],
                    "count_features": config.count_features,
                },
            )
        )
        .debugging(seed=config.seed, log_level="WARN")
    )


def learner_state(algo: Algorithm) -> dict[str, Any]:
    """The learner's module weights (numpy arrays)."""
    path = f"{COMPONENT_LEARNER}/{COMPONENT_RL_MODULE}/{DEFAULT_MODULE_ID}"
    state = algo.learner_group.get_state(components=path)
    return state[COMPONENT_LEARNER][COMPONENT_RL_MODULE][DEFAULT_MODULE_ID]


def load_weights(algo: Algorithm, state: dict[str, Any]) -> None:
    """Set the learner's module to ``state`` and send it to every env runner before they sample
    (PPO sends the weights only after its first update)."""
    algo.learner_group.set_weights({DEFAULT_MODULE_ID: _numpy(state)})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=algo.learner_group, inference_only=True, timeout_seconds=600
    )


def _numpy(state: dict[str, Any]) -> dict[str, np.ndarray]:
    return {k: np.asarray(v.detach().cpu() if hasattr(v, "detach") else v) for k, v in state.items()}


def add_snapshot(algo: Algorithm, name: str, state: dict[str, Any], seed: int = 0) -> int:
    """Freeze ``state`` (module weights) as the pool opponent ``name`` on every env runner
    (a sampling :meth:`~training.rllib.module.MaskedActorCritic.to_agent`, as the local
    trainer's snapshots); the snapshots per pool."""
    state = _numpy(state)

    def add(runner: Any) -> int:
        module = copy.deepcopy(runner.module)
        module.set_state(state)
        agent = module.to_agent(name, deterministic=False, seed=seed)
        return runner.env.unwrapped.add_snapshot(agent)

    local = algo.config.num_env_runners == 0
    held = algo.env_runner_group.foreach_env_runner(add, local_env_runner=local)
    return int(min(held)) if held else 0
