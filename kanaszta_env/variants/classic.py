"""Classic canasta (docs/rules/classic.md; presets ``pl`` and ``sk``) as a :class:`~.spec.Variant`.

The two presets share one compiled rule set: their differences (C0) are
runtime keys of :class:`~kanaszta_env.rules.Rules`. Arrays are sized for the
largest deck, sk's 162 cards for six players (C1.1); smaller games use 108.
"""

from __future__ import annotations

from ..cards import BLACK_THREES, NUM_TYPES
from .spec import Variant, card_values

# C1.6: the value of a card laid in a meld (a black three: pl's black-three meld; a red three has
# no card value, C9)
_VALUES = card_values(joker=50, ace=20, two=20, black_three=5, red_three=0)

CLASSIC = Variant(
    name="classic",
    title="Classic canasta",
    rules_page="docs/rules/classic.md",
    type_copies=(3,) * (NUM_TYPES - 1) + (6,),  # the largest deck: sk's 162 cards (C1.1)
    card_value=_VALUES,
    hand_penalty=tuple(100 if t in BLACK_THREES else v for t, v in enumerate(_VALUES)),  # C10.4
    player_counts=(2, 3, 4, 5, 6),
    partnerships=True,
    cut_cards=0,  # C3: no cut, an upcard
    deal_starter=15,  # the largest deal (C3.1)
    deal_others=15,
    rule_set="games.classic.kernels.rule_set",
    meld_family="classic",  # one meld per rank per side, sk wild melds, pl black-three melds
    min_meld=3,  # C5.1
    max_natural_group=12,  # C5.3: every natural of a rank with three decks
    max_wild_group=7,  # C5.6
    canasta_size=7,  # C6.1
    canasta_bonus=(0, 300, 500, 800, 1000),  # none, mixed, natural, wild (twos), wild with a joker
    wild_group_card_opening=0,  # wilds count their own value (C11.3)
    red_three_each=100,  # C9.4
    all_red_threes=800,
    twin=0,  # no twins, free pickup, heart aces or tax (summary 3)
    going_out=100,  # C13.3
    from_hand=0,  # per preset (Rules.from_hand)
    table_clearing=0,
    table_clearing_pile=0,
    separate_heart_ace=0,
    tax_brackets=(1 << 40, 1 << 41, 1 << 42),  # no tax
)
