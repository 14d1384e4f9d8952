"""The engine's legal mask equals the game's independent plain-Python checker at every
state of seeded random games, on every table (as ``benchmarks/check_masks.py`` does on
100,000+ states). Each game's checker re-derives legality from its rules page:
tests/checker.py (docs/rules/diszitett.md R5, R7-R14, with the driver and its biased
players in tests/test_mask_exactness.py), tests/checker_classic.py
(docs/rules/classic.md C4-C12), tests/checker_turkish.py (docs/rules/turkish.md T1-T17:
also each action's effect and the hand scores). :data:`CHECKERS` adapts them; each run
also asserts that the play reached what makes the comparison worth having (every phase,
every event), so that it cannot pass vacuously. The targeted rule scenarios stay in
tests/test_mask_exactness.py, tests/test_classic_checker.py and
tests/test_turkish_checker.py. A game registered from outside the package brings its own
checker beside it: ``compare(table)`` of the module ``checker`` of the game's package
(e.g. tests/fourth_game/checker.py)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import checker_classic
import checker_turkish

#: classic (preset, players) -> states compared under uniform random play and under play
#: that builds melds (canastas, going out, pl's question and black threes); others: 400, 0
CLASSIC_STATES = {("pl", 2): (500, 500), ("pl", 3): (400, 0), ("pl", 4): (500, 800), ("sk", 3): (400, 500),
                  ("sk", 6): (400, 500)}  # fmt: skip
#: Turkish events random play must reach (counted by checker_turkish.apply and its driver)
TURKISH_EVENTS = (
    "opening", "opening_900", "layoff", "fi_by_melding", "fi_by_discard", "forced_set",
    "forced_made", "half", "whole", "full", "out", "exhausted", "turn_limit", "withdraw",
)  # fmt: skip


def _diszitett(table: Any) -> dict:
    """R5, R7-R14: 32 games of 45 batch steps (KANASZTA_LONG_TESTS=1: 200, both opening
    minimums), collections redrawn now and then; the opening minimum alternates (50/120) so
    that the six tables cover players × preset × minimum pairwise."""
    from test_mask_exactness import LONG, STEPS, check_games

    pairwise = 50 if (table.players + (table.preset == "2003-01")) % 2 == 0 else 120
    run: dict = {"checked": 0, "mismatches": 0, "examples": [], "unreached": []}
    for minimum in (50, 120) if LONG else (pairwise,):
        rules = table.rules(opening_minimum=minimum)
        report = check_games(rules, seed=1_000 * table.players + minimum, steps=STEPS)
        print(f"\n{table.id} min {minimum}: {report.summary()}")
        checked = sum(report.states.values())
        run["checked"] += checked
        run["mismatches"] += len(report.mismatches)
        run["examples"] += report.mismatches[:3]
        run["unreached"] += [p for p in ("cut", "draw", "meld", "pickup", "discard") if not report.states[p]]
        run["unreached"] += ["seeded hands"] * (report.seeded == 0)
        run["unreached"] += [f"{report.skipped} skipped pickup searches"] * (report.skipped > checked // 100)
    return run


def _classic(table: Any) -> dict:
    """C4-C12: uniform random play, and play that builds melds on five tables."""
    run: dict = {"checked": 0, "mismatches": 0, "examples": [], "unreached": []}
    for builder, states in enumerate(CLASSIC_STATES.get((table.preset, table.players), (400, 0))):
        if not states:
            continue
        seed = table.players * 17 + len(table.preset) + 100 * builder
        stats = checker_classic.compare_random_games(
            table.preset, table.players, states, seed=seed, batch=4, builder=bool(builder)
        )
        run["checked"] += stats["checked"]
        run["mismatches"] += stats["mismatches"]
        run["examples"] += stats["examples"]
        run["unreached"] += [f"checked {stats['checked']} of {states}"] * (stats["checked"] < states * 0.95)
    return run


def _turkish(table: Any) -> dict:
    """The mask ("The mask" of docs/design-turkish.md), action effects (T4-T13) and hand
    scores (T14) on 20,000 states."""
    stats = checker_turkish.compare_random_games(20_000, seed=11, batch=8, max_turns=400, keep=3)
    kinds = ("mask_mismatches", "state_mismatches", "score_mismatches", "deal_mismatches")
    return {
        "checked": 20_000,
        "mismatches": sum(stats[k] for k in kinds),
        "examples": [str({k: stats[k] for k in kinds}), *stats["examples"]],
        "unreached": [e for e in TURKISH_EVENTS if stats["events"][e] == 0],
    }


#: game name -> its comparison on a table: checked, mismatches, examples, unreached
CHECKERS: dict[str, Callable[[Any], dict]] = {
    "diszitett": _diszitett,
    "classic": _classic,
    "turkish": _turkish,
}


def _own_checker(table: Any) -> Callable[[Any], dict] | None:
    """``compare`` of the module ``checker`` beside a game registered from outside the package."""
    home = type(table.rules().game).__module__.split(".")[0]
    try:
        return importlib.import_module(f"{home}.checker").compare
    except (ModuleNotFoundError, AttributeError):
        return None


def test_mask_equals_the_independent_checker(table) -> None:
    """At every visited state the mask is exactly the checker's set of legal actions (and
    for Turkish kanasta every action's effect and every hand's score are the checker's)."""
    compare = CHECKERS.get(table.game) or _own_checker(table)
    assert compare is not None, f"no independent checker for {table.game}"
    run = compare(table)
    assert run["mismatches"] == 0, f"{run['mismatches']} mismatches:\n" + "\n-----\n".join(run["examples"])
    assert not run["unreached"], f"the play never reached: {run['unreached']}"
    assert run["checked"] >= 400
