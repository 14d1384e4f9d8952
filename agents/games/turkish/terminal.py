"""Turkish kanasta's words at the terminal (:class:`agents.human.TerminalWords`): the turns
are told from the table picture like every game's; the score sheet gives each pair's
hand score in its parts (T14)."""

from __future__ import annotations

from kanaszta_env import GameBatch
from kanaszta_env.games.turkish.scoring import pair_score

from ...human import TerminalWords


class TurkishWords(TerminalWords):
    def score_sheet(self, games: GameBatch) -> tuple[str, list[int] | None]:
        """Each pair's melds with their canasta bonuses, the cards it is charged for (not
        an unused Fi, T11.3), and the rest: the Fi bonus or penalty and going out."""
        s = games.state
        picture = self.rules.game.table_picture(s, self.rules, 0, self.names, None)
        scores = games.summary(0)["hand_scores"]
        unused = {int(s.fi_taker[0, f]) for f in range(2) if not s.fi_used[0, f]}
        lines = ["scoring (T14):"]
        for side in picture["sides"]:
            seats = side["seats"]
            melds = [(m["cards"], (m["canasta"] or "none").split()[0]) for m in side["melds"]]
            laid = pair_score(melds, fis_taken=1)  # a Fi "taken" keeps T11.4's penalty out
            hands = [picture["players"][q]["hand"] for q in seats if q not in unused]
            held = pair_score([], hands, fis_taken=1)
            score, who = scores[seats[0]], ", ".join(self.names[q] for q in seats)
            rest = score - laid - held
            parts = f"melds and canastas {laid} · cards in hands {held} · Fis and going out {rest:+d}"
            lines.append(f"  side {side['side']} ({who}): {parts} = {score}")
        return "\n".join(lines), None
