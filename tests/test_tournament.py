"""Tournament arithmetic on fixed inputs, duplicate seating, outputs, the CLI,
and exact replay of saved game records."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest

from agents import GreedyBot, RandomBot
from agents.cli import main
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


def test_mean_ci_on_fixed_values() -> None:
    """mean ± 1.96·s/√n with the sample standard deviation."""
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    s = math.sqrt(((1.5**2) * 2 + (0.5**2) * 2) / 3)  # 1.2910
    assert m == 2.5
    assert lo == pytest.approx(2.5 - Z95 * s / 2) and hi == pytest.approx(2.5 + Z95 * s / 2)
    assert mean_ci([7.0]) == (7.0, 7.0, 7.0)
    with pytest.raises(ValueError):
        mean_ci([])


def test_hand_outcome() -> None:
    out = hand_outcome(np.array([10, 5, 3]), np.array([5, 5, 4]))
    np.testing.assert_array_equal(out, [1.0, 0.5, 0.0])


def test_elo_of_a_75_percent_score() -> None:
    """75% against one opponent is 400·log10(3) ≈ 190.8 Elo; mean rating 1500."""
    r = fit_elo(2, [(0, 1, 75.0, 100.0)], prior_draws=0.0)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert r.mean() == pytest.approx(1500.0)


def test_elo_is_symmetric_and_transitive() -> None:
    """Even results give equal ratings; a chain A > B > C orders the ratings,
    and the result does not depend on which side a pair is written from."""
    assert np.allclose(fit_elo(2, [(0, 1, 50.0, 100.0)]), [1500.0, 1500.0])
    chain = fit_elo(3, [(0, 1, 70.0, 100.0), (1, 2, 70.0, 100.0), (0, 2, 85.0, 100.0)])
    assert chain[0] > chain[1] > chain[2]
    flipped = fit_elo(3, [(1, 0, 30.0, 100.0), (2, 1, 30.0, 100.0), (2, 0, 15.0, 100.0)])
    np.testing.assert_allclose(chain, flipped)


def test_elo_stays_finite_after_a_clean_sweep() -> None:
    """The virtual draws of the prior keep a 100% score finite."""
    r = fit_elo(2, [(0, 1, 40.0, 40.0)])
    assert np.isfinite(r).all() and 300 < r[0] - r[1] < 1000


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


def test_duplicate_deals_swap_seats_on_the_same_cards() -> None:
    """A deterministic bot against itself on duplicate deals scores exactly
    zero on every deal: both seatings are the same game with the names swapped."""
    rules = Rules()
    res = play_pair(rules, GreedyBot(rules), GreedyBot(rules), deals=6, seed=40, batch=4)
    np.testing.assert_array_equal(res.diff, np.zeros(6))
    np.testing.assert_array_equal(res.score_a[:, 0], res.score_b[:, 1])


def test_seatings_put_each_agent_alone_on_every_side_when_there_are_more_than_two() -> None:
    """Two sides: a on side 0, then the sides swapped. Three players each for himself: each
    agent alone on every seat in turn, the other agent on the rest."""
    assert seatings([0, 1]).tolist() == [[0, 1], [1, 0]]
    assert seatings([0, 1, 0, 1]).tolist() == [[0, 1, 0, 1], [1, 0, 1, 0]]
    three = seatings([0, 1, 2])
    assert three.tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]


def test_heuristic_beats_random_at_a_three_player_table() -> None:
    """Díszített with three players: the lone agent's score against the others' mean, in
    every seating; the stronger bot's difference is positive, and the mirror pair's negative."""
    rules = Rules(num_players=3)
    res = play_pair(rules, make_agent("heuristic", rules), make_agent("random", rules), deals=8, seed=5)
    assert res.summary()["hands"] == 48 and res.summary()["diff_ci95"][0] > 0
    ab = play_pair(rules, make_agent("heuristic", rules), GreedyBot(rules), deals=4, seed=5)
    ba = play_pair(rules, GreedyBot(rules), make_agent("heuristic", rules), deals=4, seed=5)
    np.testing.assert_allclose(ba.diff, -ab.diff)  # deterministic bots: the same games, mirrored


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


def test_cli_tournament(tmp_path, capsys) -> None:
    """``python -m agents.cli tournament`` prints the table and writes the files and records."""
    code = main(["tournament", "random", "greedy", "--deals", "2", "--no-progress", "--bootstrap", "5",
                 "--out", str(tmp_path / "cli"), "--records", str(tmp_path / "games.jsonl")])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "random vs greedy" in out and "Elo" in out
    assert (tmp_path / "cli.json").exists() and (tmp_path / "cli.csv").exists()
    assert len(load_jsonl(tmp_path / "games.jsonl")) == 4


def test_records_replay_exactly(tmp_path) -> None:
    """Saved tournament records (seed + action names) replay to the same end and scores."""
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


def test_replay_detects_a_changed_record() -> None:
    """A record whose actions were altered no longer replays (illegal move or other result)."""
    rules = Rules()
    records: list[GameRecord] = []
    play_pair(rules, GreedyBot(rules), GreedyBot(rules), deals=1, seed=3, records=records)
    rec = records[0]
    cut = GameRecord(**{**rec.to_dict(), "actions": rec.actions[:-1]})
    with pytest.raises(ValueError, match="not over"):
        replay(cut)
    wrong = GameRecord(**{**rec.to_dict(), "scores": [s + 1 for s in rec.scores]})
    with pytest.raises(ValueError, match="differ"):
        replay(wrong)
    swapped = rec.to_dict()
    swapped["actions"] = ["keep" if a == "leave" else "leave" if a == "keep" else a for a in rec.actions]
    with pytest.raises(ValueError):
        replay(GameRecord(**swapped))


def test_make_agent_names_and_errors() -> None:
    rules = Rules()
    search = make_agent("search:samples=3,horizon=2,modes=0", rules)
    assert (search.samples, search.horizon, search.kit.modes) == (3, 2, False)
    assert make_agent("heuristic:min_left=6", rules).params[0] == 6.0
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("nobody", rules)
    with pytest.raises(ValueError, match="unknown search option"):
        make_agent("search:depth=3", rules)


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
