"""The observation kernel: one fixed-length float vector per (game, observer).

The vector is an encoding of the observer's :class:`~kanaszta_env.games.diszitett.kernels.view.View`
(:func:`encode_view`): the state is first read into the view
(:func:`~kanaszta_env.games.diszitett.kernels.view.fill_view`, the one place that decides what a
seat may see), then every piece is written from the view alone, so the view and
the vector cannot disagree. :func:`~kanaszta_env.games.diszitett.kernels.decode.decode_view`
(:mod:`kanaszta_env.games.diszitett.kernels.decode`) inverts the encoding exactly. The layout —
the order and size of the pieces — is declared piece by piece in
:mod:`kanaszta_env.games.diszitett.observation`, which also generates ``docs/observation.md``; a
test checks that the kernel writes it, and the decoder reads the pieces at the
offsets of that declaration.

Every scale of the encoding is named here (or in :mod:`~kanaszta_env.games.diszitett.kernels.view`
for the counts the view clips); nothing else may copy them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import GROUP_SLOTS, NUM_GROUPS, NUM_TYPES, SLOT_TYPE
from ....core.borrow import borrow, flat
from ....core.config import CFG_EPISODE_GAME, CFG_MAX_HANDS, CFG_MAX_TURNS, CFG_PLAYERS, CFG_TARGET
from ....core.stream import encode_target, end_stream, flush_row, scratch_row
from . import view as V
from .legal import is_frozen
from .melds import canasta_kind, opening_value
from .state import PHASE_CUT, PHASE_OVER
from .tables import CANASTA_SIZE, DECK_SIZE, TABLE_CLEARING_PILE, TYPE_COPIES
from .view import (
    CUT_CARDS,
    CUT_KEPT,
    CUT_LEFT,
    HAND_SCORE_SCALE,
    HAND_SIZE_SCALE,
    LAID_KINDS,
    LOCKED_KINDS,
    PICKUP_FROM_HAND_SCALE,
    TWINS_SCALE,
    View,
    fill_view,
    view_in,
    view_row,
    view_size,
)

NUM_PHASES = 6
NUM_FREE_STATES = 4
NUM_PICKUP_KINDS = 3
NUM_CANASTA_KINDS = 5
NUM_TAX_BRACKETS = 4
NUM_WILD_TYPES = 5
#: scales: an encoded value is the count divided by its scale
DECK = float(DECK_SIZE)  # pile, stock and pickup sizes
STOCK_KNOWN_SCALE = 3.0  # known bottom cards of the stock (R3.4)
GROUP_SIZE_SCALE = 8.0  # cards in a group (clipped)
HEART_ACES_SCALE = 2.0  # separate heart aces (R10.6)
RED_THREE_SCALE = 2.0  # 3H or 3D laid out (R4)
RED_THREE_DEBT_SCALE = 4.0  # replacements still to draw (R4.2)
MAX_OPENING_MINIMUM = 120.0  # R12.2
WILDS_PUT_SCALE = 7.0  # wilds put into or taken out of a group this turn
NATURALS_ADDED_SCALE = 8.0  # naturals added to a group this turn
NEW_ACES_SCALE = 2.0  # separate heart aces laid this turn
#: scale of each entry of ``View.laid`` (naturals added, then four wild counts)
LAID_SCALES = np.array([NATURALS_ADDED_SCALE] + [WILDS_PUT_SCALE] * (LAID_KINDS - 1))
#: slots of the current-turn pieces (zeros outside the turn phases)
TURN_SIZE = NUM_PICKUP_KINDS + 3 + NUM_WILD_TYPES + 4 + NUM_GROUPS * (1 + 1 + LOCKED_KINDS + LAID_KINDS)

_INV_COPIES = (1.0 / TYPE_COPIES).astype(np.float32)
#: copies in the deck of the card type held in each of a group's nine slots
SLOT_COPIES = TYPE_COPIES[SLOT_TYPE[0]].astype(np.int64)
#: 1 ÷ those copies over a seat's 108 group slots, and the scales of every group's ``View.laid``:
#: a loop over one flat row from one flat source vectorises
_INV_GROUP_COPIES = np.tile((1.0 / SLOT_COPIES).astype(np.float32), NUM_GROUPS)
_GROUP_LAID_SCALES = np.tile(LAID_SCALES, NUM_GROUPS)


@njit(inline="always")
def _clip(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else (hi if x > hi else x)


@njit(inline="always")
def _by_copies(counts: np.ndarray, out: np.ndarray) -> None:
    """``out`` = counts by card type ÷ copies in the deck (a loop over slices alone vectorises)."""
    for t in range(NUM_TYPES):
        out[t] = counts[t] * _INV_COPIES[t]


@njit(inline="always")
def _encode_table(v: View, cfg, o: np.ndarray, c: int) -> int:
    """Every player's table, each piece seat-major with the observer first,
    from slot ``c``; returns the next slot."""
    players = cfg[CFG_PLAYERS]
    G = NUM_GROUPS
    target = float(cfg[CFG_TARGET])
    sizes = c + players * G * GROUP_SLOTS
    kinds = sizes + players * G
    for k in range(players):
        cards = flat(v.groups[k])
        out = o[c + k * G * GROUP_SLOTS : c + (k + 1) * G * GROUP_SLOTS]
        for i in range(G * GROUP_SLOTS):
            out[i] = cards[i] * _INV_GROUP_COPIES[i]
        for g in range(G):
            size = 0
            for j in range(GROUP_SLOTS):
                size += v.groups[k, g, j]
            # a group under construction may pass 8 cards until the discard
            o[sizes + k * G + g] = min(size / GROUP_SIZE_SCALE, 1.0)
            if size >= CANASTA_SIZE:
                kind = canasta_kind(g, v.groups[k, g])
                if kind > 0:
                    o[kinds + (k * G + g) * NUM_CANASTA_KINDS + kind - 1] = 1.0
    c = kinds + players * G * NUM_CANASTA_KINDS
    for k in range(players):
        o[c + 4 * k] = v.heart_aces[k] / HEART_ACES_SCALE
        o[c + 4 * k + 1] = v.red_threes[k, 0] / RED_THREE_SCALE
        o[c + 4 * k + 2] = v.red_threes[k, 1] / RED_THREE_SCALE
        o[c + 4 * k + 3] = v.red_three_debt[k] / RED_THREE_DEBT_SCALE
    c += 4 * players
    for k in range(players):
        o[c + k] = v.twins[k] / TWINS_SCALE
        o[c + players + k] = v.hand_size[k] / HAND_SIZE_SCALE
        o[c + 2 * players + k] = float(v.opened[k])
    c += 3 * players
    for k in range(players):
        o[c + NUM_FREE_STATES * k + v.free[k]] = 1.0
    c += NUM_FREE_STATES * players
    for k in range(players):
        _by_copies(v.known[k], o[c + k * NUM_TYPES : c + (k + 1) * NUM_TYPES])
    c += NUM_TYPES * players
    for k in range(players):
        o[c + k] = v.total[k] / target
        o[c + players + NUM_TAX_BRACKETS * k + v.tax_bracket[k]] = 1.0
        o[c + players * (1 + NUM_TAX_BRACKETS) + k] = v.minimum[k] / MAX_OPENING_MINIMUM
        o[c + players * (2 + NUM_TAX_BRACKETS) + k] = v.last_score[k] / HAND_SCORE_SCALE
    return c + players * (3 + NUM_TAX_BRACKETS)


@njit(inline="always")
def _encode_turn(v: View, o: np.ndarray, c: int) -> int:
    """The current turn (the mover's pending obligations and what he laid this
    turn), zeros outside the turn phases; returns the next slot."""
    info = v.info
    phase = info[V.I_PHASE]
    if phase in (PHASE_OVER, PHASE_CUT):
        return c + TURN_SIZE
    G = NUM_GROUPS
    o[c + info[V.I_PICKUP_KIND]] = 1.0
    c += NUM_PICKUP_KINDS
    if info[V.I_PICKUP_GROUP] >= 0:
        o[c + info[V.I_PICKUP_GROUP]] = 1.0
    c += G
    o[c] = info[V.I_PICKUP_FROM_HAND] / PICKUP_FROM_HAND_SCALE
    o[c + 1] = info[V.I_PICKUP_SIZE] / DECK
    o[c + 2] = 1.0 if info[V.I_PICKUP_SIZE] >= TABLE_CLEARING_PILE else 0.0
    c += 3
    if info[V.I_LIFTED] >= 0:
        o[c + info[V.I_LIFTED]] = 1.0
        o[c + NUM_WILD_TYPES + info[V.I_LIFTED_FROM]] = 1.0
    c += NUM_WILD_TYPES + G
    locked = flat(v.locked)
    out = o[c : c + G * LOCKED_KINDS]
    for i in range(G * LOCKED_KINDS):
        out[i] = locked[i] / WILDS_PUT_SCALE
    c += LOCKED_KINDS * G
    laid = flat(v.laid)
    out = o[c : c + G * LAID_KINDS]
    for i in range(G * LAID_KINDS):
        out[i] = laid[i] / _GROUP_LAID_SCALES[i]
    c += LAID_KINDS * G
    o[c] = float(info[V.I_CHANGED])
    o[c + 1] = info[V.I_NEW_ACES] / NEW_ACES_SCALE
    mover = info[V.I_MOVER]
    if v.opened[mover] == 0:
        value = opening_value(v.groups[mover])
        minimum = v.minimum[mover]
        o[c + 2] = _clip(value / (2.0 * minimum), 0.0, 1.0)
        o[c + 3] = 1.0 if value >= minimum else 0.0
    return c + 4


@njit(inline="always")
def encode_view(v: View, cfg, o: np.ndarray) -> int:
    """Write the observation of the row view ``v`` into ``o`` and return the
    number of slots written (the layout of :mod:`kanaszta_env.games.diszitett.observation`)."""
    players = cfg[CFG_PLAYERS]
    info = v.info
    o[:] = 0.0  # one memset of the row: cheaper than clearing the sparse pieces one by one
    c = 0
    # --- flow ----------------------------------------------------------------------
    o[c + info[V.I_PHASE]] = 1.0
    c += NUM_PHASES
    o[c + info[V.I_MOVER]] = 1.0
    c += players
    o[c + info[V.I_STARTER_OFFSET]] = 1.0
    c += players
    o[c] = info[V.I_TURN] / cfg[CFG_MAX_TURNS]
    if cfg[CFG_EPISODE_GAME] == 1:
        o[c + 1] = info[V.I_HAND_NUMBER] / cfg[CFG_MAX_HANDS]
    o[c + 2] = float(info[V.I_HEART_ACES])
    c += 3
    # --- own hand, discard pile and stock ---------------------------------------------
    _by_copies(v.hand, o[c : c + NUM_TYPES])
    _by_copies(v.pile, o[c + NUM_TYPES : c + 2 * NUM_TYPES])
    c += 2 * NUM_TYPES
    top = info[V.I_TOP]
    if top >= 0:
        o[c + top] = 1.0
    if info[V.I_TOP_OWNER] >= 0:
        o[c + NUM_TYPES + info[V.I_TOP_OWNER]] = 1.0
    c += NUM_TYPES + players
    n = info[V.I_PILE_N]
    o[c] = n / DECK
    o[c + 1] = 1.0 if n >= TABLE_CLEARING_PILE else 0.0
    o[c + 2] = float(info[V.I_FRESH])
    o[c + 3] = 1.0 if top >= 0 and is_frozen(top) else 0.0
    c += 4
    o[c] = info[V.I_STOCK_N] / DECK
    o[c + 1] = info[V.I_STOCK_KNOWN] / STOCK_KNOWN_SCALE
    c += 2
    _by_copies(v.stock_bottom, o[c : c + NUM_TYPES])
    _by_copies(v.unknown, o[c + NUM_TYPES : c + 2 * NUM_TYPES])
    c += 2 * NUM_TYPES
    # --- every player's table, the current turn, the cut ---------------------------------
    c = _encode_table(v, cfg, o, c)
    c = _encode_turn(v, o, c)
    for k in range(CUT_CARDS):
        if v.cut[k] >= 0:
            o[c + NUM_TYPES * k + v.cut[k]] = 1.0
        if v.cut_kept[k] == CUT_KEPT:
            o[c + CUT_CARDS * NUM_TYPES + 2 * k] = 1.0
        elif v.cut_kept[k] == CUT_LEFT:
            o[c + CUT_CARDS * NUM_TYPES + 2 * k + 1] = 1.0
    return c + CUT_CARDS * (NUM_TYPES + 2)


@njit(cache=True)
def encode_games(s, cfg, games: np.ndarray, seats: np.ndarray, out: np.ndarray) -> int:
    """Row ``i`` of ``out`` = player ``seats[i]``'s observation of game ``games[i]``
    (his view, then its encoding). Returns the number of slots written per row.

    One function body loops over the rows (:func:`fill_view` and
    :func:`encode_view` are inlined): a call that receives the 41-array state
    costs more than a row's encoding. A batch larger than the cache encodes each
    row in a scratch row, then streams it out (core/stream.py)."""
    s = borrow(s)  # no reference counting inside the kernel (core/borrow.py)
    o = borrow((out,))[0]
    scratch = np.empty(view_size(cfg[CFG_PLAYERS]), np.int64)  # fill_view writes every entry
    w = view_in(borrow((scratch,))[0], cfg[CFG_PLAYERS])
    row = scratch_row(out, games.shape[0])
    c = 0
    for i in range(games.shape[0]):
        fill_view(s, cfg, games[i], seats[i], w)
        c = encode_view(w, cfg, encode_target(o[i], row))
        flush_row(o[i], row)
    end_stream(row)
    scratch[0] = 0  # the buffer stays alive while its borrowed slices are in use
    return c


@njit(cache=True)
def encode_batch(s, cfg, players: np.ndarray, out: np.ndarray) -> int:
    """Row ``b`` of ``out`` = player ``players[b]``'s observation of game ``b``."""
    return encode_games(s, cfg, np.arange(out.shape[0]), players, out)


@njit(cache=True)
def encode_views(v: View, cfg, out: np.ndarray) -> int:
    """Row ``i`` of ``out`` = the observation of row ``i`` of the batched view ``v``."""
    v = borrow(v)
    o = borrow((out,))[0]
    c = 0
    for i in range(out.shape[0]):
        c = encode_view(view_row(v, i), cfg, o[i])
    return c
