"""The action space of Turkish kanasta (preset ``tr``, docs/rules/turkish.md).

Melds are sets and runs, and a pair may hold several melds of one rank or
suit, so actions name a meld by its *slot*: each pair has ``MAX_MELDS`` meld
slots, filled in order as its players lay new melds (the slot records which
partner laid it). A turn is a chain of one-card actions, for example
``draw, new_8S, add_8H_to_m0, add_8C_to_m0, add_9D_to_m1, discard_KC``:

* ``draw`` / ``take_pile`` — T4.1(a);
* ``new_<card>`` — start a new meld in the mover's pair's next free slot with a
  natural (a 2 or a joker never starts a meld: build naturals first);
* ``add_<card>_to_m<k>`` — lay a card from the hand on the pair's meld in slot
  ``k`` (the mover's own meld or his partner's, T10.1); whether the meld is a
  set or a run, and where a wild stands, follow from its cards (T7.2);
* ``withdraw`` — take back everything laid since the turn's checkpoint (T9.6);
* ``discard_<card>`` — end the turn (T4.1(d)); with the last card it takes a Fi
  (T11.2(a)) or goes out (T13.1).

Suits matter in this game (runs), so every card action names the exact card.
"""

from __future__ import annotations

from ...action_lookup import name_lookup
from ...cards import NUM_TYPES, RANK_2, TYPE_NAMES, card_type

#: meld slots per pair (an environment bound, see docs/design-turkish.md)
MAX_MELDS = 24
#: card types that can start a meld: the naturals A, 3 ... K of every suit
NEW_TYPES = tuple(card_type(r, s) for r in range(13) if r != RANK_2 for s in range(4))

DRAW = 0  # draw the top stock card (T4.1a)
TAKE_PILE = 1  # take the whole discard pile (T4.1a)
WITHDRAW = 2  # take back the cards laid since the checkpoint (T9.6)
NEW0 = 3  # len(NEW_TYPES) actions: start a new meld with NEW_TYPES[i] -> NEW0 + i
ADD0 = NEW0 + len(NEW_TYPES)  # MAX_MELDS * 53 actions: card t on slot k -> ADD0 + k * 53 + t
DISCARD0 = ADD0 + MAX_MELDS * NUM_TYPES  # 53 actions: discard a card of type t -> DISCARD0 + t
NUM_ACTIONS = DISCARD0 + NUM_TYPES


def new_action(t: int) -> int:
    """Action that starts a new meld with card type ``t`` (a natural, not a 2)."""
    return NEW0 + NEW_TYPES.index(t)


def add_action(slot: int, t: int) -> int:
    """Action that lays card type ``t`` on the meld in ``slot``."""
    return ADD0 + slot * NUM_TYPES + t


def discard_action(t: int) -> int:
    """Action that discards a card of type ``t``."""
    return DISCARD0 + t


def _build_names() -> tuple[str, ...]:
    names = ["draw", "take_pile", "withdraw"]
    names += [f"new_{TYPE_NAMES[t]}" for t in NEW_TYPES]
    names += [f"add_{TYPE_NAMES[t]}_to_m{k}" for k in range(MAX_MELDS) for t in range(NUM_TYPES)]
    names += [f"discard_{TYPE_NAMES[t]}" for t in range(NUM_TYPES)]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES = _build_names()
action_name, action_from_name = name_lookup(ACTION_NAMES, "Turkish kanasta")
