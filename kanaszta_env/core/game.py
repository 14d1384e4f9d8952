"""Transitions: the deal (R3-R4), turn flow (R5), actions (R6-R14) and the end
of a hand (R16-R18)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import actions as A
from ..cards import (
    BIG_WILD,
    GROUP_SLOTS,
    HEART_ACE,
    IS_BLACK_THREE,
    IS_RED_THREE,
    JOKER,
    JOKER_SLOT,
    NUM_GROUPS,
    NUM_SUITS,
    NUM_TYPES,
    RED_THREE_INDEX,
    SLOT_TYPE,
    TYPE_GROUP,
    TYPE_WILD_SLOT,
    WILD_SLOT0,
    WILD_TYPES,
)
from ..rules import (
    CFG_EPISODE_GAME,
    CFG_MAX_HANDS,
    CFG_MAX_TURNS,
    CFG_PLAYERS,
    CFG_RANDOM_STARTER,
    CFG_TARGET,
)
from .legal import hand_size, opening_minimum, wild_kind
from .melds import any_group
from .pickup import obligation_met
from .rng import below, next_u64, shuffle
from .score import apply_tax, hand_base, hand_card_value
from .state import (
    END_EXHAUSTED,
    END_NONE,
    END_OUT,
    END_TRUNCATED,
    FREE_GONE,
    FREE_NOW,
    FREE_USED,
    FREE_WAITING,
    PHASE_CUT,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    PHASE_OVER,
    PHASE_PICKUP,
    PICKUP_FREE,
    PICKUP_NONE,
    PICKUP_PILE,
)
from .tables import CUT_CARDS, DEAL_OTHERS, DEAL_STARTER, DECK_SIZE, TABLE_CLEARING_PILE, TYPE_COPIES

_COPIES = TYPE_COPIES
_WILD_TYPES = np.array(WILD_TYPES, dtype=np.int8)


# --- small helpers ----------------------------------------------------------------
@njit(cache=True)
def _forget(known: np.ndarray, b: int, p: int, t: int) -> None:
    """A card of type ``t`` left the hand: the others cannot tell whether it was
    one they knew of, so one known card of that type is forgotten (using the
    hand's true count here would leak it)."""
    if known[b, p, t] > 0:
        known[b, p, t] -= 1


# Helpers on the per-decision path take the arrays they touch, not the state
# tuple: numba increfs and decrefs all 41 arrays of the tuple at every call.
@njit(cache=True)
def _refill_from_pile(stock, stock_len, stock_known, pile, pile_len, pile_fresh, rng, b: int) -> None:
    """R5.4: an empty stock is replaced at once by the shuffled discard pile."""
    n = pile_len[b]
    for i in range(n):
        stock[b, i] = pile[b, i]
    shuffle(rng, b, stock[b], n)
    stock_len[b] = n
    stock_known[b] = 0
    pile_len[b] = 0
    pile_fresh[b] = 0


@njit(cache=True)
def _draw(s, b: int, p: int) -> bool:
    """Draw one card into the hand; red threes go to the collection and are
    replaced at once (R4.3). False if the stock is exhausted (R5.4)."""
    return _draw_card(
        s.hand, s.known, s.red_threes, s.stock, s.stock_len, s.stock_known, s.pile, s.pile_len, s.pile_fresh,
        s.rng, b, p,
    )  # fmt: skip


@njit(cache=True)
def _draw_card(
    hand, known, red_threes, stock, stock_len, stock_known, pile, pile_len, pile_fresh, rng, b, p
) -> bool:
    """:func:`_draw` on the arrays."""
    while True:
        n = stock_len[b]
        if n == 0:
            return False
        t = stock[b, n - 1]
        stock_len[b] = n - 1
        revealed = n - 1 < stock_known[b]  # one of the known bottom cards
        if revealed:
            stock_known[b] = n - 1
        if n == 1 and pile_len[b] > 0:
            _refill_from_pile(stock, stock_len, stock_known, pile, pile_len, pile_fresh, rng, b)
        if IS_RED_THREE[t]:
            red_threes[b, p, RED_THREE_INDEX[t]] += 1
            continue
        hand[b, p, t] += 1
        if revealed:
            known[b, p, t] += 1
        return True


@njit(cache=True)
def _checkpoint(hand, groups, sep_heart_aces, cp_hand, cp_groups, cp_sep_heart_aces, changed, b, p) -> None:
    """Remember hand and groups: what ``withdraw`` returns to (R12.5)."""
    for t in range(NUM_TYPES):
        cp_hand[b, t] = hand[b, p, t]
    for g in range(NUM_GROUPS):
        for k in range(GROUP_SLOTS):
            cp_groups[b, g, k] = groups[b, p, g, k]
    cp_sep_heart_aces[b] = sep_heart_aces[b, p]
    changed[b] = 0


# --- starting games and hands -----------------------------------------------------
@njit(cache=True)
def reset_game(s, cfg, b: int, seed: np.uint64) -> None:
    """Start a new game in slot ``b`` from ``seed``."""
    s.rng[b] = seed
    next_u64(s.rng, b)
    players = cfg[CFG_PLAYERS]
    s.totals[b, :] = 0
    s.hand_scores[b, :] = 0
    s.hand_number[b] = 0
    s.starter[b] = below(s.rng, b, players) if cfg[CFG_RANDOM_STARTER] == 1 else 0
    _start_hand(s, cfg, b)


@njit(cache=True)
def _start_hand(s, cfg, b: int) -> None:
    """Shuffle and show the three cut cards (R3.1); the deal follows the cut."""
    s.hand[b] = 0
    s.groups[b] = 0
    s.sep_heart_aces[b] = 0
    s.red_threes[b] = 0
    s.red_three_debt[b] = 0
    s.twins[b] = 0
    s.opened[b] = 0
    s.free_pickup[b] = FREE_WAITING
    s.known[b] = 0
    s.turns_played[b] = 0
    s.pile_len[b] = 0
    s.pile_fresh[b] = 0
    s.turn[b] = 0
    s.end_reason[b] = END_NONE
    s.out_player[b] = -1
    s.cp_hand[b] = 0
    s.cp_groups[b] = 0
    s.cp_sep_heart_aces[b] = 0
    k = 0
    for t in range(NUM_TYPES):
        for _ in range(_COPIES[t]):
            s.stock[b, k] = t
            k += 1
    shuffle(s.rng, b, s.stock[b], DECK_SIZE)
    # the cut cards are the stock's top three (its last entries) until the deal
    for i in range(CUT_CARDS):
        s.cut_cards[b, i] = s.stock[b, DECK_SIZE - 1 - i]
        s.cut_kept[b, i] = -1
    s.stock_len[b] = DECK_SIZE
    s.stock_known[b] = 0
    s.cut_index[b] = 0
    s.phase[b] = PHASE_CUT
    s.to_move[b] = s.starter[b]
    _clear_turn(
        s.locked, s.lifted, s.lifted_from, s.changed, s.pickup_kind, s.pickup_size, s.pickup_card,
        s.pickup_from_hand, b,
    )  # fmt: skip


@njit(cache=True)
def _clear_turn(
    locked, lifted, lifted_from, changed, pickup_kind, pickup_size, pickup_card, pickup_from_hand, b
):
    """Forget the bookkeeping of the turn that ended."""
    for g in range(NUM_GROUPS):
        locked[b, g, 0] = 0
        locked[b, g, 1] = 0
    lifted[b] = -1
    lifted_from[b] = -1
    changed[b] = 0
    pickup_kind[b] = PICKUP_NONE
    pickup_size[b] = 0
    pickup_card[b] = -1
    pickup_from_hand[b] = 0


@njit(cache=True)
def _deal(s, cfg, b: int, rewards) -> None:
    """R3.2-R3.4 and R4.1: deal, keep the chosen cut cards, put the others at
    the bottom of the stock, and lay out red threes."""
    players = cfg[CFG_PLAYERS]
    st = s.starter[b]
    s.stock_len[b] -= CUT_CARDS
    kept = 0
    for i in range(CUT_CARDS):
        kept += s.cut_kept[b, i]
    for q in range(players):
        count = DEAL_STARTER - kept if q == st else DEAL_OTHERS
        for _ in range(count):
            n = s.stock_len[b]
            s.hand[b, q, s.stock[b, n - 1]] += 1
            s.stock_len[b] = n - 1
    for i in range(CUT_CARDS):
        if s.cut_kept[b, i] == 1:
            t = s.cut_cards[b, i]
            s.hand[b, st, t] += 1
            s.known[b, st, t] += 1
    left = CUT_CARDS - kept
    n = s.stock_len[b]
    for i in range(n - 1, -1, -1):
        s.stock[b, i + left] = s.stock[b, i]
    j = 0
    for i in range(CUT_CARDS):
        if s.cut_kept[b, i] == 0:
            s.stock[b, j] = s.cut_cards[b, i]
            j += 1
    s.stock_len[b] = n + left
    s.stock_known[b] = left
    for q in range(players):
        for t in range(NUM_TYPES):
            if IS_RED_THREE[t] and s.hand[b, q, t] > 0:
                c = s.hand[b, q, t]
                s.red_threes[b, q, RED_THREE_INDEX[t]] += c
                s.red_three_debt[b, q] += c
                s.hand[b, q, t] = 0
                s.known[b, q, t] = 0
    _begin_turn(s, cfg, b, rewards)


@njit(cache=True, inline="always")
def _begin_turn(s, cfg, b: int, rewards) -> None:
    """R4.2 replacements, then the starter's discard-only first turn (R5.1) or a
    normal turn. Ends the hand if a card cannot be drawn (R5.4)."""
    p = s.to_move[b]
    _clear_turn(
        s.locked, s.lifted, s.lifted_from, s.changed, s.pickup_kind, s.pickup_size, s.pickup_card,
        s.pickup_from_hand, b,
    )  # fmt: skip
    while s.red_three_debt[b, p] > 0:
        s.red_three_debt[b, p] -= 1
        if not _draw(s, b, p):
            _end_hand(s, cfg, b, END_EXHAUSTED, rewards)
            return
    if p == s.starter[b] and s.turns_played[b, p] == 0:
        s.phase[b] = PHASE_DISCARD
    else:
        if s.stock_len[b] == 0 and s.pile_len[b] == 0:
            _end_hand(s, cfg, b, END_EXHAUSTED, rewards)
            return
        s.phase[b] = PHASE_DRAW
    _checkpoint(
        s.hand, s.groups, s.sep_heart_aces, s.cp_hand, s.cp_groups, s.cp_sep_heart_aces, s.changed, b, p
    )


# --- the end of a hand --------------------------------------------------------
@njit(cache=True)
def _end_hand(s, cfg, b: int, reason: int, rewards) -> None:
    """Score every player (R16), tax (R17), and start the next hand or stop."""
    players = cfg[CFG_PLAYERS]
    out = s.out_player[b] if reason == END_OUT else -1
    scores = np.zeros(players, dtype=np.int64)
    for q in range(players):
        went_out = q == out
        from_hand = went_out and s.opened[b, q] == 0
        clearing = from_hand and s.pickup_kind[b] == PICKUP_PILE and s.pickup_size[b] >= TABLE_CLEARING_PILE
        red = s.red_threes[b, q, 0] + s.red_threes[b, q, 1]
        base = hand_base(
            s.groups[b, q], red, s.twins[b, q], s.sep_heart_aces[b, q], went_out, from_hand, clearing
        )
        raw = base + hand_card_value(s.groups[b, q], s.hand[b, q])
        scores[q] = apply_tax(s.totals[b, q], raw)
    total = 0
    for q in range(players):
        total += scores[q]
    for q in range(players):
        s.hand_scores[b, q] = scores[q]
        s.totals[b, q] += scores[q]
        rewards[b, q] += scores[q] - (total - scores[q]) / (players - 1)
    s.end_reason[b] = reason
    s.hand_number[b] += 1
    if s.phase[b] != PHASE_OVER and cfg[CFG_EPISODE_GAME] == 1:
        best = s.totals[b, 0]
        for q in range(players):
            best = max(best, s.totals[b, q])
        if best < cfg[CFG_TARGET] and s.hand_number[b] < cfg[CFG_MAX_HANDS]:
            s.starter[b] = (s.starter[b] + 1) % players  # R2.3
            _start_hand(s, cfg, b)
            return
    s.phase[b] = PHASE_OVER


@njit(cache=True)
def episode_truncated(s, cfg, b: int) -> bool:
    """Whether a finished episode was cut short (R19.2) rather than ended."""
    if cfg[CFG_EPISODE_GAME] == 0:
        return s.end_reason[b] == END_TRUNCATED
    best = s.totals[b, 0]
    for q in range(cfg[CFG_PLAYERS]):
        best = max(best, s.totals[b, q])
    return best < cfg[CFG_TARGET]


# --- applying one action ------------------------------------------------------
@njit(cache=True, inline="always")
def apply_action(s, cfg, b: int, a: int, rewards) -> None:
    """Apply a legal action ``a`` to game ``b`` (legality is checked by the caller)."""
    phase = s.phase[b]
    p = s.to_move[b]
    if phase == PHASE_CUT:
        s.cut_kept[b, s.cut_index[b]] = 1 if a == A.KEEP else 0
        s.cut_index[b] += 1
        if s.cut_index[b] == CUT_CARDS:
            _deal(s, cfg, b, rewards)
        return
    if a == A.DRAW:
        if s.free_pickup[b, p] == FREE_NOW:
            s.free_pickup[b, p] = FREE_GONE  # R7.3
        if not _draw_card(
            s.hand,
            s.known,
            s.red_threes,
            s.stock,
            s.stock_len,
            s.stock_known,
            s.pile,
            s.pile_len,
            s.pile_fresh,
            s.rng,
            b,
            p,
        ):  # only red threes were left (R5.4)
            _end_hand(s, cfg, b, END_EXHAUSTED, rewards)
            return
        s.phase[b] = PHASE_MELD
        _checkpoint(
            s.hand, s.groups, s.sep_heart_aces, s.cp_hand, s.cp_groups, s.cp_sep_heart_aces, s.changed, b, p
        )
    elif a == A.TAKE_FREE or a == A.TAKE_PILE:
        n = s.pile_len[b]
        top = s.pile[b, n - 1]
        s.pile_len[b] = n - 1
        s.pile_fresh[b] = 0
        s.hand[b, p, top] += 1
        s.known[b, p, top] += 1
        if a == A.TAKE_FREE:  # R7.2
            s.free_pickup[b, p] = FREE_USED
            s.pickup_kind[b] = PICKUP_FREE
            s.phase[b] = PHASE_MELD
        else:  # R8.3 step 1
            s.pickup_kind[b] = PICKUP_PILE
            s.pickup_size[b] = n
            s.pickup_card[b] = top
            s.phase[b] = PHASE_PICKUP
        _checkpoint(
            s.hand, s.groups, s.sep_heart_aces, s.cp_hand, s.cp_groups, s.cp_sep_heart_aces, s.changed, b, p
        )
    elif a < A.HEART_ACE:
        g = _meld(s.hand, s.groups, s.locked, s.known, s.changed, b, p, a)
        if phase == PHASE_PICKUP and g == TYPE_GROUP[s.pickup_card[b]]:
            s.pickup_from_hand[b] += 1
    elif a == A.HEART_ACE:
        s.hand[b, p, HEART_ACE] -= 1
        s.sep_heart_aces[b, p] += 1
        _forget(s.known, b, p, HEART_ACE)
        s.changed[b] = 1
    elif a < A.PLACE0:
        kind, g = divmod(a - A.LIFT0, NUM_GROUPS)
        _lift(s.groups, s.lifted, s.lifted_from, s.changed, b, p, kind, g)
    elif a < A.WITHDRAW:
        g = a - A.PLACE0
        t = s.lifted[b]
        s.groups[b, p, g, WILD_SLOT0 + TYPE_WILD_SLOT[t]] += 1
        s.locked[b, g, wild_kind(t)] += 1
        s.lifted[b] = -1
        s.lifted_from[b] = -1
    elif a == A.WITHDRAW:
        _withdraw(
            s.hand, s.known, s.groups, s.sep_heart_aces, s.cp_hand, s.cp_groups, s.cp_sep_heart_aces,
            s.locked, s.lifted, s.lifted_from, s.changed, s.phase, b, p,
        )  # fmt: skip
    else:
        _discard(s, cfg, b, p, a - A.DISCARD0, rewards)
        return
    if s.phase[b] == PHASE_PICKUP and obligation_met(
        s.hand[b, p],
        s.groups[b, p],
        s.cp_groups[b],
        s.lifted[b],
        s.pickup_card[b],
        s.pickup_from_hand[b],
        s.opened[b, p] == 1,
        s.pile_len[b],
        opening_minimum(s.totals, cfg, b, p),
    ):
        # R8.3 step 3: once the obligatory meld is complete the rest of the
        # pile joins the hand, and the turn goes on as ordinary melding.
        for i in range(s.pile_len[b]):
            t = s.pile[b, i]
            s.hand[b, p, t] += 1
            s.known[b, p, t] += 1
        s.pile_len[b] = 0
        s.phase[b] = PHASE_MELD
        _checkpoint(
            s.hand, s.groups, s.sep_heart_aces, s.cp_hand, s.cp_groups, s.cp_sep_heart_aces, s.changed, b, p
        )


@njit(cache=True)
def _meld(hand, groups, locked, known, changed, b: int, p: int, a: int) -> int:
    """Put a card from hand into a group (R10); returns the group."""
    if a < A.WILD0:
        t = A.MELD_TYPE[a - A.MELD0]
        g = TYPE_GROUP[t]
        groups[b, p, g, t % NUM_SUITS] += 1
    else:
        k, g = divmod(a - A.WILD0, NUM_GROUPS)
        t = _WILD_TYPES[k]
        groups[b, p, g, WILD_SLOT0 + k] += 1
        locked[b, g, wild_kind(t)] += 1
    hand[b, p, t] -= 1
    _forget(known, b, p, t)
    changed[b] = 1
    return g


@njit(cache=True)
def _lift(groups, lifted, lifted_from, changed, b: int, p: int, kind: int, g: int) -> None:
    """Take a wild out of a group (R13.2); the next action must place it."""
    if kind == BIG_WILD:
        groups[b, p, g, JOKER_SLOT] -= 1
        lifted[b] = JOKER
    else:
        for k in range(WILD_SLOT0, JOKER_SLOT):
            if groups[b, p, g, k] > 0:
                groups[b, p, g, k] -= 1
                lifted[b] = SLOT_TYPE[g, k]
                break
    lifted_from[b] = g
    changed[b] = 1


@njit(cache=True)
def _withdraw(
    hand, known, groups, sep_heart_aces, cp_hand, cp_groups, cp_sep_heart_aces, locked, lifted, lifted_from,
    changed, phase, b: int, p: int,
) -> None:  # fmt: skip
    """R12.5: take back everything laid or moved since the checkpoint; the turn
    then ends with a discard. Cards seen going down and back are known: with
    :func:`_forget`'s bookkeeping this makes the known count of each type the
    larger of the count known at the checkpoint and the count returned."""
    for t in range(NUM_TYPES):
        back = cp_hand[b, t] - hand[b, p, t]
        if back > 0:
            known[b, p, t] += back
        hand[b, p, t] = cp_hand[b, t]
    for g in range(NUM_GROUPS):
        for k in range(GROUP_SLOTS):
            groups[b, p, g, k] = cp_groups[b, g, k]
        locked[b, g, 0] = 0
        locked[b, g, 1] = 0
    sep_heart_aces[b, p] = cp_sep_heart_aces[b]
    lifted[b] = -1
    lifted_from[b] = -1
    changed[b] = 0
    phase[b] = PHASE_DISCARD


@njit(cache=True, inline="always")
def _discard(s, cfg, b: int, p: int, t: int, rewards) -> None:
    """R5.2c, R6 twins, R7.1 free-pickup opportunity, R14 going out."""
    n = s.pile_len[b]
    if s.pile_fresh[b] == 1 and n > 0 and s.pile[b, n - 1] == t and t != JOKER:
        s.twins[b, p] += 1
    s.hand[b, p, t] -= 1
    _forget(s.known, b, p, t)
    s.pile[b, n] = t
    s.pile_owner[b, n] = p
    s.pile_len[b] = n + 1
    s.pile_fresh[b] = 1
    players = cfg[CFG_PLAYERS]
    nxt = (p + 1) % players
    if s.free_pickup[b, nxt] == FREE_WAITING and not IS_BLACK_THREE[t]:
        s.free_pickup[b, nxt] = FREE_NOW
    if s.free_pickup[b, p] == FREE_NOW:  # not taken in the opportunity turn
        s.free_pickup[b, p] = FREE_GONE
    if hand_size(s.hand[b, p]) == 0:
        s.out_player[b] = p
        _end_hand(s, cfg, b, END_OUT, rewards)
        if s.phase[b] == PHASE_OVER:
            s.opened[b, p] = 1
        return
    if any_group(s.groups[b, p]):
        s.opened[b, p] = 1
    if s.stock_len[b] == 0 and s.pile_len[b] > 0:
        _refill_from_pile(s.stock, s.stock_len, s.stock_known, s.pile, s.pile_len, s.pile_fresh, s.rng, b)
    s.turns_played[b, p] += 1
    s.turn[b] += 1
    if s.turn[b] >= cfg[CFG_MAX_TURNS]:
        _end_hand(s, cfg, b, END_TRUNCATED, rewards)
        return
    s.to_move[b] = nxt
    _begin_turn(s, cfg, b, rewards)
