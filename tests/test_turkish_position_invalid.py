"""Invalid positions of Turkish kanasta (docs/position.md, "Turkish kanasta"): each
raises ``ValueError`` naming the problem, from ``load`` and ``canonical`` alike. The
documents are changes to docs/positions/turkish-opening.json and to a turn in progress
from it."""

from __future__ import annotations

import json

import pytest
from conformance.positions import example_position

from kanaszta_env.position import canonical, dump, load


def example() -> dict:
    return example_position("turkish-opening")


# --- invalid documents ------------------------------------------------------------------------
def played() -> dict:
    """The example after laying the run and two kings: phase meld with a checkpoint."""
    games = load(example())
    for name in ("new_8H", "add_9H_to_m0", "add_10H_to_m0", "new_KS", "add_KD_to_m1"):
        games.step(games.action_names.index(name))
    return dump(games)


def take(doc: dict, cards: list[str]) -> list[str]:
    """Remove ``cards`` from the stock, or from the hands of players 1-3 (a stock card
    taking their place), to lay them elsewhere."""
    for c in cards:
        if c in doc["stock"]:
            doc["stock"].remove(c)
            continue
        hand = next(p["hand"] for p in doc["players"][1:] if c in p["hand"])
        hand[hand.index(c)] = doc["stock"].pop()
    return cards


def _lay(owner: int, cards: list[str], kind: str | None = None, opened: bool = True):
    """A change laying ``cards`` as a meld of pair 1 owned by ``owner`` (with ``kind``)."""

    def change(doc: dict) -> None:
        meld = {"owner": owner, "cards": take(doc, cards)}
        doc["pairs"][1]["melds"].append(meld if kind is None else {**meld, "kind": kind})
        doc["players"][owner]["opened"] = opened

    return change


def _fis(*taken: tuple[int, int, bool], hand: tuple[int, int] | None = None):
    """A change giving Fi ``f`` to ``taker`` (``used`` or not) for each ``(f, taker, used)``,
    its cards under the stock, and trimming ``hand = (seat, keep)``."""

    def change(doc: dict) -> None:
        for f, taker, used in taken:
            doc["stock"] += doc["fis"][f]["cards"]
            doc["fis"][f] = {"taker": taker, "used": used}
        if hand:
            _hand_to_stock(doc, *hand)

    return change


def _hand_to_stock(doc: dict, q: int, keep: int = 0) -> None:
    doc["stock"] += doc["players"][q]["hand"][keep:]
    doc["players"][q]["hand"] = doc["players"][q]["hand"][:keep]


def _set(**keys):
    return lambda d: d.update(keys)


def _draw_without_stock(d: dict) -> None:
    d["phase"] = "draw"
    _hand_to_stock(d, 0, 11)
    d["discard"] += d["stock"]
    d["stock"] = []


def _over(d: dict) -> None:
    d.update(phase="over", turn=5, hand_number=1, end_reason="out", out_player=0)


def _over_exhausted(d: dict) -> None:
    _over(d)
    d.update(end_reason="exhausted", out_player=None)


NINES = ["9S", "9S", "9D", "9D", "9C", "9C", "9H"]
NINES_JK = ["9S", "9S", "9D", "9D", "9C", "9H", "JK"]
SPADES = ["9S", "10S", "JS", "QS", "KS", "AS", "2S"]
#: (what is wrong, change to the example document, the message expected)
INVALID = [
    ("unknown key", _set(colour="red"), r"unknown key\(s\) \['colour'\] in position"),
    ("missing key", lambda d: d.pop("fis"), r"missing required key\(s\) \['fis'\]"),
    ("phase", _set(phase="pickup"), r"unknown phase 'pickup'"),
    ("to_move", _set(to_move=4), r"to_move must be in 0..3"),
    ("bad card", lambda d: d["stock"].__setitem__(0, "1H"), r"stock: .*1H"),
    ("extra card", lambda d: d["stock"].append("KD"), r"106-card deck \(T1.1\): 3 × KD"),
    ("too many in one list", lambda d: d["stock"].append("3S"), r"stock holds 3 × 3S; the deck has 2"),
    ("lost card", lambda d: d["stock"].pop(), r"106-card deck \(T1.1\): 1 × 3S"),
    ("rule key", _set(rules={"opening_minimum": 50}), r"unknown rule key\(s\) \['opening_minimum'\]"),
    ("target", _set(target=6000), r"target 6000 must be one of \[5200, 7200, 9200\]"),
    ("fis length", lambda d: d["fis"].pop(), r"fis must list 2 entries, got 1"),
    ("short Fi", lambda d: d["stock"].append(d["fis"][0]["cards"].pop()), r"fis\[0\].cards must hold the 11"),
    ("Fi cards and taker", lambda d: d["fis"][0].update(taker=1), r"fis\[0\] gives cards and a taker"),
    ("Fi 2 first", _fis((1, 1, True)), r"Fi 1 goes first \(T11.1\)"),
    ("unused Fi hand", _fis((0, 1, False), hand=(1, 10)), r"fis\[0\] is unused, so it is the whole hand of"),
    ("unused Fi of the mover", _fis((0, 0, False)), r"taken by the mover 0 must be used"),
    ("forced without Fis", lambda d: d["pairs"][0].update(forced="owed"), r"forced is 'owed', but both"),
    ("forced opening owed", _fis((0, 1, True), (1, 3, True)), r"'no', but both Fis went to the other pair"),
    ("illegal meld", _lay(1, ["8S", "9H", "10C"]), r"pair 1 meld 0 \['8S', '9H', '10C'\] is not a legal set"),
    ("owner of the other pair", _lay(2, ["9S", "9S", "9D"], opened=False), r"seat 2, who is not of pair 1"),
    ("owner not opened", _lay(1, ["9S", "9S", "9D"], opened=False), r"seat 1, who has not opened"),
    ("kind of a short meld", _lay(1, ["9S", "9S", "9D"], "half"), r"'half' but only 3 cards"),
    (
        "canasta without kind",
        _lay(3, NINES, "none"),
        r"7 cards but no kind: it gets one at the end of its turn",
    ),
    ("half without a wild", _lay(3, NINES, "half"), r"'half' but holds no wild"),
    ("whole with a joker", _lay(3, NINES_JK, "whole"), r"'whole' but cannot hold 7 naturals"),
    ("full set", _lay(3, NINES, "full"), r"'full' but not a run of all 13 ranks"),
    # 9-A of spades with the 2S as the 8: six naturals
    ("whole run of 7 with a 2", _lay(3, SPADES, "whole"), r"6 naturals in 7 cards, so it is 'half'"),
    ("opened without melds", lambda d: d["players"][1].update(opened=True), r"has opened but owns no"),
    (
        "opened and layoff",
        lambda d: d["players"][1].update(opened=True, layoff=True),
        r"layer-off never opens",
    ),
    ("layoff alone", lambda d: d["players"][1].update(layoff=True), r"his partner has not opened \(T10.2\)"),
    ("known not in hand", lambda d: d["players"][1].update(known=["JK"]), r"players\[1\].known lists cards"),
    ("empty hand", lambda d: _hand_to_stock(d, 1), r"players\[1\] has an empty hand in phase 'meld'"),
    ("turn", _set(turn=5), r"to_move 0 does not play turn 5"),
    ("end before the end", _set(end_reason="exhausted"), r"describe a finished hand, but the phase is"),
    ("turn limit", _set(rules={"max_turns": 4}), r"turn 4 reaches max_turns 4"),
    ("draw without stock", _draw_without_stock, r"phase 'draw' with an empty stock"),
    ("checkpoint in draw", _set(phase="draw", checkpoint={"hand": [], "melds": []}), r"no meaning in phase"),
    ("short checkpoint", _set(checkpoint={"hand": ["JK"], "melds": []}), r"checkpoint.hand holds 1 card"),
    ("out with cards", _over, r"out_player 0 still holds cards \(T13.1\)"),
    ("exhausted with stock", _over_exhausted, r"'exhausted' needs an empty stock"),
]


def _layoff_lays(d: dict) -> None:
    """Player 0 a layer-off on his partner's nines, laying new melds."""
    nines = {"owner": 2, "cards": take(d, ["9S", "9S", "9D"])}
    d["pairs"][0]["melds"].insert(0, {**nines, "kind": "none"})
    d["checkpoint"]["melds"].insert(0, nines)
    d["players"][0]["layoff"] = True
    d["players"][2]["opened"] = True


def _dead_meld(d: dict) -> None:
    d["pairs"][0]["melds"][0]["cards"].append("KS")
    d["pairs"][0]["melds"][1]["cards"].remove("KS")


RUN = ["8H", "9H", "10H"]
INVALID_TURNS = [
    ("checkpoint hand", lambda d: d["checkpoint"]["hand"].pop(0), r"checkpoint.hand must be the mover's"),
    (
        "checkpoint meld",
        lambda d: d["checkpoint"].update(melds=[{"owner": 2, "cards": RUN}]),
        r"checkpoint.melds\[0\] \['8H', '9H', '10H'\] \(owner 2\) is not contained in pair 0 meld 0",
    ),
    ("dead meld", _dead_meld, r"pair 0 meld 0 \['8H', '9H', '10H', 'KS'\] is not a legal set or run"),
    ("discard after laying", _set(phase="discard"), r"in phase 'discard' \(after a withdraw, T9.6\)"),
    ("layer-off laying", _layoff_lays, r"the mover 0 is a layer-off but laid new melds since the checkpoint"),
]


CASES = [(example, *i) for i in INVALID] + [(played, *i) for i in INVALID_TURNS]


@pytest.mark.parametrize(
    ("base", "change", "message"), [c[:1] + c[2:] for c in CASES], ids=[c[1] for c in CASES]
)
def test_invalid_documents_name_the_problem(base, change, message) -> None:
    """Changes to the example, and to the example in the middle of a turn (two short melds
    laid since the checkpoint, which is legal)."""
    doc = base()
    load(doc)
    change(doc)
    with pytest.raises(ValueError, match=message):
        load(doc)
    with pytest.raises(ValueError, match=message):
        canonical(json.dumps(doc))
