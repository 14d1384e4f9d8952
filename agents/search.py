"""``SimulatedSearchBot``: determinised Monte-Carlo search over a game's compiled rollouts.

It plays like its game's heuristic bot except at the decisions the game's kit
offers alternatives for (every game: the draw or the discard pile, and the
discard; Díszített also the melding mode of a turn), where it compares
candidates by simulation:

1. sample ``samples`` worlds consistent with the deciding seat's observation (the
   kit's ``determinise``: the hidden cards at random, everything public where it
   is), with random numbers seeded from the bot's seed and the observation;
2. in each, play each candidate (the heuristic's choice first), then the kit's
   compiled rollout policy for every seat for ``horizon`` turns or to the hand's
   end — the same worlds for every candidate (common random numbers);
3. value the result for the seat's side (the kit's ``simulate``: its score minus
   the others', the cards in hand counted at ``hand_weight`` of their cost while
   the hand goes on);
4. keep the heuristic's choice unless another candidate's paired gain over it
   has a lower bound (mean − ``z`` standard errors) above ``prior`` points — then
   the one with the best such bound. Without this test the noisiest candidate
   won: the bot overruled the heuristic on sampling noise and played no better.

A chosen candidate may lead to a second choice (:meth:`SearchKit.settle`: a
Díszített melding mode, then the discard it leads to). Decisions are a function
of the observation and the seed, so re-dealing cards the bot cannot see never
changes them. A game supplies only a :class:`SearchKit`.
"""

from __future__ import annotations

import zlib
from typing import Any, ClassVar

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.observation import split

from .base import Agent

SETTINGS = ("samples", "horizon", "max_discards", "hand_weight", "prior", "z")


class SearchKit:
    """What one game supplies: ``defaults`` (every key of :data:`SETTINGS`), its
    ``heuristic`` bot, and the methods below (``setup``, ``reset`` and ``settle`` have defaults;
    ``candidates`` too, from :attr:`starts` and :meth:`discards`)."""

    defaults: ClassVar[dict[str, float]]
    heuristic: Agent
    #: the kit reads the seats' views when the caller has them (see :class:`Agent`)
    wants_views = False
    #: the actions that start a turn (draw, take the pile) and the first discard (:meth:`candidates`)
    starts: ClassVar[tuple[int, ...]] = ()
    discard0: ClassVar[int] = 0

    def setup(self, rules: Rules) -> None:
        """Prepare for ``rules`` (the heuristic too); the simulations play ``self.rules`` (``self.cfg``)."""
        self.heuristic.setup(rules)
        self.rules, self.cfg = rules, rules.to_config()

    def reset(self, n: int) -> None:
        """Forget per-game memory (:meth:`Agent.reset`)."""

    def candidates(
        self, obs: np.ndarray, pieces: dict, mask: np.ndarray, slots: Any, views: Any, max_discards: int
    ) -> list[list[int]]:
        """Per row of the batch (``obs`` and its ``pieces``, ``mask``, the ``slots`` and ``views``
        of :meth:`SimulatedSearchBot.act`): the heuristic's choice first, then the alternatives to
        simulate: the other legal :attr:`starts`, or the next ``max_discards - 1`` :meth:`discards`."""
        out = []
        for i, c in enumerate(self.heuristic.act(obs, mask).tolist()):
            if c in self.starts:
                out.append([c, *(a for a in self.starts if a != c and mask[i, a])])
            elif c >= self.discard0 and max_discards > 1:
                out.append([c, *[a for a in self.discards(pieces, mask, i) if a != c][: max_discards - 1]])
            else:
                out.append([c])
        return out

    def discards(self, pieces: dict, mask: np.ndarray, i: int) -> list[int]:
        """Row ``i``'s legal discards, the heuristic's likeliest first (default :meth:`candidates`)."""
        raise NotImplementedError

    def determinise(self, i: int, row: dict, rng: np.random.Generator, samples: int) -> tuple[Any, int]:
        """``samples`` worlds of row ``i`` (its pieces ``row``) as a state batch, and the observer's seat."""
        raise NotImplementedError

    def simulate(
        self, state: Any, seat: int, first: np.ndarray, horizon: int, hand_weight: float
    ) -> np.ndarray:
        """Play ``first[b]`` in world ``b`` and roll out: each world's value for ``seat``'s side."""
        raise NotImplementedError

    def settle(self, i: int, candidate: int, mask: np.ndarray) -> list[int]:
        """What choosing ``candidate`` in row ``i`` (legal actions ``mask``) leads to: the
        action (one entry), or the next candidates to compare, the kit's choice first."""
        return [candidate]


class LedKit(SearchKit):
    """``kit`` with another agent's choice first (``ppo+search``: the shipped policy's): the
    search keeps the leader's action unless one of the kit's candidates, or the heuristic's
    choice, beats it by the evidence the bot asks for."""

    def __init__(self, kit: SearchKit, leader: Agent) -> None:
        self.kit, self.leader = kit, leader
        self.defaults, self.heuristic, self.wants_views = kit.defaults, kit.heuristic, kit.wants_views
        # only the candidates are led: the rest is the kit's own
        self.determinise, self.simulate, self.settle = kit.determinise, kit.simulate, kit.settle

    def setup(self, rules: Rules) -> None:
        self.kit.setup(rules)
        self.leader.setup(rules)

    def reset(self, n: int) -> None:
        self.kit.reset(n)
        self.leader.reset(n)

    def candidates(self, obs, pieces, mask, slots, views, max_discards: int) -> list[list[int]]:
        """The kit's candidates of each row with the leader's action moved (or put) first."""
        led = self.leader.act(obs, mask).tolist()
        cands = self.kit.candidates(obs, pieces, mask, slots, views, max_discards)
        return [[a, *(c for c in row if c != a)] for a, row in zip(led, cands, strict=True)]


class SimulatedSearchBot(Agent):
    """The heuristic's play with the kit's decisions chosen by simulation (module doc)."""

    name = "search"

    def __init__(self, rules: Rules | None, kit: SearchKit, seed: int = 0, **settings: float) -> None:
        unknown = sorted(set(settings) - set(SETTINGS))
        if unknown:
            raise ValueError(f"unknown search option(s) {unknown}; known: {[*SETTINGS, 'seed']}")
        given = {**kit.defaults, **settings}
        for key, low in (("samples", 2), ("horizon", 1), ("max_discards", 1)):
            value = given[key]
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
                raise ValueError(f"{key} must be an integer of at least {low}, got {value!r}")
        if not 0.0 <= given["hand_weight"] <= 1.0:
            raise ValueError(f"hand_weight must lie in [0, 1], got {given['hand_weight']!r}")
        if given["z"] < 0:
            raise ValueError(f"z must be non-negative, got {given['z']!r}")
        self.samples, self.horizon, self.max_discards = (int(given[k]) for k in SETTINGS[:3])
        self.hand_weight, self.prior, self.z = (float(given[k]) for k in SETTINGS[3:])
        self.kit, self.seed = kit, int(seed)
        #: decisions searched and overruled so far (the heuristic's choice kept otherwise)
        self.searched = self.overruled = 0
        super().__init__(rules)

    @property
    def wants_views(self) -> bool:  # type: ignore[override]
        return self.kit.wants_views

    def setup(self, rules: Rules) -> None:
        """Take ``rules`` and set the kit up for them."""
        super().setup(rules)
        self.kit.setup(rules)

    def reset(self, n: int) -> None:
        """Forget per-game memory (the kit's)."""
        self.kit.reset(n)

    def act(
        self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None, views: Any = None
    ) -> np.ndarray:
        """The heuristic's actions, chosen by simulation where the kit offers alternatives;
        ``slots`` name each row's game and seat (memory within a turn), ``views`` are the
        seats' views if the kit reads them."""
        obs = np.asarray(obs, dtype=np.float32)
        mask = np.asarray(mask, dtype=np.bool_)
        pieces = split(obs, self.rules)
        choice = np.empty(len(obs), dtype=np.int64)
        for i, cands in enumerate(self.kit.candidates(obs, pieces, mask, slots, views, self.max_discards)):
            while len(cands) > 1:
                k = self._search(obs[i], i, {name: v[i] for name, v in pieces.items()}, cands)
                self.searched += 1
                self.overruled += k != 0
                cands = self.kit.settle(i, cands[k], mask[i])
            choice[i] = cands[0]
        return choice

    def _search(self, obs_row: np.ndarray, i: int, row: dict[str, np.ndarray], cands: list[int]) -> int:
        """Index of the chosen candidate for row ``i``, observation ``obs_row``."""
        rng = np.random.default_rng([self.seed, zlib.crc32(obs_row.tobytes())])
        worlds, seat = self.kit.determinise(i, row, rng, self.samples)
        c = len(cands)
        worlds = type(worlds)(*(np.ascontiguousarray(np.repeat(f, c, axis=0)) for f in worlds))
        first = np.tile(np.asarray(cands, dtype=np.int64), self.samples)
        values = self.kit.simulate(worlds, seat, first, self.horizon, self.hand_weight)
        return self.pick(np.asarray(values).reshape(self.samples, c))

    def pick(self, v: np.ndarray) -> int:
        """Candidate 0 (the heuristic's) unless another's paired gain over it, ``v`` being
        (samples, candidates) values, has a lower bound (mean - z standard errors) above
        ``prior``; then the best such bound."""
        d = v[:, 1:] - v[:, :1]
        bound = d.mean(axis=0) - self.z * d.std(axis=0, ddof=1) / np.sqrt(len(v))
        best = int(np.argmax(bound))
        return best + 1 if bound[best] > self.prior else 0
