"""The RLlib backend: its env, its masked module, and a tiny run on a local Ray instance,
for every game: Díszített kanaszta (two players), classic canasta (pl, two partnerships)
and Turkish kanasta (tr).

The run test starts Ray with 2 CPUs, trains two iterations of a tiny budget with
one env runner (a league with bots and snapshots), saves, reloads the
checkpoint as an agent through ``agents.registry`` and plays hands with it,
then resumes the run for one more iteration. The hinted run compares the module after the
imitation warm start with the SB3 policy it was copied from, trains, exports a HintedPolicy
and refuses to resume without the hint.
"""

from __future__ import annotations

import json
import os
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from agents.base import play_batch
from agents.random_bot import RandomBot
from agents.registry import make_agent
from kanaszta_env import GameBatch
from kanaszta_env.observation import observation_size
from training.config import TrainConfig
from training.rllib.env import make_env
from training.rllib.options import RLlibOptions

if find_spec("ray") is None:  # scripts/test.sh installs the ray extra: in CI this test never skips
    if os.environ.get("CI"):
        raise ImportError("the RLlib tests need ray[rllib]: pip install -e '.[ray]'")
    pytest.skip("ray[rllib] is not installed (pip install -e '.[ray]')", allow_module_level=True)

#: (variant, players) of every game the backend trains; 0 players: the preset's default
GAMES = [("2003-02", 2), ("pl", 4), ("tr", 0)]

TINY = dict(
    num_envs=8,
    n_steps=16,
    batch_size=64,
    n_epochs=1,
    opponent_slots=2,
    opponents="random:1,greedy:1,self:1",
    snapshot_every=128,
    eval_every=0,
    final_eval_hands=0,
    checkpoint_every=0,
    progress_bar=False,
    tensorboard=False,
    warm_start="",
    net_arch=[32],
)


def test_the_quick_start_imports_no_ray() -> None:
    """Ray is an optional extra: the package, the bots, the registry and the training CLI load without it."""
    import subprocess
    import sys

    code = (
        "import sys, kanaszta_env, agents.registry, training, training.cli, training.config\n"
        "assert not [m for m in sys.modules if m == 'ray' or m.startswith('ray.')]"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[1])


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_env_resets_on_the_step_after_a_hand_ends_and_the_module_masks(variant: str, players: int) -> None:
    """gymnasium's NEXT_STEP autoreset, as RLlib's env runner expects: the step that ends a
    hand returns its last observation (no legal action) and the next one deals a new hand.
    The spaces are the game's: its observation and one mask flag per action, which the
    module reads: it gives the illegal actions no probability."""
    from training.rllib.module import MaskedActorCritic

    config = TrainConfig(variant=variant, num_players=players, max_turns=40, **TINY)
    env = make_env({"train": config.to_dict(), "num_envs": 6})
    rules = config.rules()
    actions_n = len(rules.game.action_names(rules))
    assert env.single_action_space.n == actions_n
    assert env.single_observation_space.shape == (observation_size(rules) + actions_n,)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    ended_once = False
    for _ in range(3000):
        mask = obs[:, -actions_n:] > 0
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        was_done = env._pending.copy()
        obs, rewards, terminated, truncated, _ = env.step(actions)
        done = terminated | truncated
        assert not done[was_done].any() and (rewards[was_done] == 0).all()
        assert (obs[was_done, -actions_n:].sum(axis=1) > 0).all()  # a new hand to play
        assert (obs[done, -actions_n:].sum(axis=1) == 0).all()  # the finished hand's last view
        ended_once |= bool(done.any())
        if ended_once and was_done.any():
            break
    assert ended_once
    assert obs.dtype == np.float32 and env.observation_space.contains(obs)
    space, legal = env.single_observation_space, obs[:, -actions_n:] > 0
    module = MaskedActorCritic(
        observation_space=space, action_space=env.single_action_space, model_config={"net_arch": [16]}
    )
    batch = {"obs": torch.from_numpy(obs[legal.any(axis=1)])}
    logits = module.forward_inference(batch)["action_dist_inputs"].detach()
    assert torch.isfinite(logits).all() and module.compute_values(batch).shape == (len(batch["obs"]),)
    assert torch.softmax(logits, dim=1).numpy()[~legal[legal.any(axis=1)]].max() < 1e-30


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_train_two_iterations_reload_play_and_resume(
    tmp_path: Path, monkeypatch, variant: str, players: int
) -> None:
    import ray

    from training.rllib.train import train_rllib

    run = tmp_path / "run"
    options = RLlibOptions(num_cpus=2, num_env_runners=1)
    per_iteration = TINY["num_envs"] * TINY["n_steps"]
    game = dict(variant=variant, num_players=players, max_turns=40, **TINY)
    config = TrainConfig(run_dir=str(run), total_timesteps=2 * per_iteration, anneal_lr=True, **game)
    try:
        result = train_rllib(config, options)
        assert result.timesteps == 2 * per_iteration
        lines = (run / "progress.jsonl").read_text().splitlines()
        assert len(lines) == 2 and json.loads(lines[-1])["step"] == 2 * per_iteration
        # anneal_lr: the step size falls linearly to zero at total_timesteps, as the local trainer's
        rates = [json.loads(line)["learning_rate"] for line in lines]
        assert rates == pytest.approx([config.learning_rate / 2, 0.0])
        assert len(list((run / "snapshots").glob("*.npz"))) == 2  # at 0 and at 128 decisions
        for name in ("config.json", "rllib.json", "final", "latest"):
            assert (run / name).exists()

        monkeypatch.chdir(tmp_path)  # a relative folder, as on the command line
        agent = make_agent("rllib:run/final")
        rules = config.rules()
        sides = np.array(rules.sides())
        seating = np.stack([sides, 1 - sides])  # its side, then the other (a legal move or an error)
        outcome = play_batch(rules, [agent, RandomBot()], seating, [11, 12])
        assert ((outcome.decisions * (seating == 0)).sum(axis=1) > 0).all()  # it played both hands

        resumed = TrainConfig(
            run_dir=str(run),
            total_timesteps=4 * per_iteration,
            anneal_lr=True,
            resume=str(run / "latest"),
            **game,
        )
        again = train_rllib(resumed, options)
        assert again.timesteps == 4 * per_iteration
        # the schedule counts the decisions sampled before the resume (a fresh count gives 3/4, 1/2)
        lines = (run / "progress.jsonl").read_text().splitlines()
        rates = [json.loads(line)["learning_rate"] for line in lines]
        assert rates[2:] == pytest.approx([resumed.learning_rate / 4, 0.0])
    finally:
        ray.shutdown()


def test_bad_arguments_are_refused_before_ray_starts(capsys, tmp_path: Path) -> None:
    """A missing checkpoint (to resume, to evaluate, as an agent), the privileged critic and
    target_kl (options of the local trainer) are refused with one line, before Ray starts or a run
    folder is written."""
    from kanaszta_env.cli import main
    from training.rllib.train import train_rllib

    run = tmp_path / "run"
    code = main(["train", "--backend", "rllib", "--resume", str(tmp_path), "--run-dir", str(run)])
    assert code == 2 and "no RLlib checkpoint folder" in capsys.readouterr().err
    assert main(["eval", f"rllib:{tmp_path / 'none'}", "--bots", "random", "--hands", "2"]) == 2
    assert "no checkpoint at" in capsys.readouterr().err
    with pytest.raises(ValueError, match="no RLlib checkpoint"):
        make_agent(f"rllib:{tmp_path / 'none'}")
    with pytest.raises(ValueError, match="RLModule"):
        make_agent(f"rllib:{tmp_path}")
    config = TrainConfig(run_dir=str(run), privileged_critic=True)
    with pytest.raises(ValueError, match="privileged_critic is an option of the local trainer"):
        train_rllib(config, RLlibOptions(num_cpus=2, num_env_runners=1))
    config = TrainConfig(run_dir=str(run), target_kl=0.02)
    with pytest.raises(ValueError, match="target_kl is an option of the local trainer"):
        train_rllib(config, RLlibOptions(num_cpus=2, num_env_runners=1))
    assert not run.exists()


def test_the_learner_optimises_as_the_local_trainer() -> None:
    """SB3's Adam epsilon (1e-5) and advantages standardised per minibatch, over the steps RLlib
    does not mask (a padding step of 1,000 would shift the mean and spread)."""
    from training.rllib.algo import build_ppo_config
    from training.rllib.learner import ADAM_EPS, standardised

    config = TrainConfig(
        opponents="random:1",
        warm_start="",
        net_arch=[32],
        **{k: TINY[k] for k in ("num_envs", "n_steps", "batch_size", "n_epochs")},
    )
    learner = build_ppo_config(config, RLlibOptions(num_cpus=2, num_env_runners=1)).build_learner(
        env=make_env({"train": config.to_dict()})
    )
    assert ADAM_EPS == 1e-5 and learner.get_optimizer().defaults["eps"] == ADAM_EPS
    advantages = torch.tensor([1.0, 2.0, 3.0, 1000.0])
    valid = torch.tensor([True, True, True, False])
    out = standardised(advantages, valid)
    assert out[:3].tolist() == pytest.approx([-1.0, 0.0, 1.0], abs=1e-6)
    assert standardised(advantages).mean().item() == pytest.approx(0.0, abs=1e-6)


def test_rllib_options_come_from_the_toml_table_and_flags(tmp_path: Path) -> None:
    import argparse

    from training.config import add_arguments, parse_config
    from training.rllib.options import add_arguments as add_rllib_arguments, parse_options

    path = tmp_path / "run.toml"
    path.write_text("num_envs = 32\n[rllib]\nnum_env_runners = 3\naddress = 'auto'\n", encoding="utf-8")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    add_rllib_arguments(parser)
    args = parser.parse_args(["--config", str(path), "--backend", "rllib", "--num-learners", "2"])
    assert parse_config(args).num_envs == 32
    options = parse_options(args)
    assert (options.num_env_runners, options.num_learners, options.address) == (3, 2, "auto")
    path.write_text("[rllib]\nnum_runners = 3\n", encoding="utf-8")
    with pytest.raises(ValueError, match="num_runners"):
        parse_options(parser.parse_args(["--config", str(path)]))


#: the hinted runs: the heuristic's hint and the local trainer's imitation warm start of it
#: (4,096 decisions, 100 epochs of two minibatches of the fit: 200 updates, enough to learn the hint)
HINTED = {
    **TINY,
    "hint": "heuristic",
    "warm_start": "heuristic",
    "warm_start_steps": 512,
    "warm_start_epochs": 100,
}


def _check_the_warm_started_module(config: TrainConfig, model: Any) -> None:
    """The local trainer's warm start of a hinted policy (``model``), copied into the RLModule:
    on the RLlib env's observations it gives the SB3 policy's masked probabilities and values,
    agrees with the hint on at least 95% of its own decisions, and exports as a HintedPolicy
    that plays the module's choices from plain observations."""
    from agents.hinted import HintedPolicy
    from training.rllib.train import driver_module
    from training.rllib.warm_start import module_state

    module = driver_module(config, module_state(model.policy, driver_module(config).state_dict()))
    agent = module.to_agent("hinted")
    assert isinstance(agent, HintedPolicy)
    agent.setup(config.rules())
    env = make_env({"train": config.to_dict(), "num_envs": 16})
    space = env.single_observation_space
    n, size, plain = space.num_actions, space.observation_size, env.obs_size
    obs, _ = env.reset(seed=3)
    agreed: list[np.ndarray] = []
    for _ in range(40):
        x = torch.from_numpy(obs)
        with torch.no_grad():
            logits = module.forward_inference({"obs": x})["action_dist_inputs"]
            rows = np.flatnonzero(obs[:, -n:].any(axis=1))  # a finished hand has no decision
            legal = obs[rows, -n:] > 0
            sb3 = model.policy.get_distribution(x[rows, :size], action_masks=legal).distribution.probs
            np.testing.assert_allclose(torch.softmax(logits[rows], 1), sb3, atol=1e-5)
            values = model.policy.predict_values(x[rows, :size]).squeeze(1)
            np.testing.assert_allclose(module.compute_values({"obs": x[rows]}), values, atol=1e-5)
        choice = logits.argmax(1).numpy()
        np.testing.assert_array_equal(agent.act(obs[rows, :plain], legal), choice[rows])
        agreed.append(choice[rows] == obs[rows, plain:size].argmax(1))
        obs, *_ = env.step(choice)
    agreement = np.concatenate(agreed)
    assert agreement.size > 300 and agreement.mean() >= 0.95


def test_hinted_warm_started_run_trains_exports_and_resumes_with_its_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hinted run of classic canasta (4 players) with a warm start: the imitation weights
    reach the learner and the env runner before PPO (and play as the module should, see
    :func:`_check_the_warm_started_module`), evaluations and the exported policy play through
    the hint, and a resume without the hint is refused."""
    import ray

    from agents.hinted import HintedPolicy, load_policy_file
    from training.rllib import algo as rllib_algo, warm_start as rllib_warm_start
    from training.rllib.train import train_rllib

    run = tmp_path / "run"
    per_iteration = TINY["num_envs"] * TINY["n_steps"]
    game = {**HINTED, "variant": "pl", "num_players": 4, "max_turns": 40, "eval_hands": 8}
    game |= {"eval_bots": "random", "eval_every": 2 * per_iteration}
    config = TrainConfig(run_dir=str(run), total_timesteps=2 * per_iteration, **game)
    copied: list[bool] = []
    load = rllib_algo.load_weights

    def checked(algo, state: dict) -> None:  # both copies hold the imitation weights
        load(algo, state)
        runners = algo.env_runner_group.foreach_env_runner(
            lambda r: r.module.get_state(), local_env_runner=False
        )
        for held in [rllib_algo.learner_state(algo), *runners]:
            copied.append(all(np.array_equal(np.asarray(held[k]), v) for k, v in state.items()))

    monkeypatch.setattr(rllib_algo, "load_weights", checked)
    fitted: list[Any] = []
    imitate = rllib_warm_start.imitation_model

    def imitation(config: TrainConfig) -> tuple[Any, list[dict]]:  # keeps the fitted SB3 model
        fitted.append(imitate(config))
        return fitted[-1]

    monkeypatch.setattr(rllib_warm_start, "imitation_model", imitation)
    try:
        result = train_rllib(config, RLlibOptions(num_cpus=2, num_env_runners=1))
        assert result.timesteps == 2 * per_iteration and copied == [True, True]
        assert json.loads((run / "warm_start.json").read_text())[0]["decisions"] == 512 * TINY["num_envs"]
        assert len(fitted) == 1 and len(fitted[0][1]) == 1
        _check_the_warm_started_module(config, fitted[0][0])
        history = json.loads((run / "history.json").read_text())
        assert [row["step"] for row in history] == [0, 2 * per_iteration]  # the imitation policy first
        lines = (run / "progress.jsonl").read_text().splitlines()
        rates = [json.loads(line)["learning_rate"] for line in lines]
        assert rates == pytest.approx([config.learning_rate] * 2)  # no anneal_lr: constant

        from training.cli import main as train_cli

        out = tmp_path / "final.npz"
        assert train_cli(["export", str(run / "final"), "--out", str(out)]) == 0
        agent = load_policy_file(out)
        assert isinstance(agent, HintedPolicy) and agent.policy.hint == "heuristic"
        rules = config.rules()
        direct = make_agent(f"rllib:{run / 'final'}", rules)  # the rllib: loader adds the hint too
        assert isinstance(direct, HintedPolicy)
        games = GameBatch(rules, 4)
        games.reset(seed=np.arange(4))
        obs, mask = games.observe(), games.legal_mask()
        np.testing.assert_array_equal(direct.act(obs, mask), agent.act(obs, mask))
        sides = np.array(rules.sides())
        seating = np.stack([sides, 1 - sides])
        outcome = play_batch(rules, [agent, RandomBot()], seating, [11, 12])
        assert ((outcome.decisions * (seating == 0)).sum(axis=1) > 0).all()

        plain = dict(game, hint="", warm_start="")
        resumed = TrainConfig(run_dir=str(tmp_path / "again"), resume=str(run / "latest"), **plain)
        with pytest.raises(ValueError, match="trained with --hint heuristic, this run has no --hint"):
            train_rllib(resumed, RLlibOptions(num_cpus=2, num_env_runners=1))
        assert not (tmp_path / "again").exists()
    finally:
        ray.shutdown()
