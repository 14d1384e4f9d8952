"""The observation encoding: layout, values, bounds, and that it leaks nothing.

The compiled encoder (``games/diszitett/kernels/observe.py``) is checked piece by piece against
plain-numpy reference computations from the state, on reachable positions of
random play; ``docs/observation.md`` is checked against its generator; and the
information-leak test re-deals every card the observer cannot know (the
unknown part of the stock and of the other hands) and asserts that his
observation, his structured view (``games/diszitett/kernels/view.py``, which the observation
encodes) and his legal mask do not move while another player's would.
"""

from __future__ import annotations

from pathlib import Path

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
from kanaszta_env.engine.states import copy_state, select
from kanaszta_env.games.diszitett.kernels.legal import legal_mask
from kanaszta_env.games.diszitett.kernels.melds import canasta_kind
from kanaszta_env.games.diszitett.kernels.state import PHASE_CUT, PHASE_OVER, State
from kanaszta_env.games.diszitett.kernels.view import View, fill_views, new_views
from kanaszta_env.games.diszitett.observation import encode
from kanaszta_env.observation import observation_bounds, observation_size, observation_spec, split

ROOT = Path(__file__).resolve().parent.parent


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


def _mask(state: State, rules: Rules) -> np.ndarray:
    out = np.zeros((state.phase.shape[0], 200), dtype=np.bool_)
    legal_mask(state, rules.to_config(), out)
    return out


# --- layout ---------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_writes_exactly_the_declared_slots(players: int) -> None:
    """encode() raises if the kernel's slot count differs from the spec."""
    rules = Rules(num_players=players)
    batch = GameBatch(rules, 2)
    batch.reset(seed=players)
    obs = encode(batch.state, rules, [0, players - 1])
    assert obs.shape == (2, observation_size(rules)) and obs.dtype == np.float32
    names = [p.name for p in observation_spec(rules)]
    assert len(names) == len(set(names))


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
    """Every reference piece equals the kernel's, for every observer."""
    states = request.getfixturevalue(fixture)
    rules = Rules(num_players=states[0].hand.shape[1], max_turns=60)
    phases = set()
    for s in states:
        phases.add(int(s.phase[0]))
        for p in range(rules.num_players):
            got = split(encode(s, rules, p)[0], rules)
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


def test_values_within_declared_bounds(states2: list[State], states3: list[State]) -> None:
    for states in (states2, states3):
        rules = Rules(num_players=states[0].hand.shape[1])
        low, high = observation_bounds(rules)
        for s in states:
            for p in range(rules.num_players):
                obs = encode(s, rules, p)
                assert (obs >= low).all() and (obs <= high).all()


def test_r3_cut_cards_visible_to_all() -> None:
    """R3.1: the three cut cards are shown to every player during the cut."""
    rules = Rules()
    batch = GameBatch(rules, 1)
    batch.reset(seed=5)
    for p in range(2):
        cut = split(encode(batch.state, rules, p)[0], rules)["cut_cards"]
        assert cut.argmax(axis=1).tolist() == batch.state.cut_cards[0].tolist()


# --- the information-leak test ----------------------------------------------------------
def redeal(s: State, p: int, rng: np.random.Generator) -> State:
    """Shuffle every card observer ``p`` cannot place — the unknown part of the
    stock and the unknown part of the other hands — keeping all counts and all
    publicly known cards; randomise the game's random state too."""
    s = copy_state(s)
    players = s.hand.shape[1]
    lo = min(int(s.stock_known[0]), int(s.stock_len[0]))
    hi = int(s.stock_len[0]) - (3 if s.phase[0] == PHASE_CUT else 0)
    pool = list(s.stock[0, lo:hi])
    hidden = {}
    for q in range(players):
        if q != p:
            hidden[q] = s.hand[0, q] - s.known[0, q]
            pool += [t for t in range(NUM_TYPES) for _ in range(int(hidden[q][t]))]
    pool = rng.permutation(np.array(pool, dtype=np.int8))
    s.stock[0, lo:hi] = pool[: hi - lo]
    rest = pool[hi - lo :]
    mover = int(s.to_move[0])
    for q, cards in hidden.items():
        n = int(cards.sum())
        old = s.hand[0, q].copy()
        s.hand[0, q] = s.known[0, q] + np.bincount(rest[:n], minlength=NUM_TYPES)
        rest = rest[n:]
        if q == mover:  # the mover's checkpoint hand is private too: keep it consistent
            s.cp_hand[0] += s.hand[0, q] - old
    s.rng[0] = rng.integers(0, 2**63, dtype=np.uint64)
    return s


def view_of(s: State, rules: Rules, p: int) -> View:
    """Player ``p``'s structured view of the one-game state ``s``."""
    views = new_views(1, rules.num_players)
    fill_views(s, rules.to_config(), np.zeros(1, dtype=np.int64), np.array([p], dtype=np.int64), views)
    return views


def assert_views_equal(a: View, b: View) -> None:
    for name, x, y in zip(View._fields, a, b, strict=True):
        np.testing.assert_array_equal(x, y, err_msg=name)


@pytest.mark.parametrize("fixture", ["states2", "states3"])
def test_observation_and_mask_ignore_hidden_cards(fixture: str, request: pytest.FixtureRequest) -> None:
    """Re-dealing the hidden cards never changes the observer's observation, his
    structured view or (when he is to move) his legal mask; an opponent's
    observation and view do change for some positions, so the re-deal really
    moved cards."""
    states = request.getfixturevalue(fixture)
    players = states[0].hand.shape[1]
    rules = Rules(num_players=players, max_turns=60)
    rng = np.random.default_rng(2024)
    opponent_changed = view_changed = 0
    for s in states:
        for p in range(players):
            obs = encode(s, rules, p)
            view = view_of(s, rules, p)
            mask = _mask(s, rules)
            for _ in range(2):
                other = redeal(s, p, rng)
                np.testing.assert_array_equal(encode(other, rules, p), obs)
                assert_views_equal(view_of(other, rules, p), view)
                if s.to_move[0] == p:
                    np.testing.assert_array_equal(_mask(other, rules), mask)
                q = (p + 1) % players
                opponent_changed += not np.array_equal(encode(other, rules, q), encode(s, rules, q))
                view_changed += not np.array_equal(view_of(other, rules, q).hand, view_of(s, rules, q).hand)
    assert opponent_changed > len(states) // 2
    assert view_changed > len(states) // 2


def test_redeal_keeps_the_deck() -> None:
    """The re-deal itself is sound: card counts per type are unchanged."""
    from kanaszta_env.games.diszitett.invariants import card_counts

    rng = np.random.default_rng(0)
    for s in reachable_states(Rules(max_turns=30), seed=3, games=4, steps=120, every=17):
        other = redeal(s, 0, rng)
        np.testing.assert_array_equal(card_counts(other, 0), card_counts(s, 0))
        assert other.hand[0].sum() == s.hand[0].sum()
        np.testing.assert_array_equal(other.known, s.known)


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
