"""What the partnership search bots (classic and Turkish) share: their checked settings and
the choice among candidates simulated over the same sampled worlds."""

from __future__ import annotations

import numpy as np


class SimulatedChoice:
    """Mixin: ``configure`` checks and stores the settings; ``_pick`` chooses a candidate."""

    def configure(
        self,
        samples: int,
        horizon: int,
        max_discards: int,
        hand_weight: float,
        prior: float,
        z: float,
        seed: int,
    ) -> None:
        """Check and store the search settings (``ValueError`` names a bad one)."""
        for key, value, low in (
            ("samples", samples, 2),
            ("horizon", horizon, 1),
            ("max_discards", max_discards, 1),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
                raise ValueError(f"{key} must be an integer of at least {low}, got {value!r}")
        if not 0.0 <= hand_weight <= 1.0:
            raise ValueError(f"hand_weight must lie in [0, 1], got {hand_weight!r}")
        if z < 0:
            raise ValueError(f"z must be non-negative, got {z!r}")
        self.samples, self.horizon, self.max_discards = int(samples), int(horizon), int(max_discards)
        self.hand_weight, self.prior, self.z, self.seed = (
            float(hand_weight),
            float(prior),
            float(z),
            int(seed),
        )

    def _pick(self, v: np.ndarray) -> int:
        """Candidate 0 (the heuristic's) unless another's paired gain over it, ``v`` being
        (samples, candidates) values, has a lower bound (mean - z standard errors) above
        ``prior``; then the best such bound."""
        d = v[:, 1:] - v[:, :1]
        bound = d.mean(axis=0) - self.z * d.std(axis=0, ddof=1) / np.sqrt(len(v))
        best = int(np.argmax(bound))
        return best + 1 if bound[best] > self.prior else 0
