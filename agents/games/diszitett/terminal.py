"""Díszített kanaszta's words at the terminal (:class:`agents.human.TerminalWords`): every
move told from public information (:mod:`.narrate`), the cut card or free pickup being
decided and the opening's progress before a choice, why a move is refused
(:mod:`.explain`), why a move would end the hand, and the score sheet (R16, R17)."""

from __future__ import annotations

from kanaszta_env import GameBatch
from kanaszta_env.cards import TYPE_NAMES, counts_to_cards
from kanaszta_env.games.diszitett.compiled import FREE_NAMES, PHASE_NAMES

from ...human import TerminalWords
from .explain import rules_text, turn_status, why_illegal
from .narrate import Narrator, end_text, snapshot, went_out
from .scoresheet import going_out_bonus, score_breakdown


class DiszitettWords(TerminalWords):
    def __init__(self, rules, names, seat) -> None:
        super().__init__(rules, names, seat)
        self.narrator = Narrator(rules, names, viewer=seat)
        self.out_bonus: dict[int, tuple[str, int]] = {}  # seat -> named going-out bonus (R16.2)

    def rules_text(self) -> str:
        return rules_text(self.rules)

    def before(self, games: GameBatch) -> object:
        return snapshot(games.state)

    def told(self, before, games: GameBatch, action: int) -> list[str]:
        if went_out(before, action):
            self.out_bonus[int(before.to_move[0])] = going_out_bonus(before)
        return self.narrator.step(before, snapshot(games.state), action)

    def header(self, games: GameBatch) -> list[str]:
        s = games.state
        phase = PHASE_NAMES[int(s.phase[0])]
        if phase == "cut":
            i = int(s.cut_index[0])
            card = TYPE_NAMES[int(s.cut_cards[0, i])]
            return [f"cut card {i + 1} of 3: {card} — keep it (it joins your hand, known to all) "
                    "or leave it (it goes to the bottom of the stock), R3"]  # fmt: skip
        hand = counts_to_cards(s.hand[0, self.seat])
        lines = [f"your hand ({len(hand)}): {' '.join(hand) or '-'}"]
        n = int(s.pile_len[0])
        if phase == "draw" and FREE_NAMES[int(s.free_pickup[0, self.seat])] == "now" and n:
            top = TYPE_NAMES[int(s.pile[0, n - 1])]
            lines.append(
                f"this is your free-pickup turn (R7): take_free takes {top} into your hand, once per hand"
            )
        status = turn_status(s, self.rules.to_config())
        return lines + ([status] if status else [])

    def why_illegal(self, games: GameBatch, action: int) -> str:
        return why_illegal(games.state, self.rules, action)

    def ends_hand(self, before, trial: GameBatch, action: int) -> str:
        return end_text(before, snapshot(trial.state), action, self.names, self.rules)

    def score_sheet(self, games: GameBatch) -> tuple[str, list[int] | None]:
        out = int(games.state.out_player[0])  # of the last hand: an earlier hand's bonus is not its
        return score_breakdown(games, self.names, {out: self.out_bonus[out]} if out in self.out_bonus else {})
