"""Conditions of classic canasta's legal mask shared by its parts: the opening made
(C11), what a pickup must keep and whether the pile may be taken (C4.3, C7, C8), whether a
pickup's obligation is complete, and whether a side may finish a turn (C12)."""

from __future__ import annotations

from numba import njit

from ....core.common import hand_size, opening_minimum
from ....rules_classic import (
    CC_CANASTA_OPENING,
    CC_FREE_UPCARD,
    CC_GO_OUT_BY_MELD,
    CC_PILE_FREEZE,
    CC_WILD_CANASTAS,
)
from .melds import (
    all_valid,
    hand_naturals,
    hand_twos,
    has_canasta,
    naturals,
    opening_reachable,
    opening_value,
    size,
    wilds,
)
from .state import ASKED_NO
from .tables import CANASTA, GROUP_OF, IS_RED, JOKER_TYPE, MAX_WILDS, MIN_MELD


@njit(cache=True)
def opening_done(s, cfg, b: int, p: int, grp) -> bool:
    """The side has opened, laid nothing yet, or its melds reach the minimum (C11)."""
    return _opening_done(s.opened[b, s.side_of[b, p]], s.totals, cfg, b, p, grp)


@njit(cache=True)
def _opening_done(opened: int, totals, cfg, b: int, p: int, grp) -> bool:
    """:func:`opening_done` from the arrays it reads (``opened``: the side's flag); the
    per-decision paths call it so as not to pass the state tuple (core/borrow.py)."""
    if opened == 1:
        return True
    if size_total(grp) == 0:
        return True
    return opening_value(grp, cfg[CC_CANASTA_OPENING] == 1) >= opening_minimum(totals, cfg, b, p)


@njit(cache=True)
def size_total(grp) -> int:
    n = 0
    for g in range(grp.shape[0]):
        n += size(grp, g)
    return n


@njit(cache=True)
def can_finish(cfg, asked: int, opened: int, totals, b: int, p: int, grp, left: int) -> bool:
    """Whether holding ``left`` cards after a meld keeps a way to end the turn (C4.3, C12)
    (``asked``: the turn's answer, ``opened``: the side's flag)."""
    if left >= 2:
        return True
    if not has_canasta(grp) or asked == ASKED_NO:
        return False
    if left == 1:
        return True
    return cfg[CC_GO_OUT_BY_MELD] == 1 and all_valid(grp) and _opening_done(opened, totals, cfg, b, p, grp)


@njit(cache=True, inline="always")
def rest_to_hand(pile, rest: int) -> int:
    """How many of the ``rest`` cards under the pickup's top card join the hand: all but
    the red threes, which are laid out (C7.1, C9.2)."""
    n = 0
    for i in range(rest):
        n += 0 if IS_RED[pile[i]] else 1
    return n


#: cards an unopened side's pickup must leave in the hand (C4.3, C7.7) [D]: two, since an
#: unopened side has no canasta and the canastas its opening could make are not searched
#: (an opened side's pickup: :func:`pickup_leaves`)
UNOPENED_KEEP = 2


@njit(cache=True)
def pickup_leaves(cfg, canasta: bool, left: int) -> bool:
    """C4.3, C7.7, C12.2: whether a pickup may leave ``left`` cards in the hand once its
    meld is made, ``canasta`` telling whether the side then has a canasta (had one, or the
    pile's meld reached one: "possibly completed in that turn"). Two always; one with the
    canasta (he may go out by discarding it); none only as pl's going out by melding (C12.1)."""
    if left >= 2:
        return True
    return canasta and (left == 1 or cfg[CC_GO_OUT_BY_MELD] == 1)


@njit(cache=True)
def opened_pickup_ok(cfg, start, pile_wilds: int, n0: int, w0: int, hand, g: int, rest: int) -> bool:
    """C7.3, C8.3 with the holding rule: whether the meld ``g`` of an opened side's pickup
    (``n0`` naturals and ``w0`` wilds, the top card included) can be made by laying more
    naturals and wilds of ``hand`` leaving what :func:`pickup_leaves` allows with the
    ``rest`` of the pile. ``start``: the side's melds before the pickup; a pile frozen by
    ``pile_wilds`` asks two naturals from the hand (C8.3). Cards laid past the meld's making
    go on in the meld phase, which allows the same."""
    frozen = cfg[CC_PILE_FREEZE] == 1 and pile_wilds > 0
    need = naturals(start, g) + 3 if frozen else 0
    had_canasta = has_canasta(start)
    total = hand_size(hand) + rest
    wild_cards = hand_twos(hand) + hand[JOKER_TYPE]
    for x in range(hand_naturals(hand, g) + 1):
        n = n0 + x
        for y in range(wild_cards + 1):
            w = w0 + y
            if w > MAX_WILDS or w > n:  # C5.2
                break
            if (
                n >= need
                and n + w >= MIN_MELD
                and pickup_leaves(cfg, had_canasta or n + w >= CANASTA, total - x - y)
            ):
                return True
    return False


@njit(cache=True)
def can_take_pile(
    pile, n: int, pile_wilds: int, grp, hand, opened: int, turn: int, totals, cfg, b, p
) -> bool:
    """C7.2-C7.4: whether seat ``p`` may take the pile now (``n``: the pile's length). Reads
    arrays only, not the state tuple (core/borrow.py)."""
    if n == 0:
        return False
    top = pile[n - 1]
    g = GROUP_OF[top]
    if g < 0:  # a wild, a black three (C7.2), or a red three: no rank to take it with
        return False
    if size(grp, g) >= CANASTA:  # the side's canasta rank blocks it (C7.2)
        return False
    if cfg[CC_FREE_UPCARD] == 1 and turn == 0:
        return True  # C4.4 option: the upcard alone, without conditions
    total = hand_size(hand)
    rest = rest_to_hand(pile, n - 1)
    h = hand_naturals(hand, g)
    if opened == 0:  # (a) only, completing the opening (C7.4, C11.6)
        if h < 2:
            return False
        work = grp.copy()
        work[g, 0] += 1
        need = opening_minimum(totals, cfg, b, p)
        budget = total + rest - UNOPENED_KEEP
        return opening_reachable(
            work, hand, need, g, budget, cfg[CC_WILD_CANASTAS] == 1, cfg[CC_CANASTA_OPENING] == 1
        )
    # (c) onto the side's meld, (a) with two naturals of the hand, (b) one and a wild (the
    # wild limit asks a natural with it); a frozen pile only (a), wilds joining (C8.3, C7.3)
    return opened_pickup_ok(cfg, grp, pile_wilds, naturals(grp, g) + 1, wilds(grp, g), hand, g, rest)


@njit(cache=True)
def pickup_complete(s, cfg, b: int, p: int) -> bool:
    """Whether the meld obliged by this turn's pickup is made (C7.1), with the opening."""
    side = s.side_of[b, p]
    grp = s.groups[b, side]
    g = GROUP_OF[s.pickup_card[b]]
    if s.opened[b, side] == 0:
        return naturals(grp, g) >= 3 and all_valid(grp) and opening_done(s, cfg, b, p, grp)
    if (
        cfg[CC_PILE_FREEZE] == 1
        and s.pile_wilds[b] > 0
        and naturals(s.start_groups[b], g) + 3 > naturals(grp, g)
    ):
        return False  # frozen: two naturals from the hand (C8.3)
    return size(grp, g) >= 3


@njit(cache=True)
def _pickup_ok_after(
    cfg,
    totals,
    b: int,
    p: int,
    opened: int,
    start,
    g: int,
    rest: int,
    pile_wilds: int,
    work,
    hand,
    g_add: int,
) -> bool:
    """Whether the pickup's obligation can still be met after laying a card on meld
    ``g_add`` (the caller has applied it to ``work`` and ``hand``). ``start``: the side's
    melds when the turn began, ``g``: the meld of the pickup's top card, ``rest``: the
    cards under it that join the hand (:func:`rest_to_hand`), ``opened``: the side's flag."""
    if opened == 0:
        need = opening_minimum(totals, cfg, b, p)
        budget = hand_size(hand) + rest - UNOPENED_KEEP
        return opening_reachable(
            work, hand, need, g, budget, cfg[CC_WILD_CANASTAS] == 1, cfg[CC_CANASTA_OPENING] == 1
        )
    # an opened side lays only on T's meld until it is made
    if g_add != g:
        return False
    return opened_pickup_ok(cfg, start, pile_wilds, naturals(work, g), wilds(work, g), hand, g, rest)
