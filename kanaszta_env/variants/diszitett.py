"""Díszített kanaszta (docs/rules/diszitett.md) as a :class:`~.spec.Variant`."""

from __future__ import annotations

from ..cards import BLACK_THREES, NUM_TYPES
from .spec import Variant, card_values

# R1.6: the value of each card type (a black three: its value in hand, R16.4)
_VALUES = card_values(joker=50, ace=20, two=20, black_three=-100, red_three=0)


def _card_value(t: int) -> int:
    """R1.6 value of a card of type ``t`` (black three: its value in hand, R16.4)."""
    return _VALUES[t]


DISZITETT = Variant(
    name="diszitett",
    title="Díszített kanaszta",
    rules_page="docs/rules/diszitett.md",
    type_copies=(2,) * (NUM_TYPES - 1) + (8,),  # R1.1: two decks and eight jokers, 112 cards
    card_value=_VALUES,
    hand_penalty=tuple(100 if t in BLACK_THREES else v for t, v in enumerate(_VALUES)),  # R16.4
    player_counts=(2, 3, 4),  # R2.1, each for himself
    partnerships=False,
    cut_cards=3,  # R3.1
    deal_starter=15,  # R3.3, kept cut cards included
    deal_others=14,  # R3.3
    rule_set="games.diszitett.kernels.rule_set",
    meld_family="rank_groups",  # R10: one group per natural rank and a wilds-only group
    min_meld=3,  # R10.1
    max_natural_group=8,  # R10.2
    max_wild_group=7,  # R10.3
    canasta_size=7,  # R11
    # R11, by kind: none, black wild, black, red, red wild, gold
    canasta_bonus=(0, 200, 300, 400, 500, 600),
    wild_group_card_opening=20,  # R12.3
    red_three_each=100,  # R16.1
    all_red_threes=800,  # R16.1
    twin=100,  # R16.1
    going_out=100,  # R16.1
    from_hand=100,  # R16.1-R16.2
    table_clearing=100,  # R16.1, R16.3
    table_clearing_pile=10,  # R16.3, the top card counted
    separate_heart_ace=500,  # R10.6, R16.1
    tax_brackets=(5000, 7000, 9000),  # R17.1
)
