"""Positions of Turkish kanasta (docs/position.md, "Turkish kanasta"): round trips
``load(dump(g))`` and ``dump(load(d)) == canonical(d)`` of the positions around the Fis
(play from trimmed hands, leaning towards melding) reaching every feature of the format,
the defaults ``canonical`` fills in, and the example position. What every game's
positions share (round trips of random play, game episodes, playing on, batches, junk
values): tests/conformance/test_positions.py; invalid documents:
tests/test_turkish_position_invalid.py."""

from __future__ import annotations

import copy
from collections import Counter

import numpy as np
from conformance.positions import assert_round_trip, assert_same_game
from test_turkish_position_invalid import example, take
from turkish_helpers import meld, play, table

from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import NUM_TYPES, parse_cards
from kanaszta_env.games.turkish import actions as A
from kanaszta_env.games.turkish.kernels.state import PHASE_DRAW
from kanaszta_env.games.turkish.kernels.tables import VALUE
from kanaszta_env.position import canonical, dump, load, load_batch


# --- helpers ------------------------------------------------------------------------------
def _meld_actions(s, b: int, legal: np.ndarray, free: bool, rng: np.random.Generator) -> int | None:
    """A meld action finishing the meld laid last this turn, laying off, or any meld action."""
    pair = int(s.to_move[b]) % 2
    last = int(s.meld_count[b, pair]) - 1
    adds = legal[(legal >= A.ADD0) & (legal < A.DISCARD0)]
    if last >= int(s.cp_count[b]) and s.changed[b]:
        mine = adds[(adds - A.ADD0) // NUM_TYPES == last]
        short = s.meld_size[b, pair, last] < 3
        if (short or rng.random() < 0.5) and len(mine):
            return int(rng.choice(mine))
        if short and A.WITHDRAW in legal:
            return A.WITHDRAW
    old = adds[(adds - A.ADD0) // NUM_TYPES < int(s.cp_count[b])]
    if free and len(old) and rng.random() < 0.8:
        return int(rng.choice(old))
    melds = legal[(legal >= A.NEW0) & (legal < A.DISCARD0)]
    if free and s.hand[b, s.to_move[b]].sum() < 4:  # a new meld would not be finished
        melds = melds[melds >= A.ADD0]
    if len(melds) and rng.random() < (0.97 if free else 0.9):
        return int(rng.choice(melds))
    return None


def choose(games: GameBatch, mask: np.ndarray, b: int, rng: np.random.Generator) -> int:
    """A random legal action of game ``b``, leaning towards melding (and finishing melds),
    so that tables fill, players open, lay off and empty their hands."""
    legal = np.flatnonzero(mask[b])
    if len(legal) == 0:
        return 0
    s = games.state
    if s.phase[b] == PHASE_DRAW:
        return A.TAKE_PILE if mask[b, A.TAKE_PILE] and rng.random() < 0.15 else int(rng.choice(legal))
    q = int(s.to_move[b])
    discards = legal[legal >= A.DISCARD0]
    free = bool(s.opened[b, q] or s.layoff[b, q])
    small = s.hand[b, q].sum() <= 1
    if len(discards) and (small or s.changed[b]) and rng.random() < (0.9 if small else 0.2 if free else 0.85):
        return int(rng.choice(discards))
    action = _meld_actions(s, b, legal, free, rng)
    return int(rng.choice(legal)) if action is None else action


def step_all(games: GameBatch, rng: np.random.Generator) -> np.ndarray:
    mask = games.legal_mask()
    actions = np.array([choose(games, mask, b, rng) for b in range(games.batch_size)])
    games.step(actions)
    return actions


def count_features(seen: Counter, doc: dict) -> None:
    """Count in ``seen`` the phase, end reason and features of the format ``doc`` shows."""
    seen[doc["phase"]] += 1
    seen["checkpoint"] += "checkpoint" in doc
    seen["fi taken"] += any("taker" in fi for fi in doc["fis"])
    seen["fi unused"] += any("taker" in fi and not fi["used"] for fi in doc["fis"])
    seen["opened"] += any(p["opened"] for p in doc["players"])
    seen["layoff"] += any(p["layoff"] for p in doc["players"])
    seen["known"] += any(p["known"] for p in doc["players"])
    seen["canasta"] += any(m["kind"] != "none" for pair in doc["pairs"] for m in pair["melds"])
    seen["forced"] += any(pair["forced"] != "no" for pair in doc["pairs"])
    seen[doc["end_reason"]] += 1


def trimmed(doc: dict, fis_taken: int) -> dict:
    """The position with hands cut to two cards (players who opened, wilds kept first) or
    four, the rest put under the stock: play from it empties hands and takes Fis. The first
    ``fis_taken`` untaken Fis went to the first player who opened (their cards under the
    stock too), so that the next Fi may force the other pair's opening (T12) or a player go
    out (T13.1)."""
    doc = copy.deepcopy(doc)
    for p in doc["players"]:
        keep = 2 if p["opened"] else 4
        hand = sorted(p["hand"], key=lambda c: not (c == "JK" or c.startswith("2")))
        doc["stock"] += hand[keep:]
        p["hand"], p["known"] = hand[:keep], []
    taker = next(q for q, p in enumerate(doc["players"]) if p["opened"])
    for f in range(2):
        if f < fis_taken and "cards" in doc["fis"][f]:
            doc["stock"] += doc["fis"][f]["cards"]
            doc["fis"][f] = {"taker": taker, "used": True}
    other = [doc["players"][q]["opened"] for q in range(1 - taker % 2, 4, 2)]
    if all("taker" in fi and fi["taker"] % 2 == taker % 2 for fi in doc["fis"]) and not any(other):
        doc["pairs"][1 - taker % 2]["forced"] = "owed"  # T12.1
    return doc


def random_batch(seed: int, size: int = 24, steps: int = 0, **rule_keys) -> GameBatch:
    games = GameBatch(Rules(variant="tr", **rule_keys), size)
    games.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        step_all(games, rng)
    return games


def trimmed_batch(seed: int) -> GameBatch:
    """Games loaded from trimmed draw positions where somebody has opened."""
    games = random_batch(seed, size=48)
    rng = np.random.default_rng(seed + 1)
    docs: list[dict] = []
    for _ in range(900):
        step_all(games, rng)
        for b in range(games.batch_size):
            s = games.state
            if (
                s.phase[b] == PHASE_DRAW
                and s.opened[b].any()
                and len(docs) < 12
                and b not in [d[0] for d in docs]
            ):
                docs.append((b, trimmed(dump(games, b), fis_taken=len(docs) % 3)))
        if len(docs) >= 12:
            break
    assert len(docs) >= 4
    return load_batch([d for _, d in docs])


# --- round trips ----------------------------------------------------------------------------
def test_round_trip_of_positions_with_fis() -> None:
    """From trimmed hands players empty them: Fis are taken by melding and by discarding
    (T11), used and unused, a pair owes its opening (T12), canastas are made; the positions
    round-trip, and a copy of the batch loaded from its positions plays on like it (masks,
    rewards, states). They saw every phase, checkpoints, Fis, openings, layer-offs, known
    cards, canastas and a hand cut off by the turn limit (T13.4)."""
    games = trimmed_batch(3)
    copy_ = load_batch([dump(games, b) for b in range(games.batch_size)])
    rng, seen = np.random.default_rng(3), Counter()
    for step in range(1200):
        if step % 3 == 0:
            for b in range(games.batch_size):
                count_features(seen, assert_round_trip(games, b, f"(trimmed step {step} game {b})"))
                assert_same_game(games, b, copy_, b, f"(step {step} game {b})")
        if games.done.all():
            break
        actions = step_all(games, rng)
        assert np.array_equal(games.rewards, copy_.step(actions).rewards), step
        assert np.array_equal(games.legal_mask(), copy_.legal_mask()), step
    needed = ["draw", "meld", "discard", "over", "checkpoint", "fi taken", "fi unused", "opened", "layoff"]
    needed += ["known", "canasta", "forced", "turn_limit"]
    assert all(seen[k] > 0 for k in needed), seen


def test_the_last_drawers_turn_round_trips() -> None:
    """T13.3: the player who drew the last card of the stock plays his whole turn; the
    positions of that turn (an empty stock) and the exhausted end round-trip."""
    games = random_batch(8, size=12)
    rng, ends, last_turns = np.random.default_rng(8), set(), 0
    while "exhausted" not in ends:
        assert not games.done.all(), ends
        for b in np.flatnonzero((games.state.stock_len == 0) & ~games.done):
            last_turns += assert_round_trip(games, int(b), "(empty stock)")["stock"] == []
        step_all(games, rng)
        ends |= {assert_round_trip(games, int(b))["end_reason"] for b in np.flatnonzero(games.done)}
    assert last_turns > 0


def test_canonical_fills_in_the_defaults() -> None:
    """A document cut down to its required keys (melds too: somebody has opened) gets its
    derived keys back."""
    games = trimmed_batch(4)
    full = dump(games, 0)
    assert any(pair["melds"] for pair in full["pairs"])
    assert canonical(full) == full and canonical(canonical(full)) == full
    short = {k: v for k, v in full.items() if k not in ("rules", "hand_number", "target", "end_reason")}
    short["out_player"] = None
    short["players"] = [
        {"hand": p["hand"], "opened": p["opened"], "known": p["known"]} for p in full["players"]
    ]
    short["pairs"] = [
        {"melds": [{"owner": m["owner"], "cards": m["cards"]} for m in pair["melds"]]}
        for pair in full["pairs"]
    ]
    short["stock"] = [c.lower() for c in full["stock"]]
    assert canonical(short) == full
    assert_same_game(games, 0, load(short), 0)


# --- the example position ---------------------------------------------------------------------
def test_example_position_offers_what_the_readme_says() -> None:
    """docs/positions/turkish-opening.json: player 0 has drawn and may start a meld with any
    natural of his hand or discard any card; 8H 9H 10H and three kings open (30 + 30, T9.1),
    the run alone does not."""
    doc = example()
    games = load(doc)  # its round trip: tests/test_example_positions.py
    hand = doc["players"][0]["hand"]
    wanted = {f"new_{c}" for c in hand if c != "JK" and not c.startswith("2")} | {
        f"discard_{c}" for c in hand
    }
    assert games.legal_names() == [n for n in games.action_names if n in wanted]
    for name in ("new_8H", "add_9H_to_m0", "add_10H_to_m0"):
        games.step(games.action_names.index(name))
    assert not any(n.startswith("discard_") for n in games.legal_names())  # 30 < 45
    for name in ("new_KS", "add_KD_to_m1", "add_KC_to_m1"):
        games.step(games.action_names.index(name))
    assert "discard_3C" in games.legal_names()
    games.step(games.action_names.index("discard_3C"))
    assert games.state.opened[0, 0] == 1 and int(games.state.to_move[0]) == 1


def test_going_out_round_trips_and_ends_the_hand() -> None:
    """No Fi left, a canasta of nines: player 0 lays his 9H and goes out with the 3C (T13.1);
    the positions before and after round-trip."""
    doc = example()
    hand = doc["players"][0]["hand"]
    doc["stock"] += (
        [c for c in hand if c not in ("9H", "3C")] + doc["fis"][0]["cards"] + doc["fis"][1]["cards"]
    )
    doc["players"][0].update(hand=["3C", "9H"], opened=True)
    doc["fis"] = [{"taker": 1, "used": True}, {"taker": 3, "used": True}]
    nines = take(doc, ["9S", "9S", "9H", "9D", "9D", "9C", "9C"])
    doc["pairs"][0]["melds"] = [{"owner": 0, "cards": nines}]
    games = load(doc)
    assert dump(games)["pairs"][0]["melds"][0]["kind"] == "whole"
    assert games.legal_names() == ["new_3C", "new_9H", "add_9H_to_m0", "discard_3C", "discard_9H"]
    for name in ("add_9H_to_m0", "discard_3C"):
        games.step(games.action_names.index(name))
        assert_round_trip(games, 0, f"(after {name})")
    over = dump(games)
    assert over["phase"] == "over" and over["end_reason"] == "out" and over["out_player"] == 0
    assert over["checkpoint"] == {"hand": ["3C", "9H"], "melds": [{"owner": 0, "cards": nines}]}
    partner = sum(VALUE[t] for t in parse_cards(over["players"][2]["hand"]))
    # T14: a whole canasta, eight nines, going out, no Fi, the partner's hand
    assert games.summary()["hand_scores"][0] == 200 + 8 * 10 + 50 - 100 - partner


def test_a_canasta_completed_in_the_going_out_turn_round_trips() -> None:
    """T8.2, T13.1: player 0 completes a canasta of queens with his QD and goes out with the
    5S; the finished hand keeps the turn's checkpoint, in which the queens were six, and the
    canasta's kind fixed at the end of that turn: the position round-trips."""
    run = meld(0, "AD", "2S", "3D", "4D", "5D", "6D", "7D", "8D", "9D", kind="half")
    queens = meld(0, "2D", "QS", "QS", "QH", "QD", "QC")
    both = ({"taker": 1, "used": True}, {"taker": 3, "used": True})
    games = table(
        [["QD", "5S"], ["3D"], ["3H"], ["4C"]],
        ([run, queens], []),
        phase="meld",
        fis=both,
        opened=(True,) + (False,) * 3,
    )
    play(games, "add_QD_to_m1", "discard_5S")
    over = assert_round_trip(games, 0, "(out, the queens completed this turn)")
    assert over["phase"] == "over" and over["end_reason"] == "out"
    assert (
        len(over["checkpoint"]["melds"][1]["cards"]) == 6 and over["pairs"][0]["melds"][1]["kind"] != "none"
    )
