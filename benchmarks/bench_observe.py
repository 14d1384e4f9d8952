"""What the observation costs against the bare rules, per table and batch size.

For each table (Díszített 2003-02 with 2 players, classic pl and sk with 4,
Turkish tr with 4) and each batch size ``B``, two figures in decisions/s:

* **bare**: a :class:`~kanaszta_env.GameBatch` of ``B`` games with every seat
  external, ``observe=False`` and same-step auto-reset. A step is one decision
  per game: the compiled sampler ``sample_uniform`` draws an action from each
  game's legal mask, and the step applies it, ends and deals episodes, credits
  rewards and writes the legal mask of the next decision. The mask belongs to
  the bare rules because a legal move cannot be drawn without it (the random
  playout kernel computes it too).
* **observe**: the same with ``observe=True`` and the observations written
  into the buffer passed as ``out``, taken as
  :class:`~kanaszta_env.envs.vec_env.KanasztaVecEnv` takes it (an array nobody
  holds; the array of the previous step is held, as SB3 holds it; a tree
  without ``ObservationBuffers`` gets a new array per step, as its VecEnv did):
  the extra work is the observation of every decision (and the terminal
  observation of every episode that ends).

With ``illegal="penalty"``: a game left without a legal action (an empty mask,
seen in pl after long random play) ends its episode instead of stopping the
run. Every seat is external, so every decision is observed: the figure is the
observation's cost per decision, not diluted by unobserved opponent moves.
Both figures pay the same Python overhead per step (the sampler call and
``GameBatch.step``), a few microseconds, which at ``B=256`` is a few per cent
of a step. Printed: the median of each figure, ``observe/bare`` per table and
batch size (the issue's goal: at least 0.5), and ``B=4096 / B=256`` per figure
(the goal: flat, 1.0). The figures are measured in one process, every figure
once per repeat in turn, so that all see the same machine load.

With ``--against REF`` every figure is measured on this tree and on commit REF
side by side (``benchmarks/against.py``).

    python benchmarks/bench_observe.py [--seconds 1] [--repeats 5] [--batches 256 1024 4096]
                                       [--tables 2003-02:2 pl:4 sk:4 tr:4] [--against REF]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from against import Figures, add_arguments, compiled, dispatch

_BATCHES: dict[tuple[str, int, int, bool], Any] = {}


def _batch(variant: str, players: int, size: int, observe: bool) -> Any:
    """The table's batch (made once per process, then stepped on from where it stands)."""
    key = (variant, players, size, observe)
    if key not in _BATCHES:
        from kanaszta_env import GameBatch, Rules

        games = GameBatch(
            Rules(variant=variant, num_players=players), size, seats=["external"] * players, auto_reset=True,
            observe=observe, illegal="penalty",
        )  # fmt: skip
        games.reset(seed=0)
        _BATCHES[key] = games
    return _BATCHES[key]


def _buffers(shape: tuple[int, int]) -> Callable[[], np.ndarray]:
    """How the VecEnv takes its observation buffers (a new array each step before ``ObservationBuffers``)."""
    try:
        from kanaszta_env.envs.vec_env import ObservationBuffers
    except ImportError:
        return lambda: np.empty(shape, np.float32)
    return ObservationBuffers(shape).take


def rate(variant: str, players: int, size: int, observe: bool, seconds: float) -> float:
    """Decisions/s of one timed run of at least ``seconds``."""
    sample_uniform = compiled("sample_uniform")
    games = _batch(variant, players, size, observe)
    rng = np.arange(size, dtype=np.uint64) + np.uint64(12345)
    actions = np.zeros(size, dtype=np.int64)
    take = _buffers((size, games.obs_size)) if observe else lambda: None
    held = None  # the previous step's observations, held while the next step runs
    steps = 0
    start = time.perf_counter()
    while True:
        for _ in range(4):
            sample_uniform(games.legal_mask(), rng, actions)
            games.step(actions, out=take())
            held = games.observe() if observe else held
        steps += 4
        elapsed = time.perf_counter() - start
        if elapsed > seconds:
            return steps * size / elapsed


def _name(variant: str, players: int, size: int, observe: bool) -> str:
    return f"{variant}:{players} B={size} {'observe' if observe else 'bare'}"


def figures(args: argparse.Namespace) -> Figures:
    """Every (table, batch size, bare or observe) figure, in the order they are measured."""
    out: Figures = {}
    for table in args.tables:
        variant, players = table.split(":")
        for size in args.batches:
            for observe in (False, True):
                name = _name(variant, int(players), size, observe)
                key = (variant, int(players), size, observe, args.seconds)
                out[name] = (name + " decisions/s", lambda key=key: rate(*key))
    return out


def main() -> None:
    """Measure the figures (or compare two trees) and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure (median reported)")
    parser.add_argument("--batches", type=int, nargs="+", default=[256, 1024, 4096])
    parser.add_argument("--tables", nargs="+", default=["2003-02:2", "pl:4", "sk:4", "tr:4"])
    add_arguments(parser)
    args = parser.parse_args()
    figs = figures(args)
    if dispatch(args, figs, __file__):
        return
    for _, run in figs.values():  # compile and warm up
        run()
    runs: dict[str, list[float]] = {name: [] for name in figs}
    for _ in range(args.repeats):
        for name, (_, run) in figs.items():
            runs[name].append(run())
    _report(args, runs)


def _report(args: argparse.Namespace, runs: dict[str, list[float]]) -> None:
    med = {name: statistics.median(r) for name, r in runs.items()}
    lo, hi = min(args.batches), max(args.batches)
    print(f"medians of {args.repeats} runs of {args.seconds:g} s, decisions/s (every seat external)")
    print(f"{'table':<10} {'B':>5} {'bare':>12} {'observe':>12} {'observe/bare':>13}")
    for table in args.tables:
        variant, players = table.split(":")
        rate_of = {(b, o): med[_name(variant, int(players), b, o)] for b in args.batches for o in (0, 1)}
        for size in args.batches:
            bare, obs = rate_of[size, 0], rate_of[size, 1]
            print(f"{table:<10} {size:>5} {bare:>12,.0f} {obs:>12,.0f} {obs / bare:>13.3f}")
        flat = (f"{kind} {rate_of[hi, o] / rate_of[lo, o]:.3f}" for o, kind in enumerate(("bare", "observe")))
        print(f"{table:<10} B={hi}/B={lo}: {', '.join(flat)}")
    for name, r in runs.items():
        print(f"  {name}: {', '.join(f'{x:,.0f}' for x in r)}")


if __name__ == "__main__":
    main()
