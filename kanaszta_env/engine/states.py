"""Copies of games held in any rule set's state tuple (a ``NamedTuple`` of arrays with a
leading batch axis)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


def copy_state(state: NamedTuple) -> NamedTuple:
    """A deep copy of every array (of any rule set's state tuple)."""
    return type(state)(*(a.copy() for a in state))


def select(state: NamedTuple, index: np.ndarray | slice | int) -> NamedTuple:
    """The games ``index`` of a batch, as a new batch (copies)."""
    if isinstance(index, int):
        index = slice(index, index + 1)
    return type(state)(*(a[index].copy() for a in state))
