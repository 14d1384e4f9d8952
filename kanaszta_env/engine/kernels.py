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
"""

from __future__ import annotations

import importlib
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
    variants.bind_package(package, variant)
    _bare_package(package, _PACKAGE_DIR)
    for sub in _SUBPACKAGES:
        _bare_package(f"{package}.{sub}", _PACKAGE_DIR.joinpath(*sub.split(".")))
    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(Path(previous) / "variants" / f"{slug}-{variant.fingerprint}")
    try:
        compiled = _compiled_api(variant)
        for module in ("engine.driver", "core.ruleset", "core.playout", *([compiled] if compiled else [])):
            importlib.import_module(f"{package}.{module}")
    finally:
        numba.config.CACHE_DIR = previous
    return package


def _compiled_api(variant: Variant) -> str | None:
    """The module of the game's compiled API (``games/<game>/compiled.py``), if it has one."""
    folder = variant.rule_set.split(".")[:-2]  # games.<game>.kernels.rule_set -> games.<game>
    return ".".join([*folder, "compiled"]) if _PACKAGE_DIR.joinpath(*folder, "compiled.py").exists() else None


def _bare_package(name: str, path: Path) -> None:
    """Register an empty package ``name`` whose submodules load from ``path``."""
    if name in sys.modules:
        return
    module = types.ModuleType(name, f"kernels of a game variant, imported from {path}")
    module.__path__ = [str(path)]
    module.__package__ = name
    sys.modules[name] = module
