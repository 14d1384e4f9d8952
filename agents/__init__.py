"""Agents for every game: baseline bots, search, trained policies, tournaments, human play.

Every agent implements the batched interface of :class:`agents.base.Agent`
(observations and legal masks in, actions out) and sees only what the player
it seats sees. :func:`make_agent` builds the rules' game's agent from a name:
``random``, ``greedy``, ``heuristic``, ``search`` (one
:class:`~agents.search.SimulatedSearchBot` with the game's kit) and ``ppo`` (the
trained policy shipped for that table, a :class:`NumpyPolicy`), with options
such as ``"search:samples=24"``, or from a path: a ``kanaszta train`` checkpoint (``.zip``,
:mod:`agents.checkpoint`, which needs torch) or an exported policy (``.npz``). The classes
exported here are Díszített kanaszta's (the default game); each game's own are in
``agents/games/<game>/``.
"""

from __future__ import annotations

from .base import Agent, BatchResult, PolicyAgent, play_batch
from .games.diszitett.greedy import GreedyBot
from .games.diszitett.heuristic import HeuristicBot
from .games.diszitett.search import SearchBot
from .numpy_policy import NumpyPolicy
from .random_bot import RandomBot
from .registry import make_agent

__all__ = [
    "Agent",
    "BatchResult",
    "GreedyBot",
    "HeuristicBot",
    "NumpyPolicy",
    "PolicyAgent",
    "RandomBot",
    "SearchBot",
    "make_agent",
    "play_batch",
]
