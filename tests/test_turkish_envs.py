"""Turkish kanasta (preset tr) in the PettingZoo, Gymnasium and SB3 environments: the
conformance tests, pair rewards (T14: partners alike, zero-sum), the observation layout
against the state, hidden information (T2.4, T3.4), and the invariants under random play."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from kanaszta_env import GameBatch, Rules
from kanaszta_env.actions_turkish import ACTION_NAMES, NUM_ACTIONS
from kanaszta_env.encoding import observation_size, split
from kanaszta_env.envs import KanasztaGymEnv, KanasztaVecEnv, env


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    scores = rng.random(mask.shape) * mask
    return scores.argmax(axis=1)


def test_pettingzoo_api_and_seed_tests():
    api_test(env(variant="tr"), num_cycles=300)
    seed_test(lambda: env(variant="tr"), num_cycles=200)


def test_gymnasium_check_env_and_make():
    from gymnasium.utils.env_checker import check_env

    check_env(KanasztaGymEnv(variant="tr", illegal="penalty"), skip_render_check=True)
    made = gym.make("Kanaszta-v0", variant="tr")
    obs, info = made.reset(seed=3)
    assert made.action_space.n == len(ACTION_NAMES) == NUM_ACTIONS == 1376
    assert made.observation_space.contains(obs)
    assert info["action_mask"].shape == (NUM_ACTIONS,) and info["action_mask"].any()


def test_t14_pair_rewards_partners_alike_and_zero_sum():
    games = GameBatch(Rules(variant="tr", max_turns=120), batch_size=32)
    games.reset(seed=11)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(6000):
        result = games.step(_random_actions(games.legal_mask(), rng))
        for b in np.flatnonzero(result.terminated | result.truncated):
            r = result.rewards[b]
            scores = games.summary(int(b))["hand_scores"]
            assert scores[0] == scores[2] and scores[1] == scores[3]
            assert r[0] == r[2] and r[1] == r[3]
            assert r[0] == pytest.approx(scores[0] - scores[1]) and r[0] == -r[1]
            ended += 1
        if games.done.all():
            break
    assert ended >= 16


def test_vec_env_steps_with_masks_and_terminal_observations():
    venv = KanasztaVecEnv(8, variant="tr", max_turns=60)
    venv.seed(0)
    obs = venv.reset()
    assert obs.shape == (8, observation_size(venv.rules)) and venv.action_space.n == NUM_ACTIONS
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(800):
        masks = venv.action_masks()
        assert masks.shape == (8, NUM_ACTIONS) and masks.any(axis=1).all()
        obs, _rewards, dones, infos = venv.step(_random_actions(masks, rng))
        assert venv.observation_space.contains(obs[0])
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == obs[i].shape
            finished += 1
    assert finished > 0


def _played(seed: int, steps: int, batch: int = 16) -> GameBatch:
    games = GameBatch(Rules(variant="tr", max_turns=400), batch_size=batch)
    games.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = games.legal_mask()
        # lean towards melding so that tables fill up
        scores = rng.random(mask.shape) * mask
        meld = np.zeros(NUM_ACTIONS, dtype=bool)
        meld[3:1323] = True
        scores += 0.5 * (mask & meld)
        games.step(scores.argmax(axis=1))
    return games


def test_observation_pieces_match_the_state():
    games = _played(3, 300)
    s = games.state
    for seat in range(4):
        pieces = split(games.observe(seats=seat), games.rules)
        for b in range(games.batch_size):
            assert np.allclose(pieces["hand"][b] * 2, s.hand[b, seat])
            sizes = [min(s.hand[b, (seat + r) % 4].sum() / 40, 1) for r in range(4)]
            assert np.allclose(pieces["hand_sizes"][b], sizes)
            for rel in range(2):
                pair = (seat + rel) % 2
                assert np.allclose(pieces["melds"][b, rel] * 2, s.melds[b, pair])
                owners = pieces["meld_owner"][b, rel]
                for k in range(24):
                    q = s.meld_owner[b, pair, k]
                    expected = np.zeros(2)
                    if q >= 0:
                        expected[((q - seat) % 4) // 2] = 1
                    assert np.array_equal(owners[k], expected)
            assert pieces["pile_size"][b, 0] == pytest.approx(s.pile_len[b] / 106)
            assert pieces["pile_contents"][b].sum() * 2 == pytest.approx(s.pile_len[b], abs=1e-4)
            assert pieces["opened"][b, 0] == s.opened[b, seat]
    space = gym.spaces.Box(-1, 1, shape=(observation_size(games.rules),))
    assert all(space.contains(games.observe(seats=q)[b]) for q in range(4) for b in range(16))


def test_observation_ignores_hidden_cards():
    """T2.4, T3.4: re-dealing every card the observer cannot see (the other hands' unknown
    parts, the stock's order and content, the Fis nobody has taken) changes nothing he observes."""
    games = _played(5, 250)
    rng = np.random.default_rng(9)
    for seat in range(4):
        before = games.observe(seats=seat).copy()
        other = games.copy()
        s = other.state
        for b in range(other.batch_size):
            hidden = []  # card types of every hidden card, then dealt back at random
            for q in range(4):
                if q != seat:
                    free = s.hand[b, q] - s.known[b, q]
                    hidden += [t for t in range(53) for _ in range(free[t])]
            hidden += list(s.stock[b, : s.stock_len[b]])
            for f in range(2):
                if s.fi_taker[b, f] < 0:
                    hidden += list(s.fi[b, f])
            hidden = list(rng.permutation(np.array(hidden, dtype=np.int64)))
            for q in range(4):
                if q != seat:
                    n = int((s.hand[b, q] - s.known[b, q]).sum())
                    s.hand[b, q] = s.known[b, q]
                    for t in hidden[:n]:
                        s.hand[b, q, t] += 1
                    hidden = hidden[n:]
            n = int(s.stock_len[b])
            s.stock[b, :n] = hidden[:n]
            hidden = hidden[n:]
            for f in range(2):
                if s.fi_taker[b, f] < 0:
                    s.fi[b, f] = hidden[:11]
                    hidden = hidden[11:]
            assert not hidden
        assert np.array_equal(other.observe(seats=seat), before)
        assert not all(
            np.array_equal(other.state.hand[b], games.state.hand[b]) for b in range(games.batch_size)
        )


def test_invariants_under_random_play():
    """Every live state has a legal action, the 106 cards are conserved (T1.1), turns end."""
    import importlib

    from kanaszta_env.engine.kernels import kernels_for

    census = importlib.import_module(f"{kernels_for(Rules(variant='tr').spec).package}.core.turkish.census")
    games = GameBatch(Rules(variant="tr", max_turns=300), batch_size=32)
    games.reset(seed=21)
    rng = np.random.default_rng(21)
    scratch = np.zeros(53, dtype=np.int64)
    cfg = games.rules.to_config()
    decisions_this_turn = np.zeros(32, dtype=np.int64)
    for _ in range(4000):
        mask = games.legal_mask()
        live = ~games.done
        assert mask[live].any(axis=1).all()
        turn = games.state.turn.copy()
        games.step(_random_actions(mask, rng))
        same = (games.state.turn == turn) & live & ~games.done
        decisions_this_turn = np.where(same, decisions_this_turn + 1, 0)
        # a turn: the draw, at most one meld action per card (hand and two Fis), withdraw, discard
        assert decisions_this_turn.max() <= 1 + 106 + 1 + 1
        assert all(census.conserved(games.state, cfg, b, scratch) for b in range(32))
        if games.done.all():
            break


def test_render_shows_pairs_and_hides_for_a_viewer():
    e = env(variant="tr", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "pair 0 (player_0, player_2)" in text and "pair 1 (player_1, player_3)" in text
    assert text.count("hand (11)") == 4
    assert "Fi 1 on the table" in text


def test_generated_turkish_pages_are_current():
    import importlib.util
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "scripts" / "gen_turkish_docs.py"
    spec = importlib.util.spec_from_file_location("gen_turkish_docs", script)
    gen = importlib.util.module_from_spec(spec)
    sys.modules["gen_turkish_docs"] = gen
    spec.loader.exec_module(gen)
    for path, render in gen.PAGES:
        assert path.read_text() == render(), f"{path.name} is stale: run python scripts/gen_turkish_docs.py"


def test_maskable_ppo_learns_on_the_gymnasium_env_and_kanaszta_train_says_not_yet():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from training.config import TrainConfig

    model = MaskablePPO("MlpPolicy", KanasztaGymEnv(variant="tr"), n_steps=64, batch_size=32, seed=0)
    model.learn(128)
    assert model.num_timesteps >= 128
    with pytest.raises(ValueError, match=r"Turkish kanasta .* not supported yet"):
        TrainConfig(variant="tr", num_players=4).validate()
