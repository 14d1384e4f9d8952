"""The RL interfaces: PettingZoo AEC env, Gymnasium env, SB3 VecEnv.

Standard conformance suites (PettingZoo api/seed/render/performance tests,
Gymnasium's and SB3's env checkers, a MaskablePPO smoke run) plus the
contracts they do not cover: errors for illegal actions, the penalty mode,
rewards at the end of a hand (R16-R18) delivered to the learner even when
an opponent ends it, SB3's same-step auto-reset, and identical trajectories
from the VecEnv and the AEC env for the same seeds and actions.
"""

from __future__ import annotations

import pickle
import warnings
from typing import Any

import numpy as np
import pytest

import kanaszta_env.envs.registration  # noqa: F401 - registers the env ids
from kanaszta_env import IllegalActionError, Rules
from kanaszta_env.actions import DRAW, KEEP, NUM_ACTIONS
from kanaszta_env.encoding import split
from kanaszta_env.envs import KanasztaGymEnv, RandomPolicy, env, raw_env


def vec_env(*args: Any, **kwargs: Any) -> Any:
    """A ``KanasztaVecEnv`` (skips the test without the ``rl`` extra)."""
    pytest.importorskip("stable_baselines3")
    from kanaszta_env.envs.vec_env import KanasztaVecEnv

    return KanasztaVecEnv(*args, **kwargs)


def first_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return mask.argmax(axis=1)


def hashed_policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Deterministic in (obs, mask): the same view gives the same action."""
    out = np.empty(len(obs), dtype=np.int64)
    for i, (o, m) in enumerate(zip(obs, mask, strict=True)):
        legal = np.flatnonzero(m)
        out[i] = legal[int(np.float64(o.sum()) * 997) % len(legal)]
    return out


def play_random(e: raw_env, seed: int, max_steps: int = 10_000) -> dict[str, float]:
    """Random legal play until the episode ends; each agent's total reward."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_steps):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


# --- PettingZoo -----------------------------------------------------------------
def test_pettingzoo_api_test() -> None:
    from pettingzoo.test import api_test

    api_test(env(max_turns=40), num_cycles=300)
    api_test(env(num_players=3, max_turns=30), num_cycles=100)
    api_test(env(episode="game", max_turns=8, max_hands=3, reward="win"), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    from pettingzoo.test import seed_test

    seed_test(lambda: env(max_turns=40), num_cycles=100)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: env(render_mode=render_mode))
    printed = capsys.readouterr().out
    assert "player_0" in printed and "discard pile" in printed


def test_pettingzoo_performance_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's benchmark (it runs for five seconds)."""
    from pettingzoo.test import performance_benchmark

    performance_benchmark(env())
    assert "turns per second" in capsys.readouterr().out


def test_registered_ids() -> None:
    import gymnasium
    import pettingzoo

    aec = pettingzoo.make("aec", "kanaszta_v0", max_turns=10)
    assert isinstance(aec, raw_env) and aec.metadata["name"] == "kanaszta_v0"
    gym_env = gymnasium.make("Kanaszta-v0", max_turns=10)
    assert isinstance(gym_env.unwrapped, KanasztaGymEnv)


def test_order_enforced_before_reset() -> None:
    e = env()
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agents
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset"):
        e.observe("player_0")


def test_spaces_are_stable_objects_and_masks_int8() -> None:
    e = env()
    e.reset(seed=0)
    space = e.observation_space("player_0")
    assert space is e.observation_space("player_0") and e.action_space("player_1") is e.action_space(
        "player_1"
    )
    obs = e.observe(e.agent_selection)
    assert obs["action_mask"].dtype == np.int8 and obs["observation"].dtype == np.float32
    assert space.contains(obs)


def test_illegal_action_raises_with_names() -> None:
    """By default an illegal action is an error naming the action and the legal ones."""
    e = env()
    e.reset(seed=1)
    with pytest.raises(IllegalActionError, match=r"'draw'.*keep"):
        e.step(DRAW)  # the starter must first decide on the cut cards (R3.1)
    with pytest.raises(IllegalActionError):
        e.step(NUM_ACTIONS)
    with pytest.raises(IllegalActionError):
        e.step(1.5)
    e.step(np.int32(KEEP))  # numpy integers are accepted


def test_illegal_penalty_mode_like_terminate_illegal_wrapper() -> None:
    e = env(illegal="penalty", illegal_reward=-2.0)
    e.reset(seed=1)
    offender = e.agent_selection
    e.step(DRAW)
    assert all(e.terminations.values())
    assert e.rewards[offender] == -2.0 and all(r == 0 for a, r in e.rewards.items() if a != offender)
    assert e.infos[offender]["illegal_action"] == DRAW
    for agent in e.agent_iter():
        _, reward, term, _, _ = e.last()
        assert term
        assert reward == (-2.0 if agent == offender else 0.0)
        e.step(None)
    assert e.agents == []


def test_r16_rewards_zero_sum_and_scaled() -> None:
    """R16-R17: at the end of a hand each player gets his recorded score minus
    the others' mean, times the scale; the rewards sum to zero."""
    e = env(max_turns=20, reward_scale=0.01)
    totals = play_random(e, seed=7)
    scores = e.games.state.hand_scores[0].astype(float)
    assert sum(totals.values()) == pytest.approx(0.0)
    for q, agent in enumerate(e.possible_agents):
        assert totals[agent] == pytest.approx(0.01 * (scores[q] - np.delete(scores, q).mean()))


def test_r18_win_reward_mode() -> None:
    """R18: +1 for the higher hand score, -1 for the lower, 0 for a tie."""
    for seed in range(3):
        e = env(max_turns=20, reward="win")
        totals = play_random(e, seed=seed)
        scores = e.games.state.totals[0]
        expect = np.sign(scores[0] - scores[1])
        assert (totals["player_0"], totals["player_1"]) == (expect, -expect)


def test_truncation_at_turn_limit() -> None:
    """R19.2: a hand cut by the turn limit is reported as truncation."""
    e = env(max_turns=6)
    rng = np.random.default_rng(3)
    e.reset(seed=3)
    ended = None
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            ended = (term, trunc)
            break
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert ended == (False, True)


def test_game_episodes_pay_every_hand() -> None:
    """R19.1: with episode='game' rewards arrive at each hand's end."""
    e = env(max_turns=8, episode="game", max_hands=3)
    rng = np.random.default_rng(0)
    e.reset(seed=0)
    paid = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        paid += any(r != 0 for r in e.rewards.values())
    assert e.games.state.hand_number[0] == 3 and paid >= 2


def test_pickle_roundtrip() -> None:
    """Envs pickle through their constructor arguments (EzPickle)."""
    for e in (env(num_players=3, reward="win"), env(rules=Rules(variant="2003-01", max_turns=9))):
        clone = pickle.loads(pickle.dumps(e))
        assert clone.rules == e.rules and clone.possible_agents == e.possible_agents
        clone.reset(seed=2)
        e.reset(seed=2)
        np.testing.assert_array_equal(
            clone.observe("player_0")["observation"], e.observe("player_0")["observation"]
        )
    gym_env = pickle.loads(pickle.dumps(KanasztaGymEnv(learner_seat=1, max_turns=7)))
    assert gym_env.rules.max_turns == 7 and gym_env.reset(seed=0)[1]["learner_seat"] == 1


# --- Gymnasium ---------------------------------------------------------------------
def test_gymnasium_and_sb3_env_checkers() -> None:
    """The checkers step with unmasked random actions, hence the penalty mode."""
    from gymnasium.utils.env_checker import check_env as gym_check_env

    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gym_check_env(KanasztaGymEnv(illegal="penalty"))
        sb3_checker.check_env(KanasztaGymEnv(illegal="penalty", learner_seat=1))


def test_gym_learner_reward_when_opponent_ends_the_hand() -> None:
    """The learner's terminal reward arrives even when the hand ends on the
    opponent's move, and equals his R16-R17 score difference."""
    e = KanasztaGymEnv(max_turns=9, reward_scale=1.0)
    rng = np.random.default_rng(0)
    ended_by_opponent = 0
    for episode in range(12):
        _, info = e.reset(seed=episode)
        seat = info["learner_seat"]
        total = 0.0
        while True:
            mask = e.action_masks()
            np.testing.assert_array_equal(mask, info["action_mask"])
            _, reward, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            if term or trunc:
                break
        state = e.games.state
        scores = state.hand_scores[0].astype(float)
        assert total == pytest.approx(scores[seat] - scores[1 - seat])
        assert not e.action_masks().any()
        # the turn limit ends the hand on the discard of the 9th turn's player
        ended_by_opponent += int(state.to_move[0]) != seat
    assert ended_by_opponent > 0


def test_gym_opponent_policies_and_errors() -> None:
    e = KanasztaGymEnv(opponents=first_legal, learner_seat=1, max_turns=6)
    obs, info = e.reset(seed=4)
    assert info["learner_seat"] == 1 and obs.shape == e.observation_space.shape
    with pytest.raises(IllegalActionError, match="learner"):
        e.step(199)

    def bad_policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.full(len(obs), 199)

    with pytest.raises(IllegalActionError, match="policy in seat 0"):
        KanasztaGymEnv(opponents=bad_policy, learner_seat=1).reset(seed=0)
    with pytest.raises(ValueError, match="learner_seat"):
        KanasztaGymEnv(learner_seat=2)


# --- SB3 VecEnv -----------------------------------------------------------------------
def test_vecenv_contract_auto_reset() -> None:
    """Same-step auto-reset with terminal_observation and TimeLimit.truncated;
    masks belong to the returned (post-reset) observations."""
    venv = vec_env(16, max_turns=4)
    assert venv.get_attr("render_mode") == [None] * 16
    assert venv.has_attr("action_masks")
    venv.seed(0)
    obs = venv.reset()
    rng = np.random.default_rng(0)
    truncations = 0
    for _ in range(60):
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.shape == (16, NUM_ACTIONS) and masks.any(axis=1).all()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = venv.step(acts)
        assert obs.shape == (16, venv.observation_space.shape[0]) and rewards.dtype == np.float32
        for i in np.flatnonzero(dones):
            assert venv.observation_space.contains(infos[i]["terminal_observation"])
            assert not np.array_equal(infos[i]["terminal_observation"], obs[i])
            truncations += infos[i]["TimeLimit.truncated"]
        assert all("terminal_observation" not in infos[i] for i in np.flatnonzero(~dones))
    assert truncations > 0


def test_vecenv_matches_aec_trajectories() -> None:
    """For the same seeds and actions the VecEnv (learner seat 1, a
    deterministic opponent) and the AEC env produce identical observations,
    masks, rewards and episode ends."""
    n, base, steps = 3, 100, 120
    venv = vec_env(n, opponents=hashed_policy, learner_seat=1, max_turns=6)
    venv.seed(base)
    obs = venv.reset()
    rng = np.random.default_rng(1)
    record = []
    for _ in range(steps):
        masks = venv.action_masks()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        new_obs, rewards, dones, infos = venv.step(acts)
        record.append((obs, masks, acts, rewards, dones, infos))
        obs = new_obs
    episodes = 0
    for i in range(n):
        e = env(max_turns=6)
        episode = 0
        e.reset(seed=base + i)
        t = 0
        while t < steps:
            agent = e.agent_selection
            ob, reward, term, trunc, _ = e.last()
            if term or trunc:
                _, _, _, rewards, dones, infos = record[t - 1]
                assert dones[i] and np.float32(e._cumulative_rewards["player_1"]) == rewards[i]
                np.testing.assert_array_equal(
                    infos[i]["terminal_observation"], e.observe("player_1")["observation"]
                )
                assert infos[i]["TimeLimit.truncated"] == trunc
                episode += 1
                episodes += 1
                e.reset(seed=base + i + n * episode)
                continue
            if agent == "player_1":
                v_obs, v_masks, v_acts, _, _, _ = record[t]
                np.testing.assert_array_equal(ob["observation"], v_obs[i])
                np.testing.assert_array_equal(ob["action_mask"].astype(bool), v_masks[i])
                if t > 0 and not record[t - 1][4][i]:
                    assert np.float32(reward) == record[t - 1][3][i]
                e.step(int(v_acts[i]))
                t += 1
            else:
                e.step(int(hashed_policy(ob["observation"][None], ob["action_mask"][None].astype(bool))[0]))
    assert episodes >= n


def test_vecenv_random_opponents_are_deterministic_per_seed() -> None:
    def run() -> np.ndarray:
        venv = vec_env(4, max_turns=5)
        venv.seed(9)
        venv.reset()
        out = []
        for _ in range(40):
            obs, rewards, _, _ = venv.step(venv.action_masks().argmax(axis=1))
            out.append(obs.sum(axis=1) + rewards)
        return np.array(out)

    np.testing.assert_array_equal(run(), run())
    assert isinstance(RandomPolicy(0)(np.zeros((2, 3)), np.eye(2, 5, dtype=bool)), np.ndarray)


def test_vecenv_illegal_actions() -> None:
    venv = vec_env(2, learner_seat=0)
    venv.seed(0)
    venv.reset()
    with pytest.raises(IllegalActionError, match="game 1"):
        venv.step(np.array([KEEP, DRAW]))
    penalised = vec_env(2, learner_seat=0, illegal="penalty", illegal_reward=-3.0)
    penalised.seed(0)
    penalised.reset()
    _, rewards, dones, infos = penalised.step(np.array([KEEP, DRAW]))
    assert dones.tolist() == [False, True] and rewards[1] == -3.0 and infos[1]["illegal_action"]


def test_vecenv_returned_observations_survive_the_next_step() -> None:
    """SB3 stores the observations of step t after step t+1 ran: the array a
    step returns must not be the buffer the next step writes; a refused step
    leaves the current observations as they were."""
    venv = vec_env(4, learner_seat=0)
    venv.seed(3)
    first = venv.reset()
    kept = first.copy()
    masks = venv.action_masks()
    obs, *_ = venv.step(masks.argmax(axis=1))
    assert np.array_equal(first, kept) and obs is not first
    before = obs.copy()
    second, *_ = venv.step(venv.action_masks().argmax(axis=1))
    assert np.array_equal(obs, before) and not np.array_equal(second, before)
    bad = venv.action_masks().argmin(axis=1)  # an illegal action in every game
    with pytest.raises(IllegalActionError):
        venv.step(bad)
    assert np.array_equal(venv._games.observe(), second)


def test_maskable_ppo_smoke_run() -> None:
    """A few hundred MaskablePPO steps on the VecEnv, episodes included."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.vec_env import VecMonitor

    venv = VecMonitor(vec_env(8, max_turns=4))
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, policy_kwargs={"net_arch": [32]}, seed=0
    )
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    assert len(model.ep_info_buffer) > 0


def test_vecenv_three_players_one_policy_per_seat() -> None:
    """R2.1: with 3 players each opponent seat has its own policy, called only
    for the decisions of that seat (relative to the learner)."""
    seen = {1: 0, 2: 0}

    def seat_policy(rel: int):
        def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            # observations are the mover's own; the learner sits at seat 0, the starter's
            seat = split(obs, rules)["seat_from_starter"].argmax(axis=1)
            assert (seat == rel).all()
            seen[rel] += len(obs)
            return first_legal(obs, mask)

        return policy

    rules = Rules(num_players=3, max_turns=6)
    venv = vec_env(4, rules, opponents=[seat_policy(1), seat_policy(2)], learner_seat=0)
    venv.seed(3)
    venv.reset()
    ended = 0
    for _ in range(80):
        _, _, dones, _ = venv.step(venv.action_masks().argmax(axis=1))
        ended += dones.sum()
    assert seen[1] > 0 and seen[2] > 0 and ended > 0
