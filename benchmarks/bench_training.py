"""Throughput of PPO experience collection for the quick-start configuration.

Measures learner decisions (environment steps) per second while MaskablePPO
collects rollouts on the training VecEnv — the opponent pool, the opponents'
moves inside the step, the reward shaping and the policy's inference on the
learners' observations all included; the gradient updates are timed apart.

    python benchmarks/bench_training.py [--rollouts 3] [--num-envs 128] [--opponents …]

Everything not given on the command line comes from ``TrainConfig()`` (the
quick-start defaults).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import torch
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.utils import configure_logger

from training.config import TrainConfig, parse_weights
from training.opponents import OpponentPool
from training.policy import PPOAgent
from training.train import build_env, build_model


class _Timer(BaseCallback):
    """Wall time of each rollout's collection."""

    def __init__(self) -> None:
        super().__init__()
        self.starts: list[float] = []
        self.times: list[float] = []

    def _on_rollout_start(self) -> None:
        self.starts.append(time.perf_counter())

    def _on_rollout_end(self) -> None:
        self.times.append(time.perf_counter() - self.starts[-1])

    def _on_step(self) -> bool:
        return True


def main() -> None:
    defaults = TrainConfig()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rollouts", type=int, default=3, help="timed rollouts (after one warm-up)")
    parser.add_argument("--num-envs", type=int, default=defaults.num_envs)
    parser.add_argument("--n-steps", type=int, default=defaults.n_steps)
    parser.add_argument("--opponents", default=defaults.opponents)
    parser.add_argument("--torch-threads", type=int, default=defaults.torch_threads)
    parser.add_argument("--net-arch", type=int, nargs="+", default=defaults.net_arch)
    parser.add_argument("--n-epochs", type=int, default=defaults.n_epochs)
    args = parser.parse_args()

    config = TrainConfig(
        run_dir=tempfile.mkdtemp(prefix="bench_training_"),
        num_envs=args.num_envs,
        n_steps=args.n_steps,
        opponents=args.opponents,
        torch_threads=args.torch_threads,
        net_arch=args.net_arch,
        n_epochs=args.n_epochs,
        tensorboard=False,
        progress_bar=False,
    ).validate()
    torch.set_num_threads(config.torch_threads)
    pool = OpponentPool(parse_weights(config.opponents), config.rules(), seed=0)
    env, base = build_env(config, pool)
    model = build_model(config, env, None)
    model.set_logger(configure_logger(verbose=0))
    pool.add_snapshot(PPOAgent.from_sb3(model.policy, "self@0", deterministic=False))
    base.resample()
    timer = _Timer()
    model._setup_learn(total_timesteps=10**9, callback=None)
    timer.init_callback(model)

    def collect() -> float:
        base.resample()
        model.collect_rollouts(model.env, timer, model.rollout_buffer, n_rollout_steps=config.n_steps)
        return timer.times[-1]

    t0 = time.perf_counter()
    collect()  # warm-up: numba compilation of the bots and first torch calls
    print(f"warm-up rollout (incl. compilation): {time.perf_counter() - t0:.1f} s")
    rates = []
    for _ in range(args.rollouts):
        seconds = collect()
        rates.append(config.num_envs * config.n_steps / seconds)
    t0 = time.perf_counter()
    model.train()
    update = time.perf_counter() - t0
    samples = config.num_envs * config.n_steps
    collect_rate = statistics.median(rates)
    print(
        f"config: num_envs={config.num_envs} n_steps={config.n_steps} opponents={config.opponents!r} "
        f"net={config.net_arch} torch_threads={config.torch_threads}"
    )
    print(
        f"collection: {collect_rate:,.0f} learner steps/s (median of {len(rates)} rollouts of {samples} "
        "steps; "
        f"opponent moves, shaping and policy inference included)"
    )
    print(f"PPO update of one rollout ({config.n_epochs} epochs, batch {config.batch_size}): {update:.2f} s")
    overall = samples / (samples / collect_rate + update)
    print(f"training overall (collection + update): {overall:,.0f} learner steps/s")


if __name__ == "__main__":
    main()
