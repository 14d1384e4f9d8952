"""The example positions of ``docs/positions/`` load with ``kanaszta_env.position.load``
and are what ``docs/positions/README.md`` says they are; the docs about the
position format point to them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conformance.positions import example_position

from kanaszta_env import action_from_name, position
from kanaszta_env.cards import TYPE_NAMES

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "docs" / "positions"
NAMES = (
    "start-of-hand",
    "frozen-pile",
    "pickup-decision",
    "going-out",
    "classic-may-i-go-out",
    "turkish-opening",
)


def load(name: str):
    return position.load(example_position(name))


@pytest.mark.parametrize("name", NAMES)
def test_example_loads_and_round_trips(name: str) -> None:
    """Every example is a valid document whose dump is its canonical form."""
    doc = example_position(name)
    games = position.load(doc)
    assert position.dump(games) == position.canonical(doc)
    assert "..." not in json.dumps(doc)  # complete: no abridged card lists


def test_start_of_hand_is_the_starters_discard_only_turn() -> None:
    games = load("start-of-hand")
    s = games.state
    assert int(s.turn[0]) == 0 and int(s.to_move[0]) == int(s.starter[0])
    assert all(name.startswith("discard_") for name in games.legal_names())
    assert int(s.red_three_debt[0, 1]) == 1  # the replacement is still to be drawn (R4.2)
    assert [int(k) for k in s.cut_kept[0]] == [0, 0, 1]


def test_frozen_pile_allows_only_a_draw() -> None:
    games = load("frozen-pile")
    s = games.state
    top = TYPE_NAMES[int(s.pile[0, int(s.pile_len[0]) - 1])]
    assert top in ("3S", "3C", "JK") or top.startswith("2")
    assert s.opened[0].all() and s.groups[0].sum() > 0
    assert games.legal_names() == ["draw"]


def test_pickup_decision_offers_the_pile_to_a_player_who_has_not_opened() -> None:
    games = load("pickup-decision")
    s = games.state
    mover = int(s.to_move[0])
    assert not s.opened[0, mover] and int(s.pile_len[0]) == 9
    assert games.legal_names() == ["draw", "take_pile"]


def test_going_out_position_ends_the_hand_with_the_discard() -> None:
    games = load("going-out")
    assert "discard_QC" in games.legal_names()
    games.step(action_from_name("discard_QC"))
    assert games.done[0] and int(games.state.out_player[0]) == 1


def test_classic_position_asks_the_partner() -> None:
    """pl, four players: the mover holds one card after completing a canasta and may ask
    his partner whether he may go out (C12.5); the partner answers next."""
    games = load("classic-may-i-go-out")
    assert games.rules.variant == "pl" and games.rules.num_players == 4
    assert "ask" in games.legal_names() and "withdraw" in games.legal_names()
    games.step(games.action_names.index("ask"))
    assert games.legal_names() == ["yes", "no"] and int(games.state.to_move[0]) == 0


def test_the_position_docs_point_to_every_example() -> None:
    """docs/position.md links the folder, whose README names every file."""
    assert "positions/README.md" in (ROOT / "docs" / "position.md").read_text()
    readme = (FOLDER / "README.md").read_text()
    files = sorted(p.stem for p in FOLDER.glob("*.json"))
    assert files == sorted(NAMES)
    for name in NAMES:
        assert f"({name}.json)" in readme
