"""Turkish kanasta's independent checker (preset ``tr``): its meld analysis on the rules'
worked examples, and the engine against it at crafted meld positions.

``tests/checker_turkish.py`` re-derives, in plain Python from docs/rules/turkish.md
(T1-T17) and docs/design-turkish.md, the legal-action mask, the effect of every action
and the score of a hand. Its comparison with the engine on seeded random games (the
engine kernels ``deal.reset_game``, ``legal.legal_row``, ``game.apply_action`` playing
biased random legal actions; the mask at every state, the state after every action,
``hand_scores`` at every hand's end; every event counted so that it cannot pass
vacuously) is tests/conformance/test_masks.py; ``benchmarks/check_masks.py`` runs it on
100,000 states.
"""

from __future__ import annotations

from checker_turkish import (
    can_become_legal,
    canasta_kind,
    compare_crafted_melds,
    meld_reading,
    meld_value,
)

from kanaszta_env.cards import cards_to_counts


def c(*cards: str) -> list[int]:
    return cards_to_counts(list(cards)).tolist()


def test_t17_1_checker_meld_values_and_legality() -> None:
    """T17.1 worked examples through the checker's meld analysis (T1.5, T5-T7)."""
    assert meld_value(c("7S", "7H", "2D")) == 20
    assert meld_value(c("8S", "8H", "2D")) == 30
    assert meld_value(c("AS", "AH", "2D")) == 40
    assert meld_value(c("4H", "5H", "6H", "2C", "8H")) == 35
    assert meld_value(c("8D", "9D", "10D", "2S", "QD")) == 50
    assert meld_value(c("AS", "2S", "3S", "4S", "5S", "6S", "7S")) == 45  # natural 2S
    for bad in (("5H", "6H", "2C"), ("8H", "2C", "10H"), ("JK", "5H", "6H"), ("8S", "8H", "2D", "JK")):
        assert meld_reading(c(*bad)) is None, bad
    assert meld_reading(c("10H", "2C", "QH")) is None  # T17.3
    assert meld_reading(c("QS", "KS", "AS")) is not None  # T6.2 ace high
    assert meld_reading(c("KS", "AS", "2S")) is None  # no wrap
    assert can_become_legal(c("8H", "8H")) and can_become_legal(c("8H", "10H"))
    assert not can_become_legal(c("8H", "8H", "9H")) and not can_become_legal(c("8H", "2C", "JK"))
    assert can_become_legal(c("AH", "2H", "2C"))  # one 2H natural, the 2C the wild


def test_t17_4_checker_canasta_kinds() -> None:
    """T17.4: kinds settled at the end of the completing turn (T8.2-T8.3)."""
    assert canasta_kind(c("5S", "5H", "5D", "2C", "5S", "5H", "5D", "5C"), 0) == 2
    assert canasta_kind(c("5S", "5H", "5D", "5C", "5S", "5H", "2C"), 0) == 1
    assert canasta_kind(c("5H", "JK", "7H", "8H", "9H", "10H", "6H", "4H"), 0) == 2
    assert canasta_kind(c("5H", "JK", "7H", "8H", "9H", "10H", "6H"), 0) == 1
    assert canasta_kind(c("2H", "5H", "6H", "7H", "8H", "3H", "4H"), 0) == 2
    full = [f"{r}D" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    assert canasta_kind(c(*full), 0) == 3 and meld_value(c(*full)) == 105
    assert canasta_kind(c(*full, "JK"), 1) == 3 and meld_value(c(*full, "JK")) == 115


def test_t5_t12_mask_equals_checker_at_crafted_meld_positions() -> None:
    """The mask, and the state after one action, at 5,000 crafted meld-phase positions:
    random near-legal sets and runs laid this turn (wilds, 2s of the run's suit, aces high
    and low), older melds added to, hands of 1-8 cards, opened or not, layer-offs, forced
    pairs, Fis left or not, pair totals on both sides of 900
    (T5-T7, T9.1, T10.2, T12.2, design-turkish.md)."""
    stats = compare_crafted_melds(5_000, seed=3)
    assert stats["mask_mismatches"] == stats["state_mismatches"] == 0, "\n-----\n".join(stats["examples"])
    events = stats["events"]
    assert min(events["complete"], events["incomplete"], events["hand_1"], events["hand_2"]) > 100, dict(
        events
    )
    # one action is then played from each position and the states compared too
    for e in (
        "opening",
        "marked_at_fi_by_melding",
        "fi_by_melding",
        "forced_made",
        "out",
        "full",
        "half",
        "whole",
    ):
        assert events[e] > 0, (e, dict(events))
