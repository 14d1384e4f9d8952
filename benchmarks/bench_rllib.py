"""Learner decisions per second of the RLlib backend beside the local trainer, in one session.

Both train the quick-start configuration (``TrainConfig()`` but no warm start:
128 games, rollouts of 128 steps, PPO 4 epochs of minibatch 4096, opponents
``random:2,greedy:1,self:1`` with one snapshot of the learner in the pool) and
are timed per *training iteration* — collection plus update — so the figure is
what a run sustains:

* local: MaskablePPO in this process (``training.train``), one rollout of
  ``num_envs * n_steps`` decisions and its update per iteration;
* RLlib: ``algo.train()`` on a local Ray instance of ``--num-cpus`` CPUs, with
  1 and 2 env runners (each steps its own ``num_envs`` games, so an iteration
  of ``k`` runners trains ``k * num_envs * n_steps`` decisions), the learner in
  the driver process; plus where an iteration's time goes (RLlib's timers:
  sampling alone (every runner collecting one rollout fragment) vs the rest
  of an iteration (the learner update, weight sync); per sampling step: the
  vectorised env step and the module's forward pass timed inside the env
  runner, the rest being RLlib's connectors and per-game episode bookkeeping).

    python benchmarks/bench_rllib.py [--iterations 4] [--runners 1 2] [--skip-local]

Medians over ``--iterations`` after one warm-up iteration (compilation, first torch calls).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import torch

from agents.checkpoint import PPOAgent
from training.config import TrainConfig, parse_weights
from training.opponents import OpponentPool
from training.rllib.options import RLlibOptions


def config_of(args: argparse.Namespace) -> TrainConfig:
    return TrainConfig(
        run_dir=tempfile.mkdtemp(prefix="bench_rllib_"),
        num_envs=args.num_envs,
        n_steps=args.n_steps,
        opponents=args.opponents,
        warm_start="",
        tensorboard=False,
        progress_bar=False,
    ).validate()


def bench_local(config: TrainConfig, iterations: int) -> float:
    """Median learner decisions/s of the local trainer (collection + update per iteration)."""
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.utils import configure_logger

    from training.train import build_env, build_model

    class Nop(BaseCallback):
        def _on_step(self) -> bool:
            return True

    torch.set_num_threads(1)
    pool = OpponentPool(parse_weights(config.opponents), config.rules(), seed=0)
    env, base = build_env(config, pool)
    model = build_model(config, env, None)
    model.set_logger(configure_logger(verbose=0))
    pool.add_snapshot(PPOAgent.from_sb3(model.policy, "self@0", deterministic=False))
    model._setup_learn(total_timesteps=10**9, callback=None)
    callback = Nop()
    callback.init_callback(model)
    rates = []
    for k in range(iterations + 1):
        t0 = time.perf_counter()
        base.resample()
        model.collect_rollouts(model.env, callback, model.rollout_buffer, n_rollout_steps=config.n_steps)
        model.train()
        if k:  # the first is the warm-up
            rates.append(config.num_envs * config.n_steps / (time.perf_counter() - t0))
    env.close()
    return statistics.median(rates)


def probe(runner: object, steps: int = 32) -> tuple[float, float]:
    """Inside an env runner: ms per vectorised env step (random legal actions, drawn outside
    the timing) and per forward pass of the module on the same batch."""
    import numpy as np

    env = runner.env.unwrapped  # type: ignore[attr-defined]
    module = runner.module  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    obs = env._observe()
    env_s = module_s = 0.0
    for _ in range(steps):
        t0 = time.perf_counter()
        with torch.no_grad():
            module.forward_exploration({"obs": torch.from_numpy(obs)})
        module_s += time.perf_counter() - t0
        n = env.single_action_space.n  # the mask closes each observation
        actions = np.argmax(rng.random((env.num_envs, n)) * obs[:, -n:], axis=1)
        t0 = time.perf_counter()
        obs = env.step(actions)[0]
        env_s += time.perf_counter() - t0
    return 1000 * env_s / steps, 1000 * module_s / steps


def bench_rllib(config: TrainConfig, runners: int, iterations: int, num_cpus: int) -> dict:
    """Median learner decisions/s of RLlib with ``runners`` env runners, and its timers."""
    import ray

    from training.rllib.algo import add_snapshot, build_ppo_config, learner_state

    torch.set_num_threads(1)
    ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    try:
        algo = build_ppo_config(config, RLlibOptions(num_env_runners=runners)).build_algo()
        torch.set_num_threads(1)
        add_snapshot(algo, "self@0", learner_state(algo))
        rates, seconds_per_iteration = [], []
        for k in range(iterations + 1):
            t0 = time.perf_counter()
            result = algo.train()
            seconds = time.perf_counter() - t0
            if k:  # the first is the warm-up
                rates.append(result["env_runners"]["num_env_steps_sampled"] / seconds)
                seconds_per_iteration.append(seconds)
        sampling = []  # the sampling alone: every env runner collects one rollout fragment
        for _ in range(iterations):
            t0 = time.perf_counter()
            algo.env_runner_group.foreach_env_runner(
                lambda er: sum(len(e) for e in er.sample()), local_env_runner=runners == 0
            )
            sampling.append(time.perf_counter() - t0)
        parts = algo.env_runner_group.foreach_env_runner(probe, local_env_runner=runners == 0)
        algo.stop()
    finally:
        ray.shutdown()
    return {
        "rate": statistics.median(rates),
        "env_ms": statistics.median(p[0] for p in parts),
        "module_ms": statistics.median(p[1] for p in parts),
        "sampling": statistics.median(sampling),
        "update": statistics.median(seconds_per_iteration) - statistics.median(sampling),
        "samples": config.num_envs * config.n_steps * max(1, runners),
    }


def main() -> None:
    defaults = TrainConfig()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=4, help="timed iterations (after one warm-up)")
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2], help="env runner counts")
    parser.add_argument("--num-envs", type=int, default=defaults.num_envs, help="games per env runner")
    parser.add_argument("--n-steps", type=int, default=defaults.n_steps)
    parser.add_argument("--opponents", default=defaults.opponents)
    parser.add_argument("--num-cpus", type=int, default=2, help="CPUs of the local Ray instance")
    parser.add_argument("--skip-local", action="store_true", help="skip the local trainer's figure")
    args = parser.parse_args()
    config = config_of(args)
    print(
        f"config: num_envs={config.num_envs} n_steps={config.n_steps} batch_size={config.batch_size} "
        f"n_epochs={config.n_epochs} opponents={config.opponents!r} net={config.net_arch}; "
        f"medians of {args.iterations} iterations after a warm-up"
    )
    if not args.skip_local:
        rate = bench_local(config, args.iterations)
        print(f"local trainer (MaskablePPO): {rate:,.0f} learner decisions/s")
    for runners in args.runners:
        r = bench_rllib(config, runners, args.iterations, args.num_cpus)
        step_ms = r["sampling"] * 1000 / config.n_steps
        print(
            f"RLlib, {runners} env runner(s): {r['rate']:,.0f} learner decisions/s "
            f"({r['samples']:,} per iteration: sampling {r['sampling']:.2f} s, learner update and "
            f"the rest {r['update']:.2f} s; a sampling step of {config.num_envs} games per runner "
            f"{step_ms:.1f} ms: env {r['env_ms']:.1f}, module forward {r['module_ms']:.1f}, the "
            f"remaining {step_ms - r['env_ms'] - r['module_ms']:.1f} RLlib's connectors, action "
            "sampling and per-game episode bookkeeping)"
        )


if __name__ == "__main__":
    main()
