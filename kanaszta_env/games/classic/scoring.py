"""Scoring a classic canasta hand for one side (docs/rules/classic.md, C13).

``side_score`` takes plain Python values, checks them, and calls the same
compiled kernel the engine scores with, so card values, canasta kinds, red
threes and the going-out bonuses have one implementation. The worked examples
of C16 (sk's winning side, and pl had the last card been melded):

>>> from kanaszta_env import Rules
>>> from kanaszta_env.games.classic.scoring import side_score
>>> melds = [["KS", "KH", "KD", "KC", "KS", "2C", "JK"], ["AS", "AH", "AD", "AC", "AS", "2S"],
...          ["10S", "10H", "10D", "10C"], ["QS", "QH", "QD", "JK"], ["9S", "9H", "9D"],
...          ["5S", "5H", "5D"], ["6S", "6H", "6D"]]
>>> side_score(Rules(variant="sk", num_players=4), melds, [[], ["8S", "JS", "10S", "9S", "4S"]],
...            red_threes=1, went_out=True)
875
>>> melds[-1].append("6C")
>>> side_score(Rules(variant="pl", num_players=4), melds, [[], ["8S", "JS", "10S", "9S", "4S"]],
...            red_threes=1, went_out=True, double=True)
980
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...cards import GROUP_SLOTS, IS_RED_THREE, NUM_TYPES, TYPE_GROUP, TYPE_WILD_SLOT, parse_cards
from ...rules import Rules
from ...variants import CLASSIC

if TYPE_CHECKING:
    from ...engine import GameBatch

_BLACK = {"3S": 0, "3C": 3}


def _melds(rules: Rules, melds: Sequence[Sequence[str]]) -> np.ndarray:
    """The side's melds as the engine's (13, 9) counts; illegal melds raise ``ValueError``."""
    grp = np.zeros((13, GROUP_SLOTS), dtype=np.int8)
    for cards in melds:
        types = parse_cards(cards)
        upper = [c.upper() for c in cards]
        natural = [int(TYPE_GROUP[t]) for t in types if TYPE_GROUP[t] >= 0]
        ranks = set(natural)
        wild = [t for t in types if TYPE_WILD_SLOT[t] >= 0]
        if all(c in _BLACK for c in upper):
            g = 12
            if rules.black_three_meld != "going_out":
                raise ValueError(f"black-three melds are not a {rules.variant} rule (C10): {list(cards)}")
        elif len(ranks) > 1 or len(natural) + len(wild) != len(types):
            raise ValueError(f"a meld is naturals of one rank 4-A plus wilds (C5.1): {list(cards)}")
        elif not ranks:
            g = 11
            if not rules.wild_canastas or not 3 <= len(types) <= 7:
                raise ValueError(
                    f"a wild meld of 3-7 wilds exists only with wild_canastas (C5.6): {list(cards)}"
                )
        else:
            g = ranks.pop()
            n = len(types) - len(wild)
            if len(wild) > min(n, 3):
                raise ValueError(
                    f"wilds must be no more than the naturals and at most 3 (C5.2): {list(cards)}"
                )
        if len(types) < 3:
            raise ValueError(f"a meld has at least three cards (C5.1): {list(cards)}")
        if grp[g].sum() > 0:
            raise ValueError(f"one meld per rank per side (C5.4): {list(cards)}")
        for c, t in zip(upper, types, strict=True):
            slot = _BLACK[c] if g == 12 else (4 + TYPE_WILD_SLOT[t] if TYPE_WILD_SLOT[t] >= 0 else t % 4)
            grp[g, slot] += 1
    return grp


def side_score(
    rules: Rules,
    melds: Sequence[Sequence[str]],
    hands: Sequence[Sequence[str]],
    *,
    red_threes: int = 0,
    went_out: bool = False,
    double: bool = False,
    from_hand: bool = False,
    exhausted: bool = False,
) -> int:
    """Hand score of one side under classic ``rules`` (C13): ``melds`` as card lists,
    ``hands`` the cards left in each member's hand, ``red_threes`` laid out, ``went_out``
    (a member went out; ``double``: pl, by melding his last card; ``from_hand``, C13.3),
    ``exhausted`` (the hand ended with nobody out, C13.6)."""
    if not isinstance(rules, Rules) or rules.game.name != "classic":
        raise ValueError("side_score needs classic canasta rules: Rules(variant='pl' or 'sk', ...)")
    flags = {"went_out": went_out, "double": double, "from_hand": from_hand, "exhausted": exhausted}
    for name, flag in flags.items():
        if not isinstance(flag, bool):
            raise ValueError(f"{name} must be True or False, got {flag!r}")
    if (double or from_hand) and not went_out:
        raise ValueError("double and from_hand describe a going out: pass went_out=True")
    if double and not rules.go_out_by_meld:
        raise ValueError(f"going out by melding the last card is not a {rules.variant} rule (C12.1)")
    if went_out and exhausted:
        raise ValueError("a hand that somebody went out of did not end by exhaustion")
    if isinstance(red_threes, bool) or not isinstance(red_threes, int) or not 0 <= red_threes <= 6:
        raise ValueError(f"red_threes must be an integer 0-6, got {red_threes!r}")
    grp = _melds(rules, melds)
    counts = np.zeros((len(hands), NUM_TYPES), dtype=np.int8)
    for i, hand in enumerate(hands):
        for t in parse_cards(hand):
            if IS_RED_THREE[t]:
                raise ValueError("a red three is never held: it is laid out at once (C9.1)")
            counts[i, t] += 1
    if went_out and not any(grp[g].sum() >= CLASSIC.canasta_size for g in range(12)):
        raise ValueError("going out needs the side's canasta (C12.2)")
    return int(
        _kernel().score_side(
            rules.to_config(), grp, counts, red_threes, went_out, double, from_hand, exhausted
        )
    )


def standings(games: GameBatch, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Where each side of classic ``games`` stands: ``(melded, in_hand)``, each (n, sides) for
    the games ``rows`` (default all). ``melded`` is the side's score were the hand to end now
    with nobody out, its cards in hand aside (C13.2: melds, canasta bonuses, red threes);
    ``in_hand`` what the cards in its members' hands would cost. Sides by index
    (``Rules.sides()``). The engine's own scoring functions compute both."""
    if games.rules.game.name != "classic":
        raise ValueError("standings needs a batch of classic canasta games")
    rows = np.arange(games.batch_size) if rows is None else np.asarray(rows, dtype=np.int64)
    out = np.zeros((len(rows), max(games.rules.sides()) + 1, 2), dtype=np.int64)
    st = games.state
    _kernel().standings(st.groups, st.red_threes, st.hand, st.side_of, games.rules.to_config(), rows, out)
    return out[:, :, 0], out[:, :, 1]


def _kernel():
    from ...engine.kernels import kernels_for

    return kernels_for(CLASSIC).game_module("score")
