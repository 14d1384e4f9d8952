"""Classic canasta (presets pl, sk) in the envs: what only this game has.

The generic env contracts run on every classic table in tests/conformance/.
Here: the six-player 3x2 seating (a rule option, not a table) under PettingZoo's
tests; the partner's answer to "may I go out?" as a decision of the partner's
seat in the AEC env (C12.5); who plays the learner's partner in the
single-learner envs; the declared observation layout against the state; the
generated pages; the rendered sides.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from classic_helpers import reach_question
from pettingzoo.test import api_test, seed_test

from kanaszta_env import GameBatch, Rules
from kanaszta_env.envs import KanasztaGymEnv, env
from kanaszta_env.games.classic.actions import ACTION_NAMES, KIND_NAMES, action_from_name
from kanaszta_env.observation import observation_size, split

ROOT = Path(__file__).resolve().parents[1]


def test_pettingzoo_api_and_seed_tests_six_players_3x2():
    """sk, six players in three sides of two (C2.5): PettingZoo's api and seed tests."""
    api_test(env(variant="sk", num_players=6, six_player_sides="3x2"), num_cycles=300)
    seed_test(lambda: env(variant="sk", num_players=6, six_player_sides="3x2"), num_cycles=200)


def test_c12_5_partner_answers_in_the_aec_env():
    """After `ask` the decision is the partner's seat's: agent_selection moves to it, its mask
    holds exactly `yes` and `no`, its observation marks it as deciding; then the turn goes back."""
    assert len(ACTION_NAMES) == 57  # docs/actions-classic.md
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
    """partner="copy" (default): the learner decides for his partner too; a bot partner: never."""
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
    """partner= needs partners; the opponents listed must match the seats they play."""
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
        mask = games.legal_mask()
        games.step((rng.random(mask.shape) * mask).argmax(axis=1))  # uniformly random legal actions
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


def test_render_shows_sides_and_hides_for_a_viewer():
    """The table shows the sides (C2.2) and, to a spectator, every hand."""
    e = env(variant="pl", num_players=4, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "side 0 (player_0, player_2)" in text and "side 1 (player_1, player_3)" in text
    assert text.count("hand (11)") == 4  # a spectator sees every hand
