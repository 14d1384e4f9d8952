"""Applying one action of classic canasta (C4-C12): draw, pickup, melds,
withdraw, the partner's question, discard and the turn's end."""

from __future__ import annotations

from numba import njit

from ....core.common import hand_size
from ....core.config import CFG_MAX_TURNS, CFG_PLAYERS
from ....rules_classic import (
    CC_FREE_UPCARD,
    CC_PILE_SAME_TURN,
    CC_RED_REPLACED,
    CC_TABLE_OPENING,
)
from .. import actions as A
from . import tables as T
from .conditions import pickup_complete
from .deal import begin_turn, draw_one, reset_game
from .melds import first_unlocked, has_canasta, size, slot_of
from .score import end_hand, episode_truncated
from .state import (
    ASKED_NO,
    ASKED_WAITING,
    ASKED_YES,
    END_EXHAUSTED,
    END_OUT,
    END_TRUNCATED,
    OUT_DISCARD,
    OUT_MELD,
    PHASE_ANSWER,
    PHASE_DISCARD,
    PHASE_MELD,
    PHASE_PICKUP,
)

__all__ = ["apply_action", "episode_truncated", "reset_game"]


@njit(cache=True, inline="always")
def _checkpoint(s, b: int, p: int) -> None:
    s.cp_hand[b] = s.hand[b, p]
    s.cp_groups[b] = s.groups[b, s.side_of[b, p]]
    s.changed[b] = 0


@njit(cache=True, inline="always")
def _lay(s, b: int, p: int, g: int, t: int) -> None:
    """Move a card of type ``t`` from seat ``p``'s hand onto its side's meld ``g``."""
    s.hand[b, p, t] -= 1
    if s.known[b, p, t] > s.hand[b, p, t]:
        s.known[b, p, t] = s.hand[b, p, t]
    s.groups[b, s.side_of[b, p], g, slot_of(g, t)] += 1


@njit(cache=True)
def _finish_pickup(s, cfg, b: int, p: int) -> None:
    """C7.1 steps 2-3: the rest of the pile into the hand (red threes laid out, not replaced)."""
    side = s.side_of[b, p]
    n = s.pickup_rest[b]
    locked = cfg[CC_PILE_SAME_TURN] == 0
    for i in range(n):
        t = s.pile[b, i]
        if T.IS_RED[t]:
            s.red_threes[b, side] += 1
            continue
        s.hand[b, p, t] += 1
        s.known[b, p, t] += 1
        if locked:
            s.pile_locked[b, t] += 1
    s.pile_len[b] = 0
    s.pile_wilds[b] = 0
    s.pickup_rest[b] = 0
    s.phase[b] = PHASE_MELD
    _checkpoint(s, b, p)


@njit(cache=True)
def _take_pile(s, cfg, b: int, p: int) -> None:
    n = s.pile_len[b]
    top = s.pile[b, n - 1]
    s.took_pile[b] = 1
    s.pickup_card[b] = top
    if cfg[CC_FREE_UPCARD] == 1 and s.turn[b] == 0:  # C4.4 option: the upcard alone
        s.pile_len[b] = n - 1
        s.hand[b, p, top] += 1
        s.known[b, p, top] += 1
        s.phase[b] = PHASE_MELD
        _checkpoint(s, b, p)
        return
    s.pile_len[b] = n - 1
    s.pickup_rest[b] = n - 1
    grp = s.groups[b, s.side_of[b, p]]
    g = T.GROUP_OF[top]
    for k in range(4):
        if T.GROUP_TYPES[g, k] == top:
            grp[g, k] += 1
    s.phase[b] = PHASE_PICKUP
    if pickup_complete(s, cfg, b, p):
        _finish_pickup(s, cfg, b, p)


@njit(cache=True, inline="always")
def _draw(s, cfg, b: int, p: int, rewards) -> None:
    """C4.2: a drawn red three is laid out; sk replaces it, pl does not unless the player
    would be left with one card he may not go out with."""
    while True:
        t = draw_one(s, b, p)
        if t < 0:  # a replacement could not be drawn: the hand ends (C4.5)
            end_hand(s, cfg, b, END_EXHAUSTED, rewards)
            return
        if not T.IS_RED[t]:
            break
        if cfg[CC_RED_REPLACED] == 1:
            continue
        if hand_size(s.hand[b, p]) == 1 and not has_canasta(s.groups[b, s.side_of[b, p]]):
            continue
        break
    s.phase[b] = PHASE_MELD
    _checkpoint(s, b, p)


@njit(cache=True, inline="always")
def _end_turn(s, cfg, b: int, p: int, rewards) -> None:
    """After a discard that is not going out: the side's opening, the next player (C4, C11)."""
    side = s.side_of[b, p]
    grp = s.groups[b, side]
    laid = s.took_pile[b] == 1
    for g in range(grp.shape[0]):
        if size(grp, g) != size(s.start_groups[b], g):
            laid = True
    if laid:
        s.laid_before[b, p] = 1
        if s.opened[b, side] == 0:
            if cfg[CC_TABLE_OPENING] == 1:
                s.opened[b, :] = 1  # pl: the table is open for everybody (C11.1)
            else:
                s.opened[b, side] = 1
    s.turns_played[b, p] += 1
    s.turn[b] += 1
    if s.turn[b] >= cfg[CFG_MAX_TURNS]:
        end_hand(s, cfg, b, END_TRUNCATED, rewards)
        return
    begin_turn(s, b, s.next_seat[b, p])


@njit(cache=True)
def _go_out(s, cfg, b: int, p: int, how: int, rewards) -> None:
    s.out_player[b] = p
    s.out_how[b] = how
    end_hand(s, cfg, b, END_OUT, rewards)


@njit(cache=True, inline="always")
def apply_action(s, cfg, b: int, a: int, rewards) -> None:
    """Apply a legal action ``a`` to game ``b`` (legality is checked by the caller)."""
    p = s.to_move[b]
    if a == A.DRAW:
        _draw(s, cfg, b, p, rewards)
    elif a == A.TAKE_PILE:
        _take_pile(s, cfg, b, p)
    elif a == A.END_HAND:
        end_hand(s, cfg, b, END_EXHAUSTED, rewards)
    elif a == A.ANSWER_YES or a == A.ANSWER_NO:
        s.asked[b] = ASKED_YES if a == A.ANSWER_YES else ASKED_NO
        s.to_move[b] = s.mover[b]
        s.phase[b] = PHASE_MELD
    elif a == A.ASK:
        s.asked[b] = ASKED_WAITING
        s.phase[b] = PHASE_ANSWER
        s.to_move[b] = (p + 2) % cfg[CFG_PLAYERS]  # the partner, opposite (C2.2)
    elif a == A.WITHDRAW:
        s.hand[b, p] = s.cp_hand[b]
        s.groups[b, s.side_of[b, p]] = s.cp_groups[b]
        for t in range(s.hand.shape[2]):
            if s.known[b, p, t] > s.hand[b, p, t]:
                s.known[b, p, t] = s.hand[b, p, t]
        s.changed[b] = 0
        s.phase[b] = PHASE_DISCARD
    elif a >= A.DISCARD0:
        t = _discard_type(s.hand[b, p], a - A.DISCARD0)
        s.hand[b, p, t] -= 1
        if s.known[b, p, t] > s.hand[b, p, t]:
            s.known[b, p, t] = s.hand[b, p, t]
        s.pile[b, s.pile_len[b]] = t
        s.pile_len[b] += 1
        if T.KIND_OF[t] >= 12:
            s.pile_wilds[b] += 1
        if hand_size(s.hand[b, p]) == 0:
            _go_out(s, cfg, b, p, OUT_DISCARD, rewards)
        else:
            _end_turn(s, cfg, b, p, rewards)
    else:
        _meld(s, cfg, b, p, a, rewards)


@njit(cache=True)
def _discard_type(hand, kind: int) -> int:
    for t in range(hand.shape[0]):
        if hand[t] > 0 and T.KIND_OF[t] == kind:
            return t
    return -1


@njit(cache=True, inline="always")
def _meld(s, cfg, b: int, p: int, a: int, rewards) -> None:
    hand = s.hand[b, p]
    if a == A.BLACK_THREE:
        g, t = T.BLACK_MELD, first_unlocked(hand, s.pile_locked[b], T.BLACK_TYPES)
    elif a == A.TWO_TO_WILD or a == A.JOKER_TO_WILD:
        g = T.WILD_MELD
        t = T.JOKER_TYPE if a == A.JOKER_TO_WILD else first_unlocked(hand, s.pile_locked[b], T.TWO_TYPES)
    elif a >= A.JOKER0:
        g, t = a - A.JOKER0, T.JOKER_TYPE
    elif a >= A.TWO0:
        g, t = a - A.TWO0, first_unlocked(hand, s.pile_locked[b], T.TWO_TYPES)
    else:
        g = a - A.MELD0
        t = first_unlocked(hand, s.pile_locked[b], T.GROUP_TYPES[g])
    _lay(s, b, p, g, t)
    s.changed[b] = 1
    if s.phase[b] == PHASE_PICKUP:
        if not pickup_complete(s, cfg, b, p):
            return
        _finish_pickup(s, cfg, b, p)
        s.changed[b] = 0
    if hand_size(hand) == 0:  # pl: going out by melding the last card (C12.1)
        _go_out(s, cfg, b, p, OUT_MELD, rewards)
