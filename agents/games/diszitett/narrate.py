"""A hand told in words: one line per turn of each player, from public information.

:class:`Narrator` compares the game before and after every action and says
what happened: who drew or took what, what was laid, what was discarded, red
threes laid out, a refilled stock, the end of the hand. Only what every player
at the table sees is told (R3-R8): another player's draw from the stock is "drew
a card"; the cards of a discard pile taken up are public, because everybody saw
them lie face up. The one exception is the ``viewer``'s own actions, which are
told to him with his cards (``you drew 7D``), one line per action, so that a
human player sees at once what each of his moves changed.

The terminal game (:mod:`agents.human`), ``kanaszta watch`` and ``kanaszta
replay`` (:mod:`agents.watch`) use it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.cards import GROUP_NAMES, NUM_GROUPS, SLOT_TYPE, TYPE_NAMES, counts_to_cards
from kanaszta_env.games.diszitett import actions as A
from kanaszta_env.games.diszitett.compiled import PHASE_NAMES, PHASE_OVER, State

from ...narrate import plural

PHASE_CUT = PHASE_NAMES.index("cut")
PHASE_PICKUP = PHASE_NAMES.index("pickup")
_END_TEXT = {
    1: "{out} went out (R14)",
    2: "the stock and the discard pile are exhausted (R5.4)",
    3: "the turn limit of {turns} turns is reached (R19.2)",
}


def snapshot(state: State, game: int = 0) -> State:
    """A copy of game ``game`` of ``state`` as a batch of one (for comparisons)."""
    return State(*(np.array(x[game : game + 1]) for x in state))


def cards_text(counts: np.ndarray) -> str:
    """``5H 5S JK`` for a vector of 53 counts (``-`` if empty)."""
    return " ".join(counts_to_cards(counts)) or "-"


def group_cards(g: int, row: np.ndarray) -> list[str]:
    """The cards of one group row (9 slot counts)."""
    return [TYPE_NAMES[SLOT_TYPE[g, k]] for k in range(len(row)) for _ in range(max(int(row[k]), 0))]


def groups_change(before: np.ndarray, after: np.ndarray) -> list[str]:
    """What changed between two (12, 9) group arrays of one player, group by
    group: ``5: 5H 5S 5D (new)``, ``K: +2C``, ``Q: -JK`` (a wild moved out)."""
    out = []
    for g in range(NUM_GROUPS):
        if (before[g] == after[g]).all():
            continue
        diff = after[g].astype(np.int64) - before[g]
        if before[g].any():
            parts = [f"+{c}" for c in group_cards(g, diff)] + [f"-{c}" for c in group_cards(g, -diff)]
        else:  # a new group: its cards as they are
            parts = [*group_cards(g, diff), "(new)"]
        out.append(f"{GROUP_NAMES[g]}: {' '.join(parts)}")
    return out


class Narrator:
    """Turns a sequence of actions into lines of text.

    Call :meth:`step` with the state before and after each action; it returns
    the lines that are complete. Another player's turn is gathered into one
    line, returned when his turn is over; the ``viewer``'s own actions give a
    line each at once. :meth:`flush` returns what is still gathered.

    Args:
        rules: the game's rules.
        names: one name per seat (``"you"`` for the viewer reads well).
        viewer: the seat whose cards may be named, or ``None`` (a spectator:
            public information only).
    """

    def __init__(self, rules: Rules, names: Sequence[str], viewer: int | None = None) -> None:
        self.rules, self.names, self.viewer = rules, list(names), viewer
        self._start: State | None = None  # the state when the gathered turn began
        self._mover = -1
        self._phrases: list[str] = []
        self._discarded: str | None = None
        self._groups_end: np.ndarray | None = None

    # --- the public entry points ----------------------------------------------------
    def step(self, before: State, after: State, action: int) -> list[str]:
        """Lines told by the action ``action`` that led from ``before`` to ``after``
        (snapshots of one game, see :func:`snapshot`)."""
        p = int(before.to_move[0])
        if p == self.viewer:
            lines = [*self.flush(), f"{self.names[p]} {self._own_phrase(before, after, action)}"]
        else:
            lines = self.flush() if p != self._mover else []
            if self._start is None:
                self._start, self._mover = before, p
            self._gather(before, after, action)
            cut_ended = (before.phase[0] == PHASE_CUT) != (after.phase[0] == PHASE_CUT)
            if int(after.to_move[0]) != p or after.phase[0] == PHASE_OVER or cut_ended:
                lines += self.flush()
        return lines + self._events(before, after, action)

    def flush(self) -> list[str]:
        """The line of the turn gathered so far (if any), which is then forgotten."""
        if self._start is None:
            return []
        p = self._mover
        parts = list(self._phrases)
        if self._groups_end is not None:
            laid = groups_change(self._start.groups[0, p], self._groups_end)
            if laid:
                parts.insert(1 if parts else 0, "laid " + " | ".join(laid))
        if self._discarded:
            parts.append(self._discarded)
        self._start, self._mover, self._phrases = None, -1, []
        self._discarded, self._groups_end = None, None
        return [f"{self.names[p]}: {' · '.join(parts)}"] if parts else []

    # --- another player's turn, in public words ---------------------------------------
    def _gather(self, before: State, after: State, a: int) -> None:
        p = self._mover
        if before.phase[0] == PHASE_CUT:
            self._phrases.append(cut_phrase(before, a))
            return
        if a >= A.DISCARD0:
            self._groups_end = before.groups[0, p].copy()
            self._discarded = discard_phrase(before, after, a)
            return
        self._groups_end = after.groups[0, p].copy()
        if a == A.DRAW:
            self._phrases.append(draw_phrase(before, after, p, private=False))
        elif a in (A.TAKE_FREE, A.TAKE_PILE):
            self._phrases.append(take_phrase(before, a))
        elif a == A.HEART_ACE:
            self._phrases.append("laid AH alone (separate heart ace, R10.6)")
        elif a == A.WITHDRAW:
            self._phrases.append("took back what was laid this turn (R12.5)")
        if before.phase[0] == PHASE_PICKUP and after.phase[0] != PHASE_PICKUP:
            self._phrases.append(rest_of_pile_phrase(before))

    # --- the viewer's own action, with his cards ----------------------------------------
    def _own_phrase(self, before: State, after: State, a: int) -> str:
        p = int(before.to_move[0])
        if before.phase[0] == PHASE_CUT:
            return cut_phrase(before, a)
        if a == A.DRAW:
            return draw_phrase(before, after, p, private=True)
        if a in (A.TAKE_FREE, A.TAKE_PILE):
            return take_phrase(before, a)
        if a >= A.DISCARD0:
            return discard_phrase(before, after, a)
        if a == A.WITHDRAW:
            return "took back everything laid this turn (R12.5); now discard"
        if a == A.HEART_ACE:
            return "laid AH alone (separate heart ace, worth 500, R10.6)"
        if A.LIFT0 <= a < A.PLACE0:
            g = GROUP_NAMES[(a - A.LIFT0) % NUM_GROUPS]
            return f"lifted {TYPE_NAMES[int(after.lifted[0])]} from {g}: place it on another group (R13.2)"
        if A.PLACE0 <= a < A.WITHDRAW:
            text = f"placed {TYPE_NAMES[int(before.lifted[0])]} on {GROUP_NAMES[a - A.PLACE0]}"
        else:
            text = "laid " + " | ".join(groups_change(before.groups[0, p], after.groups[0, p]))
        if before.phase[0] == PHASE_PICKUP and after.phase[0] != PHASE_PICKUP:
            text += "; " + rest_of_pile_phrase(before)
        return text

    # --- what happens to the table or to other players -----------------------------------
    def _events(self, before: State, after: State, a: int) -> list[str]:
        if before.phase[0] == PHASE_CUT and after.phase[0] != PHASE_CUT:
            return [deal_line(after, self.names, self.viewer)]
        p = int(before.to_move[0])
        if after.hand_number[0] != before.hand_number[0]:  # the hand ended
            lines = ["the hand is over: " + end_text(before, after, a, self.names, self.rules)]
            if after.phase[0] == PHASE_CUT:  # the next hand of a game episode
                starter = self.names[int(after.starter[0])]
                lines.append(f"hand {int(after.hand_number[0]) + 1}: {starter} cuts")
            return lines
        lines = [self._replacements(before, after, q) for q in range(len(self.names)) if q != p]
        taken = a in (A.TAKE_FREE, A.TAKE_PILE) or before.phase[0] == PHASE_PICKUP
        expected = int(before.pile_len[0]) + (1 if a >= A.DISCARD0 else 0)
        if not taken and int(after.pile_len[0]) < expected:
            lines.append(
                f"the stock ran out: the discard pile was shuffled into a new stock of "
                f"{int(after.stock_len[0])} cards (R5.4)"
            )
        return [line for line in lines if line]

    def _replacements(self, before: State, after: State, q: int) -> str:
        """Player ``q`` (not the mover) drew the replacements of his red threes as
        his turn began (R4.2), laying out any red three among them (R4.3)."""
        gained = np.maximum(after.hand[0, q].astype(np.int64) - before.hand[0, q], 0)
        new_red = after.red_threes[0, q].astype(np.int64) - before.red_threes[0, q]
        count = int(gained.sum())
        if not count and not new_red.any():
            return ""
        text = f"{self.names[q]} drew {plural(count, 'replacement card')} for red threes (R4.2)"
        if q == self.viewer and count:
            text += f": {cards_text(gained)}"
        if new_red.any():
            red = " ".join(["3H"] * int(new_red[0]) + ["3D"] * int(new_red[1]))
            text += f", laying out the red three(s) {red} drawn among them (R4.3)"
        return text


def cut_phrase(before: State, a: int) -> str:
    """``kept cut card 1 of 3 (AH)``."""
    i = int(before.cut_index[0])
    card = TYPE_NAMES[int(before.cut_cards[0, i])]
    if a == A.KEEP:
        return f"kept cut card {i + 1} of 3 ({card}): it joins the starter's hand, known to all (R3.2)"
    return f"left cut card {i + 1} of 3 ({card}): it goes to the bottom of the stock (R3.4)"


def draw_phrase(before: State, after: State, p: int, private: bool) -> str:
    """``drew 7D`` (``private``: the drawer's own view), else ``drew a card``;
    red threes drawn with it are laid out in public (R4.3)."""
    gained = after.hand[0, p].astype(np.int64) - before.hand[0, p]
    seen = after.known[0, p].astype(np.int64) - before.known[0, p]
    if private:
        text = f"drew {cards_text(np.maximum(gained, 0))}"
    elif (seen > 0).any():
        text = f"drew {cards_text(np.maximum(seen, 0))} (a known card from the bottom of the stock, R3.4)"
    else:
        text = "drew a card"
    red = after.red_threes[0, p].astype(np.int64) - before.red_threes[0, p]
    if red.any():
        threes = " ".join(["3H"] * int(red[0]) + ["3D"] * int(red[1]))
        text += f" after the red three(s) {threes}, laid out and replaced (R4.3)"
    return text


def take_phrase(before: State, a: int) -> str:
    """A free pickup (R7) or a penalised pickup of the whole pile (R8)."""
    n = int(before.pile_len[0])
    top = TYPE_NAMES[int(before.pile[0, n - 1])]
    if a == A.TAKE_FREE:
        return f"took {top} from the discard pile (free pickup, R7)"
    return (
        f"took the discard pile of {plural(n, 'card')} with its top card {top} "
        f"(penalised pickup, R8: {top} is melded with two cards from the hand first)"
    )


def rest_of_pile_phrase(before: State) -> str:
    """The rest of a taken pile joins the hand once the forced meld is made (R8.3)."""
    n = int(before.pile_len[0])
    if n == 0:
        return "the forced meld is made (R8.3)"
    rest = np.bincount(before.pile[0, :n].astype(np.int64), minlength=len(TYPE_NAMES))
    return (
        f"the forced meld is made; the rest of the pile joined the hand ({n} cards: {cards_text(rest)}, R8.3)"
    )


def discard_phrase(before: State, after: State, a: int) -> str:
    """``discarded 7D``, with a twin (R6) and going out (R14) when they happen."""
    p = int(before.to_move[0])
    text = f"discarded {TYPE_NAMES[a - A.DISCARD0]}"
    if after.twins[0, p] > before.twins[0, p]:  # (a new hand of a game episode resets them to 0)
        text += ", a twin (R6: the same card as the previous discard, +100)"
    if went_out(before, a):
        text += " and went out (R14)"
    return text


def went_out(before: State, a: int) -> bool:
    """Whether the discard ``a`` is the mover's last card (going out, R14)."""
    return a >= A.DISCARD0 and int(before.hand[0, int(before.to_move[0])].sum()) == 1


def deal_line(after: State, names: Sequence[str], viewer: int | None) -> str:
    """The deal after the cut (R3.3) and the red threes laid out at once (R4.1)."""
    parts = []
    for q in range(len(names)):
        red = after.red_threes[0, q]
        threes = " ".join(["3H"] * int(red[0]) + ["3D"] * int(red[1]))
        if threes:
            parts.append(f"{names[q]} {threes}")
    text = "the cards are dealt (R3.3)"
    if viewer is not None:
        text += f"; your hand: {cards_text(after.hand[0, viewer])}"
    if parts:
        text += "; red threes laid out (replaced when their owner's turn begins, R4): " + ", ".join(parts)
    return text


def end_text(before: State, after: State, a: int, names: Sequence[str], rules: Rules) -> str:
    """How the hand that the action ``a`` ended came to its end."""
    if went_out(before, a):
        reason = 1
    elif after.phase[0] == PHASE_OVER:
        reason = int(after.end_reason[0])
    else:  # a game episode has dealt the next hand, which cleared the reason
        reason = 3 if a >= A.DISCARD0 and int(before.turn[0]) + 1 >= rules.max_turns else 2
    return _END_TEXT[reason].format(out=names[int(before.to_move[0])], turns=rules.max_turns)
