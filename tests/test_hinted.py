"""Hinted policies: a network that reads a bot's choice beside the observation
(``agents.hinted``, ``kanaszta train --hint``)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conformance.hidden import redeal
from test_observation import reachable_states
from training_helpers import play

from agents.games.diszitett.heuristic import HeuristicBot
from agents.hinted import HintedPolicy, hint_inputs, hint_size, load_policy_file
from agents.numpy_policy import NumpyPolicy
from agents.registry import make_agent
from kanaszta_env import GameBatch, Rules
from kanaszta_env.observation import observation_size
from kanaszta_env.spaces import ObservationSpace, rules_of_space

HINT_SIZE = hint_size(Rules())  # one input per Díszített action


def _policy(rules: Rules, seed: int = 0, hidden: int = 16, **kwargs: object) -> NumpyPolicy:
    """A random two-layer network over the observation, the hint and the count features."""
    from agents.count_features import count_layout

    rng = np.random.default_rng(seed)
    kwargs.setdefault("hint", "heuristic")
    kwargs.setdefault("hint_size", hint_size(rules))
    counts = count_layout(rules).size if kwargs.get("count_inputs", True) else 0
    size = observation_size(rules) + int(kwargs["hint_size"]) + counts  # type: ignore[call-overload]
    actions = hint_size(rules)
    weights = [rng.normal(size=(size, hidden)), rng.normal(size=(hidden, actions))]
    biases = [rng.normal(size=hidden), rng.normal(size=actions)]
    return NumpyPolicy(weights, biases, rules, **kwargs)  # type: ignore[arg-type]


def _positions(rules: Rules, games: int = 16, steps: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the live decisions of ``games`` hands of random play."""
    batch = GameBatch(rules, games)
    batch.reset(seed=np.arange(games))
    obs, masks = [], []
    for _ in play(batch, np.random.default_rng(5), steps):
        live = ~batch.done
        obs.append(batch.observe()[live])
        masks.append(batch.legal_mask()[live])
    return np.concatenate(obs), np.concatenate(masks)


def test_a_hinted_space_declares_its_rules_and_hint_and_old_pickles_still_load() -> None:
    """Checkpoints name the space's class by module; older ones say kanaszta_env.encoding and
    predate hints."""
    import pickle

    from kanaszta_env import spaces

    rules = Rules()
    space = ObservationSpace(rules, hint="heuristic", hint_size=HINT_SIZE)
    assert space.shape == (observation_size(rules) + HINT_SIZE,) and rules_of_space(space) == rules
    assert (space.low[-HINT_SIZE:] == 0).all() and (space.high[-HINT_SIZE:] == 1).all()
    with pytest.raises(ValueError, match="both a hint and its size"):
        ObservationSpace(rules, hint="heuristic")
    before = ObservationSpace(rules)
    del before.hint, before.hint_size  # as spaces pickled before hints existed
    old = pickle.dumps(before, protocol=0).replace(b"kanaszta_env.spaces\n", b"kanaszta_env.encoding\n")
    assert b"kanaszta_env.encoding\nObservationSpace" in old
    space = pickle.loads(old)
    assert type(space) is spaces.ObservationSpace and rules_of_space(space) == rules
    assert not hasattr(space, "hint_size")


def test_a_hinted_policy_adds_the_hint_or_takes_it_given_and_files_keep_it(tmp_path: Path) -> None:
    """HintedPolicy appends its bot's hint to plain rows and takes hinted ones as they are; a
    saved file loads as a HintedPolicy that plays alike, and an old (format 1) file as a plain
    NumpyPolicy."""
    rules = Rules()
    obs, mask = _positions(rules)
    inner = _policy(rules)
    agent = HintedPolicy(inner)
    agent.setup(rules)
    full = np.concatenate([obs, hint_inputs(HeuristicBot(rules), obs, mask)], axis=1)
    np.testing.assert_array_equal(agent.act(obs, mask), inner.act(full, mask))
    np.testing.assert_array_equal(agent.act(full, mask), inner.act(full, mask))  # a hinted VecEnv's rows
    np.testing.assert_allclose(agent.logits(obs, mask), inner.logits(full, mask))
    with pytest.raises(ValueError, match=r"observations of \d+ slots \(or \d+ with the hint\)"):
        agent.act(obs[:, :-1], mask)
    with pytest.raises(ValueError, match=r"heuristic.s hint: agents\.hinted\.HintedPolicy adds it"):
        inner.act(obs, mask)  # the bare network refuses rows without the hint
    with pytest.raises(ValueError, match="takes no hint"):
        HintedPolicy(_policy(rules, hint="", hint_size=0, count_inputs=False))

    loaded = load_policy_file(agent.save(tmp_path / "hinted.npz"))
    assert isinstance(loaded, HintedPolicy) and loaded.policy.hint == "heuristic"
    assert loaded.policy.hint_size == HINT_SIZE
    loaded.setup(rules)
    np.testing.assert_array_equal(loaded.act(obs, mask), agent.act(obs, mask))
    plain = _policy(rules, hint="", hint_size=0)
    with np.load(plain.save(tmp_path / "plain.npz")) as data:  # rewrite it as a format-1 file
        arrays = {k: data[k] for k in data.files if k != "hint"}
    arrays["meta"] = np.concatenate([[1], arrays["meta"][1:5]])
    np.savez(tmp_path / "old.npz", **arrays)
    old = load_policy_file(tmp_path / "old.npz")
    assert isinstance(old, NumpyPolicy) and old.hint == "" and old.input_size == observation_size(rules)


def test_the_hint_ignores_hidden_cards() -> None:
    """The hint is the bot's choice from the observation and the mask, so re-dealing the cards the
    player cannot see (opponent's hand, stock order) leaves the hinted inputs unchanged."""
    rules = Rules(max_turns=60)
    bot = HeuristicBot(rules)
    rng = np.random.default_rng(7)
    checked = 0
    for s in reachable_states(rules, seed=11)[:40]:
        games, p = GameBatch(rules, 1), int(s.to_move[0])
        games.state = s
        hinted = hint_inputs(bot, games.observe(seats=p), games.legal_mask())
        other = redeal(games, p, rng)
        np.testing.assert_array_equal(hint_inputs(bot, other.observe(seats=p), other.legal_mask()), hinted)
        checked += 1
    assert checked == 40


def test_the_config_checks_the_hint() -> None:
    from training.config import TrainConfig

    with pytest.raises(ValueError, match=r"hint must be one of \('heuristic', 'greedy'\)"):
        TrainConfig(hint="search").validate()
    assert HINT_SIZE == 200
    TrainConfig(hint="heuristic", variant="pl", num_players=4).validate()  # every game has hints


@pytest.mark.parametrize(("variant", "players"), [("2003-02", 2), ("pl", 4), ("sk", 2), ("tr", 4)])
def test_every_game_gives_its_own_heuristics_hint(variant: str, players: int) -> None:
    """The hinted VecEnv of every game appends that game's HeuristicBot choice to the plain
    observation (after a reset and after steps), one input per action of the game, in a space
    that declares the rules; an exported policy plays through the wrapper."""
    pytest.importorskip("sb3_contrib")
    from training.config import TrainConfig
    from training.opponents import OpponentPool
    from training.train import build_env

    config = TrainConfig(
        hint="heuristic", variant=variant, num_players=players, num_envs=3, opponent_slots=1, max_turns=20
    )
    rules = config.rules()
    size = hint_size(rules)
    assert size == len(rules.game.action_names(rules))
    env, base = build_env(config, OpponentPool({"random": 1.0}, rules))
    assert rules_of_space(env.observation_space) == rules
    heuristic = make_agent("heuristic", rules)
    obs = env.reset()
    seen = set()
    for _ in range(12):
        assert obs.shape == (3, observation_size(rules) + size)
        mask = base.action_masks()
        choice = heuristic.act(obs[:, :-size], mask)
        np.testing.assert_array_equal(obs[:, -size:].argmax(axis=1), choice)
        assert (obs[:, -size:].sum(axis=1) == 1).all()
        seen.update(choice.tolist())
        obs, *_ = env.step(choice)
    assert len(seen) > 2  # draws, melds and discards, not one repeated action
    agent = HintedPolicy(_policy(rules, count_inputs=False))
    o, m = obs[:, :-size], base.action_masks()
    assert mask.shape[1] == size and m[np.arange(3), agent.act(o, m)].all()


def test_the_rllib_backend_takes_a_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--backend rllib --hint`` reaches the RLlib trainer (tests/test_rllib.py trains such a run)."""
    import training.rllib.train as rllib_train
    from kanaszta_env.cli import main
    from training.config import TrainConfig
    from training.train import TrainResult

    hints: list[str] = []

    def train_rllib(config: TrainConfig, options: object) -> TrainResult:
        hints.append(config.hint)
        return TrainResult(tmp_path, tmp_path / "final", 0, 1.0, 0.0, None)

    monkeypatch.setattr(rllib_train, "train_rllib", train_rllib)
    run = str(tmp_path / "run")
    assert main(["train", "--backend", "rllib", "--hint", "heuristic", "--run-dir", run]) == 0
    assert hints == ["heuristic"]


def test_hinted_training_end_to_end(tmp_path: Path) -> None:
    """A tiny hinted run: imitation learns from the hint, snapshots and evaluations play
    through the wrapper, and export keeps the hint."""
    pytest.importorskip("sb3_contrib")
    from agents.checkpoint import load_policy
    from training.cli import main as train_cli
    from training.config import TrainConfig

    run = tmp_path / "run"
    tiny = [
        "--num-envs", "4", "--opponent-slots", "1", "--n-steps", "8", "--batch-size", "32", "--n-epochs", "1",
        "--net-arch", "8", "--max-turns", "10", "--eval-max-turns", "10", "--opponents", "random:1,self:1",
        "--snapshot-every", "16", "--eval-every", "32", "--eval-hands", "2", "--eval-bots", "random",
        "--final-eval-hands", "0", "--no-progress-bar", "--no-tensorboard", "--warm-start-steps", "4",
        "--total-timesteps", "64", "--hint", "heuristic",
    ]  # fmt: skip
    assert train_cli(["train", "--run-dir", str(run), *tiny]) == 0
    assert sorted((run / "snapshots").glob("*.npz"))
    final = str(run / "final.zip")
    with pytest.raises(ValueError, match="with --hint heuristic, this run has no --hint: use the same"):
        TrainConfig(resume=final).validate()  # refused before anything is written
    TrainConfig(resume=final, hint="heuristic").validate()
    agent = load_policy(run / "final.zip")
    assert isinstance(agent, HintedPolicy)
    out = tmp_path / "mine.npz"
    assert train_cli(["export", str(run / "final.zip"), "--out", str(out)]) == 0
    exported = make_agent(str(out), Rules(max_turns=10))
    assert isinstance(exported, HintedPolicy)
    obs, mask = _positions(Rules(max_turns=10), games=4, steps=10)
    np.testing.assert_array_equal(exported.act(obs, mask), agent.act(obs, mask))
    zipped = make_agent(final, Rules(max_turns=10))  # the checkpoint itself, as tournaments name it
    zipped.setup(Rules(max_turns=10))
    np.testing.assert_array_equal(zipped.act(obs, mask), agent.act(obs, mask))
    with pytest.raises(ValueError, match="takes observations of"):  # named, not SB3's shape error
        zipped.act(obs[:, :-1], mask)


def test_label_smoothing_keeps_a_hinted_policy_sampling_other_actions() -> None:
    """Imitating the hint is (almost) exact, so without smoothing the policy becomes
    almost deterministic and PPO samples nothing else; smoothing leaves probability on the
    other legal actions while the hint stays the most likely one."""
    import torch

    from training.config import TrainConfig
    from training.imitation import collect, fit
    from training.opponents import OpponentPool
    from training.train import build_env, build_model

    config = TrainConfig(hint="heuristic", num_envs=8, opponent_slots=1, max_turns=30, net_arch=[64])
    env, base = build_env(config, OpponentPool({"random": 1.0}, config.rules()))
    data = collect(env, base.action_masks, make_agent("heuristic", config.rules()), 40, config.gamma)
    np.testing.assert_array_equal(data.obs[:, -HINT_SIZE:].argmax(axis=1), data.action)
    hint_probability = {}
    for smoothing in (0.0, 0.2):
        torch.manual_seed(0)
        model = build_model(config, env, None)
        stats = fit(model, data, epochs=100, batch_size=64, learning_rate=1e-2, smoothing=smoothing)
        assert stats["agreement"] > 0.97, (smoothing, stats)
        with torch.no_grad():
            dist = model.policy.get_distribution(torch.from_numpy(data.obs), action_masks=data.mask)
            probs = dist.distribution.probs.numpy()
        hint_probability[smoothing] = float(probs[np.arange(len(data.action)), data.action].mean())
    assert hint_probability[0.0] > 0.95 and 0.6 < hint_probability[0.2] < 0.9, hint_probability
    with pytest.raises(ValueError, match=r"warm_start_smoothing must lie in \[0, 1\)"):
        TrainConfig(warm_start_smoothing=1.0).validate()


def test_an_illegal_hint_is_named_by_its_games_action() -> None:
    """A hint bot's illegal choice is refused with the name the bot's game gives that action
    (a classic action here, not the Díszített action of the same id)."""
    rules = Rules(variant="pl", num_players=2)
    games = GameBatch(rules, 4)
    games.reset(seed=np.arange(4))
    obs, mask = games.observe(), games.legal_mask()
    bot = make_agent("heuristic", rules)
    illegal = int(np.flatnonzero(~mask[0])[0])
    bot.act = lambda o, m, *a, **k: np.full(len(o), illegal)  # type: ignore[method-assign]
    name = games.action_names[illegal]
    with pytest.raises(ValueError, match=rf"chose the illegal action '{re.escape(name)}' \(row 0\)"):
        hint_inputs(bot, obs, mask)
