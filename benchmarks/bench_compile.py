"""First-run (cold cache) compile times of the main entry points, and what dominates them.

Each scenario runs in a fresh Python process with an empty numba cache
(``NUMBA_CACHE_DIR`` set to a new temporary folder), then once more with the
cache it filled; it prints the wall time of both runs, how the compile time splits between numba
and LLVM, and the functions whose own compilation (excluding the callees numba
compiled for them) took longest.

    python benchmarks/bench_compile.py [--top 12] [--scenario core aec play]

Scenarios:

* ``core``: ``GameBatch(Rules(), 2)``: reset, one step, the legal mask;
* ``aec``: the PettingZoo ``env()``: reset, observe, one step;
* ``play``: what ``kanaszta play`` needs before its first prompt (a game
  against RandomBot, the human's view and the table on screen) and for a first
  ``hint`` (the heuristic bot's choice).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

SCENARIOS = {
    "core": """
import numpy as np
from kanaszta_env import GameBatch, Rules
g = GameBatch(Rules(), batch_size=2); g.reset(seed=0)
g.step(np.flatnonzero(g.legal_mask()[0])[:1].repeat(2)); g.legal_mask()
""",
    "aec": """
from kanaszta_env import env
e = env(); e.reset(seed=0)
obs, *_ = e.last(); e.step(int(obs["action_mask"].argmax()))
""",
    "play": """
from kanaszta_env import GameBatch, Rules
from kanaszta_env.envs.render import render_table
g = GameBatch(Rules(), 1, seats=["external", "random"]); g.reset(seed=0)
g.views(); render_table(g.state, g.rules, 0, ["you", "random"])
mark("first prompt")
from agents import make_agent
bot = make_agent("heuristic", rules=g.rules)
bot.act(g.observe(), g.legal_mask())
""",
}

#: prepended to every scenario: times each compile of a project function (exclusive of callees)
_PROBE = """
import json, time
from numba.core import event
_t0, _c0 = time.perf_counter(), time.process_time()
_stack, _own, _marks, _count = [], {}, {}, [0]
class _Probe(event.Listener):
    def on_start(self, ev):
        _stack.append([time.perf_counter(), 0.0])
    def on_end(self, ev):
        _count[0] += 1
        start, inner = _stack.pop()
        took = time.perf_counter() - start
        if _stack:
            _stack[-1][1] += took
        d = (ev.data or {}).get("dispatcher")
        name = f"{d.py_func.__module__}.{d.py_func.__qualname__}" if d is not None else "?"
        _own[name] = _own.get(name, 0.0) + took - inner
event.register("numba:compile", _Probe())
# where the compile time goes: LLVM's per-function passes as each module is added, each
# library's finalisation (its linked callees re-optimised, then machine code), numba IR inlining
from numba.core import codegen as _cg, inline_closurecall as _ic
_phases = {"llvm_functions": 0.0, "llvm_finalize": 0.0, "numba_inlining": 0.0}
def _timed(cls, method, key):
    inner = getattr(cls, method)
    def wrapper(*args, **kwargs):
        t = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            _phases[key] += time.perf_counter() - t
    setattr(cls, method, wrapper)
_timed(_cg.CPUCodeLibrary, "add_ir_module", "llvm_functions")
_timed(_cg.CPUCodeLibrary, "finalize", "llvm_finalize")
_timed(_ic.InlineWorker, "inline_ir", "numba_inlining")
def mark(label):
    _marks[label] = (time.perf_counter() - _t0, time.process_time() - _c0)
"""
_REPORT = """
mark("end")
print("@@" + json.dumps({"marks": _marks, "own": _own, "compiles": _count[0], "phases": _phases}))
"""


def run(code: str, cache: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run(
        [sys.executable, "-c", _PROBE + code + _REPORT], env=env, capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out[out.rindex("@@") + 2 :])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", nargs="+", choices=sorted(SCENARIOS), default=list(SCENARIOS))
    parser.add_argument("--top", type=int, default=12, help="functions listed per scenario")
    args = parser.parse_args()
    for name in args.scenario:
        with tempfile.TemporaryDirectory() as cache:
            cold = run(SCENARIOS[name], cache)
            warm = run(SCENARIOS[name], cache)
        marks = ", ".join(f"{k} {w:.1f} s (cpu {c:.1f} s)" for k, (w, c) in cold["marks"].items())
        warm_marks = ", ".join(f"{k} {w:.1f} s (cpu {c:.1f} s)" for k, (w, c) in warm["marks"].items())
        print(f"\n== {name}: empty cache: {marks}; warm cache: {warm_marks} ({warm['compiles']} compiles)")
        own = sorted(cold["own"].items(), key=lambda kv: -kv[1])
        total = sum(v for _, v in own)
        print(f"   compiling {len(own)} functions took {total:.1f} s (own time, callees excluded); longest:")
        phases = cold["phases"]
        rest = total - sum(phases.values())
        print(
            f"   of which LLVM per-function passes {phases['llvm_functions']:.1f} s, libraries' "
            f"finalisation (linked callees re-optimised, machine code) {phases['llvm_finalize']:.1f} s, "
            f"numba IR inlining {phases['numba_inlining']:.1f} s, the rest of numba (typing, "
            f"lowering, caching) {rest:.1f} s"
        )
        for fn, seconds in own[: args.top]:
            print(f"   {seconds:7.1f} s  {fn}")


if __name__ == "__main__":
    main()
