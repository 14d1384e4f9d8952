"""The layering ``core → engine → envs / agents → training``, checked on the imports.

* ``kanaszta_env.core`` (the rules kernels) imports nothing above it;
* nothing outside the rules package (``envs``, ``agents``, ``training``, the
  benchmarks) imports ``kanaszta_env.core``: the engine's public API and its
  compiled API (``kanaszta_env.engine.compiled``) are the way in;
* no layer imports a layer above it at module level (``webapp``, the browser app,
  sits beside ``agents`` and uses it);
* the rules package never imports Ray (the optional ``ray`` extra: only
  ``training.rllib`` and ``agents.rllib_checkpoint`` use it, see ``tests/test_rllib.py``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: package folder -> top-level modules it must not import (absolute dotted prefixes)
FORBIDDEN = {
    "kanaszta_env/core": ("kanaszta_env.engine", "kanaszta_env.envs", "agents", "training", "webapp", "ray"),
    "kanaszta_env/engine": ("kanaszta_env.envs", "agents", "training", "webapp", "ray"),
    # the position package sits beside the engine
    "kanaszta_env/position": ("kanaszta_env.envs", "agents", "training", "webapp", "ray"),
    "kanaszta_env/envs": ("kanaszta_env.core", "training", "webapp", "ray"),
    "agents": (
        "kanaszta_env.core",
        "kanaszta_env.envs.gym_env",
        "kanaszta_env.envs.aec",
        "training",
        "webapp",
    ),
    "training": ("kanaszta_env.core", "webapp"),
    "webapp": ("kanaszta_env.core", "kanaszta_env.envs.gym_env", "kanaszta_env.envs.aec", "training"),
    "benchmarks": ("kanaszta_env.core",),
}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import statement of a file,
    relative imports resolved against the file's package."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            out.append((node.lineno, module))
            out += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return out


def violations(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for line, module in imported_modules(path):
            for prefix in forbidden:
                if module == prefix or module.startswith(prefix + "."):
                    found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return found


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_no_layer_imports_past_its_neighbours(folder: str) -> None:
    assert violations(folder, FORBIDDEN[folder]) == []


def test_the_check_sees_relative_and_absolute_imports(tmp_path: Path) -> None:
    """The checker itself: both spellings of a core import are caught."""
    sample = ROOT / "kanaszta_env" / "envs" / "_layering_sample.py"
    sample.write_text("from ..core.state import State\nimport kanaszta_env.core.legal\n", encoding="utf-8")
    try:
        found = violations("kanaszta_env/envs", ("kanaszta_env.core",))
    finally:
        sample.unlink()
    assert len([f for f in found if "_layering_sample" in f]) >= 2
