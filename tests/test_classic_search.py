"""The classic canasta search bot and what it stands on: positions dealt from one seat's
observation (C2.9: they agree with everything the seat knows), the sides' standings
(C13.2), the compiled rollout policy (the heuristic's own choices), and the bot's decisions
(legal, from the observation only, searched where they matter, at least as good as the
heuristic's). ``load_batch``: tests/conformance/test_positions.py."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from agents.base import play_batch
from agents.games.classic import rollout as R
from agents.games.classic.bots import ClassicHeuristicBot
from agents.games.classic.determinise import determinise
from agents.games.classic.search import ClassicSearch
from agents.registry import make_agent
from agents.search import SimulatedSearchBot
from agents.tournament import play_pair
from kanaszta_env import GameBatch, Rules, position as positions
from kanaszta_env.engine.kernels import kernels_for
from kanaszta_env.games.classic.actions import WITHDRAW
from kanaszta_env.games.classic.scoring import side_score, standings
from kanaszta_env.observation import piece_offsets, split

CONFIGS = [("pl", 2), ("pl", 3), ("pl", 4), ("sk", 2), ("sk", 3), ("sk", 4), ("sk", 5), ("sk", 6)]


def _random_states(rules: Rules, batch: int, steps: int, seed: int) -> GameBatch:
    games = GameBatch(rules, batch)
    games.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = games.legal_mask()
        games.step(np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask]))
    return games


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_c2_9_determinised_positions_agree_with_the_observation(variant, players):
    """Every sampled position holds its whole deck and shows the deciding seat the same
    observation — all but ``withdrawable``, which needs the turn's checkpoint the
    observation does not show — and the same legal actions but ``withdraw``."""
    rules = Rules(variant=variant, num_players=players)
    rng = np.random.default_rng(3)
    withdrawable = piece_offsets(rules)["withdrawable"][0]
    conserved = kernels_for(rules.spec).ruleset.conserved
    scratch = np.zeros(53, dtype=np.int64)
    check = GameBatch(rules, 2)
    checked = varied = 0
    for steps in (0, 40, 90, 160):
        games = _random_states(rules, 12, steps, seed=steps + players)
        obs, mask = games.observe(), games.legal_mask()
        pieces = split(obs, rules)
        for b in np.flatnonzero(mask.any(axis=1)):
            s, me = determinise(rules, {k: v[b] for k, v in pieces.items()}, rng, 2)
            assert all(conserved(s, rules.to_config(), k, scratch) for k in range(2))
            check.state = s
            seen = check.observe()
            keep = np.ones(obs.shape[1], dtype=bool)
            keep[withdrawable] = False
            assert np.array_equal(seen[:, keep], np.repeat(obs[b : b + 1, keep], 2, axis=0))
            legal = check.legal_mask().copy()
            legal[:, WITHDRAW] = mask[b, WITHDRAW]
            assert (legal == mask[b]).all() and (s.to_move == me).all()
            varied += not np.array_equal(s.hand[0], s.hand[1])  # the hidden cards are dealt at random
            checked += 1
    assert checked > 30 and varied > checked // 2


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


@pytest.mark.parametrize(("variant", "players"), [("pl", 4), ("sk", 5)])
def test_search_bot_plays_legally_and_searches_the_pile_and_the_discard(variant, players):
    rules = Rules(variant=variant, num_players=players)
    bot = make_agent("search:samples=3,horizon=2", rules, seed=1)
    assert isinstance(bot, SimulatedSearchBot) and isinstance(bot.kit, ClassicSearch) and bot.samples == 3
    heuristic = make_agent("heuristic", rules)
    seats = np.array([[(b + q) % 2 for q in range(players)] for b in range(4)])
    result = play_batch(rules, [bot, heuristic], seats, np.arange(4))  # raises on an illegal choice
    assert set(result.end_reason.tolist()) <= {1, 2, 3}
    assert bot.searched > 20 and 0 <= bot.overruled <= bot.searched


def test_search_decisions_come_from_the_observation_only():
    """C2.9: after re-dealing hidden cards (another seat's hand and the stock) the deciding
    seats see the same observations and a new bot with the same seed decides the same."""
    rules = Rules(variant="pl", num_players=4)
    games = _random_states(rules, 16, 70, seed=8)
    obs, mask = games.observe(), games.legal_mask()
    bot = SimulatedSearchBot(rules, ClassicSearch(), samples=4, horizon=2, seed=5)
    first = bot.act(obs, mask)
    assert bot.searched > 4
    s = games.state
    rng = np.random.default_rng(2)
    for b in range(16):
        q = (int(s.to_move[b]) + 1) % 4
        hidden = int((s.hand[b, q] - s.known[b, q]).sum())
        if hidden and s.stock_len[b]:  # swap a hidden card of the next seat with the stock's top
            t = rng.choice(np.flatnonzero(s.hand[b, q] - s.known[b, q]))
            top = s.stock[b, s.stock_len[b] - 1]
            s.hand[b, q, t] -= 1
            s.hand[b, q, top] += 1
            s.stock[b, s.stock_len[b] - 1] = t
    games.adopt()
    assert np.array_equal(games.observe(), obs)
    again = SimulatedSearchBot(rules, ClassicSearch(), samples=4, horizon=2, seed=5)
    assert np.array_equal(again.act(games.observe(), games.legal_mask()), first)


def test_search_is_no_worse_than_the_heuristic_it_starts_from():
    """On duplicate deals (both sides of each deal) the search does not lose to the heuristic."""
    rules = Rules(variant="pl", num_players=4)
    bot = make_agent("search:samples=8,horizon=8", rules, seed=1)
    result = play_pair(rules, bot, make_agent("heuristic", rules), deals=16, seed=77)
    assert result.summary()["diff_ci95"][1] > 0 and bot.overruled > 0


def test_search_options_are_checked():
    """The registry's search options are the Turkish search's (checked in
    tests/test_turkish_search.py); the bot itself refuses an unknown one too."""
    with pytest.raises(ValueError, match="unknown search option"):
        SimulatedSearchBot(Rules(variant="sk", num_players=4), ClassicSearch(), depth=3)
