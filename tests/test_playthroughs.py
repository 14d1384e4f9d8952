"""Golden playthroughs: replay each recorded hand and compare the text exactly.

Each file in ``tests/playthroughs/`` records a seeded hand state by state
(``scripts/gen_playthroughs.py``, every game's, each game's part in
``scripts/playthrough_games/<game>.py``). Replaying its actions from the seed must
render the very same text, so any change in dealing, legality, transitions or
scoring shows up here as a unified diff. If the change is intended, regenerate
with ``python scripts/gen_playthroughs.py`` and review the diff of the files.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_DIFF_LINES = 150


sys.path.insert(0, str(ROOT / "scripts"))  # scripts/ is not a package
import gen_playthroughs as gen  # noqa: E402
from playthrough_games.recorder import OUT_DIR, parse_actions, record, replayer  # noqa: E402

#: (game module, spec) of every golden file
CASES = [(g, spec) for g in gen.GAMES.values() for spec in g.SPECS]
CASE_IDS = [spec.name for _, spec in CASES]
disz = gen.GAMES["diszitett"]


def _diff(expected: str, actual: str, path: Path) -> str:
    lines = list(
        difflib.unified_diff(expected.splitlines(), actual.splitlines(), str(path), "replayed", lineterm="")
    )
    shown = lines[:MAX_DIFF_LINES]
    if len(lines) > MAX_DIFF_LINES:
        shown.append(f"... {len(lines) - MAX_DIFF_LINES} more diff lines")
    return "\n".join(shown)


@pytest.mark.parametrize(("g", "spec"), CASES, ids=CASE_IDS)
def test_playthrough_replays_exactly(g, spec) -> None:
    """Replaying the recorded actions reproduces every rendered state (R1-R17, C1-C16)."""
    assert spec.path.exists(), f"{spec.path} is missing: run python scripts/gen_playthroughs.py"
    recorded = spec.path.read_text()
    actions = parse_actions(recorded)
    assert actions, f"no actions recorded in {spec.path}"
    replayed = record(spec, replayer(actions), g.RENDERERS, g.LEGEND)
    if replayed != recorded:
        pytest.fail(
            f"{spec.path.name} no longer replays identically "
            "(regenerate with python scripts/gen_playthroughs.py if intended):\n"
            + _diff(recorded, replayed, spec.path),
            pytrace=False,
        )


@pytest.mark.parametrize(("g", "spec"), CASES, ids=CASE_IDS)
def test_playthrough_is_what_the_generator_writes(g, spec) -> None:
    """The policy in the generator, run from the file's seed, chooses the recorded actions."""
    recorded = spec.path.read_text()
    assert parse_actions(gen.generate(g, spec)) == parse_actions(recorded)


def test_playthrough_folder_holds_exactly_the_specs() -> None:
    """No stale golden file survives a renamed or removed spec."""
    on_disk = {p.name for p in OUT_DIR.glob("*.txt")}
    assert on_disk == {spec.path.name for _, spec in CASES}


#: per game: what each of its hands shows and what they show together: action names (or their
#: prefixes) or text, a tuple for one of several. Díszített: R7 free pickups, R8 pile pickups,
#: R12.5 withdrawals, R13.2 wild moves, R10.6 heart aces, R14 going out. Classic (pl and sk): C7
#: pile pickups, C5 melds, C5.8 withdrawals, C6 canastas, C12.5 the partner's answer (pl), C7.6 the
#: pile's cards waiting a turn (sk), C12 going out. Turkish: T4.1 pile pickups, T9 openings, T9.6
#: a withdrawal, T8 a canasta, T11 a Fi taken, T13.1 going out.
COVERAGE = {
    "diszitett": ((), ("keep", "leave", "take_free", "withdraw", "lay_heart_ace", "lift_", "place_on_")),
    "classic": (("meld_", "withdraw", "*): "), ()),
    "turkish": (("withdraw", "new_", "add_", ("[whole]", "[half]"), "taken by"), ()),
}
#: what a preset's own hand shows: pl asks the partner; in sk the pile's cards wait a turn (C7.6)
PRESET_COVERAGE = {"pl": ("ask",), "sk": ("not meldable this turn",)}


def _missing(items: tuple, actions: list[str], text: str) -> list:
    """The items not shown: a name is an action's (or its prefix), other text is in the text."""

    def shown(item: str | tuple) -> bool:
        if isinstance(item, tuple):
            return any(map(shown, item))
        return any(a.startswith(item) for a in actions) if item.isidentifier() else item in text

    return [item for item in items if not shown(item)]


@pytest.mark.parametrize("game", sorted(COVERAGE))
def test_playthroughs_cover_pickups_melds_and_going_out(game: str) -> None:
    """Every hand takes the pile and ends with a player going out; together the hands of a
    game exercise its moves (:data:`COVERAGE`, :data:`PRESET_COVERAGE`)."""
    each, together = COVERAGE[game]
    texts = [spec.path.read_text() for spec in gen.GAMES[game].SPECS]
    for spec, text in zip(gen.GAMES[game].SPECS, texts, strict=True):
        items = ("take_pile", "phase over", "end: went out", *each, *PRESET_COVERAGE.get(spec.variant, ()))
        assert _missing(items, parse_actions(text), text) == [], spec.name
    assert _missing(together, [a for text in texts for a in parse_actions(text)], "".join(texts)) == []


def test_replay_reports_divergence() -> None:
    """A recording whose action is illegal is cut at that point (the test would show it)."""
    spec = disz.SPECS[0]
    actions = parse_actions(spec.path.read_text())
    broken = [*actions[:3], "take_pile", *actions[4:]]
    text = record(spec, replayer(broken), disz.RENDERERS)
    assert text.rstrip().endswith("recorded action 'take_pile' is not legal here")
    assert parse_actions(text) == actions[:3]
