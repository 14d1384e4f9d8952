"""Turkish kanasta (docs/rules/turkish.md; preset ``tr``) as a :class:`~.spec.Variant`."""

from __future__ import annotations

from ..cards import NUM_TYPES
from .spec import Variant, card_values

# T1.5: the value of a card as a wild or in hand (a 2 left in hand, T1.5 [D]; a natural 2 in its
# run: 5); threes are low cards
_VALUES = card_values(joker=10, ace=15, two=10, black_three=5, red_three=5)

TURKISH = Variant(
    name="turkish",
    title="Turkish kanasta",
    rules_page="docs/rules/turkish.md",
    type_copies=(2,) * (NUM_TYPES - 1) + (2,),  # T1.1: two decks and two jokers, 106 cards
    card_value=_VALUES,
    hand_penalty=_VALUES,  # T14.5: every card left in hand counts its value
    player_counts=(4,),  # T2.1
    partnerships=True,
    cut_cards=0,  # T3: no cut, no upcard
    deal_starter=11,  # T3.1 (and two 11-card Fi packets)
    deal_others=11,
    rule_set="games.turkish.kernels.rule_set",
    meld_family="turkish",  # sets and runs in meld slots (T5-T7)
    min_meld=3,  # T5.5
    max_natural_group=13,  # a run of all 13 ranks (T6.2)
    max_wild_group=0,  # no wilds-only melds
    canasta_size=7,  # T8.1
    canasta_bonus=(0, 100, 200, 500),  # none, half, whole, full (T8.1)
    wild_group_card_opening=0,
    red_three_each=0,  # no red or black threes (T1.4)
    all_red_threes=0,
    twin=0,
    going_out=50,  # T14.3
    from_hand=0,
    table_clearing=0,
    table_clearing_pile=0,
    separate_heart_ace=0,
    tax_brackets=(1 << 40, 1 << 41, 1 << 42),  # no tax (T14)
)
