"""Scoring a hand per side (C9.4, C10.4, C13) and ending it: totals, the next hand,
the end of the game (C14)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....core.config import CFG_EPISODE_GAME, CFG_MAX_HANDS, CFG_PLAYERS, CFG_TARGET
from ....rules_classic import (
    CC_BLACK_IN_HAND,
    CC_EXHAUSTION,
    CC_FIVE,
    CC_FROM_HAND,
    CC_FROM_HAND_SCOPE,
    CC_GOING_OUT,
    CC_MELDS_NEGATIVE,
    CC_RED_PARTIAL,
    CC_SIDES,
    CC_TARGET_STRICT,
)
from .deal import start_hand
from .melds import canasta_bonuses, has_canasta, melded_value, size
from .state import END_EXHAUSTED, END_OUT, END_TRUNCATED, OUT_MELD, PHASE_OVER
from .tables import BLACK_TYPES, CANASTA, MANY_RED_THREES, NUM_MELDS, RED_THREE_EACH, VALUE

#: scope codes of Rules.from_hand_scope
_SCOPE_TABLE, _SCOPE_PLAYER, _SCOPE_MELD = 0, 1, 2


@njit(cache=True)
def red_three_score(count: int, canasta: bool, partial_penalty: bool) -> int:
    """C9.4: red threes of a side."""
    if count == 0:
        return 0
    value = RED_THREE_EACH * count if count < 4 else MANY_RED_THREES[min(count, 6) - 4]
    if canasta:
        return value
    if count >= 4 or partial_penalty:
        return -value
    return 0


@njit(cache=True)
def hand_penalty(hand, black_in_hand: int) -> int:
    """C10.4, C13.2: what the cards left in a hand cost (a black three ``black_in_hand``)."""
    v = 0
    for t in range(hand.shape[0]):
        if t == BLACK_TYPES[0] or t == BLACK_TYPES[1]:
            v += hand[t] * black_in_hand
        else:
            v += hand[t] * VALUE[t]
    return v


@njit(cache=True)
def going_out_bonus(cfg, double: bool, from_hand: bool) -> int:
    """C13.3: pl 200 for a double or from-hand going out instead of 100 (not added);
    sk 100, and the from-hand premium on top."""
    plain = cfg[CC_GOING_OUT]
    if cfg[CC_FROM_HAND_SCOPE] == _SCOPE_MELD:
        return plain + (cfg[CC_FROM_HAND] if from_hand else 0)
    bonus = 2 * plain if double else plain
    if from_hand:
        bonus = max(bonus, cfg[CC_FROM_HAND])
    return bonus


@njit(cache=True)
def went_out_from_hand(s, cfg, b: int, p: int) -> bool:
    """C13.3 [D]: pl — the table was closed when his turn began (option: he had laid nothing
    earlier); sk — he had laid nothing earlier and laid a new meld of 7+ cards this turn.
    Never after taking the pile."""
    if s.took_pile[b] == 1:
        return False
    scope = cfg[CC_FROM_HAND_SCOPE]
    side = s.side_of[b, p]
    if scope == _SCOPE_TABLE:
        return s.opened[b, side] == 0
    if s.laid_before[b, p] == 1:
        return False
    if scope == _SCOPE_PLAYER:
        return True
    grp = s.groups[b, side]
    for g in range(NUM_MELDS - 1):
        if size(s.start_groups[b], g) == 0 and size(grp, g) >= CANASTA:
            return True
    return False


@njit(cache=True)
def score_side(
    cfg, grp, hands, red_threes: int, out: bool, double: bool, from_hand: bool, exhausted: bool
) -> int:
    """C13.2: a side's hand score from its melds ``grp`` (13, 9), its members' ``hands``
    (k, 53), its red threes and how the hand ended (``out``: the side went out)."""
    canasta = has_canasta(grp)
    melded = melded_value(grp)
    if cfg[CC_MELDS_NEGATIVE] == 1 and not canasta:
        melded = -melded
    score = melded + canasta_bonuses(grp)
    score += red_three_score(red_threes, canasta, cfg[CC_RED_PARTIAL] == 1)
    for i in range(hands.shape[0]):
        score -= hand_penalty(hands[i], cfg[CC_BLACK_IN_HAND])
    if out:
        score += going_out_bonus(cfg, double, from_hand)
    if exhausted:
        score -= cfg[CC_EXHAUSTION]
    return score


@njit(cache=True)
def standings(groups, red_threes, hands, side_of, cfg, rows, out) -> None:
    """For game ``rows[i]`` and each side ``d``: ``out[i, d, 0]`` its score were the hand to end
    now with nobody out, the cards in hand aside (C13.2: melds, canastas, red threes), and
    ``out[i, d, 1]`` the penalty of the cards in its members' hands. (The state's arrays
    ``groups``, ``red_threes``, ``hand``, ``side_of`` are passed alone: quicker to dispatch.)"""
    none = np.zeros((0, hands.shape[2]), dtype=np.int8)
    for i in range(rows.shape[0]):
        b = rows[i]
        for d in range(cfg[CC_SIDES]):
            out[i, d, 0] = score_side(cfg, groups[b, d], none, red_threes[b, d], False, False, False, False)
            pen = 0
            for q in range(cfg[CFG_PLAYERS]):
                if side_of[b, q] == d:
                    pen += hand_penalty(hands[b, q], cfg[CC_BLACK_IN_HAND])
            out[i, d, 1] = pen


@njit(cache=True)
def side_score(s, cfg, b: int, side: int, reason: int) -> int:
    """Score of ``side`` for the hand of game ``b`` that just ended with ``reason``."""
    players = cfg[CFG_PLAYERS]
    members = 0
    for q in range(players):
        members += s.side_of[b, q] == side
    hands = np.empty((members, s.hand.shape[2]), dtype=np.int8)
    i = 0
    for q in range(players):
        if s.side_of[b, q] == side:
            hands[i] = s.hand[b, q]
            i += 1
    out_p = s.out_player[b]
    out = reason == END_OUT and s.side_of[b, out_p] == side
    double = out and s.out_how[b] == OUT_MELD
    from_hand = out and went_out_from_hand(s, cfg, b, out_p)
    return score_side(
        cfg, s.groups[b, side], hands, s.red_threes[b, side], out, double, from_hand, reason == END_EXHAUSTED
    )


@njit(cache=True)
def end_hand(s, cfg, b: int, reason: int, rewards) -> None:
    """Score every side, credit every seat, then deal the next hand or stop (C13, C14)."""
    players = cfg[CFG_PLAYERS]
    sides = cfg[CC_SIDES]
    scores = np.zeros(sides, dtype=np.int64)
    for d in range(sides):
        scores[d] = side_score(s, cfg, b, d, reason)
    total = 0
    for d in range(sides):
        total += scores[d]
    for q in range(players):
        d = s.side_of[b, q]
        s.hand_scores[b, q] = scores[d]
        s.totals[b, q] += scores[d]
        rewards[b, q] += scores[d] - (total - scores[d]) / (sides - 1)
    s.end_reason[b] = reason
    s.hand_number[b] += 1
    if cfg[CFG_EPISODE_GAME] == 1 and not target_reached(s, cfg, b) and s.hand_number[b] < cfg[CFG_MAX_HANDS]:
        _next_dealer(s, cfg, b)
        start_hand(s, cfg, b)
        return
    s.phase[b] = PHASE_OVER


@njit(cache=True)
def target_reached(s, cfg, b: int) -> bool:
    """C14.2: a side's total is above (pl) or at least (sk) the target."""
    for q in range(cfg[CFG_PLAYERS]):
        t = s.totals[b, q]
        if t > cfg[CFG_TARGET] or (cfg[CC_TARGET_STRICT] == 0 and t == cfg[CFG_TARGET]):
            return True
    return False


@njit(cache=True)
def _next_dealer(s, cfg, b: int) -> None:
    """The deal passes clockwise (C2.8); with five players the sitter rotates in the trio (C2.4)."""
    players = cfg[CFG_PLAYERS]
    s.starter[b] = (s.starter[b] + 1) % players
    if cfg[CC_FIVE] == 1:
        q = s.sitter[b]
        for _ in range(players):
            q = (q + 1) % players
            if s.side_of[b, q] == 0:
                break
        s.sitter[b] = q
        if s.starter[b] == q:
            s.starter[b] = (q + 1) % players


@njit(cache=True)
def episode_truncated(s, cfg, b: int) -> bool:
    """Whether a finished episode was cut short (C15) rather than ended."""
    if cfg[CFG_EPISODE_GAME] == 0:
        return s.end_reason[b] == END_TRUNCATED
    return not target_reached(s, cfg, b)
