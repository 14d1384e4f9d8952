"""The RL interfaces' contracts (PettingZoo AEC, Gymnasium, SB3 VecEnv) on every table.

Every test runs on every table of ``conftest.tables()`` (each preset × each player count
its rules accept; the api tests and the VecEnv-vs-AEC trajectories take well under a second
a table) but the slow two marked ``representative`` (PettingZoo's five-second benchmark,
the MaskablePPO runs), which run on ``conftest.representative()``: the first table of each
game (its first preset's smallest player count); the one-policy-per-seat test needs three
or more seats each playing alone. Game-specific env tests: tests/test_classic_envs.py and
tests/test_turkish_envs.py.
"""

from __future__ import annotations

import pickle
import re
import warnings
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test

import kanaszta_env.envs.registration  # noqa: F401 - registers the env ids
from kanaszta_env import GameBatch, IllegalActionError
from kanaszta_env.envs import KanasztaGymEnv, RandomPolicy, env, raw_env
from kanaszta_env.observation import observation_size

from .hidden import redeal


def vec_env(*args: Any, **kwargs: Any) -> Any:
    """A ``KanasztaVecEnv`` (the test is skipped without the ``rl`` extra)."""
    return pytest.importorskip("kanaszta_env.envs.vec_env").KanasztaVecEnv(*args, **kwargs)


def first_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return mask.argmax(axis=1)


def hashed_policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Deterministic in (obs, mask): the same view gives the same action."""
    legal = [np.flatnonzero(m) for m in mask]
    return np.array([legal[i][int(np.float64(o.sum()) * 997) % len(legal[i])] for i, o in enumerate(obs)])


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row (rows without one: 0, ignored by the engine)."""
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def play_random(e: raw_env, seed: int) -> tuple[np.ndarray, tuple[bool, bool]]:
    """Random legal play of the AEC env until the episode ends: each agent's total reward and
    how the episode ended, ``(terminated, truncated)``."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    totals, ended = dict.fromkeys(e.possible_agents, 0.0), None
    for agent in e.agent_iter(10_000):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        ended = ended or ((term, trunc) if term or trunc else None)
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return np.array(list(totals.values())), ended


def batch_endings(rules: Any, seed: int, **options: Any) -> list[tuple[np.ndarray, dict]]:
    """32 games of random play to their natural ends: each one's last rewards and summary."""
    games = GameBatch(rules, 32, **options)
    games.reset(seed=seed)
    rng, out = np.random.default_rng(seed), []
    while not games.done.all():
        result = games.step(random_actions(games.legal_mask(), rng))
        ended = np.flatnonzero(result.terminated | result.truncated)
        out += [(result.rewards[b].copy(), games.summary(int(b))) for b in ended]
    return out


def score_rewards(hand_scores: Any, sides: Any, scale: float = 1.0) -> np.ndarray:
    """R16-R17, C13, T14: a seat's reward is its side's hand score minus the other sides' mean."""
    scores, sides = np.asarray(hand_scores, dtype=float), np.asarray(sides)
    side = np.array([scores[sides == d][0] for d in range(sides.max() + 1)])
    assert (scores == side[sides]).all()  # partners share their side's score
    return scale * (side[sides] - (side.sum() - side[sides]) / (len(side) - 1))


def win_rewards(totals: Any, sides: Any) -> np.ndarray:
    """R18, C14: +1 for the single top side's seats, 0 for a tie at the top between sides, -1 below."""
    totals = np.asarray(totals)
    top = {sides[q] for q in np.flatnonzero(totals == totals.max())}
    return np.where(totals < totals.max(), -1.0, 0.0 if len(top) > 1 else 1.0)


def illegal_and_legal(mask: np.ndarray) -> tuple[int, int]:
    return int(np.flatnonzero(mask == 0)[0]), int(np.flatnonzero(mask)[0])


# --- PettingZoo -----------------------------------------------------------------
def test_pettingzoo_api_and_seed_tests(table) -> None:
    """PettingZoo's api_test (hand episodes; game episodes with the win reward) and seed_test."""
    api_test(env(**table.kw(max_turns=40)), num_cycles=300)
    api_test(env(**table.kw(episode="game", max_turns=8, max_hands=3, reward="win")), num_cycles=200)
    seed_test(lambda: env(**table.kw(max_turns=40)), num_cycles=200)


def test_pettingzoo_render_test(table, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test; the printed table names every player and the discard pile."""
    render_test(lambda render_mode=None: env(**table.kw(render_mode=render_mode)))
    printed = capsys.readouterr().out
    assert all(f"player_{q}" in printed for q in range(table.players)) and "discard pile" in printed


@pytest.mark.representative
def test_pettingzoo_performance_benchmark(table, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's benchmark runs (for five seconds) and reports its speed."""
    performance_benchmark(env(**table.kw()))
    assert "turns per second" in capsys.readouterr().out


def test_registered_ids(table) -> None:
    """``kanaszta_v0`` and ``Kanaszta-v0`` build the table's envs; the action space is the
    game's action names (all distinct); the first observation lies in its space."""
    aec = pettingzoo.make("aec", "kanaszta_v0", **table.kw(max_turns=10))
    assert isinstance(aec, raw_env) and aec.metadata["name"] == "kanaszta_v0"
    assert aec.rules == table.rules(max_turns=10)
    made = gymnasium.make("Kanaszta-v0", **table.kw())
    assert isinstance(made.unwrapped, KanasztaGymEnv) and made.unwrapped.rules == table.rules()
    obs, info = made.reset(seed=3)
    names = made.unwrapped.games.action_names
    assert made.action_space.n == len(names) == len(set(names)) and made.observation_space.contains(obs)
    assert info["action_mask"].shape == (len(names),) and info["action_mask"].any()


def test_order_enforced_spaces_stable_and_masks_int8(table) -> None:
    """Reading agents, stepping or observing before reset() fails saying so; the spaces are
    the same objects at every call; every agent's mask is int8 and its observation float32
    of the declared size, inside the space."""
    e = env(**table.kw())
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agents
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset"):
        e.observe("player_0")
    e.reset(seed=0)
    assert e.observation_space("player_0") is e.observation_space("player_0")
    assert e.action_space("player_1") is e.action_space("player_1")
    for agent in e.agents:
        obs = e.observe(agent)
        assert obs["action_mask"].dtype == np.int8 and obs["observation"].dtype == np.float32
        assert obs["observation"].shape == (observation_size(e.rules),)
        assert e.observation_space(agent).contains(obs)


def test_illegal_action_raises_with_names_and_changes_nothing(table) -> None:
    """By default an illegal action (or a non-integer, or an id out of range) is an error
    naming the action and the legal ones, and the game's state stays as it was; numpy
    integers are accepted."""
    e = env(**table.kw())
    e.reset(seed=1)
    mover, before = e.agent_selection, e.observe(e.agent_selection)["observation"].copy()
    state = [array.copy() for array in e.games.state]
    bad, good = illegal_and_legal(e.observe(mover)["action_mask"])
    names = e.games.action_names
    with pytest.raises(IllegalActionError, match=f"{re.escape(repr(names[bad]))}.*{re.escape(names[good])}"):
        e.step(bad)
    for wrong, message in (
        (len(names), "illegal action id"),
        (-1, "illegal action id"),
        (1.5, "integer"),
        (True, "integer"),
    ):
        with pytest.raises(IllegalActionError, match=f"^{mover}: .*{message}"):
            e.step(wrong)
    assert e.agent_selection == mover and np.array_equal(e.observe(mover)["observation"], before)
    assert all(np.array_equal(a, b) for a, b in zip(state, e.games.state, strict=True))
    e.step(np.int32(good))
    assert not np.array_equal(e.observe(mover)["observation"], before)


def test_illegal_penalty_mode_like_terminate_illegal_wrapper(table) -> None:
    """illegal="penalty": the offender gets illegal_reward, the others 0, every agent is terminated."""
    e = env(**table.kw(illegal="penalty", illegal_reward=-2.0))
    e.reset(seed=1)
    offender = e.agent_selection
    bad, _ = illegal_and_legal(e.observe(offender)["action_mask"])
    e.step(bad)
    assert all(e.terminations.values()) and e.infos[offender]["illegal_action"] == bad
    assert e.rewards[offender] == -2.0 and all(r == 0 for a, r in e.rewards.items() if a != offender)
    for agent in e.agent_iter():
        _, reward, term, _, _ = e.last()
        assert term and reward == (-2.0 if agent == offender else 0.0)
        e.step(None)
    assert e.agents == []


@pytest.mark.parametrize("reward", ["score", "win"])
def test_rewards_at_the_end_of_a_hand(table, reward: str) -> None:
    """R16-R17, C13, T14 (reward="score"): at a hand's end every seat gets its side's score
    minus the other sides' mean, times the scale: partners alike, zero-sum between sides.
    R18, C14 (reward="win"): +1 to the seats of the side with the single highest total, 0 to
    the top seats of a tie between sides, -1 to the rest (partners win together). In the AEC
    env (hands cut at 20 turns) and in batches played to their natural ends."""
    sides = table.rules().sides()
    one_per_side = [sides.index(d) for d in range(max(sides) + 1)]
    keys = {"reward": "win"} if reward == "win" else {"reward_scale": 0.01}

    def expected(summary: dict, scale: float = 1.0) -> np.ndarray:
        if reward == "win":
            return win_rewards(summary["totals"], sides)
        return score_rewards(summary["hand_scores"], sides, scale)

    for seed in range(3):
        e = env(**table.kw(max_turns=20, **keys))
        got = play_random(e, seed)[0]
        np.testing.assert_allclose(got, expected(e.games.summary(0), 0.01))
        assert reward == "win" or got[one_per_side].sum() == pytest.approx(0.0)
    ends = batch_endings(table.rules(), 11, **(keys if reward == "win" else {}))
    for rewards, summary in ends:
        np.testing.assert_allclose(rewards, expected(summary))
        assert reward == "win" or rewards[one_per_side].sum() == pytest.approx(0.0)
    assert len(ends) == 32 and (reward == "score" or any(rewards.max() == 1 for rewards, _ in ends))


def test_truncation_at_turn_limit(table) -> None:
    """R19.2, C15, T16: a hand cut by the turn limit is reported as truncation."""
    assert play_random(env(**table.kw(max_turns=6)), 3)[1] == (False, True)


def test_game_episodes_pay_every_hand(table) -> None:
    """R19.1: with episode='game' rewards arrive at each hand's end."""
    e = env(**table.kw(max_turns=8, episode="game", max_hands=3))
    rng = np.random.default_rng(0)
    e.reset(seed=0)
    paid = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        paid += not (term or trunc) and any(r != 0 for r in e.rewards.values())
    assert e.games.state.hand_number[0] == 3 and paid >= 2


def test_pickle_roundtrip(table) -> None:
    """Envs pickle through their constructor arguments (EzPickle)."""
    for e in (env(**table.kw(reward="win")), env(rules=table.rules(max_turns=9))):
        clone = pickle.loads(pickle.dumps(e))
        assert clone.rules == e.rules and clone.possible_agents == e.possible_agents
        clone.reset(seed=2)
        e.reset(seed=2)
        assert np.array_equal(clone.observe("player_0")["observation"], e.observe("player_0")["observation"])
    gym_env = pickle.loads(pickle.dumps(KanasztaGymEnv(**table.kw(learner_seat=1, max_turns=7))))
    assert gym_env.rules.max_turns == 7 and gym_env.reset(seed=0)[1]["learner_seat"] == 1


def test_observation_ignores_hidden_cards(table) -> None:
    """Hidden information (R3.4, T2.4, T3.4): re-dealing every card a seat cannot see (the
    other hands' unknown cards, the stock below its known bottom and under shown cut cards, the
    Fis nobody took) changes neither its observation, its structured views (a game that has
    them) nor, when it is to move, its legal mask; other seats' observations do change, so
    cards really moved."""
    games = GameBatch(table.rules(max_turns=400), 12)
    games.reset(seed=5)
    rng = np.random.default_rng(5)
    snapshots = [games.copy()]  # the deal's positions too (Díszített: the cut, R3)
    for step in range(240):
        games.step(random_actions(games.legal_mask(), rng))
        if step == 60:
            snapshots.append(games.copy())
    changed = 0
    for played in (*snapshots, games):
        for p in range(table.players):
            other = redeal(played, p, rng)
            np.testing.assert_array_equal(other.observe(seats=p), played.observe(seats=p))
            if table.rules().game.has("views"):
                for name, x, y in zip(other.views(p)._fields, other.views(p), played.views(p), strict=True):
                    np.testing.assert_array_equal(x, y, err_msg=name)
            others = [q for q in range(table.players) if q != p]
            changed += any(
                not np.array_equal(other.observe(seats=q), played.observe(seats=q)) for q in others
            )
            # the mask of the games p moves in; the others keep their deal, since a mover given
            # other cards mid-turn (a pickup under way) may have no legal action
            moving = (played.to_move == p) & ~played.done
            other = redeal(played, p, rng, only=moving)
            other.adopt()
            np.testing.assert_array_equal(other.legal_mask()[moving], played.legal_mask()[moving])
    assert changed >= 2 * table.players  # at least in the positions after the deal


# --- Gymnasium ---------------------------------------------------------------------
def test_gymnasium_and_sb3_env_checkers(table) -> None:
    """Gymnasium's and SB3's env checkers pass on the env as ``gym.make`` gives it (they step
    with unmasked random actions: the Gymnasium env's default penalty ends the episode)."""
    from gymnasium.utils.env_checker import check_env as gym_check_env

    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gym_check_env(gymnasium.make("Kanaszta-v0", **table.kw()))
        sb3_checker.check_env(gymnasium.make("Kanaszta-v0", **table.kw(learner_seat=1)))


def test_gym_learner_reward_when_opponent_ends_the_hand(table) -> None:
    """The learner's terminal reward arrives even when the hand ends on an opponent's move,
    and equals his R16-R17 (C13, T14) side score difference; masks match info's."""
    e = KanasztaGymEnv(**table.kw(max_turns=9, reward_scale=1.0))
    sides = e.rules.sides()
    rng = np.random.default_rng(0)
    ended_by_opponent = 0
    for episode in range(16):
        _, info = e.reset(seed=episode)
        seat, total, done = info["learner_seat"], 0.0, False
        while not done:
            mask = e.action_masks()
            np.testing.assert_array_equal(mask, info["action_mask"])
            _, reward, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(mask))))
            total, done = total + reward, term or trunc
        state = e.games.state
        assert total == pytest.approx(score_rewards(state.hand_scores[0], sides)[seat])
        assert not e.action_masks().any()
        # the turn limit ends the hand on the discard of the 9th turn's player
        ended_by_opponent += sides[int(state.to_move[0])] != sides[seat]
    assert ended_by_opponent > 0


def test_gym_opponent_policies_and_errors(table) -> None:
    """Opponents given as a policy play their seats; an illegal action of the learner or of a
    policy is an error naming who chose it; a learner seat outside the table is refused."""
    e = KanasztaGymEnv(**table.kw(opponents=first_legal, learner_seat=1, max_turns=6, illegal="raise"))
    obs, info = e.reset(seed=4)
    assert info["learner_seat"] == 1 and obs.shape == e.observation_space.shape
    with pytest.raises(IllegalActionError, match="learner"):
        e.step(illegal_and_legal(e.action_masks())[0])

    def bad_policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.array([illegal_and_legal(m)[0] for m in mask])

    with pytest.raises(IllegalActionError, match="policy in seat 0"):  # seat 0 starts (R2.3)
        KanasztaGymEnv(**table.kw(opponents=bad_policy, learner_seat=1, random_starter=False)).reset(seed=0)
    with pytest.raises(ValueError, match="learner_seat"):
        KanasztaGymEnv(**table.kw(learner_seat=table.players))


# --- SB3 VecEnv -----------------------------------------------------------------------
def test_vecenv_contract_auto_reset(table) -> None:
    """Same-step auto-reset with terminal_observation and TimeLimit.truncated; masks belong
    to the returned (post-reset) observations, which lie in the observation space."""
    venv = vec_env(16, **table.kw(max_turns=2 * table.players))
    assert venv.get_attr("render_mode") == [None] * 16 and venv.has_attr("action_masks")
    venv.seed(0)
    assert venv.reset().shape == (16, observation_size(venv.rules))
    rng = np.random.default_rng(0)
    truncations = 0
    for _ in range(60):
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.shape == (16, venv.action_space.n) and masks.any(axis=1).all()
        obs, rewards, dones, infos = venv.step(random_actions(masks, rng))
        assert rewards.dtype == np.float32 and all(venv.observation_space.contains(o) for o in obs)
        for i in np.flatnonzero(dones):
            assert venv.observation_space.contains(infos[i]["terminal_observation"])
            assert not np.array_equal(infos[i]["terminal_observation"], obs[i])
            truncations += infos[i]["TimeLimit.truncated"]
        assert all("terminal_observation" not in infos[i] for i in np.flatnonzero(~dones))
    assert truncations > 0


def test_vecenv_matches_aec_trajectories(table) -> None:
    """For the same seeds and actions the VecEnv (learner seat 1, his partners played by him,
    a deterministic opponent) and the AEC env produce identical observations, masks, rewards
    and episode ends."""
    n, base, steps = 3, 100, 120
    venv = vec_env(n, **table.kw(opponents=hashed_policy, learner_seat=1, max_turns=6))
    sides = venv.rules.sides()
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
        e = env(**table.kw(max_turns=6))
        e.reset(seed=base + i)
        t = episode = 0
        while t < steps:
            ob, reward, term, trunc, _ = e.last()
            if term or trunc:
                _, _, _, rewards, dones, infos = record[t - 1]
                assert dones[i] and np.float32(e._cumulative_rewards["player_1"]) == rewards[i]
                np.testing.assert_array_equal(
                    infos[i]["terminal_observation"], e.observe("player_1")["observation"]
                )
                assert infos[i]["TimeLimit.truncated"] == trunc
                episode, episodes = episode + 1, episodes + 1
                e.reset(seed=base + i + n * episode)
            elif sides[int(e.agent_selection.split("_")[1])] == sides[1]:  # the learner's side
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


def test_vecenv_random_opponents_are_deterministic_per_seed(table) -> None:
    """After seed(s) the VecEnv with random opponents plays the same games every time, also
    after a later reset() without a seed, which deals each game's next hand (SB3 resets again
    when learning starts after a warm start)."""

    def run() -> list[np.ndarray]:
        venv = vec_env(4, **table.kw(max_turns=5))
        venv.seed(9)
        first = venv.reset()
        steps = (venv.step(venv.action_masks().argmax(axis=1)) for _ in range(40))
        played = [obs.sum(axis=1) + rewards for obs, rewards, _, _ in steps]
        next_deals = venv.games.deal_seeds + np.uint64(4)
        again = venv.reset()
        assert (venv.games.deal_seeds == next_deals).all() and not np.array_equal(first, again)
        return [*played, again.sum(axis=1)]

    np.testing.assert_array_equal(run(), run())
    assert isinstance(RandomPolicy(0)(np.zeros((2, 3)), np.eye(2, 5, dtype=bool)), np.ndarray)


def test_vecenv_illegal_actions(table) -> None:
    """An illegal action in one game raises naming that game, as a wrong number of actions says
    so; with illegal="penalty" it ends only that game's episode, with the penalty and
    info["illegal_action"]."""
    venv = vec_env(2, **table.kw(learner_seat=0))
    venv.seed(0)
    venv.reset()
    masks = venv.action_masks()
    acts = np.array([illegal_and_legal(masks[0])[1], illegal_and_legal(masks[1])[0]])
    with pytest.raises(IllegalActionError, match="game 1"):
        venv.step(acts)
    before = venv.action_masks().copy()
    with pytest.raises(ValueError, match="expected 2 actions, one per game; got shape \\(3,\\)"):
        venv.step(np.zeros(3, dtype=np.int64))
    assert np.array_equal(venv.action_masks(), before)  # nothing stepped
    penalised = vec_env(2, **table.kw(learner_seat=0, illegal="penalty", illegal_reward=-3.0))
    penalised.seed(0)
    penalised.reset()
    _, rewards, dones, infos = penalised.step(acts)
    assert dones.tolist() == [False, True] and rewards[1] == -3.0 and infos[1]["illegal_action"]


def test_vecenv_returned_observations_survive_the_next_step(table) -> None:
    """SB3 stores the observations of step t after step t+1 ran: the array a step returns
    must not be the buffer the next step, a reset or a loaded state writes; a refused step
    leaves the current observations as they were."""
    venv = vec_env(4, **table.kw(learner_seat=0))
    venv.seed(3)
    first = venv.reset()
    kept = first.copy()
    obs, *_ = venv.step(venv.action_masks().argmax(axis=1))
    assert np.array_equal(first, kept) and obs is not first
    before = obs.copy()
    second, *_ = venv.step(venv.action_masks().argmax(axis=1))
    assert np.array_equal(obs, before) and not np.array_equal(second, before)
    with pytest.raises(IllegalActionError):
        venv.step(venv.action_masks().argmin(axis=1))  # an illegal action in every game
    assert np.array_equal(venv._games.observe(), second)
    kept = second.copy()
    venv.reset()  # a new deal, and below a state taken as it stands, write to the batch's own array
    assert np.array_equal(second, kept)
    third, *_ = venv.step(venv.action_masks().argmax(axis=1))
    venv._games.adopt()
    assert not np.shares_memory(venv._games.observe(), third)


@pytest.mark.representative
def test_maskable_ppo_smoke_runs(table) -> None:
    """A few hundred MaskablePPO steps on the VecEnv, episodes included; a short run on the
    Gymnasium env."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.vec_env import VecMonitor

    venv = VecMonitor(vec_env(8, **table.kw(max_turns=4)))
    small = {"n_epochs": 1, "policy_kwargs": {"net_arch": [32]}, "seed": 0}
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, **small)
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512 and len(model.ep_info_buffer) > 0
    single = sb3_contrib.MaskablePPO(
        "MlpPolicy", KanasztaGymEnv(**table.kw()), n_steps=64, batch_size=32, **small
    )
    assert single.learn(128).num_timesteps >= 128


@pytest.mark.tables(lambda t: t.players >= 3 and len(set(t.rules().sides())) == t.players)
def test_vecenv_one_policy_per_opponent_seat(table) -> None:
    """R2.1: with three or more players each for himself, each opponent seat has its own
    policy, called only for the decisions of that seat (relative to the learner)."""
    seen = dict.fromkeys(range(1, table.players), 0)

    def seat_policy(rel: int):
        def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            theirs = venv._games.observe(seats=rel)  # the learner sits at seat 0
            assert all((theirs == o).all(axis=1).any() for o in obs)
            seen[rel] += len(obs)
            return first_legal(obs, mask)

        return policy

    venv = vec_env(4, table.rules(max_turns=6), opponents=[seat_policy(r) for r in seen], learner_seat=0)
    venv.seed(3)
    venv.reset()
    ended = 0
    for _ in range(80):
        ended += venv.step(venv.action_masks().argmax(axis=1))[2].sum()
    assert all(seen.values()) and ended > 0
