"""Turkish kanasta's playthrough (preset ``tr``): the hand recorded (:data:`SPECS`), its
rendering from the position document (:func:`kanaszta_env.position.dump`, so the golden file
also pins the Turkish position format) and the heuristic bot as its policy, with a seeded
chance of a uniformly random legal action instead (so withdrawals and odd melds appear too)."""

from __future__ import annotations

import numpy as np

from agents.games.turkish.bots import TurkishHeuristicBot
from kanaszta_env import GameBatch, position

from .recorder import Chooser, Spec, _wrap

END_REASONS = {"out": "went out", "exhausted": "stock exhausted", "turn_limit": "turn limit"}
EXPLORE = 0.05  # chance of a uniformly random legal action

# The seed was picked by trying the first seeds (the first dealer drawn, T2.2): the hand
# shows pile pickups, a withdrawal, openings, a canasta and a Fi taken, and ends with a
# player going out.
SPECS = (Spec("4p_tr", "tr", 4, 16, 200),)


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def render_state(games: GameBatch) -> list[str]:
    """Compact text of game 0: table, Fis, seats, pairs' melds and the turn's state."""
    doc = position.dump(games)
    phase, to_move = doc["phase"], doc["to_move"]
    lines = [f"phase {phase} · to move P{to_move} · turn {doc['turn']}"]
    pile = list(doc["discard"])
    if pile:
        pile[-1] = f"[{pile[-1]}]"
    lines += _wrap("table  ", f"stock {len(doc['stock'])} · discard {len(pile)}: {_cards(pile)}")
    fis = []
    for f, fi in enumerate(doc["fis"]):
        if "taker" in fi:
            fis.append(f"Fi {f + 1} taken by P{fi['taker']} ({'used' if fi['used'] else 'not used yet'})")
        else:
            fis.append(f"Fi {f + 1} on the table")
    lines.append("fis    " + " · ".join(fis))
    for q, p in enumerate(doc["players"]):
        marker = ">" if q == to_move and phase != "over" else " "
        status = "opened" if p["opened"] else "layer-off" if p["layoff"] else "not opened"
        lines += _wrap(f"P{q}{marker} {status} ", f"hand {len(p['hand'])}: {_cards(p['hand'])}")
        if p["known"]:
            lines += _wrap("        ", f"known: {_cards(p['known'])}")
    for i, pair in enumerate(doc["pairs"]):
        head = f"pair {i} (P{i} P{i + 2})" + (f" forced {pair['forced']}" if pair["forced"] != "no" else "")
        lines.append(head + (":" if pair["melds"] else ": no melds"))
        for k, m in enumerate(pair["melds"]):
            kind = f" [{m['kind']}]" if m["kind"] != "none" else ""
            lines += _wrap(f"  m{k} P{m['owner']} ", f"{_cards(m['cards'])}{kind}")
    if phase == "meld" and "checkpoint" in doc:
        lines.append("turn   laid cards this turn")
    return lines


def render_result(games: GameBatch, rewards: np.ndarray) -> list[str]:
    doc = position.dump(games)
    reason = END_REASONS[doc["end_reason"]]
    if doc["out_player"] is not None:
        reason += f" (P{doc['out_player']})"
    lines = [f"end: {reason} after {doc['turn']} turns"]
    for i, pair in enumerate(doc["pairs"]):
        lines.append(f"pair {i}: hand score {pair['hand_score']} · total {pair['total']}")
    lines.append("rewards: " + " ".join(f"P{q} {float(r):+.1f}" for q, r in enumerate(rewards)))
    return lines


RENDERERS = (render_state, render_result)
LEGEND = ("melds by slot (m0, m1, ...) with the seat that laid them; [X] is the top of the discard pile",)


def policy(seed: int) -> Chooser:
    """The heuristic bot, with a seeded chance of a random legal action instead."""
    rng = np.random.default_rng(seed)
    bot = None

    def choose(games: GameBatch, legal: list[str]) -> str:
        nonlocal bot
        if bot is None:
            bot = TurkishHeuristicBot(games.rules)
        if rng.random() < EXPLORE:
            return legal[int(rng.integers(len(legal)))]
        action = int(bot.act(games.observe(), games.legal_mask())[0])
        return games.action_names[action]

    return choose
