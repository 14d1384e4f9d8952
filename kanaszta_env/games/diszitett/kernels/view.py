"""The structured view: what one seat may see of one game, as integers.

A :class:`View` holds exactly the information of that seat's observation and
nothing more: the float vector of :mod:`kanaszta_env.games.diszitett.kernels.observe` is written
from it (:func:`~kanaszta_env.games.diszitett.kernels.observe.encode_view`), and decoding the
vector gives it back exactly. Seats are relative to the observer (index 0 is
himself, then the next seats in turn order). Counts that the observation
clips are clipped here too (hand sizes, twins, totals, the last hand's score,
a pickup's hand cards), so that the two never differ.

Every field has a leading batch axis (one row per (game, seat) asked for);
:func:`view_row` gives the row view of one of them (the same fields without
the batch axis), which is what per-decision code reads. Scalars live in
``info``, indexed by the ``I_*`` constants.

A view is a tuple of 22 arrays: batch kernels borrow it as they borrow the
state (``core/borrow.py``), and the helpers below are inlined, since numba
passes every array of a tuple argument (and reference-counts it) at each call
level — that cost more than filling the view.

What :func:`fill_view` never reads: the other players' hands (except their
sizes and their publicly known cards), the stock beyond its known bottom
cards, the checkpoint hand and the random state — the information-leak tests
re-deal exactly that hidden part and check that the view does not change.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from kanaszta_env.variants import shared_type  # absolute: the installed package's classes

from ....cards import (
    GROUP_SLOTS,
    HEART_ACE,
    JOKER_SLOT,
    NUM_GROUPS,
    NUM_TYPES,
    RED_THREES,
    SLOT_TYPE,
    TYPE_GROUP,
    TYPE_WILD_SLOT,
    WILD_GROUP,
    WILD_SLOT0,
    WILD_TYPES,
)
from ....core.borrow import borrow, flat
from ....core.common import opening_minimum
from ....core.config import (
    CFG_EPISODE_GAME,
    CFG_HEART_ACES,
    CFG_MAX_HANDS,
    CFG_MAX_TURNS,
    CFG_PLAYERS,
    CFG_TARGET,
)
from .state import PHASE_CUT, PHASE_OVER
from .tables import HALF_TAX_FROM, QUARTER_TAX_FROM, TENTH_TAX_FROM, TYPE_COPIES

#: the observation's scales of unbounded counts (an encoded value is count ÷ scale, at most 1):
#: the view clips these counts at their scale too
HAND_SIZE_SCALE = 64.0
TWINS_SCALE = 10.0
HAND_SCORE_SCALE = 2000.0
PICKUP_FROM_HAND_SCALE = 3.0
CUT_CARDS = 3  # R3.1
#: entries of ``View.laid`` per group: naturals added, small and big wilds added,
#: small and big wilds taken out
LAID_KINDS = 5
#: entries of ``View.locked`` per group: small and big wilds put in this turn
LOCKED_KINDS = 2
#: cut decision codes of ``View.cut_kept``
CUT_UNDECIDED = -1
CUT_LEFT = 0
CUT_KEPT = 1

# --- the scalars of View.info ------------------------------------------------------
I_PHASE = 0  # PHASE_* of games.diszitett.kernels.state
I_MOVER = 1  # seat that decides now, relative to the observer
I_STARTER_OFFSET = 2  # seats the observer sits after the hand's starter
I_TURN = 3  # turns played in this hand, at most max_turns
I_HAND_NUMBER = 4  # hands played in a game episode (at most max_hands); 0 in hand episodes
I_HEART_ACES = 5  # 1 if separate heart aces exist (preset 2003-02)
I_TOP = 6  # card type of the discard pile's top card, -1 if the pile is empty
I_TOP_OWNER = 7  # relative seat that discarded the top card, -1 if empty or unknown
I_PILE_N = 8  # cards in the discard pile
I_FRESH = 9  # 1 if the top card was discarded in the previous turn (a twin is possible, R6)
I_STOCK_N = 10  # cards in the stock
I_STOCK_KNOWN = 11  # known cards at the stock's bottom (R3.4)
I_PICKUP_KIND = 12  # PICKUP_* of the mover's turn; -1 outside the turn phases
I_PICKUP_GROUP = 13  # group of a penalised pickup's top card (R8.1), -1 if none
I_PICKUP_FROM_HAND = 14  # hand cards melded into that group, at most 3
I_PICKUP_SIZE = 15  # cards taken in the penalised pickup (R8.4)
I_LIFTED = 16  # wild slot (index into WILD_TYPES) of a lifted wild (R13.2), -1 if none
I_LIFTED_FROM = 17  # group it came from, -1 if none
I_CHANGED = 18  # 1 if something was laid or moved since the checkpoint (R12.5)
I_NEW_ACES = 19  # separate heart aces laid this turn
I_CUT_INDEX = 20  # derived: the cut card being decided (first undecided), 3 when all are
I_SIZE = 21


class View(NamedTuple):
    """What a seat sees, with a leading batch axis (shapes below are per row;
    ``P`` players, seats relative to the observer)."""

    hand: np.ndarray  # (53,) own hand by card type
    pile: np.ndarray  # (53,) discard pile content
    stock_bottom: np.ndarray  # (53,) the known bottom cards of the stock
    unknown: np.ndarray  # (53,) cards whose place the observer cannot know
    groups: np.ndarray  # (P, 12, 9) every player's groups (naturals by suit, 2S 2H 2D 2C JK)
    known: np.ndarray  # (P, 53) cards publicly known to be in each hand (own seat: its known cards)
    heart_aces: np.ndarray  # (P,) separate heart aces laid (R10.6)
    red_threes: np.ndarray  # (P, 2) 3H and 3D in the collection (R4)
    red_three_debt: np.ndarray  # (P,) red-three replacements still to draw (R4.2)
    twins: np.ndarray  # (P,) twins (R6), at most TWINS_SCALE
    hand_size: np.ndarray  # (P,) cards in hand, at most HAND_SIZE_SCALE
    opened: np.ndarray  # (P,) opened in an earlier turn of this hand
    free: np.ndarray  # (P,) R7 state (FREE_* of games.diszitett.kernels.state)
    total: np.ndarray  # (P,) game total, clipped to ±target
    tax_bracket: np.ndarray  # (P,) R17.1 bracket of the total: untaxed, halved, quartered, a tenth
    minimum: np.ndarray  # (P,) opening minimum (R12.2)
    last_score: np.ndarray  # (P,) recorded score of the previous hand, clipped to ±HAND_SCORE_SCALE
    locked: np.ndarray  # (12, 2) small and big wilds put into each group this turn
    laid: np.ndarray  # (12, 5) the mover's groups against the turn's checkpoint (LAID_KINDS)
    cut: np.ndarray  # (3,) the cut cards in the cut phase, else -1
    cut_kept: np.ndarray  # (3,) CUT_* decision of each cut card (undecided outside the cut)
    info: np.ndarray  # (I_SIZE,) scalars, indexed by the I_* constants

    def rows(self, index: np.ndarray | slice) -> View:
        """The rows ``index`` of a batched view (copies for an index array)."""
        return View(*(a[index] for a in self))


View = shared_type(View)  # one type in every kernel copy


#: fields of shape (P,): heart_aces, red_three_debt, twins, hand_size, opened, free, total,
#: tax_bracket, minimum, last_score
_SEAT_FIELDS = 10


def view_shapes(players: int) -> tuple[tuple[int, ...], ...]:
    """Per-row shape of every :class:`View` field for ``players`` players."""
    T, G, P = NUM_TYPES, NUM_GROUPS, players
    return (
        (T,), (T,), (T,), (T,), (P, G, GROUP_SLOTS), (P, T), (P,), (P, 2), (P,), (P,), (P,), (P,), (P,), (P,),
        (P,), (P,), (P,), (G, LOCKED_KINDS), (G, LAID_KINDS), (CUT_CARDS,), (CUT_CARDS,), (I_SIZE,),
    )  # fmt: skip


def new_views(n: int, players: int) -> View:
    """Zeroed views of ``n`` rows for ``players`` players."""
    return View(*(np.zeros((n, *shape), dtype=np.int64) for shape in view_shapes(players)))


@njit(inline="always")
def view_size(players: int) -> int:
    """Entries of one row view of ``players`` players (see :func:`view_in`)."""
    per_seat = (
        NUM_GROUPS * GROUP_SLOTS + NUM_TYPES + 2 + _SEAT_FIELDS
    )  # groups, known, red threes, (P,) fields
    return (
        4 * NUM_TYPES + players * per_seat + NUM_GROUPS * (LOCKED_KINDS + LAID_KINDS) + 2 * CUT_CARDS + I_SIZE
    )


@njit(inline="always")
def view_in(buf: np.ndarray, players: int) -> View:
    """A row view whose fields are slices of ``buf`` (``view_size(players)`` int64 entries)."""
    T, G, S, P = NUM_TYPES, NUM_GROUPS, GROUP_SLOTS, players
    c = 4 * T
    groups = buf[c : c + P * G * S].reshape((P, G, S))
    c += P * G * S
    known = buf[c : c + P * T].reshape((P, T))
    c += P * T
    red_threes = buf[c : c + 2 * P].reshape((P, 2))
    s = c + 2 * P  # the (P,) fields, one after the other
    c = s + _SEAT_FIELDS * P
    locked = buf[c : c + G * LOCKED_KINDS].reshape((G, LOCKED_KINDS))
    c += G * LOCKED_KINDS
    laid = buf[c : c + G * LAID_KINDS].reshape((G, LAID_KINDS))
    c += G * LAID_KINDS
    return View(
        buf[0:T], buf[T : 2 * T], buf[2 * T : 3 * T], buf[3 * T : 4 * T], groups, known, buf[s : s + P],
        red_threes, buf[s + P : s + 2 * P], buf[s + 2 * P : s + 3 * P], buf[s + 3 * P : s + 4 * P],
        buf[s + 4 * P : s + 5 * P], buf[s + 5 * P : s + 6 * P], buf[s + 6 * P : s + 7 * P],
        buf[s + 7 * P : s + 8 * P], buf[s + 8 * P : s + 9 * P], buf[s + 9 * P : s + 10 * P], locked, laid,
        buf[c : c + CUT_CARDS], buf[c + CUT_CARDS : c + 2 * CUT_CARDS], buf[c + 2 * CUT_CARDS :],
    )  # fmt: skip


@njit(cache=True)
def new_view(players: int) -> View:
    """One zeroed row view (no batch axis), e.g. the scratch of a compiled
    kernel: every field is a slice of one buffer (a single allocation)."""
    return view_in(np.zeros(view_size(players), np.int64), players)


@njit(cache=True)
def view_row(v: View, i: int) -> View:
    """Row ``i`` of a batched view, as a row view over the same memory."""
    return View(
        v.hand[i], v.pile[i], v.stock_bottom[i], v.unknown[i], v.groups[i], v.known[i], v.heart_aces[i],
        v.red_threes[i], v.red_three_debt[i], v.twins[i], v.hand_size[i], v.opened[i], v.free[i], v.total[i],
        v.tax_bracket[i], v.minimum[i], v.last_score[i], v.locked[i], v.laid[i], v.cut[i], v.cut_kept[i],
        v.info[i],
    )  # fmt: skip


@njit(inline="always")
def tax_bracket(total: int) -> int:
    """R17.1 bracket of a running total: untaxed, halved, quartered, a tenth."""
    if total < HALF_TAX_FROM:
        return 0
    if total < QUARTER_TAX_FROM:
        return 1
    if total < TENTH_TAX_FROM:
        return 2
    return 3


@njit(inline="always")
def derive(v: View) -> None:
    """Fill the derived entries of a row view from its other fields."""
    v.info[I_CUT_INDEX] = CUT_CARDS
    for k in range(CUT_CARDS):
        if v.cut_kept[k] == CUT_UNDECIDED:
            v.info[I_CUT_INDEX] = k
            break


@njit(inline="always")
def _clip(x: int, lo: int, hi: int) -> int:
    return lo if x < lo else (hi if x > hi else x)


@njit(inline="always")
def _fill_seats(s, cfg, b: int, p: int, v: View) -> None:
    """The per-seat fields of player ``p``'s view of game ``b`` (``unknown``
    minus the seats' cards; its other terms are in :func:`fill_view`)."""
    P = cfg[CFG_PLAYERS]
    target = cfg[CFG_TARGET]
    for k in range(P):
        q = (p + k) % P
        size = 0
        known, hand, seen = s.known[b, q], s.hand[b, q], v.known[k]
        for t in range(NUM_TYPES):
            seen[t] = known[t]
            size += hand[t]  # public: the number of cards in a hand (not which cards)
        if k > 0:
            for t in range(NUM_TYPES):
                v.unknown[t] -= known[t]
        groups, table = flat(s.groups[b, q]), flat(v.groups[k])
        for i in range(NUM_GROUPS * GROUP_SLOTS):
            table[i] = groups[i]
        v.unknown[HEART_ACE] -= s.sep_heart_aces[b, q]
        v.unknown[RED_THREES[0]] -= s.red_threes[b, q, 0]
        v.unknown[RED_THREES[1]] -= s.red_threes[b, q, 1]
        v.heart_aces[k] = s.sep_heart_aces[b, q]
        v.red_threes[k, 0] = s.red_threes[b, q, 0]
        v.red_threes[k, 1] = s.red_threes[b, q, 1]
        v.red_three_debt[k] = s.red_three_debt[b, q]
        v.twins[k] = min(s.twins[b, q], int(TWINS_SCALE))
        v.hand_size[k] = min(size, int(HAND_SIZE_SCALE))
        v.opened[k] = s.opened[b, q]
        v.free[k] = s.free_pickup[b, q]
        total = s.totals[b, q]
        v.total[k] = _clip(total, -target, target)
        v.tax_bracket[k] = tax_bracket(total)
        v.minimum[k] = opening_minimum(s.totals, cfg, b, q)
        v.last_score[k] = _clip(s.hand_scores[b, q], -int(HAND_SCORE_SCALE), int(HAND_SCORE_SCALE))
    # the cards on the table: a group's naturals are four consecutive types; the wilds
    # are summed over every table first (in registers), one subtraction per wild type
    w0 = w1 = w2 = w3 = w4 = 0
    for q in range(P):
        table = flat(s.groups[b, q])
        for g in range(WILD_GROUP):  # the wilds' group (the last) holds no naturals
            t = SLOT_TYPE[g, 0]
            for j in range(WILD_SLOT0):
                v.unknown[t + j] -= table[GROUP_SLOTS * g + j]
        for at in range(WILD_SLOT0, NUM_GROUPS * GROUP_SLOTS, GROUP_SLOTS):
            w0 += table[at]
            w1 += table[at + 1]
            w2 += table[at + 2]
            w3 += table[at + 3]
            w4 += table[at + 4]
    v.unknown[WILD_TYPES[0]] -= w0
    v.unknown[WILD_TYPES[1]] -= w1
    v.unknown[WILD_TYPES[2]] -= w2
    v.unknown[WILD_TYPES[3]] -= w3
    v.unknown[WILD_TYPES[4]] -= w4


@njit(inline="always")
def _fill_turn(s, b: int, v: View) -> None:
    """The current turn's entries (public: everybody sees what the mover does);
    empty in the cut phase and after the end."""
    info = v.info
    phase = s.phase[b]
    if phase in (PHASE_OVER, PHASE_CUT):
        flat(v.locked)[:] = 0
        flat(v.laid)[:] = 0
        info[I_PICKUP_KIND] = -1
        info[I_PICKUP_GROUP] = -1
        info[I_PICKUP_FROM_HAND] = 0
        info[I_PICKUP_SIZE] = 0
        info[I_LIFTED] = -1
        info[I_LIFTED_FROM] = -1
        info[I_CHANGED] = 0
        info[I_NEW_ACES] = 0
        return
    mover = s.to_move[b]
    info[I_PICKUP_KIND] = s.pickup_kind[b]
    info[I_PICKUP_GROUP] = TYPE_GROUP[s.pickup_card[b]] if s.pickup_card[b] >= 0 else -1
    info[I_PICKUP_FROM_HAND] = min(s.pickup_from_hand[b], int(PICKUP_FROM_HAND_SCALE))
    info[I_PICKUP_SIZE] = s.pickup_size[b]
    lifted = s.lifted[b]
    info[I_LIFTED] = TYPE_WILD_SLOT[lifted] if lifted >= 0 else -1
    info[I_LIFTED_FROM] = s.lifted_from[b] if lifted >= 0 else -1
    locked, put = flat(v.locked), flat(s.locked[b])
    for i in range(NUM_GROUPS * LOCKED_KINDS):
        locked[i] = put[i]
    groups, checkpoint = s.groups[b, mover], s.cp_groups[b]
    for g in range(NUM_GROUPS):
        dn = 0
        ds = 0
        for j in range(WILD_SLOT0):
            dn += groups[g, j] - checkpoint[g, j]
            ds += groups[g, WILD_SLOT0 + j] - checkpoint[g, WILD_SLOT0 + j]
        dj = groups[g, JOKER_SLOT] - checkpoint[g, JOKER_SLOT]
        v.laid[g, 0] = max(dn, 0)
        v.laid[g, 1] = max(ds, 0)
        v.laid[g, 2] = max(dj, 0)
        v.laid[g, 3] = max(-ds, 0)
        v.laid[g, 4] = max(-dj, 0)
    info[I_CHANGED] = s.changed[b]
    info[I_NEW_ACES] = max(s.sep_heart_aces[b, mover] - s.cp_sep_heart_aces[b], 0)


@njit(inline="always")
def fill_view(s, cfg, b: int, p: int, v: View) -> None:
    """Write player ``p``'s view of game ``b`` into the row view ``v``."""
    P = cfg[CFG_PLAYERS]
    info = v.info
    phase = s.phase[b]
    info[I_PHASE] = phase
    info[I_MOVER] = (s.to_move[b] - p + P) % P
    info[I_STARTER_OFFSET] = (p - s.starter[b] + P) % P
    info[I_TURN] = _clip(s.turn[b], 0, cfg[CFG_MAX_TURNS])
    info[I_HAND_NUMBER] = _clip(s.hand_number[b], 0, cfg[CFG_MAX_HANDS]) if cfg[CFG_EPISODE_GAME] == 1 else 0
    info[I_HEART_ACES] = cfg[CFG_HEART_ACES]
    # the discard pile and the known bottom of the stock (public)
    n = s.pile_len[b]
    known_bottom = min(s.stock_known[b], s.stock_len[b])
    v.pile[:] = 0
    v.stock_bottom[:] = 0
    for k in range(n):
        v.pile[s.pile[b, k]] += 1
    for k in range(known_bottom):
        v.stock_bottom[s.stock[b, k]] += 1
    info[I_PILE_N] = n
    info[I_TOP] = s.pile[b, n - 1] if n > 0 else -1
    owner = s.pile_owner[b, n - 1] if n > 0 else -1
    # a position document may leave the owner unknown (-1)
    info[I_TOP_OWNER] = (owner - p + P) % P if owner >= 0 else -1
    info[I_FRESH] = 1 if (s.pile_fresh[b] == 1 and n > 0) else 0
    info[I_STOCK_N] = s.stock_len[b]
    info[I_STOCK_KNOWN] = s.stock_known[b]
    # the unknown cards: the deck minus everything the observer sees (own hand, all
    # groups and collections, the pile, the known bottom of the stock, cards known in
    # other hands, the cut cards, a wild in transit); _fill_seats takes the seats' part
    for t in range(NUM_TYPES):
        v.hand[t] = s.hand[b, p, t]
        v.unknown[t] = TYPE_COPIES[t] - s.hand[b, p, t] - v.pile[t] - v.stock_bottom[t]
    _fill_seats(s, cfg, b, p, v)
    for k in range(CUT_CARDS):
        if phase == PHASE_CUT:  # R3.1: the three cut cards are shown to everybody
            v.cut[k] = s.cut_cards[b, k]
            v.cut_kept[k] = s.cut_kept[b, k] if s.cut_kept[b, k] >= 0 else CUT_UNDECIDED
            v.unknown[s.cut_cards[b, k]] -= 1
        else:
            v.cut[k] = -1
            v.cut_kept[k] = CUT_UNDECIDED
    if s.lifted[b] >= 0:
        v.unknown[s.lifted[b]] -= 1
    _fill_turn(s, b, v)
    derive(v)


@njit(cache=True, nogil=True)  # lets an overlapped PPO update run meanwhile
def fill_views(s, cfg, games: np.ndarray, seats: np.ndarray, v: View) -> None:
    """Row ``i`` of the batched view ``v`` = player ``seats[i]``'s view of game ``games[i]``."""
    s = borrow(s)  # no reference counting inside the kernel (core/borrow.py)
    v = borrow(v)
    for i in range(games.shape[0]):
        fill_view(s, cfg, games[i], seats[i], view_row(v, i))
