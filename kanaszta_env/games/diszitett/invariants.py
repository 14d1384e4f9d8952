"""Whole-state checks: card conservation (R1.1)."""

from __future__ import annotations

import numpy as np

from ...cards import NUM_TYPES, TYPE_COPIES, TYPE_NAMES
from .kernels.census import card_census
from .kernels.state import State


def card_counts(state: State, b: int) -> np.ndarray:
    """Count of each of the 53 card types found anywhere in game ``b``."""
    counts = np.zeros(NUM_TYPES, dtype=np.int64)
    card_census(state, b, counts)
    return counts


def conservation_errors(state: State, b: int) -> list[str]:
    """Card types whose count in game ``b`` differs from the 112-card deck,
    e.g. ``["KS: 3 instead of 2"]``; empty when the deck is complete."""
    counts = card_counts(state, b)
    return [
        f"{TYPE_NAMES[t]}: {counts[t]} instead of {TYPE_COPIES[t]}"
        for t in range(NUM_TYPES)
        if counts[t] != TYPE_COPIES[t]
    ]
