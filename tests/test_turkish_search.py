"""The Turkish search bot (agents/search.py with the kit of agents/games/turkish/search.py): its
sampled worlds, rollouts and play."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from agents.base import play_batch
from agents.games.turkish import rollout as R
from agents.games.turkish.bots import TurkishHeuristicBot
from agents.games.turkish.determinise import determinise
from agents.games.turkish.search import TurkishSearch
from agents.registry import make_agent
from agents.search import SimulatedSearchBot
from agents.tournament import play_pair
from kanaszta_env import GameBatch, Rules
from kanaszta_env.engine.kernels import kernels_for
from kanaszta_env.observation import split

RULES = Rules(variant="tr")
K = 3


def _new_state(n: int):
    return R.new_state(n, 4)


def _decisions(seed: int, games: int = 4, every: int = 3):
    """(observation, mask, batch, row) at every ``every``-th decision of heuristic games."""
    bot = TurkishHeuristicBot(RULES)
    g = GameBatch(RULES, games)
    g.reset(seed=seed)
    for step in range(2000):
        if g.done.all():
            return
        obs, mask = g.observe().copy(), g.legal_mask().copy()
        if step % every == 0:
            for i in np.flatnonzero(~g.done):
                yield obs[i], mask[i], g, int(i)
        g.step(bot.act(obs, mask))


def test_samples_reproduce_the_observation_and_the_mask():
    check = GameBatch(RULES, K)
    conserved = kernels_for(RULES.spec).ruleset.conserved
    scratch = np.zeros(53, dtype=np.int64)
    rng = np.random.default_rng(1)
    phases, varied, n = set(), 0, 0
    for obs, mask, _, _ in _decisions(seed=31):
        row = split(obs, RULES)
        s = determinise(RULES, row, rng, K, _new_state)
        assert all(conserved(s, RULES.to_config(), b, scratch) for b in range(K))
        check.state = s
        assert (check.observe(seats=0) == obs).all()
        assert (check.legal_mask() == mask).all()
        hidden = s.hand[:, 1:].reshape(K, -1)
        varied += not (hidden == hidden[0]).all()
        phases.add(int(np.argmax(row["phase"])))
        n += 1
    assert n > 200 and varied > n // 2 and phases >= {0, 1}


def _redeal(g: GameBatch, i: int, rng: np.random.Generator):
    """Game ``i`` of ``g`` with the cards its mover cannot see re-dealt: the other hands'
    unknown parts, the stock and the Fis nobody has taken (sizes kept)."""
    s = type(g.state)(*(np.ascontiguousarray(f[i : i + 1]).copy() for f in g.state))
    q = int(s.to_move[0])
    others = [r for r in range(4) if r != q]
    unknown = {r: s.hand[0, r] - s.known[0, r] for r in others}
    fis = [f for f in range(2) if s.fi_taker[0, f] < 0]
    n = int(s.stock_len[0])
    cards = np.concatenate(
        [np.repeat(np.arange(53), unknown[r]) for r in others] + [s.fi[0, f] for f in fis] + [s.stock[0, :n]]
    )
    cards = rng.permutation(cards)
    at = 0
    for r in others:
        k = int(unknown[r].sum())
        s.hand[0, r] = s.known[0, r] + np.bincount(cards[at : at + k], minlength=53)
        at += k
    for f in fis:
        s.fi[0, f] = cards[at : at + 11]
        at += 11
    s.stock[0, :n] = cards[at : at + n]
    return s, q


def test_hidden_cards_do_not_change_decisions():
    """Re-dealing the cards the mover cannot see in the true game changes neither his
    observation nor the bot's decision (a function of its observation and seed)."""
    bot = SimulatedSearchBot(RULES, TurkishSearch(), samples=4, horizon=4, seed=7)
    other = GameBatch(RULES, 1)
    rng = np.random.default_rng(2)
    searched = 0
    for obs, mask, g, i in _decisions(seed=41, games=2, every=7):
        s, q = _redeal(g, i, rng)
        other.state = s
        obs2, mask2 = other.observe(seats=q).copy(), other.legal_mask().copy()
        assert (obs2 == obs).all() and (mask2 == mask).all()
        before = bot.searched
        a = bot.act(obs[None], mask[None])
        assert (bot.act(obs2, mask2) == a).all()
        searched += bot.searched - before
    assert searched > 5


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


def test_search_bot_plays_whole_hands_legally():
    bot = make_agent("search:samples=4,horizon=4", RULES)
    heuristic = make_agent("heuristic", RULES)
    seats = np.array([[0, 1, 0, 1], [1, 0, 1, 0]], dtype=np.int64)
    result = play_batch(RULES, [bot, heuristic], seats, [11, 11])  # the engine refuses illegal actions
    scores = np.asarray(result.scores)
    assert (scores[:, 0] == scores[:, 2]).all() and (scores[:, 1] == scores[:, 3]).all()
    assert bot.searched > 10


def test_registry_options():
    bot = make_agent("search:samples=5,horizon=3,max_discards=2,hand_weight=0.5,z=0.5,prior=2,seed=9", RULES)
    assert isinstance(bot.kit, TurkishSearch) and bot.name.startswith("search:")
    assert (bot.samples, bot.horizon, bot.max_discards, bot.seed) == (5, 3, 2, 9)
    assert (bot.hand_weight, bot.z, bot.prior) == (0.5, 0.5, 2.0)
    assert make_agent("search", RULES, seed=4).seed == 4


def test_search_is_no_worse_than_the_heuristic_it_starts_from():
    """On duplicate deals (both pairs of each deal) the search does not lose to the heuristic."""
    bot = make_agent("search:samples=8,horizon=8", RULES, seed=1)
    result = play_pair(RULES, bot, make_agent("heuristic", RULES), deals=12, seed=77)
    assert result.summary()["diff_ci95"][1] > 0 and bot.overruled > 0


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("search:modes=2", "unknown search option"),
        ("search:samples=1", "samples must be an integer of at least 2"),
        ("search:horizon=x", "option horizon of agent 'search:horizon=x' must be an integer"),
        ("search:hand_weight=2", "hand_weight must lie"),
        ("search:z=-1", "non-negative"),
        ("search:samples", "expected key=value"),
    ],
)
def test_registry_refuses_bad_options(spec, match):
    with pytest.raises(ValueError, match=match):
        make_agent(spec, RULES)
