"""The layering ``core → games/<game>/kernels → engine → envs / agents → training``,
checked on the imports.

* ``kanaszta_env.core`` (what every rule set shares) imports no game and nothing above it;
* the engine imports no game: it steps whatever rule set the variant binds;
* a game's folder imports no other game's folder;
* nothing outside the rules package (``envs``, ``agents``, ``training``, the
  benchmarks) imports ``kanaszta_env.core`` or a game's kernels: the engine's public API
  and a game's compiled API (e.g. ``kanaszta_env.games.diszitett.compiled``) are the way in;
* no layer imports a layer above it at module level (``webapp``, the browser app,
  sits beside ``agents`` and uses it);
* the rules package never imports Ray (the optional ``ray`` extra: only
  ``training.rllib`` and ``agents.rllib_checkpoint`` use it, see ``tests/test_rllib.py``);
* imports by string (``importlib.import_module("…")``) count as imports; one whose
  name is computed is allowed only where the kernels are bound (``engine/kernels.py``,
  ``core/ruleset.py``) and in the listed tables of providers;
* no code outside a game's own files branches on which game or preset it is: it asks
  the game (``rules.game``: its hooks, capabilities and data).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

GAMES = sorted(d.name for d in (ROOT / "kanaszta_env" / "games").iterdir() if (d / "__init__.py").exists())
GAME_FOLDERS = tuple(f"kanaszta_env.games.{g}" for g in GAMES)
GAME_KERNELS = tuple(f"kanaszta_env.games.{g}.kernels" for g in GAMES)

#: package folder -> top-level modules it must not import (absolute dotted prefixes)
FORBIDDEN = {
    "kanaszta_env/core": (
        "kanaszta_env.engine",
        "kanaszta_env.envs",
        *GAME_FOLDERS,
        "agents",
        "training",
        "webapp",
        "ray",
    ),
    "kanaszta_env/engine": ("kanaszta_env.envs", *GAME_FOLDERS, "agents", "training", "webapp", "ray"),
    # the position package sits beside the engine
    "kanaszta_env/position": ("kanaszta_env.envs", "agents", "training", "webapp", "ray"),
    "kanaszta_env/envs": ("kanaszta_env.core", *GAME_KERNELS, "training", "webapp", "ray"),
    "agents": (
        "kanaszta_env.core",
        *GAME_KERNELS,
        "kanaszta_env.envs.gym_env",
        "kanaszta_env.envs.aec",
        "training",
        "webapp",
    ),
    "training": ("kanaszta_env.core", *GAME_KERNELS, "webapp"),
    "webapp": (
        "kanaszta_env.core",
        *GAME_KERNELS,
        "kanaszta_env.envs.gym_env",
        "kanaszta_env.envs.aec",
        "training",
    ),
    "benchmarks": ("kanaszta_env.core", *GAME_KERNELS),
}


#: a computed module name: allowed only here (the kernel binding; a game's compiled
#: modules are reached through ``Kernels.game_module``)
DYNAMIC_IMPORTS = {
    "kanaszta_env/engine/kernels.py",
    "kanaszta_env/core/ruleset.py",  # binds the rule set the variant names
    "kanaszta_env/variants/__init__.py",  # shared_type: a kernel copy's classes, from the installed package
    "kanaszta_env/cli.py",  # the subcommand providers, by name from a table
    "benchmarks/against.py",
}
COMPUTED = "<computed>"


def _string_import(node: ast.Call) -> str | None:
    """The module an ``importlib.import_module(...)`` / ``__import__(...)`` call names
    (:data:`COMPUTED` if the name is not a literal), else ``None``."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name not in ("import_module", "__import__") or not node.args:
        return None
    arg = node.args[0]
    return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else COMPUTED


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import statement of a file, and of every
    import by string, relative imports resolved against the file's package."""
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
        elif isinstance(node, ast.Call) and (named := _string_import(node)) is not None:
            out.append((node.lineno, named))
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


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_no_other_game(game: str) -> None:
    others = tuple(f for f in GAME_FOLDERS if not f.endswith(f".{game}"))
    found = [
        hit
        for layer in ("kanaszta_env", "agents", "training")
        for hit in violations(f"{layer}/games/{game}", others)
    ]
    assert found == []


def test_the_check_sees_relative_and_absolute_imports(tmp_path: Path) -> None:
    """The checker itself: both spellings of a core import are caught."""
    sample = ROOT / "kanaszta_env" / "envs" / "_layering_sample.py"
    sample.write_text(
        "from ..core.state import State\nimport kanaszta_env.games.diszitett.kernels.legal\n",
        encoding="utf-8",
    )
    try:
        found = violations("kanaszta_env/envs", ("kanaszta_env.core",))
    finally:
        sample.unlink()
    assert len([f for f in found if "_layering_sample" in f]) >= 2


LAYERS = ("kanaszta_env", "agents", "training", "webapp", "benchmarks", "scripts")


def test_imports_by_computed_name_only_where_listed() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for layer in LAYERS
        for path in sorted((ROOT / layer).rglob("*.py"))
        for line, module in imported_modules(path)
        if module == COMPUTED and str(path.relative_to(ROOT)) not in DYNAMIC_IMPORTS
    ]
    assert found == []


def test_the_check_sees_string_imports(tmp_path: Path) -> None:
    sample = ROOT / "kanaszta_env" / "envs" / "_layering_sample.py"
    sample.write_text(
        "import importlib\n"
        "importlib.import_module('agents.registry')\n"
        "importlib.import_module(f'{x}.core')\n",
        encoding="utf-8",
    )
    try:
        modules = [m for _, m in imported_modules(sample)]
    finally:
        sample.unlink()
    assert "agents.registry" in modules and COMPUTED in modules


# --- no branch on game identity --------------------------------------------------------------
def _identity_names() -> set[str]:
    from kanaszta_env.games import all_games

    games = all_games()
    return (
        {p for g in games for p in g.presets} | {g.name for g in games} | {g.spec.meld_family for g in games}
    )


def own_files_of_a_game(path: Path) -> bool:
    """A game's own files: under ``games/<game>/``, or named after their game
    (``rules_classic.py``, ``scripts/docs_pages/turkish.py``)."""
    parts = path.relative_to(ROOT).parts
    return "games" in parts[:-1] or any(game in p for p in parts for game in GAMES)


def identity_branches(path: Path, names: set[str]) -> list[str]:
    """``x == "pl"``, ``rules.variant in ("pl", "sk")``, ``family != "rank_groups"``, ...: a
    comparison of anything with a literal game, preset or meld-family name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare):
            continue
        if "schedule" in ast.unparse(node):  # opening_schedule="classic" names a schedule, not the game
            continue
        for side in (node.left, *node.comparators):
            items = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
            literal = {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
            if literal & names:
                found.append(
                    f"{path.relative_to(ROOT)}:{node.lineno} compares with {sorted(literal & names)}"
                )
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_no_branch_on_game_identity_outside_a_game(layer: str) -> None:
    names = _identity_names()
    found = [
        hit
        for path in sorted((ROOT / layer).rglob("*.py"))
        if not own_files_of_a_game(path)
        for hit in identity_branches(path, names)
    ]
    assert found == []


def test_the_identity_check_sees_a_branch(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'if rules.variant in ("pl", "sk"):\n    pass\nok = head == "random"\n', encoding="utf-8"
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = identity_branches(sample, _identity_names())
    finally:
        ROOT = saved
    assert len(found) == 1 and "'pl'" in found[0]
