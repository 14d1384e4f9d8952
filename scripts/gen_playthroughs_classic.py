"""Generate the golden playthroughs of classic canasta in ``tests/playthroughs/``.

The classic counterpart of ``scripts/gen_playthroughs.py`` (same file layout,
same replay check in ``tests/test_playthroughs.py``): one seeded hand of a
classic preset recorded state by state. Before every action the position is
rendered as compact text — from its position document
(:func:`kanaszta_env.position.dump`, docs/position.md), so the golden files
also pin the classic position format — followed by the sorted legal action
names and the action taken; the file ends with the sides' scores and the
seats' rewards. The actions come from a deterministic, seeded pseudo-random
policy biased towards pile pickups, melds, asking the partner and going out.

Regenerate (after an intended change of behaviour) with::

    python scripts/gen_playthroughs_classic.py
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kanaszta_env import GameBatch, Rules, position
from kanaszta_env.actions_classic import action_from_name

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "tests" / "playthroughs"
WIDTH = 100
ACTION_PREFIX = "action: "
END_REASONS = {"out": "went out", "exhausted": "stock exhausted", "turn_limit": "turn limit"}


@dataclass(frozen=True)
class Spec:
    """One playthrough: its file name, rules and the seed of deal and policy."""

    name: str
    variant: str
    num_players: int
    seed: int
    max_turns: int

    @property
    def rules(self) -> Rules:
        """The rules the hand is played under (one hand per episode)."""
        return Rules(variant=self.variant, num_players=self.num_players, max_turns=self.max_turns)

    @property
    def path(self) -> Path:
        return OUT_DIR / f"{self.name}.txt"


# Seeds picked by trying the first seeds of each setting: each hand shows pile
# pickups, melds and a canasta, and ends with a player going out.
SPECS = (
    Spec("4p_pl", "pl", 4, 0, 80),
    Spec("4p_sk", "sk", 4, 0, 80),
)

Chooser = Callable[[GameBatch, list[str]], str | None]


# --- rendering (from the position document) ------------------------------------------------
def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def _wrap(label: str, text: str) -> list[str]:
    indent = " " * len(label)
    return textwrap.wrap(
        text, WIDTH, initial_indent=label, subsequent_indent=indent, break_on_hyphens=False
    ) or [label.rstrip()]


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


def header(spec: Spec) -> list[str]:
    rules = spec.rules
    return [
        f"# kanaszta-env playthrough {spec.name}",
        "# Generated by scripts/gen_playthroughs_classic.py; regenerate with: "
        "python scripts/gen_playthroughs_classic.py",
        "# Checked by tests/test_playthroughs.py (replays the actions below from the seed).",
        f"# rules: variant={rules.variant} num_players={rules.num_players} "
        f"opening_minimum={rules.opening_minimum} max_turns={rules.max_turns} episode={rules.episode}",
        f"# seed: {spec.seed}",
        "# a meld marked * is a canasta (7+ cards); [X] is the top of the discard pile",
    ]


# --- recording --------------------------------------------------------------------------
def record(spec: Spec, choose: Chooser) -> str:
    """Play one hand of ``spec`` with ``choose`` and return the playthrough text."""
    games = GameBatch(spec.rules, 1)
    games.reset(seed=spec.seed)
    lines = header(spec)
    rewards = np.zeros(spec.num_players)
    step = 0
    while not games.done[0]:
        legal = sorted(games.legal_names(0))
        lines.append("")
        lines.append(f"## step {step}")
        lines += render_state(games)
        lines += _wrap("legal: ", " ".join(legal))
        name = choose(games, legal)
        if name is None or name not in legal:
            lines.append(f"replay stopped: recorded action {name!r} is not legal here")
            return "\n".join(lines) + "\n"
        lines.append(ACTION_PREFIX + name)
        rewards += games.step(np.array([action_from_name(name)])).rewards[0]
        step += 1
    lines.append("")
    lines.append(f"## final (after {step} actions)")
    lines += render_state(games)
    lines += render_result(games, rewards)
    return "\n".join(lines) + "\n"


def parse_actions(text: str) -> list[str]:
    return [line[len(ACTION_PREFIX) :] for line in text.splitlines() if line.startswith(ACTION_PREFIX)]


def replayer(actions: list[str]) -> Chooser:
    queue = list(actions)

    def choose(games: GameBatch, legal: list[str]) -> str | None:
        return queue.pop(0) if queue else None

    return choose


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


def main(argv: list[str] | None = None) -> int:
    """Write every classic playthrough (or, with ``--check``, report the stale ones)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, do not write")
    args = parser.parse_args(argv)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    stale = 0
    for spec in SPECS:
        text = record(spec, policy(spec.seed))
        old = spec.path.read_text() if spec.path.exists() else None
        status = "unchanged" if old == text else "changed"
        if args.check:
            stale += old != text
        elif old != text:
            spec.path.write_text(text)
        print(f"{spec.path.relative_to(ROOT)}: {text.count(chr(10))} lines, {status}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
