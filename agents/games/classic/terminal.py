"""Classic canasta's words at the terminal (:class:`agents.human.TerminalWords`): the
partner's question "may I go out?" (C12.5) put to the human, and the answers told."""

from __future__ import annotations

from kanaszta_env import GameBatch

from ...human import TerminalWords


class ClassicWords(TerminalWords):
    def told(self, before, games: GameBatch, action: int) -> list[str]:
        name = games.action_names[action]
        if before == self.seat:
            return []
        return [f"{self.names[before]} {'answers' if name in ('yes', 'no') else 'plays'} {name}"]

    def header(self, games: GameBatch) -> list[str]:
        if set(games.legal_names(0)) != {"yes", "no"}:
            return []
        asker = self.names[int(games.state.mover[0])]
        return [f"{asker} asks you: may I go out? (yes: he must go out now; no: he may not this turn)"]
