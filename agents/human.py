"""Playing a hand in the terminal against bots.

The table is shown from the human player's seat: his own hand, everybody's
groups and collections, the other hands only by size and publicly known
cards, the top of the discard pile. The legal moves are listed with numbers
and names; a move is entered by either. Other commands: ``help``, ``table``
(show the table again), ``hint`` (what ``HeuristicBot`` would play),
``save FILE`` (write the position as a JSON document, :mod:`kanaszta_env.position`,
which ``play --resume FILE`` continues), and ``quit``. Bad input gets a
message and a new prompt. When the hand ends the full scoring is shown
(R16, R17). Input and output streams are parameters, so the loop can be
driven by a script (tests do).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from kanaszta_env import GameBatch, Rules
from kanaszta_env import position as positions
from kanaszta_env.actions import ACTION_NAMES, action_from_name
from kanaszta_env.cards import GROUP_NAMES, GROUP_SLOTS, NUM_GROUPS, SLOT_TYPE, TYPE_NAMES, counts_to_cards
from kanaszta_env.encoding import encode
from kanaszta_env.engine.compiled import (
    CANASTA_BASE,
    CANASTA_NAMES,
    FREE_NAMES,
    HAND_PENALTY,
    PHASE_NAMES,
    PHASE_OVER,
    PICKUP_PILE,
    canasta_kind,
    group_card_value,
)

from .base import Agent
from .heuristic import HeuristicBot
from .records import GameRecord, make_record

HELP = """commands:
  <number> or <move name>   play a legal move (e.g. 3, draw, meld_KS, discard_7D)
  table                     show the table again
  hint                      what HeuristicBot would play here
  save FILE                 save the position (resume with: kanaszta play --resume FILE)
  help                      this text
  quit                      stop without finishing the hand"""

_FROZEN = {"3S", "3C", "2S", "2H", "2D", "2C", "JK"}


def _group_text(g: int, row: np.ndarray) -> str:
    cards = [TYPE_NAMES[SLOT_TYPE[g, k]] for k in range(GROUP_SLOTS) for _ in range(int(row[k]))]
    kind = CANASTA_NAMES[canasta_kind(g, row)]
    return f"{GROUP_NAMES[g]}: {' '.join(cards)}" + (f" [{kind}]" if kind else "")


def render_view(games: GameBatch, seat: int, names: Sequence[str]) -> str:
    """The table as seat ``seat`` sees it (other hands hidden)."""
    s = games.state
    P = games.num_players
    phase = int(s.phase[0])
    mover = int(s.to_move[0])
    lines = [
        f"turn {int(s.turn[0])} · phase {PHASE_NAMES[phase]}"
        + ("" if phase == PHASE_OVER else f" · {names[mover]} to move")
        + f" · starter {names[int(s.starter[0])]}"
    ]
    if phase == 0:
        kept = ["kept" if k == 1 else "left" if k == 0 else "?" for k in s.cut_kept[0]]
        cut = ", ".join(f"{TYPE_NAMES[int(t)]} ({k})" for t, k in zip(s.cut_cards[0], kept, strict=True))
        lines.append(f"cut cards: {cut}")
    n = int(s.pile_len[0])
    stock = int(s.stock_len[0])
    known = int(min(s.stock_known[0], stock))
    stock_text = f"stock {stock}"
    if known:
        stock_text += (
            " (known at the bottom: " + " ".join(TYPE_NAMES[int(t)] for t in s.stock[0, :known]) + ")"
        )
    if n:
        top = TYPE_NAMES[int(s.pile[0, n - 1])]
        pile_text = f"discard pile {n}, top {top} from {names[int(s.pile_owner[0, n - 1])]}"
        if top in _FROZEN:
            pile_text += " (frozen)"
    else:
        pile_text = "discard pile empty"
    lines.append(f"{stock_text} · {pile_text}")
    for k in range(P):
        q = (seat + k) % P
        flags = [
            f"total {int(s.totals[0, q])}",
            "opened" if s.opened[0, q] else "not opened",
            f"free pickup {FREE_NAMES[int(s.free_pickup[0, q])]}",
        ]
        marker = "*" if q == mover and phase != PHASE_OVER else " "
        lines.append(f"{marker}{names[q]}: " + " · ".join(flags))
        hand = counts_to_cards(s.hand[0, q])
        if q == seat or phase == PHASE_OVER:
            lines.append(f"    hand ({len(hand)}): {' '.join(hand) or '-'}")
        else:
            lines.append(f"    hand: {len(hand)} cards")
            known_cards = counts_to_cards(s.known[0, q])
            if known_cards:
                lines.append(f"    known in that hand: {' '.join(known_cards)}")
        groups = [_group_text(g, s.groups[0, q, g]) for g in range(NUM_GROUPS) if s.groups[0, q, g].sum()]
        lines.append(f"    groups: {' | '.join(groups) or '-'}")
        red = "3H " * int(s.red_threes[0, q, 0]) + "3D " * int(s.red_threes[0, q, 1])
        lines.append(
            f"    red threes: {red.strip() or '-'} · twins {int(s.twins[0, q])}"
            f" · separate heart aces {int(s.sep_heart_aces[0, q])}"
        )
    if phase == 4:
        card = TYPE_NAMES[int(s.pickup_card[0])]
        lines.append(f"penalised pickup of {card}: meld it with at least two cards from the hand (R8)")
    if s.lifted[0] >= 0:
        lines.append(f"lifted {TYPE_NAMES[int(s.lifted[0])]}: place it on another group (R13.2)")
    return "\n".join(lines)


def score_breakdown(
    games: GameBatch, names: Sequence[str], out_bonus: dict[int, int]
) -> tuple[str, list[int]]:
    """The R16 scoring of every player at the end of the hand, and the raw
    scores; ``out_bonus`` maps the player who went out to his going-out
    bonuses (100, 200 from hand, 300 with table clearing)."""
    s = games.state
    lines = ["scoring (R16):"]
    raws = []
    for q in range(games.num_players):
        red = int(s.red_threes[0, q].sum())
        parts = []
        total = 0
        if red:
            pts = 800 if red == 4 else 100 * red
            parts.append(f"red threes {red}: {pts}")
            total += pts
        twins = int(s.twins[0, q])
        if twins:
            parts.append(f"twins {twins}: {100 * twins}")
            total += 100 * twins
        for g in range(NUM_GROUPS):
            kind = canasta_kind(g, s.groups[0, q, g])
            if kind:
                parts.append(f"{CANASTA_NAMES[kind]} of {GROUP_NAMES[g]}: {int(CANASTA_BASE[kind])}")
                total += int(CANASTA_BASE[kind])
        aces = int(s.sep_heart_aces[0, q])
        if aces:
            parts.append(f"separate heart aces {aces}: {500 * aces}")
            total += 500 * aces
        bonus = out_bonus.get(q, 0)
        if bonus:
            what = {100: "going out", 200: "going out from hand", 300: "going out with table clearing"}[bonus]
            parts.append(f"{what}: {bonus}")
            total += bonus
        melded = sum(int(group_card_value(g, s.groups[0, q, g])) for g in range(NUM_GROUPS))
        parts.append(f"melded cards: +{melded}")
        total += melded
        hand = counts_to_cards(s.hand[0, q])
        penalty = int((s.hand[0, q].astype(np.int64) * HAND_PENALTY).sum())
        if hand:
            parts.append(f"cards in hand ({' '.join(hand)}): -{penalty}")
        total -= penalty
        raws.append(total)
        recorded = int(s.hand_scores[0, q])
        taxed = "" if recorded == total else f" (after tax, R17: {recorded})"
        lines.append(f"  {names[q]}: " + "; ".join(parts) + f" = {total}{taxed}")
    return "\n".join(lines), raws


@dataclass
class HumanGame:
    """What :func:`play_human` returns."""

    finished: bool
    scores: list[int] | None  # recorded hand scores (R16 after the R17 tax)
    record: GameRecord
    raw_scores: list[int] | None = None  # the sums of the printed breakdown (before tax)


def play_human(
    opponents: Sequence[Agent],
    rules: Rules | None = None,
    *,
    seat: int = 0,
    seed: int | None = None,
    start: dict | None = None,
    input_stream: TextIO | None = None,
    output: TextIO | None = None,
    name: str = "you",
) -> HumanGame:
    """Play one hand with a human in ``seat`` and ``opponents`` in the other
    seats (in seat order), from a new deal (``seed``) or a position ``start``."""
    inp = input_stream or sys.stdin
    out = output or sys.stdout
    if start is not None:
        games = positions.load(start)
        rules = games.rules
    else:
        rules = rules or Rules()
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (2**31))
        games = GameBatch(rules, 1)
        games.reset(seed=seed)
    if rules.episode != "hand":
        raise ValueError("human play covers one hand (episode='hand')")
    P = rules.num_players
    if len(opponents) != P - 1:
        raise ValueError(f"{P} players need {P - 1} opponents, got {len(opponents)}")
    if not 0 <= seat < P:
        raise ValueError(f"seat must be in 0..{P - 1}")
    agents: list[Agent | None] = []
    it = iter(opponents)
    for q in range(P):
        agents.append(None if q == seat else next(it))
    names = [name if a is None else f"{a.name} (seat {q})" for q, a in enumerate(agents)]
    for a in opponents:
        a.setup(rules)
        a.reset(P)
    adviser = HeuristicBot(rules)
    history: list[int] = []
    out_bonus: dict[int, int] = {}

    def say(text: str = "") -> None:
        print(text, file=out)

    def step(a: int) -> None:
        s = games.state
        mover = int(s.to_move[0])
        from_hand = s.opened[0, mover] == 0
        clearing = from_hand and s.pickup_kind[0] == PICKUP_PILE and s.pickup_size[0] >= 10
        games.step(np.array([a]))
        history.append(a)
        if games.done[0] and int(games.state.out_player[0]) == mover:
            out_bonus[mover] = 300 if clearing else 200 if from_hand else 100

    shown = True
    say(render_view(games, seat, names))
    while not games.done[0]:
        mover = int(games.to_move[0])
        mask = games.legal_mask()[0].copy()
        agent = agents[mover]
        if agent is not None:
            obs = encode(games.state, rules, mover)
            a = int(agent.act(obs, mask[None], np.array([mover]))[0])
            say(f"{names[mover]}: {ACTION_NAMES[a]}")
            step(a)
            shown = False
            continue
        if not shown:
            say()
            say(render_view(games, seat, names))
        shown = True
        legal = [int(a) for a in np.flatnonzero(mask)]
        say("moves: " + "  ".join(f"[{i + 1}] {ACTION_NAMES[a]}" for i, a in enumerate(legal)))
        while True:
            out.write("> ")
            out.flush()
            line = inp.readline()
            if not line:
                say("\ninput ended; the hand is not finished")
                return HumanGame(False, None, _record(rules, history, seed, start, names))
            cmd = line.strip()
            if not cmd:
                continue
            word, _, arg = cmd.partition(" ")
            if word == "help" or word == "?":
                say(HELP)
            elif word == "quit":
                say("stopped; the hand is not finished")
                return HumanGame(False, None, _record(rules, history, seed, start, names))
            elif word == "table":
                say(render_view(games, seat, names))
            elif word == "hint":
                obs = encode(games.state, rules, seat)
                say(f"HeuristicBot would play {ACTION_NAMES[int(adviser.act(obs, mask[None])[0])]}")
            elif word == "save":
                if not arg.strip():
                    say("usage: save FILE")
                    continue
                try:
                    Path(arg.strip()).write_text(json.dumps(positions.dump(games), indent=1) + "\n")
                except OSError as err:
                    say(f"cannot save: {err}")
                    continue
                say(f"position saved to {arg.strip()}")
            else:
                a = _parse_move(cmd, legal)
                if isinstance(a, str):
                    say(a)
                    continue
                step(a)
                break
    say()
    say(render_view(games, seat, names))
    text, raws = score_breakdown(games, names, out_bonus)
    say(text)
    scores = [int(x) for x in games.state.hand_scores[0]]
    ranking = sorted(range(P), key=lambda q: -scores[q])
    say("result: " + ", ".join(f"{names[q]} {scores[q]}" for q in ranking))
    return HumanGame(True, scores, _record(rules, history, seed, start, names, scores), raws)


def _parse_move(cmd: str, legal: list[int]) -> int | str:
    """The action id of a typed move, or a message saying what is wrong."""
    if cmd.isdigit():
        k = int(cmd)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        return f"no move number {k}: choose 1 to {len(legal)}"
    try:
        a = action_from_name(cmd)
    except ValueError:
        return f"unknown move {cmd!r} (type help for the commands)"
    if a not in legal:
        return f"{ACTION_NAMES[a]} is not legal now"
    return a


def _record(rules, history, seed, start, names, scores=None) -> GameRecord:
    return make_record(rules, history, seed=seed if start is None else None, start=start, players=list(names),
                       scores=scores)  # fmt: skip
