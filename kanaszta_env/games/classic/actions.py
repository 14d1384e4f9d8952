"""The action space of classic canasta (presets ``pl`` and ``sk``, docs/rules/classic.md).

Suits carry no meaning in classic canasta except the colour of a three, so the
actions name ranks: ``meld_K`` lays a king, ``meld_2_to_K`` a two on the kings,
``discard_9`` a nine. The engine takes the card of the first suit held, in
``S H D C`` order (the suit is kept only so that positions list real cards).
A turn is e.g. ``draw, meld_K, meld_K, meld_K, meld_2_to_K, discard_9``.
"""

from __future__ import annotations

from ...action_lookup import name_lookup
from ...cards import GROUP_NAMES, NATURAL_RANKS

DRAW = 0  # draw the top stock card (C4.1)
TAKE_PILE = 1  # take the whole discard pile (C7)
END_HAND = 2  # stock empty: decline the pile, the hand ends with nobody out (C4.5)
MELD0 = 3  # 11 actions: a natural of rank group g onto the side's meld -> MELD0 + g
TWO0 = MELD0 + 11  # 11 actions: a 2 onto the meld of group g
JOKER0 = TWO0 + 11  # 11 actions: a joker onto the meld of group g
TWO_TO_WILD = JOKER0 + 11  # sk: a 2 onto the side's wild meld (C5.6)
JOKER_TO_WILD = TWO_TO_WILD + 1
BLACK_THREE = JOKER_TO_WILD + 1  # pl: a black three onto the black-three meld when going out (C10.2)
WITHDRAW = BLACK_THREE + 1  # take back every card laid this turn (C5.8)
ASK = WITHDRAW + 1  # pl: "may I go out?" to the partner (C12.5)
ANSWER_YES = ASK + 1  # the partner's binding answers
ANSWER_NO = ANSWER_YES + 1
DISCARD0 = ANSWER_NO + 1  # 14 actions: discard a card of kind k -> DISCARD0 + k
NUM_ACTIONS = DISCARD0 + 14

#: discard kinds: the 11 natural rank groups, then the black three, the 2 and the joker
KIND_BLACK_THREE = 11
KIND_TWO = 12
KIND_JOKER = 13
NUM_KINDS = 14
KIND_NAMES = (*GROUP_NAMES[:11], "3", "2", "JK")
RANK_NAMES = GROUP_NAMES[:11]
assert len(NATURAL_RANKS) == 11


def _build_names() -> tuple[str, ...]:
    names = ["draw", "take_pile", "end_hand"]
    names += [f"meld_{r}" for r in RANK_NAMES]
    names += [f"meld_2_to_{r}" for r in RANK_NAMES]
    names += [f"meld_JK_to_{r}" for r in RANK_NAMES]
    names += ["meld_2_to_wild", "meld_JK_to_wild", "meld_black_three", "withdraw", "ask", "yes", "no"]
    names += [f"discard_{k}" for k in KIND_NAMES]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES = _build_names()
action_name, action_from_name = name_lookup(ACTION_NAMES, "classic canasta")
