"""Reading observation vectors inside compiled bot code.

Bots see only the observation of :mod:`kanaszta_env.encoding` and the legal
mask. :func:`layout` turns the declared observation spec into an integer
vector of piece offsets (plus a few rule constants) that the numba kernels
read, so the bots follow the spec by name and never hard-code slot numbers.
:func:`decode` unpacks one observation row into a :class:`View`: plain integer
counts of the cards a player can see, the same numbers the engine encoded.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from kanaszta_env.cards import (
    GROUP_SLOTS,
    HEART_ACE,
    IS_BLACK_THREE,
    JOKER,
    NUM_GROUPS,
    NUM_TYPES,
    RED_THREES,
    SLOT_TYPE,
    TYPE_COPIES,
    TYPE_GROUP,
    WILD_TYPES,
)
from kanaszta_env.encoding import piece_offsets
from kanaszta_env.engine.compiled import opening_minimum, opening_value
from kanaszta_env.rules import (
    CFG_EPISODE_GAME,
    CFG_HEART_ACES,
    CFG_MAX_HANDS,
    CFG_MAX_TURNS,
    CFG_PLAYERS,
    Rules,
)

#: pieces of the observation the bots read, in the order of the ``O_*`` indices
PIECES = (
    "phase",
    "to_move",
    "seat_from_starter",
    "progress",
    "hand",
    "pile",
    "pile_top",
    "pile_top_owner",
    "pile_state",
    "stock_state",
    "stock_bottom",
    "unknown",
    "group_cards",
    "collection",
    "player_state",
    "free_pickup",
    "known",
    "total",
    "opening_minimum",
    "last_hand_score",
    "pickup_kind",
    "pickup_group",
    "pickup_state",
    "lifted",
    "locked",
    "laid_this_turn",
    "turn_state",
    "cut_cards",
    "cut_decisions",
)
(O_PHASE, O_TO_MOVE, O_SEAT_FROM_STARTER, O_PROGRESS, O_HAND, O_PILE, O_PILE_TOP, O_PILE_TOP_OWNER,
 O_PILE_STATE, O_STOCK_STATE, O_STOCK_BOTTOM, O_UNKNOWN, O_GROUP_CARDS, O_COLLECTION, O_PLAYER_STATE,
 O_FREE, O_KNOWN, O_TOTAL, O_OPENING_MIN, O_LAST_SCORE, O_PICKUP_KIND, O_PICKUP_GROUP, O_PICKUP_STATE,
 O_LIFTED, O_LOCKED, O_LAID, O_TURN_STATE, O_CUT_CARDS, O_CUT_DECISIONS) = range(len(PIECES))  # fmt: skip
# rule constants stored after the offsets
L_PLAYERS = len(PIECES)
L_MAX_TURNS = L_PLAYERS + 1
L_MAX_HANDS = L_PLAYERS + 2
L_TARGET = L_PLAYERS + 3
L_HEART_ACES = L_PLAYERS + 4
L_SIZE = L_PLAYERS + 5

_COPIES = TYPE_COPIES.astype(np.int64)
_PHASE_CUT = 0
_PHASE_OVER = 5
_WILD_SLOT = np.full(NUM_TYPES, -1, dtype=np.int64)
for _k, _t in enumerate(WILD_TYPES):
    _WILD_SLOT[_t] = _k
_SLOT_COPIES = np.array([2, 2, 2, 2, 2, 2, 2, 2, 8], dtype=np.int64)
# scales of the counts (the encoder's, see kanaszta_env.core.observe)
_HAND_SIZE_SCALE = 64.0
_TWINS_SCALE = 10.0
_DECK = 112.0


def layout(rules: Rules) -> np.ndarray:
    """Offsets of the :data:`PIECES` in the observation of ``rules``, then the
    number of players, ``max_turns``, ``max_hands``, the target score and
    whether separate heart aces exist."""
    starts = {name: start for name, (start, _) in piece_offsets(rules).items()}
    missing = [name for name in PIECES if name not in starts]
    if missing:
        raise ValueError(f"the observation spec lacks the pieces {missing} the bots read")
    out = np.zeros(L_SIZE, dtype=np.int64)
    out[: len(PIECES)] = [starts[name] for name in PIECES]
    out[L_PLAYERS] = rules.num_players
    out[L_MAX_TURNS] = rules.max_turns
    out[L_MAX_HANDS] = rules.max_hands
    out[L_TARGET] = rules.target_score
    out[L_HEART_ACES] = int(rules.heart_aces)
    return out


class View(NamedTuple):
    """One observation row as integer counts; seats are relative (0 = the observer)."""

    hand: np.ndarray  # (53,) own hand
    groups: np.ndarray  # (P, 12, 9) every player's groups
    pile: np.ndarray  # (53,) discard pile content
    stock_bottom: np.ndarray  # (53,) known bottom cards of the stock
    unknown: np.ndarray  # (53,) cards whose place the observer cannot know
    known: np.ndarray  # (P, 53) cards publicly known in each hand
    hand_size: np.ndarray  # (P,)
    opened: np.ndarray  # (P,) opened in an earlier turn of this hand
    free: np.ndarray  # (P,) R7 state index (waiting, now, used, gone)
    twins: np.ndarray  # (P,)
    red_threes: np.ndarray  # (P,)
    heart_aces: np.ndarray  # (P,) separate heart aces laid
    locked: np.ndarray  # (12, 2) small/big wilds put into each group this turn
    laid: np.ndarray  # (12, 5) this turn against the checkpoint (encoder's order)
    cut: np.ndarray  # (3,) the cut cards in the cut phase, else -1
    info: np.ndarray  # scalars, indexed by the I_* constants


(I_PHASE, I_MOVER, I_STARTER_OFFSET, I_TURN, I_TOP, I_TOP_OWNER, I_PILE_N, I_FRESH, I_FROZEN, I_STOCK_N,
 I_STOCK_KNOWN, I_MINIMUM, I_PICKUP_KIND, I_PICKUP_GROUP, I_PICKUP_FROM_HAND, I_PICKUP_SIZE, I_LIFTED,
 I_LIFTED_FROM, I_CHANGED, I_NEW_ACES, I_OPENING_MET, I_CUT_INDEX, I_PLAYERS, I_HEART_ACES,
 I_HAND_NUMBER) = range(25)  # fmt: skip
I_SIZE = 25


def new_view(players: int) -> View:
    """Zeroed arrays for decoding rows of a ``players``-player game."""
    i64 = np.int64
    return View(
        hand=np.zeros(NUM_TYPES, i64),
        groups=np.zeros((players, NUM_GROUPS, GROUP_SLOTS), i64),
        pile=np.zeros(NUM_TYPES, i64),
        stock_bottom=np.zeros(NUM_TYPES, i64),
        unknown=np.zeros(NUM_TYPES, i64),
        known=np.zeros((players, NUM_TYPES), i64),
        hand_size=np.zeros(players, i64),
        opened=np.zeros(players, i64),
        free=np.zeros(players, i64),
        twins=np.zeros(players, i64),
        red_threes=np.zeros(players, i64),
        heart_aces=np.zeros(players, i64),
        locked=np.zeros((NUM_GROUPS, 2), i64),
        laid=np.zeros((NUM_GROUPS, 5), i64),
        cut=np.zeros(3, i64),
        info=np.zeros(I_SIZE, i64),
    )


@njit(cache=True)
def _n(x: float, scale: float) -> int:
    """The integer count an encoded value stands for."""
    return int(np.floor(x * scale + 0.5))


@njit(cache=True)
def _argmax(obs: np.ndarray, start: int, n: int) -> int:
    """Index of the 1 in a one-hot piece, or -1 if it is all zeros."""
    for i in range(n):
        if obs[start + i] > 0.5:
            return i
    return -1


@njit(cache=True)
def decode(obs: np.ndarray, lay: np.ndarray, v: View) -> None:
    """Fill ``v`` from one observation row ``obs``."""
    P = lay[L_PLAYERS]
    info = v.info
    info[:] = 0
    info[I_PLAYERS] = P
    info[I_HEART_ACES] = lay[L_HEART_ACES]
    info[I_PHASE] = _argmax(obs, lay[O_PHASE], 6)
    info[I_MOVER] = _argmax(obs, lay[O_TO_MOVE], P)
    info[I_STARTER_OFFSET] = _argmax(obs, lay[O_SEAT_FROM_STARTER], P)
    info[I_TURN] = _n(obs[lay[O_PROGRESS]], lay[L_MAX_TURNS])
    info[I_HAND_NUMBER] = _n(obs[lay[O_PROGRESS] + 1], lay[L_MAX_HANDS])
    for t in range(NUM_TYPES):
        c = _COPIES[t]
        v.hand[t] = _n(obs[lay[O_HAND] + t], c)
        v.pile[t] = _n(obs[lay[O_PILE] + t], c)
        v.stock_bottom[t] = _n(obs[lay[O_STOCK_BOTTOM] + t], c)
        v.unknown[t] = _n(obs[lay[O_UNKNOWN] + t], c)
        for q in range(P):
            v.known[q, t] = _n(obs[lay[O_KNOWN] + q * NUM_TYPES + t], c)
    info[I_TOP] = _argmax(obs, lay[O_PILE_TOP], NUM_TYPES)
    info[I_TOP_OWNER] = _argmax(obs, lay[O_PILE_TOP_OWNER], P)
    ps = lay[O_PILE_STATE]
    info[I_PILE_N] = _n(obs[ps], _DECK)
    info[I_FRESH] = _n(obs[ps + 2], 1.0)
    info[I_FROZEN] = _n(obs[ps + 3], 1.0)
    info[I_STOCK_N] = _n(obs[lay[O_STOCK_STATE]], _DECK)
    info[I_STOCK_KNOWN] = _n(obs[lay[O_STOCK_STATE] + 1], 3.0)
    gc = lay[O_GROUP_CARDS]
    for q in range(P):
        for g in range(NUM_GROUPS):
            for k in range(GROUP_SLOTS):
                v.groups[q, g, k] = _n(obs[gc + (q * NUM_GROUPS + g) * GROUP_SLOTS + k], _SLOT_COPIES[k])
    col = lay[O_COLLECTION]
    pst = lay[O_PLAYER_STATE]
    fr = lay[O_FREE]
    for q in range(P):
        v.heart_aces[q] = _n(obs[col + 4 * q], 2.0)
        v.red_threes[q] = _n(obs[col + 4 * q + 1], 2.0) + _n(obs[col + 4 * q + 2], 2.0)
        v.twins[q] = _n(obs[pst + q], _TWINS_SCALE)
        v.hand_size[q] = _n(obs[pst + P + q], _HAND_SIZE_SCALE)
        v.opened[q] = _n(obs[pst + 2 * P + q], 1.0)
        v.free[q] = _argmax(obs, fr + 4 * q, 4)
    info[I_MINIMUM] = _n(obs[lay[O_OPENING_MIN]], 120.0)
    info[I_PICKUP_KIND] = _argmax(obs, lay[O_PICKUP_KIND], 3)
    info[I_PICKUP_GROUP] = _argmax(obs, lay[O_PICKUP_GROUP], NUM_GROUPS)
    info[I_PICKUP_FROM_HAND] = _n(obs[lay[O_PICKUP_STATE]], 3.0)
    info[I_PICKUP_SIZE] = _n(obs[lay[O_PICKUP_STATE] + 1], _DECK)
    info[I_LIFTED] = _argmax(obs, lay[O_LIFTED], 5)
    info[I_LIFTED_FROM] = _argmax(obs, lay[O_LIFTED] + 5, NUM_GROUPS)
    lk = lay[O_LOCKED]
    ld = lay[O_LAID]
    for g in range(NUM_GROUPS):
        v.locked[g, 0] = _n(obs[lk + 2 * g], 7.0)
        v.locked[g, 1] = _n(obs[lk + 2 * g + 1], 7.0)
        v.laid[g, 0] = _n(obs[ld + 5 * g], 8.0)
        for k in range(1, 5):
            v.laid[g, k] = _n(obs[ld + 5 * g + k], 7.0)
    ts = lay[O_TURN_STATE]
    info[I_CHANGED] = _n(obs[ts], 1.0)
    info[I_NEW_ACES] = _n(obs[ts + 1], 2.0)
    info[I_OPENING_MET] = _n(obs[ts + 3], 1.0)
    cd = lay[O_CUT_DECISIONS]
    info[I_CUT_INDEX] = 3
    for i in range(3):
        if obs[cd + 2 * i] < 0.5 and obs[cd + 2 * i + 1] < 0.5:
            info[I_CUT_INDEX] = i
            break
    for i in range(3):
        v.cut[i] = _argmax(obs, lay[O_CUT_CARDS] + NUM_TYPES * i, NUM_TYPES)


@njit(cache=True)
def fill_view(s, cfg, b: int, p: int, v: View) -> None:
    """Player ``p``'s view of game ``b`` straight from the state: the same
    numbers as ``decode(encode_row(s, cfg, b, p))``, without the float vector
    (the search bot's simulations use it; a test checks the equality)."""
    P = cfg[CFG_PLAYERS]
    info = v.info
    info[:] = 0
    phase = s.phase[b]
    mover = s.to_move[b]
    info[I_PLAYERS] = P
    info[I_HEART_ACES] = cfg[CFG_HEART_ACES]
    info[I_PHASE] = phase
    info[I_MOVER] = (mover - p + P) % P
    info[I_STARTER_OFFSET] = (p - s.starter[b] + P) % P
    info[I_TURN] = min(s.turn[b], cfg[CFG_MAX_TURNS])
    info[I_HAND_NUMBER] = min(s.hand_number[b], cfg[CFG_MAX_HANDS]) if cfg[CFG_EPISODE_GAME] == 1 else 0
    n = s.pile_len[b]
    known_bottom = min(s.stock_known[b], s.stock_len[b])
    v.pile[:] = 0
    v.stock_bottom[:] = 0
    for i in range(n):
        v.pile[s.pile[b, i]] += 1
    for i in range(known_bottom):
        v.stock_bottom[s.stock[b, i]] += 1
    for t in range(NUM_TYPES):
        v.hand[t] = s.hand[b, p, t]
        v.unknown[t] = _COPIES[t] - s.hand[b, p, t] - v.pile[t] - v.stock_bottom[t]
    for k in range(P):
        q = (p + k) % P
        for t in range(NUM_TYPES):
            v.known[k, t] = s.known[b, q, t]
            if k > 0:
                v.unknown[t] -= s.known[b, q, t]
        for g in range(NUM_GROUPS):
            for j in range(GROUP_SLOTS):
                c = s.groups[b, q, g, j]
                v.groups[k, g, j] = c
                if c != 0:
                    v.unknown[SLOT_TYPE[g, j]] -= c
        v.unknown[HEART_ACE] -= s.sep_heart_aces[b, q]
        v.unknown[RED_THREES[0]] -= s.red_threes[b, q, 0]
        v.unknown[RED_THREES[1]] -= s.red_threes[b, q, 1]
        v.heart_aces[k] = s.sep_heart_aces[b, q]
        v.red_threes[k] = s.red_threes[b, q, 0] + s.red_threes[b, q, 1]
        v.twins[k] = min(s.twins[b, q], 10)
        size = 0
        for t in range(NUM_TYPES):
            size += s.hand[b, q, t]
        v.hand_size[k] = min(size, 64)
        v.opened[k] = s.opened[b, q]
        v.free[k] = s.free_pickup[b, q]
    if phase == _PHASE_CUT:
        for i in range(3):
            v.unknown[s.cut_cards[b, i]] -= 1
            v.cut[i] = s.cut_cards[b, i]
        info[I_CUT_INDEX] = s.cut_index[b]
    else:
        v.cut[:] = -1
    if s.lifted[b] >= 0:
        v.unknown[s.lifted[b]] -= 1
    info[I_TOP] = s.pile[b, n - 1] if n > 0 else -1
    owner = s.pile_owner[b, n - 1] if n > 0 else -1
    info[I_TOP_OWNER] = (owner - p + P) % P if owner >= 0 else -1
    info[I_PILE_N] = n
    info[I_FRESH] = 1 if (s.pile_fresh[b] == 1 and n > 0) else 0
    if n > 0:
        top = s.pile[b, n - 1]
        info[I_FROZEN] = 1 if (IS_BLACK_THREE[top] or top == JOKER or top // 4 == 1) else 0
    info[I_STOCK_N] = s.stock_len[b]
    info[I_STOCK_KNOWN] = s.stock_known[b]
    info[I_MINIMUM] = opening_minimum(s.totals, cfg, b, p)
    v.locked[:] = 0
    v.laid[:] = 0
    info[I_PICKUP_KIND] = -1
    info[I_PICKUP_GROUP] = -1
    info[I_LIFTED] = -1
    info[I_LIFTED_FROM] = -1
    if phase in (_PHASE_OVER, _PHASE_CUT):
        return
    info[I_PICKUP_KIND] = s.pickup_kind[b]
    if s.pickup_card[b] >= 0:
        info[I_PICKUP_GROUP] = TYPE_GROUP[s.pickup_card[b]]
    info[I_PICKUP_FROM_HAND] = min(s.pickup_from_hand[b], 3)
    info[I_PICKUP_SIZE] = s.pickup_size[b]
    if s.lifted[b] >= 0:
        info[I_LIFTED] = _WILD_SLOT[s.lifted[b]]
        info[I_LIFTED_FROM] = s.lifted_from[b]
    for g in range(NUM_GROUPS):
        v.locked[g, 0] = s.locked[b, g, 0]
        v.locked[g, 1] = s.locked[b, g, 1]
        dn = 0
        ds = 0
        for j in range(4):
            dn += s.groups[b, mover, g, j] - s.cp_groups[b, g, j]
            ds += s.groups[b, mover, g, 4 + j] - s.cp_groups[b, g, 4 + j]
        dj = s.groups[b, mover, g, 8] - s.cp_groups[b, g, 8]
        v.laid[g, 0] = max(dn, 0)
        v.laid[g, 1] = max(ds, 0)
        v.laid[g, 2] = max(dj, 0)
        v.laid[g, 3] = max(-ds, 0)
        v.laid[g, 4] = max(-dj, 0)
    info[I_CHANGED] = s.changed[b]
    info[I_NEW_ACES] = max(s.sep_heart_aces[b, mover] - s.cp_sep_heart_aces[b], 0)
    if s.opened[b, mover] == 0:
        minimum = opening_minimum(s.totals, cfg, b, mover)
        info[I_OPENING_MET] = 1 if opening_value(s.groups[b, mover]) >= minimum else 0
