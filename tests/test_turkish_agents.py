"""Turkish kanasta's bots (agents/games/turkish/bots.py), the terminal game, and the search
bot's rollout policy (agents/games/turkish/rollout.py). Legal play of every bot, decisions
from the observation only, the worlds the search deals, its strength and the registry's
options: tests/test_agents.py; the heuristic's strength:
tests/test_tournament.py."""

from __future__ import annotations

import io
from collections import Counter

import numpy as np
import pytest
from numba import njit
from turkish_helpers import meld, table

from agents.base import play_batch
from agents.games.turkish import rollout as R
from agents.human import play_human
from agents.registry import make_agent
from kanaszta_env import GameBatch, Rules, position
from kanaszta_env.games.turkish.actions import ACTION_NAMES, TAKE_PILE

RULES = Rules(variant="tr")


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


def _bot_turn(games) -> dict:
    """Let the heuristic bot play seat 0's turn from the current position; the position after."""
    bot = make_agent("heuristic", RULES)
    for _ in range(40):
        games.step(bot.act(games.observe(), games.legal_mask()))
        doc = position.dump(games)
        if doc["phase"] in ("draw", "over"):
            return doc
    raise AssertionError("the turn did not end")


def test_heuristic_melds_its_whole_hand_and_takes_a_fi_at_once():
    hand = ["4S", "4H", "5S", "6S", "4D", "4C", "9C", "9D", "9H"]  # a run, a set of 4s, a set of 9s
    melds = ([meld(0, "KS", "KH", "KD")], [])
    games = table([hand, ["3D"], ["3H"], ["4C"]], melds, phase="meld", opened=(True, False, False, False))
    doc = _bot_turn(games)
    assert doc["fis"][0] == {"taker": 0, "used": True}  # T11.2(b): emptied by melding, plays on
    laid = Counter(c for m in doc["pairs"][0]["melds"][1:] for c in m["cards"])
    assert not Counter(hand) - laid  # every card of the hand went into melds


def test_heuristic_spends_a_wild_on_a_pair_to_take_a_fi():
    melds = ([meld(0, "KS", "KH", "KD")], [])
    games = table([["8C", "8D", "JK", "QD"], ["3D"], ["3H"], ["4C"]], melds, phase="meld",
                  opened=(True, False, False, False))  # fmt: skip
    doc = _bot_turn(games)
    assert sorted(doc["pairs"][0]["melds"][1]["cards"]) == ["8C", "8D", "JK"]
    assert doc["fis"][0] == {"taker": 0, "used": False}  # T11.2(a): emptied by the discard of QD


def test_heuristic_goes_out_when_it_can():
    canasta = meld(0, "AS", "2S", "3S", "4S", "5S", "6S", "7S", kind="whole")
    both = ({"taker": 1, "used": True}, {"taker": 3, "used": True})
    games = table([["9C", "9D", "9H", "2H", "QD"], ["3D"], ["3H"], ["4C"]], ([canasta], []),
                  phase="meld", fis=both, opened=(True, False, False, False))  # fmt: skip
    assert _bot_turn(games)["end_reason"] == "out"


def test_heuristic_self_play_often_goes_out():
    """Four heuristic bots end many hands by going out (88 % of 200 measured hands, against
    7.5 % before they played for the Fis) rather than by exhausting the stock or passing a
    one-card pile round to the turn limit."""
    seats = np.zeros((32, 4), dtype=np.int64)
    result = play_batch(RULES, [make_agent("heuristic", RULES)], seats, np.arange(32))
    assert (result.end_reason == 1).mean() >= 0.5, result.end_reason


@pytest.mark.parametrize(
    ("pile", "taken"),
    [(["9C"], True), (["QD"], True), (["2C"], True), (["4H"], False), (["4H", "5S"], True)],
)
def test_heuristic_takes_a_pile_of_two_or_one_card_that_joins_the_hand(pile, taken):
    """T4.1a: a pile of two cards or more always; one card when it is wild or joins the hand
    (a 9 to the 9, the QD beside the JD); a lone 4H that joins nothing is left for the stock.
    The compiled rollout policy of the search bot decides the same."""
    games = table([["9S", "JD", "KC"], ["3D"], ["3H"], ["4C"]], pile=pile)
    mask = games.legal_mask()
    choice = make_agent("heuristic", RULES).act(games.observe(), mask)[0]
    assert (choice == TAKE_PILE) == taken and mask[0, choice]
    row = mask[0].astype(np.bool_)
    assert R.choose(games.state, 0, row) == choice


def test_heuristic_makes_a_forced_canasta_opening_with_a_wild():
    hand = ["8S", "8S", "8H", "8H", "8D", "8C", "JK", "QD", "4C"]  # six 8s and a wild: a half canasta
    both = ({"taker": 1, "used": True}, {"taker": 3, "used": True})  # both Fis went to the others
    games = table([hand, ["3D"], ["3H"], ["4C"]], phase="meld", fis=both, forced=("owed", "no"))
    doc = _bot_turn(games)
    assert doc["players"][0]["opened"] and sorted(doc["pairs"][0]["melds"][0]["cards"]) == sorted(hand[:7])


@njit
def _play_policy(s, cfg, steps: int) -> None:
    """Play the rollout policy in every game for up to ``steps`` actions or to its end."""
    row = np.zeros(R.NUM_ACTIONS, dtype=np.bool_)
    rewards = np.zeros((s.phase.shape[0], 4), dtype=np.float64)
    for b in range(s.phase.shape[0]):
        for _ in range(steps):
            if s.phase[b] == R.PHASE_OVER or R.legal_row(s, cfg, b, row) == 0:
                break
            R.apply_action(s, cfg, b, R.choose(s, b, row), rewards)


def test_rollout_policy_plays_whole_hands():
    g = GameBatch(RULES, 40)
    g.reset(seed=5)
    s = g.state
    _play_policy(s, RULES.to_config(), 100_000)
    assert (s.phase == 5).all()
    assert (s.end_reason == 1).sum() > 5  # it goes out, so it takes Fis and makes canastas
    assert (s.fi_taker >= 0).sum() > 40
