"""The observation encoder of mini canasta: writes the pieces that ``observation.py``
declares, in that order, as one seat sees the game."""

from __future__ import annotations

from numba import njit

from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.core.common import hand_size
from kanaszta_env.core.config import CFG_MAX_HANDS, CFG_MAX_TURNS

from ..observation import DECK, MAX_WILDS, SCORE_SCALE
from .cards import wilds
from .state import PHASE_DRAW
from .tables import COPIES, PLAYERS


@njit(cache=True)
def _clip(x: float) -> float:
    return min(max(x, -1.0), 1.0)


@njit(cache=True)
def _encode(s, cfg, b: int, p: int, out) -> None:
    """Seat ``p``'s view of game ``b`` into the zeroed row ``out``."""
    out[min(s.phase[b] - PHASE_DRAW, 2)] = 1.0
    out[3 + (s.to_move[b] - p) % PLAYERS] = 1.0
    out[5] = min(s.turn[b] / cfg[CFG_MAX_TURNS], 1.0)
    out[6] = min(s.hand_number[b] / cfg[CFG_MAX_HANDS], 1.0)
    out[7] = s.stock_len[b] / DECK
    i = 8
    for t in range(NUM_TYPES):
        out[i + t] = s.hand[b, p, t] / COPIES[t]
    i += NUM_TYPES
    for rel in range(PLAYERS):
        out[i + rel] = hand_size(s.hand[b, (p + rel) % PLAYERS]) / DECK
    i += PLAYERS
    melds = s.melds.shape[2]
    for rel in range(PLAYERS):
        q = (p + rel) % PLAYERS
        for k in range(melds):
            for t in range(NUM_TYPES):
                out[i + rel * NUM_TYPES + t] += s.melds[b, q, k, t] / COPIES[t]
            out[i + PLAYERS * NUM_TYPES + rel * melds + k] = wilds(s.melds[b, q, k]) / MAX_WILDS
    i += PLAYERS * (NUM_TYPES + melds)
    n = s.pile_len[b]
    out[i + (s.pile[b, n - 1] if n > 0 else NUM_TYPES)] = 1.0
    i += NUM_TYPES + 1
    for k in range(n):
        out[i + s.pile[b, k]] += 1.0 / COPIES[s.pile[b, k]]
    i += NUM_TYPES
    for rel in range(PLAYERS):
        q = (p + rel) % PLAYERS
        out[i + rel] = _clip(s.totals[b, q] / SCORE_SCALE)
        out[i + PLAYERS + rel] = _clip(s.hand_scores[b, q] / SCORE_SCALE)


@njit(cache=True)
def encode_games(s, cfg, rows, seats, out) -> None:
    """Row ``i`` of ``out``: seat ``seats[i]``'s observation of game ``rows[i]``."""
    for i in range(rows.shape[0]):
        out[i, :] = 0.0
        _encode(s, cfg, rows[i], seats[i], out[i])
