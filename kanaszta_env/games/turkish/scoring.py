"""Scoring helpers of Turkish kanasta (docs/rules/turkish.md, T1.5, T5-T9, T14).

Each helper checks its input and then calls the engine's own compiled rules,
so a score computed here is the score the engine records. Cards use the
notation of ``kanaszta_env.cards`` (``"AH"``, ``"10S"``, ``"JK"``).

    >>> meld_value(["4S", "5S", "6S", "2C", "8S"])   # the wild stands for the 7 (T17.1)
    35
    >>> canasta_kind(["5H", "2C", "7H", "8H", "9H", "10H", "6H"])
    'half'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ...cards import NUM_TYPES, parse_cards
from ...variants import TURKISH

#: canasta kinds in the engine's order (T8.1): 0 none, 1 half, 2 whole, 3 full
KINDS = ("none", "half", "whole", "full")

__all__ = [
    "KINDS",
    "MeldStatus",
    "canasta_kind",
    "is_meld",
    "meld_status",
    "meld_value",
    "opens",
    "pair_score",
]


class MeldStatus(NamedTuple):
    """What the engine reads from a meld's cards (:func:`meld_status`)."""

    legal: bool  # a legal set or run (T5-T7)
    extendable: bool  # legal, or more cards can make it legal
    run: bool  # a legal run (else a legal set, when ``legal``)
    naturals: int  # natural cards of a legal meld (a 2 in its own place included)
    wilds: int  # 0 or 1
    value: int  # T1.5 card value of a legal meld
    full: bool  # a run of all 13 ranks as naturals (T8.4)


def meld_status(counts: np.ndarray) -> MeldStatus:
    """:class:`MeldStatus` of the card counts ``counts`` (53 types, ``kanaszta_env.cards`` order):
    the fast form for bots, which hold counts already."""
    melds = _kernels("melds")
    status, shape, naturals, wilds, value, full = melds.analyse(np.asarray(counts, dtype=np.int8))
    return MeldStatus(
        status == melds.VALID, status != melds.DEAD, shape == melds.SHAPE_RUN, naturals, wilds, value, full
    )


def _counts(cards: Sequence[str], what: str = "meld") -> np.ndarray:
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise ValueError(f"a {what} is a list of card names, got {cards!r}")
    counts = np.zeros(NUM_TYPES, dtype=np.int8)
    for t in parse_cards(cards):
        counts[t] += 1
    if (counts > 2).any():
        raise ValueError(f"{what} {list(cards)} holds more than the 2 copies of a card in the deck (T1.1)")
    return counts


def _analysis(cards: Sequence[str]) -> tuple:
    return _kernels("melds").analyse(_counts(cards))


def is_meld(cards: Sequence[str]) -> bool:
    """Whether ``cards`` are a legal set or run (T5-T7)."""
    return _analysis(cards)[0] == _kernels("melds").VALID


def meld_value(cards: Sequence[str]) -> int:
    """T1.5 card value of the legal meld ``cards`` (a 2 in its own place in a run counts 5)."""
    status, *_, value, _ = _analysis(cards)
    if status != _kernels("melds").VALID:
        raise ValueError(f"{list(cards)} is not a legal set or run (T5-T7)")
    return int(value)


def canasta_kind(cards: Sequence[str], before: str = "none") -> str:
    """T8.2-T8.3: the canasta kind of the legal meld ``cards`` at the end of a turn, given its
    kind at the turn's start (``before``): a meld that first holds 7+ cards is ``"whole"``
    with 7 naturals, else ``"half"``; the kind then stays, except that a run holding all 13
    ranks as naturals is ``"full"``. ``"none"`` for fewer than 7 cards."""
    if before not in KINDS:
        raise ValueError(f"before must be one of {KINDS}, got {before!r}")
    if not is_meld(cards):
        raise ValueError(f"{list(cards)} is not a legal set or run (T5-T7)")
    return KINDS[_kernels("melds").canasta_kind(_counts(cards), len(cards), KINDS.index(before))]


def opens(new_melds: Sequence[Sequence[str]], pair_total: int, forced: bool = False) -> bool:
    """T9.1 / T12.2: whether a player opens by laying ``new_melds`` in one turn, his pair's
    total before the hand being ``pair_total``. Below 900 the wild-free melds must include a
    run and be worth 45; from 900 the melds must include a wild-free run and be worth 90;
    a pair that owes a forced opening (``forced``) needs a new meld of 7 or more cards."""
    if isinstance(pair_total, bool) or not isinstance(pair_total, (int, np.integer)):
        raise ValueError(f"pair_total must be an integer, got {pair_total!r}")
    melds = np.zeros((max(len(new_melds), 1), NUM_TYPES), dtype=np.int8)
    for i, cards in enumerate(new_melds):
        if not is_meld(cards):
            raise ValueError(f"{list(cards)} is not a legal set or run (T5-T7)")
        melds[i] = _counts(cards)
    sizes = melds.sum(axis=1).astype(np.int8)
    conditions = _kernels("conditions")
    return bool(conditions.opening_met(melds, sizes, 0, len(new_melds), int(pair_total), bool(forced)))


def pair_score(
    melds: Sequence[tuple[Sequence[str], str]],
    hands: Sequence[Sequence[str]] = (),
    *,
    fis_taken: int = 0,
    fis_used: int = 0,
    went_out: bool = False,
    forced_failed: bool = False,
) -> int:
    """T14: one pair's score for a hand. ``melds`` are the pair's melds as ``(cards, kind)``
    with the kind fixed by the engine (:data:`KINDS`); ``hands`` the cards left in the hands the
    pair is charged for (leave out a hand that is a Fi its holder could not use, T11.3);
    ``fis_taken`` the Fis the pair took and ``fis_used`` how many of them count as used;
    ``went_out``: a partner went out; ``forced_failed``: the other pair went out while this
    pair still owed its forced canasta opening (T12.3, −600 instead of −100)."""
    for name, flag in (("went_out", went_out), ("forced_failed", forced_failed)):
        if not isinstance(flag, bool):
            raise ValueError(f"{name} must be True or False, got {flag!r}")
    if not (0 <= fis_used <= fis_taken <= 2):
        raise ValueError(
            f"need 0 <= fis_used <= fis_taken <= 2, got fis_taken={fis_taken}, fis_used={fis_used}"
        )
    if forced_failed and (went_out or fis_taken):
        raise ValueError("forced_failed describes a pair without a Fi whose opponents went out (T12.3)")
    counts = np.zeros((max(len(melds), 1), NUM_TYPES), dtype=np.int8)
    kinds = np.zeros(max(len(melds), 1), dtype=np.int8)
    for i, (cards, kind) in enumerate(melds):
        if not is_meld(cards):
            raise ValueError(f"{list(cards)} is not a legal set or run (T5-T7)")
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        short = len(cards) < TURKISH.canasta_size
        if (kind == "none") != short or (kind == "full" and canasta_kind(cards) != "full"):
            raise ValueError(f"{list(cards)} cannot be a {kind!r} canasta (T8)")
        counts[i], kinds[i] = _counts(cards), KINDS.index(kind)
    score = _kernels("score")
    cost = sum(int(score.hand_value(_counts(hand, "hand"))) for hand in hands)
    return int(
        score.score_parts(counts, kinds, len(melds), fis_taken, fis_used, went_out, cost, forced_failed)
    )


def _kernels(module: str):
    """A module of the engine's compiled Turkish kernels."""
    from ...engine.kernels import kernels_for

    return kernels_for(TURKISH).game_module(module)
