"""What happened in a classic canasta action, counted for coverage (``benchmarks/fuzz.py``
prints how often each ending and rare rule was reached): going out both ways (C12.1), the
partner's question and answers (C12.5), pile pickups (C7), the black-three meld (C10.2)."""

from __future__ import annotations

from numba import njit

from .. import actions as A
from .state import END_OUT, OUT_DISCARD, OUT_MELD, PHASE_OVER

EVENT_NAMES = (
    "out by discard",
    "out by melding",
    "asked the partner",
    "partner said yes",
    "partner said no",
    "pile taken",
    "black threes melded",
)


@njit(cache=True)
def mark(s, b: int) -> int:
    """What :func:`note` compares with (nothing: classic's events show in the action)."""
    return 0


@njit(cache=True)
def note(s, cfg, b: int, a: int, before: int, counts) -> None:
    """Count the events of action ``a`` just applied to game ``b`` into ``counts``."""
    if s.phase[b] == PHASE_OVER and s.end_reason[b] == END_OUT:
        if s.out_how[b] == OUT_DISCARD:
            counts[0] += 1
        elif s.out_how[b] == OUT_MELD:
            counts[1] += 1
    if a == A.ASK:
        counts[2] += 1
    elif a == A.ANSWER_YES:
        counts[3] += 1
    elif a == A.ANSWER_NO:
        counts[4] += 1
    elif a == A.TAKE_PILE:
        counts[5] += 1
    elif a == A.BLACK_THREE:
        counts[6] += 1
