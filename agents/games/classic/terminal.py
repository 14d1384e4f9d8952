"""Classic canasta's words at the terminal (:class:`agents.human.TerminalWords`): the
partner's question "may I go out?" (C12.5) put to the human, the actions the table
picture does not show (asking, the answers, ending the hand at an empty stock) told,
and each side's score in its parts (C13)."""

from __future__ import annotations

from typing import ClassVar

from kanaszta_env import GameBatch
from kanaszta_env.games.classic.scoring import standings

from ...human import TerminalWords


class ClassicWords(TerminalWords):
    action_words: ClassVar[dict[str, str]] = {
        "ask": "asked the partner: may I go out? (C12.5)",
        "yes": "answered yes: the partner must go out now",
        "no": "answered no",
        "end_hand": "ended the hand at the empty stock (C4.5)",
    }

    def header(self, games: GameBatch) -> list[str]:
        if set(games.legal_names(0)) != {"yes", "no"}:
            return []
        asker = self.names[int(games.state.mover[0])]
        return [f"{asker} asks you: may I go out? (yes: he must go out now; no: he may not this turn)"]

    def score_sheet(self, games: GameBatch) -> tuple[str, list[int] | None]:
        """Each side's hand score in its parts (C13): melds, canastas and red threes, the
        cards left in its members' hands, and the rest (going out)."""
        melded, in_hand = standings(games)
        summary = games.summary(0)
        sides = self.rules.sides()
        lines = ["scoring (C13):"]
        for side in sorted(set(sides)):
            seats = [q for q in range(len(sides)) if sides[q] == side]
            score, laid, held = summary["hand_scores"][seats[0]], int(melded[0, side]), int(in_hand[0, side])
            parts = f"melds, canastas and red threes {laid} · cards in hands {-held}"
            rest = score - laid + held
            if rest:
                parts += f" · {'going out' if summary['went_out'] in seats else 'other'} {rest:+d}"
            lines.append(f"  side {side} ({', '.join(self.names[q] for q in seats)}): {parts} = {score}")
        return "\n".join(lines), None
