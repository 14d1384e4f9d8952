"""Positions of classic canasta (docs/position.md, "Classic canasta"): round trips
``load(dump(g))`` and ``dump(load(d)) == canonical(d)`` on positions of random
play in every preset and player count, a loaded position plays on exactly like
the original, rule keys that differ from the preset, the envs' reset from a
position, and invalid documents raising ``ValueError`` naming the problem."""

from __future__ import annotations

import contextlib
import copy
import json
from collections import Counter

import numpy as np
import pytest

from kanaszta_env import GameBatch, Rules
from kanaszta_env.games.classic.actions import ACTION_NAMES
from kanaszta_env.games.classic.kernels.state import PHASE_NAMES
from kanaszta_env.position import canonical, dump, load

CONFIGS = [("pl", 2), ("pl", 3), ("pl", 4), ("sk", 2), ("sk", 3), ("sk", 4), ("sk", 5), ("sk", 6)]
#: phases in which the checkpoint is read (elsewhere the engine sets it before reading it)
CHECKPOINT_PHASES = {PHASE_NAMES.index(p) for p in ("meld", "discard", "answer")}
OVER = PHASE_NAMES.index("over")
PREFERRED = {ACTION_NAMES.index(n) for n in ("take_pile", "ask")}
MELDS = [a for a, n in enumerate(ACTION_NAMES) if n.startswith("meld_")]


# --- helpers ------------------------------------------------------------------------------
def assert_same_state(a: GameBatch, b: GameBatch, where: str = "") -> None:
    """Every state array equal, except what no rule reads: stock and pile arrays beyond
    their lengths, the checkpoint outside the meld, discard and answer phases (the draw
    or the pickup sets it first) and the turn's start melds of a finished hand."""
    sa, sb = a.state, b.state
    phase = int(sa.phase[0])
    for name in sa._fields:
        x, y = getattr(sa, name), getattr(sb, name)
        if name == "stock":
            x, y = x[:, : sa.stock_len[0]], y[:, : sb.stock_len[0]]
        elif name == "pile":
            x, y = x[:, : sa.pile_len[0]], y[:, : sb.pile_len[0]]
        elif (name in ("cp_hand", "cp_groups") and phase not in CHECKPOINT_PHASES) or (
            name == "start_groups" and phase == OVER
        ):
            continue
        assert x.dtype == y.dtype and np.array_equal(x, y), f"state.{name} differs {where}"


def choose(games: GameBatch, rng: np.random.Generator) -> int:
    """A random legal action, biased to take the pile, ask the partner and meld, so that
    the hands reach every phase."""
    legal = np.flatnonzero(games.legal_mask()[0])
    preferred = [a for a in legal if a in PREFERRED]
    if preferred and rng.random() < 0.8:
        return int(preferred[0])
    melds = [a for a in legal if a in MELDS]
    if melds and rng.random() < 0.7:
        return int(rng.choice(melds))
    return int(rng.choice(legal))


def check_round_trip(games: GameBatch, where: str) -> GameBatch:
    """dump -> load gives the same game, and the document is canonical, also as JSON text."""
    doc = dump(games)
    loaded = load(doc)
    assert_same_state(games, loaded, where)
    assert np.array_equal(games.legal_mask(), loaded.legal_mask()), where
    assert dump(loaded) == doc, where
    assert canonical(json.dumps(doc)) == doc, where
    return loaded


def fresh(variant: str = "pl", players: int = 4, seed: int = 0, steps: int = 0, **rule_keys) -> GameBatch:
    games = GameBatch(Rules(variant=variant, num_players=players, **rule_keys), 1)
    games.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        games.step(np.array([choose(games, rng)]))
    return games


# --- round trips ----------------------------------------------------------------------------
PHASES_SEEN: Counter = Counter()


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=[f"{v}-{n}p" for v, n in CONFIGS])
def test_round_trip_of_every_state_of_random_hands(variant: str, players: int) -> None:
    """Every state of three biased random hands survives dump -> load exactly."""
    games = GameBatch(Rules(variant=variant, num_players=players), 1)
    states = 0
    for seed in range(2):
        games.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            check_round_trip(games, f"({variant} {players}p seed {seed} state {states})")
            PHASES_SEEN[PHASE_NAMES[int(games.state.phase[0])]] += 1
            states += 1
            if games.done[0]:
                break
            games.step(np.array([choose(games, rng)]))
    assert states > 100


def test_round_trips_reached_every_phase() -> None:
    """The random hands above went through every phase (run after them: pytest keeps file order)."""
    if not PHASES_SEEN:
        pytest.skip("run together with the round-trip tests")
    assert set(PHASES_SEEN) == {"draw", "meld", "discard", "pickup", "answer", "over"}, PHASES_SEEN


OVERRIDES = [
    ("sk", 4, {"free_upcard": True}),
    ("pl", 4, {"wild_freeze": "pile", "opening_scope": "side", "free_upcard": True}),
    ("sk", 4, {"pile_meld_same_turn": True, "wild_canastas": False, "partner_permission": True}),
    ("sk", 6, {"six_player_sides": "3x2"}),
    ("pl", 4, {"from_hand_scope": "player", "partner_permission": False}),
    ("pl", 3, {"black_three_meld": "never", "go_out_by_meld": False}),
]


@pytest.mark.parametrize(("variant", "players", "keys"), OVERRIDES, ids=[str(o[2]) for o in OVERRIDES])
def test_round_trip_under_changed_rule_keys(variant: str, players: int, keys: dict) -> None:
    """A hand under changed C0 keys round-trips state by state, and its documents carry the keys."""
    games = fresh(variant, players, 4, **keys)
    rng = np.random.default_rng(4)
    while True:
        doc = dump(check_round_trip(games, f"({variant} {players}p {keys})"))
        assert all(doc["rules"][k] == v for k, v in keys.items() if v != getattr(Rules(variant, players), k))
        if games.done[0]:
            break
        games.step(np.array([choose(games, rng)]))


@pytest.mark.parametrize(("variant", "players"), [("pl", 4), ("sk", 5), ("sk", 6), ("pl", 3)])
def test_a_loaded_position_plays_on_exactly_like_the_original(variant: str, players: int) -> None:
    """From positions taken every few actions, the original and the loaded copy play the
    same actions to the end of the hand and stay equal state by state."""
    for seed in range(1):
        games = fresh(variant, players, seed)
        rng = np.random.default_rng(100 + seed)
        step = 0
        while not games.done[0]:
            if step % 29 == 0:
                original, copy_ = games.copy(), load(dump(games))
                play_rng = np.random.default_rng(step)
                while not original.done[0]:
                    action = choose(original, play_rng)
                    r1 = original.step(np.array([action])).rewards
                    r2 = copy_.step(np.array([action])).rewards
                    assert np.array_equal(r1, r2)
                    assert_same_state(original, copy_, f"(seed {seed} from step {step})")
                assert original.summary() == copy_.summary()
            games.step(np.array([choose(games, rng)]))
            step += 1


def test_game_episodes_round_trip_across_hands() -> None:
    """Episodes of several hands: totals, hand scores, hand numbers and the dealer's
    rotation (with five players the sitter's, C2.4) round-trip too."""
    for variant, players in (("sk", 5), ("pl", 4)):
        games = fresh(variant, players, 3, episode="game", max_hands=3, max_turns=24, random_starter=False)
        rng = np.random.default_rng(3)
        hands = set()
        while not games.done[0]:
            check_round_trip(games, f"({variant} {players}p hand {int(games.state.hand_number[0])})")
            hands.add(int(games.state.hand_number[0]))
            games.step(np.array([choose(games, rng)]))
        check_round_trip(games, "(over)")
        assert hands == {0, 1, 2}
        doc = dump(games)
        assert doc["rules"] == {"max_turns": 24, "episode": "game", "max_hands": 3, "random_starter": False}
        assert doc["hand_number"] == 3 and any(side["total"] for side in doc["sides"])


def test_canonical_is_idempotent_and_fills_in_the_derived_keys() -> None:
    """A document cut down to its required keys gets its derived keys back."""
    games = fresh("pl", 4, 1, steps=9)
    full = dump(games)
    assert canonical(full) == full and canonical(canonical(full)) == full
    short = {
        k: full[k] for k in ("variant", "num_players", "phase", "to_move", "starter", "stock", "discard")
    }
    short["players"] = [{k: p[k] for k in ("hand", "known", "laid_before")} for p in full["players"]]
    short["sides"] = [{k: s[k] for k in ("melds", "red_threes", "opened")} for s in full["sides"]]
    short["rng"] = full["rng"]
    kept = ("pickup", "locked", "checkpoint", "start_melds")
    short["turn_state"] = {k: v for k, v in full["turn_state"].items() if k in kept}
    assert canonical(short) == full
    assert_same_state(games, load(short))


def test_rule_keys_that_differ_from_the_preset() -> None:
    """``rules`` holds the keys that differ from the preset; the preset's own values are dropped."""
    games = fresh("sk", 4, 0, free_upcard=True, target_score=3000, opening_schedule=((0, 50), (2000, 90)))
    doc = dump(games)
    assert doc["rules"] == {
        "opening_schedule": [[0, 50], [2000, 90]],
        "target_score": 3000,
        "free_upcard": True,
    }
    assert load(doc).rules == games.rules
    doc["rules"]["wild_canastas"] = True  # sk's own value
    assert canonical(doc)["rules"] == dump(games)["rules"]
    pl = dump(fresh("pl", 2, 0))
    assert pl["rules"] == {} and pl["sitter"] is None and pl["mover"] == pl["to_move"]


def test_five_players_sitter_and_seat_order() -> None:
    """sk with five players: the sitter has no hand and no turn; the seat order is the engine's."""
    games = fresh("sk", 5, 2, steps=20)
    doc = dump(games)
    sitter = doc["sitter"]
    assert sitter is not None and doc["players"][sitter]["hand"] == []
    assert doc["players"][sitter]["turns_played"] == 0
    loaded = load(doc)
    assert np.array_equal(loaded.state.next_seat, games.state.next_seat)
    bad = copy.deepcopy(doc)
    bad["sitter"] = 1  # a member of the pair
    with pytest.raises(ValueError, match="sitter must be a trio member"):
        load(bad)


def test_env_reset_from_a_classic_position() -> None:
    """The AEC env of pl 4p starts from a position document and plays on from it."""
    from kanaszta_env.envs import env

    games = fresh("pl", 4, 5, steps=13)
    doc = dump(games)
    e = env(variant="pl", num_players=4)
    e.reset(options={"position": doc})
    assert e.agent_selection == f"player_{doc['to_move']}"
    mask = e.observe(e.agent_selection)["action_mask"]
    assert np.array_equal(mask.astype(bool), games.legal_mask()[0])
    e.step(int(np.flatnonzero(mask)[0]))
    other = env(variant="sk", num_players=4)
    with pytest.raises(ValueError, match="differ from the env's"):
        other.reset(options={"position": doc})


def test_gym_env_reset_from_a_classic_position() -> None:
    """The single-learner Gymnasium env (the partner a copy of the learner) starts from a
    sk 4p position with the learner in the seat to move."""
    from kanaszta_env.envs.gym_env import KanasztaGymEnv

    games = fresh("sk", 4, 6, steps=21)
    doc = dump(games)
    gym_env = KanasztaGymEnv(variant="sk", num_players=4)
    obs, _ = gym_env.reset(options={"position": doc})
    assert np.array_equal(obs, games.observe()[0])
    assert np.array_equal(gym_env.action_masks(), games.legal_mask()[0])


# --- invalid documents ----------------------------------------------------------------------
def _base() -> dict:
    """pl 4p in the middle of a hand, a turn's draw: some melds, a pile."""
    games = fresh("pl", 4, 1, steps=40, random_starter=False)  # seat 0 starts: side 0 has melded
    rng = np.random.default_rng(0)
    while PHASE_NAMES[int(games.state.phase[0])] != "draw":
        games.step(np.array([choose(games, rng)]))
    doc = dump(games)
    assert doc["sides"][0]["melds"] and doc["discard"]
    return doc


def _first_card_holder(doc: dict) -> dict:
    return next(p for p in doc["players"] if p["hand"])


def _set(path: tuple, value: object):
    def edit(doc: dict) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _drop_stock_card(doc: dict) -> None:
    doc["stock"].pop()


def _extra_joker(doc: dict) -> None:
    doc["stock"].append("JK")


def _red_three_in_hand(doc: dict) -> None:
    hand = _first_card_holder(doc)["hand"]
    doc["stock"].append(hand[0])
    hand[0] = "3H"


def _too_many_wilds(doc: dict) -> None:
    doc["sides"][0]["melds"] = [["KS", "KH", "KD", "2C", "2S", "JK", "JK"]]


def _mixed_meld(doc: dict) -> None:
    doc["sides"][1]["melds"] = [["KS", "QH", "KD"]]


def _two_king_melds(doc: dict) -> None:
    doc["sides"][1]["melds"] = [["KS", "KH", "KD"], ["KC", "KS", "2C"]]


def _wild_meld_in_pl(doc: dict) -> None:
    doc["sides"][1]["melds"] = [["2S", "2H", "JK"]]


def _known_not_in_hand(doc: dict) -> None:
    p = _first_card_holder(doc)
    p["known"] = ["JK"] * 5


def _opened_apart(doc: dict) -> None:
    doc["sides"][0]["opened"], doc["sides"][1]["opened"] = True, False


def _over_exhausted(doc: dict) -> None:
    doc.update(phase="over", end_reason="exhausted")


def _checkpoint_in_draw(doc: dict) -> None:
    doc["phase"] = "draw"
    doc["turn_state"] = {"checkpoint": {"hand": [], "melds": []}}


INVALID = [
    ("unknown key", _set(("colour",), "red"), "unknown key"),
    ("missing sides", lambda d: d.pop("sides"), "missing required key"),
    ("pl with 5 players", _set(("num_players",), 5), "num_players must be one of"),
    ("unknown phase", _set(("phase",), "cut"), "unknown phase"),
    ("to_move outside the seats", _set(("to_move",), 4), "to_move must be in 0..3"),
    ("a card missing", _drop_stock_card, "do not add up to the 108-card deck"),
    ("an extra joker", _extra_joker, r"5 × JK \(the deck has 4\)"),
    ("red three in a hand", _red_three_in_hand, "red three 3H"),
    ("four wilds in a meld", _too_many_wilds, "C5.2"),
    ("a meld of two ranks", _mixed_meld, "is not a meld"),
    ("two melds of one rank", _two_king_melds, "two K melds"),
    ("wild meld in pl", _wild_meld_in_pl, "wild_canastas"),
    ("three sides for four players", lambda d: d["sides"].append(d["sides"][0]), "has 2 sides"),
    ("a sitter with four players", _set(("sitter",), 1), "sitter is only for five players"),
    ("turns_played off", lambda d: d["players"][0].update(turns_played=99), "turns_played is 99"),
    ("over with cards in the stock", _over_exhausted, "exhausted' needs an empty stock"),
    ("checkpoint in the draw phase", _checkpoint_in_draw, "no meaning in phase 'draw'"),
    ("waiting outside the answer", _set(("turn_state", "asked"), "waiting"), "answer"),
    ("unknown rule key", _set(("rules",), {"jokers": 8}), "unknown rule key"),
    ("bad rule value", _set(("rules",), {"wild_freeze": "never"}), "wild_freeze must be one of"),
    ("known cards not held", _known_not_in_hand, "known lists cards that are not in the hand"),
    ("pl sides opened apart", _opened_apart, "every side has opened or none"),
    ("pickup of a wild", _set(("turn_state", "pickup"), "2S"), "only a natural"),
    ("a card name", lambda d: d["discard"].append("1X"), "unknown card '1X'"),
    ("a hand that is a string", lambda d: d["players"][0].update(hand="AS KS"), "must be a list"),
    ("answer without permission", _set(("phase",), "answer"), "mover's partner"),
]


@pytest.mark.parametrize(("name", "edit", "message"), INVALID, ids=[case[0] for case in INVALID])
def test_invalid_documents_raise_value_error_naming_the_problem(name: str, edit, message: str) -> None:
    doc = _base()
    load(doc)  # the base document is valid
    edit(doc)
    with pytest.raises(ValueError, match=message):
        load(doc)
    with pytest.raises(ValueError, match=message):
        canonical(json.dumps(doc))


def test_six_and_five_player_documents_are_checked_too() -> None:
    """sk 6p counts a 162-card deck; with five players the sitter holds no cards."""
    six = dump(fresh("sk", 6, 1, steps=30))
    assert len(six["sides"]) == 2 and len(six["players"]) == 6
    six["stock"].append("KD")
    with pytest.raises(ValueError, match=r"162-card deck \(C1.1\): 4 × KD \(the deck has 3\)"):
        load(six)
    five = dump(fresh("sk", 5, 1, steps=30))
    sitter = five["sitter"]
    giver = next(q for q, p in enumerate(five["players"]) if len(p["hand"]) > 2)
    five["players"][sitter]["hand"] = [five["players"][giver]["hand"].pop()]
    five["players"][giver]["known"] = []
    with pytest.raises(ValueError, match=r"players\[\d\] sits this hand out"):
        load(five)


def test_invalid_json_text() -> None:
    with pytest.raises(ValueError, match="not valid JSON"):
        load('{"variant": "pl",')


JUNK = [None, True, -1, 10**30, 2.5, "x", [], {}, ["JK"], [[]], {"a": 1}]


def _paths(value: object, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            out += _paths(v, (*prefix, i))
    return out


def _mid_turn(variant: str, players: int, phase: str, seed: int = 2) -> dict:
    """A document of a random hand in ``phase`` (with a checkpoint or a pickup)."""
    games = fresh(variant, players, seed)
    rng = np.random.default_rng(seed)
    while PHASE_NAMES[int(games.state.phase[0])] != phase or games.state.turn[0] < 8:
        games.step(np.array([choose(games, rng)]))
        assert not games.done[0]
    return dump(games)


@pytest.mark.parametrize("base", ["draw pl 4p", "meld sk 5p", "pickup pl 4p"])
def test_any_junk_value_raises_only_value_error(base: str) -> None:
    """Replacing any value of a document (two list entries deep) with junk gives a valid
    document or a ``ValueError``, never another exception."""
    phase, variant, players = base.split()
    base = _base() if phase == "draw" else _mid_turn(variant, int(players[0]), phase)
    tried = 0
    for path in _paths(base):
        for junk in JUNK:
            doc = copy.deepcopy(base)
            _set(path, junk)(doc)
            with contextlib.suppress(ValueError):
                load(doc)
            tried += 1
    assert tried > 400
