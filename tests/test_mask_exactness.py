"""The independent checker of Díszített (``tests/checker.py``) and the driver that
compares it with the engine's legal mask at every state of seeded random games (design
"Melding as atomic steps" and "Pickups"; R5, R7-R14): the comparison itself runs on every
table in tests/conformance/test_masks.py (and ``benchmarks/check_masks.py``); here the
checker's own soundness. The rule tests (tests/test_rules_*.py) compare mask and checker
at each of their hand-built positions (``rules_helpers.legal``).

``tests/checker.py`` re-derives legality in plain Python from the rules (docs/rules/diszitett.md) and
docs/design.md and decides the penalised-pickup obligation (R8) by brute-force
search. Random play is biased towards interesting states: pickups of the discard
pile are preferred, half of the games meld like a builder (extending groups,
reaching canastas, going out), and melding ends often enough for turns to pass.
In half of the games, now and then at the start of a turn, the mover's
collection and hand are redrawn from the stock (:func:`seeded_collection`) so
that canastas of every kind, short hands and pickups onto canastas are common.

``KANASZTA_LONG_TESTS=1`` runs both opening minimums of every table for longer (over
20,000 states). ``-s`` shows the statistics.
"""

from __future__ import annotations

import ast
import copy
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from checker import (
    NATURAL_GROUPS,
    PHASES,
    Checker,
    SearchBudgetExceeded,
    is_wild,
    mask_names,
    natural_group,
    position_of,
)

from kanaszta_env import position
from kanaszta_env.engine import GameBatch
from kanaszta_env.games.diszitett.actions import ACTION_NAMES
from kanaszta_env.rules import Rules

LONG = os.environ.get("KANASZTA_LONG_TESTS") == "1"
BATCH = 32
STEPS = 200 if LONG else 45  # batch steps per table and opening minimum
SEED_RATE = 0.25  # chance that a seeded game's draw state gets a redrawn collection


@dataclass
class Report:
    """What one seeded run saw."""

    states: Counter = field(default_factory=Counter)  # checked states per phase
    seeded: int = 0  # states in hands whose collection was redrawn
    skipped: int = 0  # pickup searches over budget
    mismatches: list[str] = field(default_factory=list)

    def summary(self) -> str:
        phases = ", ".join(f"{k} {v}" for k, v in sorted(self.states.items()))
        return (
            f"{sum(self.states.values())} states ({phases}; {self.seeded} in seeded hands); "
            f"skipped {self.skipped}; mismatches {len(self.mismatches)}"
        )


# --- the random players -----------------------------------------------------------
def _builder_choice(pos: dict, names: list[str], rng: np.random.Generator) -> str | None:
    """A crude meld policy that builds groups towards canastas and ends turns."""
    groups, per_group = pos["groups"], Counter()
    for card, k in pos["hand"].items():
        per_group[natural_group(card)] += k
    good = []
    for name in names:
        parts = name.split("_")
        if parts[0] == "meld" and len(parts) == 2:
            g = natural_group(parts[1])
            if g in groups or per_group[g] >= 3:
                good.append(name)
        elif (parts[0] == "meld" and len(groups.get(parts[3], [])) >= 4) or parts[0] == "place":
            good.append(name)
    if good and rng.random() < 0.9:
        return good[rng.integers(len(good))]
    discards = [n for n in names if n.startswith("discard")]
    return discards[rng.integers(len(discards))] if discards else None


def choose(pos: dict, legal: np.ndarray, builder: bool, rng: np.random.Generator) -> int:
    """One legal action: pickups preferred; melding ends with probability 0.3 a step."""
    names = [ACTION_NAMES[a] for a in legal]
    phase = pos["phase"]
    if phase == "draw":
        weights = np.array([1.0 if n == "draw" else 6.0 for n in names])
        return int(rng.choice(legal, p=weights / weights.sum()))
    if phase == "meld":
        pick = _builder_choice(pos, names, rng) if builder else None
        if pick is None and rng.random() < 0.3:
            ends = [n for n in names if n.startswith("discard")] or [n for n in names if n == "withdraw"]
            pick = ends[rng.integers(len(ends))] if ends else None
        if pick is None:
            steps = [n for n in names if not n.startswith("discard") and n != "withdraw"] or names
            pick = steps[rng.integers(len(steps))]
        return ACTION_NAMES.index(pick)
    return int(legal[rng.integers(len(legal))])


# --- redrawn collections ------------------------------------------------------------
#: (naturals, wilds) of the groups dealt by seeded_collection: every canasta kind
SHAPES = ((3, 0), (3, 1), (4, 1), (5, 1), (6, 0), (5, 2), (4, 3), (6, 1), (7, 0), (8, 0))


def seeded_collection(doc: dict, rng: np.random.Generator) -> dict | None:
    """The position ``doc`` (phase draw) with the mover's hand and groups redrawn from
    his cards and the unknown stock. Mostly an opened player with one to three
    random legal groups (sometimes a wilds-only group too) and a short or long
    hand, often with cards that fit his groups; else a player who has not opened
    and holds one or two ready-made groups and little else (going out from hand).
    Often a discard on top fits his cards, sometimes alone on the pile. None if the
    cards for it are missing."""
    doc = copy.deepcopy(doc)
    me = doc["players"][doc["to_move"]]
    cut = len(doc["stock"]) - doc["stock_known_bottom"]
    pool = Counter(doc["stock"][:cut]) + Counter(me["hand"])
    pool += sum((Counter(g) for g in me["groups"]), Counter())

    def take(wanted: object, k: int) -> list[str] | None:
        cards = [c for c in sorted(pool.elements()) if wanted(c)]  # type: ignore[operator]
        if len(cards) < k:
            return None
        picked = [cards[i] for i in rng.choice(len(cards), size=k, replace=False)]
        pool.subtract(picked)
        return picked

    def some_groups(count: int) -> list[list[str]]:
        groups = []
        for g in rng.permutation(NATURAL_GROUPS)[:count]:
            n, w = SHAPES[rng.integers(len(SHAPES))]
            naturals = take(lambda c, g=g: natural_group(c) == g, n)
            wilds = take(is_wild, w) if naturals is not None else None
            if wilds is None:
                pool.update(naturals or [])
            else:
                groups.append(naturals + wilds)
        return groups

    opened = me["separate_heart_aces"] > 0 or rng.random() < 0.75
    groups = some_groups(int(rng.integers(1, 4)))
    if opened and rng.random() < 0.35:
        wilds = take(is_wild, int(rng.integers(3, 8)))
        groups += [wilds] if wilds else []
    size = int(rng.choice([1, 1, 2, 2, 3, 5, 9, 14])) if opened else int(rng.integers(0, 3))
    hand = take(lambda c: c not in ("3H", "3D"), size)
    if not groups or hand is None:
        return None
    ranks = {natural_group(c) for grp in groups for c in grp} - {None}
    if not opened:  # the groups are still in his hand
        hand += [c for grp in groups for c in grp]
        groups = []
    elif rng.random() < 0.6:  # cards that fit his groups: extensions, displacements
        hand += take(lambda c: is_wild(c) or natural_group(c) in ranks, int(rng.integers(1, 4))) or []
    if not hand:
        return None
    me.update(hand=hand, groups=groups, opened=opened, known=[])
    if rng.random() < 0.3:  # a short pile: little or nothing joins the hand after a pickup
        pool.update(doc["discard"])
        doc["discard"], doc["discard_owners"] = [], []
    top = take(lambda c: natural_group(c) in ranks, 1) if rng.random() < 0.6 else None
    if top:
        doc["discard"].append(top[0])
        if rng.random() < 0.6:  # the makings of a pickup onto his group of that rank
            rank = natural_group(top[0])
            hand += take(lambda c: natural_group(c) == rank, int(rng.integers(1, 3))) or []
        doc["discard_owners"].append((doc["to_move"] - 1) % doc["num_players"])
    rest = list(pool.elements())
    doc["stock"] = [rest[i] for i in rng.permutation(len(rest))] + doc["stock"][cut:]
    del doc["top_fresh"], doc["turn_state"]  # their defaults fit the new position
    return doc


# --- the comparison -----------------------------------------------------------------
def _describe(pos: dict, expected: set[str], engine: set[str], repro: str) -> str:
    lines = [
        f"mask differs from the checker in phase {pos['phase']!r}",
        f"  legal for the checker only: {sorted(expected - engine)}",
        f"  legal for the engine only:  {sorted(engine - expected)}",
        "  position (checker view):",
        *[f"    {k}: {v}" for k, v in pos.items()],
        f"  reproduce: kanaszta_env.position.load(json.loads({repro!r}))",
    ]
    return "\n".join(lines)


def _derived_from_hand(pos: dict) -> int:
    """Hand cards melded into the top card's group in the pickup phase: naturals
    added since the checkpoint plus the wilds locked there (design "Pickups")."""
    g = natural_group(pos["pickup_card"])
    wilds = sum(pos["locked"].get(g, (0, 0)))
    naturals = [c for c in pos["groups"].get(g, []) if natural_group(c)]
    cp_naturals = [c for c in pos["cp_groups"].get(g, []) if natural_group(c)]
    return len(naturals) - len(cp_naturals) + wilds


def check_games(
    rules: Rules, seed: int, steps: int, batch_size: int = BATCH, collect: list | None = None
) -> Report:
    """Play ``steps`` batch steps of seeded random games, comparing mask and checker
    at every state; finished games restart with fresh seeds. ``collect`` receives
    the positions of pickup questions (phase pickup, or draw with a pile)."""
    games = GameBatch(rules, batch_size=batch_size)
    games.reset(seed=seed)
    rng = np.random.default_rng(seed)
    checker = Checker(rules)
    seeded = np.zeros(batch_size, dtype=bool)
    report = Report()
    for step in range(steps):
        for b in np.flatnonzero(games.phase == PHASES.index("draw")):  # draw: maybe redraw the collection
            if b % 4 < 2 and rng.random() < SEED_RATE:
                doc = seeded_collection(position.dump(games, int(b)), rng)
                if doc is not None:
                    for dst, src in zip(games.state, position.load(doc).state, strict=True):
                        dst[b] = src[0]
                    games.adopt()  # the engine takes the edited state as it stands
                    seeded[b] = True
        mask = games.legal_mask().copy()
        actions = np.zeros(batch_size, dtype=np.int64)
        for b in np.flatnonzero(~games.done):
            pos = position_of(games.state, b)
            report.states[pos["phase"]] += 1
            report.seeded += int(seeded[b])
            engine = mask_names(mask[b])
            if collect is not None and (pos["phase"] == "pickup" or (pos["phase"] == "draw" and pos["pile"])):
                collect.append(pos)
            try:
                expected = checker.legal_actions(pos)
            except SearchBudgetExceeded:
                report.skipped += 1
                expected = engine
            if expected != engine:
                repro = json.dumps(position.dump(games, int(b)))
                report.mismatches.append(_describe(pos, expected, engine, repro))
            if pos["phase"] == "pickup" and _derived_from_hand(pos) != pos["pickup_from_hand"]:
                report.mismatches.append(f"pickup_from_hand disagrees with the groups: {pos}")
            actions[b] = choose(pos, np.flatnonzero(mask[b]), b % 2 == 0, rng)
        games.step(actions)
        done = games.done.copy()
        if done.any():
            games.reset(seed=seed + 1_000 * (step + 1), which=done)
            seeded[done] = False
    return report


def test_checker_pickup_pruning_is_sound() -> None:
    """The pruned pickup search answers as the plain exhaustive one wherever the
    plain search finishes (R8 feasibility: the pruning only cuts dead ends)."""
    rules = Rules(num_players=2, opening_minimum=50)
    positions: list[dict] = []
    check_games(rules, seed=77, steps=25, batch_size=16, collect=positions)
    pruned, plain = Checker(rules), Checker(rules, budget=2_000, prune=False)
    compared = 0
    for pos in positions:
        try:
            expected = plain.legal_actions(pos)
        except SearchBudgetExceeded:
            continue
        assert pruned.legal_actions(pos) == expected, pos
        compared += 1
    assert compared >= 40


def test_checker_is_independent_of_the_rules_core() -> None:
    """The checker may share the card notation and the action names, nothing else."""
    tree = ast.parse(Path(__file__).with_name("checker.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert imported <= {
        "__future__",
        "collections",
        "typing",
        "numpy",
        "kanaszta_env.cards",
        "kanaszta_env.games.diszitett.actions",
    }
