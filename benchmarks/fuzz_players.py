"""Coverage players of the fuzzer (:mod:`fuzz`): compiled players that read the whole state
(they are not agents) and pick legal actions aimed at the endings and rare rules that
uniformly random play seldom reaches. Each game's player has *styles*, one per lane of the
fuzzed batch (``player(s, cfg, b, row, u, style)``, style 1, 2, ...); lanes of style 0 play
uniformly at random, so random play is fuzzed too. A game without a player is fuzzed with
random play only."""

from __future__ import annotations

from collections.abc import Callable

from numba import njit

from kanaszta_env import Rules
from kanaszta_env.cards import JOKER, NUM_SUITS, NUM_TYPES, RANK_2, SMALL_WILDS
from kanaszta_env.games.classic import actions as C
from kanaszta_env.games.diszitett import actions as D
from kanaszta_env.games.turkish import actions as T


@njit
def _random_in(row, u: float, first: int, end: int) -> int:
    """A legal action of ``first..end-1`` drawn with ``u``; -1 if none is legal."""
    n = 0
    for a in range(first, end):
        n += row[a]
    k = int(u * n)
    chosen = -1
    for a in range(first, end):
        if row[a]:
            if k == 0:
                chosen = a
                break
            k -= 1
    return chosen


@njit
def _random_discard(row, u: float, first: int, end: int, otherwise: int) -> int:
    """A legal discard of ``first..end-1`` drawn with ``u``; else ``otherwise`` if legal
    (a withdraw that makes the discard legal), else any legal action drawn with ``u``."""
    a = _random_in(row, u, first, end)
    if a < 0:
        a = otherwise if row[otherwise] else _random_in(row, u, 0, row.shape[0])
    return a


def _classic_player(kernels) -> tuple[Callable, tuple[int, ...]]:
    """Classic canasta's styles: 1, a melder, which goes out both ways and asks the partner;
    2, a hoarder, which never melds nor takes the pile, so the stock runs out (C4.5); 3, the
    melder that never discards its last card (pl: it goes out by melding it, C12.1)."""
    melds = kernels.game_module("melds")
    hand_naturals, size, num_actions = melds.hand_naturals, melds.size, kernels.ruleset.NUM_ACTIONS
    ranks = C.TWO0 - C.MELD0

    @njit
    def melder(s, b, row, u, by_meld):
        """Answer no more often than yes (a yes ends the hand, so a no is the rarer), take
        the pile when it may, ask whenever it may, meld a rank it holds three of or its side
        has, wilds on melds of three; discard a rank its side has not melded (keeping cards
        it can meld, so that it goes out by melding too), else any card. ``by_meld``: never
        ask, and rather than discard its last card withdraw the turn's melds."""
        if row[C.ANSWER_YES]:
            return C.ANSWER_YES if u < 0.35 else C.ANSWER_NO
        if row[C.TAKE_PILE] and (u < 0.8 or not row[C.DRAW]):
            return C.TAKE_PILE
        if row[C.DRAW]:
            return C.DRAW
        if row[C.ASK] and not by_meld:
            return C.ASK
        p = s.to_move[b]
        grp, hand = s.groups[b, s.side_of[b, p]], s.hand[b, p]
        for g in range(ranks):
            if row[C.MELD0 + g] and (size(grp, g) > 0 or hand_naturals(hand, g) >= 3):
                return C.MELD0 + g
        for g in range(ranks):
            if size(grp, g) >= 3 and (row[C.TWO0 + g] or row[C.JOKER0 + g]):
                return C.TWO0 + g if row[C.TWO0 + g] else C.JOKER0 + g
        if row[C.BLACK_THREE]:
            return C.BLACK_THREE
        if by_meld and hand.sum() == 1 and row[C.WITHDRAW]:
            return C.WITHDRAW
        for i in range(ranks):
            g = (i + int(u * ranks)) % ranks
            if row[C.DISCARD0 + g] and size(grp, g) == 0 and hand_naturals(hand, g) < 3:
                return C.DISCARD0 + g
        return _random_discard(row, u, C.DISCARD0, num_actions, C.WITHDRAW)

    @njit
    def player(s, cfg, b, row, u, style):
        if style == 1 or style == 3:
            return melder(s, b, row, u, style == 3)
        if row[C.END_HAND]:  # the hoarder: the stock is empty
            return C.END_HAND
        if row[C.DRAW]:
            return C.DRAW
        return _random_discard(row, u, C.DISCARD0, num_actions, C.WITHDRAW)

    return player, (0, 1, 2, 3, 3)


def _turkish_player(kernels) -> tuple[Callable, tuple[int, ...]]:
    """Turkish kanasta's styles: 1, the search bot's compiled rollout policy
    (:mod:`agents.games.turkish.rollout`), which opens, lays off and empties hands (the Fis
    both ways, going out); 2, a hoarder, which only draws and discards (the stock runs out,
    T13.3); 3 and 4, pair 0 plays the rollout policy while pair 1 holds back, taking the
    pile, keeping the ranks it holds most of and never melding, so that pair 0 takes both
    Fis and pair 1 owes a canasta opening (T12), which it lays (3) when it holds six of a
    rank and a wild, or seven, or never lays (4: the opening is missed when pair 0 goes
    out)."""
    from agents.games.turkish.rollout import choose

    tables, melds = kernels.game_module("tables"), kernels.game_module("melds")
    owed, new_index, analyse, dead = tables.FORCED_OWED, tables.NEW_INDEX, melds.analyse, melds.DEAD
    canasta, meld_phase = tables.CANASTA, kernels.game_module("state").PHASE_MELD
    ranks = JOKER // NUM_SUITS  # the natural ranks and the 2s, four suits each
    wilds = (*SMALL_WILDS, JOKER)

    @njit
    def hold_back(s, b, row, u, opens):
        """Pair 1's turn: when it owes a canasta opening and ``opens``, a set of a rank it
        holds seven of (a wild counting for one), filled with naturals then a wild; else it
        takes the pile or draws, and discards a card of a rank it holds fewest of."""
        p = s.to_move[b]
        hand, k = s.hand[b, p], s.meld_count[b, 1] - 1
        opens = opens and s.phase[b] == meld_phase and s.forced[b, 1] == owed
        if opens and k >= s.cp_count[b] and s.meld_size[b, 1, k] < canasta:
            meld = s.melds[b, 1, k]  # the set begun this turn: its naturals, then a wild
            r = 0
            while meld[4 * r] + meld[4 * r + 1] + meld[4 * r + 2] + meld[4 * r + 3] == 0 or r == RANK_2:
                r += 1
            for t in (4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3, *wilds):
                if hand[t] > 0 and row[T.ADD0 + k * NUM_TYPES + t]:
                    meld[t] += 1
                    ok = analyse(meld)[0] != dead
                    meld[t] -= 1
                    if ok:
                        return T.ADD0 + k * NUM_TYPES + t
            return T.WITHDRAW if row[T.WITHDRAW] else _random_in(row, u, 0, T.NUM_ACTIONS)
        if opens and s.opened[b, p] == 0:
            wild = 0
            for t in wilds:
                wild += hand[t]
            for r in range(ranks):
                n = hand[4 * r] + hand[4 * r + 1] + hand[4 * r + 2] + hand[4 * r + 3]
                if r != RANK_2 and n + min(wild, 1) >= canasta:
                    for t in range(4 * r, 4 * r + 4):
                        if hand[t] > 0 and row[T.NEW0 + new_index[t]]:
                            return T.NEW0 + new_index[t]
        if row[T.TAKE_PILE]:
            return T.TAKE_PILE
        if row[T.DRAW]:
            return T.DRAW
        best, fewest = -1, 99  # keep the ranks it holds most of, and the wilds
        for t in range(JOKER):
            n = hand[t - t % 4] + hand[t - t % 4 + 1] + hand[t - t % 4 + 2] + hand[t - t % 4 + 3]
            if row[T.DISCARD0 + t] and t // 4 != RANK_2 and n < fewest:
                best, fewest = T.DISCARD0 + t, n
        return best if best >= 0 else _random_discard(row, u, T.DISCARD0, T.NUM_ACTIONS, T.WITHDRAW)

    @njit
    def player(s, cfg, b, row, u, style):
        if style == 1 or (style >= 3 and s.to_move[b] % 2 == 0):
            return choose(s, b, row)
        if style >= 3:
            return hold_back(s, b, row, u, style == 3)
        if row[T.DRAW]:
            return T.DRAW
        return _random_discard(row, u, T.DISCARD0, T.NUM_ACTIONS, T.WITHDRAW)

    return player, (0, 1, 2, 3, 3, 3, 4, 4)


def _diszitett_player(kernels) -> tuple[Callable, tuple[int, ...]]:
    """Díszített kanaszta's style 1: the greedy bot (:mod:`agents.games.diszitett.greedy`)
    on the mover's view, which opens, builds canastas and goes out (R14)."""
    import numpy as np

    from agents.games.diszitett.greedy import greedy_row
    from agents.games.diszitett.plan import P_SIZE
    from kanaszta_env.games.diszitett.compiled import fill_view, new_view

    @njit
    def player(s, cfg, b, row, u, style):
        v = new_view(s.hand.shape[1])  # scratch: a fresh view per decision
        fill_view(s, cfg, b, s.to_move[b], v)
        opt, reserve = np.zeros(P_SIZE, np.int64), np.zeros(NUM_TYPES, np.int64)
        a = greedy_row(row, v, opt, reserve, np.zeros(12, np.int64), np.zeros(12, np.int64))
        if a < 0 or not row[a]:
            a = _random_in(row, u, 0, D.NUM_ACTIONS)
        return a

    return player, (0, 1, 1)


#: game name -> builder of its coverage player and the styles of the lanes (repeated over
#: the batch; 0 is random play)
PLAYERS = {"turkish": _turkish_player, "classic": _classic_player, "diszitett": _diszitett_player}
_BUILT: dict[str, tuple[Callable, tuple[int, ...]]] = {}


def coverage_player(rules: Rules, kernels) -> tuple[Callable, tuple[int, ...]] | None:
    """The compiled coverage player ``player(s, cfg, b, row, u, style)`` of ``rules``' game
    and the styles of the lanes (repeated over the batch; 0 is random play); ``None`` for a
    game without a player."""
    build = PLAYERS.get(rules.game.name)
    if build is None:
        return None
    if kernels.package not in _BUILT:
        _BUILT[kernels.package] = build(kernels)
    return _BUILT[kernels.package]
