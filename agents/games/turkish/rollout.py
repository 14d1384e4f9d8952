"""A compiled rollout policy of Turkish kanasta and the rollouts of the search bot.

The policy reads the whole state (numba, over :class:`TurkishState`): that is
legitimate only because it plays inside the search bot's own sampled worlds
(:mod:`agents.games.turkish.determinise`), where every card is the bot's guess. It
plays every seat like a simple version of ``TurkishHeuristicBot``:

* at the draw it takes the pile when it holds two cards or more, or one that is wild
  or joins the hand (a card of its rank or a run neighbour), as the heuristic does;
* melds begun this turn are finished first (naturals before wilds; a run when
  the hand holds the next two ranks of the suit, else a set), or the melding
  is withdrawn when they cannot be;
* an opened player (or one who laid a new meld this turn) lays off every
  natural that keeps a meld legal, and a wild only to complete a canasta or
  with three cards or fewer left; a player with four cards or fewer whose
  partner has opened lays off without opening (a layer-off, T10.2);
* new melds (runs of three, then sets of three naturals) are started by an
  opened player, or by one whose hand's wild-free runs and sets meet his
  opening requirement (T9.1; seven of a kind or seven in a run when his pair
  owes a canasta opening, T12.2);
* it discards its least useful card, the most expensive of equals.

Every action it plays is legal (it picks from the engine's mask).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env import Rules
from kanaszta_env.engine.kernels import kernels_for
from kanaszta_env.games.turkish.actions import ADD0, DISCARD0, NEW0, NUM_ACTIONS, TAKE_PILE, WITHDRAW

from .keep import is_wild, joins, keep_value, rank_count

_KERNELS = kernels_for(Rules(variant="tr").spec)
_module = _KERNELS.game_module
_TABLES = _module("tables")  # the engine's compiled copy (agents do not import the core directly)
NEW_INDEX, VALUE = _TABLES.NEW_INDEX, _TABLES.VALUE
OPEN_HIGH, OPEN_LOW, OPEN_THRESHOLD = _TABLES.OPEN_HIGH, _TABLES.OPEN_LOW, _TABLES.OPEN_THRESHOLD


new_state = _KERNELS.ruleset.new_state
legal_row = _module("legal").legal_row
apply_action = _module("game").apply_action
analyse = _module("melds").analyse
pair_score = _module("score").pair_score
hand_value = _module("score").hand_value
holds_unused_fi = _module("score").holds_unused_fi
VALID = 2
PHASE_DRAW, PHASE_OVER = 1, 5
CANASTA = _TABLES.CANASTA


@njit(cache=True)
def _has(hand, r: int, suit: int) -> bool:
    return 0 <= r <= 12 and hand[r * 4 + suit] > 0


@njit(cache=True)
def opening_value(hand, need_long: bool):
    """``(value, run)`` of the wild-free runs (first, per suit, lowest ranks first) and then sets
    of three naturals in ``hand``; with ``need_long`` only melds of seven count (T12.2)."""
    left = hand.copy()
    value, run = 0, False
    for suit in range(4):
        r = 0
        while r <= 12:
            n = 0
            while r + n <= 12 and r + n != 1 and left[(r + n) * 4 + suit] > 0:
                n += 1
            if n >= (CANASTA if need_long else 3):
                for x in range(r, r + n):
                    left[x * 4 + suit] -= 1
                    value += 5 if x == 1 else VALUE[x * 4 + suit]
                run = True
            r += max(n, 1)
    for rank in range(13):
        if rank == 1:
            continue
        n = rank_count(left, rank)
        if n >= (CANASTA if need_long else 3):
            value += n * VALUE[rank * 4]
            if need_long:
                run = True
    return value, run


@njit(cache=True)
def _may_open(s, b: int, p: int) -> bool:
    hand = s.hand[b, p]
    forced = s.forced[b, p % 2] == 1
    value, run = opening_value(hand, forced)
    if forced:
        return run
    need = OPEN_HIGH if s.totals[b, p] >= OPEN_THRESHOLD else OPEN_LOW
    return run and value >= need


@njit(cache=True)
def _finish(s, b: int, pair: int, k: int, hand, row) -> int:
    """A card for the unfinished meld ``k``: see the module doc; -1 for none."""
    meld = s.melds[b, pair, k]
    if s.meld_size[b, pair, k] == 1:
        t0 = 0
        for t in range(53):
            if meld[t] > 0:
                t0 = t
        r, suit = t0 // 4, t0 % 4
        if (
            r >= 2
            and _has(hand, r + 1, suit)
            and _has(hand, r + 2, suit)
            and row[ADD0 + k * 53 + (r + 1) * 4 + suit]
        ):
            return ADD0 + k * 53 + (r + 1) * 4 + suit
    best, score = -1, -1
    for t in range(53):
        a = ADD0 + k * 53 + t
        if hand[t] == 0 or not row[a]:
            continue
        meld[t] += 1
        ok = analyse(meld)[0] == VALID
        meld[t] -= 1
        sc = 2 * ok + (not is_wild(t))
        if sc > score:
            best, score = a, sc
    return best


@njit(cache=True)
def _lay_off(s, b: int, pair: int, hand, row) -> int:
    """A natural (or a wild completing a canasta, or with few cards) keeping a meld legal."""
    few = hand.sum() <= 3
    for k in range(s.meld_count[b, pair]):
        meld = s.melds[b, pair, k]
        for t in range(53):
            a = ADD0 + k * 53 + t
            if hand[t] == 0 or not row[a]:
                continue
            if is_wild(t) and not few and s.meld_size[b, pair, k] + 1 != CANASTA:
                continue
            meld[t] += 1
            ok = analyse(meld)[0] == VALID
            meld[t] -= 1
            if ok:
                return a
    return -1


@njit(cache=True)
def _new_meld(hand, row) -> int:
    """Start a run of three naturals (its lowest card), else a set of three naturals."""
    for t in range(52):
        if is_wild(t) or hand[t] == 0 or NEW_INDEX[t] < 0 or not row[NEW0 + NEW_INDEX[t]]:
            continue
        r, suit = t // 4, t % 4
        if r >= 2 and _has(hand, r + 1, suit) and _has(hand, r + 2, suit):
            return NEW0 + NEW_INDEX[t]
    for t in range(52):
        if is_wild(t) or hand[t] == 0 or NEW_INDEX[t] < 0 or not row[NEW0 + NEW_INDEX[t]]:
            continue
        if rank_count(hand, t // 4) >= 3:
            return NEW0 + NEW_INDEX[t]
    return -1


@njit(cache=True)
def _discard(hand, row) -> int:
    best, score = -1, -1e9
    for t in range(53):
        if row[DISCARD0 + t]:
            sc = VALUE[t] - 100.0 * keep_value(hand, t)
            if sc > score:
                best, score = DISCARD0 + t, sc
    if best < 0:
        return WITHDRAW if row[WITHDRAW] else -1
    return best


@njit(cache=True)
def choose(s, b: int, row) -> int:
    """The rollout policy's action in game ``b`` (``row``: its legal mask)."""
    p = s.to_move[b]
    if s.phase[b] == PHASE_DRAW:
        n = s.pile_len[b]
        if row[TAKE_PILE] and (not row[0] or n >= 2 or joins(s.hand[b, p], s.pile[b, n - 1])):
            return TAKE_PILE
        return 0
    hand = s.hand[b, p]
    pair = p % 2
    count = s.meld_count[b, pair]
    if s.phase[b] == 2:
        for k in range(count):
            if analyse(s.melds[b, pair, k])[0] != VALID:
                a = _finish(s, b, pair, k, hand, row)
                return a if a >= 0 else WITHDRAW
        new_now = False
        for k in range(s.cp_count[b], count):
            new_now = new_now or s.meld_owner[b, pair, k] == p
        opened = s.opened[b, p] == 1 or new_now
        partner = s.opened[b, (p + 2) % 4] == 1
        if opened or s.layoff[b, p] == 1 or (partner and hand.sum() <= 4):
            a = _lay_off(s, b, pair, hand, row)
            if a >= 0:
                return a
        if s.layoff[b, p] == 0 and (opened or _may_open(s, b, p)):
            a = _new_meld(hand, row)
            if a >= 0:
                return a
    a = _discard(hand, row)
    if a >= 0:
        return a
    for a in range(NUM_ACTIONS):
        if row[a]:
            return a
    return -1


@njit(cache=True)
def _standing(s, b: int, pair: int, hand_weight: float) -> float:
    """The pair's score if the hand ended now, its hands counted at ``hand_weight``."""
    cost = 0
    for q in range(pair, 4, 2):
        if not holds_unused_fi(s.fi_taker[b], s.fi_used[b], q):
            cost += hand_value(s.hand[b, q])
    return pair_score(s, b, pair, 0) + (1.0 - hand_weight) * cost


@njit(cache=True)
def rollout(s, cfg, first, horizon: int, hand_weight: float, values) -> None:
    """Play ``first[b]`` in game ``b``, then the policy for every seat for ``horizon`` turns or
    to the hand's end; ``values[b]``: pair 0's standing (or hand score) minus pair 1's."""
    row = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    rewards = np.zeros((s.phase.shape[0], 4), dtype=np.float64)
    for b in range(s.phase.shape[0]):
        hand_no = s.hand_number[b]
        stop = s.turn[b] + horizon
        apply_action(s, cfg, b, first[b], rewards)
        for _ in range(200 * horizon + 1000):
            if s.hand_number[b] != hand_no or s.phase[b] == PHASE_OVER or s.turn[b] >= stop:
                break
            if legal_row(s, cfg, b, row) == 0:
                break
            a = choose(s, b, row)
            if a < 0:
                break
            apply_action(s, cfg, b, a, rewards)
        if s.hand_number[b] != hand_no:
            values[b] = s.hand_scores[b, 0] - s.hand_scores[b, 1]
        else:
            values[b] = _standing(s, b, 0, hand_weight) - _standing(s, b, 1, hand_weight)
