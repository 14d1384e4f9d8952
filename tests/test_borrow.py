"""``core.borrow``: the kernels' reference-count-free view of the state."""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from kanaszta_env import GameBatch, Rules
from kanaszta_env.core.borrow import borrow


@njit(cache=True)
def _write_through_borrowed(s, value: int) -> int:
    t = borrow(s)
    t.phase[0] = value
    t.hand[0, 1, 5] += 1
    return t.hand.shape[0] * 1000 + t.hand.shape[2]


def test_borrowed_state_is_the_same_memory() -> None:
    games = GameBatch(Rules(), batch_size=3)
    games.reset(seed=4)
    before = games.state.hand.copy()
    refs = [sys.getrefcount(a) for a in games.state]
    assert _write_through_borrowed(games.state, 2) == 3 * 1000 + 53
    assert games.state.phase[0] == 2
    expected = before.copy()
    expected[0, 1, 5] += 1
    np.testing.assert_array_equal(games.state.hand, expected)
    # the arrays' Python reference counts are untouched by the kernel
    assert [sys.getrefcount(a) for a in games.state] == refs
