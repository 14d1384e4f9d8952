"""Mini canasta as a :class:`~kanaszta_env.games.Game`: what the layers above ask it."""

from __future__ import annotations

from typing import Any

import numpy as np

from kanaszta_env.cards import NUM_TYPES, RANKS, TYPE_NAMES
from kanaszta_env.games import Game
from kanaszta_env.games.pictures import end_notes, header, pile

from . import actions as A
from .spec import MINI


class MiniCanasta(Game):
    """Mini canasta (M1-M9 of the package docstring): two players, melds of one rank."""

    name = MINI.name
    presets = {"mini": {"players": (2,), "default_players": 2}}  # noqa: RUF012 - frozen by Game
    capabilities = frozenset({"webapp"})
    default_target = 1000  # M9

    @property
    def spec(self):
        return MINI

    def defaults(self, rules) -> dict[str, Any]:
        """No opening minimum: a meld needs none (M4)."""
        out = super().defaults(rules)
        if rules.opening_minimum not in (None, 0) or rules.opening_schedule is not None:
            raise ValueError("mini canasta has no opening minimum: opening_minimum cannot be set (M4)")
        out["opening_minimum"] = 0
        return out

    def validate(self, rules) -> dict[str, Any]:
        return {}

    def check_schedule_minimum(self, minimum: int) -> None:  # pragma: no cover - refused in defaults
        raise ValueError("mini canasta has no opening minimum (M4)")

    def action_names(self, rules) -> tuple[str, ...]:
        return A.ACTION_NAMES

    def observation_pieces(self, rules, piece: type) -> tuple:
        from .observation import mini_pieces

        return mini_pieces(piece)

    def table_picture(self, state, rules, game, names, viewer) -> dict[str, Any]:
        """Each seat is its own side, its melds labelled by rank."""
        s, b = state, game
        phase = ("-", "draw", "meld", "over")[int(s.phase[b])]
        over = phase == "over"
        players, sides = [], []
        for q in range(2):
            shown = viewer in (None, q) or over
            hand = [TYPE_NAMES[t] for t in range(NUM_TYPES) for _ in range(int(s.hand[b, q, t]))]
            melds = [
                {"id": RANKS[r], "label": RANKS[r], "owner": q, "run": False, "canasta": None,
                 "cards": [TYPE_NAMES[t] for t in range(NUM_TYPES) for _ in range(int(s.melds[b, q, i, t]))]}
                for i, r in enumerate(A.MELD_RANKS) if s.melds[b, q, i].any()
            ]  # fmt: skip
            for m in melds:
                m["canasta"] = "canasta" if len(m["cards"]) >= MINI.canasta_size else None
            total, last = int(s.totals[b, q]), int(s.hand_scores[b, q])
            players.append({"seat": q, "name": names[q], "side": q, "total": total, "last_hand": last,
                            "opened": bool(melds), "hand_size": len(hand), "known": [],
                            "hand": hand if shown else None, "notes": []})  # fmt: skip
            sides.append({"side": q, "seats": [q], "total": total, "last_hand": last, "opened": bool(melds),
                          "red_threes": [], "melds": melds, "notes": []})  # fmt: skip
        return {
            **header(s, b, phase, viewer),
            "stock": {"size": int(s.stock_len[b]), "known_bottom": []},
            "pile": pile(s, b),
            "players": players,
            "sides": sides,
            "extras": [],
            "notes": end_notes(s, b, names, over),
        }

    def move_picture(self, state, rules, game, legal) -> dict[str, Any]:
        """Melds and lay-offs are clicked on a meld of the rank (its id), discards on a card."""
        melds: dict[str, list[dict[str, Any]]] = {}
        discard, buttons = {}, []
        for a in map(int, np.flatnonzero(legal)):
            name = A.ACTION_NAMES[a]
            if a >= A.DISCARD0:
                discard[TYPE_NAMES[a - A.DISCARD0]] = name
            elif a >= A.MELD0:
                rank = RANKS[A.MELD_RANKS[(a - A.MELD0) % A.NUM_MELDS]]
                melds.setdefault(rank, []).append({"action": name, "label": name.replace("_", " ")})
            else:
                buttons.append(name)
        return {"cards": {}, "melds": melds, "discard": discard, "buttons": buttons}

    @property
    def position(self):
        from . import position

        return position


MINI_GAME = MiniCanasta()
