"""What the position tests of every game share (docs/position.md): the state a rule reads,
a round trip ``dump -> load`` checked in full, random play biased towards the actions
that reach every phase, and the example positions of docs/positions/. Used by
tests/conformance/test_positions.py, by the per-game position tests (tests/test_position.py,
tests/test_classic_position.py, tests/test_turkish_position.py) and by tests that need such
play or an example."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from kanaszta_env import GameBatch, Rules
from kanaszta_env.engine.kernels import kernels_for
from kanaszta_env.position import canonical, dump, load

#: the example positions (docs/positions/README.md)
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "positions"

#: per game: state fields no rule reads in the phases named (the engine sets them first):
#: classic's checkpoint outside meld, discard and answer and the turn's start melds of a
#: finished hand; Turkish kanasta's checkpoint in phase draw and ``changed`` in phase over
UNREAD: dict[str, dict[str, tuple[str, ...]]] = {
    "diszitett": {},
    "classic": {
        "cp_hand": ("-", "draw", "pickup", "over"),
        "cp_groups": ("-", "draw", "pickup", "over"),
        "start_groups": ("over",),
    },
    "turkish": {name: ("draw",) for name in ("cp_hand", "cp_melds", "cp_owner", "cp_size", "cp_count")}
    | {"changed": ("over",)},
}
#: action names random play prefers (weight): pickups and the partner's question reach the
#: pickup and answer phases, melding reaches canastas, openings and going out
PREFERRED = (("take_", 20.0), ("ask", 20.0), ("meld_", 4.0), ("new_", 4.0), ("add_", 4.0), ("place_", 4.0))


def example_position(name: str) -> dict:
    """The example position ``docs/positions/<name>.json`` (docs/positions/README.md)."""
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def phase_names(games: GameBatch) -> tuple[str, ...]:
    return kernels_for(games.rules.spec).game_module("state").PHASE_NAMES


def readable(games: GameBatch, b: int) -> dict[str, np.ndarray]:
    """Game ``b``'s state arrays as far as a rule reads them: stock and discard pile up to
    their lengths, a Turkish Fi's cards only while it waits (in any order), no field of
    :data:`UNREAD` in its phases."""
    s, game = games.state, games.rules.game.name
    phase = phase_names(games)[int(s.phase[b])]
    out = {}
    for name in s._fields:
        x = getattr(s, name)[b]
        if name in ("stock", "pile", "pile_owner"):
            x = x[: int((s.stock_len if name == "stock" else s.pile_len)[b])]
        elif name == "fi":
            x = np.sort(x[s.fi_taker[b] < 0], axis=1)
        elif phase in UNREAD.get(game, {}).get(name, ()):
            continue
        out[name] = x
    return out


def assert_same_game(a: GameBatch, ia: int, b: GameBatch, ib: int, where: str = "") -> None:
    """Game ``ia`` of ``a`` and game ``ib`` of ``b`` hold the same state (see :func:`readable`)."""
    x, y = readable(a, ia), readable(b, ib)
    for name in x:
        assert x[name].dtype == y[name].dtype and np.array_equal(x[name], y[name]), f"state.{name} {where}"


def assert_round_trip(games: GameBatch, b: int = 0, where: str = "") -> dict:
    """``load(dump(g))`` is the same game (state, mask, every seat's observation), the
    document is canonical (``canonical`` idempotent), survives JSON text, and
    ``dump(load(d)) == d``. Returns the document."""
    doc, one = dump(games, b), games.game(b)
    loaded = load(json.dumps(doc))
    assert_same_game(games, b, loaded, 0, where)
    assert np.array_equal(one.legal_mask(), loaded.legal_mask()), where
    for q in range(games.rules.num_players):
        assert np.array_equal(one.observe(seats=q), loaded.observe(seats=q)), f"seat {q} {where}"
    assert dump(loaded) == doc, where
    assert canonical(doc) == doc, where  # so canonical is idempotent on it
    return doc


def preference(games: GameBatch) -> np.ndarray:
    """The weight of each action for :func:`biased_actions`."""
    return np.array(
        [next((w for start, w in PREFERRED if n.startswith(start)), 1.0) for n in games.action_names]
    )


def biased_actions(games: GameBatch, rng: np.random.Generator, weights: np.ndarray) -> np.ndarray:
    """A random legal action per game drawn with ``weights`` (rows without one: 0)."""
    mask = games.legal_mask()
    return np.where(mask, rng.random(mask.shape) ** (1.0 / weights), -1.0).argmax(axis=1)


def random_play(rules: Rules, seed: int, size: int = 4) -> Iterator[tuple[int, GameBatch]]:
    """A batch at each step of random play biased towards pickups and melds (so that every
    phase is met), until every game is over."""
    games = GameBatch(rules, size)
    games.reset(seed=seed)
    rng, weights = np.random.default_rng(seed), preference(games)
    for step in itertools.count():
        yield step, games
        if games.done.all():
            return
        games.step(biased_actions(games, rng, weights))


def after(seed: int, steps: int, size: int = 4, **rules: Any) -> GameBatch:
    """The batch of ``Rules(**rules)`` after ``steps`` steps of :func:`random_play`."""
    return next(itertools.islice(random_play(Rules(**rules), seed, size), steps, None))[1]
