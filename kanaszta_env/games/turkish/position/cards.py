"""Card lists of a Turkish position <-> the engine's counts: the 106-card deck (two copies
of each of the 53 types, T1.1), melds as ``{"owner", "cards", "kind"}`` <-> meld slots."""

from __future__ import annotations

import numpy as np

from ....cards import TYPE_NAMES
from ....position.cardlists import counts, from_counts, names
from ....position.fields import read_cards
from ..kernels.tables import KIND_NAMES

#: copies of every card type in the deck (T1.1)
COPIES = 2
#: a meld of the parsed form: {"owner": seat, "cards": sorted types, "kind": kind name}
Meld = dict


def read_pile(value: object, where: str, sort: bool = False) -> list[int]:
    """Card types of a card list; no list may hold more copies of a card than the deck."""
    types = read_cards(value, where)
    for t in np.flatnonzero(counts(types) > COPIES):
        raise ValueError(f"{where} holds {int(counts(types)[t])} × {TYPE_NAMES[t]}; the deck has {COPIES}")
    return sorted(types) if sort else types


def melds_counts(melds: list[Meld]) -> np.ndarray:
    """(53,) counts of every card in a list of melds."""
    return counts([t for m in melds for t in m["cards"]])


def doc_meld(m: Meld, with_kind: bool = True) -> dict:
    out: dict = {"owner": m["owner"], "cards": names(m["cards"])}
    if with_kind:
        out["kind"] = m["kind"]
    return out


def melds_from_slots(melds: np.ndarray, owner: np.ndarray, kind: np.ndarray | None, count: int) -> list[Meld]:
    """The first ``count`` meld slots (card counts, owners, kinds) as parsed melds."""
    return [
        {
            "owner": int(owner[k]),
            "cards": from_counts(melds[k]),
            "kind": KIND_NAMES[int(kind[k])] if kind is not None else "none",
        }
        for k in range(count)
    ]


def write_slots(melds: list[Meld], cards: np.ndarray, owner: np.ndarray, size: np.ndarray, kind=None) -> None:
    """Write parsed melds into the slot arrays of one pair (the rest left empty)."""
    cards[:] = 0
    owner[:] = -1
    size[:] = 0
    if kind is not None:
        kind[:] = 0
    for k, m in enumerate(melds):
        cards[k] = counts(m["cards"])
        owner[k] = m["owner"]
        size[k] = len(m["cards"])
        if kind is not None:
            kind[k] = KIND_NAMES.index(m["kind"])
