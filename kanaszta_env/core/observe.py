"""The observation kernel: one fixed-length float vector per (game, observer).

The vector is an encoding of the observer's :class:`~kanaszta_env.core.view.View`
(:func:`encode_view`): the state is first read into the view
(:func:`~kanaszta_env.core.view.fill_view`, the one place that decides what a
seat may see), then every piece is written from the view alone, so the view and
the vector cannot disagree. :func:`decode_view` inverts the encoding exactly
(the pieces derived from others, such as group sizes and canasta kinds, are not
read back). The layout — the order and size of the pieces — is declared piece
by piece in :mod:`kanaszta_env.encoding`, which also generates
``docs/observation.md``; a test checks that the kernel writes it, and the
decoder reads the pieces at the offsets of that declaration.

Every scale of the encoding is named here (or in :mod:`~kanaszta_env.core.view`
for the counts the view clips); nothing else may copy them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import GROUP_SLOTS, NUM_GROUPS, NUM_TYPES, SLOT_TYPE
from ..rules import CFG_EPISODE_GAME, CFG_MAX_HANDS, CFG_MAX_TURNS, CFG_PLAYERS, CFG_TARGET
from .borrow import borrow
from .legal import is_frozen
from .melds import canasta_kind, opening_value
from .state import PHASE_CUT, PHASE_OVER
from .tables import CANASTA_SIZE, DECK_SIZE, TABLE_CLEARING_PILE, TYPE_COPIES
from .view import (
    CUT_CARDS,
    CUT_KEPT,
    CUT_LEFT,
    CUT_UNDECIDED,
    HAND_SCORE_SCALE,
    HAND_SIZE_SCALE,
    I_CHANGED,
    I_FRESH,
    I_HAND_NUMBER,
    I_HEART_ACES,
    I_LIFTED,
    I_LIFTED_FROM,
    I_MOVER,
    I_NEW_ACES,
    I_PHASE,
    I_PICKUP_FROM_HAND,
    I_PICKUP_GROUP,
    I_PICKUP_KIND,
    I_PICKUP_SIZE,
    I_PILE_N,
    I_STARTER_OFFSET,
    I_STOCK_KNOWN,
    I_STOCK_N,
    I_TOP,
    I_TOP_OWNER,
    I_TURN,
    LAID_KINDS,
    LOCKED_KINDS,
    PICKUP_FROM_HAND_SCALE,
    TWINS_SCALE,
    View,
    derive,
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

_COPIES = TYPE_COPIES.astype(np.int64)
_INV_COPIES = (1.0 / TYPE_COPIES).astype(np.float32)
#: copies in the deck of the card type held in each of a group's nine slots
SLOT_COPIES = TYPE_COPIES[SLOT_TYPE[0]].astype(np.int64)
_INV_SLOT_COPIES = (1.0 / SLOT_COPIES).astype(np.float32)

#: pieces the decoder reads, in the order of the ``O_*`` entries of a layout
#: vector (their offsets, from the declaration in kanaszta_env.encoding)
LAYOUT_PIECES = (
    "phase", "to_move", "seat_from_starter", "progress", "hand", "pile", "pile_top", "pile_top_owner",
    "pile_state", "stock_state", "stock_bottom", "unknown", "group_cards", "collection", "player_state",
    "free_pickup", "known", "total", "tax_bracket", "opening_minimum", "last_hand_score", "pickup_kind",
    "pickup_group", "pickup_state", "lifted", "locked", "laid_this_turn", "turn_state", "cut_cards",
    "cut_decisions",
)  # fmt: skip
(O_PHASE, O_TO_MOVE, O_SEAT_FROM_STARTER, O_PROGRESS, O_HAND, O_PILE, O_PILE_TOP, O_PILE_TOP_OWNER,
 O_PILE_STATE, O_STOCK_STATE, O_STOCK_BOTTOM, O_UNKNOWN, O_GROUP_CARDS, O_COLLECTION, O_PLAYER_STATE,
 O_FREE, O_KNOWN, O_TOTAL, O_TAX, O_OPENING_MIN, O_LAST_SCORE, O_PICKUP_KIND, O_PICKUP_GROUP,
 O_PICKUP_STATE, O_LIFTED, O_LOCKED, O_LAID, O_TURN_STATE, O_CUT_CARDS,
 O_CUT_DECISIONS) = range(len(LAYOUT_PIECES))  # fmt: skip


@njit(inline="always")
def _clip(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else (hi if x > hi else x)


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
        for g in range(G):
            base = c + (k * G + g) * GROUP_SLOTS
            size = 0
            for j in range(GROUP_SLOTS):
                n = v.groups[k, g, j]
                if n != 0:
                    size += n
                    o[base + j] = n * _INV_SLOT_COPIES[j]
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
        for t in range(NUM_TYPES):
            o[c + k * NUM_TYPES + t] = v.known[k, t] * _INV_COPIES[t]
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
    phase = info[I_PHASE]
    if phase in (PHASE_OVER, PHASE_CUT):
        return c + TURN_SIZE
    G = NUM_GROUPS
    o[c + info[I_PICKUP_KIND]] = 1.0
    c += NUM_PICKUP_KINDS
    if info[I_PICKUP_GROUP] >= 0:
        o[c + info[I_PICKUP_GROUP]] = 1.0
    c += G
    o[c] = info[I_PICKUP_FROM_HAND] / PICKUP_FROM_HAND_SCALE
    o[c + 1] = info[I_PICKUP_SIZE] / DECK
    o[c + 2] = 1.0 if info[I_PICKUP_SIZE] >= TABLE_CLEARING_PILE else 0.0
    c += 3
    if info[I_LIFTED] >= 0:
        o[c + info[I_LIFTED]] = 1.0
        o[c + NUM_WILD_TYPES + info[I_LIFTED_FROM]] = 1.0
    c += NUM_WILD_TYPES + G
    for g in range(G):
        for j in range(LOCKED_KINDS):
            o[c + LOCKED_KINDS * g + j] = v.locked[g, j] / WILDS_PUT_SCALE
    c += LOCKED_KINDS * G
    for g in range(G):
        for j in range(LAID_KINDS):
            o[c + LAID_KINDS * g + j] = v.laid[g, j] / LAID_SCALES[j]
    c += LAID_KINDS * G
    o[c] = float(info[I_CHANGED])
    o[c + 1] = info[I_NEW_ACES] / NEW_ACES_SCALE
    mover = info[I_MOVER]
    if v.opened[mover] == 0:
        value = opening_value(v.groups[mover])
        minimum = v.minimum[mover]
        o[c + 2] = _clip(value / (2.0 * minimum), 0.0, 1.0)
        o[c + 3] = 1.0 if value >= minimum else 0.0
    return c + 4


@njit(inline="always")
def encode_view(v: View, cfg, o: np.ndarray) -> int:
    """Write the observation of the row view ``v`` into ``o`` and return the
    number of slots written (the layout of :mod:`kanaszta_env.encoding`)."""
    players = cfg[CFG_PLAYERS]
    info = v.info
    o[:] = 0.0
    c = 0
    # --- flow ----------------------------------------------------------------------
    o[c + info[I_PHASE]] = 1.0
    c += NUM_PHASES
    o[c + info[I_MOVER]] = 1.0
    c += players
    o[c + info[I_STARTER_OFFSET]] = 1.0
    c += players
    o[c] = info[I_TURN] / cfg[CFG_MAX_TURNS]
    if cfg[CFG_EPISODE_GAME] == 1:
        o[c + 1] = info[I_HAND_NUMBER] / cfg[CFG_MAX_HANDS]
    o[c + 2] = float(info[I_HEART_ACES])
    c += 3
    # --- own hand, discard pile and stock ---------------------------------------------
    for t in range(NUM_TYPES):
        o[c + t] = v.hand[t] * _INV_COPIES[t]
        o[c + NUM_TYPES + t] = v.pile[t] * _INV_COPIES[t]
    c += 2 * NUM_TYPES
    top = info[I_TOP]
    if top >= 0:
        o[c + top] = 1.0
    if info[I_TOP_OWNER] >= 0:
        o[c + NUM_TYPES + info[I_TOP_OWNER]] = 1.0
    c += NUM_TYPES + players
    n = info[I_PILE_N]
    o[c] = n / DECK
    o[c + 1] = 1.0 if n >= TABLE_CLEARING_PILE else 0.0
    o[c + 2] = float(info[I_FRESH])
    o[c + 3] = 1.0 if top >= 0 and is_frozen(top) else 0.0
    c += 4
    o[c] = info[I_STOCK_N] / DECK
    o[c + 1] = info[I_STOCK_KNOWN] / STOCK_KNOWN_SCALE
    c += 2
    for t in range(NUM_TYPES):
        o[c + t] = v.stock_bottom[t] * _INV_COPIES[t]
        o[c + NUM_TYPES + t] = v.unknown[t] * _INV_COPIES[t]
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
    costs more than a row's encoding."""
    s = borrow(s)  # no reference counting inside the kernel (core/borrow.py)
    scratch = np.empty(view_size(cfg[CFG_PLAYERS]), np.int64)  # fill_view writes every entry
    w = view_in(borrow((scratch,))[0], cfg[CFG_PLAYERS])
    c = 0
    for i in range(games.shape[0]):
        fill_view(s, cfg, games[i], seats[i], w)
        c = encode_view(w, cfg, out[i])
    scratch[0] = 0  # the buffer stays alive while its borrowed slices are in use
    return c


@njit(cache=True)
def encode_batch(s, cfg, players: np.ndarray, out: np.ndarray) -> int:
    """Row ``b`` of ``out`` = player ``players[b]``'s observation of game ``b``."""
    return encode_games(s, cfg, np.arange(out.shape[0]), players, out)


@njit(cache=True)
def encode_row(s, cfg, b: int, p: int, out: np.ndarray) -> int:
    """Write player ``p``'s observation of game ``b`` into ``out``; returns the slots written."""
    return encode_games(s, cfg, np.array([b]), np.array([p]), out[np.newaxis])


@njit(cache=True)
def encode_views(v: View, cfg, out: np.ndarray) -> int:
    """Row ``i`` of ``out`` = the observation of row ``i`` of the batched view ``v``."""
    v = borrow(v)
    c = 0
    for i in range(out.shape[0]):
        c = encode_view(view_row(v, i), cfg, out[i])
    return c


# --- decoding ------------------------------------------------------------------------
@njit(cache=True)
def _n(x: float, scale: float) -> int:
    """The integer count an encoded value stands for."""
    return int(np.floor(x * scale + 0.5))


@njit(cache=True)
def _one_hot(obs: np.ndarray, start: int, n: int) -> int:
    """Index of the 1 in a one-hot piece, or -1 if it is all zeros."""
    for i in range(n):
        if obs[start + i] > 0.5:
            return i
    return -1


@njit(cache=True)
def _decode_table(obs: np.ndarray, lay: np.ndarray, cfg, v: View) -> None:
    """The per-seat fields of a row view from an observation row."""
    P = cfg[CFG_PLAYERS]
    gc, col, pst, fr = lay[O_GROUP_CARDS], lay[O_COLLECTION], lay[O_PLAYER_STATE], lay[O_FREE]
    target = float(cfg[CFG_TARGET])
    for q in range(P):
        for g in range(NUM_GROUPS):
            for j in range(GROUP_SLOTS):
                v.groups[q, g, j] = _n(obs[gc + (q * NUM_GROUPS + g) * GROUP_SLOTS + j], SLOT_COPIES[j])
        for t in range(NUM_TYPES):
            v.known[q, t] = _n(obs[lay[O_KNOWN] + q * NUM_TYPES + t], _COPIES[t])
        v.heart_aces[q] = _n(obs[col + 4 * q], HEART_ACES_SCALE)
        v.red_threes[q, 0] = _n(obs[col + 4 * q + 1], RED_THREE_SCALE)
        v.red_threes[q, 1] = _n(obs[col + 4 * q + 2], RED_THREE_SCALE)
        v.red_three_debt[q] = _n(obs[col + 4 * q + 3], RED_THREE_DEBT_SCALE)
        v.twins[q] = _n(obs[pst + q], TWINS_SCALE)
        v.hand_size[q] = _n(obs[pst + P + q], HAND_SIZE_SCALE)
        v.opened[q] = _n(obs[pst + 2 * P + q], 1.0)
        v.free[q] = _one_hot(obs, fr + NUM_FREE_STATES * q, NUM_FREE_STATES)
        v.total[q] = _n(obs[lay[O_TOTAL] + q], target)
        v.tax_bracket[q] = _one_hot(obs, lay[O_TAX] + NUM_TAX_BRACKETS * q, NUM_TAX_BRACKETS)
        v.minimum[q] = _n(obs[lay[O_OPENING_MIN] + q], MAX_OPENING_MINIMUM)
        v.last_score[q] = _n(obs[lay[O_LAST_SCORE] + q], HAND_SCORE_SCALE)


@njit(cache=True)
def _decode_turn(obs: np.ndarray, lay: np.ndarray, v: View) -> None:
    """The current turn's fields of a row view from an observation row."""
    info = v.info
    info[I_PICKUP_KIND] = _one_hot(obs, lay[O_PICKUP_KIND], NUM_PICKUP_KINDS)
    info[I_PICKUP_GROUP] = _one_hot(obs, lay[O_PICKUP_GROUP], NUM_GROUPS)
    info[I_PICKUP_FROM_HAND] = _n(obs[lay[O_PICKUP_STATE]], PICKUP_FROM_HAND_SCALE)
    info[I_PICKUP_SIZE] = _n(obs[lay[O_PICKUP_STATE] + 1], DECK)
    info[I_LIFTED] = _one_hot(obs, lay[O_LIFTED], NUM_WILD_TYPES)
    info[I_LIFTED_FROM] = _one_hot(obs, lay[O_LIFTED] + NUM_WILD_TYPES, NUM_GROUPS)
    for g in range(NUM_GROUPS):
        for j in range(LOCKED_KINDS):
            v.locked[g, j] = _n(obs[lay[O_LOCKED] + LOCKED_KINDS * g + j], WILDS_PUT_SCALE)
        for j in range(LAID_KINDS):
            v.laid[g, j] = _n(obs[lay[O_LAID] + LAID_KINDS * g + j], LAID_SCALES[j])
    info[I_CHANGED] = _n(obs[lay[O_TURN_STATE]], 1.0)
    info[I_NEW_ACES] = _n(obs[lay[O_TURN_STATE] + 1], NEW_ACES_SCALE)


@njit(cache=True)
def decode_view(obs: np.ndarray, lay: np.ndarray, cfg, v: View) -> None:
    """Fill the row view ``v`` from one observation row: the exact inverse of
    :func:`encode_view`. ``lay`` holds the offsets of :data:`LAYOUT_PIECES`."""
    P = cfg[CFG_PLAYERS]
    info = v.info
    info[I_PHASE] = _one_hot(obs, lay[O_PHASE], NUM_PHASES)
    info[I_MOVER] = _one_hot(obs, lay[O_TO_MOVE], P)
    info[I_STARTER_OFFSET] = _one_hot(obs, lay[O_SEAT_FROM_STARTER], P)
    info[I_TURN] = _n(obs[lay[O_PROGRESS]], cfg[CFG_MAX_TURNS])
    info[I_HAND_NUMBER] = _n(obs[lay[O_PROGRESS] + 1], cfg[CFG_MAX_HANDS])
    info[I_HEART_ACES] = _n(obs[lay[O_PROGRESS] + 2], 1.0)
    for t in range(NUM_TYPES):
        v.hand[t] = _n(obs[lay[O_HAND] + t], _COPIES[t])
        v.pile[t] = _n(obs[lay[O_PILE] + t], _COPIES[t])
        v.stock_bottom[t] = _n(obs[lay[O_STOCK_BOTTOM] + t], _COPIES[t])
        v.unknown[t] = _n(obs[lay[O_UNKNOWN] + t], _COPIES[t])
    info[I_TOP] = _one_hot(obs, lay[O_PILE_TOP], NUM_TYPES)
    info[I_TOP_OWNER] = _one_hot(obs, lay[O_PILE_TOP_OWNER], P)
    info[I_PILE_N] = _n(obs[lay[O_PILE_STATE]], DECK)
    info[I_FRESH] = _n(obs[lay[O_PILE_STATE] + 2], 1.0)
    info[I_STOCK_N] = _n(obs[lay[O_STOCK_STATE]], DECK)
    info[I_STOCK_KNOWN] = _n(obs[lay[O_STOCK_STATE] + 1], STOCK_KNOWN_SCALE)
    _decode_table(obs, lay, cfg, v)
    _decode_turn(obs, lay, v)
    for k in range(CUT_CARDS):
        v.cut[k] = _one_hot(obs, lay[O_CUT_CARDS] + NUM_TYPES * k, NUM_TYPES)
        decided = lay[O_CUT_DECISIONS] + 2 * k
        v.cut_kept[k] = CUT_UNDECIDED
        if obs[decided] > 0.5:
            v.cut_kept[k] = CUT_KEPT
        elif obs[decided + 1] > 0.5:
            v.cut_kept[k] = CUT_LEFT
    derive(v)


@njit(cache=True)
def decode_views(obs: np.ndarray, lay: np.ndarray, cfg, v: View) -> None:
    """Row ``i`` of the batched view ``v`` from observation row ``obs[i]``."""
    v = borrow(v)
    for i in range(obs.shape[0]):
        decode_view(obs[i], lay, cfg, view_row(v, i))
