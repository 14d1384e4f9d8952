"""Writing the canonical document of a parsed classic position."""

from __future__ import annotations

from ....cards import TYPE_NAMES
from .cards import doc_melds, names
from .parse import derived_checkpoint, derived_start, rule_diff


def to_doc(c: dict) -> dict:
    """The canonical document: every key, except a checkpoint and start melds equal to
    the ones ``load`` derives (docs/position.md)."""
    return {
        "variant": c["variant"],
        "num_players": c["num_players"],
        "rules": rule_diff(c["rules"]),
        **{k: c[k] for k in ("phase", "to_move", "mover", "starter", "sitter", "turn", "hand_number", "rng")},
        **{k: c[k] for k in ("end_reason", "out_player", "out_how")},
        "stock": names(c["stock"]),
        "discard": names(c["discard"]),
        "players": [
            {
                "hand": names(p["hand"]),
                "known": names(p["known"]),
                "laid_before": p["laid_before"],
                "turns_played": p["turns_played"],
            }
            for p in c["players"]
        ],
        "sides": [
            {
                "melds": doc_melds(side["melds"]),
                "red_threes": side["red_threes"],
                "opened": side["opened"],
                "total": side["total"],
                "hand_score": side["hand_score"],
            }
            for side in c["sides"]
        ],
        "turn_state": _turn_state_doc(c),
    }


def _turn_state_doc(c: dict) -> dict:
    out: dict = {
        "pickup": None if c["pickup"] is None else TYPE_NAMES[c["pickup"]],
        "locked": names(c["locked"]),
        "asked": c["asked"],
        "changed": c["changed"],
    }
    cp = c["checkpoint"]
    if cp is not None and cp != derived_checkpoint(c):
        out["checkpoint"] = {"hand": names(cp["hand"]), "melds": doc_melds(cp["melds"])}
    if c["start_melds"] is not None and c["start_melds"] != derived_start(c):
        out["start_melds"] = doc_melds(c["start_melds"])
    return out
