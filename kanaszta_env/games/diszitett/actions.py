"""The fixed discrete action space: every decision of a turn is one atomic action.

A turn is a sequence such as ``draw, meld_KS, meld_KD, meld_KH, meld_2C_to_K,
discard_7D``. Every action has a stable string name (:func:`action_name`,
:func:`action_from_name`); ``docs/actions.md`` is generated from this module.
"""

from __future__ import annotations

import numpy as np

from ...action_lookup import name_lookup
from ...cards import (
    GROUP_NAMES,
    NATURAL_RANKS,
    NUM_GROUPS,
    NUM_TYPES,
    TYPE_NAMES,
    WILD_NAMES,
    WILD_TYPES,
    card_type,
)

KEEP = 0
LEAVE = 1
DRAW = 2
TAKE_FREE = 3
TAKE_PILE = 4
MELD0 = 5  # 44 actions: natural of rank group g and suit s -> MELD0 + 4*g + s
WILD0 = MELD0 + 44  # 60 actions: wild slot k into group g -> WILD0 + 12*k + g
HEART_ACE = WILD0 + 5 * NUM_GROUPS
LIFT0 = HEART_ACE + 1  # 24 actions: small (0) / big (1) wild out of group g
PLACE0 = LIFT0 + 2 * NUM_GROUPS  # 12 actions: put the lifted wild into group g
WITHDRAW = PLACE0 + NUM_GROUPS
DISCARD0 = WITHDRAW + 1  # 53 actions: discard a card of type t
NUM_ACTIONS = DISCARD0 + NUM_TYPES

#: card type melded by each MELD action
MELD_TYPE = np.array([card_type(NATURAL_RANKS[i // 4], i % 4) for i in range(44)], dtype=np.int8)
WILD_KIND_NAMES = ("small", "big")


def _build_names() -> tuple[str, ...]:
    names = ["keep", "leave", "draw", "take_free", "take_pile"]
    names += [f"meld_{TYPE_NAMES[t]}" for t in MELD_TYPE]
    names += [f"meld_{WILD_NAMES[k]}_to_{GROUP_NAMES[g]}" for k in range(5) for g in range(NUM_GROUPS)]
    names += ["lay_heart_ace"]
    names += [f"lift_{WILD_KIND_NAMES[k]}_from_{GROUP_NAMES[g]}" for k in range(2) for g in range(NUM_GROUPS)]
    names += [f"place_on_{GROUP_NAMES[g]}" for g in range(NUM_GROUPS)]
    names += ["withdraw"]
    names += [f"discard_{TYPE_NAMES[t]}" for t in range(NUM_TYPES)]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES = _build_names()
_NAME_TO_ACTION = {n: a for a, n in enumerate(ACTION_NAMES)}
# an id's name as in every game; a name is read below (case-insensitive for the card part only)
action_name = name_lookup(ACTION_NAMES, "Díszített kanaszta")[0]

#: phases in which each action can be legal (documentation and tests)
ACTION_PHASES: tuple[tuple[str, ...], ...] = tuple(
    ("cut",)
    if a <= LEAVE
    else ("draw",)
    if a <= TAKE_PILE
    else ("meld", "pickup")
    if a < HEART_ACE
    else ("meld",)
    if a == HEART_ACE
    else ("meld", "pickup")
    if a < WITHDRAW
    else ("meld",)
    if a == WITHDRAW
    else ("meld", "discard")
    for a in range(NUM_ACTIONS)
)


def action_from_name(name: str) -> int:
    """Action id of a name (case-insensitive for the card part), e.g. ``"meld_kh"``."""
    if not isinstance(name, str):
        raise ValueError(f"action name must be a string, got {name!r}")
    key = name.strip()
    a = _NAME_TO_ACTION.get(key)
    if a is None:
        a = _NAME_TO_ACTION.get(_canonical(key))
    if a is None:
        raise ValueError(f"unknown action name {name!r}")
    return a


def _canonical(name: str) -> str:
    parts = name.split("_")
    out = []
    for part in parts:
        up = part.upper()
        out.append(up if up in TYPE_NAMES or up in GROUP_NAMES else part.lower())
    return "_".join(out)


__all__ = [
    "ACTION_NAMES",
    "ACTION_PHASES",
    "NUM_ACTIONS",
    "WILD_TYPES",
    "action_from_name",
    "action_name",
]
