"""``HeuristicBot``: a rule-based player that plays well.

What it does, from the observation alone (read as the seat's view):

* **Card counting.** The ``unknown`` piece (the deck minus everything the
  player has seen) and the cards publicly known in the opponent's hand give,
  for every rank, the chance that the next player holds two cards that let
  him take the discard pile (R8.1); the same counts say which of its own
  pairs are still live.
* **Discards** weigh how much a card is worth keeping (wilds, heart aces and
  ranks it collects most; live pairs over dead ones over lone cards) against
  the risk of feeding the next player (his chance to take the pile times what
  the pile holds, or the card itself if it becomes his free pickup, R7), with
  a bonus for a twin (R6). A black three or a wild on top freezes the pile
  (R9), so when the next player threatens a big pickup a black three is
  discarded first.
* **Pickups** are taken when the pile (or the free card) is worth more than a
  random draw and a possible twin.
* **Melding** opens with as few wilds as possible, lays groups of three or
  more naturals, keeps a healthy hand (pairs for pickups, wilds for canastas)
  until it has a canasta, spends wilds where they complete canastas, turns
  black canastas red or gold by moving their wilds out (R13.3), and lays every
  heart ace separately (R10.6).
* **Going out** is compared with playing on: it goes out when the score it
  would lock in is good enough against what the opponent holds, or when the
  opponent is close to going out himself.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env import Rules
from kanaszta_env import actions as A
from kanaszta_env.cards import (
    CARD_VALUE,
    HEART_ACE,
    IS_ACE,
    IS_BLACK_THREE,
    IS_RED_THREE,
    IS_WILD,
    JOKER,
    NUM_TYPES,
    TYPE_GROUP,
)
from kanaszta_env.engine.compiled import (
    FREE_WAITING,
    I_CUT_INDEX,
    I_FRESH,
    I_HEART_ACES,
    I_PHASE,
    I_PICKUP_GROUP,
    I_PILE_N,
    I_STOCK_N,
    I_TOP,
    View,
    borrow,
    view_row,
)

from .common import (
    PHASE_CUT,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    PHASE_PICKUP,
    CompiledBot,
    any_discard,
    emit_plan,
    make_plan,
    melding_fallback,
    rank_count,
)
from .plan import (
    NAT_TYPE,
    P_KEEP,
    P_MIN_LEFT,
    P_NEW_GROUPS,
    P_PAIRS,
    P_SPARE_WILDS,
    P_WANT_OUT,
    PLAN_OK,
    WILD_TYPE,
)

_VALUE = CARD_VALUE.astype(np.int64)

# tunable weights (a float64 vector; defaults in DEFAULT_PARAMS)
H_MIN_LEFT = 0  # cards to keep in hand until the first canasta
H_OUT_MARGIN = 1  # go out when (my score if out) - (opponent's estimate) >= this
H_RISK = 2  # weight of the feeding risk in discards
H_PILE_CARD = 3  # worth of one card of the discard pile
H_DRAW_VALUE = 4  # worth of a random card from the stock
H_TWIN = 5  # worth of a twin
H_FREEZE_PILE = 6  # pile size from which a black three is discarded to freeze it
H_MODE = 7  # melding mode of meld_plan (0 = the heuristic's own choice; used by the search)
H_ACE_OPENS = 8  # open as soon as possible when holding a heart ace (1) or not (0)
H_SIZE = 9

DEFAULT_PARAMS = {
    "min_left": 10.0,
    "out_margin": -1000.0,
    "risk": 1.0,
    "pile_card": 22.0,
    "draw_value": 25.0,
    "twin": 100.0,
    "freeze_pile": 6.0,
    "mode": 0.0,
    "ace_opens": 1.0,
}
PARAM_ORDER = (
    "min_left",
    "out_margin",
    "risk",
    "pile_card",
    "draw_value",
    "twin",
    "freeze_pile",
    "mode",
    "ace_opens",
)


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
    return card_worth * (v.info[I_PILE_N] + extra) + 40.0 * wilds - 60.0 * threes


@njit(cache=True)
def keep_value(v: View, t: int) -> float:
    """How much card type ``t`` is worth keeping in hand."""
    if IS_WILD[t]:
        return 200.0 + 2.0 * _VALUE[t]
    if t == HEART_ACE and v.info[I_HEART_ACES] == 1:
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
    if t == HEART_ACE and v.info[I_HEART_ACES] == 1:
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
    top = v.info[I_TOP]
    fresh = v.info[I_FRESH] == 1
    waiting = v.free[1] == FREE_WAITING
    worth = pile_worth(v, 1, prm[H_PILE_CARD])
    big_pile = v.info[I_PILE_N] >= prm[H_FREEZE_PILE]
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
    if t == HEART_ACE and v.info[I_HEART_ACES] == 1:
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
    total = 0
    red = v.red_threes[q, 0] + v.red_threes[q, 1]
    total += 800 if red == 4 else 100 * red
    total += 100 * v.twins[q] + 500 * v.heart_aces[q]
    for g in range(12):
        n = v.groups[q, g, 0] + v.groups[q, g, 1] + v.groups[q, g, 2] + v.groups[q, g, 3]
        small = v.groups[q, g, 4] + v.groups[q, g, 5] + v.groups[q, g, 6] + v.groups[q, g, 7]
        big = v.groups[q, g, 8]
        size = n + small + big
        if size == 0:
            continue
        total += 20 * small + 50 * big + n * _VALUE[NAT_TYPE[g if g < 11 else 0, 0]]
        if size >= 7:
            if g == 11:
                total += 200 if (small > 0 and big > 0) else 500
            elif size == 8:
                total += 600
            else:
                total += 400 if small + big == 0 else 300
    return total


@njit(cache=True)
def want_out(v: View, prm: np.ndarray, tn: np.ndarray, tw: np.ndarray) -> bool:
    """Whether going out now (with the plan ``tn``/``tw``) beats playing on."""
    red = v.red_threes[0, 0] + v.red_threes[0, 1]
    mine = 100 * (red if red < 4 else 8) + 100 * v.twins[0] + 500 * v.heart_aces[0]
    for g in range(12):
        size = tn[g] + tw[g]
        if size == 0:
            continue
        per = 20 if g == 11 else _VALUE[NAT_TYPE[g, 0]]
        mine += tn[g] * per + 30 * tw[g]
        if size >= 7:
            mine += 300
    mine += 100
    his = table_score(v, 1) - 12 * v.hand_size[1]
    if v.hand_size[1] <= 3:
        return True  # he is close to going out himself
    if v.info[I_STOCK_N] <= 6:
        return True
    return mine - his >= prm[H_OUT_MARGIN]


@njit(cache=True)
def heuristic_view(mask, v, opt, reserve, tn, tw, prm) -> int:
    """The heuristic's action for a row view ``v``."""
    phase = v.info[I_PHASE]
    if phase == PHASE_CUT:
        t = v.cut[v.info[I_CUT_INDEX]] if v.info[I_CUT_INDEX] < v.cut.shape[0] else -1
        if t >= 0 and (IS_WILD[t] or IS_RED_THREE[t] or IS_ACE[t]):
            return A.KEEP
        return A.LEAVE
    top = v.info[I_TOP]
    twin_chance = top >= 0 and top != JOKER and v.info[I_FRESH] == 1 and v.hand[top] > 0
    if phase == PHASE_DRAW:
        draw_value = prm[H_DRAW_VALUE] + (prm[H_TWIN] if twin_chance else 0.0)
        if mask[A.TAKE_PILE]:
            gain = pile_worth(v, 0, prm[H_PILE_CARD]) + 40.0
            if v.opened[0] == 0:
                gain += 80.0  # the pickup opens
            if gain > draw_value:
                return A.TAKE_PILE
        if mask[A.TAKE_FREE] and card_use(v, top) > draw_value:
            return A.TAKE_FREE
        return A.DRAW
    if phase == PHASE_DISCARD:
        return discard_choice(mask, v, prm)
    code, aces, _left, _out = meld_plan(v, prm, int(prm[H_MODE]), opt, reserve, tn, tw)
    if code == PLAN_OK:
        a = emit_plan(mask, v, tn, tw, aces, reserve)
        if a >= 0:
            return a
    if phase == PHASE_MELD and any_discard(mask):
        return discard_choice(mask, v, prm)
    if phase == PHASE_PICKUP:
        return melding_fallback(mask, v.info[I_PICKUP_GROUP])
    return melding_fallback(mask, -1)


@njit(cache=True)
def meld_plan(v: View, prm: np.ndarray, mode: int, opt, reserve, tn, tw) -> tuple[int, int, int, bool]:
    """The meld or pickup phase plan of ``mode``: 0 the heuristic's own choice
    (go out when :func:`want_out` says so, else keep ``min_left`` cards until a
    canasta), 1 never go out, 2 meld without keeping cards back (still not
    going out), 3 go out whenever possible. Returns the planner's ``(code,
    heart aces, cards left)`` and whether the plan goes out."""
    phase = v.info[I_PHASE]
    if phase == PHASE_MELD and (mode == 0 or mode == 3):
        reserve[:] = 0
        opt[P_NEW_GROUPS] = 1
        opt[P_PAIRS] = 2
        opt[P_SPARE_WILDS] = 1
        opt[P_WANT_OUT] = 1
        opt[P_KEEP] = 0
        opt[P_MIN_LEFT] = 0
        code, aces, left = make_plan(v, opt, reserve, tn, tw)
        if code == PLAN_OK and left == 1 and (mode == 3 or want_out(v, prm, tn, tw)):
            return code, aces, left, True
    reserve[:] = 0
    top = v.info[I_TOP]
    if phase == PHASE_MELD and top >= 0 and top != JOKER and v.info[I_FRESH] == 1 and v.hand[top] > 0:
        reserve[top] = 1  # keep the twin to discard (R6)
    opt[P_NEW_GROUPS] = 1
    opt[P_PAIRS] = 1
    opt[P_SPARE_WILDS] = 0
    opt[P_WANT_OUT] = 0
    opt[P_KEEP] = 0
    opt[P_MIN_LEFT] = int(prm[H_MIN_LEFT]) if phase == PHASE_MELD and mode != 2 else 2
    if v.opened[0] == 0 and v.info[I_HEART_ACES] == 1 and v.hand[HEART_ACE] > 0 and prm[H_ACE_OPENS] > 0:
        opt[P_MIN_LEFT] = 2  # open now: a separate heart ace is worth 500 (R10.6)
    code, aces, left = make_plan(v, opt, reserve, tn, tw)
    return code, aces, left, False


@njit(cache=True)
def heuristic_batch(views, mask, opt, reserve, tn, tw, prm, out) -> None:
    views = borrow(views)  # no reference counting of the view's arrays per call
    for i in range(mask.shape[0]):
        out[i] = heuristic_view(mask[i], view_row(views, i), opt, reserve, tn, tw, prm)


def params_vector(params: dict[str, float] | None = None) -> np.ndarray:
    """The weight vector of ``DEFAULT_PARAMS`` updated with ``params``."""
    merged = dict(DEFAULT_PARAMS)
    for key, value in (params or {}).items():
        if key not in merged:
            raise ValueError(f"unknown HeuristicBot parameter {key!r}; known: {sorted(merged)}")
        merged[key] = float(value)
    return np.array([merged[k] for k in PARAM_ORDER], dtype=np.float64)


class HeuristicBot(CompiledBot):
    """Rule-based player with card counting (see the module docstring).

    ``params`` overrides entries of :data:`DEFAULT_PARAMS`.
    """

    name = "heuristic"

    def __init__(self, rules: Rules | None = None, params: dict[str, float] | None = None) -> None:
        self.params = params_vector(params)
        super().__init__(rules)

    def act(
        self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None, views: View | None = None
    ) -> np.ndarray:
        views, mask = self._inputs(obs, mask, views)
        out = np.empty(mask.shape[0], dtype=np.int64)
        w = self.work
        heuristic_batch(views, mask, w.opt, w.reserve, w.tn, w.tw, self.params, out)
        return out
