"""What the heuristic bot reads from a seat's view (compiled): card counting
(the next player's chance to take the pile, R8.1), what a card, the pile or a
table is worth, the cost of each discard, and whether going out beats playing
on. See :mod:`agents.games.diszitett.heuristic` for how they are used.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env.cards import (
    CARD_VALUE,
    GROUP_SLOTS,
    HEART_ACE,
    IS_BLACK_THREE,
    IS_RED_THREE,
    IS_WILD,
    JOKER,
    NUM_TYPES,
    TYPE_GROUP,
)
from kanaszta_env.games.diszitett import actions as A, compiled as C
from kanaszta_env.games.diszitett.compiled import (
    CANASTA_BASE,
    CANASTA_SIZE,
    FREE_WAITING,
    View,
    group_card_value,
    hand_base,
)

from .common import rank_count
from .heuristic_params import H_FREEZE_PILE, H_OUT_MARGIN, H_PILE_CARD, H_RISK, H_TWIN
from .plan_groups import NAT_TYPE, WILD_TYPE

_VALUE = CARD_VALUE.astype(np.int64)
_NO_GROUPS = np.zeros((0, GROUP_SLOTS), dtype=np.int8)

_CANASTA_GUESS = int(CANASTA_BASE[2])  # a black canasta's bonus: the commonest kind (R16.1)


@njit(cache=True)
def _hyper_at_least(pool: int, good: int, draws: int, need: int) -> float:
    """P(at least ``need`` of ``draws`` cards drawn without replacement from
    ``pool`` cards, ``good`` of them good, are good); ``need`` <= 2."""
    if need <= 0:
        return 1.0
    if draws <= 0 or good <= 0 or pool <= 0:
        return 0.0
    draws = min(draws, pool)
    bad = pool - good
    # P(X = 0) and P(X = 1) by products (no big binomials)
    p0 = 1.0
    for i in range(draws):
        p0 *= max(bad - i, 0) / (pool - i)
    if need == 1:
        return 1.0 - p0
    p1 = 0.0
    if draws >= 1:
        p1 = draws * good / pool
        for i in range(draws - 1):
            p1 *= max(bad - i, 0) / (pool - 1 - i)
    return max(1.0 - p0 - p1, 0.0)


@njit(cache=True)
def _support(counts: np.ndarray, g: int) -> int:
    """Naturals of group ``g`` plus wilds in a vector of 53 counts."""
    total = 0
    for s in range(4):
        total += counts[NAT_TYPE[g, s]]
    for k in range(5):
        total += counts[WILD_TYPE[k]]
    return total


@njit(cache=True)
def pickup_chance(v: View, g: int) -> float:
    """Chance that the next player can take the pile with a natural of group ``g``
    on top (R8.1: two hand cards of the rank or wilds), from public knowledge."""
    q = 1
    hidden = v.hand_size[q]
    known = 0
    for t in range(NUM_TYPES):
        known += v.known[q, t]
    hidden -= known
    pool = 0
    for t in range(NUM_TYPES):
        if not IS_RED_THREE[t]:  # red threes never stay in a hand (R4)
            pool += v.unknown[t]
    need = 2 - _support(v.known[q], g)
    p = _hyper_at_least(pool, _support(v.unknown, g), hidden, need)
    if v.opened[q] == 0:
        p *= 0.5  # he must also make his opening from hand and the top card (R8.2)
    return p


@njit(cache=True)
def pile_worth(v: View, extra: int, card_worth: float) -> float:
    """What the discard pile (plus ``extra`` cards) is worth to whoever takes it."""
    wilds = 0
    threes = 0
    for t in range(NUM_TYPES):
        if IS_WILD[t]:
            wilds += v.pile[t]
        elif IS_BLACK_THREE[t]:
            threes += v.pile[t]
    return card_worth * (v.info[C.I_PILE_N] + extra) + 40.0 * wilds - 60.0 * threes


@njit(cache=True)
def keep_value(v: View, t: int) -> float:
    """How much card type ``t`` is worth keeping in hand."""
    if IS_WILD[t]:
        return 200.0 + 2.0 * _VALUE[t]
    if t == HEART_ACE and v.info[C.I_HEART_ACES] == 1:
        return 2000.0
    if IS_BLACK_THREE[t]:
        return -50.0
    g = TYPE_GROUP[t]
    count = rank_count(v.hand, t)
    live = 0
    for s in range(4):
        live += v.unknown[NAT_TYPE[g, s]]
    mine = v.groups[0, g, 0] + v.groups[0, g, 1] + v.groups[0, g, 2] + v.groups[0, g, 3]
    if mine > 0:
        return 70.0 + 5.0 * count
    if count >= 3:
        return 90.0
    if count == 2:
        return 45.0 + 8.0 * live
    return 8.0 + 4.0 * live + 0.2 * _VALUE[t]


@njit(cache=True)
def card_use(v: View, t: int) -> float:
    """Worth of getting card ``t`` into the hand (free pickup, cut)."""
    if t == HEART_ACE and v.info[C.I_HEART_ACES] == 1:
        return 600.0
    if IS_WILD[t]:
        return 120.0
    g = TYPE_GROUP[t]
    if g < 0:
        return 0.0
    count = rank_count(v.hand, t)
    mine = v.groups[0, g, 0] + v.groups[0, g, 1] + v.groups[0, g, 2] + v.groups[0, g, 3]
    if mine > 0 or count >= 2:
        return 70.0
    if count == 1:
        return 45.0
    return 12.0


@njit(cache=True)
def discard_costs(mask: np.ndarray, v: View, prm: np.ndarray, out: np.ndarray) -> None:
    """Cost of each legal discard (53 types; +inf where illegal): keep value
    plus feeding risk minus the twin bonus. The cheapest is discarded."""
    top = v.info[C.I_TOP]
    fresh = v.info[C.I_FRESH] == 1
    waiting = v.free[1] == FREE_WAITING
    worth = pile_worth(v, 1, prm[H_PILE_CARD])
    big_pile = v.info[C.I_PILE_N] >= prm[H_FREEZE_PILE]
    for t in range(NUM_TYPES):
        out[t] = np.inf
        if not mask[A.DISCARD0 + t]:
            continue
        cost = keep_value(v, t)
        g = TYPE_GROUP[t]
        if g >= 0:  # a natural on top can be taken
            if waiting:
                cost += prm[H_RISK] * card_use_for_next(v, t)  # his free pickup (R7)
            else:
                cost += prm[H_RISK] * pickup_chance(v, g) * worth
        elif IS_BLACK_THREE[t] and big_pile:
            cost -= 100.0  # freeze a pile worth taking (R9)
        if fresh and t == top and t != JOKER:
            cost -= prm[H_TWIN]
        out[t] = cost


@njit(cache=True)
def discard_choice(mask: np.ndarray, v: View, prm: np.ndarray) -> int:
    """The legal discard of lowest :func:`discard_costs`."""
    costs = np.empty(NUM_TYPES, dtype=np.float64)
    discard_costs(mask, v, prm, costs)
    best = -1
    for t in range(NUM_TYPES):
        if costs[t] < np.inf and (best < 0 or costs[t] < costs[best]):
            best = t
    return A.DISCARD0 + best if best >= 0 else -1


@njit(cache=True)
def card_use_for_next(v: View, t: int) -> float:
    """Worth of card ``t`` to the next player as his free pickup."""
    if t == HEART_ACE and v.info[C.I_HEART_ACES] == 1:
        return 600.0
    g = TYPE_GROUP[t]
    his = v.groups[1, g, 0] + v.groups[1, g, 1] + v.groups[1, g, 2] + v.groups[1, g, 3]
    known = 0
    for s in range(4):
        known += v.known[1, NAT_TYPE[g, s]]
    return 20.0 + (40.0 if his > 0 or known > 0 else 0.0)


@njit(cache=True)
def table_score(v: View, q: int) -> int:
    """Seat ``q``'s score from the table only (R16 without hand cards or going out)."""
    red = v.red_threes[q, 0] + v.red_threes[q, 1]
    total = hand_base(v.groups[q], red, v.twins[q], v.heart_aces[q], False, False, False)
    for g in range(v.groups.shape[1]):
        total += group_card_value(g, v.groups[q, g])
    return total


@njit(cache=True)
def want_out(v: View, prm: np.ndarray, tn: np.ndarray, tw: np.ndarray) -> bool:
    """Whether going out now (with the plan ``tn``/``tw``) beats playing on."""
    red = v.red_threes[0, 0] + v.red_threes[0, 1]
    # the bonuses of going out now, with the canastas of the plan estimated below
    mine = hand_base(_NO_GROUPS, red, v.twins[0], v.heart_aces[0], True, False, False)
    for g in range(12):
        size = tn[g] + tw[g]
        if size == 0:
            continue
        per = 20 if g == 11 else _VALUE[NAT_TYPE[g, 0]]
        mine += tn[g] * per + 30 * tw[g]
        if size >= CANASTA_SIZE:
            mine += _CANASTA_GUESS
    his = table_score(v, 1) - 12 * v.hand_size[1]
    if v.hand_size[1] <= 3:
        return True  # he is close to going out himself
    if v.info[C.I_STOCK_N] <= 6:
        return True
    return mine - his >= prm[H_OUT_MARGIN]
