"""What happened in a Turkish kanasta action, counted for coverage (``benchmarks/fuzz.py``
prints how often each ending and rare rule was reached): the Fis taken by melding and by
discarding (T11), forced canasta openings owed, made and missed (T12), canastas (T8) and
going out (T13)."""

from __future__ import annotations

from numba import njit

from .. import actions as A
from .state import END_OUT, PHASE_OVER
from .tables import FORCED_DONE, FORCED_OWED, KIND_NONE, PAIRS

EVENT_NAMES = (
    "Fi taken by melding",
    "Fi taken by discarding",
    "canasta opening owed",
    "canasta opening made",
    "canasta opening missed",
    "canastas",
    "went out",
)


@njit(cache=True)
def _counts(s, b: int) -> tuple[int, int, int, int]:
    """(Fis taken, pairs owing a canasta opening, pairs that made it, canastas)."""
    fis = (s.fi_taker[b, 0] >= 0) + (s.fi_taker[b, 1] >= 0)
    owed = made = canastas = 0
    for pair in range(PAIRS):
        owed += s.forced[b, pair] == FORCED_OWED
        made += s.forced[b, pair] == FORCED_DONE
        for k in range(s.meld_count[b, pair]):
            canastas += s.meld_kind[b, pair, k] != KIND_NONE
    return fis, owed, made, canastas


@njit(cache=True)
def mark(s, b: int) -> tuple[int, int, int, int]:
    """The counts of :func:`_counts`, taken before an action for :func:`note`."""
    return _counts(s, b)


@njit(cache=True)
def note(s, cfg, b: int, a: int, before: tuple[int, int, int, int], counts) -> None:
    """Count the events of action ``a`` just applied to game ``b`` (``before``: its
    :func:`mark`) into ``counts``. A new hand's deal resets the counts: nothing is counted then."""
    fis, owed, made, canastas = _counts(s, b)
    fis0, owed0, made0, canastas0 = before
    if fis > fis0:
        counts[1 if a >= A.DISCARD0 else 0] += fis - fis0
    if owed > owed0:
        counts[2] += owed - owed0
    if made > made0:
        counts[3] += made - made0
    if canastas > canastas0:
        counts[5] += canastas - canastas0
    if s.phase[b] == PHASE_OVER:
        counts[4] += owed
        counts[6] += s.end_reason[b] == END_OUT
