"""Games of the canasta family as frozen specs, and the registry of them.

``get_variant(name)`` returns a registered :class:`Variant`; the rules
kernels are compiled once per variant (:func:`kanaszta_env.engine.kernels_for`).
"""

from __future__ import annotations

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


def variant_of_module(module_name: str) -> Variant:
    """The variant a kernel module compiles, from the package it was imported under."""
    root = module_name.split(".")[0]
    return _COMPILED.get(root, DEFAULT_VARIANT)


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
