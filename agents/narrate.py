"""Every game's turns told in words, from its table picture (docs/webapp.md).

:class:`TurnNarrator` compares the picture seen from the viewer's seat
(:meth:`Game.table_picture`) before and after each action: another player's turn
becomes one line (``Bea: drew a card · new meld of kings: KH KS 2C · discarded 9D``),
the viewer's own actions a line each (``you drew 7D``, ``you: discarded 9C``).
Only what the picture shows the viewer is used, so a hidden hand's cards, another
player's drawn card included, are never named; a spectator (``viewer=None``) is
told the public facts only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

Picture = dict[str, Any]
_PLURAL = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks"}
_WILD = ("2", "JK")


def _minus(after: Sequence[str], before: Sequence[str]) -> list[str]:
    """The cards of ``after`` beyond those of ``before`` (multisets), in ``after``'s order."""
    spare = Counter(before)
    out = []
    for card in after:
        if spare[card]:
            spare[card] -= 1
        else:
            out.append(card)
    return out


def _rank(card: str) -> str:
    return card if card == "JK" else card[:-1]


def meld_words(meld: Mapping[str, Any]) -> str:
    """What a meld is, in words: ``kings`` (a set, by its natural rank), ``the run 5H…8H``."""
    cards = meld["cards"]
    if meld["run"]:
        return f"the run {cards[0]}…{cards[-1]}"
    naturals = [_rank(c) for c in cards if _rank(c) not in _WILD]
    if not naturals:
        return "wild cards"
    rank = Counter(naturals).most_common(1)[0][0]
    return _PLURAL.get(rank, f"{rank}s")


def meld_phrases(start: list[Mapping[str, Any]], end: list[Mapping[str, Any]]) -> list[str]:
    """What was taken back and laid between two lists of a side's melds (matched by ``id``)."""
    before = {m["id"]: m for m in start}
    after = {m["id"]: m for m in end}
    out = []
    for meld in start:  # a turn taken back (classic canasta's withdraw after asking)
        gone = _minus(meld["cards"], after[meld["id"]]["cards"] if meld["id"] in after else [])
        if gone:
            out.append(f"took back {' '.join(gone)} from {meld_words(meld)}")
    for meld in end:
        old = before.get(meld["id"])
        added = _minus(meld["cards"], old["cards"] if old else [])
        if old is None:
            kind = "run" if meld["run"] else f"meld of {meld_words(meld)}"
            text = f"new {kind}: {' '.join(meld['cards'])}"
        elif added:
            text = f"laid {' '.join(added)} on {meld_words(old)}"
        else:
            continue
        if meld["canasta"] and (old is None or old["canasta"] != meld["canasta"]):
            text += f" ({meld['canasta']} completed)" if old else f" ({meld['canasta']})"
        out.append(text)
    return out


def note_phrases(start: Sequence[str], end: Sequence[str]) -> list[str]:
    """The notes new in ``end``: ``red threes 2 → 3`` when one replaces a note that
    differs from it in its last word only, else the new note as it is."""
    gone = [n for n in start if n not in end]
    out = []
    for note in (n for n in end if n not in start):
        head = note.rpartition(" ")[0]
        old = next((g for g in gone if head and g.rpartition(" ")[0] == head), None)
        out.append(f"{old} → {note.rpartition(' ')[2]}" if old else note)
    return out


def plural(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


class TurnNarrator:
    """Turns pairs of table pictures into lines (see the module's text).

    Args:
        names: one name per seat.
        viewer: the seat whose own cards may be named, or ``None`` (a spectator).
        action_words: what an action's name means where the picture does not show it
            (classic canasta's ``ask``: "asked the partner: may I go out?").
    """

    def __init__(self, names: Sequence[str], viewer: int | None, action_words: Mapping[str, str]) -> None:
        self.names, self.viewer, self.action_words = list(names), viewer, dict(action_words)
        self._reset()

    def _reset(self) -> None:
        self._start: Picture | None = None  # the picture when the gathered turn began
        self._last: Picture | None = None  # the latest picture of that turn
        self._mover = -1
        self._later: list[str] = []  # the actions' words, the Fis taken
        self._discard = ""
        self._drawn = self._taken = 0  # cards drawn from the stock, taken from the pile
        self._top: str | None = None  # the pile's top when it was taken

    def step(self, before: Picture, after: Picture, mover: int, action: str) -> list[str]:
        """Lines told by the action named ``action`` of seat ``mover``, which led from the
        picture ``before`` to ``after``."""
        if after["hand_number"] != before["hand_number"]:  # a game episode dealt the next hand
            lines = self.flush(before) if mover == self._mover else self.flush()
            return [*lines, f"{self.names[mover]} played {action}; hand {after['hand_number']} is dealt"]
        if mover == self.viewer:
            phrases = self._own(before, after, mover)
            if phrases:
                return [*self.flush(), f"{self.names[mover]} {' · '.join(phrases)}"]
            laid = self._table_phrases(before, after, mover) + self._discarded(before, after, mover)
            return [*self.flush(), *([f"{self.names[mover]}: {' · '.join(laid)}"] if laid else [])]
        lines = self.flush() if mover != self._mover else []
        if self._start is None:
            self._start, self._mover = before, mover
        self._gather(before, after, action)
        if after["over"] or after["to_move"] != mover:
            lines += self.flush(after)
        return lines

    def flush(self, end: Picture | None = None) -> list[str]:
        """The line of the turn gathered so far (``end``: the picture it ended with, by
        default the last one seen), which is then forgotten."""
        if self._start is None:
            return []
        p, start, end = self._mover, self._start, end or self._last
        parts = []
        if self._drawn:
            parts.append("drew a card" if self._drawn == 1 else f"drew {self._drawn} cards")
        if self._taken:
            parts.append(f"took the discard pile ({plural(self._taken, 'card')}, top {self._top})")
        parts += self._table_phrases(start, end, p) + self._later
        if self._discard:
            parts.append(self._discard)
        if end["over"] and end["players"][p]["hand_size"] == 0:
            parts.append("went out")
        self._reset()
        return [f"{self.names[p]}: {' · '.join(parts)}"] if parts else []

    @staticmethod
    def _table_phrases(start: Picture, end: Picture, p: int, melds: bool = True) -> list[str]:
        """The melds laid (if ``melds``) and the notes of seat ``p`` and its side that changed."""
        side = end["players"][p]["side"]
        before = next(s for s in start["sides"] if s["side"] == side)
        after = next(s for s in end["sides"] if s["side"] == side)
        laid = meld_phrases(before["melds"], after["melds"]) if melds else []
        return (
            laid
            + note_phrases(start["players"][p]["notes"], end["players"][p]["notes"])
            + note_phrases(before["notes"], after["notes"])
        )

    def _gather(self, before: Picture, after: Picture, action: str) -> None:
        """Another player's action, from public facts: counts, the pile's top, the extras."""
        self._last = after
        self._drawn += max(before["stock"]["size"] - after["stock"]["size"], 0)
        grown = after["pile"]["size"] - before["pile"]["size"]
        if grown < 0:
            self._taken -= grown
            self._top = self._top or before["pile"]["top"]
        elif grown == 1:
            self._discard = f"discarded {after['pile']['top']}"
        for extra in _extras_taken(before, after):
            self._later.append(f"took {extra['label']} ({plural(extra['count'], 'card')})")
        if action in self.action_words:
            self._later.append(self.action_words[action])

    @staticmethod
    def _discarded(before: Picture, after: Picture, p: int) -> list[str]:
        """The card seat ``p`` discarded in one action, and his going out."""
        if after["pile"]["size"] != before["pile"]["size"] + 1:
            return []
        out = after["over"] and after["players"][p]["hand_size"] == 0
        return [f"discarded {after['pile']['top']}", *(["went out"] if out else [])]

    def _own(self, before: Picture, after: Picture, p: int) -> list[str]:
        """The viewer's own action: the cards it brought him, and the notes it changed."""
        gained = _minus(after["players"][p]["hand"] or [], before["players"][p]["hand"] or [])
        cards = " ".join(gained)
        out = []
        taken = before["pile"]["size"] - after["pile"]["size"]
        extras = _extras_taken(before, after)
        if taken > 0:
            out.append(f"took {plural(taken, 'card')} of the discard pile: {cards or before['pile']['top']}")
        elif extras:
            out.append(f"took {' and '.join(e['label'] for e in extras)}: {cards}")
        elif before["stock"]["size"] > after["stock"]["size"]:
            out.append(f"drew {cards or 'a card'}")
        if out:  # what a draw or a take changed about the seat and its side (red threes)
            out += self._table_phrases(before, after, p, melds=False)
        return out


def _extras_taken(before: Picture, after: Picture) -> list[Mapping[str, Any]]:
    """The extras (Turkish kanasta's Fis) that left the table in one action, as they were."""
    return [e for e, f in zip(before["extras"], after["extras"], strict=False) if f["count"] < e["count"]]
