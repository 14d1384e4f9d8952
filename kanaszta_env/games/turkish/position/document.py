"""Writing the canonical document of a parsed Turkish position."""

from __future__ import annotations

from ....position.fields import changed_rules
from .cards import doc_meld, names
from .parse import RULE_KEYS, derived_checkpoint


def _fi_doc(fi: dict) -> dict:
    if fi["taker"] is None:
        return {"cards": names(fi["cards"])}
    return {"taker": fi["taker"], "used": fi["used"]}


def _same_checkpoint(a: dict, b: dict) -> bool:
    strip = [(m["owner"], m["cards"]) for m in a["melds"]]
    return a["hand"] == b["hand"] and strip == [(m["owner"], m["cards"]) for m in b["melds"]]


def to_doc(c: dict) -> dict:
    """The canonical document: every key, except a checkpoint equal to the one ``load``
    derives (docs/position.md, "Turkish kanasta")."""
    out = {
        "variant": c["variant"],
        "rules": changed_rules(c["rules"], RULE_KEYS, variant="tr"),
        **{k: c[k] for k in ("phase", "to_move", "starter", "turn", "hand_number", "target", "rng")},
        **{k: c[k] for k in ("end_reason", "out_player")},
        "stock": names(c["stock"]),
        "discard": names(c["discard"]),
        "fis": [_fi_doc(fi) for fi in c["fis"]],
        "players": [
            {
                "hand": names(p["hand"]),
                "known": names(p["known"]),
                "opened": p["opened"],
                "layoff": p["layoff"],
            }
            for p in c["players"]
        ],
        "pairs": [
            {
                "melds": [doc_meld(m) for m in pair["melds"]],
                "forced": pair["forced"],
                "total": pair["total"],
                "hand_score": pair["hand_score"],
            }
            for pair in c["pairs"]
        ],
    }
    cp = c["checkpoint"]
    if cp is not None and not _same_checkpoint(cp, derived_checkpoint(c)):
        out["checkpoint"] = {"hand": names(cp["hand"]), "melds": [doc_meld(m, False) for m in cp["melds"]]}
    return out
