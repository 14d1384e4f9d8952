"""Playing a hand of a partnership game — classic canasta (presets ``pl``, ``sk``) or
Turkish kanasta (``tr``) — in the terminal.

The human sits in one seat, bots in the others — his partner too. The table is
shown from his seat (his hand, every side's melds, red threes and totals, the
other hands by size and publicly known cards) with the legal moves numbered;
a move is entered by number or name (``meld_k``, ``discard_9``; Turkish
``new_8S``, ``add_8H_to_m0``; spaces may stand for the underscores). Each of the
others' decisions is told in a line. In ``pl`` the partner's question is
part of the game (C12.5): when the human asks "may I go out?" the bot
partner's binding answer is shown; when the bot partner asks, the human is
prompted to answer ``yes`` or ``no``.

Commands: ``help``, ``table``, ``hint`` (what the heuristic bot would play),
``quit``. Input and output streams are parameters (tests drive the loop).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

import numpy as np

from kanaszta_env import GameBatch, Rules
from kanaszta_env.envs.render import render_table

from .base import Agent
from .games.diszitett.human import HumanGame
from .records import make_record
from .registry import make_agent

HELP = """commands:
  <number> or <move name>   play a legal move (e.g. 3, draw, meld_K, meld_2_to_K, discard_9;
                            Turkish: new_8S, add_8H_to_m0, discard_KC; "add 8H to m0" works too)
  table                     show the table again
  hint                      what the heuristic bot would play here
  help                      this text
  quit                      stop without finishing the hand (Ctrl-C too)"""


def play_classic_human(
    others: Sequence[Agent],
    rules: Rules,
    *,
    seat: int = 0,
    seed: int | None = None,
    input_stream: TextIO | None = None,
    output: TextIO | None = None,
    name: str = "you",
) -> HumanGame:
    """One hand of classic canasta or Turkish kanasta with a human in ``seat`` and ``others``
    (bots, in seat order, the human's partners included) in the other seats."""
    if rules.game.has("views"):
        raise ValueError(
            f"{rules.game.title} is played with agents.games.diszitett.human.play_human, "
            "not play_classic_human"
        )
    players = rules.num_players
    if len(others) != players - 1:
        raise ValueError(f"{players} players need {players - 1} other agents, got {len(others)}")
    if not 0 <= seat < players:
        raise ValueError(f"seat must be in 0..{players - 1}")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (2**31))
    games = GameBatch(rules, 1)
    games.reset(seed=seed)
    it = iter(others)
    agents: list[Agent | None] = [None if q == seat else next(it) for q in range(players)]
    for agent in others:
        agent.setup(rules)
        agent.reset(players)
    sides = rules.sides()
    names = [
        name if a is None else f"{a.name} ({'partner' if sides[q] == sides[seat] else 'opponent'}, seat {q})"
        for q, a in enumerate(agents)
    ]
    out, inp = output or sys.stdout, input_stream or sys.stdin
    hint_bot = make_agent("heuristic", rules)
    actions: list[int] = []

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    say(
        f"{rules.spec.title}, preset {rules.variant}, {players} players; "
        f"you are seat {seat}, side {sides[seat]}"
    )
    finished = True
    while not games.done[0]:
        mover = int(games.to_move[0])
        mask = games.legal_mask()[0]
        obs = games.observe()
        agent = agents[mover]
        if agent is not None:
            action = int(agent.act(obs, mask[None], np.array([mover]))[0])
            asked = games.action_names[action] in ("yes", "no")
            verb = "answers" if asked else "plays"
            say(f"{names[mover]} {verb} {games.action_names[action]}")
        else:
            say(render_table(games.state, rules, 0, names, viewer=seat))
            action = _ask_human(games, mask, obs, hint_bot, names, seat, say, inp)
            if action is None:
                finished = False
                break
        actions.append(action)
        games.step(np.array([action]))
    summary = games.summary(0)
    if finished:
        say(render_table(games.state, rules, 0, names))
        say(f"hand over ({summary['end_reason']}): scores by seat {summary['hand_scores']}")
    record = make_record(rules, actions, seed=seed, players=list(names), scores=summary["hand_scores"])
    return HumanGame(finished, summary["hand_scores"] if finished else None, record)


play_partners_human = play_classic_human  # the name for both partnership games


def _ask_human(games, mask, obs, hint_bot, names, seat, say, inp) -> int | None:
    """The human's next legal action, or ``None`` to stop."""
    legal = [int(a) for a in np.flatnonzero(mask)]
    labels = [games.action_names[a] for a in legal]
    if set(labels) == {"yes", "no"}:
        mover = int(games.state.mover[0])
        say(f"{names[mover]} asks you: may I go out? (yes: he must go out now; no: he may not this turn)")
    say("your moves: " + "  ".join(f"[{i}] {label}" for i, label in enumerate(labels)))
    while True:
        line = inp.readline()
        if not line:
            return None
        text = "_".join(line.strip().lower().split())
        if text in ("quit", "q", "exit"):
            return None
        if text == "help":
            say(HELP)
        elif text == "table":
            say(render_table(games.state, games.rules, 0, names, viewer=seat))
        elif text == "hint":
            say(f"hint: {games.action_names[int(hint_bot.act(obs, mask[None])[0])]}")
        elif text.isdigit() and int(text) < len(legal):
            return legal[int(text)]
        elif text in [label.lower() for label in labels]:
            return legal[[label.lower() for label in labels].index(text)]
        elif text:
            known = text in [n.lower() for n in games.action_names]
            reason = "is not legal now" if known else "is not a move or command (help lists them)"
            say(f"{line.strip()} {reason}; your moves: {', '.join(labels)}")
