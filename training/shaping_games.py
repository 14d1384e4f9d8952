"""The shaping potential of each game training supports, built from a :class:`TrainConfig`.

A game without an entry here is refused by :meth:`TrainConfig.validate` with a sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from kanaszta_env import Rules

# the potentials import stable-baselines3: only when one is built (TrainConfig.validate reads the keys)


def _diszitett(rules: Rules, config: Any) -> Any:
    from .games.diszitett.shaping import ScoreEstimate

    terms = {"canasta_progress": config.shaping_canasta, "out_readiness": config.shaping_out}
    return ScoreEstimate(
        rules, config.reward_scale, config.shaping_hand_weight, dead_end=config.shaping_dead_end, **terms
    )


def _classic(rules: Rules, config: Any) -> Any:
    from .games.classic.shaping import ClassicScoreEstimate

    return ClassicScoreEstimate(
        rules, config.reward_scale, config.shaping_hand_weight, config.shaping_dead_end
    )


def _turkish(rules: Rules, config: Any) -> Any:
    from .games.turkish.shaping import TurkishScoreEstimate

    return TurkishScoreEstimate(rules, scale=config.reward_scale, hand_weight=config.shaping_hand_weight)


#: game name -> its potential (phi) for the shaped reward
POTENTIALS: dict[str, Callable[[Rules, Any], Any]] = {
    "diszitett": _diszitett,
    "classic": _classic,
    "turkish": _turkish,
}


class RewardTerms(Protocol):
    """What a trainer's env holds of the learner's step reward (:func:`shaped_rewards`)."""

    gamma: float
    win_bonus: float
    step_cost: float


def shaped_rewards(
    rewards: np.ndarray, dones: np.ndarray, phi_before: np.ndarray, phi: np.ndarray | None, coef: float,
    terms: RewardTerms,
) -> np.ndarray:  # fmt: skip
    """The learner's rewards of one step (float64): the env's hand-end ``rewards``,
    ``±win_bonus`` for a hand won or lost (their sign), minus ``step_cost``, plus
    ``coef * (gamma * phi(s') - phi(s))`` with ``phi`` of an ended hand 0 (``phi`` of the
    new observations, None without shaping). One rule for the local and RLlib trainers."""
    out = rewards + terms.win_bonus * (np.sign(rewards) * dones) - terms.step_cost
    if phi is not None:
        out += coef * (terms.gamma * np.where(dones, 0.0, phi) - phi_before)
    return out
