"""``kanaszta train --backend rllib``: PPO self-play on Ray RLlib (new API stack).

Reads top to bottom: start or join Ray, build the PPO algorithm
(:mod:`training.rllib.algo`), warm-start its module by the local trainer's
imitation of a bot (:mod:`training.rllib.warm_start`; not when resuming), then
loop over training iterations — a league snapshot of the learner every
``snapshot_every`` decisions (when ``self`` is in the opponent pool), a
checkpoint every ``checkpoint_every``, an evaluation against the bots every
``eval_every`` — until ``stop_timesteps`` (or ``total_timesteps``) or ``max_minutes``; then the final
checkpoint, report and learning curve.

Run folder: the local trainer's (:mod:`training.train`: ``config.json``, ``snapshots/*.npz`` of
weights, ``warm_start.json``, ``history.json``, ``best.json``, ``report.json/.md``,
``learning_curve.png``), with algorithm checkpoints (``Algorithm.save_to_path``) as folders
``latest/ final/ step_*/ best/`` — each loads as an agent, ``make_agent("rllib:RUN_DIR/final")``
(without a hint) — and ``rllib.json`` (the RLlib options), ``env_runners.json`` (the node, id
and IP, of each remote env runner), ``progress.jsonl`` (one line per training iteration:
decisions, decisions/s, returns, losses).

``--resume RUN_DIR/latest`` restores the algorithm (weights, optimiser,
counters) and the league snapshots of that run and trains on (with the same ``hint``).
Evaluations and snapshots play the module's actor as the local trainer's agents do
(:meth:`~training.rllib.module.MaskedActorCritic.to_agent`: a NumPy policy, hinted
policies through :class:`~agents.hinted.HintedPolicy`).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium import spaces

from agents.base import Agent

from ..config import TrainConfig, parse_weights, save_config
from ..evaluate import periodic_evaluation, plot_learning_curve, write_report
from ..train import TrainResult
from .env import MaskedObservationSpace, num_actions
from .options import RLlibOptions

STATE_FILE = "kanaszta_state.json"  # inside each checkpoint folder: decisions trained so far


def init_ray(options: RLlibOptions) -> None:
    """Join the cluster at ``options.address`` or start a local Ray instance of ``num_cpus``."""
    import ray

    if ray.is_initialized():
        return
    if options.address:
        ray.init(address=options.address, log_to_driver=False)
    else:
        ray.init(num_cpus=options.num_cpus, include_dashboard=False, log_to_driver=False)


def _record_env_runner_nodes(algo, run_dir: Path) -> None:
    """Write the node each remote env runner runs on to ``env_runners.json`` (on a cluster:
    where the experience is collected)."""

    def where(runner: Any) -> dict[str, str]:
        import ray

        return {"node_id": ray.get_runtime_context().get_node_id(), "ip": ray.util.get_node_ip_address()}

    nodes = algo.env_runner_group.foreach_env_runner(where, local_env_runner=False)
    (run_dir / "env_runners.json").write_text(json.dumps(nodes, indent=1) + "\n", encoding="utf-8")
    print(f"{len(nodes)} env runner(s) on {len({n['node_id'] for n in nodes})} node(s)")


def driver_module(config: TrainConfig, state: dict[str, Any] | None = None) -> Any:
    """A :class:`~training.rllib.module.MaskedActorCritic` of the run on the driver (with
    the weights ``state`` if given)."""
    from .module import MaskedActorCritic

    module = MaskedActorCritic(
        observation_space=MaskedObservationSpace(config.rules(), config.hint),
        action_space=spaces.Discrete(num_actions(config.rules())),
        inference_only=False,
        model_config={"net_arch": [int(n) for n in config.net_arch], "count_features": config.count_features},
    )
    if state is not None:
        module.set_state({k: np.asarray(v) for k, v in state.items()})
    return module


def driver_agent(config: TrainConfig, state: dict[str, Any], name: str) -> Agent:
    """The learner's weights ``state`` as a greedy agent (hinted policies add their hint)."""
    return driver_module(config, state).to_agent(name)


def _start_run_dir(config: TrainConfig, options: RLlibOptions) -> Path:
    """The run folder with the run's settings written (config.json, rllib.json)."""
    run_dir = Path(config.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    save_config(config, run_dir / "config.json")
    (run_dir / "rllib.json").write_text(json.dumps(asdict(options), indent=2) + "\n", encoding="utf-8")
    return run_dir


def _check_resume_hint(config: TrainConfig) -> None:
    """``ValueError`` unless the run resumed from was trained with the same ``hint``."""
    from ..hinted_env import require_same_hint

    saved = Path(config.resume).parent / "config.json"
    trained = json.loads(saved.read_text(encoding="utf-8")).get("hint", "") if saved.exists() else ""
    require_same_hint(config.resume, trained, config.hint)


def _warm_start(algo, config: TrainConfig, run_dir: Path) -> None:
    """The local trainer's imitation warm start, copied into the learner and the env runners."""
    from .algo import load_weights
    from .warm_start import imitation_model, module_state

    model, rounds = imitation_model(config)
    load_weights(algo, module_state(model.policy, driver_module(config).state_dict()))
    (run_dir / "warm_start.json").write_text(json.dumps(rounds, indent=1), encoding="utf-8")
    print(f"warm start: {rounds[-1]['agreement']:.3f} agreement with {config.warm_start}")


def _league_snapshot(algo, steps: int, snapshot_dir: Path) -> None:
    """Freeze the learner as a league opponent on every env runner and save it for ``--resume``."""
    from .algo import add_snapshot, learner_state

    state = learner_state(algo)
    held = add_snapshot(algo, f"self@{steps}", state, seed=steps)
    snapshot_dir.mkdir(exist_ok=True)
    np.savez(snapshot_dir / f"{steps:012d}.npz", **{k: np.asarray(v) for k, v in state.items()})
    print(f"snapshot self@{steps:,} added to the league ({held} held)")


def _restore(algo, config: TrainConfig, run_dir: Path, snapshot_dir: Path) -> tuple[int, list[dict]]:
    """Resume ``algo`` from ``config.resume``: its step count, league snapshots and history."""
    from .algo import add_snapshot

    algo.restore_from_path(str(Path(config.resume).resolve()))
    source = Path(config.resume).parent
    saved = Path(config.resume) / STATE_FILE
    steps = json.loads(saved.read_text(encoding="utf-8"))["timesteps"] if saved.exists() else 0
    for path in sorted((source / "snapshots").glob("*.npz")):
        with np.load(path) as data:
            add_snapshot(algo, f"self@{int(path.stem)}", dict(data), seed=int(path.stem))
        if source != run_dir:
            snapshot_dir.mkdir(exist_ok=True)
            (snapshot_dir / path.name).write_bytes(path.read_bytes())
    old = source / "history.json"
    return steps, json.loads(old.read_text(encoding="utf-8")) if old.exists() else []


def _log_iteration(progress: Any, result: dict, steps: int, started: float, seconds: float) -> int:
    """Write a training iteration's row to ``progress.jsonl`` and a line to the console;
    returns the decisions it sampled (``steps``: the count before it)."""
    from ray.rllib.utils import metrics

    runners = result.get(metrics.ENV_RUNNER_RESULTS, {})
    learner = result.get(metrics.LEARNER_RESULTS, {}).get("default_policy", {})
    sampled = int(runners.get(metrics.NUM_ENV_STEPS_SAMPLED, 0))
    row = {
        "step": steps + sampled,
        "minutes": round((time.time() - started) / 60, 3),
        "decisions": sampled,
        "decisions_per_s": round(sampled / max(seconds, 1e-9), 1),
        "episode_return_mean": runners.get(metrics.EPISODE_RETURN_MEAN),
    }
    for key in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "vf_explained_var"):
        if key in learner:
            row[key] = float(learner[key])
    rates = [value for key, value in learner.items() if key.endswith("_learning_rate")]
    if rates:  # the optimiser's step size after this iteration's update
        row["learning_rate"] = float(rates[0])
    row = {k: (float(v) if isinstance(v, np.floating) else v) for k, v in row.items()}
    progress.write(json.dumps(row) + "\n")
    progress.flush()
    print(
        f"iteration {result.get('training_iteration')}: {steps + sampled:,} decisions, "
        f"{row['decisions_per_s']:,.0f}/s, return {row['episode_return_mean']}"
    )
    return sampled


def _refuse_local_options(config: TrainConfig) -> None:
    """Options that only the local trainer honours, refused before Ray starts."""
    if config.privileged_critic:  # the RLlib module has one input for actor and critic
        raise ValueError("privileged_critic is an option of the local trainer, not of --backend rllib")
    if config.target_kl:  # RLlib's PPO has a KL penalty, not SB3's early stop of the epochs
        raise ValueError("target_kl is an option of the local trainer, not of --backend rllib")


def train_rllib(config: TrainConfig, options: RLlibOptions) -> TrainResult:
    """Train as ``config`` and ``options`` say; write checkpoints and reports to ``config.run_dir``."""
    from .algo import build_ppo_config, learner_state

    _refuse_local_options(config)
    torch.set_num_threads(max(1, config.torch_threads))
    started = time.time()
    if config.resume:
        _check_resume_hint(config)
    run_dir = _start_run_dir(config, options)
    init_ray(options)
    algo = build_ppo_config(config, options).build_algo()
    if options.num_env_runners:
        _record_env_runner_nodes(algo, run_dir)
    torch.set_num_threads(max(1, config.torch_threads))  # the local learner trains in this process
    weights = parse_weights(config.opponents)
    history: list[dict] = []
    steps = 0
    snapshot_dir = run_dir / "snapshots"
    if config.resume:
        steps, history = _restore(algo, config, run_dir, snapshot_dir)
    elif config.warm_start:  # a resumed module is past imitation
        _warm_start(algo, config, run_dir)
    start_steps = steps
    next_snapshot = steps
    next_ckpt = steps + config.checkpoint_every if config.checkpoint_every else 1 << 62
    next_eval = steps + config.eval_every if config.eval_every else 1 << 62
    best = float("-inf")  # the top score against the best-by bot so far
    limit = config.max_minutes * 60

    def save(name: str) -> Path:
        path = (run_dir / name).resolve()
        algo.save_to_path(str(path))
        (path / STATE_FILE).write_text(json.dumps({"timesteps": steps}) + "\n", encoding="utf-8")
        return path

    def evaluate() -> None:
        nonlocal best
        agent = driver_agent(config, learner_state(algo), "rllib")
        rows, best = periodic_evaluation(agent, config, history, steps, started, best, lambda: save("best"))
        for r in rows:
            print(f"eval at {steps:,}: {r['mean_diff']:+.1f} vs {r['bot']}, win rate {r['win_rate']:.3f}")

    if config.warm_start and not config.resume and config.eval_every:
        evaluate()  # the curve's first point: the imitation policy before PPO

    progress = (run_dir / "progress.jsonl").open("a", encoding="utf-8")
    try:
        while steps < config.stop_at() and not (limit and time.time() - started > limit):
            if "self" in weights and weights["self"] > 0 and steps >= next_snapshot:
                _league_snapshot(algo, steps, snapshot_dir)
                next_snapshot = steps + max(1, config.snapshot_every)
            t0 = time.perf_counter()
            result = algo.train()
            steps += _log_iteration(progress, result, steps, started, time.perf_counter() - t0)
            if steps >= next_ckpt:
                save(f"step_{steps:09d}")
                save("latest")
                next_ckpt += config.checkpoint_every
            if steps >= next_eval:
                evaluate()
                next_eval += config.eval_every
        seconds = time.time() - started
        final = save("final")
        save("latest")
        if config.eval_every and (not history or history[-1]["step"] != steps):
            evaluate()
        report = None
        if config.final_eval_hands:
            agent = driver_agent(config, learner_state(algo), "rllib")
            report = write_report(agent, config, steps, steps - start_steps, seconds, backend="rllib")
        if history:
            plot_learning_curve(history, run_dir / "learning_curve.png")
    finally:
        progress.close()
        algo.stop()
    trained = steps - start_steps
    return TrainResult(run_dir, final, steps, seconds, trained / max(seconds, 1e-9), report)
