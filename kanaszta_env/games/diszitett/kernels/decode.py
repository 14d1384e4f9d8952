"""The observation's decoder: :func:`decode_view` fills a seat's
:class:`~kanaszta_env.games.diszitett.kernels.view.View` from an observation row, the exact
inverse of :func:`~kanaszta_env.games.diszitett.kernels.observe.encode_view` (the pieces derived
from others, such as group sizes and canasta kinds, are not read back). It
reads the pieces at the offsets of the declaration in
:mod:`kanaszta_env.games.diszitett.observation` (:data:`LAYOUT_PIECES`) and undoes the scales
named in :mod:`~kanaszta_env.games.diszitett.kernels.observe`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import GROUP_SLOTS, NUM_GROUPS, NUM_TYPES
from ....core.borrow import borrow
from ....core.config import CFG_MAX_HANDS, CFG_MAX_TURNS, CFG_PLAYERS, CFG_TARGET
from . import view as V
from .observe import (
    DECK,
    HEART_ACES_SCALE,
    LAID_SCALES,
    MAX_OPENING_MINIMUM,
    NEW_ACES_SCALE,
    NUM_FREE_STATES,
    NUM_PHASES,
    NUM_PICKUP_KINDS,
    NUM_TAX_BRACKETS,
    NUM_WILD_TYPES,
    RED_THREE_DEBT_SCALE,
    RED_THREE_SCALE,
    SLOT_COPIES,
    STOCK_KNOWN_SCALE,
    WILDS_PUT_SCALE,
)
from .tables import TYPE_COPIES
from .view import (
    CUT_CARDS,
    CUT_KEPT,
    CUT_LEFT,
    CUT_UNDECIDED,
    HAND_SCORE_SCALE,
    HAND_SIZE_SCALE,
    LAID_KINDS,
    LOCKED_KINDS,
    PICKUP_FROM_HAND_SCALE,
    TWINS_SCALE,
    View,
    derive,
    view_row,
)

_COPIES = TYPE_COPIES.astype(np.int64)

#: pieces the decoder reads, in the order of the ``O_*`` entries of a layout
#: vector (their offsets, from the declaration in kanaszta_env.games.diszitett.observation)
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
    info[V.I_PICKUP_KIND] = _one_hot(obs, lay[O_PICKUP_KIND], NUM_PICKUP_KINDS)
    info[V.I_PICKUP_GROUP] = _one_hot(obs, lay[O_PICKUP_GROUP], NUM_GROUPS)
    info[V.I_PICKUP_FROM_HAND] = _n(obs[lay[O_PICKUP_STATE]], PICKUP_FROM_HAND_SCALE)
    info[V.I_PICKUP_SIZE] = _n(obs[lay[O_PICKUP_STATE] + 1], DECK)
    info[V.I_LIFTED] = _one_hot(obs, lay[O_LIFTED], NUM_WILD_TYPES)
    info[V.I_LIFTED_FROM] = _one_hot(obs, lay[O_LIFTED] + NUM_WILD_TYPES, NUM_GROUPS)
    for g in range(NUM_GROUPS):
        for j in range(LOCKED_KINDS):
            v.locked[g, j] = _n(obs[lay[O_LOCKED] + LOCKED_KINDS * g + j], WILDS_PUT_SCALE)
        for j in range(LAID_KINDS):
            v.laid[g, j] = _n(obs[lay[O_LAID] + LAID_KINDS * g + j], LAID_SCALES[j])
    info[V.I_CHANGED] = _n(obs[lay[O_TURN_STATE]], 1.0)
    info[V.I_NEW_ACES] = _n(obs[lay[O_TURN_STATE] + 1], NEW_ACES_SCALE)


@njit(cache=True)
def decode_view(obs: np.ndarray, lay: np.ndarray, cfg, v: View) -> None:
    """Fill the row view ``v`` from one observation row: the exact inverse of
    :func:`encode_view`. ``lay`` holds the offsets of :data:`LAYOUT_PIECES`."""
    P = cfg[CFG_PLAYERS]
    info = v.info
    info[V.I_PHASE] = _one_hot(obs, lay[O_PHASE], NUM_PHASES)
    info[V.I_MOVER] = _one_hot(obs, lay[O_TO_MOVE], P)
    info[V.I_STARTER_OFFSET] = _one_hot(obs, lay[O_SEAT_FROM_STARTER], P)
    info[V.I_TURN] = _n(obs[lay[O_PROGRESS]], cfg[CFG_MAX_TURNS])
    info[V.I_HAND_NUMBER] = _n(obs[lay[O_PROGRESS] + 1], cfg[CFG_MAX_HANDS])
    info[V.I_HEART_ACES] = _n(obs[lay[O_PROGRESS] + 2], 1.0)
    for t in range(NUM_TYPES):
        v.hand[t] = _n(obs[lay[O_HAND] + t], _COPIES[t])
        v.pile[t] = _n(obs[lay[O_PILE] + t], _COPIES[t])
        v.stock_bottom[t] = _n(obs[lay[O_STOCK_BOTTOM] + t], _COPIES[t])
        v.unknown[t] = _n(obs[lay[O_UNKNOWN] + t], _COPIES[t])
    info[V.I_TOP] = _one_hot(obs, lay[O_PILE_TOP], NUM_TYPES)
    info[V.I_TOP_OWNER] = _one_hot(obs, lay[O_PILE_TOP_OWNER], P)
    info[V.I_PILE_N] = _n(obs[lay[O_PILE_STATE]], DECK)
    info[V.I_FRESH] = _n(obs[lay[O_PILE_STATE] + 2], 1.0)
    info[V.I_STOCK_N] = _n(obs[lay[O_STOCK_STATE]], DECK)
    info[V.I_STOCK_KNOWN] = _n(obs[lay[O_STOCK_STATE] + 1], STOCK_KNOWN_SCALE)
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


@njit(cache=True, nogil=True)  # lets an overlapped PPO update run meanwhile
def decode_views(obs: np.ndarray, lay: np.ndarray, cfg, v: View) -> None:
    """Row ``i`` of the batched view ``v`` from observation row ``obs[i]``."""
    v = borrow(v)
    for i in range(obs.shape[0]):
        decode_view(obs[i], lay, cfg, view_row(v, i))
