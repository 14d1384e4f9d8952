"""The observation encoding: layout, values, bounds, and that it leaks nothing.

The compiled encoder (``games/diszitett/kernels/observe.py``) is checked piece by piece against
plain-numpy reference computations from the state, on reachable positions of
random play. That the observation, the structured view and the legal mask ignore every
card the observer cannot know: tests/conformance/test_envs.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import (
    HEART_ACE,
    NUM_TYPES,
    RED_THREES,
    TYPE_COPIES,
    TYPE_GROUP,
)
from kanaszta_env.core.common import opening_minimum
from kanaszta_env.engine.states import select
from kanaszta_env.games.diszitett.kernels.melds import canasta_kind
from kanaszta_env.games.diszitett.kernels.state import PHASE_CUT, PHASE_OVER, State
from kanaszta_env.games.diszitett.observation import encode
from kanaszta_env.observation import observation_bounds, observation_size, observation_spec, split


def reachable_states(
    rules: Rules, seed: int, games: int = 12, steps: int = 360, every: int = 9
) -> list[State]:
    """Single-game snapshots of uniformly random play (every phase occurs)."""
    batch = GameBatch(rules, games)
    batch.reset(seed=seed)
    rng = np.random.default_rng(seed)
    snaps: list[State] = []
    for step in range(steps):
        mask = batch.legal_mask()
        if step % every == 0:
            snaps += [select(batch.state, b) for b in range(games) if not batch.done[b]]
        if batch.done.all():
            break
        acts = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        batch.step(acts)
    return snaps


@pytest.fixture(scope="module")
def states2() -> list[State]:
    return reachable_states(Rules(max_turns=60), seed=11)


@pytest.fixture(scope="module")
def states3() -> list[State]:
    return reachable_states(Rules(num_players=3, max_turns=60), seed=23, games=8)


# --- values against a plain reference -------------------------------------------------
def reference(s: State, rules: Rules, p: int) -> dict[str, np.ndarray]:
    """The pieces recomputed in numpy from a one-game state, for observer ``p``."""
    P = rules.num_players
    seats = [(p + k) % P for k in range(P)]
    copies = TYPE_COPIES.astype(np.float64)
    ref: dict[str, np.ndarray] = {}
    ref["phase"] = np.eye(6)[s.phase[0]]
    ref["to_move"] = np.eye(P)[(s.to_move[0] - p) % P]
    ref["seat_from_starter"] = np.eye(P)[(p - s.starter[0]) % P]
    ref["hand"] = s.hand[0, p] / copies
    pile = s.pile[0, : s.pile_len[0]]
    ref["pile"] = np.bincount(pile, minlength=NUM_TYPES) / copies
    ref["pile_top"] = np.eye(NUM_TYPES)[pile[-1]] if len(pile) else np.zeros(NUM_TYPES)
    ref["pile_top_owner"] = np.eye(P)[(s.pile_owner[0, len(pile) - 1] - p) % P] if len(pile) else np.zeros(P)
    known_bottom = s.stock[0, : min(s.stock_known[0], s.stock_len[0])]
    ref["stock_bottom"] = np.bincount(known_bottom, minlength=NUM_TYPES) / copies
    ref["stock_state"] = np.array([s.stock_len[0] / 112, s.stock_known[0] / 3])
    ref["group_cards"] = s.groups[0, seats] / np.array([2] * 8 + [8])
    sizes = s.groups[0, seats].sum(axis=2)
    ref["group_size"] = np.minimum(sizes / 8, 1)
    canasta = np.zeros((P, 12, 5))
    for k, q in enumerate(seats):
        for g in range(12):
            kind = canasta_kind(g, s.groups[0, q, g]) if sizes[k, g] else 0
            if kind:
                canasta[k, g, kind - 1] = 1
    ref["canasta"] = canasta
    ref["collection"] = np.stack(
        [
            s.sep_heart_aces[0, seats] / 2,
            s.red_threes[0, seats, 0] / 2,
            s.red_threes[0, seats, 1] / 2,
            s.red_three_debt[0, seats] / 4,
        ],
        axis=1,
    )
    ref["player_state"] = np.stack(
        [
            np.minimum(s.twins[0, seats] / 10, 1),
            np.minimum(s.hand[0, seats].sum(axis=1) / 64, 1),
            s.opened[0, seats],
        ]
    )
    ref["free_pickup"] = np.eye(4)[s.free_pickup[0, seats]]
    ref["known"] = s.known[0, seats] / copies
    totals = s.totals[0, seats]
    ref["total"] = np.clip(totals / rules.target_score, -1, 1)
    ref["tax_bracket"] = np.eye(4)[np.searchsorted([5000, 7000, 9000], totals, side="right")]
    cfg = rules.to_config()
    ref["opening_minimum"] = np.array([opening_minimum(s.totals, cfg, 0, q) for q in seats]) / 120
    if s.phase[0] == PHASE_CUT:
        ref["cut_cards"] = np.eye(NUM_TYPES)[s.cut_cards[0]]
    else:
        ref["cut_cards"] = np.zeros((3, NUM_TYPES))
    return ref


def unknown_reference(s: State, rules: Rules, p: int) -> np.ndarray:
    """Cards of each type the observer cannot place: the hidden part of the
    stock and of the other hands, counted from the hidden side."""
    counts = np.zeros(NUM_TYPES, dtype=np.int64)
    hidden_stock = s.stock[0, min(s.stock_known[0], s.stock_len[0]) : s.stock_len[0]]
    if s.phase[0] == PHASE_CUT:
        hidden_stock = hidden_stock[:-3]  # the top three are the cut cards, shown to all
    np.add.at(counts, hidden_stock, 1)
    for q in range(rules.num_players):
        if q != p:
            counts += s.hand[0, q] - s.known[0, q]
    return counts


@pytest.mark.parametrize("fixture", ["states2", "states3"])
def test_pieces_match_reference(fixture: str, request: pytest.FixtureRequest) -> None:
    """Every reference piece (their names distinct) equals the kernel's, for every observer
    in every phase (R3.1: the cut cards shown to all during the cut), within the declared
    bounds."""
    states = request.getfixturevalue(fixture)
    rules = Rules(num_players=states[0].hand.shape[1], max_turns=60)
    names = [p.name for p in observation_spec(rules)]
    assert len(names) == len(set(names))
    low, high = observation_bounds(rules)
    phases = set()
    for s in states:
        phases.add(int(s.phase[0]))
        for p in range(rules.num_players):
            obs = encode(s, rules, p)
            assert (obs >= low).all() and (obs <= high).all()
            got = split(obs[0], rules)
            for name, want in reference(s, rules, p).items():
                np.testing.assert_allclose(got[name], want, atol=1e-6, err_msg=name)
            unknown = np.rint(got["unknown"] * TYPE_COPIES).astype(np.int64)
            np.testing.assert_array_equal(unknown, unknown_reference(s, rules, p))
    assert {0, 1, 2, 3, 4} <= phases, f"random play should reach every phase, saw {phases}"


def test_r8_pickup_and_turn_pieces(states2: list[State]) -> None:
    """R8: the pickup card's group and the hand cards melded with it are shown
    to everybody while the obligatory meld is under way."""
    rules = Rules(max_turns=60)
    seen = 0
    for s in states2:
        if s.pickup_card[0] < 0 or s.phase[0] == PHASE_OVER:
            continue
        seen += 1
        for p in range(2):
            got = split(encode(s, rules, p)[0], rules)
            assert got["pickup_group"][TYPE_GROUP[s.pickup_card[0]]] == 1
            assert got["pickup_kind"][2] == 1
            assert got["pickup_state"][0] == pytest.approx(min(s.pickup_from_hand[0] / 3, 1))
    assert seen > 0, "random play should include penalised pickups"


def test_separate_heart_aces_and_red_threes_counted_as_seen() -> None:
    """R10.6 / R4.1: cards in collections are public and never 'unknown'."""
    rules = Rules()
    s = select(GameBatch(rules, 1).state, 0)
    s.phase[0] = 2
    s.sep_heart_aces[0, 1] = 1
    s.red_threes[0, 1] = [2, 1]
    got = split(encode(s, rules, 0)[0], rules)
    unknown = np.rint(got["unknown"] * TYPE_COPIES)
    assert unknown[HEART_ACE] == 1 and unknown[RED_THREES[0]] == 0 and unknown[RED_THREES[1]] == 1
    assert got["collection"][1].tolist() == [0.5, 1.0, 0.5, 0.0]


def test_observation_buffers_hand_out_only_arrays_nobody_holds() -> None:
    """The VecEnv's observation arrays: an array (or a view of it) still held is never handed out
    again; one let go of is (no fresh memory per step)."""
    import weakref

    from kanaszta_env.envs.vec_env import ObservationBuffers

    buffers = ObservationBuffers((3, 5))
    a, b = buffers.take(), buffers.take()
    assert a is not b and not np.shares_memory(a, b)
    view, old_b = b[1:], weakref.ref(b)
    del b
    c = buffers.take()  # b's array is still seen through the view
    assert not np.shares_memory(c, view) and not np.shares_memory(c, a)
    del view
    again = buffers.take()  # (taken outside the asserts, whose rewriting holds references)
    assert again is old_b()  # let go of: it comes back
    old_a = weakref.ref(a)
    del a
    again = buffers.take()
    assert again is old_a()


def test_large_batch_streams_the_same_rows() -> None:
    """A batch beyond STREAM_BYTES is encoded row by row into a scratch row and streamed out:
    the same bytes as the plain writes of small batches, whatever the rows' alignment."""
    from kanaszta_env.core.stream import STREAM_BYTES
    from kanaszta_env.games.diszitett.kernels.observe import encode_games

    rules = Rules(variant="2003-01", num_players=3)
    size = observation_size(rules)
    n = STREAM_BYTES // (4 * size) + 3
    batch = GameBatch(rules, n, auto_reset=True, illegal="penalty")
    batch.reset(seed=4)
    for _ in range(40):  # the first legal action: cut, draws, melds and discards
        batch.step(batch.legal_mask().argmax(axis=1))
    s, cfg = batch.state, rules.to_config()
    rows, seats = np.arange(n), (np.arange(n) % 3).astype(np.int64)
    flat = np.full(n * size + 1, 7.0, np.float32)
    streamed = flat[1:].reshape(n, size)  # rows that start off a cache line
    encode_games(s, cfg, rows, seats, streamed)
    plain = np.full((n, size), 7.0, np.float32)
    for a in range(0, n, 256):
        encode_games(s, cfg, rows[a : a + 256], seats[a : a + 256], plain[a : a + 256])
    assert plain.tobytes() == streamed.tobytes() and flat[0] == 7.0
