"""Classic canasta bots, partnership tournaments and the CLI (presets pl, sk).

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
from kanaszta_env.cli import main as kanaszta
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


def test_cli_tournament_and_watch_of_classic(capsys, tmp_path):
    code = kanaszta(["tournament", "random", "heuristic", "--variant", "sk", "--deals", "4", "--no-progress",
                     "--bootstrap", "0"])  # fmt: skip
    assert code == 0 and "random vs heuristic" in capsys.readouterr().out
    record = tmp_path / "game.json"
    watch = ["watch", *["heuristic"] * 4, "--variant", "pl", "--seed", "3", "--speed", "0"]
    assert kanaszta([*watch, "--record", str(record)]) == 0
    told = capsys.readouterr().out
    assert "Classic canasta, preset pl, 4 players" in told and "heuristic (seat 2): drew a card" in told
    assert "result: " in told and kanaszta(["replay", str(record), "--speed", "0"]) == 0
    assert "result: " in capsys.readouterr().out
    assert (
        kanaszta(
            ["play", "--variant", "pl", "--players", "4", "--opponent", "random", "--opponent", "random"]
        )
        == 2
    )
    assert "one --opponent for all or 3" in capsys.readouterr().err
    assert kanaszta(["tournament", "random", "greedy", "--variant", "pl", "--players", "3", "--deals", "2",
                     "--no-progress", "--bootstrap", "0"]) == 0  # fmt: skip
    assert "random vs greedy" in capsys.readouterr().out


def test_human_plays_a_classic_hand_with_a_bot_partner():
    """kanaszta play --variant pl: the human (seat 0) plays a whole hand by entering moves; bad input is
    answered with a sentence and changes nothing; the others' moves are told."""
    import io

    from agents.human import play_human

    rules = Rules(variant="pl", num_players=4)
    moves = io.StringIO("help\nbogus\nhint\n" + "1\n" * 3000)
    out = io.StringIO()
    others = [make_agent("heuristic", rules, seed=q) for q in range(3)]
    game = play_human(others, rules, seat=0, seed=5, input_stream=moves, output=out)
    text = out.getvalue()
    assert game.finished and len(game.scores) == 4 and game.scores[0] == game.scores[2]
    assert "unknown move 'bogus'" in text and "heuristic bot would play" in text and "commands:" in text
    assert "heuristic (partner, seat 2): " in text and "discarded" in text and "result: " in text
    assert game.record.actions and game.record.seed == 5
