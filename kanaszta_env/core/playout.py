"""Random play over whole batches: the benchmarks' and fuzzers' kernels (stepping
for everything else goes through the engine's driver)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .borrow import borrow
from .rng import below
from .ruleset import NUM_ACTIONS, PHASE_OVER, apply_action, legal_row, reset_game  # this variant's rule set


@njit(cache=True)
def sample_uniform(mask: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """One uniformly random legal action per row (-1 where none is legal)."""
    for b in range(mask.shape[0]):
        n = 0
        for a in range(mask.shape[1]):
            if mask[b, a]:
                n += 1
        if n == 0:
            out[b] = -1
            continue
        k = below(rng, b, n)
        for a in range(mask.shape[1]):
            if mask[b, a]:
                if k == 0:
                    out[b] = a
                    break
                k -= 1


@njit(cache=True)
def random_playout(
    s, cfg, rng: np.ndarray, max_steps: int, seeds: np.ndarray, lengths: np.ndarray
) -> np.ndarray:
    """Play uniformly random legal actions in every game for ``max_steps``
    sweeps over the batch, restarting finished games from ``seeds[b] + B``
    (benchmarks and fuzzing). The decision counts of finished episodes are
    written to ``lengths`` (as many as fit). Returns ``[decisions, episodes]``."""
    s = borrow(s)  # no reference counting inside the kernel (core/borrow.py)
    B = s.phase.shape[0]
    row = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    rewards = np.zeros((B, s.hand.shape[1]), dtype=np.float64)
    current = np.zeros(B, dtype=np.int64)
    counts = np.zeros(2, dtype=np.int64)
    for _ in range(max_steps):
        for b in range(B):
            if s.phase[b] == PHASE_OVER:
                seeds[b] += np.uint64(B)
                reset_game(s, cfg, b, seeds[b])
            n = legal_row(s, cfg, b, row)
            k = below(rng, b, n)
            for a in range(NUM_ACTIONS):
                if row[a]:
                    if k == 0:
                        apply_action(s, cfg, b, a, rewards)
                        break
                    k -= 1
            counts[0] += 1
            current[b] += 1
            if s.phase[b] == PHASE_OVER:
                if counts[1] < lengths.shape[0]:
                    lengths[counts[1]] = current[b]
                counts[1] += 1
                current[b] = 0
    return counts
