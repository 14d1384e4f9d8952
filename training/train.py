"""``kanaszta train``: MaskablePPO self-play on the batched environment.

Reads top to bottom: build the opponent pool and the environment, build or
load the model, warm-start it by imitating a bot (:mod:`training.imitation`),
attach the callbacks (opponent draws, snapshots, evaluations, checkpoints,
wall-time limit), learn, then write the final report and the learning curve
next to the checkpoints.

Output folder (``run_dir``)::

    config.json        the TrainConfig of the run
    latest.zip         newest checkpoint (MaskablePPO.save), also step_*.zip
    final.zip          the model at the end of training
    best.zip/.json     the model of this run's best periodic evaluation against ``best_by`` (and that row)
    snapshots/*.npz    frozen learners of the self-play pool (NumPy actors, agents.numpy_policy)
    warm_start.json    the imitation warm start: decisions recorded, fit losses, teacher agreement
    history.json       periodic evaluations against the bots (step 0: the imitation policy)
    report.json/.md    final evaluation: score difference, win rate (95 % intervals), Elo
    learning_curve.png evaluation score difference and win rate over training steps
    tb/                TensorBoard logs (losses/, rollout/, eval/, pool/)
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import VecEnv, VecMonitor
from tqdm.auto import tqdm

from agents.checkpoint import PPOAgent, frozen_actor
from agents.hinted import load_policy_file

from .config import TrainConfig, save_config
from .evaluate import periodic_evaluation, plot_learning_curve, write_report
from .features import CountFeatures
from .games.diszitett.shaping import ShapedReward
from .hinted_env import HintedVecEnv
from .imitation import collect, fit, student_of
from .lean_ppo import LeanMaskablePPO
from .opponents import OpponentPool, PoolVecEnv, make_bot
from .privileged import PrivilegedCriticPolicy, PrivilegedVecEnv, actor_view
from .shaping_games import POTENTIALS


@dataclass
class TrainResult:
    """What :func:`train` returns."""

    run_dir: Path
    final_checkpoint: Path
    timesteps: int
    seconds: float
    steps_per_second: float
    report: dict | None


def build_env(config: TrainConfig, pool: OpponentPool, **env_kwargs: Any) -> tuple[VecEnv, PoolVecEnv]:
    """The training VecEnv (pool -> monitor of the real reward -> shaping) and its pool layer;
    ``env_kwargs`` go to every :class:`~kanaszta_env.envs.vec_env.KanasztaVecEnv` (e.g. ``rank_melds``)."""
    rules = config.rules()
    base = PoolVecEnv(
        config.num_envs,
        rules,
        pool,
        slots=config.opponent_slots,
        reward_scale=config.reward_scale,
        **env_kwargs,
    )
    base.seed(config.seed)
    monitored = VecMonitor(base)  # logs the unshaped hand reward (rollout/ep_rew_mean)
    potential = POTENTIALS[rules.game.name](rules, config)
    same = ("gamma", "bootstrap_truncation", "win_bonus", "step_cost")  # same names in ShapedReward
    env = ShapedReward(monitored, potential, coef=config.shaping, **{n: getattr(config, n) for n in same})
    if config.hint:  # outer: shaping and the monitor read plain observations
        env = HintedVecEnv(env, config.hint, base.action_masks)
    if config.privileged_critic:  # outermost: the hidden block follows the actor's columns
        env = PrivilegedVecEnv(env, base.envs)
    return env, base


def warm_start(config: TrainConfig, model: MaskablePPO, env: VecEnv, base: PoolVecEnv) -> list[dict]:
    """Fit ``model``'s policy and value to the teacher's play (:mod:`training.imitation`)."""
    teacher = make_bot(config.warm_start, config.rules(), seed=config.seed)
    bar = functools.partial(tqdm, disable=not config.progress_bar)
    rounds: list[dict] = []
    for k in range(config.warm_start_rounds):
        student = student_of(model, seed=config.seed + k) if k else None
        if student is not None and config.privileged_critic:
            student = actor_view(student, env.observation_space.actor_size)  # type: ignore[attr-defined]
        title = f"imitation {k + 1}/{config.warm_start_rounds}"
        with bar(total=config.warm_start_steps, desc=f"{title}: {teacher.name} plays") as progress:
            data = collect(
                env,
                base.action_masks,
                teacher,
                config.warm_start_steps,
                config.gamma,
                student=student,
                student_share=0.5 if k else 0.0,
                seed=config.seed + k,
                on_step=lambda _: progress.update(),
            )
        fitting = f"{title}: fit {len(data.action):,} decisions"
        with bar(total=config.warm_start_epochs, desc=fitting) as progress:

            def show(_: int, stats: dict) -> None:
                progress.set_postfix(agree=f"{stats['agreement']:.3f}", ce=f"{stats['cross_entropy']:.3f}")
                progress.update()

            stats = fit(
                model,
                data,
                epochs=config.warm_start_epochs,
                learning_rate=config.warm_start_lr,
                smoothing=config.warm_start_smoothing,
                threads=config.warm_start_threads,
                seed=config.seed + k,
                on_epoch=show,
            )
        rounds.append({"round": k + 1, "decisions": len(data.action), "hands": data.hands, **stats})
        del data
    return rounds


def build_model(config: TrainConfig, env: VecEnv, tb_dir: str | None) -> MaskablePPO:
    """A fresh MaskablePPO, or the checkpoint of ``config.resume`` attached to ``env``.

    A resumed model keeps its network (``net_arch`` and ``count_features`` come from the
    checkpoint) but takes the PPO settings of ``config``, so the flags of the resumed run
    and its ``config.json`` say what it trains with.
    """
    lr: float | object = config.learning_rate
    if config.anneal_lr:
        start = config.learning_rate
        lr = lambda progress: start * progress  # noqa: E731  (SB3 passes the remaining fraction)
    same = "n_steps batch_size n_epochs gamma gae_lambda clip_range ent_coef vf_coef max_grad_norm seed"
    settings: dict[str, Any] = {name: getattr(config, name) for name in same.split()}  # same names in SB3
    settings.update(learning_rate=lr, target_kl=config.target_kl or None, tensorboard_log=tb_dir)
    algorithm: type[MaskablePPO] = MaskablePPO
    if config.trainer == "lean":
        algorithm = LeanMaskablePPO
        settings.update(update_threads=config.update_threads, overlap=config.overlap)
    if config.resume:
        return algorithm.load(config.resume, env=env, device="cpu", **settings)
    arch = [int(n) for n in config.net_arch]
    policy_kwargs: dict = {"net_arch": {"pi": arch, "vf": arch}}
    policy: str | type = "MlpPolicy"
    if config.privileged_critic:  # the critic also reads the hidden block (training.privileged)
        policy = PrivilegedCriticPolicy
        policy_kwargs["features_extractor_kwargs"] = {"count_features": config.count_features}
    elif config.count_features:
        policy_kwargs["features_extractor_class"] = CountFeatures
    return algorithm(policy, env, policy_kwargs=policy_kwargs, device="cpu", verbose=0, **settings)


class SelfPlayCallback(BaseCallback):
    """Draws the slots' opponents at every rollout and adds learner snapshots to the pool."""

    def __init__(self, pool: OpponentPool, env: PoolVecEnv, every: int, folder: Path, first: int) -> None:
        super().__init__()
        self.pool, self.env, self.every, self.folder = pool, env, every, folder
        self.next_at = first

    def _on_rollout_start(self) -> None:
        if "self" in self.pool.weights and self.num_timesteps >= self.next_at:
            self.snapshot()
        names = self.env.resample()
        for name in set(names):
            self.logger.record(f"pool/share_{name.split(':')[0]}", names.count(name) / len(names))

    def snapshot(self) -> None:
        name = f"self@{self.num_timesteps}"
        agent = frozen_actor(self.model, name, deterministic=False, seed=self.num_timesteps)
        self.pool.add_snapshot(agent)
        self.folder.mkdir(parents=True, exist_ok=True)
        agent.save(self.folder / f"{self.num_timesteps:012d}.npz")
        self.next_at = self.num_timesteps + self.every
        self.logger.record("pool/snapshots", len(self.pool.snapshots))

    def _on_step(self) -> bool:
        return True


class EvalCheckpointCallback(BaseCallback):
    """Periodic evaluations against the bots, checkpoints, and the wall-time limit."""

    def __init__(self, config: TrainConfig, run_dir: Path, history: list[dict], started: float) -> None:
        super().__init__()
        self.config, self.run_dir, self.history, self.started = config, run_dir, history, started
        self.next_eval = self.next_ckpt = 0
        self.best_diff = float("-inf")  # best of this run's evaluations (a resumed run starts afresh)
        self.minutes_before = history[-1].get("minutes", 0.0) if history else 0.0  # a resumed run counts on
        self.stopping = False

    def _on_training_start(self) -> None:
        c = self.config
        now = self.num_timesteps
        self.next_eval = now + c.eval_every if c.eval_every else 1 << 62
        self.next_ckpt = now + c.checkpoint_every if c.checkpoint_every else 1 << 62

    def _on_rollout_start(self) -> None:
        stop = self.config.stop_timesteps  # the rollout that reached it has been learned from
        self.stopping = bool(stop) and self.num_timesteps >= stop

    def _on_step(self) -> bool:
        if self.stopping:  # past stop_timesteps: end on this rollout's first step, not counted
            self.model.num_timesteps -= self.model.n_envs
            return False
        n = self.num_timesteps
        if n >= self.next_ckpt:
            self.model.save(self.run_dir / f"step_{n:09d}.zip")
            self.model.save(self.run_dir / "latest.zip")
            self.next_ckpt += self.config.checkpoint_every
        if n >= self.next_eval:
            self.evaluate()
            self.next_eval += self.config.eval_every
        limit = self.config.max_minutes * 60
        return not (limit and time.time() - self.started > limit)

    def evaluate(self, model: MaskablePPO | None = None) -> None:
        """Play the evaluation bots; ``model`` is given before training starts (no logger yet)."""
        during_training = model is None
        model = model or self.model
        rows, self.best_diff = periodic_evaluation(
            frozen_actor(model),
            self.config,
            self.history,
            model.num_timesteps,
            self.started,
            self.best_diff,
            lambda: model.save(self.run_dir / "best.zip"),
            self.minutes_before,
        )
        for row in rows if during_training else ():
            self.logger.record(f"eval/{row['bot']}_score_diff", row["mean_diff"])
            self.logger.record(f"eval/{row['bot']}_win_rate", row["win_rate"])


def _load_previous(config: TrainConfig, pool: OpponentPool) -> list[dict]:
    """History and snapshots of the run a resumed checkpoint comes from."""
    if not config.resume:
        return []
    source = Path(config.resume).parent
    for path in sorted((source / "snapshots").glob("*.pt")):  # runs written before the NumPy snapshots
        saved = torch.load(path, weights_only=False)
        pool.add_snapshot(PPOAgent(saved["actor"], saved["name"], deterministic=False))
    for path in sorted((source / "snapshots").glob("*.npz")):
        pool.add_snapshot(
            load_policy_file(path, name=f"self@{int(path.stem)}", deterministic=False, seed=int(path.stem))
        )
    history = source / "history.json"
    return json.loads(history.read_text(encoding="utf-8")) if history.exists() else []


def train(config: TrainConfig) -> TrainResult:
    """Train as ``config`` says; write checkpoints, logs, report and curve to ``config.run_dir``."""
    config.validate()
    torch.set_num_threads(max(1, config.torch_threads))
    set_random_seed(config.seed)
    started = time.time()

    pool = OpponentPool.of_config(config)
    history = _load_previous(config, pool)
    if "self" in pool.weights and not pool.snapshots and len(pool.weights) == 1:
        raise ValueError("a pool of only 'self' needs a first opponent: add a bot (e.g. random:1)")
    run_dir = Path(config.run_dir)  # written only now that the config and the resumed run are checked
    run_dir.mkdir(parents=True, exist_ok=True)
    save_config(config, run_dir / "config.json")
    env, base = build_env(config, pool)
    tb_dir = str(run_dir / "tb") if config.tensorboard else None
    model = build_model(config, env, tb_dir)
    imitating = bool(config.warm_start) and not config.resume  # a resumed model is past imitation
    if imitating:
        imitation_stats = warm_start(config, model, env, base)
        (run_dir / "warm_start.json").write_text(json.dumps(imitation_stats, indent=1), encoding="utf-8")
    start_steps = model.num_timesteps
    remaining = config.total_timesteps - start_steps
    selfplay = SelfPlayCallback(pool, base, config.snapshot_every, run_dir / "snapshots", first=start_steps)
    periodic = EvalCheckpointCallback(config, run_dir, history, started)
    if imitating and config.eval_every:
        periodic.evaluate(model)  # the curve's first point: the imitation policy before PPO
    if config.stop_at() > start_steps:  # a resumed run may be past its stop
        model.learn(
            total_timesteps=remaining,
            callback=CallbackList([selfplay, periodic]),
            reset_num_timesteps=not config.resume,
            progress_bar=config.progress_bar,
            tb_log_name="ppo",
        )
    seconds = time.time() - started
    steps = int(model.num_timesteps)
    trained = steps - start_steps
    final = run_dir / "final.zip"
    model.save(final)
    model.save(run_dir / "latest.zip")
    if config.eval_every and (not history or history[-1]["step"] != steps):
        periodic.evaluate()  # the curve's last point
    report = None
    if config.final_eval_hands:
        report = write_report(frozen_actor(model), config, steps, trained, seconds)
    if history:
        plot_learning_curve(history, run_dir / "learning_curve.png")
    env.close()
    return TrainResult(run_dir, final, steps, seconds, trained / max(seconds, 1e-9), report)


def summary(result: TrainResult, best: str = "best.zip") -> str:
    """Human-readable lines about a finished run (``best``: the best checkpoint's name in the run folder)."""
    lines = [
        f"model at {result.timesteps:,} learner decisions; this run: {result.seconds / 60:.1f} min, "
        f"{result.steps_per_second:,.0f} steps/s (updates and evaluations included)",
        f"checkpoint: {result.final_checkpoint}",
    ]
    best_row = result.run_dir / "best.json"
    if best_row.exists():
        row = json.loads(best_row.read_text(encoding="utf-8"))
        lines.append(
            f"best periodic evaluation: {row['mean_diff']:+.1f} against {row['bot']} at step {row['step']:,} "
            f"({row['hands']} hands) -> {result.run_dir / best} (judge it on new deals: kanaszta eval)"
        )
    if result.report:
        lines.append(result.report["text"])
    if (result.run_dir / "learning_curve.png").exists():
        lines.append(f"learning curve: {result.run_dir / 'learning_curve.png'}")
    return "\n".join(lines)


__all__ = ["TrainResult", "build_env", "build_model", "frozen_actor", "summary", "train"]
