"""The observation encoder of Turkish kanasta: writes the pieces that
:mod:`kanaszta_env.games.turkish.observation` declares, in that order — what one seat knows
and never a hidden card of another seat (the partner's included, T2.4) or of a
Fi nobody has taken (T3.4)."""

from __future__ import annotations

from numba import njit

from ....core.borrow import borrow
from ....core.config import CFG_MAX_HANDS, CFG_MAX_TURNS
from ....core.stream import encode_target, end_stream, flush_row, scratch_row
from ..observation import DECK_SIZE, HAND_SIZE_SCALE, OPENING_SCALE, SCORE_SCALE, STOCK_SIZE
from .state import PHASE_DISCARD, PHASE_DRAW, PHASE_MELD
from .tables import FORCED_DONE, FORCED_OWED, MELDS, NUM_FIS, OPEN_HIGH, OPEN_LOW, OPEN_THRESHOLD, PLAYERS

_PHASES = (PHASE_DRAW, PHASE_MELD, PHASE_DISCARD)


@njit(cache=True, inline="always")
def _clip(x: float, low: float) -> float:
    return min(max(x, low), 1.0)


@njit(cache=True, inline="always")
def _counts(counts, out, i: int) -> int:
    for t in range(53):
        out[i + t] = counts[t] / 2.0
    return i + 53


@njit(inline="always")
def _encode_melds(s, b: int, p: int, out, i: int) -> int:
    """The ``melds``, ``meld_owner``, ``meld_kind`` and ``meld_changed`` pieces."""
    mover_pair = s.to_move[b] % 2
    for rel in range(2):
        pair = (p + rel) % 2
        laid = s.meld_count[b, pair]
        for k in range(laid):  # the slots after a pair's melds are empty: ``out`` is zeroed
            _counts(s.melds[b, pair, k], out, i + 53 * k)
        i += 53 * MELDS
    for rel in range(2):
        pair = (p + rel) % 2
        for k in range(MELDS):
            owner = s.meld_owner[b, pair, k]
            if owner >= 0:  # the member after the observer's frame: (owner - p) % 4 is 0/2 or 1/3
                out[i + ((owner - p + PLAYERS) % PLAYERS) // 2] = 1.0
            i += 2
    for rel in range(2):
        pair = (p + rel) % 2
        for k in range(MELDS):
            kind = s.meld_kind[b, pair, k]
            if kind > 0:
                out[i + kind - 1] = 1.0
            i += 3
    for rel in range(2):
        pair = (p + rel) % 2
        for k in range(MELDS):
            live = pair == mover_pair and s.phase[b] != PHASE_DRAW and k < s.meld_count[b, pair]
            if live and (k >= s.cp_count[b] or s.meld_size[b, pair, k] != s.cp_size[b, k]):
                out[i] = 1.0
            i += 1
    return i


@njit(inline="always")
def encode_one(s, cfg, b: int, p: int, out) -> int:
    """The observation of seat ``p`` in game ``b`` into ``out``; returns the slots written."""
    out[:] = 0.0
    i = 0
    for j in range(3):
        out[i + j] = 1.0 if s.phase[b] == _PHASES[j] else 0.0
    out[i + 3] = 1.0 if s.phase[b] not in _PHASES else 0.0
    i += 4
    out[i + (s.to_move[b] - p + PLAYERS) % PLAYERS] = 1.0
    i += 4
    out[i] = _clip(s.turn[b] / cfg[CFG_MAX_TURNS], 0.0)
    out[i + 1] = _clip(s.hand_number[b] / cfg[CFG_MAX_HANDS], 0.0)
    i += 2
    out[i] = s.stock_len[b] / STOCK_SIZE
    i += 1
    i = _counts(s.hand[b, p], out, i)
    for r in range(PLAYERS):
        q = (p + r) % PLAYERS
        n = 0
        for t in range(53):
            n += s.hand[b, q, t]
        out[i + r] = _clip(n / HAND_SIZE_SCALE, 0.0)
    i += PLAYERS
    for r in range(1, PLAYERS):
        i = _counts(s.known[b, (p + r) % PLAYERS], out, i)
    for r in range(PLAYERS):
        out[i + r] = s.opened[b, (p + r) % PLAYERS]
        out[i + PLAYERS + r] = s.layoff[b, (p + r) % PLAYERS]
    i += 2 * PLAYERS
    for f in range(NUM_FIS):
        taker = s.fi_taker[b, f]
        out[i + ((taker - p + PLAYERS) % PLAYERS if taker >= 0 else 4)] = 1.0
        out[i + 5] = s.fi_used[b, f]
        i += 6
    for rel in range(2):
        pair = (p + rel) % 2
        out[i] = 1.0 if s.forced[b, pair] == FORCED_OWED else 0.0
        out[i + 1] = 1.0 if s.forced[b, pair] == FORCED_DONE else 0.0
        i += 2
    for rel in range(2):
        out[i + rel] = _clip(s.totals[b, (p + rel) % PLAYERS] / SCORE_SCALE, -1.0)
        out[i + 2 + rel] = _clip(s.hand_scores[b, (p + rel) % PLAYERS] / SCORE_SCALE, -1.0)
    i += 4
    high = s.totals[b, p] >= OPEN_THRESHOLD
    out[i] = (OPEN_HIGH if high else OPEN_LOW) / OPENING_SCALE
    out[i + 1] = 1.0 if s.forced[b, p % 2] == FORCED_OWED else 0.0
    i += 2
    out[i] = s.target[b] / SCORE_SCALE
    i += 1
    i = _encode_melds(s, b, p, out, i)
    n = s.pile_len[b]
    out[i + (s.pile[b, n - 1] if n > 0 else 53)] = 1.0
    i += 54
    out[i] = n / DECK_SIZE
    i += 1
    for j in range(n):
        out[i + s.pile[b, j]] += 0.5
    i += 53
    out[i] = 1.0 if s.changed[b] == 1 and s.phase[b] == PHASE_MELD else 0.0
    return i + 1


@njit(cache=True)
def encode_games(s, cfg, rows, seats, obs) -> int:
    """Observations of seat ``seats[i]`` in game ``rows[i]`` into ``obs[i]``;
    returns the slots written per row (0 for no rows). The per-row code is
    inlined and reads a borrowed state: passing the state tuple to a call costs
    more than a row's encoding (core/borrow.py). A batch larger than the cache
    encodes each row in a scratch row, then streams it out (core/stream.py)."""
    s = borrow(s)
    o = borrow((obs,))[0]
    scratch = scratch_row(obs, rows.shape[0])
    written = 0
    for i in range(rows.shape[0]):
        written = encode_one(s, cfg, rows[i], seats[i], encode_target(o[i], scratch))
        flush_row(o[i], scratch)
    end_stream(scratch)
    return written


__all__ = ["encode_games", "encode_one"]
