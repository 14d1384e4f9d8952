"""Standard RL interfaces, each a thin adapter over :class:`~kanaszta_env.engine.GameBatch`.

* :func:`env` / :class:`raw_env` — PettingZoo AEC environment (``kanaszta_v0``);
* :class:`KanasztaGymEnv` — Gymnasium single-agent env (``Kanaszta-v0``);
* :class:`KanasztaVecEnv` — Stable-Baselines3 ``VecEnv`` over the batched engine
  (imported on first use: it needs the ``rl`` extra);
* :class:`RandomPolicy` — the uniformly random opponent as a Python callable.
"""

from __future__ import annotations

from typing import Any

from ..engine import RandomPolicy
from .aec import env, raw_env
from .gym_env import KanasztaGymEnv

__all__ = ["KanasztaGymEnv", "KanasztaVecEnv", "RandomPolicy", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    if name == "KanasztaVecEnv":  # stable-baselines3 is optional
        from .vec_env import KanasztaVecEnv

        return KanasztaVecEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
