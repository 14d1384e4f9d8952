"""Mini canasta (M1-M9 of the package docstring) as a :class:`~kanaszta_env.variants.Variant`."""

from __future__ import annotations

from kanaszta_env.cards import JOKER, NUM_TYPES, RANK_2, card_rank
from kanaszta_env.variants import Variant

_ACE = 0
_LAST_LOW_RANK = 6  # 3 to 7 are worth 5 (M1)


def _value(t: int) -> int:
    """M1: the value of a card of type ``t``."""
    if t == JOKER:
        return 50
    rank = card_rank(t)
    return 20 if rank in (_ACE, RANK_2) else 5 if rank <= _LAST_LOW_RANK else 10


_VALUES = tuple(_value(t) for t in range(NUM_TYPES))

MINI = Variant(
    name="mini_canasta",
    title="Mini canasta",
    rules_page="tests/fourth_game/__init__.py",
    type_copies=(1,) * (NUM_TYPES - 1) + (2,),  # M1
    card_value=_VALUES,
    hand_penalty=_VALUES,  # M8
    player_counts=(2,),  # M2
    partnerships=False,
    cut_cards=0,
    deal_starter=7,  # M2
    deal_others=7,
    rule_set="fourth_game.kernels.rule_set",  # outside kanaszta_env: the seam this game proves
    meld_family="mini_rank_melds",  # one meld per player and natural rank (M4)
    min_meld=3,  # M4
    max_natural_group=7,  # four naturals and three wilds (M5)
    max_wild_group=0,
    canasta_size=5,  # M8
    canasta_bonus=(0, 100),  # M8: none, a canasta
    wild_group_card_opening=0,
    red_three_each=0,
    all_red_threes=0,
    twin=0,
    going_out=100,  # M8
    from_hand=0,
    table_clearing=0,
    table_clearing_pile=0,
    separate_heart_ace=0,
    tax_brackets=(1 << 40, 1 << 41, 1 << 42),  # no tax
)
