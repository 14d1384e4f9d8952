"""Agents for Díszített kanaszta: baseline bots, tournaments, human play.

Every agent implements the batched interface of :class:`agents.base.Agent`
(observations and legal masks in, actions out) and sees only what the player
it seats sees. Bots: :class:`RandomBot`, :class:`GreedyBot`,
:class:`HeuristicBot`, :class:`SearchBot`, and the trained policy shipped with
the package (``make_agent("ppo")``, a :class:`NumpyPolicy`); :func:`make_agent`
builds one from a name such as ``"search:samples=24"``.
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
