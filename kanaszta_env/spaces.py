"""Gymnasium observation spaces that declare the rules of their observations."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .observation import observation_bounds, observation_size
from .rules import Rules

__all__ = ["ObservationSpace", "rules_of_space"]


class ObservationSpace(spaces.Box):
    """The ``Box`` of the observations of ``rules`` that also declares the rules
    (``space.rules``), so consumers such as feature extractors read the number
    of players and the layout from the declaration, not from the vector length.

    ``hint`` names a bot whose choice follows the observation as ``hint_size``
    one-hot inputs (:mod:`agents.hinted`); the plain environments have none."""

    def __init__(self, rules: Rules | None = None, *, hint: str = "", hint_size: int = 0) -> None:
        if bool(hint) != (hint_size > 0):
            raise ValueError("ObservationSpace: give both a hint and its size, or neither")
        self.rules = rules or Rules()
        self.hint = hint
        self.hint_size = hint_size
        low, high = observation_bounds(self.rules)
        if hint_size:
            low = np.concatenate([low, np.zeros(hint_size, low.dtype)])
            high = np.concatenate([high, np.ones(hint_size, high.dtype)])
        super().__init__(low, high, dtype=np.float32)


def rules_of_space(space: spaces.Space) -> Rules:
    """The rules an observation space declares (an :class:`ObservationSpace`, or a
    ``Dict`` space whose ``"observation"`` entry is one, as the AEC env's)."""
    if isinstance(space, spaces.Dict) and "observation" in space.spaces:
        space = space.spaces["observation"]
    rules = getattr(space, "rules", None)
    if not isinstance(rules, Rules):
        raise ValueError(
            f"{space!r} does not declare its rules: build it as kanaszta_env.spaces.ObservationSpace(rules)"
        )
    expected = observation_size(rules) + getattr(space, "hint_size", 0)
    if space.shape != (expected,):
        raise ValueError(f"{space!r} has shape {space.shape}, its rules' observations {expected}")
    return rules
