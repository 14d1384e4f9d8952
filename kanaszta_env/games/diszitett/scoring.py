"""Scoring helpers (docs/rules/diszitett.md R16, R17): a hand's score (R16) and the tax (R17).

Both functions take plain Python values, validate them, convert them into the
engine's arrays and call the *same* numba kernels the engine scores with
(:mod:`kanaszta_env.games.diszitett.kernels.score`,
:mod:`kanaszta_env.games.diszitett.kernels.melds`), so canasta
values, card values and group legality have one implementation each.

``hand_score(groups, hand, *, red_threes=0, twins=0, separate_heart_aces=0,
went_out=False, from_hand=False, table_clearing=False)`` is base (R16.1) plus
card value (R16.4) of one player's hand: ``groups`` are his melded groups as
card lists in the notation of R1.2 (wilds included), ``hand`` the cards left
in his hand. ``went_out`` is going out (R14), ``from_hand`` going out from hand
(R16.2) and ``table_clearing`` R16.3; each requires the one before it.

Invalid input raises ``ValueError`` saying what is wrong: a bad card token, a
three inside a group (R1.4), a group mixing natural ranks (R10.1), an illegal
group (R10.2, R10.3), two groups of one rank or two wilds-only groups (R10.4),
a red three in the hand (R4.4), more copies of a card than the 112-card deck
holds (R1.1; separate heart aces count as ``AH``), counts out of range (red
threes 0–4, twins ≥ 0, separate heart aces 0–2), flags that are not ``bool``,
counts that are not ``int``, or inconsistent going-out flags. Decisions taken
here: going out requires a canasta (R14.1), so ``went_out`` without a group of
7 or more cards is invalid; and a player who went out has discarded his last
card (R14.1), so ``went_out`` with cards in ``hand`` is invalid. Whether the
cards could have been reached in real play (for example the pile size behind
a table clearing) is not checked.

The worked examples of R16.5 (the base example's 1500 plus the card value
3 × 50 + 4 × 20 = 230 of its wild canasta; the card-value example's 110 plus
its red canasta's 400; the hand example's 1015):

>>> from kanaszta_env.scoring import apply_tax, hand_score
>>> wild_canasta = ["JK", "JK", "JK", "2S", "2H", "2D", "2C"]
>>> hand_score([wild_canasta], [], red_threes=4, twins=3, went_out=True, from_hand=True)
1730
>>> eights = ["8S", "8S", "8H", "8H", "8D", "8D", "8C"]
>>> hand_score([eights, ["AS", "AD", "AC"]], ["JS", "JD"])
510
>>> jacks = ["JS", "JH", "JD", "JC", "2S", "2H", "2D"]
>>> fives = ["5S", "5S", "5H", "5H", "5D", "5D", "5C"]
>>> hand_score([jacks, fives], ["AS"], red_threes=1, twins=1)
1015

``apply_tax(previous_total, hand_score)`` is the score recorded for a hand
(R17) by a player whose total before it was ``previous_total``; zero and
negative scores are recorded unchanged (R17.5 [D]). The examples of R17:

>>> apply_tax(5000, 545)
275
>>> apply_tax(7000, 1015)
255
>>> 9725 + apply_tax(9725, 2375)
9965
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from ...cards import (
    BLACK_THREES,
    GROUP_NAMES,
    GROUP_SLOTS,
    HEART_ACE,
    IS_WILD,
    NUM_GROUPS,
    NUM_TYPES,
    RED_THREES,
    TYPE_COPIES,
    TYPE_GROUP,
    TYPE_NAMES,
    TYPE_WILD_SLOT,
    WILD_GROUP,
    WILD_SLOT0,
    parse_cards,
)
from .kernels import score as _score
from .kernels.melds import group_legal, has_canasta

__all__ = ["apply_tax", "hand_score"]

_INT64_MAX = np.iinfo(np.int64).max
_THREES = frozenset(BLACK_THREES + RED_THREES)


def _check_flag(name: str, value: object) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an int, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be {bounds}, got {value}")
    return value


def _show(types: list[int]) -> str:
    """A group as it appears in messages: ``["KS","KD","2C"]``."""
    return json.dumps([TYPE_NAMES[t] for t in types], separators=(",", ":"))


def _card_list(what: str, cards: object) -> list[int]:
    if not isinstance(cards, (list, tuple)):
        raise ValueError(f"{what} must be a list of cards like ['AH', '10S'], got {cards!r}")
    try:
        return parse_cards(cards)
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None


def _group_index(types: list[int], taken: dict[int, str]) -> int:
    """Group slot (R10.4) of one group's card types, after its structural checks."""
    shown = _show(types)
    if not types:
        raise ValueError(f"group {shown} is empty: a group holds 3 to 8 cards (R10.2)")
    threes = [TYPE_NAMES[t] for t in types if t in _THREES]
    if threes:
        raise ValueError(f"group {shown} contains the three {threes[0]}: threes are never melded (R1.4)")
    ranks = list(dict.fromkeys(int(TYPE_GROUP[t]) for t in types if not IS_WILD[t]))
    if len(ranks) > 1:
        names = " and ".join(GROUP_NAMES[r] for r in ranks)
        raise ValueError(f"group {shown} mixes naturals of ranks {names}: a group holds one rank (R10.1)")
    g = ranks[0] if ranks else WILD_GROUP
    if g in taken:
        kind = "wilds-only groups" if g == WILD_GROUP else f"groups of rank {GROUP_NAMES[g]}"
        raise ValueError(
            f"two {kind}, {taken[g]} and {shown}: a player has at most one group per rank "
            "and one wilds-only group (R10.4)"
        )
    taken[g] = shown
    return g


def _illegal_reason(g: int, row: np.ndarray, shown: str) -> str:
    """Why ``group_legal`` rejected a group (the kernel decides; this only explains)."""
    n = int(row[:WILD_SLOT0].sum())
    w = int(row[WILD_SLOT0:].sum())
    if g == WILD_GROUP:
        return f"wilds-only group {shown} has {w} wilds: it must hold 3 to 7 (R10.3)"
    size = n + w
    if size < 3 or size > 8:
        return f"group {shown} has {size} cards: a group holds 3 to 8 (R10.2)"
    if w >= n:
        return f"group {shown} has {w} wilds and {n} naturals: wilds must be fewer (R10.2)"
    if size == 8:
        return f"group {shown} has 8 cards with {w} wilds: an 8-card group holds no wild (R10.2)"
    return f"group {shown} is not a legal group (R10.2)"


def _deck_check(counts: np.ndarray) -> None:
    over = np.flatnonzero(counts > TYPE_COPIES)
    if over.size:
        t = int(over[0])
        raise ValueError(
            f"{int(counts[t])} copies of {TYPE_NAMES[t]} in the groups, hand and separate heart aces: "
            f"the 112-card deck holds {int(TYPE_COPIES[t])} (R1.1)"
        )


def _groups_array(groups: object, hand_counts: np.ndarray, heart_aces: int) -> np.ndarray:
    """The (12, 9) int8 groups array of the engine, after every group and deck check."""
    if not isinstance(groups, (list, tuple)):
        raise ValueError(f"groups must be a list of card lists, got {groups!r}")
    parsed = [_card_list(f"group {i + 1}", grp) for i, grp in enumerate(groups)]
    taken: dict[int, str] = {}
    index = [_group_index(types, taken) for types in parsed]
    # the deck check comes before filling int8 rows, so every count fits
    counts = hand_counts.astype(np.int64)
    counts[HEART_ACE] += heart_aces
    for types in parsed:
        np.add.at(counts, types, 1)
    _deck_check(counts)
    rows = np.zeros((NUM_GROUPS, GROUP_SLOTS), dtype=np.int8)
    for g, types in zip(index, parsed, strict=True):
        for t in types:
            slot = WILD_SLOT0 + TYPE_WILD_SLOT[t] if IS_WILD[t] else t % 4
            rows[g, slot] += 1
        if not group_legal(g, rows[g]):
            raise ValueError(_illegal_reason(g, rows[g], _show(types)))
    return rows


def hand_score(
    groups: Sequence[Sequence[str]],
    hand: Sequence[str],
    *,
    red_threes: int = 0,
    twins: int = 0,
    separate_heart_aces: int = 0,
    went_out: bool = False,
    from_hand: bool = False,
    table_clearing: bool = False,
) -> int:
    """Score of one player's hand, base plus card value (R16).

    Args:
        groups: his melded groups, each a list of cards such as
            ``["JS", "JD", "JH", "JC", "2S", "2D", "2H"]`` (wilds included).
        hand: the cards left in his hand (black threes count −100, R1.6).
        red_threes: red threes in his collection, 0–4 (R16.1).
        twins: twins he made (R6), 100 each.
        separate_heart_aces: heart aces laid on their own, 0–2 (R10.6), 500 each.
        went_out: he went out (R14); requires a canasta and an empty hand.
        from_hand: he went out from hand (R16.2); requires ``went_out``.
        table_clearing: he cleared the table (R16.3); requires ``from_hand``.

    Returns:
        The hand score before tax.

    Raises:
        ValueError: the input is invalid; the message says what is wrong.
    """
    went_out = _check_flag("went_out", went_out)
    from_hand = _check_flag("from_hand", from_hand)
    table_clearing = _check_flag("table_clearing", table_clearing)
    red_threes = _check_int("red_threes", red_threes, 0, 4)
    twins = _check_int("twins", twins, 0, _INT64_MAX // 1000)
    heart_aces = _check_int("separate_heart_aces", separate_heart_aces, 0, 2)
    if from_hand and not went_out:
        raise ValueError("from_hand requires went_out: going out from hand is a way of going out (R16.2)")
    if table_clearing and not from_hand:
        raise ValueError("table_clearing requires from_hand: table clearing is going out from hand (R16.3)")

    hand_types = _card_list("hand", hand)
    reds = [TYPE_NAMES[t] for t in hand_types if t in RED_THREES]
    if reds:
        raise ValueError(f"red three {reds[0]} in the hand: red threes never stay in a hand (R4.4)")
    hand_counts = np.zeros(NUM_TYPES, dtype=np.int64)
    np.add.at(hand_counts, hand_types, 1)
    rows = _groups_array(groups, hand_counts, heart_aces)

    if went_out and not has_canasta(rows):
        raise ValueError("went_out without a canasta: going out requires a group of 7 or 8 cards (R14.1)")
    if went_out and hand_types:
        raise ValueError(
            f"went_out with {len(hand_types)} card(s) left in hand: going out is discarding the last "
            "card, so the hand must be empty (R14.1)"
        )
    base = _score.hand_base(rows, red_threes, twins, heart_aces, went_out, from_hand, table_clearing)
    value = _score.hand_card_value(rows, hand_counts.astype(np.int8))
    return int(base) + int(value)


def apply_tax(previous_total: int, hand_score: int) -> int:
    """Score recorded for a hand of ``hand_score`` after a total of ``previous_total`` (R17).

    Raises:
        ValueError: either argument is not an int (``bool`` is not accepted) or
            does not fit a 64-bit integer.
    """
    limit = _INT64_MAX // 2
    total = _check_int("previous_total", previous_total, -limit, limit)
    score = _check_int("hand_score", hand_score, -limit, limit)
    return int(_score.apply_tax(total, score))
