"""The flags of a tiny ``kanaszta train`` run (a few hundred decisions) and a way to play
batches of hands, shared by the training tests of every game."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from agents.base import Agent
from kanaszta_env import GameBatch


def tiny_train_flags(
    *table: str, teacher: str = "heuristic", rounds: int = 1, final_bots: str = "random,heuristic"
) -> list[str]:
    """``table`` (e.g. ``"--variant", "tr"``) followed by the flags of a run that trains, warm
    starts from ``teacher`` for ``rounds`` rounds, evaluates and checkpoints within 256 decisions."""
    return [
        *table,
        "--num-envs", "8", "--opponent-slots", "2", "--n-steps", "16", "--batch-size", "64",
        "--n-epochs", "1",
        "--net-arch", "16", "--max-turns", "30", "--eval-max-turns", "30",
        "--opponents", "random:1,self:1", "--snapshot-every", "128",
        "--eval-every", "128", "--eval-hands", "4", "--eval-bots", "random", "--final-eval-hands", "4",
        "--final-eval-bots", final_bots, "--checkpoint-every", "256",
        "--no-progress-bar", "--no-tensorboard",
        "--warm-start", teacher, "--warm-start-steps", "24", "--warm-start-rounds", str(rounds),
        "--warm-start-epochs", "1",
    ]  # fmt: skip


def play(games: GameBatch, rng: np.random.Generator, steps: int, bot: Agent | None = None) -> Iterator[None]:
    """Yield before each of up to ``steps`` steps of ``games``, until every hand has ended:
    random legal moves, or ``bot``'s with a random one in 10 %."""
    for _ in range(steps):
        yield
        if games.done.all():
            return
        mask = games.legal_mask()
        live = mask.any(axis=1)
        actions = np.zeros(len(mask), dtype=np.int64)
        if bot is not None:
            actions[live] = bot.act(games.observe()[live], mask[live])
        for b in np.flatnonzero(live & ((rng.random(len(mask)) < 0.1) | (bot is None))):
            actions[b] = rng.choice(np.flatnonzero(mask[b]))
        games.step(actions)
