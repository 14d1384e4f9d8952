"""Turkish kanasta's independent checker (preset ``tr``): the engine against it at crafted
meld positions. Its meld analysis on the rules' worked examples (T17.1, T17.4):
tests/test_turkish_rules.py.

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

from checker_turkish import compare_crafted_melds


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
