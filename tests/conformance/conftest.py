"""The tables the conformance suite runs on, from data only: :func:`tables` is every preset
of every registered game (``kanaszta_env.games``) × every player count in 2..6 that ``Rules``
accepts, so a new game gets the whole suite with no edit here. A test taking a ``table``
argument runs on all of them; with ``@pytest.mark.representative`` on :func:`representative`
(one per game); with ``@pytest.mark.tables(predicate)`` on those the predicate accepts."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from kanaszta_env import Rules
from kanaszta_env.games import preset_names


class Table(NamedTuple):
    game: str  # the registered game the preset plays
    preset: str
    players: int

    @property
    def id(self) -> str:
        return f"{self.preset}-{self.players}p"

    def kw(self, **more: Any) -> dict[str, Any]:
        """Keyword arguments of an env (or of ``Rules``) for this table."""
        return {"variant": self.preset, "num_players": self.players, **more}

    def rules(self, **more: Any) -> Rules:
        return Rules(**self.kw(**more))


def tables() -> list[Table]:
    """Every preset × every player count in 2..6 that ``Rules`` accepts."""
    out = []
    for preset, players in ((p, n) for p in preset_names() for n in range(2, 7)):
        try:
            out.append(Table(Rules(variant=preset, num_players=players).game.name, preset, players))
        except ValueError:
            continue
    return out


def representative() -> list[Table]:
    """One table per game, for the slow checks: its first (first preset, fewest players)."""
    first: dict[str, Table] = {}
    for table in tables():
        first.setdefault(table.game, table)
    return list(first.values())


#: (test name, table id) -> why that contract fails on that table (a strict xfail)
KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "representative: run on one table per game (slow checks)")
    config.addinivalue_line("markers", "tables(predicate): run on the tables the predicate accepts")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "table" not in metafunc.fixturenames:
        return
    chosen = representative() if metafunc.definition.get_closest_marker("representative") else tables()
    where = metafunc.definition.get_closest_marker("tables")
    params = []
    for t in chosen:
        if where is None or where.args[0](t):
            reason = KNOWN_FAILURES.get((metafunc.function.__name__, t.id))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(t, id=t.id, marks=marks))
    metafunc.parametrize("table", params)
