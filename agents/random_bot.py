"""``RandomBot``: a uniformly random legal action."""

from __future__ import annotations

import numpy as np

from .base import Agent


class RandomBot(Agent):
    """Uniform over the legal actions of each row; reproducible from ``seed``."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self._rng = np.random.default_rng(seed)

    def reset(self, n: int) -> None:
        self._rng = np.random.default_rng(self.seed)

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        mask = np.asarray(mask, dtype=np.bool_)
        counts = mask.sum(axis=1)
        if (counts == 0).any():
            raise ValueError(f"row {int(np.flatnonzero(counts == 0)[0])} has no legal action")
        pick = (self._rng.random(mask.shape[0]) * counts).astype(np.int64)
        cum = np.cumsum(mask, axis=1)
        return (cum <= pick[:, None]).sum(axis=1).astype(np.int64)
