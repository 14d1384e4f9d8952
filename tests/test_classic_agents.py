"""Classic canasta bots and partnership tournaments (presets pl, sk).

The bots play every preset and player count legally; the heuristic bot beats
the random one (a duplicate margin whose 95% interval excludes zero); duplicate
deals swap the two sides' seats (C2) so that a deterministic pair's results
are exact mirrors; the partner answers "may I go out?" by the value of its
hand (C12.5).
"""

from __future__ import annotations

import numpy as np
import pytest
from classic_helpers import reach_question

from agents.base import play_batch
from agents.games.classic.bots import ClassicGreedyBot, ClassicHeuristicBot
from agents.registry import make_agent
from agents.tournament import play_pair
from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import TYPE_NAMES
from kanaszta_env.games.classic.actions import KIND_NAMES, action_from_name
from kanaszta_env.games.classic.observation import KIND_VALUE

CONFIGS = [("pl", 2), ("pl", 3), ("pl", 4), ("sk", 2), ("sk", 3), ("sk", 4), ("sk", 5), ("sk", 6)]


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_bots_play_every_preset_legally(variant, players):
    rules = Rules(variant=variant, num_players=players)
    agents = [make_agent(name, rules, seed=1) for name in ("random", "greedy", "heuristic")]
    seats = np.array([[(b + q) % 3 for q in range(players)] for b in range(12)])
    result = play_batch(rules, agents, seats, np.arange(12))  # raises on an illegal choice
    assert (result.decisions.sum(axis=1) > 0).all()
    assert set(result.end_reason.tolist()) <= {1, 2, 3}


@pytest.mark.parametrize("variant", ["pl", "sk"])
def test_heuristic_beats_random_in_four_player_partnerships(variant):
    rules = Rules(variant=variant, num_players=4)
    result = play_pair(rules, make_agent("heuristic", rules), make_agent("random", rules), deals=60, seed=7)
    summary = result.summary()
    assert summary["diff_ci95"][0] > 0 and summary["win_rate"] > 0.8


def test_duplicate_deals_swap_the_sides_exactly():
    """Deterministic bots: a against b is the mirror of b against a, deal by deal (C2: teams swap)."""
    rules = Rules(variant="pl", num_players=4)
    ab = play_pair(rules, ClassicGreedyBot(rules), ClassicHeuristicBot(rules), deals=12, seed=3)
    ba = play_pair(rules, ClassicHeuristicBot(rules), ClassicGreedyBot(rules), deals=12, seed=3)
    assert np.array_equal(ab.diff, -ba.diff) and np.array_equal(ab.score_a, ba.score_b[:, ::-1])


def test_three_sides_play_every_seating_of_a_deal():
    """sk with three players each for himself: a deal is played six times (each bot alone on
    every side); a deterministic bot against itself scores exactly zero on every deal."""
    rules = Rules(variant="sk", num_players=3)
    same = play_pair(rules, ClassicGreedyBot(rules), ClassicGreedyBot(rules), deals=3, seed=2)
    assert same.score_a.shape == (3, 6) and np.array_equal(same.diff, np.zeros(3))


def test_c12_5_heuristic_partner_answers_by_the_value_of_its_hand():
    seed, actions = reach_question()
    games = GameBatch(Rules(variant="pl", num_players=4), batch_size=1)
    games.reset(seed=seed)
    for a in actions:
        games.step(np.array([a]))
    games.step(np.array([action_from_name("ask")]))
    partner = int(games.to_move[0])
    bot = ClassicHeuristicBot(games.rules)
    hand = games.state.hand[0, partner]
    worth = 0
    for t in np.flatnonzero(hand):
        name = TYPE_NAMES[t]
        kind = KIND_NAMES.index("JK" if name == "JK" else name[:-1])
        worth += int(hand[t]) * KIND_VALUE[kind]
    answer = bot.act(games.observe(), games.legal_mask())[0]
    expected = "yes" if worth <= bot.answer_limit else "no"
    assert games.action_names[answer] == expected
    low = ClassicHeuristicBot(games.rules, answer_limit=worth - 1)
    assert games.action_names[low.act(games.observe(), games.legal_mask())[0]] == "no"


def test_registry_and_bot_setup_errors_name_the_problem():
    rules = Rules(variant="sk", num_players=4)
    with pytest.raises(ValueError, match="unknown heuristic option"):
        make_agent("heuristic:depth=3", rules)
    assert make_agent("heuristic:answer_limit=10", rules).answer_limit == 10.0
    with pytest.raises(ValueError, match="plays classic canasta"):
        ClassicHeuristicBot(Rules())
