"""Applying one action of Turkish kanasta (T4-T13): draw or take the pile, lay melds and lay
off, withdraw, discard; the Fis (T11), the forced canasta opening (T12) and the turn's end."""

from __future__ import annotations

from numba import njit

from ....cards import NUM_TYPES
from ....core.borrow import borrow
from ....core.common import hand_size, pile_to_hand
from ....core.config import CFG_MAX_TURNS
from .. import actions as A
from .conditions import fis_left
from .deal import begin_turn, checkpoint, reset_game
from .melds import canasta_kind
from .score import end_hand, episode_truncated
from .state import END_EXHAUSTED, END_OUT, END_TRUNCATED, PHASE_DISCARD, PHASE_MELD
from .tables import CANASTA, FORCED_DONE, FORCED_OWED, NEW_TYPE, NUM_FIS, PACKET, PLAYERS

__all__ = ["apply_action", "episode_truncated", "reset_game"]


@njit(cache=True, inline="always")
def _forget(known, hand, t: int) -> None:
    """A card of type ``t`` left a hand: its publicly ``known`` copies cannot exceed the ``hand``
    (arrays, not the state: every function entered with the state pays its arrays' reference counts)."""
    if known[t] > hand[t]:
        known[t] = hand[t]


@njit(cache=True)
def _commit(s, b: int, p: int) -> None:
    """The melding so far stands: seat ``p`` has opened if he laid new melds (a forced pair's
    canasta opening is made, T12.2), or is a layer-off if he laid only on his partner's (T10.2)."""
    if s.opened[b, p] == 1 or s.layoff[b, p] == 1:
        return
    pair = p % 2
    if s.meld_count[b, pair] > s.cp_count[b]:
        s.opened[b, p] = 1
        if s.forced[b, pair] == FORCED_OWED:
            s.forced[b, pair] = FORCED_DONE
    elif s.changed[b] == 1:
        s.layoff[b, p] = 1


@njit(cache=True)
def _take_fi(s, b: int, p: int, used: int) -> None:
    """T11.1: the next Fi into seat ``p``'s emptied hand; taken by melding it is used at once,
    by discarding at his next turn (T11.3). Both Fis to one pair before the other pair has
    opened force that pair to open with a canasta (T12.1)."""
    f = 0 if s.fi_taker[b, 0] < 0 else 1
    s.fi_taker[b, f] = p
    s.fi_used[b, f] = used
    for i in range(PACKET):
        s.hand[b, p, s.fi[b, f, i]] += 1
    if f == NUM_FIS - 1 and s.fi_taker[b, 0] % 2 == p % 2:
        other = 1 - p % 2
        if s.opened[b, other] == 0 and s.opened[b, other + 2] == 0:
            s.forced[b, other] = FORCED_OWED


@njit(cache=True)
def _fix_kinds(s, b: int, pair: int) -> None:
    """T8.2-T8.3 at the end of a turn: melds of 7+ cards get their kind, runs may become full."""
    for k in range(s.meld_count[b, pair]):
        if s.meld_size[b, pair, k] >= CANASTA:
            s.meld_kind[b, pair, k] = canasta_kind(
                s.melds[b, pair, k], s.meld_size[b, pair, k], s.meld_kind[b, pair, k]
            )


@njit(cache=True)
def _end_turn(s, cfg, b: int, p: int, rewards) -> None:
    """After a discard: the melding stands, kinds are fixed; a last card discarded takes a Fi
    or goes out; then the hand ends (T13) or the next player begins (T2.2, clockwise)."""
    s = borrow(s)  # no reference counting inside (core/borrow.py)
    _commit(s, b, p)
    _fix_kinds(s, b, p % 2)
    s.turn[b] += 1
    if hand_size(s.hand[b, p]) == 0:
        if fis_left(s.fi_taker[b]) > 0:
            _take_fi(s, b, p, 0)
        else:
            s.out_player[b] = p
            end_hand(s, cfg, b, END_OUT, rewards)
            return
    if s.stock_len[b] == 0:  # T13.3: the last card was drawn this turn
        end_hand(s, cfg, b, END_EXHAUSTED, rewards)
    elif s.turn[b] >= cfg[CFG_MAX_TURNS]:
        end_hand(s, cfg, b, END_TRUNCATED, rewards)
    else:
        begin_turn(s, b, (p + 1) % PLAYERS)


@njit(cache=True)
def _withdraw(s, b: int, p: int) -> None:
    """T9.6: back to the checkpoint. Melds only grow between checkpoints, so only the melds laid
    since or grown since are restored (slots past the checkpoint's count are empty there)."""
    s = borrow(s)  # no reference counting inside (core/borrow.py)
    pair = p % 2
    s.hand[b, p] = s.cp_hand[b]
    for k in range(s.meld_count[b, pair]):
        if s.meld_size[b, pair, k] != s.cp_size[b, k]:
            s.melds[b, pair, k] = s.cp_melds[b, k]
            s.meld_owner[b, pair, k] = s.cp_owner[b, k]
            s.meld_size[b, pair, k] = s.cp_size[b, k]
    s.meld_count[b, pair] = s.cp_count[b]
    for t in range(NUM_TYPES):
        _forget(s.known[b, p], s.hand[b, p], t)
    s.changed[b] = 0
    s.phase[b] = PHASE_DISCARD


@njit(cache=True, inline="always")
def _lay(s, b: int, p: int, k: int, t: int) -> None:
    """A card of type ``t`` from seat ``p``'s hand onto his pair's meld ``k`` (a new meld when
    ``k`` is the first free slot); an emptied hand takes a Fi by melding (T11.2b)."""
    pair = p % 2
    if k == s.meld_count[b, pair]:
        s.meld_owner[b, pair, k] = p
        s.meld_count[b, pair] += 1
    s.melds[b, pair, k, t] += 1
    s.meld_size[b, pair, k] += 1
    s.hand[b, p, t] -= 1
    _forget(s.known[b, p], s.hand[b, p], t)
    s.changed[b] = 1
    if hand_size(s.hand[b, p]) == 0:  # legal only with a Fi left and the melding complete
        _commit(s, b, p)
        _take_fi(s, b, p, 1)
        checkpoint(s, b, p)


@njit(cache=True, inline="always")
def apply_action(s, cfg, b: int, a: int, rewards) -> None:
    """Apply a legal action ``a`` to game ``b`` (legality is checked by the caller)."""
    p = s.to_move[b]
    if a == A.DRAW:
        n = s.stock_len[b] - 1
        s.stock_len[b] = n
        s.hand[b, p, s.stock[b, n]] += 1
        s.phase[b] = PHASE_MELD
        checkpoint(s, b, p)
    elif a == A.TAKE_PILE:  # T4.1a: the whole pile, no condition
        pile_to_hand(s, b, p)
        s.phase[b] = PHASE_MELD
        checkpoint(s, b, p)
    elif a == A.WITHDRAW:
        _withdraw(s, b, p)
    elif a >= A.DISCARD0:
        t = a - A.DISCARD0
        s.hand[b, p, t] -= 1
        _forget(s.known[b, p], s.hand[b, p], t)
        s.pile[b, s.pile_len[b]] = t
        s.pile_len[b] += 1
        _end_turn(s, cfg, b, p, rewards)
    elif a >= A.ADD0:
        _lay(s, b, p, (a - A.ADD0) // NUM_TYPES, (a - A.ADD0) % NUM_TYPES)
    else:
        _lay(s, b, p, s.meld_count[b, p % 2], NEW_TYPE[a - A.NEW0])
