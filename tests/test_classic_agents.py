"""Classic canasta's bots (presets pl, sk) and what the search bot stands on: the partner
answers "may I go out?" by the value of its hand (C12.5); positions are dealt only from
observations that add up; the sides' standings (C13.2); the compiled rollout policy (the
heuristic's own choices). Legal play of every bot on every preset, decisions from the
observation only, the worlds the search deals (C2.9), its strength and the registry's
options: tests/test_agents.py; duplicate deals and the heuristic's strength:
tests/test_tournament.py."""

from __future__ import annotations

import numpy as np
import pytest
from classic_helpers import reach_question
from numba import njit

from agents.games.classic import rollout as R
from agents.games.classic.bots import ClassicHeuristicBot
from agents.games.classic.determinise import determinise
from kanaszta_env import GameBatch, Rules, position as positions
from kanaszta_env.cards import TYPE_NAMES
from kanaszta_env.games.classic.actions import KIND_NAMES, action_from_name
from kanaszta_env.games.classic.observation import KIND_VALUE
from kanaszta_env.games.classic.scoring import side_score, standings
from kanaszta_env.observation import split

CONFIGS = [("pl", 2), ("pl", 3), ("pl", 4), ("sk", 2), ("sk", 3), ("sk", 4), ("sk", 5), ("sk", 6)]


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


def _random_states(rules: Rules, batch: int, steps: int, seed: int) -> GameBatch:
    games = GameBatch(rules, batch)
    games.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = games.legal_mask()
        games.step(np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask]))
    return games


def test_determinise_refuses_an_observation_that_does_not_add_up():
    rules = Rules(variant="pl", num_players=4)
    games = _random_states(rules, 1, 10, seed=1)
    pieces = {k: v[0].copy() for k, v in split(games.observe(), rules).items()}
    pieces["stock_size"][0] += 5 / 108
    with pytest.raises(ValueError, match="does not add up"):
        determinise(rules, pieces, np.random.default_rng(0), 1)


def test_c13_2_standings_are_the_side_scores_of_the_cards_on_the_table_and_in_hand():
    rules = Rules(variant="pl", num_players=4)
    games = _random_states(rules, 8, 120, seed=6)
    melded, in_hand = standings(games)
    for b in range(8):
        doc = positions.dump(games, b)
        for d, side in enumerate(doc["sides"]):
            if any(len(m) < 3 for m in side["melds"]):
                continue  # a meld being laid this turn is no meld to score yet
            hands = [p["hand"] for q, p in enumerate(doc["players"]) if rules.sides()[q] == d]
            bare = side_score(rules, side["melds"], [], red_threes=side["red_threes"])
            full = side_score(rules, side["melds"], hands, red_threes=side["red_threes"])
            assert melded[b, d] == bare and in_hand[b, d] == bare - full


@njit
def _policy(s, cfg, out):
    """The rollout policy's action in every game (-1 where none is legal)."""
    row = np.zeros(out.shape[1], dtype=np.bool_)
    sc = np.zeros(out.shape[1], dtype=np.float64)
    inputs = np.zeros((3, 14), dtype=np.int64)
    for b in range(s.phase.shape[0]):
        out[b, 0] = R.choose(s, cfg, b, row, inputs, sc) if R.legal_row(s, cfg, b, row) > 0 else -1


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_rollout_policy_chooses_as_the_heuristic(variant, players):
    """The compiled policy reads the state, the heuristic the observation: same choices."""
    rules = Rules(variant=variant, num_players=players)
    heuristic = ClassicHeuristicBot(rules)
    compared = 0
    for steps in (0, 30, 80, 150):
        games = _random_states(rules, 16, steps, seed=steps + 10 * players)
        mask = games.legal_mask()
        live = mask.any(axis=1)
        want = heuristic.act(games.observe(), mask)
        got = np.zeros(mask.shape, dtype=np.int64)
        _policy(games.state, rules.to_config(), got)
        assert np.array_equal(got[live, 0], want[live])
        compared += int(live.sum())
    assert compared > 40
