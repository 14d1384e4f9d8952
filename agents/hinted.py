"""A policy that sees a bot's choice beside the observation: residual learning over a bot.

A network trained from scratch, or by imitating :class:`~agents.games.diszitett.heuristic.HeuristicBot`,
starts well below the bot it imitates (the imitation agrees on about 83% of decisions and
loses about 270 points per hand to the bot). A *hinted* policy takes the bot's choice as
extra inputs: the observation is followed by a one-hot vector of the action the bot would
play in the same position (:func:`hint_size`: one input per action of the game, 200 in
Díszített kanaszta). Imitation then only has to learn "play the hint", so PPO starts at the
bot's level and learns where to deviate from it. Every game has hints: the bot is that
game's own ``heuristic`` or ``greedy``.

The hint is computed from the observation and the mask alone (the bot reads the observation
as the seat's view), so a hinted policy still sees nothing but the player's own information.

* :func:`hint_inputs` builds the one-hot inputs;
* :class:`HintedPolicy` is the agent: it adds the hint to the observations it is given
  (or uses rows that already carry one) and asks the network;
* :func:`load_policy_file` loads an exported ``.npz`` policy, wrapped when it has a hint.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.games.diszitett.observation import View

from .base import Agent, check_actions
from .numpy_policy import NumpyPolicy

#: the bots a policy may take hints from
HINT_BOTS = ("heuristic", "greedy")


def hint_size(rules: Rules) -> int:
    """Inputs a hint adds in games of ``rules``: one per action of the game."""
    return len(rules.game.action_names(rules))


def check_hint(name: str, rules: Rules) -> None:
    """``ValueError`` unless ``name`` is a bot a policy may take hints from."""
    if name not in HINT_BOTS:
        raise ValueError(f"hint must be one of {HINT_BOTS}, got {name!r}")


def hint_bot(name: str, rules: Rules | None = None) -> Agent:
    """The bot that gives hints, set up for ``rules``."""
    rules = rules or Rules()
    check_hint(name, rules)
    from .registry import make_agent  # lazy: the registry loads hinted policies

    return make_agent(name, rules)


def hint_inputs(bot: Agent, obs: np.ndarray, mask: np.ndarray, views: View | None = None) -> np.ndarray:
    """``(N, actions)`` float32: one-hot rows of ``bot``'s legal choice for each row."""
    rules = bot.rules
    choice = check_actions(bot(obs, mask, views), mask, bot.name, rules.game.action_names(rules))
    out = np.zeros((len(choice), np.shape(mask)[1]), dtype=np.float32)
    out[np.arange(len(choice)), choice] = 1.0
    return out


class HintedPolicy(Agent):
    """``policy`` (trained on observations followed by ``bot``'s hint) as an agent of plain
    observations. Rows that already carry the hint (``policy.input_size`` columns, as a
    hinted VecEnv gives them) are passed on as they are."""

    def __init__(self, policy: NumpyPolicy, bot: Agent | None = None) -> None:
        size = hint_size(policy.trained_rules)
        if not policy.hint or policy.hint_size != size:
            raise ValueError(f"{policy.name} takes no hint of {size} inputs (one per action)")
        self.policy = policy
        self.bot = bot if bot is not None else hint_bot(policy.hint, policy.trained_rules)
        self.name, self.trained_rules = policy.name, policy.trained_rules
        self.wants_views = self.bot.wants_views

    @property
    def deterministic(self) -> bool:
        return self.policy.deterministic

    def setup(self, rules: Rules) -> None:
        self.policy.setup(rules)
        self.bot.setup(rules)
        self.rules = rules

    def reset(self, n: int) -> None:
        self.policy.reset(n)
        self.bot.reset(n)

    def inputs(self, obs: np.ndarray, mask: np.ndarray, views: View | None = None) -> np.ndarray:
        """The network's input rows: ``obs`` followed by the hint (added unless present)."""
        obs = np.asarray(obs, dtype=np.float32)
        if obs.ndim == 2 and obs.shape[1] == self.policy.input_size:
            return obs
        if obs.ndim != 2 or obs.shape[1] != self.policy.obs_size:
            raise ValueError(
                f"{self.name} takes observations of {self.policy.obs_size} slots "
                f"(or {self.policy.input_size} with the hint), got shape {obs.shape}"
            )
        return np.concatenate([obs, hint_inputs(self.bot, obs, mask, views)], axis=1)

    def logits(self, obs: np.ndarray, mask: np.ndarray, views: View | None = None) -> np.ndarray:
        """Masked action logits ``(N, actions)`` (illegal actions at ``-inf``)."""
        return self.policy.logits(self.inputs(obs, mask, views), mask)

    def act(
        self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None, views: View | None = None
    ) -> np.ndarray:
        if len(obs) == 0:
            return np.zeros(0, dtype=np.int64)
        return self.policy.act(self.inputs(obs, mask, views), mask)

    def save(self, path: str | Path) -> Path:
        """Write the network (with the name of its hint bot) to ``path`` (``.npz``)."""
        return self.policy.save(path)


def with_hint(policy: NumpyPolicy) -> Agent:
    """``policy`` itself, or a :class:`HintedPolicy` around it when it takes a hint."""
    return HintedPolicy(policy) if policy.hint else policy


def load_policy_file(path: str | Path, **kwargs: object) -> Agent:
    """The exported policy at ``path`` (:meth:`NumpyPolicy.load`), wrapped when it has a hint."""
    return with_hint(NumpyPolicy.load(path, **kwargs))


__all__ = [
    "HINT_BOTS",
    "HintedPolicy",
    "check_hint",
    "hint_bot",
    "hint_inputs",
    "hint_size",
    "load_policy_file",
    "with_hint",
]
