"""Scoring a hand per pair (T14, with T11.3-T11.4 and T12.3) and ending it: totals, the next
hand, the end of the game at 5200 with its extensions (T15)."""

from __future__ import annotations

from numba import njit

from ....core.config import CFG_EPISODE_GAME, CFG_MAX_HANDS, CFG_TARGET
from . import tables as T
from .deal import start_hand
from .melds import meld_value
from .state import END_OUT, END_TRUNCATED, PHASE_OVER


@njit(cache=True)
def hand_value(hand) -> int:
    """T1.5, T14.5: the value of the cards in a hand (a 2 or a joker 10)."""
    v = 0
    for t in range(hand.shape[0]):
        v += hand[t] * T.VALUE[t]
    return v


@njit(cache=True)
def holds_unused_fi(fi_taker, fi_used, q: int) -> bool:
    """Whether seat ``q``'s hand is a Fi he took by discarding and has not played (T11.3)."""
    for f in range(T.NUM_FIS):
        if fi_taker[f] == q and fi_used[f] == 0:
            return True
    return False


@njit(cache=True)
def score_parts(
    melds,
    kinds,
    count: int,
    fis_taken: int,
    fis_used: int,
    went_out: bool,
    hand_cost: int,
    forced_failed: bool,
) -> int:
    """T14 from its parts: the pair's ``count`` melds (card counts) with their canasta ``kinds``,
    the Fis it took and how many of them are used, whether it went out, the value of the hands
    it is charged (an unused Fi's holder excluded) and whether it failed a forced opening."""
    v = 0
    for k in range(count):
        v += T.CANASTA_BONUS[kinds[k]] + meld_value(melds[k])
    v += T.FI_BONUS * fis_used - hand_cost
    if went_out:
        v += T.GOING_OUT
    if fis_taken == 0:  # T11.4, T12.3
        v -= T.FORCED_PENALTY if forced_failed else T.NO_FI_PENALTY
    return v


@njit(cache=True)
def pair_score(s, b: int, pair: int, reason: int) -> int:
    """T14: the score of ``pair`` for the hand of game ``b`` that ended with ``reason``."""
    took, used = 0, 0
    for f in range(T.NUM_FIS):
        if s.fi_taker[b, f] >= 0 and s.fi_taker[b, f] % 2 == pair:
            took += 1
            used += s.fi_used[b, f]
    cost = 0
    for q in range(pair, T.PLAYERS, T.PAIRS):
        if not holds_unused_fi(s.fi_taker[b], s.fi_used[b], q):
            cost += hand_value(s.hand[b, q])
    out = reason == END_OUT
    went_out = out and s.out_player[b] % 2 == pair
    forced_failed = out and not went_out and s.forced[b, pair] == T.FORCED_OWED
    return score_parts(
        s.melds[b, pair],
        s.meld_kind[b, pair],
        s.meld_count[b, pair],
        took,
        used,
        went_out,
        cost,
        forced_failed,
    )


@njit(cache=True)
def end_hand(s, cfg, b: int, reason: int, rewards) -> None:
    """Score both pairs, credit every seat, then deal the next hand or stop (T14, T15)."""
    a = pair_score(s, b, 0, reason)
    c = pair_score(s, b, 1, reason)
    for q in range(T.PLAYERS):
        mine, theirs = (a, c) if q % 2 == 0 else (c, a)
        s.hand_scores[b, q] = mine
        s.totals[b, q] += mine
        rewards[b, q] += mine - theirs
    s.end_reason[b] = reason
    s.hand_number[b] += 1
    if cfg[CFG_EPISODE_GAME] == 1 and not game_decided(s, cfg, b) and s.hand_number[b] < cfg[CFG_MAX_HANDS]:
        s.starter[b] = (s.starter[b] + 1) % T.PLAYERS  # the deal passes clockwise (T2.2)
        start_hand(s, b)
        return
    s.phase[b] = PHASE_OVER


@njit(cache=True)
def game_decided(s, cfg, b: int) -> bool:
    """T15: a pair has reached the target; when both have, the target moves on (5200 -> 7200
    -> 9200) and is checked again; at the last step the higher total wins (or a draw)."""
    last = cfg[CFG_TARGET] + T.TARGET_EXTENSIONS * T.TARGET_STEP
    while True:
        target = s.target[b]
        a = s.totals[b, 0] >= target
        c = s.totals[b, 1] >= target
        if a and c and target < last:
            s.target[b] = target + T.TARGET_STEP
            continue
        return a or c


@njit(cache=True)
def episode_truncated(s, cfg, b: int) -> bool:
    """Whether a finished episode was cut short (T13.4, T16) rather than ended."""
    if cfg[CFG_EPISODE_GAME] == 0:
        return s.end_reason[b] == END_TRUNCATED
    a = s.totals[b, 0] >= s.target[b]
    c = s.totals[b, 1] >= s.target[b]
    return not (a or c)
