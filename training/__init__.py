"""MaskablePPO self-play training for every game (Díszített, classic canasta, Turkish kanasta).

* :mod:`training.config` — :class:`TrainConfig`, the arguments of a run;
* :mod:`training.train` — :func:`train`, the training loop (``kanaszta train``);
* :mod:`training.lean_ppo` — MaskablePPO with lean collection and update loops (the default),
  optionally overlapping the update with the next collection;
* :mod:`training.opponents` — the opponent pool (bots and learner snapshots);
* :mod:`training.games.diszitett.shaping` — potential-based reward shaping;
* :mod:`training.evaluate` — matches, reports and ``kanaszta eval``;
* :mod:`training.rllib` — the same training on Ray RLlib (``kanaszta train --backend rllib``,
  the optional ``ray`` extra; ``docs/rllib.md``).

:func:`load_policy` (from :mod:`agents.checkpoint`) turns a checkpoint into an agent.

Heavy modules (torch, stable-baselines3) load on first use.
"""

from __future__ import annotations

from typing import Any

from .config import TrainConfig, parse_config

__all__ = ["TrainConfig", "load_policy", "parse_config", "train"]


def __getattr__(name: str) -> Any:
    if name == "train":
        from .train import train

        return train
    if name == "load_policy":
        from agents.checkpoint import load_policy

        return load_policy
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
