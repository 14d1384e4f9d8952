"""The uniformly random policy as a Python callable."""

from __future__ import annotations

import numpy as np


class RandomPolicy:
    """Uniformly random legal actions, ``policy(obs, mask) -> actions``.

    Seated in a :class:`~kanaszta_env.engine.GameBatch` as ``"random"`` the same
    player runs inside the compiled step instead (per-game random streams
    derived from the game seeds); the envs map a ``RandomPolicy`` opponent to
    that. Called directly it uses its own numpy generator.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        counts = mask.sum(axis=1)
        pick = (self._rng.random(mask.shape[0]) * counts).astype(np.int64)
        return (np.cumsum(mask, axis=1) <= pick[:, None]).sum(axis=1)
