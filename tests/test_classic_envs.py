"""Classic canasta (presets pl, sk) in the envs: what only this game has.

The generic env contracts run on every classic table in tests/conformance/.
Here: the six-player 3x2 seating (a rule option, not a table) under PettingZoo's
tests; the partner's answer to "may I go out?" as a decision of the partner's
seat in the AEC env (C12.5); who plays the learner's partner in the
single-learner envs; the declared observation layout against the state; the
rendered sides.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from classic_helpers import reach_question
from conformance.positions import after
from pettingzoo.test import api_test, seed_test

from kanaszta_env.cards import TYPE_NAMES
from kanaszta_env.envs import KanasztaGymEnv, env
from kanaszta_env.games.classic.actions import ACTION_NAMES, KIND_NAMES, action_from_name
from kanaszta_env.observation import observation_size, split


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


@pytest.mark.parametrize(
    ("variant", "players", "partner"), [("pl", 4, "copy"), ("sk", 5, "copy"), ("pl", 4, "random")]
)
def test_who_decides_in_the_single_learner_envs(variant: str, players: int, partner: str):
    """partner="copy" (default): the learner decides for his partners too, from their seats,
    in every seat (sk 5p, C2.4: trio against pair); a bot partner: the learner only ever
    decides for himself."""
    e = KanasztaGymEnv(variant=variant, num_players=players, partner=partner, learner_seat="random")
    sides = e.rules.sides()
    seats, for_partners = set(), 0
    for seed in range(12):
        _, info = e.reset(seed=seed)
        seats.add(info["learner_seat"])
        for _ in range(120):
            deciding, learner = info["deciding_seat"], info["learner_seat"]
            assert sides[deciding] == sides[learner] if partner == "copy" else deciding == learner
            for_partners += deciding != learner
            _, _, term, trunc, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
            if term or trunc:
                break
    assert len(seats) >= 3 and (for_partners > 0) == (partner == "copy")


def test_partner_and_opponent_options_are_checked():
    """partner= needs partners; the opponents listed must match the seats they play."""
    with pytest.raises(ValueError, match="no partners"):
        KanasztaGymEnv(num_players=2, partner="random")  # Díszített: every player alone
    with pytest.raises(ValueError, match="2 or 3 opponents"):
        KanasztaGymEnv(variant="sk", num_players=5, opponents=["random", "random", "random"])
    with pytest.raises(ValueError, match="need 2 opponents"):
        KanasztaGymEnv(variant="pl", num_players=4, opponents=["random"] * 3)


def test_observation_pieces_match_the_state():
    """The declared pieces hold what the state says (docs/observation-classic.md)."""
    games = after(3, 200, 16, variant="sk", num_players=6, six_player_sides="3x2")
    rules, s = games.rules, games.state
    copies = np.array([12] * 11 + [6, 12, 6], dtype=np.float64)  # 162 cards: 3 decks (C1.1)
    # the kind of each card type: its rank's, a black three's; red threes (None) have none
    rank = {name: "JK" if name == "JK" else name[:-1] for name in TYPE_NAMES}
    kind = [None if name in ("3H", "3D") else KIND_NAMES.index(rank[name]) for name in TYPE_NAMES]
    for seat in range(6):
        pieces = split(games.observe(seats=seat), rules)
        for b in range(16):
            hand = np.zeros(14)
            for t in np.flatnonzero(s.hand[b, seat]):
                if kind[t] is not None:
                    hand[kind[t]] += s.hand[b, seat, t]
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
