"""How Turkish kanasta's heuristic bot plays: self-play outcomes, duels and speed.

Self-play: four copies of a bot deal ``--hands`` hands (seeds 0, 1, ...) and the
script prints the share ending by going out, Fis taken per hand, decisions per
hand and CPU time per decision. Duels: :func:`agents.tournament.play_pair` on
duplicate deals (seeds from ``--seed``), the mean difference per hand with its
95% interval and the win rate. ``--old REV`` loads ``TurkishHeuristicBot`` from
``agents/games/turkish/bots.py`` at git revision ``REV`` for comparison.

    python benchmarks/bench_turkish_bots.py --hands 200 --deals 1000 --old HEAD
    python benchmarks/bench_turkish_bots.py --deals 1000 --duel ppo:heuristic
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time

import numpy as np


def old_bot(rev: str, rules):
    """``TurkishHeuristicBot`` as it was at git revision ``rev``, named ``old``."""
    source = subprocess.run(
        ["git", "show", f"{rev}:agents/games/turkish/bots.py"], capture_output=True, text=True, check=True
    ).stdout
    name = "agents.games.turkish._old_bots"
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader=None))
    module.__package__ = "agents.games.turkish"
    sys.modules[name] = module
    exec(compile(source, f"{rev}:bots.py", "exec"), module.__dict__)
    bot = module.TurkishHeuristicBot(rules)
    bot.name = "old"
    return bot


class Timed:
    """Wraps an agent and adds up the time of its ``act`` calls and the decisions made."""

    def __init__(self, agent) -> None:
        self.agent, self.seconds, self.decisions = agent, 0.0, 0

    def __getattr__(self, name: str):
        return getattr(self.agent, name)

    def act(self, obs, mask, slots=None):
        start = time.process_time()
        out = self.agent.act(obs, mask, slots)
        self.seconds += time.process_time() - start
        self.decisions += len(out)
        return out


def self_play(rules, agent, hands: int) -> str:
    """One line: going-out share, Fis taken, decisions per hand, time per decision."""
    from agents.base import play_batch
    from kanaszta_env import GameBatch

    timed = Timed(agent)
    seeds = np.arange(hands)
    result = play_batch(rules, [timed], np.zeros((hands, 4), dtype=np.int64), seeds, record=True)
    games = GameBatch(rules, hands)  # replay to read the Fis (the result keeps only scores)
    games.reset(seed=seeds)
    for step in range(max(len(a) for a in result.actions)):
        games.step(np.array([a[step] if step < len(a) else 0 for a in result.actions]))
    fis = (games.state.fi_taker >= 0).sum(axis=1)
    out = (result.end_reason == 1).mean()
    return (
        f"{agent.name:10s} out {out:6.1%}  exhausted {(result.end_reason == 2).mean():6.1%}  "
        f"Fis/hand {fis.mean():.2f} (both {np.mean(fis == 2):.0%})  "
        f"decisions/hand {result.decisions.sum(axis=1).mean():6.1f}  "
        f"act {1e6 * timed.seconds / timed.decisions:6.1f} us/decision"
    )


def duel(rules, a, b, deals: int, seed: int) -> str:
    """One line: ``a`` against ``b`` on duplicate deals."""
    from agents.tournament import play_pair

    r = play_pair(rules, a, b, deals=deals, seed=seed).summary()
    (lo, hi), (wlo, whi) = r["diff_ci95"], r["win_ci95"]
    return (
        f"{a.name} vs {b.name}: {r['mean_diff']:+.1f} per hand [{lo:+.1f}, {hi:+.1f}], "
        f"wins {r['win_rate']:.1%} [{wlo:.1%}, {whi:.1%}] ({r['hands']} hands, {r['seconds']} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=200, help="self-play hands per bot (0: none)")
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals per duel (0: none)")
    parser.add_argument("--seed", type=int, default=1_000_000, help="first duel seed")
    parser.add_argument("--old", default=None, help="git revision of the old heuristic bot")
    parser.add_argument(
        "--duel", action="append", default=None, help="a:b agent specs ('old' for the old bot)"
    )
    args = parser.parse_args()

    from agents.registry import make_agent
    from kanaszta_env import Rules

    rules = Rules(variant="tr")

    def agent(spec: str):
        return old_bot(args.old, rules) if spec == "old" else make_agent(spec, rules)

    if args.hands:
        for spec in ["heuristic"] + (["old"] if args.old else []):
            print(self_play(rules, agent(spec), args.hands), flush=True)
    duels = args.duel or (["heuristic:old"] if args.old else []) + ["heuristic:greedy", "heuristic:random"]
    if args.deals:
        for pair in duels:
            a, b = pair.split(":", 1)
            print(duel(rules, agent(a), agent(b), args.deals, args.seed), flush=True)


if __name__ == "__main__":
    main()
