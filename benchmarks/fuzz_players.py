"""Coverage players of the fuzzer (:mod:`fuzz`): compiled players that read the whole state
(they are not agents) and pick legal actions that meld, so that the fuzzer's games reach
openings, canastas, the partner's question, the Fis and going out, which uniformly random
play seldom does. A game without one is fuzzed with uniformly random play only."""

from __future__ import annotations

from numba import njit

from kanaszta_env import Rules
from kanaszta_env.games.classic import actions as C


def _turkish_player(kernels):
    """Turkish kanasta's player: the search bot's compiled rollout policy
    (:mod:`agents.games.turkish.rollout`), which opens, lays off and empties hands, so that
    the fuzzed hands take the Fis both ways, owe and make canasta openings and go out."""
    from agents.games.turkish.rollout import choose

    @njit
    def player(s, cfg, b, row, u):
        return choose(s, b, row)

    return player


def _classic_melder(kernels):
    """Classic canasta's melding player."""
    melds = kernels.game_module("melds")
    hand_naturals, size, num_actions = melds.hand_naturals, melds.size, kernels.ruleset.NUM_ACTIONS
    ranks = C.TWO0 - C.MELD0

    @njit
    def melder(s, cfg, b, row, u):
        """A crude melding player for coverage (not an agent: it reads the state): answer at
        random, take the pile when it may, ask the partner half the time, meld a rank it holds
        three of or its side has, wilds on melds of three, else discard at random."""
        if row[C.ANSWER_YES]:
            return C.ANSWER_YES if u < 0.5 else C.ANSWER_NO
        if row[C.TAKE_PILE] and (u < 0.8 or not row[C.DRAW]):
            return C.TAKE_PILE
        if row[C.DRAW]:
            return C.DRAW
        if row[C.ASK] and u < 0.5:
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
        return _random_discard(row, u, C.DISCARD0, num_actions, C.WITHDRAW)

    return melder


@njit
def _random_discard(row, u, first: int, end: int, otherwise: int) -> int:
    """A legal action of ``first..end-1`` drawn with ``u``; else ``otherwise`` if legal, else the
    first legal action."""
    n = 0
    for a in range(first, end):
        n += row[a]
    if n == 0:
        if row[otherwise]:
            return otherwise
        for a in range(end):
            if row[a]:
                return a
    k = int(u * n)
    for a in range(first, end):
        if row[a]:
            if k == 0:
                return a
            k -= 1
    return otherwise


#: game name -> builder of its coverage player, from the game's compiled kernels
PLAYERS = {"turkish": _turkish_player, "classic": _classic_melder}
_BUILT: dict[str, object] = {}


def coverage_player(rules: Rules, kernels) -> object | None:
    """The compiled coverage player ``player(s, cfg, b, row, u)`` of ``rules``' game, or ``None``."""
    build = PLAYERS.get(rules.game.name)
    if build is None:
        return None
    if kernels.package not in _BUILT:
        _BUILT[kernels.package] = build(kernels)
    return _BUILT[kernels.package]
