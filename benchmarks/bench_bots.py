"""Time per decision of each bot.

Decision points (observation + legal mask, every phase) are collected from
seeded ``HeuristicBot`` self-play; each bot then decides all of them in one
batched call, after a warm-up call that compiles it. Prints CPU time per
decision (median of ``--repeats`` runs); for ``SearchBot`` also the share of
decisions it searched and the time per searched decision.

    python benchmarks/bench_bots.py [--games 32] [--repeats 3] [--search "search:samples=12"]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def collect(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    from agents.heuristic import HeuristicBot
    from kanaszta_env import GameBatch, Rules
    from kanaszta_env.encoding import encode

    rules = Rules()
    batch = GameBatch(rules, games)
    batch.reset(seed=seed)
    bot = HeuristicBot(rules)
    obs, masks = [], []
    while not batch.done.all():
        mask = batch.legal_mask().copy()
        live = ~batch.done
        mask[~live, 2] = True
        o = encode(batch.state, rules, batch.to_move.astype(np.int64))
        obs.append(o[live])
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
    args = parser.parse_args()

    from agents.registry import make_agent
    from kanaszta_env import Rules

    obs, masks = collect(args.games, args.seed)
    phases = np.bincount(obs[:, :6].argmax(axis=1), minlength=6)
    by_phase = phases[:5].tolist()
    print(f"{len(obs)} decisions from {args.games} hands (cut/draw/meld/discard/pickup: {by_phase})")
    rules = Rules()
    specs = ["random", "greedy", "heuristic", *(args.search or ["search"])]
    for spec in specs:
        bot = make_agent(spec, rules)
        bot.act(obs[:64], masks[:64])  # compile / warm up
        times = []
        for _ in range(args.repeats if not spec.startswith("search") else 1):
            t0 = time.process_time()
            bot.act(obs, masks)
            times.append(time.process_time() - t0)
        per = statistics.median(times) / len(obs)
        line = f"{spec:<28} {per * 1e6:10.1f} us per decision"
        values = getattr(bot, "last_values", None)
        if values is not None:
            searched = int((~np.isnan(values[:, 1])).sum())
            each = per * len(obs) / max(searched, 1) * 1e3
            line += f"   searched {searched / len(obs):.0%} of decisions, {each:.1f} ms each"
        print(line)


if __name__ == "__main__":
    main()
