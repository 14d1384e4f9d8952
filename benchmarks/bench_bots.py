"""Time per decision of each bot.

Decision points (observation + legal mask, every phase) are collected from
seeded ``HeuristicBot`` self-play; each bot then decides all of them in one
batched call, after a warm-up call that compiles it. Prints CPU time per
decision (median of ``--repeats`` runs); for a search bot also the share of
decisions it searched and the time per searched decision.

    python benchmarks/bench_bots.py [--games 32] [--repeats 3] [--search "search:samples=12"]
    python benchmarks/bench_bots.py --variant pl --players 4     # classic canasta's bots
    python benchmarks/bench_bots.py --variant tr --players 4     # Turkish kanasta's bots
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def collect(rules, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    from agents.registry import make_agent
    from kanaszta_env import GameBatch

    batch = GameBatch(rules, games)
    batch.reset(seed=seed)
    bot = make_agent("heuristic", rules)
    obs, masks = [], []
    while not batch.done.all():
        mask = batch.legal_mask().copy()
        live = ~batch.done
        o = batch.observe()
        obs.append(o[live].copy())
        masks.append(mask[live])
        batch.step(bot.act(o, mask))
    return np.concatenate(obs), np.concatenate(masks)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=32, help="self-play hands that supply the decisions")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search", action="append", default=None, help="search bot spec(s) to time")
    parser.add_argument("--variant", default="2003-02", help="rules preset: 2003-02, 2003-01, pl, sk, tr")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()

    from agents.registry import make_agent
    from kanaszta_env import Rules
    from kanaszta_env.observation import split

    rules = Rules(variant=args.variant, num_players=args.players)
    obs, masks = collect(rules, args.games, args.seed)
    phase = split(obs, rules)["phase"].argmax(axis=1)
    names = {"classic": "draw/meld/discard/pickup/over/answer", "turkish": "draw/meld/discard/over"}.get(
        rules.family, "cut/draw/meld/discard/pickup/over"
    )
    by_phase = np.bincount(phase, minlength=names.count("/") + 1).tolist()
    print(f"{len(obs)} decisions from {args.games} hands of {rules.variant} ({names}: {by_phase})")
    specs = ["random", "greedy", "heuristic", *(args.search or ["search"])]
    for spec in specs:
        bot = make_agent(spec, rules)
        bot.act(obs[:64], masks[:64])  # compile / warm up
        before = getattr(bot, "searched", 0)
        times = []
        for _ in range(args.repeats if not spec.startswith("search") else 1):
            t0 = time.process_time()
            bot.act(obs, masks)
            times.append(time.process_time() - t0)
        per = statistics.median(times) / len(obs)
        line = f"{spec:<28} {per * 1e6:10.1f} us per decision"
        if hasattr(bot, "searched"):  # SimulatedSearchBot counts the decisions it searched
            searched = bot.searched - before
            each = per * len(obs) / max(searched, 1) * 1e3
            line += f"   searched {searched / len(obs):.0%} of decisions, {each:.1f} ms each"
        print(line)


if __name__ == "__main__":
    main()
