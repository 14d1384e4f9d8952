"""Coverage players of the fuzzer (:mod:`fuzz`): crude compiled players that read the whole
state (they are not agents) and pick legal actions that meld, so that the fuzzer's games
reach openings, canastas and going out, which uniformly random play seldom does. A game
without one is fuzzed with uniformly random play only."""

from __future__ import annotations

from numba import njit

from kanaszta_env import Rules
from kanaszta_env.games.turkish.actions import ADD0, DISCARD0, NEW0


def _turkish_melder(kernels):
    """Turkish kanasta's melding player."""
    melds, num_actions = kernels.game_module("melds"), kernels.ruleset.NUM_ACTIONS
    analyse, valid = melds.analyse, melds.VALID

    @njit
    def melder(s, cfg, b, row, u):
        """A crude melding player for coverage (not an agent: it reads the state): finish the
        melds begun this turn, lay off where a meld stays legal, start a meld the hand holds
        three naturals of, else discard at random; ``u`` in [0, 1) is its random number."""
        p = s.to_move[b]
        pair = p % 2
        hand = s.hand[b, p]
        count = s.meld_count[b, pair]
        if row[1] and (u < 0.3 or s.pile_len[b] >= 2 or not row[0]):
            return 1  # take the pile
        if row[0]:
            return 0
        for k in range(count):  # finish the partial melds, naturals first
            if analyse(s.melds[b, pair, k])[0] != valid:
                for t in range(53):
                    if hand[t] > 0 and row[ADD0 + k * 53 + t] and t // 4 != 1 and t != 52:
                        return ADD0 + k * 53 + t
                for t in range(53):
                    if hand[t] > 0 and row[ADD0 + k * 53 + t]:
                        return ADD0 + k * 53 + t
        for k in range(count):  # lay off where the meld stays legal
            for t in range(53):
                a = ADD0 + k * 53 + t
                if hand[t] > 0 and row[a] and (t // 4 != 1 or u < 0.5):
                    s.melds[b, pair, k, t] += 1
                    ok = analyse(s.melds[b, pair, k])[0] == valid
                    s.melds[b, pair, k, t] -= 1
                    if ok:
                        return a
        for t in range(52):  # a set of three naturals, or three of a run
            if t // 4 == 1 or hand[t] == 0 or not row[NEW0 + (t - 4 if t >= 8 else t)]:
                continue
            r, suit = t // 4, t % 4
            same = hand[r * 4] + hand[r * 4 + 1] + hand[r * 4 + 2] + hand[r * 4 + 3]
            up1 = r + 1 <= 12 and hand[(r + 1) * 4 + suit] > 0
            up2 = r + 2 <= 12 and hand[(r + 2) * 4 + suit] > 0
            if same >= 3 or (up1 and up2):
                return NEW0 + (t - 4 if t >= 8 else t)
        n = 0
        for a in range(DISCARD0, num_actions):
            n += row[a]
        if n == 0:
            return 2  # withdraw
        k = int(u * n)
        for a in range(DISCARD0, num_actions):
            if row[a]:
                if k == 0:
                    return a
                k -= 1
        return 2

    return melder


#: game name -> builder of its coverage player, from the game's compiled kernels
PLAYERS = {"turkish": _turkish_melder}
_BUILT: dict[str, object] = {}


def coverage_player(rules: Rules, kernels) -> object | None:
    """The compiled coverage player ``player(s, cfg, b, row, u)`` of ``rules``' game, or ``None``."""
    build = PLAYERS.get(rules.game.name)
    if build is None:
        return None
    if kernels.package not in _BUILT:
        _BUILT[kernels.package] = build(kernels)
    return _BUILT[kernels.package]
