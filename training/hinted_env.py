"""The learner's observations followed by a bot's hint (:mod:`agents.hinted`).

:class:`HintedVecEnv` is the outermost layer of a training VecEnv when ``kanaszta train
--hint heuristic`` asks for a hinted policy: after every reset and step it asks the bot
what it would play in each game's position (from the observation and the legal mask, so
the learner still sees only its own information) and appends the one-hot choice. The
layers below (opponent pool, monitor, reward shaping) keep plain observations.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from stable_baselines3.common.save_util import load_from_zip_file
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn

from agents.hinted import hint_bot, hint_inputs, hint_size
from kanaszta_env.spaces import ObservationSpace, rules_of_space


class HintedVecEnv(VecEnvWrapper):
    """``venv``'s observations followed by ``hint``'s one-hot choice; ``masks`` gives the
    legal masks of all rows (the pool's ``action_masks``)."""

    def __init__(self, venv: VecEnv, hint: str, masks: Callable[[], np.ndarray]) -> None:
        rules = rules_of_space(venv.observation_space)
        self.bot = hint_bot(hint, rules)
        self.masks = masks
        #: columns of the plain observation (what bots and opponents read)
        self.base_size = int(venv.observation_space.shape[0])
        self.hint_size = hint_size(rules)
        space = ObservationSpace(rules, hint=hint, hint_size=self.hint_size)
        super().__init__(venv, observation_space=space)

    def _hinted(self, obs: np.ndarray) -> np.ndarray:
        return np.concatenate([obs, hint_inputs(self.bot, obs, self.masks())], axis=1)

    def reset(self) -> np.ndarray:
        self.bot.reset(self.num_envs)
        return self._hinted(self.venv.reset())

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, dones, infos = self.venv.step_wait()
        for info in infos:
            final = info.get("terminal_observation")
            if final is not None:  # no mask is left for a finished hand: its hint inputs stay 0
                info["terminal_observation"] = np.concatenate([final, np.zeros(self.hint_size, final.dtype)])
        return self._hinted(obs), rewards, dones, infos


def check_resume_hint(checkpoint: str | Path, hint: str, privileged: bool = False) -> None:
    """``ValueError`` unless the checkpoint was trained with the same ``hint`` ("" = none) and
    the same ``privileged_critic`` setting (:mod:`training.privileged`)."""
    data, _, _ = load_from_zip_file(checkpoint, device="cpu", load_data=True)
    space = (data or {}).get("observation_space")
    require_same_hint(checkpoint, getattr(space, "hint", ""), hint)
    if hasattr(space, "actor_space") != privileged:
        said, now = (f"privileged_critic = {str(p).lower()}" for p in (not privileged, privileged))
        raise ValueError(f"resume: {checkpoint} was trained with {said}, this run has {now}: use the same")


def require_same_hint(checkpoint: str | Path, trained: str, hint: str) -> None:
    """``ValueError`` unless ``trained``, the hint ``checkpoint`` was trained with, is ``hint``."""
    if trained != hint:
        said, now = (f"--hint {h}" if h else "no --hint" for h in (trained, hint))
        raise ValueError(f"resume: {checkpoint} was trained with {said}, this run has {now}: use the same")


__all__ = ["HintedVecEnv", "check_resume_hint", "require_same_hint"]
