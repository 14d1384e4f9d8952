"""An independent plain-Python reading of mini canasta's rules (M3-M8), compared with the
engine at every state of seeded random play (tests/conformance/test_masks.py finds it as
``<game package>.checker.compare``): the legal actions by name, each action's effect on
the mover's hand and melds, and every hand's scores."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from kanaszta_env import GameBatch
from kanaszta_env.cards import TYPE_NAMES

RANKS = ("A", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # M4: the natural ranks
VALUE = {"JK": 50, "A": 20, "2": 20, "8": 10, "9": 10, "10": 10, "J": 10, "Q": 10, "K": 10}  # M1, else 5
EVENTS = ("meld", "add", "wild", "canasta", "out", "exhausted", "turn_limit")


def rank(card: str) -> str:
    return card[:-1] if card != "JK" else "JK"


def wild(card: str) -> bool:
    return card == "JK" or rank(card) == "2"


def lowest(cards: Counter, pick) -> str:
    """M4, M5: the lowest card ``pick`` accepts, in card-type order (suits S H D C, 2s before JK)."""
    return next(c for c in TYPE_NAMES if cards[c] and pick(c))


def legal(phase: str, hand: Counter, melds: dict[str, Counter]) -> set[str]:
    """M3-M6: the names of the legal actions."""
    if phase != "meld":
        return {"draw"} if phase == "draw" else set()
    size, wilds = sum(hand.values()), sum(n for c, n in hand.items() if wild(c))
    out = {f"discard_{c}" for c, n in hand.items() if n}
    for r in RANKS:
        held = sum(n for c, n in hand.items() if rank(c) == r)
        meld = melds.get(r, Counter())
        naturals, on = (
            sum(n for c, n in meld.items() if not wild(c)),
            sum(n for c, n in meld.items() if wild(c)),
        )
        if not naturals and size > 3 and (held >= 3 or (held == 2 and wilds)):
            out.add(f"meld_{r}")
        elif naturals and size > 1:
            out |= {f"add_{r}"} if held else set()
            out |= {f"wild_{r}"} if wilds and on + 1 < naturals else set()
    return out


def effect(name: str, hand: Counter, melds: dict[str, Counter]) -> None:
    """M4, M5: the cards a meld or lay-off moves from the hand to the meld of its rank."""
    verb, r = name.split("_")
    moved = []
    if verb in ("meld", "add"):
        for _ in range(min(3, sum(n for c, n in hand.items() if rank(c) == r)) if verb == "meld" else 1):
            moved.append(lowest(hand, lambda c, r=r: rank(c) == r))
            hand[moved[-1]] -= 1
    if verb == "wild" or (verb == "meld" and len(moved) < 3):
        moved.append(lowest(hand, wild))
        hand[moved[-1]] -= 1
    melds.setdefault(r, Counter()).update(moved)


def score(hand: Counter, melds: dict[str, Counter], went_out: bool) -> int:
    """M8."""
    value = lambda c: VALUE.get(rank(c), 5)  # noqa: E731
    laid = sum(value(c) * n for m in melds.values() for c, n in m.items())
    canastas = sum(100 for m in melds.values() if sum(m.values()) >= 5)
    return laid + canastas + 100 * went_out - sum(value(c) * n for c, n in hand.items())


def _read(games: GameBatch, b: int, q: int) -> tuple[Counter, dict[str, Counter]]:
    s = games.state
    hand = Counter({TYPE_NAMES[t]: int(n) for t, n in enumerate(s.hand[b, q]) if n})
    melds = {RANKS[i]: Counter({TYPE_NAMES[t]: int(n) for t, n in enumerate(m) if n})
             for i, m in enumerate(s.melds[b, q]) if m.any()}  # fmt: skip
    return hand, melds


def compare(table: Any, states: int = 3000, seed: int = 7) -> dict:
    """Random play, biased towards melding, on batches of 8 hands (of 200 turns, then of 12),
    dealt again when all are over: mask, effects and scores against the rules above."""
    run: dict = {"checked": 0, "mismatches": 0, "examples": [], "unreached": []}
    events: Counter = Counter()
    rng = np.random.default_rng(seed)
    for max_turns, until in ((200, states), (12, states * 3 // 2)):
        games = GameBatch(table.rules(max_turns=max_turns), 8)
        weights = np.array(
            [4.0 if n.split("_")[0] in ("meld", "add", "wild") else 1.0 for n in games.action_names]
        )
        while run["checked"] < until:
            if not games.has_reset or games.done.all():
                games.reset(seed=seed + run["checked"])
            s, mask = games.state, games.legal_mask()
            actions = np.where(mask, rng.random(mask.shape) ** (1 / weights), -1).argmax(axis=1)
            before = []
            for b in np.flatnonzero(~games.done):
                phase = ("-", "draw", "meld", "over")[int(s.phase[b])]
                p = int(s.to_move[b])
                hand, melds = _read(games, b, p)
                expected, got = legal(phase, hand, melds), set(games.legal_names(int(b)))
                run["checked"] += 1
                if expected != got:
                    run["mismatches"] += 1
                    run["examples"].append(f"game {b} {phase}: {sorted(expected ^ got)}")
                before.append((b, p, games.action_names[actions[b]], hand, melds))
            games.step(actions)
            for b, p, name, hand, melds in before:
                verb = name.split("_")[0]
                if verb in ("meld", "add", "wild"):
                    events[verb] += 1
                    effect(name, hand, melds)
                    events["canasta"] += any(sum(m.values()) >= 5 for m in melds.values())
                    if (hand, melds) != _read(games, b, p):
                        run["mismatches"] += 1
                        run["examples"].append(f"game {b}: {name} from {hand}, {melds}")
                elif games.done[b]:  # a hand episode ends with its hand
                    _check_hand_end(games, b, run, events)
    run["unreached"] = [e for e in EVENTS if not events[e]]
    return run


def _check_hand_end(games: GameBatch, b: int, run: dict, events: Counter) -> None:
    """M7, M8: how the hand ended, and both scores."""
    summary = games.summary(int(b))
    events[summary["end_reason"]] += 1
    for q in range(2):
        hand, melds = _read(games, b, q)
        expected = score(hand, melds, summary["went_out"] == q)
        if expected != summary["hand_scores"][q]:
            run["mismatches"] += 1
            run["examples"].append(f"game {b} seat {q}: score {summary['hand_scores'][q]}, rules {expected}")
