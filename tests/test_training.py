"""Training layer: config parsing, the shaping potentials (R16; classic canasta's sides;
Turkish kanasta's pairs against the engine's scores), the opponent pool, the count features
of every game, and smoke runs of the real ``train``, ``eval`` and ``export`` entry points on
every game (tiny budgets)."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import ProgressBarCallback
from stable_baselines3.common.vec_env import VecEnvWrapper
from training_helpers import play, tiny_train_flags

from agents.base import play_batch
from agents.checkpoint import PPOAgent, load_policy
from agents.cli import main as agents_cli
from agents.numpy_policy import NumpyPolicy
from agents.random_bot import RandomBot
from agents.registry import make_agent
from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import SMALL_WILDS, TYPE_NAMES
from kanaszta_env.envs import KanasztaVecEnv
from kanaszta_env.games.classic.observation import relative_sides
from kanaszta_env.games.diszitett.kernels.state import END_OUT
from kanaszta_env.games.diszitett.observation import encode
from kanaszta_env.games.turkish.scoring import KINDS, pair_score
from kanaszta_env.observation import observation_size, split
from kanaszta_env.spaces import ObservationSpace
from training.cli import main as cli_main
from training.config import TrainConfig, parse_config, parse_weights
from training.features import CountFeatures
from training.games.classic.shaping import ClassicScoreEstimate
from training.games.diszitett.shaping import ScoreEstimate, ShapedReward
from training.games.turkish.shaping import TurkishScoreEstimate
from training.imitation import collect, fit, student_of
from training.opponents import OpponentPool, SlotOpponent
from training.train import build_env, build_model


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
    # the default progress bar's SB3 callback needs tqdm and rich: a fresh ``.[rl]`` had neither
    assert ProgressBarCallback() is not None
    assert config.seed == TrainConfig().seed  # untouched default
    assert config.privileged_critic is False
    top_level = tmp_path / "flat.toml"
    top_level.write_text("seed = 7\nprivileged_critic = true\n")
    assert parse_config(["--config", str(top_level)]).seed == 7
    assert parse_config(["--config", str(top_level)]).privileged_critic is True


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
    bad.write_text('[train]\nprivileged_critic = "yes"\n')
    with pytest.raises(ValueError, match="privileged_critic must be true or false"):
        parse_config(["--config", str(bad)])
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
    for _ in play(games, np.random.default_rng(3), 100_000):  # to the end of every hand
        pass
    estimate = ScoreEstimate(rules, scale=1.0, hand_weight=1.0)
    truncated = games.state.end_reason != END_OUT  # no going-out bonus
    assert truncated.sum() > 20
    for seat in (0, 1):
        mine = estimate.scores(encode(games.state, rules, seat))[:, 0]
        np.testing.assert_array_equal(mine[truncated], games.state.hand_scores[truncated, seat])


def _disz(**terms: float) -> tuple[Rules, ScoreEstimate]:
    rules = Rules(max_turns=12)
    return rules, ScoreEstimate(rules, scale=1e-3, hand_weight=0.5, **terms)


def _classic() -> tuple[Rules, ClassicScoreEstimate]:
    rules = Rules(variant="pl", num_players=4, max_turns=16)
    return rules, ClassicScoreEstimate(rules, scale=1e-3, hand_weight=0.5, dead_end=1.0)


@pytest.mark.parametrize(
    "setup",
    [_disz, lambda: _disz(canasta_progress=1.0, out_readiness=0.5, dead_end=1.0), _classic],
    ids=["2003-02", "2003-02-terms", "pl"],
)
def test_shaping_telescopes_to_the_hand_reward(setup) -> None:
    """With gamma = 1 the shaped rewards of a hand add up to its real (side) reward minus phi(s0)
    (also with the canasta-progress, going-out-readiness and dead-end terms: they are potentials too)."""
    rules, potential = setup()
    recorder = _Recorder(KanasztaVecEnv(6, rules, opponents="random"))
    env = ShapedReward(recorder, potential, coef=1.0, gamma=1.0)
    env.seed(5)
    obs = env.reset()
    start = potential(obs)
    assert np.abs(start).max() > 0  # red threes and hands make phi non-trivial
    shaped, real, checked = np.zeros(6), np.zeros(6), 0
    rng = np.random.default_rng(0)
    while checked < 12:
        masks = env.env_method("action_masks")
        obs, rewards, dones, infos = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        shaped += rewards
        real += recorder.last_rewards
        for i in np.flatnonzero(dones):
            assert shaped[i] == pytest.approx(real[i] - start[i], abs=1e-4)
            assert not infos[i].get("TimeLimit.truncated")  # the hand is over, not timed out
            shaped[i] = real[i] = 0.0
            start[i] = potential(obs[i : i + 1])[0]
            checked += 1


def test_progress_terms_follow_groups_canastas_and_hand_size() -> None:
    """Canasta progress is convex in an unfinished group's cards; readiness needs a canasta
    (R14.1); one card and no canasta cannot go out (R14.1): the dead-end term drops as the hand
    shrinks to it. Every term is off by default."""
    rules = Rules()
    games = GameBatch(rules, 1)
    games.reset(seed=11)
    estimate = ScoreEstimate(rules, canasta_progress=1.0, out_readiness=0.5)
    dead_end = ScoreEstimate(rules, dead_end=1.0)
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
    s.groups[0, 0, 2, :2] = (2, 1)  # an open group of three, no canasta
    terms = []
    for cards in (5, 4, 3, 2, 1):
        s.hand[0, 0] = 0
        s.hand[0, 0, :cards] = 1
        terms.append(dead_end.progress(encode(s, rules, 0))[0, 0])
    assert terms == pytest.approx([0.0, 0.0, -1000 / 3, -2000 / 3, -1000.0])
    s.hand[0, 0, :3] = 1
    s.groups[0, 0, 2, :4] = (2, 2, 2, 1)  # a natural canasta: no progress term, readiness with 3 in hand
    assert estimate.progress(encode(s, rules, 0))[0, 0] == pytest.approx(0.5 * 1000 * np.exp(-2 / 4))
    s.hand[0, 0, 1:3] = 0  # one card left: the most ready, and with a canasta a way out, not a dead end
    assert estimate.progress(encode(s, rules, 0))[0, 0] == pytest.approx(500.0)
    assert dead_end.progress(encode(s, rules, 0))[0, 0] == 0.0
    assert ScoreEstimate(rules).progress(encode(s, rules, 0)).max() == 0.0  # off by default


def test_step_cost_and_win_bonus_are_added_to_the_real_reward() -> None:
    """The step cost is taken from every learner decision; R18.1: the hand is won by the higher
    hand score, and the win bonus follows the sign of the difference at the hand's end."""
    rules = Rules(max_turns=12)
    recorder = _Recorder(KanasztaVecEnv(8, rules, opponents="random"))
    env = ShapedReward(recorder, ScoreEstimate(rules), coef=0.0, step_cost=0.01, win_bonus=2.0)
    env.seed(3)
    env.reset()
    rng = np.random.default_rng(1)
    ended = 0
    while ended < 8:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.env_method("action_masks")])
        _, rewards, dones, _ = env.step(actions)
        real = recorder.last_rewards
        np.testing.assert_allclose(rewards, real - 0.01 + 2.0 * np.sign(real) * dones, atol=1e-6)
        assert (real[~dones] == 0).all()  # score rewards come only at a hand's end
        ended += int(dones.sum())


@pytest.mark.parametrize(("players", "keys"), [(3, {}), (6, {"six_player_sides": "3x2"})])
def test_classic_potential_orders_the_sides_as_the_observation(players: int, keys: dict) -> None:
    """The potential's relative side of each relative seat is its true side, seen from the observer."""
    rules = Rules(variant="sk", num_players=players, **keys)
    sides = np.array(rules.sides())
    count = len(set(sides.tolist()))
    games = GameBatch(rules, players)
    games.reset(seed=0)
    seats = np.arange(players)
    relative = relative_sides(rules.sides(), split(games.observe(seats=seats), rules)["partners"])
    for seat in seats:
        truth = (sides[(seat + np.arange(players)) % players] - sides[seat]) % count
        np.testing.assert_array_equal(relative[seat], truth)


# --- Turkish kanasta's potential ------------------------------------------------------
def _table_score(state, b: int, pair: int) -> int:
    """T14 of ``pair`` in game ``b`` without hands or going out, by the game's helper."""
    cards = [np.repeat(np.arange(53), state.melds[b, pair, k]) for k in range(state.meld_count[b, pair])]
    kinds = [KINDS[kind] for kind in state.meld_kind[b, pair, : len(cards)]]
    melds = [([TYPE_NAMES[t] for t in c], kind) for c, kind in zip(cards, kinds, strict=True)]
    taken = (state.fi_taker[b] >= 0) & (state.fi_taker[b] % 2 == pair)
    return pair_score(melds, fis_taken=int(taken.sum()), fis_used=int(state.fi_used[b][taken].sum()))


def test_potential_is_the_pairs_score_difference_on_the_table():
    """With no weight on the hands, phi is the difference of the pairs' T14 scores of melds,
    canastas and Fis (pair_score), up to the 5 points a 2 in its own place in a run is worth less."""
    rules = Rules(variant="tr")
    potential = TurkishScoreEstimate(rules, scale=1.0, hand_weight=0.0)
    games, rng, checked = GameBatch(rules, 16), np.random.default_rng(2), np.zeros(2, int)
    games.reset(seed=3)
    for _ in play(games, rng, 1000, make_agent("heuristic", rules)):
        obs = games.observe()
        at_draw = np.flatnonzero(~games.done & (split(obs, rules)["phase"][:, 0] == 1))  # every meld legal
        phi = potential(obs[at_draw])
        for i, b in enumerate(at_draw):
            own = int(games.to_move[b]) % 2
            exact = _table_score(games.state, b, own) - _table_score(games.state, b, 1 - own)
            twos = [int(games.state.melds[b, p][:, list(SMALL_WILDS)].sum()) for p in (own, 1 - own)]
            assert exact - 5 * twos[1] - 1e-9 <= phi[i] <= exact + 5 * twos[0] + 1e-9
            checked += [(games.state.meld_kind[b] > 0).any(), (games.state.fi_taker[b] >= 0).any()]
    assert (checked > 20).all()  # positions with a canasta, with a Fi taken


def test_potential_charges_the_observers_hand_exactly():
    """Weight on the hands lowers phi by the observer's hand value (the spec's, exactly) and his
    partner's estimate, and raises it by the opponents' estimates."""
    rules = Rules(variant="tr")
    games = GameBatch(rules, 8)
    games.reset(seed=1)
    obs = games.observe()
    hands = games.state.hand[np.arange(8), games.to_move].astype(float) @ np.array(rules.spec.hand_penalty)
    flat = TurkishScoreEstimate(rules, scale=1.0, hand_weight=0.0)(obs)
    estimate = TurkishScoreEstimate(rules, scale=1.0, hand_weight=1.0)
    # at the deal every other hand is 11 unknown cards: the partner's cancels one opponent's
    np.testing.assert_allclose(flat - estimate(obs), hands - 11 * estimate.mean_card, rtol=1e-6)
    assert len(set(hands)) > 1


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
def _seat_canastas(rules: Rules, s, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """Díszített: the seat's own canastas, 3 or more in one bucket."""
    return np.minimum((s.groups[rows, seat].sum(axis=-1) >= 7).sum(axis=1), 3)


def _side_flag(rules: Rules, s, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """Classic canasta: has the seat's side a canasta (C6), 0 or 1."""
    side = np.array(rules.sides())[seat]
    return (s.groups[rows, side, :12].sum(axis=-1) >= 7).any(axis=1).astype(np.int64)


def _pair_canastas(rules: Rules, s, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """Turkish kanasta: the canastas of the seat's pair (partners sit opposite)."""
    return np.minimum((s.meld_kind[rows, seat % 2] > 0).sum(axis=1), 3)


@pytest.mark.parametrize(
    ("rules", "canastas", "heuristic"),
    [
        (Rules(), _seat_canastas, False),
        (Rules(num_players=3), _seat_canastas, False),
        (Rules(variant="pl", num_players=4), _side_flag, False),
        (Rules(variant="sk", num_players=5), _side_flag, False),  # sides at uneven distances
        (Rules(variant="tr"), _pair_canastas, True),  # random play makes few canastas
    ],
    ids=["2003-02", "2003-02-3p", "pl-4p", "sk-5p", "tr"],
)
def test_count_features_are_the_seats_hand_sizes_and_canastas(
    rules: Rules, canastas, heuristic: bool
) -> None:
    """Every relative seat's hand size and canastas (own seat first), one-hot beside the
    unchanged observation."""
    players, size = rules.num_players, observation_size(rules)
    with pytest.raises(ValueError, match="does not declare its rules"):
        CountFeatures(gym.spaces.Box(-1.0, 1.0, (size,)))  # the number of players is never guessed
    features = CountFeatures(ObservationSpace(rules))
    assert features.rules == rules
    games, rng = GameBatch(rules, 32), np.random.default_rng(3)
    games.reset(seed=np.arange(32))
    seen_canasta = seen_big_hand = False
    for _ in play(games, rng, 300, make_agent("heuristic", rules) if heuristic else None):
        rows = np.flatnonzero(~games.done)
        mover = games.to_move.astype(np.int64)[rows]
        obs = games.observe()[rows]
        out = features(torch.from_numpy(obs)).numpy()
        assert out.shape == (len(rows), features.features_dim)
        np.testing.assert_array_equal(out[:, :size], obs)  # the observation is kept as it is
        hands = out[:, size : size + players * 17].reshape(-1, players, 17)
        made = out[:, size + players * 17 :].reshape(-1, players, 4)
        assert (hands.sum(-1) == 1).all() and (made.sum(-1) == 1).all()  # one-hot
        for k in range(players):
            seat = (mover + k) % players
            cards = games.state.hand[rows, seat].sum(axis=1)
            truth = canastas(rules, games.state, rows, seat)
            np.testing.assert_array_equal(hands[:, k].argmax(-1), np.minimum(cards, 16))
            np.testing.assert_array_equal(made[:, k].argmax(-1), truth)
            seen_canasta |= bool((truth > 0).any())
            seen_big_hand |= bool((cards > 16).any())
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
@pytest.mark.parametrize(
    ("table", "privileged", "teacher", "rounds", "final_bots"),
    [
        ((), False, "greedy", 2, "random"),
        ((), True, "greedy", 2, "random"),  # and a resume
        (("--variant", "pl", "--num-players", "4"), False, "heuristic", 1, "random,heuristic"),
        (("--variant", "tr"), False, "heuristic", 1, "random,heuristic"),  # four players by default
    ],
    ids=["2003-02", "2003-02-privileged-critic", "pl-4p", "tr"],
)
def test_train_export_evaluate_play_and_resume(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    table: tuple[str, ...],
    privileged: bool,
    teacher: str,
    rounds: int,
    final_bots: str,
) -> None:
    """``kanaszta train`` of every game warm-starts from its ``teacher``, evaluates and writes its
    files; ``kanaszta eval`` judges the checkpoint, ``kanaszta export`` turns it into a NumPy
    policy that tournaments take (an ordinary actor: the privileged critic's hidden inputs are
    left out), and the checkpoint (a plain one also as the registry's agent) plays its own seats
    legally (play_batch checks). The privileged run is resumed: the new flags apply, the step
    counter and history go on, and a resume without ``--privileged-critic`` is refused."""
    run = tmp_path / "run"
    plain = tiny_train_flags(*table, teacher=teacher, rounds=rounds, final_bots=final_bots)
    tiny = ["--privileged-critic", *plain] if privileged else plain
    assert cli_main(["train", "--run-dir", str(run), "--total-timesteps", "256", *tiny]) == 0
    rules = parse_config(plain).rules()
    for name in ("final.zip", "latest.zip", "history.json", "report.json", "learning_curve.png", "best.zip"):
        assert (run / name).exists(), name
    assert list((run / "snapshots").glob("*.npz"))  # NumPy actors (agents.numpy_policy)
    report = json.loads((run / "report.json").read_text())
    assert report["timesteps"] >= 256 and [m["bot"] for m in report["matches"]] == final_bots.split(",")
    assert report["matches"][0]["hands"] == 4
    history = json.loads((run / "history.json").read_text())
    assert history[0]["step"] == 0  # the imitation policy, before PPO
    warm = json.loads((run / "warm_start.json").read_text())
    assert [(r["round"], r["decisions"]) for r in warm] == [(k + 1, 24 * 8) for k in range(rounds)]
    best = json.loads((run / "best.json").read_text())  # the top evaluation against the last eval bot
    assert best == max((r for r in history if r["bot"] == "random"), key=lambda r: r["mean_diff"])
    final = str(run / "final.zip")
    monkeypatch.chdir(tmp_path)  # a short name for the exported policy in the tournament's plot
    out = Path("mine.npz")
    assert cli_main(["export", final, "--out", str(out)]) == 0
    assert cli_main(["eval", str(out), final, *table, "--bots", "random", "--hands", "2"]) == 0
    exported = make_agent(str(out))
    assert isinstance(exported, NumpyPolicy) and exported.trained_rules == rules
    assert exported.weights[0].shape[1] == 16 and exported.name == str(out)
    assert cli_main(["export", str(tmp_path / "missing.zip")]) == 2  # bad input: one line, status 2
    players = ["--players", str(rules.num_players)]
    tournament = ["tournament", "random", str(out), "--variant", rules.variant, *players, "--deals", "2"]
    assert agents_cli([*tournament, "--max-turns", "20", "--no-progress", "--out", "t"]) == 0
    assert json.loads(Path("t.json").read_text())["pairs"][0]["hands"] == 4

    if privileged:
        more = tmp_path / "more"
        resume = ["--run-dir", str(more), "--resume", final, "--total-timesteps", "512"]
        assert cli_main(["train", *resume, *tiny, "--learning-rate", "0.00007", "--gamma", "0.9"]) == 0
        resumed_model = MaskablePPO.load(more / "final.zip", device="cpu")  # the resume's flags apply
        assert resumed_model.lr_schedule(1.0) == 0.00007 and resumed_model.gamma == 0.9
        assert json.loads((more / "report.json").read_text())["timesteps"] >= 512
        resumed = json.loads((more / "history.json").read_text())
        assert resumed[: len(history)] == history and resumed[-1]["step"] > history[-1]["step"]
        with pytest.raises(ValueError, match=r"privileged_critic = true.*privileged_critic = false"):
            parse_config([*resume, *plain])  # the same flags but --privileged-critic
        run = more
    agent = load_policy(run / "final.zip")
    short = Rules(variant=rules.variant, num_players=rules.num_players, max_turns=20)
    sides = np.array(short.sides()) % 2
    seats = np.array([sides, 1 - sides] * 2)
    result = play_batch(short, [agent, RandomBot(seed=0)], seats, np.arange(4))
    assert ((result.decisions * (seats == 0)).sum(axis=1) > 0).all()
    if not privileged:  # the registry's agent of a plain checkpoint plays its argmax
        games = GameBatch(short, 8)
        games.reset(seed=np.arange(8))
        obs, mask = games.observe(), games.legal_mask()
        np.testing.assert_array_equal(make_agent(final).act(obs, mask), agent.act(obs, mask))


def test_a_run_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    """Two runs from the same seed end with the same weights: two imitation rounds, then PPO
    with the update overlapping collection (its minibatch order has its own generator, and the
    env's reset after the warm start goes on with each game's deals). The second stops at the
    first's decisions by ``stop_timesteps`` inside a longer schedule."""
    import zipfile

    def weights(name: str, *budget: str) -> bytes:
        flags = tiny_train_flags(rounds=2)
        assert cli_main(["train", "--run-dir", str(tmp_path / name), *budget, *flags]) == 0
        assert json.loads((tmp_path / name / "report.json").read_text())["timesteps"] == 512
        with zipfile.ZipFile(tmp_path / name / "final.zip") as saved:
            # every rollout of 128 decisions was learned from, the last one too (one epoch each)
            assert json.loads(saved.read("data"))["_n_updates"] == 4
            return saved.read("policy.pth")

    first = weights("a", "--total-timesteps", "512")
    # the same run stopped by a decision budget inside a longer (constant) schedule
    assert weights("b", "--total-timesteps", "4096", "--stop-timesteps", "512") == first
    with pytest.raises(ValueError, match=r"stop_timesteps \(600\) cannot exceed total_timesteps \(512\)"):
        parse_config(["--total-timesteps", "512", "--stop-timesteps", "600"])
    assert TrainConfig().overlap  # the default this checks


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
