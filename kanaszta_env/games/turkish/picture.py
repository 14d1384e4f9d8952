"""Turkish kanasta's table as JSON for the web app (:meth:`Game.table_picture`,
:meth:`Game.move_picture`; the shared keys are described in ``docs/webapp.md``).

Two pairs (seat ``q`` in pair ``q % 2``, T2.1) share melds and score. A pair's melds
are listed by slot (``m<k>``, the slot the actions name) with the seat that laid them,
their canasta kind (T8) and whether they are a run (T6), whose cards are then in run
order with the wild in its place. The two Fis (T11) are extras: a Fi nobody has taken
is shown as its size, its cards only with every hand open. A ``viewer`` sees the other
hands as their sizes and known cards until the hand is over.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...cards import JOKER, NUM_TYPES, RANKS, TYPE_NAMES, card_rank, card_suit
from ...rules import Rules
from ..pictures import end_notes, header, meld, pile, seat, side
from . import actions as A

_PHASES = ("-", "draw", "meld", "discard", "-", "over")
_KINDS = ("", "half canasta", "whole canasta", "full canasta")
_FORCED = ("", "owes a canasta opening (T12)", "made its canasta opening")

_RANK_TWO = RANKS.index("2")
_ACE_HIGH = len(RANKS)  # run position of an ace above the king


def run_order(cards: list[int]) -> list[int] | None:
    """The card types of a meld in run order (wilds in the gaps, then at the ends), or
    ``None`` if the meld is a set: its naturals other than 2s are of one rank."""
    plain = [t for t in cards if t != JOKER and card_rank(t) != _RANK_TWO]
    if len({card_rank(t) for t in plain}) <= 1:
        return None
    suit = card_suit(plain[0])
    ranks = {card_rank(t) for t in plain}
    high = 0 in ranks and max(ranks) >= RANKS.index("Q") and not ranks & {1, 2}
    place = {(_ACE_HIGH if high and card_rank(t) == 0 else card_rank(t)): t for t in plain}
    if len(place) < len(plain):  # a rank twice: not a run (a meld being built), shown as it is
        return None
    wilds = [t for t in cards if t not in plain]
    own_two = next((t for t in wilds if t != JOKER and card_suit(t) == suit), None)
    if own_two is not None and {0, 2} & set(place) and _RANK_TWO not in place:
        place[_RANK_TWO] = own_two  # a 2 of the run's suit is natural in its place (T7.3)
        wilds.remove(own_two)
    low, top = min(place), max(place)
    for pos in range(low, top + 1):
        if pos not in place and wilds:
            place[pos] = wilds.pop()
    ordered = [place[p] for p in sorted(place)]
    return ordered + wilds if top < _ACE_HIGH else wilds + ordered


def _melds(s, b: int, pair: int) -> list[dict[str, Any]]:
    out = []
    for k in range(int(s.meld_count[b, pair])):
        cards = [t for t in range(NUM_TYPES) for _ in range(int(s.melds[b, pair, k, t]))]
        run = run_order(cards)
        types = sorted(cards, key=lambda t: t == JOKER or card_rank(t) == _RANK_TWO)  # a set's wilds last
        kind = _KINDS[int(s.meld_kind[b, pair, k])] or None
        owner = int(s.meld_owner[b, pair, k])
        out.append(meld(f"m{k}", [TYPE_NAMES[t] for t in run or types], kind, run is not None, owner))
    return out


def _fis(s, b: int, names: list[str], open_fis: bool) -> list[dict[str, Any]]:
    out = []
    for f in range(2):
        taker = int(s.fi_taker[b, f])
        label = f"Fi {f + 1}"
        if taker < 0:
            cards = [TYPE_NAMES[t] for t in sorted(int(x) for x in s.fi[b, f])]
            out.append(
                {
                    "label": label,
                    "cards": cards if open_fis else None,
                    "count": len(cards),
                    "note": "on the table",
                }
            )
        else:
            used = "used" if s.fi_used[b, f] else "not used yet"
            out.append(
                {"label": label, "cards": None, "count": 0, "note": f"taken by {names[taker]} ({used})"}
            )
    return out


def turkish_picture(state: Any, rules: Rules, b: int, names: list[str], viewer: int | None) -> dict[str, Any]:
    """Game ``b`` as the web app's JSON, from seat ``viewer`` (``None``: every hand open)."""
    s = state
    phase = _PHASES[int(s.phase[b])]
    over = phase == "over"
    players = []
    for q in range(4):
        status = "opened" if s.opened[b, q] else "layer-off (T10.2)" if s.layoff[b, q] else "not opened"
        player = seat(s, b, q, names[q], q % 2, bool(s.opened[b, q]), viewer in (None, q) or over)
        player["notes"] = [status]
        players.append(player)
    pairs = []
    for pair in range(2):
        forced = int(s.forced[b, pair])
        opened = bool(s.opened[b, pair] or s.opened[b, pair + 2])
        notes = [_FORCED[forced]] if forced else []
        pairs.append(side(s, b, pair, [pair, pair + 2], opened, _melds(s, b, pair), notes))
    return {
        **header(s, b, phase, viewer),
        "stock": {"size": int(s.stock_len[b]), "known_bottom": []},
        "pile": pile(s, b),
        "players": players,
        "sides": pairs,
        "extras": _fis(s, b, names, viewer is None),
        "notes": end_notes(s, b, names, over),
        "target": int(s.target[b]),
    }


def turkish_moves(state: Any, rules: Rules, b: int, legal: np.ndarray) -> dict[str, Any]:
    """The legal actions of mask row ``legal`` by what the page clicks: ``cards`` (a hand
    card starting a meld in the pair's next slot, ``new``, or laid on slot ``m<k>``),
    ``discard`` (by card) and ``buttons`` (draw, take the pile, withdraw)."""
    pair = int(state.to_move[b]) % 2
    next_slot = f"m{int(state.meld_count[b, pair])}"
    cards: dict[str, list[dict[str, Any]]] = {}
    discard: dict[str, str] = {}
    buttons: list[str] = []
    for a in map(int, np.flatnonzero(legal)):
        name = A.ACTION_NAMES[a]
        if A.NEW0 <= a < A.ADD0:
            move = {"action": name, "to": next_slot, "new": True}
            cards.setdefault(TYPE_NAMES[A.NEW_TYPES[a - A.NEW0]], []).append(move)
        elif A.ADD0 <= a < A.DISCARD0:
            k, t = divmod(a - A.ADD0, NUM_TYPES)
            cards.setdefault(TYPE_NAMES[t], []).append({"action": name, "to": f"m{k}"})
        elif a >= A.DISCARD0:
            discard[TYPE_NAMES[a - A.DISCARD0]] = name
        else:
            buttons.append(name)
    return {"cards": cards, "melds": {}, "discard": discard, "buttons": buttons}
