"""An RLlib checkpoint as an :class:`agents.base.Agent` (``make_agent("rllib:PATH")``).

``PATH`` is a checkpoint folder written by ``kanaszta train --backend rllib``
(an ``Algorithm.save_to_path`` folder: the module is read from
``learner_group/learner/rl_module/default_policy``), or directly an RLModule
checkpoint folder. The module (:class:`training.rllib.module.MaskedActorCritic`,
restored by Ray from the checkpoint's class reference) maps an observation
followed by its legal-action mask (one vector per decision) to masked logits; the agent plays the
masked argmax (default) or samples the masked softmax, a whole batch of
decisions per call. Loading needs ``ray[rllib]`` (``pip install -e ".[ray]"``)
but no running Ray instance.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.observation import observation_size

from .base import Agent

#: where the learner's module sits inside an algorithm checkpoint, most likely first
MODULE_DIRS = (
    "learner_group/learner/rl_module/default_policy",
    "env_runner/rl_module/default_policy",
    "rl_module/default_policy",
    "",
)


def module_dir(path: str | Path) -> Path:
    """The RLModule folder of a checkpoint folder; ``ValueError`` if there is none."""
    root = Path(path).resolve()  # Ray reads a relative path as a URI without a scheme
    if not root.is_dir():
        raise ValueError(f"no RLlib checkpoint folder at {str(path)!r}")
    for sub in MODULE_DIRS:
        candidate = root / sub if sub else root
        if (candidate / "class_and_ctor_args.pkl").is_file():
            return candidate
    raise ValueError(f"{str(path)!r} holds no RLlib RLModule checkpoint (looked for {MODULE_DIRS[0]})")


class RLlibAgent(Agent):
    """Batched masked inference of an RLlib RLModule whose input is the observation followed by
    the legal-action mask (:class:`training.rllib.env.MaskedObservationSpace`).

    Args:
        module: the RLModule (torch).
        name: the agent's name in tournaments.
        deterministic: masked argmax (True) or a sample of the masked softmax.
        seed: seed of the sampling.
    """

    def __init__(
        self, module: Any, name: str = "rllib", *, deterministic: bool = True, seed: int = 0
    ) -> None:
        import torch

        self.module = module
        self.module.eval()
        for p in self.module.parameters():
            p.requires_grad_(False)
        self.name, self.deterministic = name, deterministic
        self._gen = torch.Generator().manual_seed(seed)
        size = getattr(getattr(module, "observation_space", None), "observation_size", None)
        self.obs_size = None if size is None else int(size)

    def setup(self, rules: Rules) -> None:
        if self.obs_size is not None and observation_size(rules) != self.obs_size:
            raise ValueError(
                f"{self.name} was trained on observations of {self.obs_size} slots; "
                f"these rules ({rules.num_players} players) have {observation_size(rules)}"
            )
        self.rules = rules

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> Any:
        """(N, actions) masked logits (a torch tensor)."""
        import torch

        inputs = np.concatenate([np.asarray(obs, np.float32), np.asarray(mask, np.float32)], axis=1)
        batch = {"obs": torch.from_numpy(inputs)}
        with torch.no_grad():
            return self.module.forward_inference(batch)["action_dist_inputs"]

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        import torch

        logits = self.logits(obs, mask)
        if self.deterministic:
            actions = logits.argmax(dim=1)
        else:
            actions = torch.multinomial(torch.softmax(logits, dim=1), 1, generator=self._gen).squeeze(1)
        return actions.numpy().astype(np.int64)


def load_rllib_checkpoint(path: str | Path, name: str | None = None, deterministic: bool = True) -> Agent:
    """The learner's RLModule of an RLlib checkpoint folder as a batched agent; a module that
    reads a hint comes back as its NumPy actor in a :class:`~agents.hinted.HintedPolicy`, which
    adds the hint to plain observations."""
    folder = module_dir(path)
    try:
        import torch
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError as err:  # pragma: no cover - optional dependency
        raise ValueError(f"loading {path} needs ray[rllib]: pip install -e '.[ray]'") from err
    threads = torch.get_num_threads()
    module = RLModule.from_checkpoint(folder)
    torch.set_num_threads(threads)  # Ray may change it while restoring
    if getattr(module.observation_space, "hint", ""):
        return module.to_agent(name or f"rllib:{path}", deterministic=deterministic)
    return RLlibAgent(module, name or f"rllib:{path}", deterministic=deterministic)
