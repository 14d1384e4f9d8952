"""The parsed form of a Turkish position <-> the engine's :class:`TurkishState`."""

from __future__ import annotations

from typing import Any

from ....engine import GameBatch
from ....position.batching import batch_of, read_table, write_table
from ..kernels.state import END_NAMES, FI_WAITING, PHASE_NAMES
from ..kernels.tables import FORCED_DONE, FORCED_NO, FORCED_OWED, NUM_FIS, PAIRS, PLAYERS
from .cards import counts, from_counts, melds_from_slots, write_slots
from .parse import CHECKPOINT_PHASES, FORCED_NAMES

_FORCED = {"no": FORCED_NO, "owed": FORCED_OWED, "made": FORCED_DONE}
#: the integer keys of the table (:func:`~kanaszta_env.position.batching.write_table`)
_KEYS = ("to_move", "starter", "turn", "hand_number", "target")


def to_games(cs: list[dict]) -> GameBatch:
    """A batch holding the (validated) parsed positions ``cs``, game ``b`` from ``cs[b]``
    (all of one rule set)."""
    return batch_of(cs, _write_game)


def _write_game(s: Any, b: int, c: dict) -> None:
    for q, p in enumerate(c["players"]):
        s.hand[b, q] = counts(p["hand"])
        s.known[b, q] = counts(p["known"])
        s.opened[b, q] = p["opened"]
        s.layoff[b, q] = p["layoff"]
        pair = c["pairs"][q % PAIRS]
        s.totals[b, q] = pair["total"]
        s.hand_scores[b, q] = pair["hand_score"]
    for i, pair in enumerate(c["pairs"]):
        write_slots(pair["melds"], s.melds[b, i], s.meld_owner[b, i], s.meld_size[b, i], s.meld_kind[b, i])
        s.meld_count[b, i] = len(pair["melds"])
        s.forced[b, i] = _FORCED[pair["forced"]]
    for f, fi in enumerate(c["fis"]):
        s.fi[b, f] = 0 if fi["cards"] is None else fi["cards"]
        s.fi_taker[b, f] = FI_WAITING if fi["taker"] is None else fi["taker"]
        s.fi_used[b, f] = fi["used"]
    write_table(s, b, c, PHASE_NAMES, END_NAMES, _KEYS)
    mover = c["to_move"]
    cp = c["checkpoint"]
    if cp is None:  # phase draw: the engine sets the checkpoint before reading it
        pair = c["pairs"][mover % PAIRS]
        cp = {"hand": c["players"][mover]["hand"], "melds": pair["melds"]}
    s.cp_hand[b] = counts(cp["hand"])
    write_slots(cp["melds"], s.cp_melds[b], s.cp_owner[b], s.cp_size[b])
    s.cp_count[b] = len(cp["melds"])
    s.changed[b] = c["changed"]


def from_games(games: GameBatch, b: int) -> dict:
    """The parsed form of game ``b`` (the inverse of :func:`to_games`)."""
    s, rules = games.state, games.rules
    c: dict[str, Any] = {
        "variant": rules.variant,
        "rules": rules,
        **read_table(s, b, PHASE_NAMES, END_NAMES, _KEYS),
    }
    phase = c["phase"]
    c["fis"] = []
    for f in range(NUM_FIS):
        taker = int(s.fi_taker[b, f])
        waiting = taker == FI_WAITING
        c["fis"].append(
            {
                "cards": sorted(int(t) for t in s.fi[b, f]) if waiting else None,
                "taker": None if waiting else taker,
                "used": bool(s.fi_used[b, f]),
            }
        )
    c["players"] = [
        {
            "hand": from_counts(s.hand[b, q]),
            "known": from_counts(s.known[b, q]),
            "opened": bool(s.opened[b, q]),
            "layoff": bool(s.layoff[b, q]),
        }
        for q in range(PLAYERS)
    ]
    c["pairs"] = [
        {
            "melds": melds_from_slots(
                s.melds[b, i], s.meld_owner[b, i], s.meld_kind[b, i], int(s.meld_count[b, i])
            ),
            "forced": FORCED_NAMES[int(s.forced[b, i])],
            "total": int(s.totals[b, i]),
            "hand_score": int(s.hand_scores[b, i]),
        }
        for i in range(PAIRS)
    ]
    if phase in CHECKPOINT_PHASES:
        melds = melds_from_slots(s.cp_melds[b], s.cp_owner[b], None, int(s.cp_count[b]))
        c["checkpoint"] = {"hand": from_counts(s.cp_hand[b]), "melds": melds}
    else:
        c["checkpoint"] = None
    c["changed"] = bool(s.changed[b]) if phase in ("meld", "discard") else False
    return c
