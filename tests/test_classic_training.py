"""Training on classic canasta (presets pl, sk): the side-based shaping potential,
the count features, and a smoke run of ``kanaszta train --variant pl``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from stable_baselines3.common.vec_env import VecEnvWrapper
from training_helpers import tiny_train_flags

from agents.base import play_batch
from agents.random_bot import RandomBot
from kanaszta_env import GameBatch, Rules
from kanaszta_env.envs import KanasztaVecEnv
from kanaszta_env.games.classic.observation import relative_sides
from kanaszta_env.observation import observation_size, split
from kanaszta_env.spaces import ObservationSpace
from training.cli import main as cli_main
from training.features import CountFeatures
from training.games.classic.shaping import ClassicScoreEstimate
from training.games.diszitett.shaping import ShapedReward

TINY = tiny_train_flags("--variant", "pl", "--num-players", "4")


class _Recorder(VecEnvWrapper):
    """Keeps the unshaped rewards of the last step."""

    def reset(self):
        return self.venv.reset()

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        self.last_rewards = rewards.copy()
        return obs, rewards, dones, infos


def test_shaping_telescopes_to_the_side_reward():
    """gamma = 1: the shaped rewards of a hand add up to its real (side) reward minus phi(s0)."""
    rules = Rules(variant="pl", num_players=4, max_turns=16)
    recorder = _Recorder(KanasztaVecEnv(6, rules, opponents="random"))
    potential = ClassicScoreEstimate(rules, scale=1e-3, hand_weight=0.5, dead_end=1.0)
    env = ShapedReward(recorder, potential, coef=1.0, gamma=1.0)
    env.seed(5)
    obs = env.reset()
    start = potential(obs)
    assert np.abs(start).max() > 0
    shaped, real, checked = np.zeros(6), np.zeros(6), 0
    rng = np.random.default_rng(0)
    while checked < 12:
        masks = env.env_method("action_masks")
        obs, rewards, dones, _ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        shaped += rewards
        real += recorder.last_rewards
        for i in np.flatnonzero(dones):
            assert shaped[i] == pytest.approx(real[i] - start[i], abs=1e-4)
            shaped[i] = real[i] = 0.0
            start[i] = potential(obs[i : i + 1])[0]
            checked += 1


@pytest.mark.parametrize(
    ("variant", "players", "keys"), [("sk", 3, {}), ("sk", 6, {"six_player_sides": "3x2"})]
)
def test_potential_orders_the_sides_as_the_observation(variant, players, keys):
    """The potential's relative side of each relative seat is its true side, seen from the observer."""
    rules = Rules(variant=variant, num_players=players, **keys)
    sides = np.array(rules.sides())
    count = len(set(sides.tolist()))
    games = GameBatch(rules, players)
    games.reset(seed=0)
    seats = np.arange(players)
    partners = split(games.observe(seats=seats), rules)["partners"]
    relative = relative_sides(rules.sides(), partners)
    for seat in seats:
        truth = (sides[(seat + np.arange(players)) % players] - sides[seat]) % count
        np.testing.assert_array_equal(relative[seat], truth)


@pytest.mark.parametrize(("variant", "players"), [("pl", 4), ("sk", 5)])
def test_count_features_read_classic_hand_sizes_and_side_canastas(variant, players):
    """Hand sizes and side canastas of every relative seat (sk 5p: sides at uneven distances)."""
    rules = Rules(variant=variant, num_players=players)
    sides = np.array(rules.sides())
    features = CountFeatures(ObservationSpace(rules))
    size = observation_size(rules)
    games, rng = GameBatch(rules, 32), np.random.default_rng(3)
    games.reset(seed=1)
    seen = False
    for _ in range(300):
        live = ~games.done
        mover = games.to_move.astype(np.int64)
        obs = games.observe()
        out = features(torch.from_numpy(obs)).numpy()
        extra = out[live, size:]
        hands = extra[:, : players * 17].reshape(-1, players, 17)
        canastas = extra[:, players * 17 :].reshape(-1, players, 4)
        rows = np.flatnonzero(live)
        for k in range(players):
            seat = (mover[rows] + k) % players
            cards = games.state.hand[rows, seat].sum(axis=1)
            np.testing.assert_array_equal(hands[:, k].argmax(-1), np.minimum(cards, 16))
            made = (games.state.groups[rows, sides[seat], :12].sum(axis=-1) >= 7).any(axis=1)
            np.testing.assert_array_equal(canastas[:, k].argmax(-1), made.astype(int))
            seen |= bool(made.any())
        mask = games.legal_mask()
        games.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask]))
    assert seen


def test_train_classic_smoke_and_the_checkpoint_plays(tmp_path: Path):
    run = tmp_path / "run"
    assert cli_main(["train", "--run-dir", str(run), "--total-timesteps", "256", *TINY]) == 0
    report = json.loads((run / "report.json").read_text())
    assert report["timesteps"] >= 256 and [m["bot"] for m in report["matches"]] == ["random", "heuristic"]
    from training.policy import load_policy

    agent = load_policy(run / "final.zip")
    rules = Rules(variant="pl", num_players=4, max_turns=20)
    result = play_batch(
        rules, [agent, RandomBot(seed=0)], np.array([[0, 1, 0, 1], [1, 0, 1, 0]] * 2), np.arange(4)
    )
    assert result.decisions.sum() > 0 and result.scores.shape == (4, 4)
