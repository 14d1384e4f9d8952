"""End-to-end training throughput: collection, PPO update and periodic evaluation.

One measured run builds the training VecEnv and the model of the quick-start
configuration (``TrainConfig()`` of the imported tree: its defaults are its
code path), adds one learner snapshot to the opponent pool, then times

* ``--rollouts`` rounds of collection and PPO update, as ``learn()`` runs them:
  collection in learner decisions per second (median; with the opponents'
  moves, the reward shaping and the policy's inference, and the wait for an
  overlapped update), and the update's wall time outside collection (all of
  it, unless the update overlaps the next collection);
* evaluation: one periodic evaluation (``eval_hands`` hands against each of
  ``eval_bots``), charged per learner decision at the config's ``eval_every``.

and prints learner decisions per second of training overall (the rounds'
wall time and the evaluation's share), and the parts.

    python benchmarks/bench_training.py [--rollouts 3] [--repeats 3] [--against REF]

``--against REF`` measures commit REF's code path and this tree's side by side
in one run (``benchmarks/against.py``: a temporary clone, worker processes
alternating run by run) and prints the ratios new/old of the medians. Options
given on the command line override the defaults of both trees alike.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import torch
from against import Figures, add_arguments, dispatch
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.utils import configure_logger

try:  # the trees before agents/checkpoint.py kept it in training/policy.py (--against)
    from agents import checkpoint as policy_module
except ImportError:
    from training import policy as policy_module
from training.config import TrainConfig, bot_list, parse_weights
from training.evaluate import evaluate_against_bots
from training.opponents import OpponentPool
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


def _frozen(model, name: str, deterministic: bool):
    """The tree's own frozen actor (``frozen_actor`` since the lean trainer, else the torch agent)."""
    if hasattr(policy_module, "frozen_actor"):
        return policy_module.frozen_actor(model, name, deterministic=deterministic)
    return policy_module.PPOAgent.from_sb3(model.policy, name, deterministic=deterministic)


class Trainer:
    """The quick-start model and environment of the imported tree, built once per process."""

    def __init__(self, args: argparse.Namespace) -> None:
        overrides = {k: v for k, v in vars(args).items() if k in TrainConfig.__dataclass_fields__}
        overrides = {k: v for k, v in overrides.items() if v is not None}
        self.config = TrainConfig(
            run_dir=tempfile.mkdtemp(prefix="bench_training_"),
            tensorboard=False,
            progress_bar=False,
            **overrides,
        ).validate()
        self.rollouts = args.rollouts
        torch.set_num_threads(self.config.torch_threads)
        self.pool = OpponentPool(parse_weights(self.config.opponents), self.config.rules(), seed=0)
        env, self.base = build_env(self.config, self.pool)
        self.model = build_model(self.config, env, None)
        self.model.set_logger(configure_logger(verbose=0))
        self.pool.add_snapshot(_frozen(self.model, "self@0", deterministic=False))
        self.timer = _Timer()
        self.model._setup_learn(total_timesteps=10**9, callback=None)
        self.timer.init_callback(self.model)
        self.last: dict[str, float] = {}

    def collect(self) -> float:
        self.base.resample()
        c = self.config
        self.model.collect_rollouts(
            self.model.env, self.timer, self.model.rollout_buffer, n_rollout_steps=c.n_steps
        )
        return self.timer.times[-1]

    def run(self) -> dict[str, float]:
        """One measured run: ``rollouts`` rounds of collection and update (an overlapped update is
        waited for at the end), then one periodic evaluation, charged at ``eval_every``."""
        c = self.config
        samples = c.num_envs * c.n_steps
        collect_times, update_times = [], []
        t_start = time.perf_counter()
        for _ in range(self.rollouts):
            collect_times.append(self.collect())
            t0 = time.perf_counter()
            self.model.train()
            update_times.append(time.perf_counter() - t0)
        join = getattr(self.model, "_join", None)
        if join is not None:  # the lean trainer's overlapped update of the last rollout
            join()
        loop = time.perf_counter() - t_start
        t0 = time.perf_counter()
        agent = _frozen(self.model, "ppo", deterministic=True)
        evaluate_against_bots(
            agent, bot_list(c.eval_bots), c.eval_rules(), hands=c.eval_hands, seed=c.eval_seed
        )
        evaluation = time.perf_counter() - t0
        charged = evaluation * samples * self.rollouts / max(c.eval_every, samples)
        self.last = {
            "overall": samples * self.rollouts / (loop + charged),
            "collect": samples / statistics.median(collect_times),
            "update": statistics.median(update_times),
            "evaluation": evaluation,
        }
        return self.last


def figures(args: argparse.Namespace) -> Figures:
    """``overall`` measures a run; the others report that run's parts (asked right after it)."""
    state: dict[str, Trainer] = {}

    def measure(key: str) -> float:
        if key == "overall":
            state.setdefault("trainer", Trainer(args))
            return state["trainer"].run()["overall"]
        return state["trainer"].last[key]

    return {
        "overall": ("training overall, learner decisions/s", lambda: measure("overall")),
        "collect": ("collection, learner decisions/s", lambda: measure("collect")),
        "update": ("PPO update outside collection, s/rollout", lambda: measure("update")),
        "evaluation": ("one periodic evaluation, seconds", lambda: measure("evaluation")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rollouts", type=int, default=3, help="timed rollouts per measured run")
    parser.add_argument("--repeats", type=int, default=3, help="measured runs (per tree with --against)")
    for name in ("num_envs", "n_steps", "n_epochs", "batch_size", "eval_hands"):
        parser.add_argument(
            f"--{name.replace('_', '-')}", type=int, default=None, help="(default: TrainConfig's)"
        )
    parser.add_argument("--opponents", default=None, help="opponent pool (default: TrainConfig's)")
    parser.add_argument(
        "--overlap",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="lean trainer: update in a thread while collecting (default: TrainConfig's; ignored by "
        "trees without the option)",
    )
    add_arguments(parser)
    args = parser.parse_args()
    if dispatch(args, figures(args), __file__):
        return
    trainer = Trainer(args)
    trainer.collect()  # warm-up: numba compilation of the bots and first torch calls
    c = trainer.config
    print(
        f"trainer={getattr(c, 'trainer', 'sb3')} num_envs={c.num_envs} n_steps={c.n_steps} "
        f"n_epochs={c.n_epochs} batch={c.batch_size} opponents={c.opponents!r} net={c.net_arch}"
    )
    runs = [trainer.run() for _ in range(args.repeats)]
    for key, (label, _) in figures(args).items():
        values = [r[key] for r in runs]
        each = ", ".join(f"{v:,.1f}" for v in values)
        print(f"{label}: median {statistics.median(values):,.2f} (runs: {each})")


if __name__ == "__main__":
    main()
