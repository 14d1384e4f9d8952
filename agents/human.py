"""Playing a hand in the terminal against bots, in every game.

The human sits in one seat, bots in the others (his partners too, in partnership
games). The table is shown from his seat: his hand, everybody's melds, the other
hands by size and publicly known cards (the game's table picture as text,
:meth:`Game.render_table`). The legal moves are listed with numbers and names; a move
is entered by either (any case; spaces may stand for the underscores). The rules in
force are shown first, and when the hand ends its scoring.

Every game's turns are told from its table picture (:mod:`agents.narrate`): another
player's turn in a line (drew, took the pile, melded which cards where, discarded,
went out), the human's own draws and takes with his new cards. What a game says
beyond that comes from its :class:`TerminalWords` (registered per game in
:mod:`agents.registry`): Díszített kanaszta's tell each move in its own words, say why
a refused move is illegal and ask to confirm a move that ends the hand with its
reasons; classic canasta's put the partner's question "may I go out?" (C12.5) to the
human and tell the answers.

Commands: ``help``, ``table``, ``hint`` (what the heuristic bot would play), ``rules``,
``save FILE`` (the position as a JSON document, :mod:`kanaszta_env.position`, which
``kanaszta play --resume FILE`` continues) and ``quit``. Input and output streams are
parameters, so the loop can be driven by a script (tests do).
"""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TextIO

import numpy as np

from kanaszta_env import GameBatch, Rules, position as positions

from .base import Agent, mover_action
from .narrate import TurnNarrator
from .records import GameRecord, make_record
from .watch import Show, Teller

COMMANDS = ("help", "table", "hint", "rules", "save", "quit")
HELP = """commands:
  <number> or <move name>   play a legal move (e.g. 3, draw, discard_7D; "discard 7D" works too)
  table                     show the table again
  hint                      what the heuristic bot would play here
  rules                     the rules in force (variant, opening minimum, players)
  save FILE                 save the position (resume with: kanaszta play --resume FILE)
  help                      this text
  quit                      stop without finishing the hand (Ctrl-C too)"""


@dataclass
class HumanGame:
    """What :func:`play_human` returns."""

    finished: bool
    scores: list[int] | None  # recorded hand scores
    record: GameRecord
    raw_scores: list[int] | None = None  # a score sheet's sums before any tax (Díszített's R17)


class TerminalWords:
    """What a game says at the terminal; each method's default fits every game."""

    #: action name -> what it did, where the table picture does not show it (:mod:`.narrate`)
    action_words: ClassVar[Mapping[str, str]] = {}

    def __init__(self, rules: Rules, names: Sequence[str], seat: int | None) -> None:
        """``seat``: the human's, or ``None`` for a spectator who sees every hand."""
        self.rules, self.names, self.seat = rules, list(names), seat
        has_picture = rules.game.has("webapp")
        self.narrator = TurnNarrator(self.names, seat, self.action_words) if has_picture else None
        #: whether :meth:`told` speaks in whole turns (else move by move: a spectator's pause
        #: waits for the turn to pass)
        self.tells_turns = has_picture

    def rules_text(self) -> str:
        r = self.rules
        text = f"{r.spec.title}, preset {r.variant}, {r.num_players} players"
        if self.seat is None:  # a spectator (kanaszta watch, replay)
            return text
        side = f", side {r.sides()[self.seat]}" if r.partnerships else ""
        return f"{text}; you are seat {self.seat}{side}"

    def picture(self, games: GameBatch) -> dict[str, Any]:
        """The table of ``games``' first game as JSON, seen from the seat of these words."""
        return self.rules.game.table_picture(games.state, self.rules, 0, self.names, self.seat)

    def before(self, games: GameBatch) -> object:
        """What :meth:`told` compares with, taken before an action."""
        return int(games.to_move[0]), self.picture(games) if self.narrator else None

    def told(self, before: object, games: GameBatch, action: int) -> list[str]:
        """Lines telling what ``action`` (just played) changed: the narrator's turns, or
        without a table picture each of the others' moves by name."""
        mover, picture = before
        name = games.action_names[action]
        if self.narrator is not None:
            return self.narrator.step(picture, self.picture(games), mover, name)
        return [] if mover == self.seat else [f"{self.names[mover]} plays {name}"]

    def flush(self) -> list[str]:
        """Lines held back until the human's turn."""
        return self.narrator.flush() if self.narrator else []

    def header(self, games: GameBatch) -> list[str]:
        """What the human needs to see before he chooses."""
        return []

    def why_illegal(self, games: GameBatch, action: int) -> str:
        return "not among the moves now"

    def ends_hand(self, before: object, trial: GameBatch, action: int) -> str:
        """Why ``action`` would end the hand (``trial`` is the game after it)."""
        return str(trial.summary(0)["end_reason"])

    def score_sheet(self, games: GameBatch) -> tuple[str, list[int] | None]:
        """The scoring of the finished hand as text, and its raw sums if it has them."""
        scores = [int(x) for x in games.summary(0)["hand_scores"]]
        return "hand scores: " + ", ".join(f"{n} {s}" for n, s in zip(self.names, scores, strict=True)), None


def suggest(text: str, legal: Sequence[int], names: Sequence[str]) -> str:
    """A "did you mean …" hint for input that is not a move name or command: the move it
    names in other words, the legal moves that end in a card it names, else the closest
    legal moves or commands (``names``: the game's action names)."""
    lookup = {n.lower(): a for a, n in enumerate(names)}
    key = "_".join(text.replace("-", " ").split()).lower()
    card = key.rpartition("_")[2].upper()
    if key in lookup:  # a move's name, though not a legal one
        candidates = [names[lookup[key]]]
    else:
        candidates = [names[a] for a in legal if names[a].upper().endswith("_" + card)]
    if not candidates:
        pool = {names[a].lower(): names[a] for a in legal} | {c: c for c in COMMANDS}
        close = difflib.get_close_matches(key, list(pool), n=3, cutoff=0.6)
        if not close:
            close = [names[lookup[c]] for c in difflib.get_close_matches(key, list(lookup), n=3, cutoff=0.75)]
        candidates = [pool.get(c, c) for c in close]
    if not candidates:
        return ""
    legal = list(legal)
    ids = [lookup.get(n.lower()) for n in candidates]
    shown = [f"{n} [{legal.index(a) + 1}]" if a in legal else n for n, a in zip(candidates, ids, strict=True)]
    return "did you mean " + " or ".join(shown) + "?"


def seat_names(rules: Rules, agents: Sequence[Agent | None], name: str) -> list[str]:
    """The human's name, and each bot's with its seat (and its side's relation to his)."""
    seat = [a is None for a in agents].index(True)
    sides = rules.sides()
    out = []
    for q, a in enumerate(agents):
        if a is None:
            out.append(name)
        elif rules.partnerships:
            out.append(f"{a.name} ({'partner' if sides[q] == sides[seat] else 'opponent'}, seat {q})")
        else:
            out.append(f"{a.name} (seat {q})")
    return out


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
    """Play one hand with a human in ``seat`` and ``opponents`` (bots, in seat order, his
    partners included) in the other seats, from a new deal (``seed``) or a position ``start``."""
    from .registry import make_agent

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
    it = iter(opponents)
    agents: list[Agent | None] = [None if q == seat else next(it) for q in range(P)]
    for a in opponents:
        a.setup(rules)
        a.reset(P)
    session = _Session(games, agents, seat_names(rules, agents, name), seat, output or sys.stdout)
    session.adviser, session.inp = make_agent("heuristic", rules), input_stream or sys.stdin
    return session.run(seed, start)


class _Session(Teller):
    """One hand at the terminal: the loop of :func:`play_human`."""

    adviser: Agent
    inp: TextIO

    def __init__(
        self, games: GameBatch, agents: list[Agent | None], names: list[str], seat: int, out: TextIO
    ) -> None:
        super().__init__(games, names, Show(out), seat)
        self.rules, self.agents, self.out = games.rules, agents, out
        self.lookup = {n.lower(): a for a, n in enumerate(games.action_names)}

    def say(self, text: str = "") -> None:
        self.show.say(text)

    def run(self, seed: int | None, start: dict | None) -> HumanGame:
        """Play until the hand ends (or the player stops) and report."""
        self.say(self.words.rules_text())
        self.say(self.table())
        shown = True
        while not self.games.done[0]:
            agent = self.agents[int(self.games.to_move[0])]
            if agent is not None:
                self.apply(mover_action(agent, self.games))
                shown = False
                continue
            self.tell(self.words.flush(), turned=False)
            if not shown:
                self.say()
                self.say(self.table())
                shown = True
            if not self.decide():
                return HumanGame(False, None, self.record(seed, start))
        raws = self.finish()
        scores = [int(x) for x in self.games.summary(0)["hand_scores"]]
        return HumanGame(True, scores, self.record(seed, start, scores), raws)

    def record(self, seed: int | None, start: dict | None, scores: list[int] | None = None) -> GameRecord:
        """The game so far as a record (:mod:`agents.records`)."""
        return make_record(self.rules, self.history, seed=seed if start is None else None, start=start,
                           players=list(self.names), scores=scores)  # fmt: skip

    def apply(self, a: int) -> None:
        """Play action ``a`` for the mover and tell what it changed."""
        self.tell(self.step(a), turned=False)

    def decide(self) -> bool:
        """Read commands until the player makes a move; False if he stops."""
        mask = self.games.legal_mask()[0].copy()
        legal = [int(a) for a in np.flatnonzero(mask)]
        self.tell(self.words.header(self.games), turned=False)
        self.say(self.moves_line(legal))
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
            self.say(self.words.rules_text())
        elif word == "hint":
            obs = self.games.observe().copy()  # the player is the mover
            hint = self.games.action_names[int(self.adviser.act(obs, mask[None])[0])]
            self.say(f"the heuristic bot would play {hint}")
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
        """The action id of a typed legal move; otherwise say what is wrong and what is
        legal, and return None."""
        if cmd.isdigit():
            k = int(cmd)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            self.say(f"no move number {k}: choose 1 to {len(legal)}")
            return None
        a = self.lookup.get("_".join(cmd.lower().split()))
        if a is None:
            hint = suggest(cmd, legal, self.games.action_names)
            self.say(f"unknown move {cmd!r}" + (f": {hint}" if hint else " (type help for the commands)"))
            return None
        if a in legal:
            return a
        self.say(f"{self.games.action_names[a]} is not legal now: {self.words.why_illegal(self.games, a)}")
        self.say(self.moves_line(legal))
        return None

    def confirmed(self, a: int, legal: list[int]) -> bool:
        """A move that would end the hand is played only when confirmed with ``y`` or by
        entering it again."""
        trial = self.games.copy()
        before = self.words.before(trial)
        trial.step(np.array([a]))
        if not trial.done[0]:
            return True
        name = self.games.action_names[a]
        why = self.words.ends_hand(before, trial, a)
        self.say(f"{name} ends the hand: {why}. Play it? (y, or the move again, to confirm)")
        answer = (self.read() or "").strip()
        if answer.lower() in ("y", "yes") or answer == str(legal.index(a) + 1):
            return True
        if self.lookup.get("_".join(answer.lower().split())) == a:
            return True
        self.say(f"{name} not played")
        self.say(self.moves_line(legal))
        return False

    def moves_line(self, legal: list[int]) -> str:
        """The numbered legal moves."""
        return "moves: " + "  ".join(f"[{i + 1}] {self.games.action_names[a]}" for i, a in enumerate(legal))
