"""Agents for Díszített kanaszta: baseline bots, tournaments, human play.

Every agent implements the batched interface of :class:`agents.base.Agent`
(observations and legal masks in, actions out) and sees only what the player
it seats sees.
"""

from __future__ import annotations

from .base import Agent, BatchResult, PolicyAgent, play_batch
from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = ["Agent", "BatchResult", "GreedyBot", "PolicyAgent", "RandomBot", "play_batch"]
