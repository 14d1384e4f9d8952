"""The observation of classic canasta (docs/observation-classic.md): what one
seat knows — its hand, every side's melds, red threes and totals, all hand
sizes, the pile's top, size and (public) contents — and never a hidden card
of another seat, the partner included (C2.9, C4.6).

Seats and sides are relative: the observer first, then clockwise; his side
first, then the others in side order after it.
"""

from __future__ import annotations

from numba import njit

from ...rules import CFG_MAX_TURNS, CFG_PLAYERS
from ...rules_classic import CC_SIDES
from ..legal import opening_minimum
from .melds import has_canasta, naturals
from .state import PHASE_ANSWER
from .tables import JOKER_SLOT, KIND_OF, NUM_MELDS, TWO_SLOT0

NUM_KINDS = 14
SEAT_BLOCK = 1 + NUM_KINDS  # hand size, publicly known cards by kind
SIDE_BLOCK = 3 * NUM_MELDS + 4  # melds (naturals, twos, jokers), red threes, opened, canasta, total
PILE_BLOCK = (NUM_KINDS + 1) + 1 + NUM_KINDS + 1  # top kind (or empty), size, contents, frozen-by-wild
FLOW_BLOCK = 1 + 7 + 4 + 4  # stock, phase, the partner's answer, opening minimum / turn / hand / asked-of-me


def observation_size(players: int, sides: int) -> int:
    """Length of the observation vector for ``players`` seats in ``sides`` sides."""
    return 2 * NUM_KINDS + (players - 1) * SEAT_BLOCK + sides * SIDE_BLOCK + PILE_BLOCK + FLOW_BLOCK


@njit(cache=True)
def _kinds(counts, out, start: int, scale: float) -> None:
    for t in range(counts.shape[0]):
        k = KIND_OF[t]
        if k >= 0:
            out[start + k] += counts[t] * scale


@njit(cache=True)
def encode_one(s, cfg, b: int, p: int, out) -> None:
    """Write seat ``p``'s observation of game ``b`` into ``out`` (zeroed here)."""
    out[:] = 0.0
    players = cfg[CFG_PLAYERS]
    sides = cfg[CC_SIDES]
    i = 0
    _kinds(s.hand[b, p], out, i, 0.25)
    i += NUM_KINDS
    _kinds(s.pile_locked[b], out, i, 0.25)
    i += NUM_KINDS
    for r in range(1, players):
        q = (p + r) % players
        n = 0
        for t in range(s.hand.shape[2]):
            n += s.hand[b, q, t]
        out[i] = n / 20.0
        _kinds(s.known[b, q], out, i + 1, 0.25)
        i += SEAT_BLOCK
    own = s.side_of[b, p]
    for r in range(sides):
        d = (own + r) % sides
        grp = s.groups[b, d]
        for g in range(NUM_MELDS):
            out[i + 3 * g] = naturals(grp, g) / 8.0
            out[i + 3 * g + 1] = (grp[g, TWO_SLOT0] + grp[g, 5] + grp[g, 6] + grp[g, 7]) / 4.0
            out[i + 3 * g + 2] = grp[g, JOKER_SLOT] / 4.0
        j = i + 3 * NUM_MELDS
        out[j] = s.red_threes[b, d] / 4.0
        out[j + 1] = s.opened[b, d]
        out[j + 2] = 1.0 if has_canasta(grp) else 0.0
        for q in range(players):
            if s.side_of[b, q] == d:
                out[j + 3] = s.totals[b, q] / 5000.0
                break
        i += SIDE_BLOCK
    n = s.pile_len[b]
    if n > 0:
        out[i + KIND_OF[s.pile[b, n - 1]]] = 1.0 if KIND_OF[s.pile[b, n - 1]] >= 0 else 0.0
    else:
        out[i + NUM_KINDS] = 1.0
    i += NUM_KINDS + 1
    out[i] = n / 50.0
    i += 1
    for k in range(n):
        t = s.pile[b, k]
        if KIND_OF[t] >= 0:
            out[i + KIND_OF[t]] += 0.125
    i += NUM_KINDS
    out[i] = 1.0 if s.pile_wilds[b] > 0 else 0.0
    i += 1
    out[i] = s.stock_len[b] / 100.0
    out[i + 1 + s.phase[b]] = 1.0
    i += 8
    out[i + s.asked[b]] = 1.0
    i += 4
    out[i] = opening_minimum(s.totals, cfg, b, p) / 150.0
    out[i + 1] = s.turn[b] / max(cfg[CFG_MAX_TURNS], 1)
    m = 0
    for t in range(s.hand.shape[2]):
        m += s.hand[b, p, t]
    out[i + 2] = m / 20.0
    out[i + 3] = 1.0 if s.phase[b] == PHASE_ANSWER and s.to_move[b] == p else 0.0


@njit(cache=True)
def encode_games(s, cfg, rows, seats, obs) -> None:
    """Observations of seat ``seats[i]`` in game ``rows[i]`` into ``obs[i]``."""
    for i in range(rows.shape[0]):
        encode_one(s, cfg, rows[i], seats[i], obs[i])


__all__ = ["encode_games", "encode_one", "observation_size"]
