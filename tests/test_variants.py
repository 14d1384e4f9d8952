"""The variant spec: one frozen description per game, and
rule kernels compiled once per variant with its tables as constants."""

from __future__ import annotations

import ast
import dataclasses
import io
import pathlib
import tokenize
from collections.abc import Iterator

import numpy as np
import pytest

from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import JOKER, NUM_TYPES, card_type
from kanaszta_env.engine import kernels_for
from kanaszta_env.games.diszitett.kernels.state import State as DefaultState
from kanaszta_env.variants import DEFAULT_VARIANT, DISZITETT, Variant, get_variant, register_variant

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED_KERNELS = [
    *sorted((ROOT / "kanaszta_env" / "core").glob("*.py")),
    ROOT / "kanaszta_env" / "engine" / "driver.py",
]

# a test-only variant: other scores and four jokers (108 cards); the rule
# kernels are the same source, compiled with these tables
BONUS = dataclasses.replace(
    DISZITETT,
    name="test-bonus",
    title="Díszített with other tables (test)",
    type_copies=(2,) * (NUM_TYPES - 1) + (4,),
    going_out=300,
    canasta_bonus=(0, 1, 2, 3, 4, 5),
)


def test_r1_1_r1_6_r3_the_presets_play_the_diszitett_variant():
    """Its deck (R1.1), deal (R3), card values (R1.6, read from the spec) and sides (R2.1);
    frozen and hashable."""
    from kanaszta_env.cards import CARD_VALUE

    assert Rules().spec is Rules(variant="2003-01").spec is get_variant("diszitett") is DISZITETT
    assert DEFAULT_VARIANT is DISZITETT and isinstance(DISZITETT, Variant)
    assert DISZITETT.deck_size == 112 and DISZITETT.type_copies[JOKER] == 8
    assert DISZITETT.cut_cards == 3 and (DISZITETT.deal_starter, DISZITETT.deal_others) == (15, 14)
    assert DISZITETT.sides(4) == (0, 1, 2, 3)  # R2.1: everyone plays for himself
    assert CARD_VALUE[JOKER] == 50 and CARD_VALUE[card_type(0, 0)] == 20 and CARD_VALUE[card_type(3, 0)] == 5
    assert list(CARD_VALUE) == list(DISZITETT.card_value)
    with pytest.raises(dataclasses.FrozenInstanceError):
        DISZITETT.going_out = 1  # type: ignore[misc]
    assert len({DISZITETT, BONUS}) == 2 and DISZITETT.fingerprint != BONUS.fingerprint


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"type_copies": (2,) * 52}, "type_copies needs 53 entries"),
        ({"meld_family": "two words"}, "meld_family 'two words' is not a name"),
        ({"rule_set": "games.rule_set"}, "rule_set must name <package>.kernels.<module>"),
        ({"deal_others": 40}, "leaves no stock"),
        ({"canasta_size": 9}, "min_meld <= canasta_size <= max_natural_group"),
        ({"tax_brackets": (7000, 5000, 9000)}, "tax_brackets"),
    ],
)
def test_an_inconsistent_variant_is_refused_with_the_field_named(change, message):
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(DISZITETT, name="broken", **change)


def test_register_refuses_a_different_variant_under_a_taken_name():
    with pytest.raises(ValueError, match="already registered"):
        register_variant(dataclasses.replace(DISZITETT, going_out=1))
    assert register_variant(DISZITETT) is DISZITETT
    with pytest.raises(ValueError, match="unknown game variant 'nope'"):
        get_variant("nope")


def test_kernels_are_compiled_per_variant_with_its_tables():
    """The same rule source, compiled for another variant: its score tables,
    deck and deal are the constants of the new kernels, the default's are not
    touched (they run on the package's modules), and the variant's machine code is cached in
    its own folder."""
    kernels = kernels_for(DISZITETT)
    assert kernels.package == "kanaszta_env" and kernels.driver.__name__ == "kanaszta_env.engine.driver"
    assert GameBatch(Rules(), 1)._kernels is kernels
    default = kernels.compiled
    other = kernels_for(BONUS)
    assert other is kernels_for(BONUS)  # imported once
    assert other.package != "kanaszta_env" and other.compiled is not default
    # R11/R16: a red canasta of kings, going out from hand
    groups = np.zeros((12, 9), dtype=np.int8)
    groups[10, :4] = (2, 2, 2, 1)
    args = (groups, 0, 0, 0, True, False, False)
    assert default.hand_base(*args) == 400 + 100
    assert other.compiled.hand_base(*args) == 3 + 300
    # the deck: 108 cards, every one accounted for after a deal
    s = other.compiled.new_state(2, 2)
    assert s.stock.shape == (2, 108)
    cfg = Rules().to_config()
    scratch = np.zeros(NUM_TYPES, dtype=np.int64)
    for b in range(2):
        other.compiled.reset_game(s, cfg, b, np.uint64(7 + b))
        assert s.stock_len[b] == 108
        assert other.compiled.conserved(s, b, scratch)
        # the default deck has 112 (the state as the default package's State: a kernel typed on
        # the variant's State class would be cached beside the default's and fail to load later)
        assert not default.conserved(DefaultState(*s), b, scratch)
    cache = pathlib.Path(other.compiled.hand_base._cache._cache_path)
    assert f"variants/test_bonus-{BONUS.fingerprint}" in cache.as_posix()
    assert "variants" not in pathlib.Path(default.hand_base._cache._cache_path).as_posix()


@pytest.mark.parametrize("game", ["diszitett", "classic", "turkish"])
def test_kernel_sources_write_no_numbers_of_their_games_spec(game: str) -> None:
    """The facts a variant changes are named constants of the game's ``kernels/tables.py``
    (read from its spec), not literals: no deck or deal size, canasta size or bonus, red-three
    or going-out score of the game's spec as a number token in its kernels or the shared ones."""
    from kanaszta_env.games import get_game

    spec = get_game(game).spec
    facts = {spec.deck_size, spec.deal_starter, spec.deal_others, spec.canasta_size, *spec.canasta_bonus,
             spec.going_out, spec.red_three_each, spec.all_red_threes}  # fmt: skip
    facts = {str(n) for n in facts if n > 9}  # small numbers are indices and counts everywhere
    folder = ROOT / "kanaszta_env" / "games" / game / "kernels"
    offenders = []
    for path in [*SHARED_KERNELS, *sorted(folder.glob("*.py"))]:
        if path.name == "tables.py":
            continue
        for row, line, number in _whole_numbers(path):
            if number in facts and not line.startswith("I_"):
                offenders.append(f"{path.name}:{row}: {line}")
    assert offenders == []


def _whole_numbers(path: pathlib.Path) -> Iterator[tuple[int, str, str]]:
    """``(row, line, number)`` of every whole-valued number token of ``path``, as an integer's
    text (500, 500.0 and 5e2 alike)."""
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type == tokenize.NUMBER and "j" not in tok.string.lower():
            value = ast.literal_eval(tok.string)
            if value == int(value):
                yield tok.start[0], tok.line.strip(), str(int(value))


#: Files above the kernels that may write one of those numbers, and the numbers, for a reason
#: that is not a rule: the bots' preference weights and the shaping's scales; turn limits,
#: deal and session counts, HTTP codes, loop bounds, fixed-point scales, pixels, Elo's scale,
#: option bounds and opening-minimum choices.
NOT_RULES = {
    "agents/games/classic/bots.py": {"50", "100", "200", "500"},
    "agents/games/classic/rollout.py": {"200", "1000"},
    "agents/games/diszitett/greedy.py": {"100"},
    "agents/games/diszitett/heuristic_params.py": {"100", "1000"},
    "agents/games/diszitett/heuristic_values.py": {"50", "100", "200", "600"},
    "agents/games/diszitett/search.py": {"100"},
    "agents/games/turkish/bots.py": {"100"},
    "agents/games/turkish/rollout.py": {"100", "200", "1000"},
    "agents/games/turkish/search.py": {"100"},
    "training/games/classic/shaping.py": {"1000"},
    "training/games/diszitett/shaping.py": {"300", "1000"},
    "agents/cli.py": {"200"},
    "agents/tournament.py": {"100", "200", "400"},
    "training/cli.py": {"1000"},
    "training/config.py": {"200"},
    "training/evaluate.py": {"100", "400", "800", "1000"},
    "training/rllib/algo.py": {"600"},
    "webapp/app.py": {"200", "400"},
    "webapp/browser.py": {"1000"},
    "webapp/choices.py": {"200", "400", "1000"},
    "webapp/cli.py": {"200"},
    "webapp/routes.py": {"1000"},
    "webapp/sessions.py": {"200"},
    "kanaszta_env/envs/render.py": {"50"},
    "kanaszta_env/games/classic/__init__.py": {"1000"},
    "kanaszta_env/games/diszitett/__init__.py": {"50"},
    "kanaszta_env/games/diszitett/position/schema.py": {"200"},
    "kanaszta_env/games/diszitett/scoring.py": {"1000"},
    "kanaszta_env/rules.py": {"50", "200"},
}


def test_consumers_write_no_score_or_deck_number_of_a_game() -> None:
    """Bots, training, the web app and the helpers above the kernels read a game's scores and
    deck from its spec: none writes a canasta bonus, a red-three, going-out or twin bonus, or a
    deck size of any game as a number, except the files of :data:`NOT_RULES` for their reasons.
    The presets' own tables (``variants/``, ``rules_classic.py``) are where the numbers live."""
    from kanaszta_env.games import get_game

    facts = set()
    for game in ("diszitett", "classic", "turkish"):
        spec = get_game(game).spec
        bonuses = (spec.red_three_each, spec.all_red_threes, spec.going_out, spec.twin, spec.from_hand)
        facts |= {spec.deck_size, *spec.canasta_bonus, *bonuses, spec.table_clearing, spec.separate_heart_ace}
    facts = {str(n) for n in facts if n >= 50}  # smaller ones are counts and card values everywhere
    offenders = []
    for folder in ("agents", "training", "webapp", "kanaszta_env"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if "/kernels/" in name or "/variants/" in name or name.endswith("rules_classic.py"):
                continue
            allowed = NOT_RULES.get(name, set())
            offenders += [
                f"{name}:{row}: {line}" for row, line, n in _whole_numbers(path) if n in facts - allowed
            ]
    assert offenders == []
