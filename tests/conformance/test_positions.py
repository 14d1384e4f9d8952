"""Positions (docs/position.md) on every table: a dumped position loads back as the same
game (``dump(load(d)) == d``, ``canonical`` idempotent, state, mask and every seat's
observation) at the states of random play, over hands and over game episodes, and under
rule keys that differ from the preset (R12.2, C0); a loaded position, alone or in a larger
batch, plays on exactly like the original; any junk value anywhere in a document gives a
valid document or a ``ValueError`` naming the problem, and a failed load leaves the
document and the env it was given to as they were. Each game's own format (hand-written
documents citing rule numbers, invalid documents, rule keys): tests/test_position.py,
tests/test_classic_position.py, tests/test_turkish_position.py,
tests/test_turkish_position_invalid.py."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from kanaszta_env import Rules
from kanaszta_env.engine import GameBatch
from kanaszta_env.envs import KanasztaGymEnv, env
from kanaszta_env.position import canonical, dump, load, load_batch

from .conftest import representative
from .positions import (
    after,
    assert_round_trip,
    assert_same_game,
    biased_actions,
    phase_names,
    preference,
    random_play,
)

BATCH = 4
JUNK = [None, True, -1, 10**30, 2.5, "x", "AS", [], {}, ["JK"], [[]], {"a": 1}]


def expected_phases(table, games: GameBatch) -> set[str]:
    """The game's phases but those the table cannot reach: the partner's answer (C12.5)
    needs partners and the rule that a player asks his partner (``partner_permission``)."""
    phases, rules = set(phase_names(games)) - {"-"}, games.rules
    asks = getattr(rules, "partner_permission", None) and len(set(rules.sides())) < rules.num_players
    return phases if asks else phases - {"answer"}


def test_round_trip_of_the_states_of_random_play(table) -> None:
    """The states of four hands of random play, every twelfth, the first of each phase and
    the ends, survive dump -> load."""
    seen: set[str] = set()
    for step, games in random_play(table.rules(max_turns=80), table.players):
        names = phase_names(games)
        for b in range(BATCH):
            if games.done.all() or (
                not games.done[b] and (step % 12 == 0 or names[games.state.phase[b]] not in seen)
            ):
                seen.add(assert_round_trip(games, b, f"(step {step} game {b})")["phase"])
    assert seen == expected_phases(table, games)


def test_game_episodes_round_trip_across_hands(table) -> None:
    """Game episodes of three short hands under rule keys that differ from the preset:
    totals, hand scores, hand numbers, the dealer's rotation and the rules round-trip."""
    keys = {"max_turns": 8, "episode": "game", "max_hands": 3, "random_starter": False, "target_score": 3000}
    hands = set()
    for step, games in random_play(table.rules(**keys), 2, size=2):
        if step % 4 == 0 or games.done.all():
            hands |= {assert_round_trip(games, b, f"(step {step})")["hand_number"] for b in range(2)}
    doc = dump(games)
    assert load(doc).rules == games.rules
    assert hands == {0, 1, 2, 3} and doc["hand_number"] == 3


#: (preset, players, rule keys): R12.2's classic schedule with its own first minimum, a target and
#: a turn limit; classic's C0 rule keys
RULE_KEYS = [
    ("2003-02", 2, {"opening_minimum": 75, "opening_schedule": "classic", "max_turns": 40}),
    ("2003-02", 2, {"target_score": 3000, "max_turns": 40, "episode": "game", "max_hands": 2}),
    ("sk", 4, {"free_upcard": True}),
    ("pl", 4, {"wild_freeze": "pile", "opening_scope": "side", "free_upcard": True}),
    ("sk", 4, {"pile_meld_same_turn": True, "wild_canastas": False, "partner_permission": True}),
    ("sk", 6, {"six_player_sides": "3x2"}),
    ("pl", 4, {"from_hand_scope": "player", "partner_permission": False}),
    ("pl", 3, {"black_three_meld": "never", "go_out_by_meld": False}),
]


@pytest.mark.parametrize(("preset", "players", "keys"), RULE_KEYS, ids=[str(k[2]) for k in RULE_KEYS])
def test_round_trip_under_changed_rule_keys(preset: str, players: int, keys: dict) -> None:
    """A hand (or game) under rule keys that differ from the preset round-trips state by
    state, and its documents load with those rules."""
    rules = Rules(variant=preset, num_players=players, **keys)
    for step, games in random_play(rules, 4, size=1):
        assert load(assert_round_trip(games, 0, f"(step {step})")).rules == rules


def test_a_loaded_position_plays_on_exactly_like_the_original(table) -> None:
    """Positions taken after 0 and 40 decisions, dumped one by one and loaded as one batch
    (``load_batch``), play on like the original batch: the same actions give the same
    rewards, masks, every seat's observations and states. A game's dump from its batch is
    its dump alone."""
    for start in (0, 40):
        games = after(5 + start, start, **table.kw(max_turns=30))
        docs = [dump(games, b) for b in range(BATCH)]
        assert docs[2] == dump(games.game(2))
        with pytest.raises(IndexError):
            dump(games, BATCH)
        loaded = load_batch(docs)
        rng, weights = np.random.default_rng(start), preference(games)
        while not games.done.all():
            assert np.array_equal(games.legal_mask(), loaded.legal_mask())
            for q in range(table.players):
                assert np.array_equal(games.observe(seats=q), loaded.observe(seats=q)), f"seat {q}"
            actions = biased_actions(games, rng, weights)
            assert np.array_equal(games.step(actions).rewards, loaded.step(actions).rewards)
            for b in range(BATCH):
                assert_same_game(games, b, loaded, b, f"(from {start}, game {b})")


def test_load_batch_takes_one_game_and_rule_set_and_names_a_bad_position(table) -> None:
    """``load_batch`` refuses an empty list, positions of two games or of two rule sets, and
    says which function met an invalid document."""
    doc = dump(after(3, 10, 1, **table.kw()))
    other = next(t for t in representative() if t.game != table.game)
    with pytest.raises(ValueError, match="at least one"):
        load_batch([])
    with pytest.raises(ValueError, match="one game"):
        load_batch([doc, dump(after(3, 0, 1, **other.kw()))])
    with pytest.raises(ValueError, match="one rule set"):
        load_batch([doc, dump(after(3, 10, 1, **table.kw(max_turns=99)))])
    with pytest.raises(ValueError, match=r"load_batch.*phase"):
        load_batch([doc, dict(doc, phase="nonsense")])


def _paths(value: object, prefix: tuple = ()) -> list[tuple]:
    """Every key and list entry (the first two of a list) of a document, depth first."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            out += _paths(v, (*prefix, i))
    return out


def test_junk_values_raise_only_value_error(table) -> None:
    """A seeded fuzz: any of :data:`JUNK` at any place of a position of each phase gives a
    document that loads (and then dumps as its canonical form) or a ``ValueError`` with a
    message, never another exception; the failed document is left as it was."""
    bases: dict[str, dict] = {}
    for _, games in random_play(table.rules(), 9, size=1):
        bases.setdefault(dump(games)["phase"], dump(games))
    rng, tried, failed = np.random.default_rng(9), 0, 0
    per_base = max(60, -(-200 // len(bases)))  # 200 documents at least, for a game of few phases too
    for base in bases.values():
        paths = _paths(base)
        slots = len(paths) * len(JUNK)
        for i in rng.choice(slots, size=min(per_base, slots), replace=False):
            doc = copy.deepcopy(base)
            *path, last = paths[i // len(JUNK)]
            target = doc
            for key in path:
                target = target[key]
            target[last] = copy.deepcopy(JUNK[i % len(JUNK)])
            kept = copy.deepcopy(doc)
            try:
                loaded = load(doc)
            except ValueError as err:
                assert len(str(err)) > 10 and doc == kept, (paths[i // len(JUNK)], err)
                failed += 1
            else:
                assert dump(loaded) == canonical(kept)
            tried += 1
    assert tried >= 200 and failed > tried // 2


def test_envs_reset_from_a_position_and_keep_their_game_after_a_failed_one(table) -> None:
    """The AEC and Gymnasium envs start from a position document and play on from it; a
    damaged document, or one of other rules, raises ``ValueError`` and leaves the env's
    game as it was."""
    games = after(6, 30, 1, **table.kw())
    doc = dump(games)
    e = env(**table.kw())
    e.reset(options={"position": doc})
    agent = e.agent_selection
    assert agent == f"player_{doc['to_move']}"
    mask = e.observe(agent)["action_mask"].copy()
    assert np.array_equal(mask.astype(bool), games.legal_mask()[0])
    for bad in ({**doc, "stock": "junk"}, dump(after(6, 0, 1, **table.kw(max_turns=9)))):
        with pytest.raises(ValueError, match=r"stock|differ from the env's"):
            e.reset(options={"position": bad})
        assert e.agent_selection == agent and np.array_equal(e.observe(agent)["action_mask"], mask)
    e.step(int(np.flatnonzero(mask)[0]))
    gym_env = KanasztaGymEnv(**table.kw())
    obs, _ = gym_env.reset(options={"position": doc})
    assert np.array_equal(obs, games.observe()[0])
    assert np.array_equal(gym_env.action_masks(), games.legal_mask()[0])
