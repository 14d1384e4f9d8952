"""The observation kernel: one fixed-length float vector per (game, observer).

The vector holds what the observing player knows and nothing else, encoded
relative to him (his own seat first). The layout — the order and size of the
pieces written below — is declared piece by piece in
:mod:`kanaszta_env.encoding`, which also generates ``docs/observation.md``;
a test checks that the two agree.

What the kernel never reads: the other players' hands (except their sizes and
the cards publicly known to be in them, ``known``), the stock beyond its
known bottom cards (``stock_known``), the checkpoint hand ``cp_hand``, and the
random state. The information-leak test re-deals exactly that hidden part and
checks that the observation does not change.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import (
    GROUP_SLOTS,
    HEART_ACE,
    IS_BLACK_THREE,
    JOKER,
    NUM_GROUPS,
    NUM_TYPES,
    RED_THREES,
    SLOT_TYPE,
    TYPE_GROUP,
    WILD_TYPES,
)
from ..rules import CFG_EPISODE_GAME, CFG_HEART_ACES, CFG_MAX_HANDS, CFG_MAX_TURNS, CFG_PLAYERS, CFG_TARGET
from .borrow import borrow
from .legal import opening_minimum
from .melds import canasta_kind, opening_value
from .state import PHASE_CUT, PHASE_OVER
from .tables import DECK_SIZE, HALF_TAX_FROM, QUARTER_TAX_FROM, TENTH_TAX_FROM, TYPE_COPIES

NUM_PHASES = 6
NUM_FREE_STATES = 4
NUM_PICKUP_KINDS = 3
NUM_CANASTA_KINDS = 5
NUM_TAX_BRACKETS = 4
NUM_WILD_TYPES = 5
#: scales of unbounded counts (values above are clipped to 1)
HAND_SIZE_SCALE = 64.0
TWINS_SCALE = 10.0
HAND_SCORE_SCALE = 2000.0
MAX_OPENING_MINIMUM = 120.0
DECK = float(DECK_SIZE)
#: slots of the current-turn pieces (zeros outside the turn phases)
TURN_SIZE = NUM_PICKUP_KINDS + 3 + NUM_WILD_TYPES + 4 + NUM_GROUPS * (1 + 1 + 2 + 5)

_INV_COPIES = (1.0 / TYPE_COPIES).astype(np.float32)
#: 1 / copies in the deck of the card type held in each of a group's nine slots
_INV_SLOT_COPIES = (1.0 / TYPE_COPIES[SLOT_TYPE[0]]).astype(np.float32)
_RED_THREE_H, _RED_THREE_D = RED_THREES
_WILD_SLOT_OF_TYPE = np.full(NUM_TYPES, -1, dtype=np.int8)
for _k, _t in enumerate(WILD_TYPES):
    _WILD_SLOT_OF_TYPE[_t] = _k


@njit(cache=True)
def _clip(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else (hi if x > hi else x)


@njit(cache=True)
def _tax_bracket(total: int) -> int:
    """R17.1 bracket of a running total: untaxed, halved, quartered, a tenth."""
    if total < HALF_TAX_FROM:
        return 0
    if total < QUARTER_TAX_FROM:
        return 1
    if total < TENTH_TAX_FROM:
        return 2
    return 3


@njit(cache=True)
def encode_row(s, cfg, b: int, p: int, out: np.ndarray) -> int:
    """Write player ``p``'s view of game ``b`` into ``out`` and return the
    number of slots written (the layout of :mod:`kanaszta_env.encoding`)."""
    return encode_games(s, cfg, np.array([b]), np.array([p]), out[np.newaxis])


@njit(cache=True)
def encode_batch(s, cfg, players: np.ndarray, out: np.ndarray) -> int:
    """Row ``b`` of ``out`` = player ``players[b]``'s view of game ``b``."""
    return encode_games(s, cfg, np.arange(out.shape[0]), players, out)


@njit(cache=True)
def encode_games(s, cfg, games: np.ndarray, seats: np.ndarray, out: np.ndarray) -> int:
    """Row ``i`` of ``out`` = player ``seats[i]``'s view of game ``games[i]``.
    Returns the number of slots written per row.

    One function body loops over the rows: numba increfs and decrefs every
    array of the state ``s`` at each call that receives it, which would cost
    more than the encoding itself if each row (or each piece of a row) were
    a call of its own.
    """
    s = borrow(s)  # no reference counting inside the kernel (core/borrow.py)
    players = cfg[CFG_PLAYERS]
    G = NUM_GROUPS
    target = float(cfg[CFG_TARGET])
    c = 0
    for i in range(games.shape[0]):
        b = games[i]
        p = seats[i]
        o = out[i]
        o[:] = 0.0
        phase = s.phase[b]
        mover = s.to_move[b]
        c = 0
        # --- flow --------------------------------------------------------------
        o[c + phase] = 1.0
        c += NUM_PHASES
        o[c + (mover - p + players) % players] = 1.0
        c += players
        o[c + (p - s.starter[b] + players) % players] = 1.0
        c += players
        o[c] = _clip(s.turn[b] / cfg[CFG_MAX_TURNS], 0.0, 1.0)
        if cfg[CFG_EPISODE_GAME] == 1:
            o[c + 1] = _clip(s.hand_number[b] / cfg[CFG_MAX_HANDS], 0.0, 1.0)
        o[c + 2] = float(cfg[CFG_HEART_ACES])
        c += 3
        # --- own hand ------------------------------------------------------------
        for t in range(NUM_TYPES):
            o[c + t] = s.hand[b, p, t] * _INV_COPIES[t]
        c += NUM_TYPES
        # --- discard pile and stock (public) -------------------------------------------
        n = s.pile_len[b]
        for k in range(n):
            t = s.pile[b, k]
            o[c + t] += _INV_COPIES[t]
        c += NUM_TYPES
        if n > 0:
            top = s.pile[b, n - 1]
            o[c + top] = 1.0
            owner = s.pile_owner[b, n - 1]
            if owner >= 0:  # a position document may leave the owner unknown (-1): all zeros then
                o[c + NUM_TYPES + (owner - p + players) % players] = 1.0
        c += NUM_TYPES + players
        o[c] = n / DECK
        o[c + 1] = 1.0 if n >= 10 else 0.0
        o[c + 2] = 1.0 if (s.pile_fresh[b] == 1 and n > 0) else 0.0
        if n > 0:
            top = s.pile[b, n - 1]
            o[c + 3] = 1.0 if (IS_BLACK_THREE[top] or top == JOKER or top // 4 == 1) else 0.0
        c += 4
        known_bottom = min(s.stock_known[b], s.stock_len[b])
        o[c] = s.stock_len[b] / DECK
        o[c + 1] = s.stock_known[b] / 3.0
        c += 2
        for k in range(known_bottom):  # the known bottom cards only
            t = s.stock[b, k]
            o[c + t] += _INV_COPIES[t]
        c += NUM_TYPES
        # --- unknown cards ---------------------------------------------------------
        # whose place the observer cannot know: the deck minus everything he sees
        # (own hand, all groups and collections, the pile, the known bottom of the
        # stock, cards known in other hands, the cut cards, a wild in transit);
        # counted in place, then scaled
        for t in range(NUM_TYPES):
            o[c + t] = TYPE_COPIES[t] - s.hand[b, p, t]
        for q in range(players):
            if q != p:
                for t in range(NUM_TYPES):
                    o[c + t] -= s.known[b, q, t]
            for g in range(G):
                for j in range(GROUP_SLOTS):
                    v = s.groups[b, q, g, j]
                    if v != 0:
                        o[c + SLOT_TYPE[g, j]] -= v
            o[c + HEART_ACE] -= s.sep_heart_aces[b, q]
            o[c + _RED_THREE_H] -= s.red_threes[b, q, 0]
            o[c + _RED_THREE_D] -= s.red_threes[b, q, 1]
        for k in range(n):
            o[c + s.pile[b, k]] -= 1.0
        for k in range(known_bottom):
            o[c + s.stock[b, k]] -= 1.0
        if phase == PHASE_CUT:
            for k in range(3):
                o[c + s.cut_cards[b, k]] -= 1.0
        if s.lifted[b] >= 0:
            o[c + s.lifted[b]] -= 1.0
        for t in range(NUM_TYPES):
            o[c + t] *= _INV_COPIES[t]
        c += NUM_TYPES
        # --- every player's table, each piece seat-major with the observer first ------
        sizes = c + players * G * GROUP_SLOTS
        kinds = sizes + players * G
        for k in range(players):
            q = (p + k) % players
            for g in range(G):
                base = c + (k * G + g) * GROUP_SLOTS
                size = 0
                for j in range(GROUP_SLOTS):
                    v = s.groups[b, q, g, j]
                    if v != 0:
                        size += v
                        o[base + j] = v * _INV_SLOT_COPIES[j]
                # a group under construction may pass 8 cards until the discard
                o[sizes + k * G + g] = min(size / 8.0, 1.0)
                if size >= 7:
                    kind = canasta_kind(g, s.groups[b, q, g])
                    if kind > 0:
                        o[kinds + (k * G + g) * NUM_CANASTA_KINDS + kind - 1] = 1.0
        c = kinds + players * G * NUM_CANASTA_KINDS
        for k in range(players):
            q = (p + k) % players
            o[c + 4 * k] = s.sep_heart_aces[b, q] / 2.0
            o[c + 4 * k + 1] = s.red_threes[b, q, 0] / 2.0
            o[c + 4 * k + 2] = s.red_threes[b, q, 1] / 2.0
            o[c + 4 * k + 3] = s.red_three_debt[b, q] / 4.0
        c += 4 * players
        for k in range(players):
            q = (p + k) % players
            o[c + k] = _clip(s.twins[b, q] / TWINS_SCALE, 0.0, 1.0)
            size = 0  # public: the number of cards in a hand (not which cards)
            for t in range(NUM_TYPES):
                size += s.hand[b, q, t]
            o[c + players + k] = _clip(size / HAND_SIZE_SCALE, 0.0, 1.0)
            o[c + 2 * players + k] = float(s.opened[b, q])
        c += 3 * players
        for k in range(players):
            q = (p + k) % players
            o[c + NUM_FREE_STATES * k + s.free_pickup[b, q]] = 1.0
        c += NUM_FREE_STATES * players
        for k in range(players):
            q = (p + k) % players
            for t in range(NUM_TYPES):
                o[c + k * NUM_TYPES + t] = s.known[b, q, t] * _INV_COPIES[t]
        c += NUM_TYPES * players
        for k in range(players):
            q = (p + k) % players
            total = s.totals[b, q]
            o[c + k] = _clip(total / target, -1.0, 1.0)
            o[c + players + NUM_TAX_BRACKETS * k + _tax_bracket(total)] = 1.0
            minimum = opening_minimum(s.totals, cfg, b, q)
            o[c + players * (1 + NUM_TAX_BRACKETS) + k] = minimum / MAX_OPENING_MINIMUM
            o[c + players * (2 + NUM_TAX_BRACKETS) + k] = _clip(
                s.hand_scores[b, q] / HAND_SCORE_SCALE, -1.0, 1.0
            )
        c += players * (3 + NUM_TAX_BRACKETS)
        # --- the current turn (public: everybody sees what the mover does) --------------
        # the mover's pending obligations and what he laid this turn
        if phase != PHASE_OVER and phase != PHASE_CUT:
            o[c + s.pickup_kind[b]] = 1.0
            c += NUM_PICKUP_KINDS
            card = s.pickup_card[b]
            if card >= 0:
                o[c + TYPE_GROUP[card]] = 1.0
            c += G
            o[c] = _clip(s.pickup_from_hand[b] / 3.0, 0.0, 1.0)
            o[c + 1] = s.pickup_size[b] / DECK
            o[c + 2] = 1.0 if s.pickup_size[b] >= 10 else 0.0
            c += 3
            if s.lifted[b] >= 0:
                o[c + _WILD_SLOT_OF_TYPE[s.lifted[b]]] = 1.0
                o[c + NUM_WILD_TYPES + s.lifted_from[b]] = 1.0
            c += NUM_WILD_TYPES + G
            for g in range(G):
                o[c + 2 * g] = s.locked[b, g, 0] / 7.0
                o[c + 2 * g + 1] = s.locked[b, g, 1] / 7.0
            c += 2 * G
            for g in range(G):
                dn = 0
                ds = 0
                for j in range(4):
                    dn += s.groups[b, mover, g, j] - s.cp_groups[b, g, j]
                    ds += s.groups[b, mover, g, 4 + j] - s.cp_groups[b, g, 4 + j]
                dj = s.groups[b, mover, g, 8] - s.cp_groups[b, g, 8]
                base = c + 5 * g
                o[base] = max(dn, 0) / 8.0
                o[base + 1] = max(ds, 0) / 7.0
                o[base + 2] = max(dj, 0) / 7.0
                o[base + 3] = max(-ds, 0) / 7.0
                o[base + 4] = max(-dj, 0) / 7.0
            c += 5 * G
            o[c] = float(s.changed[b])
            o[c + 1] = max(s.sep_heart_aces[b, mover] - s.cp_sep_heart_aces[b], 0) / 2.0
            if s.opened[b, mover] == 0:
                value = opening_value(s.groups[b, mover])
                minimum = opening_minimum(s.totals, cfg, b, mover)
                o[c + 2] = _clip(value / (2.0 * minimum), 0.0, 1.0)
                o[c + 3] = 1.0 if value >= minimum else 0.0
            c += 4
        else:
            c += TURN_SIZE
        # --- the cut (R3.1: the three cards are shown to everybody) ------------------------
        if phase == PHASE_CUT:
            for k in range(3):
                o[c + NUM_TYPES * k + s.cut_cards[b, k]] = 1.0
            for k in range(3):
                kept = s.cut_kept[b, k]
                if kept == 1:
                    o[c + 3 * NUM_TYPES + 2 * k] = 1.0
                elif kept == 0:
                    o[c + 3 * NUM_TYPES + 2 * k + 1] = 1.0
        c += 3 * NUM_TYPES + 6
    return c
