"""Every game's text table is its web picture drawn as text (kanaszta_env/games/text_table.py):
a seat sees its own hand and only the sizes and known cards of the others until the
hand is over; a spectator sees every hand; the game's own facts arrive as notes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kanaszta_env import GameBatch, Rules
from kanaszta_env.envs.render import render_table
from kanaszta_env.games import all_games
from kanaszta_env.games.text_table import table_text
from webapp.table import table_json

#: one table of every registered game: its first preset with the most players it allows
TABLES = [(p, max(g.player_counts(p))) for g in all_games() for p in list(g.presets)[:1]]
IDS = [variant for variant, _ in TABLES]


def _played(variant: str, players: int, turns: int) -> GameBatch:
    """A game after random moves, stopped where seat 0 is to move (or at the end)."""
    games = GameBatch(Rules(variant=variant, num_players=players), 1)
    games.reset(seed=5)
    rng = np.random.default_rng(1)
    while not games.done[0] and (int(games.state.turn[0]) < turns or int(games.to_move[0]) != 0):
        games.step(np.array([rng.choice(np.flatnonzero(games.legal_mask()[0]))]))
    return games


@pytest.mark.parametrize("surface", ["text", "json"])
@pytest.mark.parametrize(("variant", "players"), TABLES, ids=IDS)
def test_a_seat_sees_only_sizes_and_known_cards_of_others(variant: str, players: int, surface: str) -> None:
    """Swap a hidden card of seat 1 with a hidden stock card: seat 0's text and the web app's
    JSON of its table are the same, the spectator's change (so the test can fail); seat 0's
    own hand is listed."""
    games = _played(variant, players, turns=6)
    names = [f"p{q}" for q in range(players)]

    def draw(state: object, viewer: int | None) -> str:
        if surface == "text":
            return render_table(state, games.rules, 0, names, viewer=viewer)
        games.state = state
        return json.dumps(table_json(games, names, viewer=viewer))

    s = games.state
    before, open_before = draw(s, 0), draw(s, None)
    hidden = s.hand[0, 1].astype(int) - (s.known[0, 1] if hasattr(s, "known") else 0)
    t = int(np.flatnonzero(hidden > 0)[0])
    low = int(s.stock_known[0]) if hasattr(s, "stock_known") else 0
    i = next(i for i in range(low, int(s.stock_len[0])) if s.stock[0, i] != t)
    state = s._replace(hand=s.hand.copy(), stock=s.stock.copy())
    state.hand[0, 1, t] -= 1
    state.hand[0, 1, int(s.stock[0, i])] += 1
    state.stock[0, i] = t
    assert draw(state, 0) == before
    assert draw(state, None) != open_before
    if surface == "text":
        seat_lines = {
            line.strip(" *").split(" ")[0]: line for line in before.splitlines() if line.startswith("   ")
        }
        assert f"hand: {int(s.hand[0, 1].sum())} cards" in seat_lines["p1"]
        assert f"hand ({int(s.hand[0, 0].sum())})" in seat_lines["p0"]
        assert before.count("hand (") == 1 and open_before.count("hand (") == players


@pytest.mark.parametrize(("variant", "players"), TABLES, ids=IDS)
def test_the_hands_are_shown_when_the_hand_is_over(variant: str, players: int) -> None:
    games = _played(variant, players, turns=10_000)
    assert games.done[0]
    text = render_table(games.state, games.rules, 0, viewer=0)
    assert text.count("hand (") == players
    assert "ended: " in text and " to move" not in text.splitlines()[0]


def test_the_text_draws_only_the_shared_keys_of_a_picture() -> None:
    """A user's game with a picture of the documented keys only (docs/webapp.md)."""
    player = {"seat": 0, "name": "ann", "hand_size": 2, "known": ["KS"], "hand": None, "notes": ["layer-off"]}
    meld = {"id": "m0", "label": "m0", "cards": ["5H", "6H", "7H"], "canasta": None, "run": True, "owner": 0}
    picture = {
        "phase": "draw",
        "to_move": 0,
        "starter": 0,
        "hand_number": 2,
        "turn": 7,
        "stock": {"size": 30, "known_bottom": []},
        "pile": {"size": 4, "top": "9C", "top_owner": None, "frozen": True},
        "players": [player],
        "sides": [
            {
                "side": 0,
                "seats": [0],
                "total": 120,
                "last_hand": 40,
                "opened": True,
                "melds": [meld],
                "red_threes": ["3H"],
                "notes": ["owes a canasta"],
            }
        ],
        "extras": [{"label": "kitty", "cards": None, "count": 5, "note": "on the table"}],
        "notes": ["a note"],
    }
    assert table_text(picture).splitlines() == [
        "hand 2 · turn 7 · phase draw · ann to move · starter ann",
        "stock 30 · discard pile 4, top 9C (frozen)",
        "kitty: 5 cards, on the table",
        "side 0 (ann): total 120 · last hand 40 · opened · red threes 3H · owes a canasta",
        "    m0 by ann: 5H 6H 7H [run]",
        "   *ann (layer-off) hand: 2 cards, known: KS",
        "a note",
    ]
