"""``--against REF``: the same figures measured on this tree and on another
commit, side by side in one run.

REF is cloned from this repository into a temporary folder and checked out.
Each tree gets a worker process of the calling benchmark script (``--worker``)
with ``PYTHONPATH`` pointing at that tree and a numba cache folder of its own;
a warm-up run of every figure first fills that cache, so no timed run
compiles. The timed runs then alternate between the two workers figure by
figure (and which tree goes first alternates from repeat to repeat), so both
codes see the same machine load. Printed: the median of each side, the ratio
new/old of the medians, and every run.

The measured functions are the benchmark's own, run unchanged by both trees;
where the two layouts differ they look names up through :func:`compiled`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
_PREFIX = "BENCH-RESULT "

#: figure name -> (label printed, function measuring one run and returning a rate)
Figures = dict[str, tuple[str, Callable[[], float]]]


def compiled(name: str) -> Callable:
    """A compiled function of the engine's compiled API (``random_playout``,
    ``sample_uniform``), resolved when called so that a ``--against`` worker reads
    the imported tree's."""
    import kanaszta_env

    # a tree from before the games' folders has it in the engine (asked of the tree's files: an
    # editable install would otherwise lend this tree's module to an older one)
    here = Path(kanaszta_env.__file__).parent / "games" / "diszitett" / "compiled.py"
    module: ModuleType = importlib.import_module(
        "kanaszta_env.games.diszitett.compiled" if here.exists() else "kanaszta_env.engine.compiled"
    )
    return getattr(module, name)


def playout(variant: str) -> Callable:
    """The random-play kernel compiled for the game the preset ``variant`` plays."""
    from kanaszta_env import Rules
    from kanaszta_env.engine.kernels import kernels_for

    kernels = kernels_for(Rules(variant=variant).spec)
    return (getattr(kernels, "playout", None) or kernels.compiled).random_playout  # older trees: compiled


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--against REF`` (and the hidden ``--worker`` mode it starts)."""
    parser.add_argument(
        "--against",
        metavar="REF",
        default=None,
        help="also measure git commit REF (built in a temporary clone) and print both side by side "
        "with the ratio new/old, runs alternating between the two codes",
    )
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        default=None,
        help="with --against: keep the two trees' numba caches in DIR/old and DIR/new across runs "
        "(default: temporary folders, compiled afresh)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)


def dispatch(args: argparse.Namespace, figures: Figures, script: str) -> bool:
    """Run the worker mode or the ``--against`` comparison if asked; returns
    whether it did (the benchmark then prints nothing of its own)."""
    if args.worker:
        serve(figures)
        return True
    if args.against:
        compare(script, sys.argv[1:], figures, args.against, args.repeats, args.cache_dir)
        return True
    return False


def serve(figures: Figures) -> None:
    """Worker mode: for each figure name read from stdin, measure one run and
    answer with its rate on stdout (behind a prefix: the package may print)."""
    import kanaszta_env

    _answer({"module": str(Path(kanaszta_env.__file__).resolve())})
    for line in sys.stdin:
        name = line.strip()
        if name:
            _answer({"rate": figures[name][1]()})


def _answer(payload: dict) -> None:
    print(_PREFIX + json.dumps(payload), flush=True)


class Worker:
    """A ``--worker`` process of ``script`` running the package of ``tree``."""

    def __init__(self, script: Path, args: list[str], tree: Path, cache: Path, log: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache))
        self.log = log
        self._log_file = log.open("a", encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, str(script), *args, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log_file,
            text=True,
            cwd=tree,
            env=env,
        )
        module = Path(self._receive()["module"])
        if tree.resolve() not in module.parents:
            self.close()
            raise RuntimeError(f"worker for {tree} imported kanaszta_env from {module}")

    def measure(self, figure: str) -> float:
        """One timed run of ``figure``."""
        stdin: IO[str] = self.process.stdin  # type: ignore[assignment]
        stdin.write(figure + "\n")
        stdin.flush()
        return float(self._receive()["rate"])

    def _receive(self) -> dict:
        stdout: IO[str] = self.process.stdout  # type: ignore[assignment]
        for line in stdout:
            if line.startswith(_PREFIX):
                return json.loads(line[len(_PREFIX) :])
        self.close()
        tail = self.log.read_text(encoding="utf-8").splitlines()[-15:]
        raise RuntimeError("benchmark worker stopped:\n" + "\n".join(tail))

    def close(self) -> None:
        """Stop the worker (end of its input) and wait for it."""
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        self.process.wait()
        self._log_file.close()


@contextlib.contextmanager
def checkout(ref: str) -> Iterator[tuple[Path, str]]:
    """A temporary clone of this repository at ``ref``: (its folder, the commit)."""

    def git(*args: str, cwd: Path = ROOT) -> str:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"git {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout.strip()

    commit = git("rev-parse", "--verify", f"{ref}^{{commit}}")
    with tempfile.TemporaryDirectory(prefix="kanaszta-against-") as folder:
        tree = Path(folder) / "old"
        git("clone", "--quiet", "--no-checkout", str(ROOT), str(tree))
        git("checkout", "--quiet", commit, cwd=tree)
        yield tree, commit


def worker_args(argv: list[str]) -> list[str]:
    """The command line of a worker: the caller's, without ``--against REF``."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--against":
            skip = True
        elif not arg.startswith("--against="):
            out.append(arg)
    return out


def compare(
    script: str, argv: list[str], figures: Figures, ref: str, repeats: int, cache_dir: str | None = None
) -> None:
    """Measure ``figures`` on ``ref`` (old) and on this tree (new), alternating, and print them.

    ``script`` and ``argv`` are the calling benchmark's path and command line
    (``sys.argv``): each worker runs that script with the same options.
    ``cache_dir`` keeps the numba caches across runs (each tree's package
    keys its cache on its kernels' sources, so a kept cache is never stale)."""
    script_path, args = Path(script).resolve(), worker_args(argv)
    with checkout(ref) as (old_tree, commit), tempfile.TemporaryDirectory() as scratch:
        trees = {"old": old_tree, "new": ROOT}
        caches = Path(cache_dir) if cache_dir else Path(scratch)
        print(f"old = {ref} ({commit[:10]}), cloned into {old_tree}; new = {ROOT}", flush=True)
        workers = {}
        try:
            for side, tree in trees.items():
                cache, log = caches / side, Path(scratch) / f"{side}.log"
                warm = Worker(script_path, args, tree, cache, log)  # fills the cache: compiles
                for name in figures:
                    warm.measure(name)
                warm.close()
                workers[side] = Worker(script_path, args, tree, cache, log)
                for name in figures:  # loads from the cache, warms this process
                    workers[side].measure(name)
            runs = _alternate(workers, figures, repeats)
        finally:
            for worker in workers.values():
                worker.close()
    _report(figures, runs, repeats)


def _alternate(workers: dict[str, Worker], figures: Figures, repeats: int) -> dict:
    runs: dict[str, dict[str, list[float]]] = {side: {name: [] for name in figures} for side in workers}
    for rep in range(repeats):
        for name in figures:
            for side in ("old", "new") if rep % 2 == 0 else ("new", "old"):
                runs[side][name].append(workers[side].measure(name))
    return runs


def _report(figures: Figures, runs: dict, repeats: int) -> None:
    print(f"medians of {repeats} runs per side, runs alternating old/new:")
    print(f"{'figure':<52} {'old':>12} {'new':>12} {'new/old':>8}")
    for name, (label, _) in figures.items():
        old, new = statistics.median(runs["old"][name]), statistics.median(runs["new"][name])
        print(f"{label:<52} {old:>12,.0f} {new:>12,.0f} {new / old:>8.3f}")
    for side in ("old", "new"):
        for name, (label, _) in figures.items():
            print(f"  {side} {label}: {', '.join(f'{r:,.0f}' for r in runs[side][name])}")
