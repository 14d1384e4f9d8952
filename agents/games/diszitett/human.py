"""Playing a hand in the terminal against bots.

The table is shown from the human player's seat: his own hand, everybody's
groups and collections, the other hands only by size and publicly known
cards, the top of the discard pile. The rules in force are shown first. The
legal moves are listed with numbers and names; a move is entered by either.

What each move changes is told at once (:mod:`agents.games.diszitett.narrate`): the card
drawn, red threes laid out and replaced, the cards of a pile taken up, the
groups being built this turn with the opening's progress ("opening 15 / 50");
the other players' turns are told in a line each, from public information
only. A refused move says why (:mod:`agents.games.diszitett.explain`), a near miss such as
``discard 9C`` gets "did you mean discard_9C", and a discard that would end the
hand (going out) asks to be confirmed.

Other commands: ``help``, ``table`` (show the table again), ``hint`` (what
``HeuristicBot`` would play), ``rules``, ``save FILE`` (write the position as a
JSON document, :mod:`kanaszta_env.position`, which ``play --resume FILE``
continues), and ``quit``. When the hand ends the full scoring is shown (R16,
R17). Input and output streams are parameters, so the loop can be driven by a
script (tests do).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from kanaszta_env import GameBatch, Rules, position as positions
from kanaszta_env.cards import TYPE_NAMES, counts_to_cards
from kanaszta_env.envs.render import render_table
from kanaszta_env.games.diszitett.actions import ACTION_NAMES, action_from_name
from kanaszta_env.games.diszitett.compiled import FREE_NAMES, PHASE_NAMES

from ...base import Agent
from ...records import GameRecord, make_record
from .explain import rules_text, suggest, turn_status, why_illegal
from .heuristic import HeuristicBot
from .narrate import Narrator, end_text, snapshot, went_out
from .scoresheet import going_out_bonus, score_breakdown

HELP = """commands:
  <number> or <move name>   play a legal move (e.g. 3, draw, meld_KS, discard_7D)
  table                     show the table again
  hint                      what HeuristicBot would play here
  rules                     the rules in force (variant, opening minimum, players)
  save FILE                 save the position (resume with: kanaszta play --resume FILE)
  help                      this text
  quit                      stop without finishing the hand (Ctrl-C too)"""


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
    for a in opponents:
        a.setup(rules)
        a.reset(P)
    session = _Session(games, agents, seat, name, input_stream or sys.stdin, output or sys.stdout)
    return session.run(seed, start)


class _Session:
    """One hand at the terminal: the loop of :func:`play_human`."""

    def __init__(
        self, games: GameBatch, agents: list[Agent | None], seat: int, name: str, inp: TextIO, out: TextIO
    ) -> None:
        self.games = games
        self.rules = games.rules
        self.agents = agents
        self.seat = seat
        self.names = [name if a is None else f"{a.name} (seat {q})" for q, a in enumerate(agents)]
        self.inp = inp
        self.out = out
        self.narrator = Narrator(self.rules, self.names, viewer=seat)
        self.adviser = HeuristicBot(self.rules)
        self.history: list[int] = []
        self.out_bonus: dict[int, int] = {}

    def say(self, text: str = "") -> None:
        """Print a line of output."""
        print(text, file=self.out)

    def table(self) -> str:
        """The table from the player's seat (the other hands hidden)."""
        return render_table(self.games.state, self.rules, 0, self.names, viewer=self.seat)

    def run(self, seed: int | None, start: dict | None) -> HumanGame:
        """Play until the hand ends (or the player stops) and report."""
        self.say(rules_text(self.rules))
        self.say(self.table())
        shown = True
        while not self.games.done[0]:
            mover = int(self.games.to_move[0])
            agent = self.agents[mover]
            if agent is not None:
                obs = self.games.observe().copy()  # the mover's (no separate encoder kernel to compile)
                mask = self.games.legal_mask()[0][None]
                self.apply(int(agent.act(obs, mask, np.array([mover]))[0]))
                shown = False
                continue
            for line in self.narrator.flush():
                self.say(line)
            if not shown:
                self.say()
                self.say(self.table())
                shown = True
            if not self.decide():
                return HumanGame(False, None, self.record(seed, start))
        for line in self.narrator.flush():
            self.say(line)
        self.say()
        self.say(self.table())
        text, raws = score_breakdown(self.games, self.names, self.out_bonus)
        self.say(text)
        scores = [int(x) for x in self.games.state.hand_scores[0]]
        ranking = sorted(range(len(scores)), key=lambda q: -scores[q])
        self.say("result: " + ", ".join(f"{self.names[q]} {scores[q]}" for q in ranking))
        return HumanGame(True, scores, self.record(seed, start, scores), raws)

    def record(self, seed: int | None, start: dict | None, scores: list[int] | None = None) -> GameRecord:
        """The game so far as a record (:mod:`agents.records`)."""
        return make_record(self.rules, self.history, seed=seed if start is None else None, start=start,
                           players=list(self.names), scores=scores)  # fmt: skip

    def apply(self, a: int) -> None:
        """Play action ``a`` for the mover and tell what it changed."""
        before = snapshot(self.games.state)
        self.games.step(np.array([a]))
        self.history.append(a)
        after = snapshot(self.games.state)
        if went_out(before, a):
            self.out_bonus[int(before.to_move[0])] = going_out_bonus(before)
        for line in self.narrator.step(before, after, a):
            self.say(line)

    def prompt_header(self) -> None:
        """What the player needs to see before choosing: the cut card being
        decided, the free pickup on offer, his hand and this turn's groups."""
        s = self.games.state
        phase = PHASE_NAMES[int(s.phase[0])]
        if phase == "cut":
            i = int(s.cut_index[0])
            card = TYPE_NAMES[int(s.cut_cards[0, i])]
            self.say(
                f"cut card {i + 1} of 3: {card} — keep it (it joins your hand, known to all) "
                "or leave it (it goes to the bottom of the stock), R3"
            )
            return
        hand = counts_to_cards(s.hand[0, self.seat])
        self.say(f"your hand ({len(hand)}): {' '.join(hand) or '-'}")
        n = int(s.pile_len[0])
        if phase == "draw" and FREE_NAMES[int(s.free_pickup[0, self.seat])] == "now" and n:
            top = TYPE_NAMES[int(s.pile[0, n - 1])]
            self.say(
                f"this is your free-pickup turn (R7): take_free takes {top} into your hand, once per hand"
            )
        status = turn_status(s, self.rules.to_config())
        if status:
            self.say(status)

    def decide(self) -> bool:
        """Read commands until the player makes a move; False if he stops."""
        mask = self.games.legal_mask()[0].copy()
        legal = [int(a) for a in np.flatnonzero(mask)]
        self.prompt_header()
        self.say(moves_line(legal))
        while True:
            line = self.read()
            if line is None:
                self.say("\ninput ended; the hand is not finished")
                return False
            cmd = line.strip()
            if not cmd:
                continue
            result = self.command(cmd, legal, mask)
            if result == "stop":
                return False
            if isinstance(result, int):
                self.apply(result)
                return True

    def read(self) -> str | None:
        """One line of input after a prompt, or None at the end of the input."""
        self.out.write("> ")
        self.out.flush()
        try:
            line = self.inp.readline()
        except KeyboardInterrupt:
            self.say()  # leave the prompt's line before the caller's message
            raise
        return line or None

    def command(self, cmd: str, legal: list[int], mask: np.ndarray) -> int | str | None:
        """Carry out one command; a move's action id, ``"stop"``, or None (ask again)."""
        word, _, arg = cmd.partition(" ")
        if word in ("help", "?"):
            self.say(HELP)
        elif word == "quit":
            self.say("stopped; the hand is not finished")
            return "stop"
        elif word == "table":
            self.say(self.table())
        elif word == "rules":
            self.say(rules_text(self.rules))
        elif word == "hint":
            obs = self.games.observe().copy()  # the player is the mover
            self.say(f"HeuristicBot would play {ACTION_NAMES[int(self.adviser.act(obs, mask[None])[0])]}")
        elif word == "save":
            self.save(arg.strip())
        else:
            a = self.parse_move(cmd, legal)
            if a is not None and self.confirmed(a, legal):
                return a
        return None

    def save(self, path: str) -> None:
        """``save FILE``: write the position as a JSON document."""
        if not path:
            self.say("usage: save FILE")
            return
        try:
            Path(path).write_text(json.dumps(positions.dump(self.games), indent=1) + "\n")
        except OSError as err:
            self.say(f"cannot save: {err}")
            return
        self.say(f"position saved to {path}")

    def parse_move(self, cmd: str, legal: list[int]) -> int | None:
        """The action id of a typed legal move; otherwise say what is wrong and
        what is legal, and return None."""
        if cmd.isdigit():
            k = int(cmd)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            self.say(f"no move number {k}: choose 1 to {len(legal)}")
            return None
        try:
            a = action_from_name(cmd)
        except ValueError:
            hint = suggest(cmd, legal)
            self.say(f"unknown move {cmd!r}" + (f": {hint}" if hint else " (type help for the commands)"))
            return None
        if a in legal:
            return a
        self.say(f"{ACTION_NAMES[a]} is not legal now: {why_illegal(self.games.state, self.rules, a)}")
        self.say(moves_line(legal))
        return None

    def confirmed(self, a: int, legal: list[int]) -> bool:
        """A move that would end the hand (going out, or the last turn) is played
        only when confirmed with ``y`` or by entering it again."""
        trial = self.games.copy()
        before = snapshot(trial.state)
        trial.step(np.array([a]))
        if not trial.done[0]:
            return True
        why = end_text(before, snapshot(trial.state), a, self.names, self.rules)
        self.say(f"{ACTION_NAMES[a]} ends the hand: {why}. Play it? (y, or the move again, to confirm)")
        answer = (self.read() or "").strip()
        if answer.lower() in ("y", "yes") or answer == str(legal.index(a) + 1):
            return True
        try:
            if action_from_name(answer) == a:
                return True
        except ValueError:
            pass
        self.say(f"{ACTION_NAMES[a]} not played")
        self.say(moves_line(legal))
        return False


def moves_line(legal: list[int]) -> str:
    """The numbered legal moves."""
    return "moves: " + "  ".join(f"[{i + 1}] {ACTION_NAMES[a]}" for i, a in enumerate(legal))
