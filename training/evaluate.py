"""Evaluation of trained agents: matches against the bots, the final report,
the learning curve, and ``kanaszta eval CHECKPOINT…``.

Matches go through the tournament harness of ``agents.tournament``: duplicate
deals, every deal played twice with the seats swapped, so the luck of the
cards cancels in the paired difference.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from agents.base import Agent
from agents.registry import RLLIB_PREFIX
from agents.tournament import format_table, play_pair, round_robin, seatings, write_outputs
from kanaszta_env import Rules
from kanaszta_env.cli import UsageError

from .config import TrainConfig, bot_list
from .opponents import make_bot


def duplicate_match(a: Agent, b: Agent, rules: Rules, hands: int, seed: int, batch: int = 1000) -> dict:
    """``a`` against ``b`` over ``hands`` hands of duplicate deals (each deal played in every
    seating of :func:`agents.tournament.seatings`: two with two sides; ``hands`` must be a
    multiple of their number), played by the tournament harness
    (:func:`agents.tournament.play_pair`).

    Returns the mean hand-score difference of ``a`` with its 95 % interval (over
    deals), the win rate (draws count half, as in the harness) with its interval,
    and the strict shares of hands won, drawn and lost.
    """
    per_deal = len(seatings(rules.sides()))
    if hands < per_deal or hands % per_deal:
        raise ValueError(
            f"hands must be a positive multiple of {per_deal} (the seatings of a duplicate deal), got {hands}"
        )
    result = play_pair(rules, a, b, hands // per_deal, seed=seed, batch=batch)
    summary = result.summary()
    diffs = result.score_a - result.score_b  # (deals, seatings) per hand
    return {
        "agent": a.name,
        "bot": b.name,
        "hands": summary["hands"],
        "mean_diff": summary["mean_diff"],
        "diff_ci": summary["diff_ci95"],
        "win_rate": summary["win_rate"],
        "win_ci": summary["win_ci95"],
        "won": float((diffs > 0).mean()),
        "drawn": float((diffs == 0).mean()),
        "lost": float((diffs < 0).mean()),
    }


def elo_difference(score: float) -> float:
    """Elo difference implied by an expected score (wins + half the draws), clipped to ±800."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return float(np.clip(400 * math.log10(score / (1 - score)), -800, 800))


def evaluate_against_bots(
    agent: Agent, bots: Sequence[str], rules: Rules, hands: int, seed: int
) -> list[dict]:
    """One duplicate match of ``agent`` against each named bot, of ``hands`` rounded up to
    whole duplicate deals (a three-sided table plays each deal in six seatings)."""
    per_deal = len(seatings(rules.sides()))
    hands = -(-hands // per_deal) * per_deal
    rows = []
    for name in bots:
        bot = make_bot(name, rules, seed=seed)
        row = duplicate_match(agent, bot, rules, hands, seed)
        row["bot"] = name
        row["elo_vs_bot"] = elo_difference(row["win_rate"])
        rows.append(row)
    return rows


def format_rows(rows: Sequence[dict]) -> str:
    """A plain-text table of match rows (win rate: draws count half; won: strict share)."""
    lines = [
        f"{'agent':<22} {'vs':<10} {'hands':>6} {'score diff [95% CI]':>28} "
        f"{'win rate [95% CI]':>24} {'won':>6} {'Elo±':>6}"
    ]
    for r in rows:
        lo, hi = r["diff_ci"]
        wl, wh = r["win_ci"]
        lines.append(
            f"{r['agent']:<22} {r['bot']:<10} {r['hands']:>6} "
            f"{r['mean_diff']:>+9.1f} [{lo:>+8.1f}, {hi:>+8.1f}] "
            f"{r['win_rate']:>8.1%} [{wl:.1%}, {wh:.1%}] {r['won']:>6.1%} {r.get('elo_vs_bot', 0):>+6.0f}"
        )
    return "\n".join(lines)


def periodic_evaluation(
    agent: Agent,
    config: TrainConfig,
    history: list[dict],
    step: int,
    started: float,
    best: float,
    save_best: Callable[[], object],
    minutes_before: float = 0.0,
) -> tuple[list[dict], float]:
    """A run's evaluation of ``agent`` against ``config.eval_bots`` at learner decision ``step``:
    its rows (stamped with ``step`` and the minutes of training, ``minutes_before`` plus those since
    ``started``) appended to ``history`` and written to ``history.json``; on a score against
    ``config.best_bot()`` above ``best``, ``save_best()`` and ``best.json``. Returns the rows and
    the top score so far."""
    run_dir = Path(config.run_dir)
    bots = bot_list(config.eval_bots)
    rows = evaluate_against_bots(agent, bots, config.eval_rules(), config.eval_hands, config.eval_seed)
    for row in rows:
        row["step"] = step
        row["minutes"] = minutes_before + (time.time() - started) / 60
        history.append(row)
        if row["bot"] == config.best_bot() and row["mean_diff"] > best:
            best = row["mean_diff"]
            save_best()
            (run_dir / "best.json").write_text(json.dumps(row, indent=1), encoding="utf-8")
    (run_dir / "history.json").write_text(json.dumps(history, indent=1), encoding="utf-8")
    return rows, best


def write_report(
    agent: Agent, config: TrainConfig, steps: int, trained: int, seconds: float, **extra: str
) -> dict:
    """A run's final evaluation against ``config.final_eval_bots`` after ``steps`` learner decisions,
    ``trained`` of them in the ``seconds`` of this run; writes ``report.json`` and ``report.md`` to
    the run folder."""
    bots, seed = bot_list(config.final_eval_bots), config.eval_seed + 10_000_000
    rows = evaluate_against_bots(agent, bots, config.eval_rules(), config.final_eval_hands, seed)
    speed = {"train_steps_per_second": round(trained / max(seconds, 1e-9), 1)}
    extra = {"timesteps": steps, "train_seconds": round(seconds, 1), **speed, **extra}
    text = format_rows(rows)
    report = {"matches": rows, **extra, "text": text}
    run_dir = Path(config.run_dir)
    (run_dir / "report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    md = ["# Training report", "", *[f"- {k}: {v}" for k, v in extra.items()], "", "```", text, "```", ""]
    (run_dir / "report.md").write_text("\n".join(md), encoding="utf-8")
    return report


def plot_learning_curve(history: Sequence[dict], path: Path, title: str = "") -> None:
    """Score difference (with 95 % intervals) against each bot over learner decisions and over
    wall time (minutes of training, a resumed run counting on), and the win rate."""
    from matplotlib.figure import Figure  # no pyplot: the caller's backend stays as it is

    fig = Figure(figsize=(15, 4))
    ax1, ax2, ax3 = fig.subplots(1, 3)
    for bot in dict.fromkeys(r["bot"] for r in history):
        rows = [r for r in history if r["bot"] == bot]
        mean = np.array([r["mean_diff"] for r in rows])
        lo, hi = np.array([r["diff_ci"] for r in rows], dtype=float).T
        for ax, x in (
            (ax1, np.array([r["step"] for r in rows])),
            (ax2, np.array([r.get("minutes", np.nan) for r in rows])),
        ):
            ax.plot(x, mean, marker="o", ms=3, label=f"vs {bot}")
            ax.fill_between(x, lo, hi, alpha=0.2)
        ax3.plot(
            [r["step"] for r in rows], [r["win_rate"] for r in rows], marker="o", ms=3, label=f"vs {bot}"
        )
    for ax, xlabel in ((ax1, "learner decisions"), (ax2, "wall time of training (minutes)")):
        ax.axhline(0, color="grey", lw=0.8)
        ax.set(xlabel=xlabel, ylabel="mean hand-score difference", title="score difference (95% CI)")
    ax3.set(xlabel="learner decisions", ylabel="share of hands won", title="win rate", ylim=(0, 1))
    for ax in (ax1, ax2, ax3):
        ax.legend()
        ax.grid(alpha=0.3)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def run_eval(args: argparse.Namespace) -> int:
    """``kanaszta eval``: a round robin of the checkpoints and the bots (duplicate deals,
    :func:`agents.tournament.round_robin`); prints the table and the Elo ratings."""
    from agents.checkpoint import load_policy
    from agents.hinted import load_policy_file

    rules = Rules(variant=args.variant, num_players=args.num_players or None)
    bots = bot_list(args.bots)
    names = [*args.checkpoints, *bots]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise UsageError(f"each checkpoint and bot may appear once; repeated: {', '.join(repeated)}")
    if len(names) < 2:
        raise UsageError("a tournament needs at least two agents: give more checkpoints or --bots")
    # the cheap checks first: bad bot names and missing files fail before any checkpoint is loaded
    players: dict[str, Agent] = {name: make_bot(name, rules, seed=args.seed) for name in bots}
    rllib = [path for path in args.checkpoints if path.startswith(RLLIB_PREFIX)]
    missing = [path for path in args.checkpoints if path not in rllib and not Path(path).is_file()]
    missing += [path for path in rllib if not Path(path[len(RLLIB_PREFIX) :]).is_dir()]
    if missing:
        raise UsageError(f"no checkpoint at {', '.join(missing)}")
    agents: dict[str, Agent] = {}
    for path in args.checkpoints:
        if path in rllib:  # an RLlib checkpoint folder (agents.rllib_checkpoint)
            from agents.rllib_checkpoint import load_rllib_checkpoint

            try:
                agent = load_rllib_checkpoint(path[len(RLLIB_PREFIX) :], path, not args.stochastic)
            except ValueError as error:
                raise UsageError(str(error)) from None
        elif path.endswith(".npz"):  # an exported policy (kanaszta export)
            agent = load_policy_file(path, name=path, deterministic=not args.stochastic)
        else:
            agent = load_policy(path, deterministic=not args.stochastic)
        agents[agent.name] = agent
    agents.update(players)
    deals = max(1, args.hands // len(seatings(rules.sides())))
    # one batch per pairing: a batch steps until its longest hand ends, so bigger is faster
    result = round_robin(
        rules, agents, deals=deals, seed=args.seed, batch=min(deals, args.batch), progress=True
    )
    print(format_table(result))
    if args.out:
        for path in write_outputs(result, args.out):
            print("wrote", path)
    return 0
