"""Turkish kanasta's bots (agents/games/turkish/bots.py), the terminal game and the tournament."""

from __future__ import annotations

import io

import numpy as np
import pytest

from agents.base import play_batch
from agents.human import play_human
from agents.registry import make_agent
from agents.tournament import round_robin
from kanaszta_env import Rules
from kanaszta_env.games.turkish.actions import ACTION_NAMES

RULES = Rules(variant="tr")


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic"])
def test_bots_play_whole_hands_legally(name):
    agent = make_agent(name, RULES)
    seats = np.zeros((6, 4), dtype=np.int64)
    result = play_batch(RULES, [agent], seats, np.arange(6))  # the engine refuses an illegal action
    scores = np.asarray(result.scores)
    assert scores.shape == (6, 4)
    assert (scores[:, 0] == scores[:, 2]).all() and (scores[:, 1] == scores[:, 3]).all()


def test_heuristic_beats_random_on_duplicate_deals():
    agents = {"random": make_agent("random", RULES), "heuristic": make_agent("heuristic", RULES)}
    result = round_robin(RULES, agents, deals=24, seed=100, progress=False, boot=0)
    (pair,) = result["pairs"]
    assert pair["a"] == "random" and pair["diff_ci95"][1] < 0, pair


def test_rule_bots_take_no_options():
    with pytest.raises(ValueError, match="takes no options"):
        make_agent("heuristic:x=1", RULES)


def test_bots_refuse_other_games():
    from agents.games.turkish.bots import TurkishHeuristicBot

    with pytest.raises(ValueError, match="plays Turkish kanasta"):
        TurkishHeuristicBot(Rules())


def test_terminal_game_takes_names_with_spaces_and_quits():
    moves = io.StringIO("draw\nhint\nnew 9s\nquit\n")
    out = io.StringIO()
    rules = Rules(variant="tr", random_starter=False)  # seat 0 plays the scripted first turn
    others = [make_agent("heuristic", rules) for _ in range(3)]
    game = play_human(others, rules, seat=0, seed=3, input_stream=moves, output=out)
    text = out.getvalue()
    assert "Turkish kanasta, preset tr" in text
    assert "heuristic bot would play" in text
    assert not game.finished
    assert game.record.actions[:2] == ["draw", "new_9S"]
    assert set(game.record.actions) <= set(ACTION_NAMES)


@pytest.mark.parametrize("variant", ["tr", "pl"])
def test_records_name_the_games_own_actions_and_replay(variant):
    """A record keeps the action names of its own game (Turkish, classic) and replays exactly."""
    from agents.records import make_record, replay

    rules = Rules(variant=variant, num_players=4)
    agent = make_agent("heuristic", rules)
    result = play_batch(rules, [agent], np.zeros((2, 4), dtype=np.int64), [7, 8], record=True)
    for b, seed in enumerate((7, 8)):
        record = make_record(rules, result.actions[b], seed=seed, scores=list(result.scores[b]))
        assert record.actions[0] == "draw"
        games = replay(record)  # raises if an action is illegal or the scores differ
        assert games.done[0]
