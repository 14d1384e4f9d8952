"""Conversions between lists of card types (the parsed form of a position) and
the engine's count arrays and card names."""

from __future__ import annotations

import numpy as np

from ..cards import (
    GROUP_SLOTS,
    HEART_ACE,
    IS_WILD,
    NUM_TYPES,
    SLOT_TYPE,
    TYPE_NAMES,
    TYPE_WILD_SLOT,
    WILD_SLOT0,
)
from ..games.diszitett.position.schema import Groups


def names(types: list[int]) -> list[str]:
    """Card names of a list of card types, in the same order."""
    return [TYPE_NAMES[t] for t in types]


def doc_groups(groups: Groups) -> list[list[str]]:
    """Groups as card-name lists, in group order."""
    return [names(groups[g]) for g in sorted(groups)]


def row(types: list[int]) -> np.ndarray:
    """The engine's slot counts (9,) of a group holding ``types`` (the same slots in every group)."""
    out = np.zeros(GROUP_SLOTS, dtype=np.int8)
    for t in types:
        out[WILD_SLOT0 + TYPE_WILD_SLOT[t] if IS_WILD[t] else t % 4] += 1
    return out


def counts(types: list[int]) -> np.ndarray:
    """Counts (53,) of a list of card types."""
    return np.bincount(np.asarray(types, dtype=np.int64), minlength=NUM_TYPES)


def from_counts(counts: np.ndarray) -> list[int]:
    """Card types of a (53,) count array, in type order."""
    return [t for t in range(NUM_TYPES) for _ in range(int(counts[t]))]


def from_rows(groups: np.ndarray, slot_type: np.ndarray = SLOT_TYPE) -> Groups:
    """Card types of each non-empty group of a (12, 9) group array, in type order (with
    ``slot_type``, the card type of each slot of another game's rows: classic's melds)."""
    out = {}
    for g in range(len(slot_type)):
        types = sorted(int(slot_type[g, k]) for k in range(GROUP_SLOTS) for _ in range(int(groups[g, k])))
        if types:
            out[g] = types
    return out


def all_cards(hand: list[int], groups: Groups, heart_aces: int) -> np.ndarray:
    """Counts (53,) of a hand, its groups and separate heart aces together."""
    counts = np.bincount(np.asarray(hand, dtype=np.int64), minlength=NUM_TYPES)
    for types in groups.values():
        counts += np.bincount(np.asarray(types, dtype=np.int64), minlength=NUM_TYPES)
    counts[HEART_ACE] += heart_aces
    return counts
