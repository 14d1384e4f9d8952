"""The rule kernels compiled once per game variant.

numba compiles module globals into the machine code as constants, and its
on-disk cache keys a function by its source file, not by those globals. So a
variant's kernels are a separate import of the same rule modules under a
package name of their own (``_kanaszta_<variant>_<fingerprint>``), whose
``games/<game>/kernels/tables.py`` reads that variant (:func:`kanaszta_env.variants.variant_of_module`),
with numba's cache folder switched to a subfolder per variant while the
modules are imported (numba fixes a function's cache folder when it is
decorated). The installed package's own modules are the default variant's
kernels; nothing is imported twice for it.

A rule set outside the package (a user's game: ``Variant.rule_set`` an absolute module
path such as ``mygame.kernels.rule_set``) is copied the same way: its top-level package
is imported afresh beside the package's modules, under ``<copy>.mygame``, and its
sources join the name of the cache folder (numba would not see a helper's edit).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from threading import Lock

import numba

from .. import variants
from ..variants import DEFAULT_VARIANT, Variant

_PACKAGE_DIR = Path(__file__).resolve().parents[1]
#: sub-packages the kernels live in; imported without running their ``__init__`` (a game's
#: folder ``games/<game>/`` is one too: its ``kernels`` package and compiled API are imported as they are)
_SUBPACKAGES = (
    "core",
    "engine",
    "games",
    *(f"games.{d.name}" for d in sorted((_PACKAGE_DIR / "games").iterdir()) if (d / "__init__.py").exists()),
)
_LOCK = Lock()
_BUILT: dict[Variant, Kernels] = {}


@dataclass(frozen=True)
class Kernels:
    """The compiled modules of one variant."""

    variant: Variant
    driver: types.ModuleType  # the stepping driver (engine/driver.py)
    ruleset: types.ModuleType  # the rule set's entry points (core/ruleset.py): new_state, phases, actions
    playout: types.ModuleType  # random play over batches (core/playout.py)
    compiled: types.ModuleType | None  # the game's compiled API for consumers (games/<game>/compiled.py)
    package: str  # the package the modules were imported under

    def game_module(self, name: str) -> types.ModuleType:
        """The module ``name`` of this variant's rule-set package (e.g. ``"score"`` of
        ``games/turkish/kernels``), as compiled for this variant."""
        rule_set_package = self.variant.rule_set.rpartition(".")[0]
        return importlib.import_module(f"{self.package}.{rule_set_package}.{name}")


def kernels_for(variant: Variant) -> Kernels:
    """The kernels of ``variant``, importing (and so compiling lazily) on first use."""
    if not isinstance(variant, Variant):
        raise TypeError(f"expected a Variant, got {type(variant).__name__}")
    with _LOCK:
        kernels = _BUILT.get(variant)
        if kernels is None:
            package = "kanaszta_env" if variant == DEFAULT_VARIANT else _import_copy(variant)
            compiled = _compiled_api(variant)
            kernels = Kernels(
                variant=variant,
                driver=importlib.import_module(f"{package}.engine.driver"),
                ruleset=importlib.import_module(f"{package}.core.ruleset"),
                playout=importlib.import_module(f"{package}.core.playout"),
                compiled=compiled and importlib.import_module(f"{package}.{compiled}"),
                package=package,
            )
            _BUILT[variant] = kernels
        return kernels


def _import_copy(variant: Variant) -> str:
    """Import the kernel modules afresh for ``variant``; returns the package name."""
    slug = re.sub(r"[^0-9a-zA-Z_]", "_", variant.name)
    package = f"_kanaszta_{slug}_{variant.fingerprint}"
    folder = f"{slug}-{variant.fingerprint}"
    outside = _outside_packages(variant)
    if outside:
        folder += "-" + _source_digest(_source_dir(variant, outside[0]))
    variants.bind_package(package, variant)
    _bare_package(package, _PACKAGE_DIR)
    for sub in _SUBPACKAGES:
        _bare_package(f"{package}.{sub}", _PACKAGE_DIR.joinpath(*sub.split(".")))
    for sub in outside:  # a user's game: its folders but the kernels', without their __init__
        _bare_package(f"{package}.{sub}", _source_dir(variant, sub))
    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(Path(previous) / "variants" / folder)
    try:
        compiled = _compiled_api(variant)
        for module in ("engine.driver", "core.ruleset", "core.playout", *([compiled] if compiled else [])):
            importlib.import_module(f"{package}.{module}")
    finally:
        numba.config.CACHE_DIR = previous
    return package


def _compiled_api(variant: Variant) -> str | None:
    """The module of the game's compiled API (``games/<game>/compiled.py``), if it has one."""
    folder = ".".join(variant.rule_set.split(".")[:-2])  # games.<game>.kernels.rule_set -> games.<game>
    return f"{folder}.compiled" if (_source_dir(variant, folder) / "compiled.py").exists() else None


def _outside_packages(variant: Variant) -> list[str]:
    """The packages of a rule set outside ``kanaszta_env`` above its kernels' (``a``, ``a.b`` of
    ``a.b.kernels.rule_set``), outermost first; none for a game of the package."""
    top = variant.outside_package
    if top is None:
        return []
    if (_PACKAGE_DIR / top).exists() or (_PACKAGE_DIR / f"{top}.py").exists():
        raise ValueError(
            f"rule set {variant.rule_set!r}: a package outside kanaszta_env may not be called {top!r}"
        )
    parts = variant.rule_set.split(".")[:-2]
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _source_dir(variant: Variant, name: str) -> Path:
    """The folder of the package ``name`` (dotted, as ``Variant.rule_set`` writes it)."""
    parts = name.split(".")
    if variant.outside_package is None:
        return _PACKAGE_DIR.joinpath(*parts)
    spec = importlib.util.find_spec(parts[0])
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(f"rule set {variant.rule_set!r}: no package {parts[0]!r} can be imported")
    return Path(next(iter(spec.submodule_search_locations))).joinpath(*parts[1:])


def _source_digest(folder: Path) -> str:
    """A short hash of the Python sources under ``folder``."""
    digest = hashlib.sha1()
    for path in sorted(folder.rglob("*.py")):
        digest.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def _bare_package(name: str, path: Path) -> None:
    """Register an empty package ``name`` whose submodules load from ``path``."""
    if name in sys.modules:
        return
    module = types.ModuleType(name, f"kernels of a game variant, imported from {path}")
    module.__path__ = [str(path)]
    module.__package__ = name
    sys.modules[name] = module
