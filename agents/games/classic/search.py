"""``ClassicSearchBot``: determinised Monte-Carlo search for classic canasta (``pl``, ``sk``).

It plays like :class:`~agents.games.classic.bots.ClassicHeuristicBot` except at the
two decisions that shape a turn most — drawing or taking the discard pile
(C4.1, C7), and which card to discard — where it compares candidates by
simulation:

1. deal ``samples`` positions consistent with its observation
   (:func:`agents.games.classic.determinise.determinise`: the hidden cards at random,
   everything public where it is), loaded by the public position loader;
2. in each, apply each candidate and let ``ClassicHeuristicBot`` play every
   seat (each from its own observation) for ``horizon`` more turns or to the
   end of the hand, all simulations of a call stepped as one batch;
3. value the result for its side as the reward does (its side's score minus
   the other sides' mean): the hand's recorded scores if it ended, else each
   side's standing (:func:`kanaszta_env.games.classic.scoring.standings`) with the
   cards in hand counted at ``hand_weight`` of their penalty;
4. keep the heuristic's choice unless another candidate beats it, on the
   paired differences over the samples (common random numbers), by more than
   ``prior`` points plus ``z`` standard errors — then the one with the best
   such lower bound.

Decisions are a function of the observation and the bot's seed (the samples'
random numbers are seeded from both), so re-dealing cards the bot cannot see
never changes them. Slower than the heuristic by the simulations: see
``benchmarks/bench_bots.py``.
"""

from __future__ import annotations

import dataclasses
import zlib

import numpy as np

from kanaszta_env import GameBatch, Rules, position as positions
from kanaszta_env.games.classic.actions import DISCARD0, DRAW, TAKE_PILE
from kanaszta_env.games.classic.scoring import standings
from kanaszta_env.observation import split

from ...search_choice import SimulatedChoice
from .bots import ClassicBot, ClassicHeuristicBot
from .determinise import determinise

MAX_ROLLOUT_STEPS = 5000  # decisions per simulation batch; a hand of 200 turns ends well before


class ClassicSearchBot(SimulatedChoice, ClassicBot):
    """Heuristic play with the draw / pickup and the discard chosen by simulation."""

    name = "search"

    def __init__(
        self,
        rules: Rules | None = None,
        samples: int = 16,
        horizon: int = 16,
        max_discards: int = 3,
        hand_weight: float = 0.25,
        prior: float = 0.0,
        z: float = 1.5,
        seed: int = 0,
    ) -> None:
        self.configure(samples, horizon, max_discards, hand_weight, prior, z, seed)
        self.heuristic = ClassicHeuristicBot()
        #: decisions searched and overruled so far (the heuristic's choice kept otherwise)
        self.searched = self.overruled = 0
        super().__init__(rules)

    def setup(self, rules: Rules) -> None:
        super().setup(rules)
        self.heuristic.setup(rules)
        self.sim_rules = dataclasses.replace(rules, episode="hand")
        self.sides = np.asarray(rules.sides())
        self.first_seat = [int(np.flatnonzero(self.sides == d)[0]) for d in range(self.sides.max() + 1)]

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        obs = np.asarray(obs, dtype=np.float32)
        mask = np.asarray(mask, dtype=np.bool_)
        choice = self.heuristic.act(obs, mask)
        pieces = split(obs, self.rules)
        prefs = np.where(mask, self.heuristic.scores(pieces), -np.inf)
        rows, cands = [], []
        for i in range(len(obs)):
            c = self._candidates(mask[i], prefs[i], int(choice[i]))
            if len(c) > 1:
                rows.append(i)
                cands.append(c)
        if rows:
            picks = self._search(obs, pieces, rows, cands)
            for i, c, k in zip(rows, cands, picks, strict=True):
                choice[i] = c[k]
        return choice

    def _candidates(self, legal: np.ndarray, prefs: np.ndarray, chosen: int) -> list[int]:
        """The heuristic's choice first, then the alternatives worth simulating."""
        if legal[DRAW] and legal[TAKE_PILE] and chosen in (DRAW, TAKE_PILE):
            return [chosen, TAKE_PILE if chosen == DRAW else DRAW]
        if chosen >= DISCARD0:
            order = DISCARD0 + np.argsort(-prefs[DISCARD0:], kind="stable")
            others = [int(a) for a in order if legal[a] and a != chosen]
            return [chosen, *others[: self.max_discards - 1]]
        return [chosen]

    def _search(self, obs: np.ndarray, pieces: dict, rows: list[int], cands: list[list[int]]) -> list[int]:
        """Index of the chosen candidate of each searched row."""
        docs, copies, actions, seats = [], [], [], []
        for j, i in enumerate(rows):
            row = {k: v[i] for k, v in pieces.items()}
            rng = np.random.default_rng([self.seed, zlib.crc32(obs[i].tobytes())])
            samples, me = determinise(self.sim_rules, row, rng, self.samples)
            docs += samples
            copies += [len(cands[j])] * self.samples
            actions += cands[j] * self.samples
            seats += [me] * (self.samples * len(cands[j]))
        values = self._simulate(docs, np.array(copies), np.array(actions), np.array(seats))
        picks, start = [], 0
        for c in cands:
            v = values[start : start + self.samples * len(c)].reshape(self.samples, len(c))
            start += v.size
            picks.append(self._pick(v))
        self.searched += len(rows)
        self.overruled += sum(k != 0 for k in picks)
        return picks

    def _simulate(self, docs: list, copies: np.ndarray, actions: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Play ``actions`` in the positions ``docs`` (each ``copies`` times, in order) and on with
        the heuristic; the value of each game for the side of ``seats``."""
        loaded = positions.load_batch(docs).state
        games = GameBatch(self.sim_rules, len(actions))
        games.state = type(loaded)(*(np.repeat(f, copies, axis=0) for f in loaded))
        target = games.state.turn + self.horizon
        games.step(actions)
        values = np.full(len(actions), np.nan)
        for _ in range(MAX_ROLLOUT_STEPS):
            s = games.state
            over = games.done
            stop = np.isnan(values) & (over | (s.turn >= target))
            if stop.any():
                values[stop] = self._value(games, np.flatnonzero(stop), self.sides[seats[stop]], over[stop])
            if not np.isnan(values).any():
                break
            games.step(self.heuristic.act(games.observe(), games.legal_mask()))
        return values

    def _value(self, games: GameBatch, rows: np.ndarray, side: np.ndarray, over: np.ndarray) -> np.ndarray:
        """Side ``side``'s score minus the other sides' mean: the hand's if it is over, else the
        standing with hand cards at ``hand_weight`` of their penalty."""
        melded, in_hand = standings(games, rows)
        now = (melded - self.hand_weight * in_hand).astype(np.float64)
        # a finished hand: its recorded scores, one per side (kept on every seat of a side)
        now[over] = games.state.hand_scores[rows[over]][:, self.first_seat]
        count = now.shape[1]
        own = now[np.arange(len(rows)), side]
        return own - (now.sum(axis=1) - own) / (count - 1)
