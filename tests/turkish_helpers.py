"""Building Turkish kanasta positions for the rule tests: name the cards that matter, the
rest of the 106 cards go to the stock (or, when a short stock is asked for, to a seat)."""

from __future__ import annotations

from collections import Counter

from kanaszta_env import GameBatch, position
from kanaszta_env.cards import TYPE_NAMES
from kanaszta_env.games.turkish.actions import action_from_name

DECK = Counter({name: 2 for name in TYPE_NAMES})


def table(
    hands: list[list[str]],
    melds: tuple[list[dict], list[dict]] = ([], []),
    *,
    phase: str = "draw",
    to_move: int = 0,
    pile: list[str] | None = None,
    fis: tuple = ("deal", "deal"),
    opened: tuple[bool, ...] = (False,) * 4,
    layoff: tuple[bool, ...] = (False,) * 4,
    totals: tuple[int, int] = (0, 0),
    forced: tuple[str, str] = ("no", "no"),
    stock: list[str] | None = None,
    sink: int = 3,
) -> GameBatch:
    """One game at the position described; ``fis`` entries are ``"deal"`` (11 cards from the
    rest) or ``{"taker": q, "used": bool}``; with ``stock`` given, the rest joins seat ``sink``."""
    rest = DECK.copy()
    pile = pile or []
    used = [c for h in hands for c in h] + [c for pair in melds for m in pair for c in m["cards"]] + pile
    used += stock or []
    rest.subtract(Counter(used))
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"more than two copies of {[c for c, n in rest.items() if n < 0]}")
    cards = sorted(rest.elements(), key=TYPE_NAMES.index)
    docs_fis = []
    for fi in fis:
        if fi == "deal":
            docs_fis.append({"cards": cards[:11]})
            cards = cards[11:]
        else:
            docs_fis.append(fi)
    hands = [list(h) for h in hands]
    if stock is None:
        stock = cards
    else:
        hands[sink] += cards
    doc = {
        "variant": "tr",
        "phase": phase,
        "to_move": to_move,
        "starter": to_move,
        "stock": stock,
        "discard": pile,
        "fis": docs_fis,
        "players": [{"hand": h, "opened": opened[q], "layoff": layoff[q]} for q, h in enumerate(hands)],
        "pairs": [{"melds": list(melds[i]), "forced": forced[i], "total": totals[i]} for i in range(2)],
    }
    return position.load(doc)


def play(games: GameBatch, *names: str) -> None:
    """Play the named actions in game 0; each must be legal."""
    for name in names:
        legal = games.legal_names(0)
        assert name in legal, f"{name} is not legal; legal: {legal}"
        games.step([action_from_name(name)])


def meld(owner: int, *cards: str, kind: str | None = None) -> dict:
    out = {"owner": owner, "cards": list(cards)}
    if kind is not None:
        out["kind"] = kind
    return out
