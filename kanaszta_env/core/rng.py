"""Per-game random numbers (splitmix64): a game's randomness depends on its own
seed only, so a game replays identically whatever batch it is played in."""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def next_u64(rng: np.ndarray, b: int) -> np.uint64:
    """Advance game ``b``'s state and return 64 random bits."""
    x = rng[b] + _GOLDEN
    rng[b] = x
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def below(rng: np.ndarray, b: int, n: int) -> int:
    """A random integer in ``[0, n)`` (n ≤ 2**32; multiply-shift, no modulo bias
    worth speaking of)."""
    return int(((next_u64(rng, b) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle(rng: np.ndarray, b: int, arr: np.ndarray, n: int) -> None:
    """Fisher-Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = below(rng, b, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
