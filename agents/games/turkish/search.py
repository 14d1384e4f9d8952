"""``TurkishSearchBot``: determinised Monte-Carlo search for Turkish kanasta (preset ``tr``).

It plays like :class:`~agents.games.turkish.bots.TurkishHeuristicBot` except at the
draw (draw or take the whole pile, T4.1a) and the discard, where it compares
candidates by simulation:

1. sample ``samples`` worlds consistent with its observation
   (:func:`agents.games.turkish.determinise.determinise`: the hidden cards at random);
2. in each, play each candidate (the heuristic's choice, the other of draw /
   take_pile, or the heuristic's next ``max_discards - 1`` discards), then the
   compiled rollout policy (:mod:`agents.games.turkish.rollout`) for every seat for
   ``horizon`` turns or to the hand's end — the same worlds for every
   candidate (common random numbers);
3. value the result for its pair: the hand's recorded scores if it ended, else
   each pair's score if the hand ended now (T14, its hands counted at
   ``hand_weight`` of their value), its pair's minus the other's;
4. keep the heuristic's choice unless another candidate's paired gain over it
   has a lower bound (mean − ``z`` standard errors) above ``prior`` points — then
   the one with the best such bound.

Defaults (``samples=24, horizon=12, max_discards=3, hand_weight=0.5, z=1.0``)
were tuned against the heuristic on deals of seeds 9000+ only.

Decisions are a function of the observation and the bot's seed (the samples'
random numbers are seeded from both), so re-dealing cards the bot cannot see
never changes them.
"""

from __future__ import annotations

import zlib

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.games.turkish.actions import DISCARD0, DRAW, TAKE_PILE
from kanaszta_env.observation import split

from ...search_choice import SimulatedChoice
from . import rollout as R
from .bots import _VALUE, TurkishHeuristicBot
from .determinise import determinise


class TurkishSearchBot(SimulatedChoice, TurkishHeuristicBot):
    """Heuristic play with the draw / take_pile and the discard chosen by simulation."""

    name = "search"

    def __init__(
        self,
        rules: Rules | None = None,
        samples: int = 24,
        horizon: int = 12,
        max_discards: int = 3,
        hand_weight: float = 0.5,
        prior: float = 0.0,
        z: float = 1.0,
        seed: int = 0,
    ) -> None:
        self.configure(samples, horizon, max_discards, hand_weight, prior, z, seed)
        #: decisions searched and overruled so far (the heuristic's choice kept otherwise)
        self.searched = self.overruled = 0
        super().__init__(rules)

    def setup(self, rules: Rules) -> None:
        super().setup(rules)
        self.cfg = rules.to_config()

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        obs = np.asarray(obs, dtype=np.float32)
        mask = np.asarray(mask, dtype=np.bool_)
        choice = super().act(obs, mask, slots)
        pieces = split(obs, self.rules)
        for i in range(len(obs)):
            cands = self._candidates(pieces, i, mask[i], int(choice[i]))
            if len(cands) > 1:
                row = {k: v[i] for k, v in pieces.items()}
                k = self._search(obs[i], row, cands)
                self.searched += 1
                self.overruled += k != 0
                choice[i] = cands[k]
        return choice

    def _candidates(self, p: dict, i: int, legal: np.ndarray, chosen: int) -> list[int]:
        """The heuristic's choice first, then the alternatives worth simulating."""
        if chosen in (DRAW, TAKE_PILE) and legal[DRAW] and legal[TAKE_PILE]:
            return [chosen, TAKE_PILE if chosen == DRAW else DRAW]
        if chosen < DISCARD0 or self.max_discards < 2:
            return [chosen]
        hand = np.rint(p["hand"][i] * 2).astype(np.int64)
        options = [t for t in range(NUM_TYPES) if legal[DISCARD0 + t] and DISCARD0 + t != chosen]
        options.sort(key=lambda t: -(_VALUE[t] - 100.0 * self._keep(hand, t)))
        return [chosen, *(DISCARD0 + t for t in options[: self.max_discards - 1])]

    def _search(self, obs_row: np.ndarray, row: dict, cands: list[int]) -> int:
        """Index of the chosen candidate for one observation row."""
        rng = np.random.default_rng([self.seed, zlib.crc32(obs_row.tobytes())])
        s = determinise(self.rules, row, rng, self.samples, lambda n: R.new_state(n, 4))
        c = len(cands)
        s = type(s)(*(np.ascontiguousarray(np.repeat(f, c, axis=0)) for f in s))
        first = np.tile(np.asarray(cands, dtype=np.int64), self.samples)
        values = np.zeros(self.samples * c, dtype=np.float64)
        R.rollout(s, self.cfg, first, self.horizon, self.hand_weight, values)
        return self._pick(values.reshape(self.samples, c))
