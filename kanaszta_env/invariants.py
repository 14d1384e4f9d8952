"""Whole-state checks: card conservation and per-player consistency."""

from __future__ import annotations

import numpy as np

from .cards import HEART_ACE, NUM_TYPES, RED_THREES, SLOT_TYPE, TYPE_COPIES
from .core.state import State


def card_counts(state: State, b: int) -> np.ndarray:
    """Count of each of the 53 card types found anywhere in game ``b``."""
    counts = np.zeros(NUM_TYPES, dtype=np.int64)
    np.add.at(counts, state.stock[b, : state.stock_len[b]], 1)
    np.add.at(counts, state.pile[b, : state.pile_len[b]], 1)
    counts += state.hand[b].sum(axis=0)
    groups = state.groups[b].sum(axis=0)  # (12, 9)
    valid = SLOT_TYPE >= 0
    np.add.at(counts, SLOT_TYPE[valid], groups[valid])
    counts[RED_THREES[0]] += state.red_threes[b, :, 0].sum()
    counts[RED_THREES[1]] += state.red_threes[b, :, 1].sum()
    counts[HEART_ACE] += state.sep_heart_aces[b].sum()
    if state.lifted[b] >= 0:
        counts[state.lifted[b]] += 1
    return counts


def conservation_errors(state: State, b: int) -> list[str]:
    """Card types whose count in game ``b`` differs from the 112-card deck."""
    counts = card_counts(state, b)
    return [
        f"{name}: {counts[t]} instead of {TYPE_COPIES[t]}"
        for t, name in enumerate(__import__("kanaszta_env.cards", fromlist=["TYPE_NAMES"]).TYPE_NAMES)
        if counts[t] != TYPE_COPIES[t]
    ]
