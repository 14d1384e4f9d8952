"""Tournament arithmetic on fixed inputs, duplicate seating, outputs, the CLI,
and exact replay of saved game records."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest

from agents import GreedyBot, RandomBot
from agents.records import GameRecord, load_jsonl, replay, save_jsonl
from agents.registry import make_agent
from agents.tournament import (
    Z95,
    PairResult,
    elo_from_pairs,
    fit_elo,
    format_table,
    hand_outcome,
    mean_ci,
    play_pair,
    round_robin,
    seatings,
    write_outputs,
)
from kanaszta_env import Rules


def test_mean_ci_and_hand_outcome_on_fixed_values() -> None:
    """mean ± 1.96·s/√n with the sample standard deviation; a hand is won, drawn or lost."""
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    s = math.sqrt(((1.5**2) * 2 + (0.5**2) * 2) / 3)  # 1.2910
    assert m == 2.5
    assert lo == pytest.approx(2.5 - Z95 * s / 2) and hi == pytest.approx(2.5 + Z95 * s / 2)
    assert mean_ci([7.0]) == (7.0, 7.0, 7.0)
    with pytest.raises(ValueError):
        mean_ci([])
    np.testing.assert_array_equal(hand_outcome(np.array([10, 5, 3]), np.array([5, 5, 4])), [1.0, 0.5, 0.0])


def test_elo_fits_fixed_results() -> None:
    """75% against one opponent is 400·log10(3) ≈ 190.8 Elo, mean rating 1500; even results
    give equal ratings; a chain A > B > C orders the ratings, whichever side a pair is written
    from; the virtual draws of the prior keep a 100% score finite."""
    r = fit_elo(2, [(0, 1, 75.0, 100.0)], prior_draws=0.0)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert r.mean() == pytest.approx(1500.0)
    assert np.allclose(fit_elo(2, [(0, 1, 50.0, 100.0)]), [1500.0, 1500.0])
    chain = fit_elo(3, [(0, 1, 70.0, 100.0), (1, 2, 70.0, 100.0), (0, 2, 85.0, 100.0)])
    assert chain[0] > chain[1] > chain[2]
    flipped = fit_elo(3, [(1, 0, 30.0, 100.0), (2, 1, 30.0, 100.0), (2, 0, 15.0, 100.0)])
    np.testing.assert_allclose(chain, flipped)
    sweep = fit_elo(2, [(0, 1, 40.0, 40.0)])
    assert np.isfinite(sweep).all() and 300 < sweep[0] - sweep[1] < 1000


def test_pair_summary_on_fixed_results() -> None:
    """A PairResult's summary is the mean_ci of its per-deal values."""
    diff = np.array([100.0, -50.0, 25.0, 0.0])
    wins = np.array([1.0, 0.0, 0.5, 0.5])
    res = PairResult("a", "b", 4, diff, wins, np.zeros((4, 2)), np.zeros((4, 2)))
    summary = res.summary()
    assert summary["mean_diff"] == pytest.approx(18.75)
    assert summary["diff_ci95"] == pytest.approx(list(mean_ci(diff)[1:]))
    assert summary["win_rate"] == 0.5 and summary["hands"] == 8
    elo = elo_from_pairs(["a", "b"], [res], boot=20)
    assert elo["rating"]["a"] == pytest.approx(elo["rating"]["b"])
    assert set(elo["ci95"]) == {"a", "b"}


@pytest.mark.parametrize(
    ("variant", "players"), [("2003-02", 2), ("2003-02", 3), ("pl", 4), ("sk", 3), ("tr", 4)]
)
def test_duplicate_deals_play_every_seating_on_the_same_cards(variant: str, players: int) -> None:
    """Every seating of a deal is the same game with the agents moved (C2: teams swap): a
    deterministic bot against itself scores exactly zero on every deal, and a deterministic
    pair's results are the exact mirror of the swapped pair's, seating by seating."""
    rules = Rules(variant=variant, num_players=players)
    greedy, heuristic = make_agent("greedy", rules), make_agent("heuristic", rules)
    hands = len(seatings(rules.sides()))
    same = play_pair(rules, greedy, greedy, deals=6, seed=40, batch=4)  # two batches
    assert same.score_a.shape == (6, hands) and np.array_equal(same.diff, np.zeros(6))
    ab = play_pair(rules, greedy, heuristic, deals=3, seed=3)
    ba = play_pair(rules, heuristic, greedy, deals=3, seed=3)
    np.testing.assert_array_equal(ab.diff, -ba.diff)
    np.testing.assert_array_equal(ab.score_a, np.roll(ba.score_b, hands // 2, axis=1))


def test_seatings_put_each_agent_alone_on_every_side_when_there_are_more_than_two() -> None:
    """Two sides: a on side 0, then the sides swapped. Three players each for himself: each
    agent alone on every seat in turn, the other agent on the rest."""
    assert seatings([0, 1]).tolist() == [[0, 1], [1, 0]]
    assert seatings([0, 1, 0, 1]).tolist() == [[0, 1, 0, 1], [1, 0, 1, 0]]
    three = seatings([0, 1, 2])
    assert three.tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]


@pytest.mark.parametrize(
    ("variant", "players", "deals", "win_rate"),
    [("2003-02", 3, 8, 0.5), ("pl", 4, 60, 0.8), ("sk", 4, 60, 0.8), ("tr", 4, 24, 0.5)],
)
def test_heuristic_beats_random_on_duplicate_deals(
    variant: str, players: int, deals: int, win_rate: float
) -> None:
    """The heuristic's mean difference against the random bot has a 95% interval above zero
    (with three players: the lone agent's score against the others' mean, in every seating)."""
    rules = Rules(variant=variant, num_players=players)
    res = play_pair(rules, make_agent("heuristic", rules), make_agent("random", rules), deals=deals, seed=5)
    assert res.summary()["diff_ci95"][0] > 0 and res.summary()["win_rate"] > win_rate


def test_round_robin_outputs(tmp_path) -> None:
    """A small tournament writes JSON, CSV and a plot that agree with its result."""
    rules = Rules()
    agents = {"random": RandomBot(0), "greedy": GreedyBot(rules), "heuristic": make_agent("heuristic", rules)}
    result = round_robin(rules, agents, deals=3, seed=5, progress=False, boot=10)
    assert len(result["pairs"]) == 3 and set(result["elo"]["rating"]) == set(agents)
    paths = write_outputs(result, tmp_path / "t")
    assert [p.suffix for p in paths] == [".json", ".csv", ".png"]
    assert json.loads(paths[0].read_text())["pairs"] == result["pairs"]
    rows = list(csv.DictReader(paths[1].open()))
    assert [(r["a"], r["b"]) for r in rows] == [(p["a"], p["b"]) for p in result["pairs"]]
    assert paths[2].stat().st_size > 1000
    assert "random vs greedy" in format_table(result)


def test_records_replay_exactly_and_a_changed_record_does_not(tmp_path) -> None:
    """Saved tournament records (seed + action names) replay to the same end and scores; a
    record whose actions were altered no longer replays (illegal move or other result)."""
    rules = Rules()
    records: list[GameRecord] = []
    play_pair(rules, RandomBot(2), GreedyBot(rules), deals=3, seed=70, records=records)
    path = tmp_path / "r.jsonl"
    save_jsonl(records, path)
    loaded = load_jsonl(path)
    assert [r.to_dict() for r in loaded] == [r.to_dict() for r in records]
    for rec in loaded:
        games = replay(rec)
        assert games.done[0]
        assert [int(x) for x in games.state.hand_scores[0]] == rec.scores
    one = tmp_path / "one.json"
    loaded[0].save(one)
    assert GameRecord.load(one) == loaded[0]
    rec = records[0]
    with pytest.raises(ValueError, match="not over"):
        replay(GameRecord(**{**rec.to_dict(), "actions": rec.actions[:-1]}))
    with pytest.raises(ValueError, match="differ"):
        replay(GameRecord(**{**rec.to_dict(), "scores": [s + 1 for s in rec.scores]}))
    swapped = ["keep" if a == "leave" else "leave" if a == "keep" else a for a in rec.actions]
    with pytest.raises(ValueError):
        replay(GameRecord(**{**rec.to_dict(), "actions": swapped}))


def test_plots_write_files_and_leave_the_callers_matplotlib_backend_alone(tmp_path) -> None:
    """A library plot must not switch the backend of the notebook or script calling it."""
    import matplotlib

    from agents.tournament import plot_result
    from training.evaluate import plot_learning_curve

    previous = matplotlib.get_backend()
    matplotlib.use("svg")
    try:
        history = [
            {"bot": "random", "step": s, "mean_diff": m, "diff_ci": (m - 50, m + 50), "win_rate": w}
            for s, m, w in ((0, 900.0, 0.9), (1000, 1000.0, 0.92))
        ]
        plot_learning_curve(history, tmp_path / "curve.png")
        pairs = [{"a": "x", "b": "y", "mean_diff": 12.0, "diff_ci95": (2.0, 22.0)}]
        plot_result({"elo": {"rating": {"x": 1510.0, "y": 1490.0}}, "pairs": pairs}, tmp_path / "elo.png")
        assert matplotlib.get_backend() == "svg"
    finally:
        matplotlib.use(previous)
    for name in ("curve.png", "elo.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_chunks_of_one_match_pool_to_the_match_played_at_once(tmp_path) -> None:
    """``scripts/pool_tournaments.py``: deterministic agents on deals 0–2 and 3–5 give the
    figures of one tournament over deals 0–5; chunks that share a deal are refused."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "pool", Path(__file__).parents[1] / "scripts/pool_tournaments.py"
    )
    pool = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(pool)  # type: ignore[union-attr]
    rules = Rules()

    def match(deals: int, seed: int, name: str):
        agents = {"heuristic": make_agent("heuristic", rules), "greedy": make_agent("greedy", rules)}
        result = round_robin(rules, agents, deals, seed=seed, batch=3, progress=False, boot=0)
        write_outputs(result, tmp_path / name, plot=False)
        return result["pairs"][0], tmp_path / f"{name}.json"

    whole, _ = match(6, 0, "whole")
    paths = [match(3, seed, f"chunk{seed}")[1] for seed in (0, 3)]
    pooled = pool.pool(paths)
    assert (pooled["deals"], pooled["seeds"], pooled["contiguous"]) == (6, [0, 5], True)
    assert pooled["mean_diff"] == pytest.approx(whole["mean_diff"])
    assert pooled["diff_ci95"] == pytest.approx(whole["diff_ci95"])
    assert pooled["win_rate"] == pytest.approx(whole["win_rate"])
    with pytest.raises(SystemExit, match="overlap"):
        pool.pool([*paths, tmp_path / "whole.json"])
