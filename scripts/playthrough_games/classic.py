"""Classic canasta's playthroughs (presets ``pl`` and ``sk``): the hands recorded
(:data:`SPECS`), their rendering from the position document (:func:`kanaszta_env.position.dump`,
so the golden files also pin the classic position format) and a deterministic, seeded
pseudo-random policy biased towards pile pickups, melds, asking the partner and going out."""

from __future__ import annotations

from collections import Counter

import numpy as np

from kanaszta_env import GameBatch, position

from .recorder import Chooser, Spec, _wrap

END_REASONS = {"out": "went out", "exhausted": "stock exhausted", "turn_limit": "turn limit"}


# Seeds picked by trying the first seeds of each setting: each hand shows pile
# pickups, melds and a canasta, and ends with a player going out.
SPECS = (
    Spec("4p_pl", "pl", 4, 0, 80),
    Spec("4p_sk", "sk", 4, 0, 80),
)


# --- rendering (from the position document) ------------------------------------------------
def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def _meld_text(cards: list[str]) -> str:
    naturals = [c for c in cards if not c.startswith(("2", "JK"))]
    if all(c in ("3S", "3C") for c in cards):
        name = "black 3"
    elif not naturals:
        name = "wild"
    else:
        name = naturals[0][:-1]
    mark = "*" if len(cards) >= 7 and name != "black 3" else ""
    return f"{name}({len(cards)}{mark}): {' '.join(cards)}"


def render_state(games: GameBatch) -> list[str]:
    """Compact text of game 0: table, seats, sides and the turn's state."""
    doc = position.dump(games)
    phase, to_move = doc["phase"], doc["to_move"]
    head = f"phase {phase} · to move P{to_move}"
    if doc["mover"] != to_move:
        head += f" (answering P{doc['mover']})"
    lines = [head + f" · turn {doc['turn']}"]
    pile = list(doc["discard"])
    if pile:
        pile[-1] = f"[{pile[-1]}]"
    lines += _wrap("table  ", f"stock {len(doc['stock'])} · discard {len(pile)}: {_cards(pile)}")
    sides = list(games.rules.sides())
    for q, p in enumerate(doc["players"]):
        marker = ">" if q == to_move and phase != "over" else " "
        status = f"hand {len(p['hand'])}: {_cards(p['hand'])}"
        if doc["sitter"] == q:
            status = "sits this hand out"
        lines += _wrap(f"P{q}{marker} s{sides[q]} ", status)
        if p["known"]:
            lines += _wrap("        ", f"known: {_cards(p['known'])}")
    for i, side in enumerate(doc["sides"]):
        melds = " | ".join(_meld_text(m) for m in side["melds"]) or "-"
        seats = " ".join(f"P{q}" for q, d in enumerate(sides) if d == i)
        lines += _wrap(f"side {i} ", f"({seats}) opened {'yes' if side['opened'] else 'no'} · red threes "
                       f"{side['red_threes']} · melds: {melds}")  # fmt: skip
    turn = doc["turn_state"]
    parts = []
    if turn["pickup"]:
        parts.append(f"took the pile (top {turn['pickup']})")
        if phase == "pickup":
            parts.append(f"obligatory meld open, {len(doc['discard'])} pile card(s) to follow")
    if turn["locked"]:
        parts.append(f"not meldable this turn: {_cards(turn['locked'])}")
    if turn["asked"] != "none":
        parts.append(f"asked: {turn['asked']}")
    if turn["changed"] and phase != "over":
        parts.append("laid cards this turn")
    if parts:
        lines += _wrap("turn   ", " · ".join(parts))
    return lines


def render_result(games: GameBatch, rewards: np.ndarray) -> list[str]:
    doc = position.dump(games)
    reason = END_REASONS[doc["end_reason"]]
    if doc["out_player"] is not None:
        reason += f" (P{doc['out_player']}, by {doc['out_how']})"
    lines = [f"end: {reason} after {doc['turn']} turns"]
    for i, side in enumerate(doc["sides"]):
        lines.append(f"side {i}: hand score {side['hand_score']} · total {side['total']}")
    lines.append("rewards: " + " ".join(f"P{q} {float(r):+.1f}" for q, r in enumerate(rewards)))
    return lines


# --- recording: the shared recorder with this game's renderers --------------------------------
RENDERERS = (render_state, render_result)
LEGEND = ("a meld marked * is a canasta (7+ cards); [X] is the top of the discard pile",)


# --- the biased random policy -----------------------------------------------------------
def _rank(card: str) -> str:
    return card[:-1]


def _useful(name: str, hand: Counter, melds: dict[str, int], opened: bool) -> bool:
    """Whether a meld action builds a meld that can stand: onto an existing meld, or a rank
    held three times (or twice with a wild); black threes and wild melds only when chosen."""
    parts = name.split("_")
    if name in ("meld_black_three", "meld_2_to_wild", "meld_JK_to_wild"):
        return True
    rank = parts[-1]
    if melds.get(rank, 0) > 0:
        return True
    wilds = hand["2"] + hand["JK"]
    if len(parts) > 2:  # a wild onto a rank: only onto naturals already down
        return False
    return hand[rank] >= 3 or (hand[rank] == 2 and wilds > 0) or (opened and hand[rank] >= 2)


def policy(seed: int) -> Chooser:
    """A deterministic pseudo-random policy biased to take the pile, meld and go out."""
    rng = np.random.default_rng(seed)

    def pick(names: list[str], weights: list[float] | None = None) -> str:
        if weights is None:
            return names[int(rng.integers(len(names)))]
        w = np.asarray(weights, dtype=np.float64)
        return names[int(rng.choice(len(names), p=w / w.sum()))]

    def choose(games: GameBatch, legal: list[str]) -> str:
        if "take_pile" in legal:
            return "take_pile"
        if "ask" in legal:
            return "ask"
        if "yes" in legal:
            return "yes" if rng.random() < 0.8 else "no"
        doc = position.dump(games)
        mover = doc["mover"]
        side = doc["sides"][list(games.rules.sides())[mover]]
        hand = Counter(_rank(c) if not c.startswith("JK") else "JK" for c in doc["players"][mover]["hand"])
        melds: dict[str, int] = {}
        for meld in side["melds"]:
            for c in meld:
                if not c.startswith(("2", "JK")):
                    melds[_rank(c)] = len(meld)
        discards = [n for n in legal if n.startswith("discard_")]
        useful = [n for n in legal if n.startswith("meld_") and _useful(n, hand, melds, side["opened"])]
        if useful and (not discards or rng.random() < 0.9):
            return pick(useful)
        if discards:
            weights = []
            for n in discards:
                kind = n.split("_")[1]
                weights.append(
                    0.05 if kind in ("2", "JK") else 0.3 if kind in melds else 1.0 / max(hand[kind], 1)
                )
            return pick(discards, weights)
        return "withdraw" if "withdraw" in legal else pick(legal)

    return choose
