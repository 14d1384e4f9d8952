"""Writing documents: the canonical document of a parsed position."""

from __future__ import annotations

from ....cards import GROUP_NAMES, TYPE_NAMES
from ....position.cardlists import doc_groups, names
from .parse import derived_checkpoint
from .schema import PLAYER_OPTIONAL, PLAYER_REQUIRED


def to_doc(c: dict) -> dict:
    """The canonical document of a parsed position: every key, except a
    checkpoint that ``load`` would derive anyway (docs/position.md)."""
    schedule = c["rules"].opening_schedule
    player_keys = (*PLAYER_REQUIRED, *PLAYER_OPTIONAL)
    players = []
    for p in c["players"]:
        doc = {k: p[k] for k in player_keys}
        doc.update(hand=names(p["hand"]), groups=doc_groups(p["groups"]), known=names(p["known"]))
        players.append(doc)
    cut = c["cut"]
    return {
        "variant": c["variant"],
        "opening_minimum": c["opening_minimum"],
        "opening_schedule": None if schedule is None else [list(step) for step in schedule],
        **{k: getattr(c["rules"], k) for k in ("target_score", "max_turns", "episode", "max_hands")},
        **{k: c[k] for k in ("num_players", "starter", "to_move", "phase", "turn", "hand_number", "rng")},
        "end_reason": c["end_reason"],
        "out_player": c["out_player"],
        "stock": names(c["stock"]),
        "stock_known_bottom": c["stock_known_bottom"],
        "discard": names(c["discard"]),
        "discard_owners": list(c["discard_owners"]),
        "top_fresh": c["top_fresh"],
        "cut": None if cut is None else {"cards": names(cut["cards"]), "kept": list(cut["kept"])},
        "players": players,
        "turn_state": _turn_state_doc(c),
    }


def _turn_state_doc(c: dict) -> dict:
    """The ``turn_state`` object; the checkpoint only where it cannot be derived,
    so that a dumped position can be edited by hand without a stale copy of the
    mover's cards."""
    cp, pickup = c["checkpoint"], c["pickup"]
    lifted, source = c["lifted"], c["lifted_from"]
    out: dict = {}
    if cp != derived_checkpoint(c):
        out["checkpoint"] = {
            "hand": names(cp["hand"]),
            "groups": doc_groups(cp["groups"]),
            "separate_heart_aces": cp["separate_heart_aces"],
        }
    out.update(
        locked={GROUP_NAMES[g]: list(pair) for g, pair in sorted(c["locked"].items())},
        lifted=None if lifted is None else TYPE_NAMES[lifted],
        lifted_from=None if source is None else GROUP_NAMES[source],
        changed=c["changed"],
        pickup={**pickup, "card": None if pickup["card"] is None else TYPE_NAMES[pickup["card"]]},
    )
    return out
