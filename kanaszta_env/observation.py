"""The observation's declaration, for every game: a list of named pieces (:class:`Piece`),
each game's own (:meth:`Game.observation_pieces`), and what follows from it — the vector's
size and bounds, the offset of each piece, splitting a vector into its pieces, and the
table of the observation pages in ``docs/``.

Each player observes one fixed-length ``float32`` vector, relative to himself (his
seat first), covering what he knows and nothing else. Values lie in ``[0, 1]`` except
the pieces with ``low = -1`` (scores, which can be negative).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .rules import Rules

__all__ = [
    "Piece",
    "observation_bounds",
    "observation_size",
    "observation_spec",
    "piece_offsets",
    "spec_markdown",
    "split",
]


class Piece(NamedTuple):
    """One named part of the observation vector."""

    name: str
    shape: tuple[int, ...]
    meaning: str
    low: float = 0.0

    size = property(lambda self: int(np.prod(self.shape)), doc="number of slots")


@lru_cache(maxsize=64)
def observation_spec(rules: Rules | None = None) -> tuple[Piece, ...]:
    """The pieces of the observation vector, in order, for ``rules``: the game's own
    layout (:meth:`Game.observation_pieces`), which the number of players (and sides) changes."""
    rules = rules or Rules()
    return tuple(rules.game.observation_pieces(rules, Piece))


def observation_size(rules: Rules | None = None) -> int:
    """Length of the observation vector for ``rules``."""
    return _layout(rules or Rules())[0]


def observation_bounds(rules: Rules | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per-slot ``(low, high)`` float32 arrays (for a ``gymnasium.spaces.Box``)."""
    low = np.concatenate([np.full(p.size, p.low, dtype=np.float32) for p in observation_spec(rules)])
    return low, np.ones_like(low)


def piece_offsets(rules: Rules | None = None) -> dict[str, tuple[int, tuple[int, ...]]]:
    """First slot and shape of every piece, by name, in layout order."""
    return {name: (start, shape) for name, (start, _, shape) in _layout(rules or Rules())[1].items()}


@lru_cache(maxsize=64)
def _layout(rules: Rules) -> tuple[int, dict[str, tuple[int, int, tuple[int, ...]]]]:
    """Size, and first slot, end and shape per piece: once per rules (bots split every batch)."""
    ends = np.cumsum([p.size for p in observation_spec(rules)]).tolist()
    spec = zip(observation_spec(rules), ends, strict=True)
    return ends[-1], {p.name: (end - p.size, end, p.shape) for p, end in spec}


def split(obs: np.ndarray, rules: Rules | None = None) -> dict[str, np.ndarray]:
    """Views of an observation (or a batch of them, leading axes kept) by piece name."""
    size, offsets = _layout(rules or Rules())
    if size != obs.shape[-1]:
        raise ValueError(f"observation has {obs.shape[-1]} slots, the spec {size}")
    lead = obs.shape[:-1]
    return {name: obs[..., start:end].reshape(*lead, *shape) for name, (start, end, shape) in offsets.items()}


def spec_markdown(rules: Rules | None = None) -> str:
    """The observation table of ``docs/observation.md`` (one row per piece)."""
    rules = rules or Rules()
    lines = [
        "| slots | piece | shape | range | meaning |",
        "|---|---|---|---|---|",
    ]
    c = 0
    for p in observation_spec(rules):
        shape = " × ".join(str(d) for d in p.shape)
        rng = "[-1, 1]" if p.low < 0 else "[0, 1]"
        lines.append(f"| {c}–{c + p.size - 1} | `{p.name}` | {shape} | {rng} | {p.meaning} |")
        c += p.size
    lines.append(f"| | **total** | {c} | | |")
    return "\n".join(lines)
