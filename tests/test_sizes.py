"""Module and function sizes: no module over about 400 lines, no function over about 80
lines outside the kernels that must stay whole.

Every ``.py`` file of the package, the agents, training, the web app,
benchmarks and scripts is measured on its syntax tree; what exceeds a limit must be listed
below, with the reason. Entries that no longer exceed their limit fail too,
so the lists shrink as the debt is paid.

    python tests/test_sizes.py    # prints every module and function over the limits
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("kanaszta_env", "agents", "training", "webapp", "benchmarks", "scripts")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80

#: numba kernels kept in one body for speed. Entries are "path" (a module) or
#: "path::qualified.name" (a function), each with the reason.
KERNELS: dict[str, str] = {
    "kanaszta_env/games/diszitett/kernels/game.py::apply_action": (
        "inlined (inline='always') into the batch kernels: making apply_action and legal_row ordinary "
        "calls cut core random play to 0.59-0.67x (bench_core.py --against HEAD, 9 runs each, medians), "
        "each call passing the 41-array state tuple"
    ),
    "kanaszta_env/games/diszitett/kernels/legal.py::_pickup_row": (
        "legal-mask kernel of R8.3 step 2: one body applies, tests (obligation_feasible) and undoes each "
        "candidate meld in place; split, every helper would take its 12 arrays and scalars per call"
    ),
    "agents/games/diszitett/plan.py::_plan": (
        "the meld planner's single compiled body, run at each bot decision and search step: its seven "
        "steps share the per-group work arrays and running wild counts; split, they would pass them per call"
    ),
    "agents/games/diszitett/determinise.py::determinise": (
        "one compiled body writing every array of game b of the state; split, each helper would pass the "
        "41-array state tuple (numba increfs each array per call) once per search sample"
    ),
}

#: known debt still to be split (empty: every oversized module is listed with its reason above).
PENDING: dict[str, str] = {}


def oversized() -> dict[str, int]:
    """Every module over :data:`MAX_MODULE_LINES` and every function (methods
    and nested functions included) over :data:`MAX_FUNCTION_LINES`, as
    ``{"path" or "path::qualified.name": lines}``."""
    found: dict[str, int] = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            text = path.read_text(encoding="utf-8")
            lines = len(text.splitlines())
            if lines > MAX_MODULE_LINES:
                found[rel] = lines
            for name, size in _function_sizes(ast.parse(text)):
                if size > MAX_FUNCTION_LINES:
                    found[f"{rel}::{name}"] = size
    return found


def _function_sizes(node: ast.AST, prefix: str = "") -> list[tuple[str, int]]:
    """(qualified name, lines from ``def`` to the last line) of every function below ``node``."""
    out = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = prefix + child.name
            if not isinstance(child, ast.ClassDef):
                out.append((name, (child.end_lineno or child.lineno) - child.lineno + 1))
            out += _function_sizes(child, name + ".")
    return out


def test_no_module_or_function_over_the_limits_unless_listed() -> None:
    unlisted = {key: n for key, n in oversized().items() if key not in KERNELS and key not in PENDING}
    assert unlisted == {}, (
        f"over {MAX_MODULE_LINES} lines per module or {MAX_FUNCTION_LINES} per function: split "
        "them, or list a kernel that must stay whole in KERNELS with the reason"
    )


def test_every_listed_entry_is_still_over_a_limit() -> None:
    """A paid debt leaves the lists (the entry names what was split or renamed)."""
    found = oversized()
    assert sorted(key for key in (*KERNELS, *PENDING) if key not in found) == []


def test_the_measure_counts_functions_methods_and_nested_functions() -> None:
    source = "class A:\n    def f(self):\n        def g():\n            pass\n\n        return g\n"
    assert _function_sizes(ast.parse(source)) == [("A.f", 5), ("A.f.g", 2)]


def test_an_entry_is_a_kernel_or_pending_not_both() -> None:
    assert set(KERNELS) & set(PENDING) == set()


if __name__ == "__main__":
    for key, n in sorted(oversized().items()):
        tag = "kernel" if key in KERNELS else "pending" if key in PENDING else "OVER"
        print(f"{tag:8} {n:5}  {key}")
