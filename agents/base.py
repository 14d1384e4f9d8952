"""The common batched policy interface and a driver that seats agents in games.

Every agent — the rule-based bots, the search bot, a trained PPO policy —
answers one question for a batch of decisions::

    actions = agent.act(obs, mask)      # (N, D) float32, (N, 200) bool -> (N,) int64

``obs`` rows are the observations of :mod:`kanaszta_env.games.diszitett.observation` of the
deciding players and ``mask`` their legal actions; nothing else about the
game reaches an agent. Agents that keep memory between decisions (per game
and seat) receive ``slots``: one stable integer per row naming the (game,
seat) it comes from, in ``0 .. n-1`` after :meth:`Agent.reset` ``(n)``.

Agents that read the structured view of the deciding seats rather than the
float vector (the compiled bots) set :attr:`Agent.wants_views`; whoever holds
the games then passes ``views=`` (the engine's
:meth:`~kanaszta_env.engine.GameBatch.views`: the same information as ``obs``
as integer arrays) — :func:`play_batch` does, and so does the engine when such
an agent sits in a seat of a :class:`~kanaszta_env.engine.GameBatch` or of the
environments. Given only observations, such an agent decodes them
(:func:`kanaszta_env.games.diszitett.observation.decode`, the exact inverse of the encoder).

:func:`play_batch` runs a batch of :class:`~kanaszta_env.engine.GameBatch`
games with agents in given seats and returns the scores and, on request, the
action records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from kanaszta_env import GameBatch, Rules
from kanaszta_env.games.diszitett.observation import View


class Agent:
    """Base class of batched policies. Subclasses implement :meth:`act`."""

    name = "agent"
    #: the agent reads ``views=`` when it is given (see the module docstring)
    wants_views = False

    def __init__(self, rules: Rules | None = None) -> None:
        """Set the agent up for ``rules`` now, if given (:meth:`setup`)."""
        if rules is not None:
            self.setup(rules)

    def setup(self, rules: Rules) -> None:
        """Called once with the rules of the games the agent is about to play."""
        self.rules = rules

    def reset(self, n: int) -> None:
        """Forget per-game memory; ``n`` slots will be used by the next games."""

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        """One legal action id per row of ``obs`` (N, D) / ``mask`` (N, 200).
        An agent with :attr:`wants_views` also takes ``views: View | None = None``."""
        raise NotImplementedError

    def __call__(self, obs: np.ndarray, mask: np.ndarray, views: View | None = None) -> np.ndarray:
        """``policy(obs, mask)``: the callable form the environment wrappers take
        as opponents (``KanasztaGymEnv(opponents=HeuristicBot())``); the engine
        adds ``views=`` for an agent that :attr:`wants_views`."""
        if self.wants_views and views is not None:
            return self.act(obs, mask, views=views)  # type: ignore[call-arg]
        return self.act(obs, mask)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class PolicyAgent(Agent):
    """An agent from a plain function ``policy(obs, mask) -> actions`` (e.g. a
    trained network's masked argmax)."""

    def __init__(self, policy: Callable[[np.ndarray, np.ndarray], np.ndarray], name: str = "policy") -> None:
        self.policy, self.name = policy, name

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        return np.asarray(self.policy(obs, mask), dtype=np.int64)


def check_actions(
    actions: np.ndarray, mask: np.ndarray, who: str, names: Sequence[str] | None = None
) -> np.ndarray:
    """``actions`` as int64, or ``ValueError`` naming the first illegal choice (by its name in
    ``names``, the game's action names, else by its id)."""
    actions = np.asarray(actions, dtype=np.int64)
    if actions.shape != (mask.shape[0],):
        raise ValueError(f"{who} returned {actions.shape} actions for {mask.shape[0]} decisions")
    rows = np.arange(mask.shape[0])
    ok = (actions >= 0) & (actions < mask.shape[1])
    ok[ok] = mask[rows[ok], actions[ok]]
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        a = int(actions[i])
        name = names[a] if names is not None and 0 <= a < len(names) else str(a)
        raise ValueError(f"{who} chose the illegal action {name!r} (row {i})")
    return actions


def _agent_views(
    games: GameBatch, buf: View | None, movers: np.ndarray, groups: list[np.ndarray], agents: Sequence[Agent]
) -> list[View | None]:
    """The views of the rows ``groups[i]`` for each agent that wants views (else
    ``None``), filled by one engine call into consecutive rows of ``buf``."""
    out: list[View | None] = [None] * len(agents)
    wanted = [i for i, agent in enumerate(agents) if agent.wants_views and groups[i].size]
    if buf is None or not wanted:
        return out
    order = np.concatenate([groups[i] for i in wanted])
    filled = games.views(movers[order], order, buf.rows(slice(0, order.size)))
    start = 0
    for i in wanted:
        out[i] = filled.rows(slice(start, start + groups[i].size))
        start += groups[i].size
    return out


def mover_action(agent: Agent, games: GameBatch) -> int:
    """``agent``'s action for the player to move in game 0 of ``games`` (its slot: his seat)."""
    mover = int(games.to_move[0])
    obs = games.observe().copy()  # the mover's
    return int(agent.act(obs, games.legal_mask()[0][None], np.array([mover]))[0])


@dataclass
class BatchResult:
    """Outcome of :func:`play_batch`, one row per game."""

    scores: np.ndarray  # (B, P) recorded hand scores of the last hand (totals in game episodes)
    totals: np.ndarray  # (B, P) game totals
    turns: np.ndarray  # (B,) turns played in the last hand
    end_reason: np.ndarray  # (B,) END_* code of the last hand
    decisions: np.ndarray  # (B, P) decisions taken by each seat
    actions: list[list[int]] = field(default_factory=list)  # per game, when recorded


def play_batch(
    rules: Rules,
    agents: Sequence[Agent],
    seats: np.ndarray,
    seeds: np.ndarray | Sequence[int],
    *,
    record: bool = False,
    setup: bool = True,
    on_step: Callable[[int], None] | None = None,
) -> BatchResult:
    """Play one episode in each of ``len(seeds)`` games.

    ``seats[b, q]`` is the index in ``agents`` of the agent in seat ``q`` of game
    ``b``; game ``b`` is dealt from ``seeds[b]``. Each agent receives only the
    observations of its own seats (:meth:`~kanaszta_env.engine.GameBatch.observe`) and
    their legal masks (and, if it :attr:`~Agent.wants_views`, their views);
    its ``slots`` are ``b * P + q``. With ``record`` the
    action ids of every game are kept (see :mod:`agents.records`).
    ``on_step(n_finished)`` is called after every step (progress bars).
    """
    seeds = np.asarray(seeds, dtype=np.uint64)
    B, P = len(seeds), rules.num_players
    seats = np.asarray(seats, dtype=np.int64)
    if seats.shape != (B, P):
        raise ValueError(f"seats must have shape ({B}, {P}), got {seats.shape}")
    if seats.min() < 0 or seats.max() >= len(agents):
        raise ValueError("seats refer to agents that were not given")
    games = GameBatch(rules, B)
    games.reset(seed=seeds)
    for agent in agents:
        if setup:
            agent.setup(rules)
        agent.reset(B * P)
    views = None if not any(agent.wants_views for agent in agents) else games.views()  # a reused buffer
    actions = np.zeros(B, dtype=np.int64)
    decisions = np.zeros((B, P), dtype=np.int64)
    history: list[list[int]] = [[] for _ in range(B)] if record else []
    rows_all = np.arange(B)
    while True:
        active = ~games.done
        if not active.any():
            break
        mask = games.legal_mask()
        movers = games.to_move.astype(np.int64)
        obs = games.observe()  # the deciding seats' observations (every seat is external here)
        owner = seats[rows_all, movers]
        actions[:] = 0
        groups = [np.flatnonzero(active & (owner == i)) for i in range(len(agents))]
        seen = _agent_views(games, views, movers, groups, agents)
        for i, agent in enumerate(agents):
            rows = groups[i]
            if rows.size == 0:
                continue
            m = mask[rows]
            views_of = {} if seen[i] is None else {"views": seen[i]}  # only to agents that want them
            chosen = agent.act(obs[rows], m, rows * P + movers[rows], **views_of)
            actions[rows] = check_actions(chosen, m, agent.name, games.action_names)
        decisions[rows_all[active], movers[active]] += 1
        if record:
            for b in np.flatnonzero(active):
                history[b].append(int(actions[b]))
        games.step(actions)
        if on_step is not None:
            on_step(int(games.done.sum()))
    s = games.state
    scores = s.totals.copy() if rules.episode == "game" else s.hand_scores.copy()
    return BatchResult(
        scores=scores.astype(np.int64),
        totals=s.totals.astype(np.int64),
        turns=s.turn.astype(np.int64),
        end_reason=s.end_reason.astype(np.int64),
        decisions=decisions,
        actions=history,
    )
