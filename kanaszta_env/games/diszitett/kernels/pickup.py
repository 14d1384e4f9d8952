"""The penalised pickup (R8): whether its obligatory meld is complete, and
whether it can still be completed.

Step 2 of R8.3 cannot be withdrawn, so the mask must never let a player into a
position from which it cannot be finished. The checks below work on counts:
suits do not matter for legality, and wilds only by number.

* An opened player melds the top card with at least two hand cards into his
  group of its rank; he may displace wilds of that group into his other
  groups (R13.3), which is what lets a black canasta turn gold.
* A player who has not opened makes his opening from hand and the top card
  (R8.2); all his groups are new, so the question is a small knapsack over
  the eleven ranks and the wilds-only group, solved exactly by dynamic
  programming over (hand wilds used, cards used, canasta made).
* Either way the player must keep a card to discard after the rest of the
  pile joins his hand (R14.2).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....cards import JOKER_SLOT, NUM_SUITS, NUM_TYPES, TYPE_GROUP, TYPE_WILD_SLOT, WILD_GROUP
from .melds import (
    group_size,
    max_wilds,
    melding_summary,
    natural_group_legal,
    naturals,
    small_wilds,
    wild_group_legal,
)
from .tables import CANASTA_SIZE, GROUP_CARD_VALUE, MAX_NATURAL_GROUP, MIN_MELD


@njit(cache=True)
def _hand_count(hand: np.ndarray) -> int:
    total = 0
    for t in range(NUM_TYPES):
        total += hand[t]
    return total


@njit(cache=True)
def _hand_wilds(hand: np.ndarray) -> int:
    total = 0
    for t in range(NUM_TYPES):
        if TYPE_WILD_SLOT[t] >= 0:
            total += hand[t]
    return total


@njit(cache=True)
def _hand_naturals(hand: np.ndarray, g: int) -> int:
    total = 0
    for t in range(NUM_TYPES):
        if TYPE_GROUP[t] == g:
            total += hand[t]
    return total


@njit(inline="always")  # a leaf of three lines: inlined rather than compiled once per integer type
def _top_card_melded(groups: np.ndarray, cp_groups: np.ndarray, card: int) -> bool:
    g = TYPE_GROUP[card]
    suit = card % NUM_SUITS
    return groups[g, suit] > cp_groups[g, suit]


@njit(cache=True)
def _keeps_a_discard(left: int, canasta: bool) -> bool:
    """R14.2 after the rest of the pile is taken: ``left`` cards in hand."""
    return left >= 2 or (left == 1 and canasta)


@njit(cache=True)
def obligation_met(
    hand: np.ndarray,
    groups: np.ndarray,
    cp_groups: np.ndarray,
    lifted: int,
    card: int,
    from_hand: int,
    opened: bool,
    rest: int,
    minimum: int,
) -> bool:
    """Whether step 2 of R8.3 is complete (then the rest of the pile is taken)."""
    if lifted >= 0 or from_hand < MIN_MELD or not _top_card_melded(groups, cp_groups, card):
        return False
    legal, _, canasta, value = melding_summary(groups, cp_groups)
    if not legal or (not opened and value < minimum):
        return False
    return _keeps_a_discard(_hand_count(hand) + rest, canasta)


@njit(inline="always")
def obligation_feasible(
    hand: np.ndarray,
    groups: np.ndarray,
    cp_groups: np.ndarray,
    lifted: int,
    locked: np.ndarray,
    card: int,
    from_hand: int,
    opened: bool,
    rest: int,
    minimum: int,
) -> bool:
    """Whether step 2 of R8.3 can still be completed from this position.

    Inlined, and its integers passed on as ``int64``: the searches below are
    then compiled once each, not once per combination of integer types (and
    literal constants) of the call sites, each copy costing seconds on a
    first run."""
    if opened:
        return _opened_feasible(
            hand,
            groups,
            cp_groups,
            np.int64(lifted),
            locked,
            np.int64(card),
            np.int64(from_hand),
            np.int64(rest),
        )
    return _opening_feasible(hand, groups, np.int64(card), np.int64(rest), np.int64(minimum))


@njit(cache=True)
def _opened_feasible(
    hand: np.ndarray,
    groups: np.ndarray,
    cp_groups: np.ndarray,
    lifted: int,
    locked: np.ndarray,
    card: int,
    from_hand: int,
    rest: int,
) -> bool:
    r = TYPE_GROUP[card]
    n = naturals(groups[r])
    w = small_wilds(groups[r]) + groups[r, JOKER_SLOT]
    fixed = locked[r, 0] + locked[r, 1]  # hand wilds put there: they stay
    movable = w - fixed  # wilds of the checkpoint still in the group
    in_transit = 1 if lifted >= 0 else 0  # a lifted wild never returns to its group
    h = _hand_naturals(hand, np.int64(r))
    wilds = _hand_wilds(hand)
    hand_size = _hand_count(hand)
    need_top = not _top_card_melded(groups, cp_groups, card)
    cp_size_r = group_size(cp_groups[r])
    # room for displaced wilds in the other groups
    spare = 0
    other_canasta = False
    for g in range(WILD_GROUP):
        if g == r:
            continue
        ng = naturals(groups[g])
        size = group_size(groups[g])
        if size >= CANASTA_SIZE:
            other_canasta = True
        if ng == 0:
            continue
        room = max_wilds(ng) - (size - ng)
        if room < 0:
            return False
        spare += room
    wild_size = group_size(groups[WILD_GROUP])
    wild_fixed = group_size(cp_groups[WILD_GROUP]) >= CANASTA_SIZE
    if wild_size >= CANASTA_SIZE:
        other_canasta = True
    for a in range(h + 1):
        if a == 0 and need_top:
            continue
        if n + a > MAX_NATURAL_GROUP:
            break
        for j in range(wilds + 1):
            if from_hand + a + j < MIN_MELD:
                continue
            if j > 0 and cp_size_r >= CANASTA_SIZE:  # a canasta takes no wild (R13.3)
                break
            for m in range(movable + 1):
                wf = fixed + j + m
                if not natural_group_legal(n + a, wf):
                    continue
                size_r = n + a + wf
                if size_r < CANASTA_SIZE <= cp_size_r:
                    continue
                displaced = movable - m + in_transit
                for dx in range(displaced + 1):
                    if displaced - dx > spare:
                        continue
                    final_wild = wild_size + dx
                    if dx > 0 and wild_fixed:
                        continue
                    if final_wild != 0 and not wild_group_legal(final_wild):
                        continue
                    canasta = other_canasta or size_r >= CANASTA_SIZE or final_wild >= CANASTA_SIZE
                    if _keeps_a_discard(hand_size - a - j + rest, canasta):
                        return True
    return False


@njit(cache=True)
def _opening_feasible(hand: np.ndarray, groups: np.ndarray, card: int, rest: int, minimum: int) -> bool:
    """Exact knapsack: can the groups laid so far be completed, from hand, into
    legal groups worth ``minimum`` that include the top card, keeping a discard?

    States are (hand wilds used, cards used, canasta made) with the best value
    reached; cards are only counted when the rest of the pile (``rest`` cards)
    does not already guarantee a card to discard.
    """
    r = TYPE_GROUP[card]
    wilds = _hand_wilds(hand)
    hand_size = _hand_count(hand)
    count_cards = rest < 2
    max_cards = min(hand_size, hand_size + rest - 1) if count_cards else 0
    need_top = groups[r, card % NUM_SUITS] == 0
    nc = max_cards + 1
    size_states = (wilds + 1) * nc * 2
    dp = np.full(size_states, -1, dtype=np.int32)
    nxt = np.empty(size_states, dtype=np.int32)
    dp[0] = 0  # index (u * nc + c) * 2 + k
    for g in range(WILD_GROUP + 1):
        n = naturals(groups[g])
        w = small_wilds(groups[g]) + groups[g, JOKER_SLOT]
        h = 0 if g == WILD_GROUP else _hand_naturals(hand, g)
        nxt[:] = -1
        for u in range(wilds + 1):
            for c in range(nc):
                for k in range(2):
                    v = dp[(u * nc + c) * 2 + k]
                    if v < 0:
                        continue
                    for a in range(h + 1):
                        if g == r and a == 0 and need_top:
                            continue
                        for j in range(wilds - u + 1):
                            used = c + a + j if count_cards else 0
                            if used > max_cards:
                                break
                            size = n + a + w + j
                            if size == 0:
                                if g == r:
                                    continue
                            elif g == WILD_GROUP:
                                if not wild_group_legal(size):
                                    continue
                            elif not natural_group_legal(n + a, w + j):
                                continue
                            k2 = 1 if (k == 1 or size >= CANASTA_SIZE) else 0
                            v2 = v + size * GROUP_CARD_VALUE[g]
                            idx = ((u + j) * nc + used) * 2 + k2
                            if v2 > nxt[idx]:
                                nxt[idx] = v2
        dp, nxt = nxt, dp
    for u in range(wilds + 1):
        for c in range(nc):
            for k in range(2):
                if dp[(u * nc + c) * 2 + k] < minimum:
                    continue
                left = hand_size - c + rest
                if not count_cards or _keeps_a_discard(left, k == 1):
                    return True
    return False
