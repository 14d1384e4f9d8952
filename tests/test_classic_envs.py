"""Classic canasta (presets pl, sk) in the PettingZoo, Gymnasium and SB3 environments.

The conformance tests of PettingZoo and Gymnasium for every preset and player
count; side rewards (C13: partners alike, zero-sum between sides); the
partner's answer to "may I go out?" as a decision of the partner's seat in
the AEC env (C12.5); who plays the learner's partner in the single-learner
envs; the declared observation layout against the state; the generated pages.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from classic_helpers import reach_question
from pettingzoo.test import api_test, seed_test

from kanaszta_env import GameBatch, Rules
from kanaszta_env.actions_classic import ACTION_NAMES, KIND_NAMES, action_from_name
from kanaszta_env.encoding import observation_size, split
from kanaszta_env.envs import KanasztaGymEnv, env

ROOT = Path(__file__).resolve().parents[1]
#: every preset and player count the contract allows (C2), six players in both seatings
CONFIGS = [
    ("pl", 2, {}),
    ("pl", 3, {}),
    ("pl", 4, {}),
    ("sk", 2, {}),
    ("sk", 3, {}),
    ("sk", 4, {}),
    ("sk", 5, {}),
    ("sk", 6, {}),
    ("sk", 6, {"six_player_sides": "3x2"}),
]
IDS = [f"{v}-{p}p" + ("-3x2" if k else "") for v, p, k in CONFIGS]


@pytest.mark.parametrize(("variant", "players", "keys"), CONFIGS, ids=IDS)
def test_pettingzoo_api_and_seed_tests(variant, players, keys):
    api_test(env(variant=variant, num_players=players, **keys), num_cycles=300)
    seed_test(lambda: env(variant=variant, num_players=players, **keys), num_cycles=200)


@pytest.mark.parametrize(("variant", "players"), [("pl", 4), ("sk", 5)])
def test_gymnasium_check_env_and_make(variant, players):
    from gymnasium.utils.env_checker import check_env

    check_env(KanasztaGymEnv(variant=variant, num_players=players, illegal="penalty"), skip_render_check=True)
    made = gym.make("Kanaszta-v0", variant=variant, num_players=players)
    obs, info = made.reset(seed=3)
    assert made.action_space.n == len(ACTION_NAMES) == 57
    assert made.observation_space.contains(obs)
    assert info["action_mask"].shape == (57,) and info["action_mask"].any()


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row (rows without one: 0, ignored by the engine)."""
    scores = rng.random(mask.shape) * mask
    return scores.argmax(axis=1)


@pytest.mark.parametrize("variant", ["pl", "sk"])
def test_c13_side_rewards_partners_alike_and_zero_sum(variant):
    """The reward of a seat is its side's hand score minus the other sides' mean (C13)."""
    games = GameBatch(Rules(variant=variant, num_players=4), batch_size=64)
    games.reset(seed=11)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(3000):
        result = games.step(_random_actions(games.legal_mask(), rng))
        done = result.terminated | result.truncated
        for b in np.flatnonzero(done):
            r = result.rewards[b]
            scores = games.summary(int(b))["hand_scores"]
            assert r[0] == r[2] and r[1] == r[3]  # partners sit opposite (C2.2)
            assert r[0] == pytest.approx(scores[0] - scores[1]) and r[0] == -r[1]
            ended += 1
        if games.done.all():
            break
    assert ended >= 32


def test_win_reward_partners_win_together():
    """reward="win": the side with the higher total gets +1 for both partners (not a tie between them)."""
    games = GameBatch(Rules(variant="pl", num_players=4), batch_size=64, reward="win")
    games.reset(seed=2)
    rng = np.random.default_rng(1)
    seen = 0
    while not games.done.all():
        result = games.step(_random_actions(games.legal_mask(), rng))
        for b in np.flatnonzero(result.terminated | result.truncated):
            totals = games.summary(int(b))["totals"]
            r = result.rewards[b]
            if totals[0] == totals[1]:
                assert (r == 0).all()
            else:
                winner = 0 if totals[0] > totals[1] else 1
                assert r[winner] == r[winner + 2] == 1.0 and r[1 - winner] == r[3 - winner] == -1.0
                seen += 1
    assert seen > 0


def test_c12_5_partner_answers_in_the_aec_env():
    """After `ask` the decision is the partner's seat's: agent_selection moves to it, its mask
    holds exactly `yes` and `no`, its observation marks it as deciding; then the turn goes back."""
    game_seed, actions = reach_question()
    e = env(variant="pl", num_players=4)
    e.reset(seed=game_seed)
    for a in actions:
        e.step(a)
    mover = e.agent_selection
    seat = int(mover.split("_")[1])
    assert e.observe(mover)["action_mask"][action_from_name("ask")] == 1
    e.step(action_from_name("ask"))
    partner = f"player_{(seat + 2) % 4}"
    assert e.agent_selection == partner
    mask = e.observe(partner)["action_mask"]
    assert {ACTION_NAMES[a] for a in np.flatnonzero(mask)} == {"yes", "no"}
    pieces = split(e.observe(partner)["observation"], e.rules)
    assert pieces["deciding"][0] == 1 and pieces["mover"][2] == 1  # the mover sits opposite
    assert e.observe(mover)["action_mask"].sum() == 0
    e.step(action_from_name("no"))
    assert e.agent_selection == mover
    legal = {ACTION_NAMES[a] for a in np.flatnonzero(e.observe(mover)["action_mask"])}
    assert legal == {"withdraw"}  # "no": he may not go out this turn (C12.5)


def test_partner_choice_in_the_single_learner_envs():
    # a copy of the learner: he also decides for his partner, from the partner's seat
    copy = KanasztaGymEnv(variant="pl", num_players=4, learner_seat=0)
    _, info = copy.reset(seed=4)
    deciding = set()
    for _ in range(400):
        _, _, term, trunc, info = copy.step(int(np.flatnonzero(info["action_mask"])[0]))
        if term or trunc:
            _, info = copy.reset()
        deciding.add(info["deciding_seat"])
    assert deciding == {0, 2}
    # a bot partner: the learner only ever decides for himself
    bot = KanasztaGymEnv(variant="pl", num_players=4, partner="random", learner_seat="random")
    _, info = bot.reset(seed=4)
    for _ in range(400):
        assert info["deciding_seat"] == info["learner_seat"]
        _, _, term, trunc, info = bot.step(int(np.flatnonzero(info["action_mask"])[-1]))
        if term or trunc:
            _, info = bot.reset()


def test_partner_and_opponent_options_are_checked():
    with pytest.raises(ValueError, match="no partners"):
        KanasztaGymEnv(num_players=2, partner="random")  # Díszített: every player alone
    with pytest.raises(ValueError, match="2 or 3 opponents"):
        KanasztaGymEnv(variant="sk", num_players=5, opponents=["random", "random", "random"])
    with pytest.raises(ValueError, match="need 2 opponents"):
        KanasztaGymEnv(variant="pl", num_players=4, opponents=["random"] * 3)


def test_sk_five_players_learner_side_in_every_seat():
    """sk 5p (C2.4): trio against pair; with partner="copy" every decision is a learner-side seat's."""
    e = KanasztaGymEnv(variant="sk", num_players=5, learner_seat="random")
    sides = e.rules.sides()
    seats = set()
    for seed in range(12):
        _, info = e.reset(seed=seed)
        seats.add(info["learner_seat"])
        for _ in range(150):
            assert sides[info["deciding_seat"]] == sides[info["learner_seat"]]
            _, _, term, trunc, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
            if term or trunc:
                break
    assert len(seats) >= 3


def test_vec_env_steps_classic_with_masks_and_terminal_observations():
    from kanaszta_env.envs import KanasztaVecEnv

    venv = KanasztaVecEnv(16, variant="pl", num_players=4)
    venv.seed(0)
    obs = venv.reset()
    assert obs.shape == (16, observation_size(venv.rules)) and venv.action_space.n == 57
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(600):
        masks = venv.action_masks()
        assert masks.shape == (16, 57) and masks.any(axis=1).all()
        obs, _rewards, dones, infos = venv.step(_random_actions(masks, rng))
        assert venv.observation_space.contains(obs[0])
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == obs[i].shape
            finished += 1
    assert finished > 0


def test_observation_pieces_match_the_state():
    """The declared pieces hold what the state says (docs/observation-classic.md)."""
    rules = Rules(variant="sk", num_players=6, six_player_sides="3x2")
    games = GameBatch(rules, batch_size=16)
    games.reset(seed=3)
    rng = np.random.default_rng(3)
    copies = np.array([12] * 11 + [6, 12, 6], dtype=np.float64)  # 162 cards: 3 decks (C1.1)
    kind_of = {name: k for k, name in enumerate(KIND_NAMES)}
    from kanaszta_env.cards import TYPE_NAMES

    def kind(t: int) -> int | None:
        name = TYPE_NAMES[t]
        rank = "JK" if name == "JK" else name[:-1]
        if rank == "3":
            return kind_of["3"] if name[-1] in "SC" else None
        return kind_of[rank]

    for _ in range(200):
        games.step(_random_actions(games.legal_mask(), rng))
    s = games.state
    for seat in range(6):
        pieces = split(games.observe(seats=seat), rules)
        for b in range(16):
            hand = np.zeros(14)
            for t in np.flatnonzero(s.hand[b, seat]):
                k = kind(int(t))
                if k is not None:
                    hand[k] += s.hand[b, seat, t]
            assert np.allclose(pieces["hand"][b] * copies, hand)
            sizes = [min(s.hand[b, (seat + r) % 6].sum() / 40, 1) for r in range(6)]
            assert np.allclose(pieces["hand_sizes"][b], sizes)
            partners = [rules.sides()[(seat + r) % 6] == rules.sides()[seat] for r in range(6)]
            assert np.array_equal(pieces["partners"][b], np.array(partners, dtype=np.float32))
            assert pieces["pile_size"][b, 0] == pytest.approx(s.pile_len[b] / 162)
            assert pieces["pile_contents"][b] @ copies == pytest.approx(s.pile_len[b], abs=1e-4)
    space = gym.spaces.Box(-1, 1, shape=(observation_size(rules),))
    assert all(space.contains(games.observe(seats=q)[b]) for q in range(6) for b in range(16))


def test_generated_classic_pages_are_current():
    script = ROOT / "scripts" / "gen_classic_docs.py"
    spec = importlib.util.spec_from_file_location("gen_classic_docs", script)
    gen = importlib.util.module_from_spec(spec)
    sys.modules["gen_classic_docs"] = gen
    spec.loader.exec_module(gen)
    for path, render in gen.PAGES:
        assert path.read_text() == render(), f"{path.name} is stale: run python scripts/gen_classic_docs.py"


def test_render_shows_sides_and_hides_for_a_viewer():
    e = env(variant="pl", num_players=4, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "side 0 (player_0, player_2)" in text and "side 1 (player_1, player_3)" in text
    assert text.count("hand (11)") == 4  # a spectator sees every hand
