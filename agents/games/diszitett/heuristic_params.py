"""The tunable weights of :class:`~agents.games.diszitett.heuristic.HeuristicBot`: a float64
vector indexed by the ``H_*`` constants, with its defaults by name."""

from __future__ import annotations

import numpy as np

# tunable weights (a float64 vector; defaults in DEFAULT_PARAMS)
H_MIN_LEFT = 0  # cards to keep in hand until the first canasta
H_OUT_MARGIN = 1  # go out when (my score if out) - (opponent's estimate) >= this
H_RISK = 2  # weight of the feeding risk in discards
H_PILE_CARD = 3  # worth of one card of the discard pile
H_DRAW_VALUE = 4  # worth of a random card from the stock
H_TWIN = 5  # worth of a twin
H_FREEZE_PILE = 6  # pile size from which a black three is discarded to freeze it
H_MODE = 7  # melding mode of meld_plan (0 = the heuristic's own choice; used by the search)
H_ACE_OPENS = 8  # open as soon as possible when holding a heart ace (1) or not (0)

DEFAULT_PARAMS = {
    "min_left": 10.0,
    "out_margin": -1000.0,
    "risk": 1.0,
    "pile_card": 22.0,
    "draw_value": 25.0,
    "twin": 100.0,
    "freeze_pile": 6.0,
    "mode": 0.0,
    "ace_opens": 1.0,
}
PARAM_ORDER = tuple(DEFAULT_PARAMS)  # the vector's order: the H_* indices above


def params_vector(params: dict[str, float] | None = None) -> np.ndarray:
    """The weight vector of ``DEFAULT_PARAMS`` updated with ``params``."""
    merged = dict(DEFAULT_PARAMS)
    for key, value in (params or {}).items():
        if key not in merged:
            raise ValueError(f"unknown HeuristicBot parameter {key!r}; known: {sorted(merged)}")
        merged[key] = float(value)
    return np.array([merged[k] for k in PARAM_ORDER], dtype=np.float64)
