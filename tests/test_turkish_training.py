"""Training on Turkish kanasta (preset tr): the pair-based shaping potential against the
engine's scores, the count features, and a smoke run of ``kanaszta train --variant tr``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from training_helpers import tiny_train_flags

from agents.base import play_batch
from agents.random_bot import RandomBot
from agents.registry import make_agent
from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import SMALL_WILDS, TYPE_NAMES
from kanaszta_env.games.turkish.scoring import KINDS, pair_score
from kanaszta_env.observation import observation_size, split
from kanaszta_env.spaces import ObservationSpace
from training.cli import main as cli_main
from training.config import TrainConfig
from training.features import CountFeatures
from training.games.turkish.shaping import TurkishScoreEstimate

TINY = tiny_train_flags("--variant", "tr")


def _play(games: GameBatch, rng: np.random.Generator, steps: int = 300):
    """Yield before each of up to ``steps`` steps of ``games`` (HeuristicBot's move, a random one
    in 10 %), until every hand has ended."""
    bot = make_agent("heuristic", games.rules)
    for _ in range(steps):
        yield
        if games.done.all():
            return
        mask = games.legal_mask()
        live = mask.any(axis=1)
        actions = np.zeros(len(mask), dtype=np.int64)
        actions[live] = bot.act(games.observe()[live], mask[live])
        for b in np.flatnonzero(live & (rng.random(len(mask)) < 0.1)):
            actions[b] = rng.choice(np.flatnonzero(mask[b]))
        games.step(actions)


def _table_score(state, b: int, pair: int) -> int:
    """T14 of ``pair`` in game ``b`` without hands or going out, by the game's helper."""
    cards = [np.repeat(np.arange(53), state.melds[b, pair, k]) for k in range(state.meld_count[b, pair])]
    kinds = [KINDS[kind] for kind in state.meld_kind[b, pair, : len(cards)]]
    melds = [([TYPE_NAMES[t] for t in c], kind) for c, kind in zip(cards, kinds, strict=True)]
    taken = (state.fi_taker[b] >= 0) & (state.fi_taker[b] % 2 == pair)
    return pair_score(melds, fis_taken=int(taken.sum()), fis_used=int(state.fi_used[b][taken].sum()))


def test_potential_is_the_pairs_score_difference_on_the_table():
    """With no weight on the hands, phi is the difference of the pairs' T14 scores of melds,
    canastas and Fis (pair_score), up to the 5 points a 2 in its own place in a run is worth less."""
    rules = Rules(variant="tr")
    potential = TurkishScoreEstimate(rules, scale=1.0, hand_weight=0.0)
    games, rng, checked = GameBatch(rules, 16), np.random.default_rng(2), np.zeros(2, int)
    games.reset(seed=3)
    for _ in _play(games, rng, steps=1000):
        obs = games.observe()
        at_draw = np.flatnonzero(~games.done & (split(obs, rules)["phase"][:, 0] == 1))  # every meld legal
        phi = potential(obs[at_draw])
        for i, b in enumerate(at_draw):
            own = int(games.to_move[b]) % 2
            exact = _table_score(games.state, b, own) - _table_score(games.state, b, 1 - own)
            twos = [int(games.state.melds[b, p][:, list(SMALL_WILDS)].sum()) for p in (own, 1 - own)]
            assert exact - 5 * twos[1] - 1e-9 <= phi[i] <= exact + 5 * twos[0] + 1e-9
            checked += [(games.state.meld_kind[b] > 0).any(), (games.state.fi_taker[b] >= 0).any()]
    assert (checked > 20).all()  # positions with a canasta, with a Fi taken


def test_potential_charges_the_observers_hand_exactly():
    """Weight on the hands lowers phi by the observer's hand value (the spec's, exactly) and his
    partner's estimate, and raises it by the opponents' estimates."""
    rules = Rules(variant="tr")
    games = GameBatch(rules, 8)
    games.reset(seed=1)
    obs = games.observe()
    hands = games.state.hand[np.arange(8), games.to_move].astype(float) @ np.array(rules.spec.hand_penalty)
    flat = TurkishScoreEstimate(rules, scale=1.0, hand_weight=0.0)(obs)
    estimate = TurkishScoreEstimate(rules, scale=1.0, hand_weight=1.0)
    # at the deal every other hand is 11 unknown cards: the partner's cancels one opponent's
    np.testing.assert_allclose(flat - estimate(obs), hands - 11 * estimate.mean_card, rtol=1e-6)
    assert len(set(hands)) > 1


def test_count_features_read_turkish_hand_sizes_and_pair_canastas():
    rules = Rules(variant="tr")
    features = CountFeatures(ObservationSpace(rules))
    size = observation_size(rules)
    games, rng, seen = GameBatch(rules, 32), np.random.default_rng(3), False
    games.reset(seed=1)
    for _ in _play(games, rng):
        rows = np.flatnonzero(~games.done)
        mover = games.to_move.astype(np.int64)[rows]
        extra = features(torch.from_numpy(games.observe()[rows])).numpy()[:, size:]
        hands, canastas = extra[:, : 4 * 17].reshape(-1, 4, 17), extra[:, 4 * 17 :].reshape(-1, 4, 4)
        for k in range(4):
            seat = (mover + k) % 4
            cards = games.state.hand[rows, seat].sum(axis=1)
            np.testing.assert_array_equal(hands[:, k].argmax(-1), np.minimum(cards, 16))
            made = (games.state.meld_kind[rows, seat % 2] > 0).sum(axis=1)
            np.testing.assert_array_equal(canastas[:, k].argmax(-1), np.minimum(made, 3))
            seen |= bool(made.any())
    assert seen


def test_train_turkish_smoke_and_the_checkpoint_plays_legal_moves(tmp_path: Path):
    """``kanaszta train --variant tr`` (four players by default), warm-started by the Turkish
    HeuristicBot; ``kanaszta eval --variant tr`` judges its checkpoint, which then plays both
    pairs' seats against RandomBot (an illegal move would raise in play_batch)."""
    assert TrainConfig(variant="tr").validate().rules().num_players == 4
    run = tmp_path / "run"
    assert cli_main(["train", "--run-dir", str(run), "--total-timesteps", "256", *TINY]) == 0
    report = json.loads((run / "report.json").read_text())
    assert report["timesteps"] >= 256 and [m["bot"] for m in report["matches"]] == ["random", "heuristic"]
    assert json.loads((run / "warm_start.json").read_text())[0]["decisions"] == 24 * 8
    final = str(run / "final.zip")
    assert cli_main(["eval", final, "--variant", "tr", "--bots", "random", "--hands", "2"]) == 0
    from training.policy import load_policy

    agent = load_policy(run / "final.zip")
    rules = Rules(variant="tr", max_turns=20)
    seats = np.array([[0, 1, 0, 1], [1, 0, 1, 0]] * 2)
    result = play_batch(rules, [agent, RandomBot(seed=0)], seats, np.arange(4))
    assert ((result.decisions * (seats == 0)).sum(axis=1) > 0).all()
