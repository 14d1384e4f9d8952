"""Games of the canasta family as frozen specs, and the registry of them.

``get_variant(name)`` returns a registered :class:`Variant`; the rules
kernels are compiled once per variant (:func:`kanaszta_env.engine.kernels_for`).
"""

from __future__ import annotations

import importlib

from .classic import CLASSIC
from .diszitett import DISZITETT
from .spec import MELD_FAMILIES, Variant
from .turkish import TURKISH

_REGISTRY: dict[str, Variant] = {DISZITETT.name: DISZITETT, CLASSIC.name: CLASSIC, TURKISH.name: TURKISH}
#: variant compiled into the modules of the installed package itself
DEFAULT_VARIANT = DISZITETT
#: package prefix of every per-variant copy of the kernel modules -> variant
_COMPILED: dict[str, Variant] = {}


def get_variant(name: str) -> Variant:
    """The registered variant called ``name``."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown game variant {name!r}: choose one of {sorted(_REGISTRY)}") from None


def register_variant(variant: Variant) -> Variant:
    """Add ``variant`` to the registry (a name may be registered only once)."""
    if not isinstance(variant, Variant):
        raise TypeError(f"expected a Variant, got {type(variant).__name__}")
    known = _REGISTRY.get(variant.name)
    if known is not None and known != variant:
        raise ValueError(f"a different variant is already registered as {variant.name!r}")
    _REGISTRY[variant.name] = variant
    return variant


def bind_package(package: str, variant: Variant) -> None:
    """Declare that the kernel modules imported under ``package`` compile ``variant``."""
    _COMPILED[package] = variant


def shared_type(cls: type) -> type:
    """``cls`` as the installed package defines it. A kernel copy (one per variant) defines its
    state and view tuples afresh; sharing the installed package's classes keeps one numba type
    per tuple, so code compiled outside the copies (bots, tools) never caches a signature that
    names a copy's module, which a later process could not import."""
    root, _, rest = cls.__module__.partition(".")
    variant = _COMPILED.get(root)
    if variant is None:  # the installed package's class, or a user's game imported as itself
        return cls
    outside = variant.outside_package == rest.split(".")[0]  # the copy of a user's game's package
    return getattr(importlib.import_module(rest if outside else f"kanaszta_env.{rest}"), cls.__qualname__)


def variant_of_module(module_name: str, base: Variant | None = None) -> Variant:
    """The variant a kernel module compiles, from the package it was imported under; with
    ``base``, that variant if it plays ``base``'s rule set (a user's variant of the game),
    else ``base`` (a game's modules imported beside another game's kernels)."""
    variant = _COMPILED.get(module_name.split(".")[0], DEFAULT_VARIANT)
    return variant if base is None or variant.rule_set == base.rule_set else base


__all__ = [
    "CLASSIC",
    "DEFAULT_VARIANT",
    "DISZITETT",
    "MELD_FAMILIES",
    "TURKISH",
    "Variant",
    "get_variant",
    "register_variant",
]
