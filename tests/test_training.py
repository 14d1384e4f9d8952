"""Training layer: config parsing, the shaping potential (R16), the opponent
pool, and smoke runs of the real ``train`` entry point (tiny budgets)."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

from stable_baselines3.common.vec_env import VecEnvWrapper
from training_helpers import tiny_train_flags

from agents.base import play_batch
from agents.random_bot import RandomBot
from agents.registry import make_agent
from kanaszta_env import GameBatch, Rules
from kanaszta_env.envs import KanasztaVecEnv
from kanaszta_env.games.diszitett.kernels.state import END_OUT
from kanaszta_env.games.diszitett.observation import encode
from kanaszta_env.observation import observation_size
from kanaszta_env.spaces import ObservationSpace
from training.cli import main as cli_main
from training.config import TrainConfig, parse_config, parse_weights
from training.features import CountFeatures
from training.games.diszitett.shaping import ScoreEstimate, ShapedReward
from training.imitation import collect, fit, student_of
from training.opponents import OpponentPool, SlotOpponent
from training.policy import PPOAgent
from training.train import build_env, build_model

TINY = tiny_train_flags(teacher="greedy", rounds=2, final_bots="random")


# --- config ---------------------------------------------------------------------------
def test_config_defaults_toml_and_flags(tmp_path: Path) -> None:
    toml = tmp_path / "run.toml"
    toml.write_text('[train]\nnum_envs = 64\nopponents = "greedy:1"\nmax_minutes = 5\nnet_arch = [32, 32]\n')
    config = parse_config(["--config", str(toml), "--num-envs", "16", "--no-progress-bar"])
    assert config.num_envs == 16  # the flag beats the file
    assert config.opponents == "greedy:1"  # the file beats the default
    assert config.net_arch == [32, 32]
    assert config.max_minutes == 5.0 and isinstance(config.max_minutes, float)
    assert config.progress_bar is False
    assert config.seed == TrainConfig().seed  # untouched default
    top_level = tmp_path / "flat.toml"
    top_level.write_text("seed = 7\n")
    assert parse_config(["--config", str(top_level)]).seed == 7


def test_config_rejects_bad_values(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("num_env = 3\n")
    with pytest.raises(ValueError, match="num_env"):
        parse_config(["--config", str(bad)])
    with pytest.raises(ValueError, match="opponent_slots"):
        parse_config(["--num-envs", "2", "--opponent-slots", "4"])
    with pytest.raises(ValueError, match="weight"):
        parse_weights("random:x")
    with pytest.raises(ValueError, match="no opponent"):
        parse_weights("random:0")
    with pytest.raises(ValueError, match="num_players"):
        parse_config(["--num-players", "5"])
    with pytest.raises(ValueError, match="best_by 'heuristic'"):
        parse_config(["--eval-bots", "random,greedy", "--best-by", "heuristic"])
    assert parse_config(["--eval-bots", "random,greedy"]).best_bot() == "greedy"
    with pytest.raises(ValueError, match="warm-start teacher"):
        parse_config(["--warm-start", "grandmaster"])
    assert parse_config(["--warm-start", ""]).warm_start == ""
    assert parse_weights("Random:1, self") == {"random": 1.0, "self": 1.0}


class _Recorder(VecEnvWrapper):
    """Keeps the unshaped rewards of the last step."""

    def reset(self) -> np.ndarray:
        return self.venv.reset()

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        self.last_rewards = rewards.copy()
        return obs, rewards, dones, infos


# --- shaping --------------------------------------------------------------------------
def test_r16_potential_is_the_hand_score_of_a_truncated_hand() -> None:
    """R16.4/R16.6: at the end of a hand cut by the turn limit (no going-out
    bonus), the observer's estimate from his own observation is his hand score."""
    rules = Rules(max_turns=24)
    games = GameBatch(rules, 32)
    games.reset(seed=11)
    bot = RandomBot(seed=3)
    while not games.done.all():
        mask = games.legal_mask()
        actions = np.zeros(32, dtype=np.int64)
        live = ~games.done
        actions[live] = bot.act(np.zeros((live.sum(), 1)), mask[live])
        games.step(actions)
    estimate = ScoreEstimate(rules, scale=1.0, hand_weight=1.0)
    truncated = games.state.end_reason != END_OUT  # no going-out bonus
    assert truncated.sum() > 20
    for seat in (0, 1):
        mine = estimate.scores(encode(games.state, rules, seat))[:, 0]
        np.testing.assert_array_equal(mine[truncated], games.state.hand_scores[truncated, seat])


@pytest.mark.parametrize("canasta, out, dead_end", [(0.0, 0.0, 0.0), (1.0, 0.5, 1.0)])
def test_shaping_telescopes_to_the_hand_reward(canasta: float, out: float, dead_end: float) -> None:
    """With gamma = 1 the shaped rewards of a hand add up to its real reward minus phi(s0)
    (also with the canasta-progress, going-out-readiness and dead-end terms: they are potentials too)."""
    rules = Rules(max_turns=12)
    recorder = _Recorder(KanasztaVecEnv(6, rules, opponents="random"))
    potential = ScoreEstimate(
        rules, scale=1e-3, hand_weight=0.5, canasta_progress=canasta, out_readiness=out, dead_end=dead_end
    )
    env = ShapedReward(recorder, potential, coef=1.0, gamma=1.0)
    env.seed(5)
    obs = env.reset()
    start = potential(obs)
    assert np.abs(start).max() > 0  # red threes and hands make phi non-trivial
    shaped = np.zeros(6)
    real = np.zeros(6)
    checked = 0
    rng = np.random.default_rng(0)
    while checked < 12:
        masks = env.env_method("action_masks")
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        shaped += rewards
        real += recorder.last_rewards
        for i in np.flatnonzero(dones):
            assert shaped[i] == pytest.approx(real[i] - start[i], abs=1e-4)
            assert not infos[i].get("TimeLimit.truncated")  # the hand is over, not timed out
            shaped[i] = real[i] = 0.0
            start[i] = potential(obs[i : i + 1])[0]
            checked += 1


def test_progress_terms_follow_groups_canastas_and_hand_size() -> None:
    """Canasta progress is convex in an unfinished group's cards; readiness needs a canasta (R14.1)."""
    rules = Rules()
    games = GameBatch(rules, 1)
    games.reset(seed=11)
    estimate = ScoreEstimate(rules, canasta_progress=1.0, out_readiness=0.5)
    s = games.state
    s.groups[0] = 0
    s.hand[0, 0] = 0
    s.hand[0, 0, :3] = 1  # three cards in hand
    s.groups[0, 0, 2, :2] = (2, 1)  # three naturals in one group (two decks: two of each card)
    s.groups[0, 0, 3, 0] = 1  # and one in another
    three_and_one = estimate.progress(encode(s, rules, 0))[0, 0]
    assert three_and_one == pytest.approx(300 * ((3 / 7) ** 2 + (1 / 7) ** 2))
    s.groups[0, 0, 2, :2], s.groups[0, 0, 3, 0] = (2, 2), 0  # the same cards in one group are worth more
    assert estimate.progress(encode(s, rules, 0))[0, 0] > three_and_one
    s.groups[0, 0, 2, :4] = (2, 2, 2, 1)  # a natural canasta: no progress term, readiness with 3 in hand
    ready = estimate.progress(encode(s, rules, 0))[0, 0]
    assert ready == pytest.approx(0.5 * 1000 * np.exp(-2 / 4))
    s.hand[0, 0, :2] = 0  # one card left: the most ready
    assert estimate.progress(encode(s, rules, 0))[0, 0] == pytest.approx(500.0)
    assert ScoreEstimate(rules).progress(encode(s, rules, 0)).max() == 0.0  # off by default


def test_dead_end_term_prices_few_cards_without_a_canasta() -> None:
    """One card and no canasta cannot go out (R14.1): the potential drops as the hand shrinks to it."""
    rules = Rules()
    games = GameBatch(rules, 1)
    games.reset(seed=11)
    estimate = ScoreEstimate(rules, dead_end=1.0)
    s = games.state
    s.groups[0] = 0
    s.hand[0, 0] = 0
    s.groups[0, 0, 2, :2] = (2, 1)  # an open group of three, no canasta
    terms = []
    for cards in (5, 4, 3, 2, 1):
        s.hand[0, 0] = 0
        s.hand[0, 0, :cards] = 1
        terms.append(estimate.progress(encode(s, rules, 0))[0, 0])
    assert terms == pytest.approx([0.0, 0.0, -1000 / 3, -2000 / 3, -1000.0])
    s.groups[0, 0, 2, :4] = (2, 2, 2, 1)  # with a canasta one card is a way out, not a dead end
    assert estimate.progress(encode(s, rules, 0))[0, 0] == 0.0
    assert ScoreEstimate(rules).progress(encode(s, rules, 0)).max() == 0.0  # off when its weight is 0


def test_step_cost_is_taken_from_every_learner_decision() -> None:
    rules = Rules(max_turns=12)
    recorder = _Recorder(KanasztaVecEnv(4, rules, opponents="random"))
    env = ShapedReward(recorder, ScoreEstimate(rules), coef=0.0, step_cost=0.01)
    env.seed(2)
    env.reset()
    rng = np.random.default_rng(2)
    for _ in range(40):
        masks = env.env_method("action_masks")
        _, rewards, _, _ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        np.testing.assert_allclose(rewards, recorder.last_rewards - 0.01, atol=1e-6)


def test_win_bonus_rewards_the_sign_of_the_hand_result() -> None:
    """R18.1: the hand is won by the higher hand score; the bonus follows the sign of the difference."""
    rules = Rules(max_turns=12)
    recorder = _Recorder(KanasztaVecEnv(8, rules, opponents="random"))
    env = ShapedReward(recorder, ScoreEstimate(rules), coef=0.0, win_bonus=2.0)
    env.seed(3)
    env.reset()
    rng = np.random.default_rng(1)
    ended = 0
    while ended < 8:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.env_method("action_masks")])
        _, rewards, dones, _ = env.step(actions)
        real = recorder.last_rewards
        np.testing.assert_allclose(rewards, real + 2.0 * np.sign(real) * dones, atol=1e-6)
        assert (real[~dones] == 0).all()  # score rewards come only at a hand's end
        ended += int(dones.sum())


# --- pool -----------------------------------------------------------------------------
def test_pool_sampling_follows_the_weights() -> None:
    rules = Rules()
    pool = OpponentPool({"random": 1.0, "self": 3.0}, rules, latest_prob=1.0, seed=0)
    assert all(pool.sample().name == "random" for _ in range(20))  # no snapshot yet: self is skipped
    first, second = RandomBot(seed=1), RandomBot(seed=2)
    first.name, second.name = "self@1", "self@2"
    pool.add_snapshot(first)
    pool.add_snapshot(second)
    names = [pool.sample().name for _ in range(2000)]
    assert 0.70 < names.count("self@2") / 2000 < 0.80  # weight 3 of 4, always the newest
    assert "self@1" not in names
    pool.latest_prob = 0.0
    assert {pool.sample().name for _ in range(200)} == {"random", "self@1"}


def test_slot_opponent_hands_views_to_a_bot_that_reads_them() -> None:
    """The engine computes views for a slot (its agent can change between
    rollouts) and a compiled bot in it reads them instead of decoding."""
    bot = make_agent("heuristic")
    act = bot.act
    given: list[bool] = []

    def spy(obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None, views=None) -> np.ndarray:
        given.append(views is not None)
        return act(obs, mask, views=views)

    bot.act = spy  # type: ignore[method-assign]
    venv = KanasztaVecEnv(4, opponents=SlotOpponent(bot), learner_seat=0)
    venv.seed(0)
    venv.reset()
    for _ in range(12):
        venv.step(venv.action_masks().argmax(axis=1))
    assert given and all(given)


# --- count features -------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3])
def test_count_features_are_the_seats_hand_sizes_and_canastas(players: int) -> None:
    rules = Rules(num_players=players)
    size = observation_size(rules)
    with pytest.raises(ValueError, match="does not declare its rules"):
        CountFeatures(gym.spaces.Box(-1.0, 1.0, (size,)))  # the number of players is never guessed
    features = CountFeatures(ObservationSpace(rules))
    assert features.rules == rules
    games, rng = GameBatch(rules, 32), np.random.default_rng(3)
    games.reset(seed=np.arange(32))
    seen_canasta = seen_big_hand = False
    for _ in range(400):
        live = ~games.done
        mover = games.to_move.astype(np.int64)
        obs = encode(games.state, rules, mover)
        out = features(torch.from_numpy(obs)).numpy()
        assert out.shape == (32, features.features_dim)
        np.testing.assert_array_equal(out[:, :size], obs)  # the observation is kept as it is
        extra = out[live, size:]
        hands = extra[:, : players * 17].reshape(-1, players, 17)
        canastas = extra[:, players * 17 :].reshape(-1, players, 4)
        assert (hands.sum(-1) == 1).all() and (canastas.sum(-1) == 1).all()  # one-hot
        rows = np.flatnonzero(live)
        for k in range(players):  # seats relative to the observer, own seat first
            seat = (mover[rows] + k) % players
            cards = games.state.hand[rows, seat].sum(axis=1)
            made = (games.state.groups[rows, seat].sum(axis=-1) >= 7).sum(axis=1)
            np.testing.assert_array_equal(hands[:, k].argmax(-1), np.minimum(cards, 16))
            np.testing.assert_array_equal(canastas[:, k].argmax(-1), np.minimum(made, 3))
            seen_canasta |= bool((made > 0).any())
            seen_big_hand |= bool((cards > 16).any())
        mask = games.legal_mask()
        games.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask]))
    assert seen_canasta and seen_big_hand  # both buckets' edges were exercised


# --- imitation warm start ---------------------------------------------------------------
def test_imitation_labels_every_decision_with_the_teacher_and_fit_learns_it() -> None:
    config = TrainConfig(num_envs=8, opponent_slots=2, max_turns=30, net_arch=[64], opponents="random:1")
    pool = OpponentPool(parse_weights(config.opponents), config.rules(), seed=0)
    env, base = build_env(config, pool)
    model = build_model(config, env, None)
    teacher = make_agent("greedy", config.rules())
    data = collect(env, base.action_masks, teacher, 60, config.gamma)
    assert data.obs.shape == (480, observation_size(config.rules())) and data.hands > 0
    assert data.mask[np.arange(480), data.action].all()  # every label is legal where it was taken
    np.testing.assert_array_equal(teacher.act(data.obs, data.mask), data.action)
    assert data.has_ret.any() and not data.has_ret.all() and np.isfinite(data.ret).all()

    def agreement() -> float:
        return float((PPOAgent.from_sb3(model.policy).act(data.obs, data.mask) == data.action).mean())

    agent = PPOAgent.from_sb3(model.policy)  # the rules come from the declared observation space
    assert agent.trained_rules == config.rules()
    with pytest.raises(ValueError, match=r"\(2 players\); these rules \(3 players\)"):
        agent.setup(Rules(num_players=3))

    before = agreement()
    stats = fit(model, data, epochs=20, batch_size=64, learning_rate=3e-3)
    after = agreement()
    assert after > max(0.8, before + 0.3), (before, after, stats)

    # DAgger: the student plays every hand, the teacher still labels every decision
    student = student_of(model, seed=1)
    more = collect(env, base.action_masks, teacher, 30, config.gamma, student=student, student_share=1.0)
    np.testing.assert_array_equal(teacher.act(more.obs, more.mask), more.action)
    assert more.mask[np.arange(len(more.action)), more.action].all()


# --- the real entry point ---------------------------------------------------------------
def test_train_smoke_resume_and_load(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert cli_main(["train", "--run-dir", str(run), "--total-timesteps", "256", *TINY]) == 0
    for name in (
        "final.zip",
        "latest.zip",
        "config.json",
        "history.json",
        "report.json",
        "learning_curve.png",
        "warm_start.json",
        "best.zip",
        "best.json",
    ):
        assert (run / name).exists(), name
    assert list((run / "snapshots").glob("*.npz"))  # NumPy actors (agents.numpy_policy)
    report = json.loads((run / "report.json").read_text())
    assert report["timesteps"] >= 256 and report["matches"][0]["hands"] == 4
    first_history = json.loads((run / "history.json").read_text())
    assert first_history[0]["step"] == 0  # the imitation policy, before PPO
    assert [r["round"] for r in json.loads((run / "warm_start.json").read_text())] == [1, 2]
    best = json.loads((run / "best.json").read_text())  # the top evaluation against the last eval bot
    assert best == max((r for r in first_history if r["bot"] == "random"), key=lambda r: r["mean_diff"])

    # resume: the step counter and the evaluation history go on
    more = tmp_path / "more"
    args = ["train", "--run-dir", str(more), "--resume", str(run / "final.zip"), "--total-timesteps", "512"]
    assert cli_main([*args, *TINY, "--learning-rate", "0.00007", "--gamma", "0.9"]) == 0
    from sb3_contrib import MaskablePPO

    resumed_model = MaskablePPO.load(more / "final.zip", device="cpu")  # the resume's flags apply:
    assert resumed_model.lr_schedule(1.0) == 0.00007 and resumed_model.gamma == 0.9
    resumed = json.loads((more / "report.json").read_text())
    assert resumed["timesteps"] >= 512
    history = json.loads((more / "history.json").read_text())
    assert history[: len(first_history)] == first_history
    assert history[-1]["step"] > first_history[-1]["step"]

    # the checkpoint is an agent: legal actions in real games
    from training.policy import load_policy

    agent = load_policy(more / "final.zip")
    rules = Rules(max_turns=20)
    result = play_batch(rules, [agent, RandomBot(seed=0)], np.array([[0, 1], [1, 0]] * 3), np.arange(6))
    assert result.decisions[:, :].sum() > 0 and result.scores.shape == (6, 2)


def test_the_rl_extra_installs_what_the_progress_bar_needs():
    """``train`` passes ``progress_bar=True`` to SB3, whose callback needs tqdm
    and rich: a fresh install of ``.[rl]`` must have both (it did not)."""
    from stable_baselines3.common.callbacks import ProgressBarCallback

    assert ProgressBarCallback() is not None


def test_plot_curves_draws_a_history_over_decisions_and_wall_time(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "plot_curves", Path(__file__).parents[1] / "scripts/plot_curves.py"
    )
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    rows = [
        {
            "bot": bot,
            "step": step,
            "minutes": step / 1e5,
            "mean_diff": d,
            "diff_ci": [d - 30, d + 30],
            "win_rate": w,
        }
        for bot, d0, w in (("random", 900.0, 0.9), ("heuristic", -200.0, 0.35))
        for step, d, w in ((0, d0, w), (500_000, d0 + 50, w + 0.02), (1_000_000, d0 + 80, w + 0.03))
    ]
    history = tmp_path / "run.json"
    history.write_text(json.dumps({"title": "a run", "command": "kanaszta train", "history": rows}))
    png = module.draw(history)
    assert png == tmp_path / "run.png" and png.stat().st_size > 10_000
    run = tmp_path / "r"
    run.mkdir()
    (run / "history.json").write_text(json.dumps(rows))
    module.CURVES = tmp_path / "curves"
    copied = module.add(run, "mine", "", "kanaszta train --x")
    assert json.loads(copied.read_text())["history"] == rows


def test_summary_names_the_best_checkpoint_inside_a_relative_run_dir(tmp_path: Path, monkeypatch) -> None:
    """The summary's "best periodic evaluation" line points at RUN_DIR/best.zip (a relative run
    folder once came out doubled: runs/x/runs/x/best.json)."""
    from training.train import TrainResult, summary

    monkeypatch.chdir(tmp_path)
    run = Path("runs") / "x"
    run.mkdir(parents=True)
    row = {"mean_diff": 12.5, "bot": "greedy", "step": 1000, "hands": 200}
    (run / "best.json").write_text(json.dumps(row), encoding="utf-8")
    result = TrainResult(run, run / "final.zip", 1000, 60.0, 16.7, None)
    line = next(x for x in summary(result).splitlines() if x.startswith("best periodic"))
    assert line.endswith(f"-> {run / 'best.zip'} (judge it on new deals: kanaszta eval)"), line
    assert f"-> {run / 'best'} (" in summary(result, best="best")  # the RLlib backend's folder
