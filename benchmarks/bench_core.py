"""Throughput of the batched rules core under uniformly random legal play.

Prints, for the compiled random-play kernel at B games on one core:
decisions/s and hands/s (median of several timed runs), the median number of
decisions per hand; then the same loop driven from Python through the public
``GameBatch`` API (legal_mask + sampling + validated step); and the numba
compilation time with an empty cache and the import time with a warm one.

With ``--against REF`` it measures the random-play and API-loop figures on
this tree and on commit REF side by side (``benchmarks/against.py``) and
prints both medians and the ratio new/old.

    python benchmarks/bench_core.py [--batch 1024] [--sweeps 200] [--repeats 5] [--against REF]
                                    [--variant V ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from against import Figures, add_arguments, compiled, dispatch, playout


def kernel_throughput(batch: int, sweeps: int, repeats: int, players: int, variant: str) -> dict:
    from kanaszta_env import GameBatch, Rules

    random_playout = playout(variant)

    games = GameBatch(Rules(num_players=players, variant=variant), batch_size=batch)
    games.reset(seed=0)
    seeds = np.arange(batch, dtype=np.uint64)
    rng = np.arange(batch, dtype=np.uint64) + np.uint64(10**9)
    lengths = np.zeros(100_000, dtype=np.int64)
    cfg = games.rules.to_config()
    random_playout(games.state, cfg, rng, 2, seeds, lengths)  # compile / warm up
    rates, hand_rates = [], []
    for _ in range(repeats):
        lengths[:] = 0
        t0 = time.perf_counter()
        decisions, hands = random_playout(games.state, cfg, rng, sweeps, seeds, lengths)
        dt = time.perf_counter() - t0
        rates.append(decisions / dt)
        hand_rates.append(hands / dt)
    return {
        "decisions_per_s": statistics.median(rates),
        "hands_per_s": statistics.median(hand_rates),
    }


def hand_lengths(players: int, variant: str, batch: int = 64, sweeps: int = 8000) -> np.ndarray:
    """Decisions of complete hands: a run long enough that every game's first
    hands finish (timed windows above would favour short hands)."""
    from kanaszta_env import GameBatch, Rules

    random_playout = playout(variant)

    games = GameBatch(Rules(num_players=players, variant=variant), batch_size=batch)
    games.reset(seed=7)
    seeds = np.arange(batch, dtype=np.uint64) + np.uint64(7)
    rng = np.arange(batch, dtype=np.uint64) + np.uint64(12345)
    lengths = np.zeros(100_000, dtype=np.int64)
    _, hands = random_playout(games.state, games.rules.to_config(), rng, sweeps, seeds, lengths)
    return lengths[: min(hands, len(lengths))]


def api_throughput(batch: int, steps: int, repeats: int) -> float:
    from kanaszta_env import GameBatch, Rules

    sample_uniform = compiled("sample_uniform")

    games = GameBatch(Rules(), batch_size=batch)
    games.reset(seed=0)
    rng = np.arange(batch, dtype=np.uint64)
    actions = np.zeros(batch, dtype=np.int64)
    rates = []
    for rep in range(repeats + 1):
        t0 = time.perf_counter()
        for i in range(steps):
            sample_uniform(games.legal_mask(), rng, actions)
            games.step(actions)
            done = games.done
            if done.any():
                games.reset(seed=1_000_000 * (rep + 1) + i * batch, which=done)
        if rep:  # the first round compiles
            rates.append(batch * steps / (time.perf_counter() - t0))
    return statistics.median(rates)


def compile_and_import_times() -> tuple[float, float]:
    code = (
        "import time; t=time.perf_counter();"
        "import numpy as np; from kanaszta_env import GameBatch, Rules;"
        "g=GameBatch(Rules(), batch_size=2); g.reset(seed=0); g.step(np.zeros(2, dtype=np.int64));"
        "g.legal_mask(); print(time.perf_counter()-t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
        warm = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
    return cold, warm


#: (players, variant) of the kernel figures (compared by --against)
CONFIGS = ((2, "2003-02"), (3, "2003-02"), (4, "2003-01"))
#: classic canasta's and Turkish kanasta's, printed beside them
CLASSIC_CONFIGS = ((4, "pl"), (4, "sk"), (4, "tr"))


def kernel_configs(args: argparse.Namespace) -> tuple[tuple[int, str], ...]:
    """The (players, variant) rows measured: those of the ``--variant`` options, else all."""
    rows = CONFIGS + CLASSIC_CONFIGS
    return tuple(r for r in rows if r[1] in args.variant) if args.variant else rows


def figures(args: argparse.Namespace) -> Figures:
    """One run of each figure compared by ``--against`` (with ``--variant``: those rows only)."""
    out: Figures = {
        f"kernel{players}{variant}": (
            f"core random play P={players} {variant} B={args.batch} decisions/s",
            lambda p=players, v=variant: kernel_throughput(args.batch, args.sweeps, 1, p, v)[
                "decisions_per_s"
            ],
        )
        for players, variant in kernel_configs(args)
    }
    if args.variant:
        return out
    out["api"] = (
        f"GameBatch API loop P=2 B={args.batch} decisions/s",
        lambda: api_throughput(args.batch, 50, 1),
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--sweeps", type=int, default=200, help="decisions per game per timed run")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip-compile", action="store_true")
    parser.add_argument(
        "--variant",
        action="append",
        metavar="V",
        help="only the random-play rows of preset V (repeatable; no API loop, no compile)",
    )
    add_arguments(parser)
    args = parser.parse_args()
    if dispatch(args, figures(args), __file__):
        return
    for players, variant in kernel_configs(args):
        r = kernel_throughput(args.batch, args.sweeps, args.repeats, players, variant)
        lengths = hand_lengths(players, variant)
        print(
            f"kernel random play  P={players} {variant} B={args.batch}: "
            f"{r['decisions_per_s']:,.0f} decisions/s = {r['decisions_per_s'] / lengths.mean():,.0f} hands/s "
            f"(mean {lengths.mean():.0f}, median {np.median(lengths):.0f} decisions per hand "
            f"over {len(lengths)} complete hands)"
        )
    if args.variant:
        return
    rate = api_throughput(args.batch, 50, args.repeats)
    print(f"GameBatch API loop  P=2 B={args.batch}: {rate:,.0f} decisions/s (mask + sample + validated step)")
    if not args.skip_compile:
        cold, warm = compile_and_import_times()
        print(f"import + first calls: {cold:.1f} s with an empty numba cache, {warm:.2f} s with a warm one")


if __name__ == "__main__":
    main()
