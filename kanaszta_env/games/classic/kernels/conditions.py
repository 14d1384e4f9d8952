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
from .tables import CANASTA, GROUP_OF, JOKER_TYPE


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


@njit(cache=True)
def pickup_keep(grp) -> int:
    """Cards a pickup must leave in the hand (C4.3, C7.7) [D]: two, or one when the side
    already has a canasta (he can then go out by discarding it)."""
    return 1 if has_canasta(grp) else 2


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
    rest = n - 1
    keep = pickup_keep(grp)
    h = hand_naturals(hand, g)
    if opened == 0:  # (a) only, completing the opening (C7.4, C11.6)
        if h < 2:
            return False
        work = grp.copy()
        work[g, 0] += 1
        need = opening_minimum(totals, cfg, b, p)
        budget = total + rest - keep
        return opening_reachable(
            work, hand, need, g, budget, cfg[CC_WILD_CANASTAS] == 1, cfg[CC_CANASTA_OPENING] == 1
        )
    frozen = cfg[CC_PILE_FREEZE] == 1 and pile_wilds > 0
    if not frozen and size(grp, g) > 0:  # (c) onto the side's meld
        return total + rest >= keep
    if total + rest - 2 < keep:
        return False
    if h >= 2:  # (a)
        return True
    return not frozen and h >= 1 and hand_twos(hand) + hand[JOKER_TYPE] >= 1  # (b)


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
    cards under it, ``opened``: the side's flag."""
    keep = pickup_keep(start)  # the side's melds before the pickup, as can_take_pile
    if opened == 0:
        need = opening_minimum(totals, cfg, b, p)
        budget = hand_size(hand) + rest - keep
        return opening_reachable(
            work, hand, need, g, budget, cfg[CC_WILD_CANASTAS] == 1, cfg[CC_CANASTA_OPENING] == 1
        )
    # an opened side lays only on T's meld: done, or one more natural / wild completes it
    frozen = cfg[CC_PILE_FREEZE] == 1 and pile_wilds > 0
    if g_add != g:
        return False
    n = naturals(work, g)
    w = wilds(work, g)
    if frozen:  # two naturals from the hand (C8.3); wilds may join the meld too (C7.3)
        short = naturals(start, g) + 3 - n
        if short <= 0:
            return True
        return hand_naturals(hand, g) >= short and hand_size(hand) - short + rest >= keep
    if n + w >= 3:
        return True
    return hand_naturals(hand, g) >= 1 or (w < n and hand_twos(hand) + hand[JOKER_TYPE] >= 1)
