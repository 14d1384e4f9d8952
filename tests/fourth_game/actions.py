"""The action space of mini canasta (M3-M7): ``draw``, then per natural rank ``meld_<rank>``,
``add_<rank>`` and ``wild_<rank>``, then ``discard_<card>`` for each of the 53 card types."""

from __future__ import annotations

from kanaszta_env.cards import NUM_TYPES, RANK_2, RANKS, TYPE_NAMES

#: the natural ranks a meld is made of (M4): A, 3 ... K
MELD_RANKS = tuple(r for r in range(len(RANKS)) if r != RANK_2)
NUM_MELDS = len(MELD_RANKS)
DRAW = 0
MELD0 = 1  # + i: a new meld of MELD_RANKS[i] (M4)
ADD0 = MELD0 + NUM_MELDS  # + i: a natural on the meld of MELD_RANKS[i] (M5)
WILD0 = ADD0 + NUM_MELDS  # + i: a wild on the meld of MELD_RANKS[i] (M5)
DISCARD0 = WILD0 + NUM_MELDS  # + t: discard a card of type t (M3)
NUM_ACTIONS = DISCARD0 + NUM_TYPES

ACTION_NAMES = (
    "draw",
    *(f"{verb}_{RANKS[r]}" for verb in ("meld", "add", "wild") for r in MELD_RANKS),
    *(f"discard_{name}" for name in TYPE_NAMES),
)
assert len(ACTION_NAMES) == NUM_ACTIONS
