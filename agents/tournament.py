"""Round-robin tournaments with duplicate deals, confidence intervals and Elo.

Every pair of agents plays each of ``deals`` deals once per seating, on the
same seed (duplicate play: both agents get the same cards, which removes most
of the luck of the deal). With two sides (two players, or two partnerships,
whose teams swap seats, C2) the two seatings swap the sides. With more sides
(three or four players each for himself, classic canasta's three or six) each
agent sits alone on every side in turn against the other agent on all the
others: ``2 × sides`` seatings, so that a deal favours neither. A hand's
difference is the lone agent's score minus the mean score of the other
agent's sides. For each pair the harness reports

* the mean hand-score difference (first agent minus second) per deal — the
  mean over the deal's seatings — with a 95% normal confidence interval over
  deals;
* the first agent's win rate over hands (a draw counts half; with more sides,
  against the mean of the others), with a 95% interval computed the same way
  from the per-deal win shares;
* Elo ratings fitted by maximum likelihood to every hand result of the
  tournament (Bradley–Terry on the Elo scale, mean rating 1500), with
  bootstrap intervals over deals.

Results go to JSON and CSV files and a plot; a tqdm bar shows progress.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kanaszta_env import Rules

from .base import Agent, play_batch
from .records import GameRecord, make_record, rules_to_dict

Z95 = 1.959963984540054
ELO_SCALE = 400.0 / math.log(10.0)


def mean_ci(x: Sequence[float] | np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Mean of ``x`` and its normal confidence interval ``mean ± z·s/√n``."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        raise ValueError("mean_ci needs at least one value")
    m = float(x.mean())
    if x.size == 1:
        return m, m, m
    half = z * float(x.std(ddof=1)) / math.sqrt(x.size)
    return m, m - half, m + half


def _check_counts(deals: int, batch: int) -> None:
    """``deals`` and ``batch`` must be positive (no deals: no means; a zero batch: no progress)."""
    for name, value in (("deals", deals), ("batch", batch)):
        if value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value}")


def hand_outcome(score_a: np.ndarray, score_b: np.ndarray) -> np.ndarray:
    """1 where A scored more, 0.5 on a tie, 0 where B scored more."""
    return np.where(score_a > score_b, 1.0, np.where(score_a == score_b, 0.5, 0.0))


def fit_elo(
    n: int, results: Sequence[tuple[int, int, float, float]], prior_draws: float = 0.5, iters: int = 100
) -> np.ndarray:
    """Elo ratings (mean 1500) fitted by maximum likelihood.

    ``results`` holds ``(i, j, score_i, games)``: player ``i`` scored
    ``score_i`` points (wins + draws/2) in ``games`` games against ``j``, with
    ``P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))``. ``prior_draws``
    virtual draws per pair keep ratings finite when one side wins everything.
    """
    pairs: dict[tuple[int, int], list[float]] = {}
    for i, j, s, g in results:
        if i == j:
            raise ValueError("a player cannot play himself")
        key, sign = ((i, j), 1.0) if i < j else ((j, i), -1.0)
        acc = pairs.setdefault(key, [prior_draws / 2.0, prior_draws])
        acc[0] += s if sign > 0 else g - s
        acc[1] += g
    r = np.zeros(n)  # natural-log units, converted to Elo at the end
    for _ in range(iters):
        grad = np.zeros(n)
        hess = np.zeros((n, n))
        for (i, j), (s, g) in pairs.items():
            p = 1.0 / (1.0 + math.exp(r[j] - r[i]))
            grad[i] += s - g * p
            grad[j] -= s - g * p
            w = g * p * (1.0 - p)
            hess[i, i] -= w
            hess[j, j] -= w
            hess[i, j] += w
            hess[j, i] += w
        # Newton step in the subspace of zero-sum ratings (the likelihood ignores a shift)
        step = np.linalg.lstsq(hess - 1.0 / n, -grad, rcond=None)[0]
        r += step - step.mean()
        if np.abs(step).max() < 1e-10:
            break
    return 1500.0 + ELO_SCALE * (r - r.mean())


@dataclass
class PairResult:
    """Duplicate results of agent ``a`` against agent ``b``."""

    a: str
    b: str
    deals: int
    diff: np.ndarray = field(repr=False)  # (deals,) mean over the deal's hands of a's score minus b's
    wins: np.ndarray = field(repr=False)  # (deals,) a's share of the deal's hands won (draws half)
    score_a: np.ndarray = field(repr=False)  # (deals, seatings) a's scores (:func:`seatings`' order)
    score_b: np.ndarray = field(repr=False)
    seconds: float = 0.0  # wall-clock time of the games

    def summary(self) -> dict[str, Any]:
        m, lo, hi = mean_ci(self.diff)
        w, wlo, whi = mean_ci(self.wins)
        return {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "hands": self.score_a.size,
            "mean_diff": m,
            "diff_ci95": [lo, hi],
            "win_rate": w,
            "win_ci95": [max(wlo, 0.0), min(whi, 1.0)],
            "mean_score_a": float(self.score_a.mean()),
            "mean_score_b": float(self.score_b.mean()),
            "seconds": round(self.seconds, 1),
        }


def seatings(sides: Sequence[int]) -> np.ndarray:
    """(H, seats) the agent (0: a, 1: b) of every seat in each hand of a duplicate deal: a on
    side 0 and b on side 1, then the sides swapped; with more than two sides, a alone on each
    side in turn, then b alone on each."""
    side = np.asarray(sides)
    count = int(side.max()) + 1
    if count < 2:
        raise ValueError("a duplicate match needs two sides or more")
    alone = np.array([side != k for k in range(count)], dtype=np.int64)  # a on side k, b elsewhere
    return np.concatenate([alone, 1 - alone]) if count > 2 else alone


def _side_scores(scores: np.ndarray, sides: np.ndarray, mine: np.ndarray) -> np.ndarray:
    """(games,) the mean score of the sides whose seats ``mine`` (games, seats) marks (every
    seat of a side scores its side's score)."""
    firsts = np.unique(sides, return_index=True)[1]  # a seat of each side
    marked = mine[:, firsts]
    return (scores[:, firsts] * marked).sum(axis=1) / marked.sum(axis=1)


def play_pair(
    rules: Rules,
    a: Agent,
    b: Agent,
    deals: int,
    seed: int = 0,
    batch: int = 256,
    names: tuple[str, str] | None = None,
    progress: Any = None,
    records: list[GameRecord] | None = None,
) -> PairResult:
    """Play ``deals`` duplicate deals of ``a`` against ``b`` (deal ``d`` uses
    seed ``seed + d`` in every seating of :func:`seatings`). ``progress`` is a tqdm bar
    advanced by finished games; finished games are appended to ``records`` if given."""
    sides = np.array(rules.sides())
    _check_counts(deals, batch)
    seating = seatings(sides)
    hands = len(seating)
    name_a, name_b = names or (a.name, b.name)
    started = time.perf_counter()
    score_a, score_b = np.zeros((deals, hands)), np.zeros((deals, hands))
    for start in range(0, deals, batch):
        d = np.arange(start, min(start + batch, deals))
        seeds = np.repeat(seed + d, hands).astype(np.uint64)
        seats = np.tile(seating, (len(d), 1))
        done_before = [0]

        def tick(finished: int, done_before: list[int] = done_before) -> None:
            if progress is not None and finished > done_before[0]:
                progress.update(finished - done_before[0])
                done_before[0] = finished

        res = play_batch(rules, [a, b], seats, seeds, record=records is not None, on_step=tick)
        scores = np.asarray(res.scores, dtype=np.float64)
        score_a[d] = _side_scores(scores, sides, seats == 0).reshape(len(d), hands)
        score_b[d] = _side_scores(scores, sides, seats == 1).reshape(len(d), hands)
        if records is not None:
            for k in range(len(seeds)):
                players = [(name_a, name_b)[i] for i in seating[k % hands]]
                records.append(
                    make_record(rules, res.actions[k], seed=int(seeds[k]), players=players,
                                scores=res.scores[k].tolist())
                )  # fmt: skip
    diff, wins = (score_a - score_b).mean(axis=1), hand_outcome(score_a, score_b).mean(axis=1)
    return PairResult(name_a, name_b, deals, diff, wins, score_a, score_b, time.perf_counter() - started)


def elo_from_pairs(names: Sequence[str], pairs: Sequence[PairResult], boot: int = 0, seed: int = 0) -> dict:
    """Elo ratings from every hand of ``pairs``; with ``boot`` > 0 also 95%
    bootstrap intervals (deals resampled within each pair)."""
    index = {n: i for i, n in enumerate(names)}

    def ratings(sel: list[np.ndarray] | None) -> np.ndarray:
        results = []
        for k, p in enumerate(pairs):
            w = p.wins if sel is None else p.wins[sel[k]]
            results.append((index[p.a], index[p.b], 2.0 * float(w.sum()), 2.0 * len(w)))
        return fit_elo(len(names), results)

    out: dict[str, Any] = {"rating": dict(zip(names, ratings(None).round(1).tolist(), strict=True))}
    if boot > 0:
        rng = np.random.default_rng(seed)
        samples = np.array([ratings([rng.integers(0, p.deals, p.deals) for p in pairs]) for _ in range(boot)])
        lo, hi = np.percentile(samples, [2.5, 97.5], axis=0)
        out["ci95"] = {n: [round(float(lo[i]), 1), round(float(hi[i]), 1)] for i, n in enumerate(names)}
    return out


def round_robin(
    rules: Rules,
    agents: dict[str, Agent],
    deals: int,
    seed: int = 0,
    batch: int = 256,
    progress: bool = True,
    records: list[GameRecord] | None = None,
    boot: int = 200,
    pairs: Sequence[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """Every pair of ``agents`` (or only the given ``pairs``) plays ``deals``
    duplicate deals; returns a JSON-ready dict with the pair summaries, Elo
    ratings and the settings."""
    names = list(agents)
    if len(names) < 2:
        raise ValueError("a tournament needs at least two agents")
    _check_counts(deals, batch)
    pairs_ab = list(itertools.combinations(names, 2)) if pairs is None else [tuple(p) for p in pairs]
    for a, b in pairs_ab:
        if a not in agents or b not in agents or a == b:
            raise ValueError(f"bad pair ({a!r}, {b!r}): both must be different agents of the tournament")
    from tqdm.auto import tqdm

    results = []
    with tqdm(total=2 * deals * len(pairs_ab), unit="hand", desc="tournament", disable=not progress) as bar:
        for na, nb in pairs_ab:
            bar.set_postfix_str(f"{na} vs {nb}")
            results.append(
                play_pair(rules, agents[na], agents[nb], deals, seed, batch, (na, nb), bar, records)
            )
    return {
        "settings": {
            "rules": rules_to_dict(rules),
            "deals": deals,
            "seed": seed,
            "agents": names,
            "pairs": [list(p) for p in pairs_ab],
        },
        "pairs": [r.summary() for r in results],
        "elo": elo_from_pairs(names, results, boot=boot, seed=seed),
        "per_deal": {f"{r.a} vs {r.b}": {"diff": r.diff.tolist(), "wins": r.wins.tolist()} for r in results},
    }


def format_table(result: dict[str, Any]) -> str:
    """A plain-text table of a tournament result."""
    lines = [f"{'pair':<28} {'deals':>6} {'mean diff':>10} {'95% CI':>20} {'win rate':>9} {'95% CI':>15}"]
    for p in result["pairs"]:
        lo, hi = p["diff_ci95"]
        wlo, whi = p["win_ci95"]
        lines.append(
            f"{p['a'] + ' vs ' + p['b']:<28} {p['deals']:>6} {p['mean_diff']:>10.1f} "
            f"{f'[{lo:.1f}, {hi:.1f}]':>20} {p['win_rate']:>9.3f} {f'[{wlo:.3f}, {whi:.3f}]':>15}"
        )
    elo = result["elo"]
    lines.append("\nElo: " + ", ".join(
        f"{n} {r:.0f}" + (f" [{elo['ci95'][n][0]:.0f}, {elo['ci95'][n][1]:.0f}]" if "ci95" in elo else "")
        for n, r in sorted(elo["rating"].items(), key=lambda kv: -kv[1])
    ))  # fmt: skip
    return "\n".join(lines)


def write_outputs(result: dict[str, Any], prefix: str | Path, plot: bool = True) -> list[Path]:
    """Write ``prefix.json``, ``prefix.csv`` (one row per pair) and ``prefix.png``."""
    prefix = Path(prefix)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    paths = [prefix.with_suffix(".json"), prefix.with_suffix(".csv")]
    paths[0].write_text(json.dumps(result, indent=1) + "\n")
    with paths[1].open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "b", "deals", "hands", "mean_diff", "diff_lo", "diff_hi", "win_rate", "win_lo",
                    "win_hi", "mean_score_a", "mean_score_b", "elo_a", "elo_b"])  # fmt: skip
        elo = result["elo"]["rating"]
        for p in result["pairs"]:
            w.writerow([p["a"], p["b"], p["deals"], p["hands"], round(p["mean_diff"], 2),
                        *(round(x, 2) for x in p["diff_ci95"]), round(p["win_rate"], 4),
                        *(round(x, 4) for x in p["win_ci95"]), round(p["mean_score_a"], 1),
                        round(p["mean_score_b"], 1), elo[p["a"]], elo[p["b"]]])  # fmt: skip
    if plot:
        paths.append(plot_result(result, prefix.with_suffix(".png")))
    return paths


def plot_result(result: dict[str, Any], path: str | Path) -> Path:
    """Elo ratings (with bootstrap intervals) and the mean hand-score difference
    of every pair (with 95% intervals), side by side."""
    from matplotlib.figure import Figure  # no pyplot: the caller's backend stays as it is

    elo = result["elo"]
    names = sorted(elo["rating"], key=lambda n: elo["rating"][n])
    fig = Figure(figsize=(11, 0.6 * max(len(result["pairs"]), len(names)) + 2.5))
    ax1, ax2 = fig.subplots(1, 2)
    ratings = [elo["rating"][n] for n in names]
    err = None
    if "ci95" in elo:
        err = np.array(
            [[r - elo["ci95"][n][0], elo["ci95"][n][1] - r] for n, r in zip(names, ratings, strict=True)]
        ).T
    ax1.barh(names, ratings, xerr=err, color="tab:blue", alpha=0.8)
    ax1.set_xlim(min(ratings) - 150, max(ratings) + 150)
    ax1.set_xlabel("Elo (mean 1500)")
    ax1.set_title("Elo ratings, 95% bootstrap interval")
    labels = [f"{p['a']} vs {p['b']}" for p in result["pairs"]]
    means = np.array([p["mean_diff"] for p in result["pairs"]])
    cis = np.array([p["diff_ci95"] for p in result["pairs"]])
    ax2.errorbar(means, labels, xerr=np.abs(cis.T - means), fmt="o", capsize=4)
    ax2.axvline(0.0, color="grey", lw=1)
    ax2.set_xlabel("mean hand-score difference per deal")
    ax2.set_title("duplicate deals, 95% interval")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return Path(path)


__all__ = [
    "PairResult",
    "elo_from_pairs",
    "fit_elo",
    "format_table",
    "hand_outcome",
    "mean_ci",
    "play_pair",
    "plot_result",
    "round_robin",
    "write_outputs",
]
