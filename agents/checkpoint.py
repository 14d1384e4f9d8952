"""A trained MaskablePPO policy as an :class:`agents.base.Agent`.

``load_policy("runs/quickstart/final.zip")`` returns an agent that can sit in
any seat of a tournament, be a training opponent or a human's opponent. Only
the actor part of the network is kept (features -> policy MLP -> action
logits); illegal actions get ``-inf`` logits, then the agent takes the most
likely action (``deterministic=True``, the default) or samples one.
"""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import torch
from torch import nn

from kanaszta_env import Rules
from kanaszta_env.observation import observation_size

from .base import Agent
from .hinted import hint_size, with_hint
from .numpy_policy import NumpyPolicy


class PPOAgent(Agent):
    """Batched masked inference of a frozen actor network.

    Args:
        actor: module mapping observations ``(N, D)`` to action logits ``(N, 200)``.
        name: the agent's name in tournaments.
        deterministic: masked argmax (True) or a sample of the masked softmax.
        seed: seed of the sampling generator.
        rules: the rules it was trained for, if known (default: those its
            features extractor declares, else unknown; only the observation
            size is checked against the games' rules).
    """

    def __init__(
        self,
        actor: nn.Module,
        name: str = "ppo",
        *,
        deterministic: bool = True,
        seed: int = 0,
        rules: Rules | None = None,
        hint: str = "",
    ) -> None:
        self.actor = actor.eval().requires_grad_(False)
        self.hint = hint  # the bot whose one-hot choice follows the observation (agents.hinted)
        self.name, self.deterministic, self.seed = name, deterministic, seed
        self._gen = torch.Generator().manual_seed(seed)
        self.obs_size = _input_size(actor)
        self.trained_rules = rules or _declared_rules(actor)

    @classmethod
    def from_sb3(cls, policy: nn.Module, name: str = "ppo", **kwargs: object) -> PPOAgent:
        """A frozen copy of the actor of a sb3-contrib ``MaskableActorCriticPolicy``."""
        extractor = getattr(policy, "pi_features_extractor", policy.features_extractor)
        extractor = getattr(extractor, "actor_extractor", extractor)  # training.privileged: the actor's part
        actor = nn.Sequential(
            copy.deepcopy(extractor),
            copy.deepcopy(policy.mlp_extractor.policy_net),
            copy.deepcopy(policy.action_net),
        ).to("cpu")
        kwargs.setdefault("rules", getattr(policy.observation_space, "rules", None))
        kwargs.setdefault("hint", getattr(policy.observation_space, "hint", ""))
        return cls(actor, name, **kwargs)  # type: ignore[arg-type]

    def to_numpy(self, name: str | None = None, **kwargs: object) -> NumpyPolicy:
        """The same actor as NumPy arrays (:class:`agents.numpy_policy.NumpyPolicy`): equal
        logits up to float rounding, faster on small batches, loadable without PyTorch."""
        if self.trained_rules is None:
            raise ValueError(f"{self.name}: the rules it was trained for are unknown; cannot export it")
        layers = [m for m in self.actor.modules() if isinstance(m, nn.Linear)]
        odd = [type(m).__name__ for m in self.actor.modules() if not _exportable(m)]
        if odd:
            raise ValueError(f"{self.name}: cannot export layers {sorted(set(odd))} (Linear and Tanh only)")
        counts = any(hasattr(m, "layout") for m in self.actor.modules())
        kwargs.setdefault("deterministic", self.deterministic)
        kwargs.setdefault("seed", self.seed)
        return NumpyPolicy(
            [m.weight.detach().cpu().numpy().T.copy() for m in layers],
            [m.bias.detach().cpu().numpy().copy() for m in layers],
            self.trained_rules,
            count_inputs=counts,
            hint=self.hint,
            hint_size=hint_size(self.trained_rules) if self.hint else 0,
            name=name or self.name,
            **kwargs,  # type: ignore[arg-type]
        )

    def setup(self, rules: Rules) -> None:
        if observation_size(rules) != self.obs_size:
            trained = self.trained_rules
            players = f" ({trained.num_players} players)" if trained is not None else ""
            raise ValueError(
                f"{self.name} was trained on observations of {self.obs_size} slots{players}; "
                f"these rules ({rules.num_players} players) have {observation_size(rules)}"
            )
        self.rules = rules

    def reset(self, n: int) -> None:
        self._gen = torch.Generator().manual_seed(self.seed)

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> torch.Tensor:
        """Masked action logits ``(N, 200)`` (illegal actions at ``-inf``)."""
        with torch.no_grad():
            x = torch.as_tensor(np.asarray(obs, dtype=np.float32))
            out = self.actor(x)
            return out.masked_fill(~torch.as_tensor(np.asarray(mask, dtype=np.bool_)), float("-inf"))

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        if len(obs) == 0:
            return np.zeros(0, dtype=np.int64)
        logits = self.logits(obs, mask)
        if self.deterministic:
            return logits.argmax(dim=1).numpy().astype(np.int64)
        probs = torch.softmax(logits, dim=1)
        return torch.multinomial(probs, 1, generator=self._gen).squeeze(1).numpy().astype(np.int64)


def load_policy(
    path: str | Path, *, name: str | None = None, deterministic: bool = True, seed: int = 0
) -> Agent:
    """The agent of a MaskablePPO checkpoint (``.zip`` written by ``kanaszta train``).

    ``name`` defaults to the file's stem (``runs/x/final.zip`` -> ``"ppo:final"``).
    """
    from sb3_contrib import MaskablePPO

    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no checkpoint at {path}")
    # schedules are not needed for inference; replacing them avoids unpickling closures
    custom = {"learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0}
    model = MaskablePPO.load(path, device="cpu", custom_objects=custom)
    label = name or f"ppo:{path.parent.name}/{path.stem}"
    agent = PPOAgent.from_sb3(model.policy, label, deterministic=deterministic, seed=seed)
    return with_hint(agent.to_numpy()) if agent.hint else agent  # type: ignore[return-value]


def frozen_actor(model: object, name: str = "ppo", *, deterministic: bool = True, seed: int = 0) -> Agent:
    """A frozen copy of a MaskablePPO ``model``'s actor as an agent (snapshots, evaluations, the
    DAgger student): NumPy arrays, with the same logits as the torch module and faster on the
    small batches of an opponent slot; wrapped in :class:`agents.hinted.HintedPolicy` when the
    model takes a bot's hint."""
    policy = PPOAgent.from_sb3(model.policy, name).to_numpy(deterministic=deterministic, seed=seed)  # type: ignore[attr-defined]
    return with_hint(policy)


def _exportable(module: nn.Module) -> bool:
    """Modules :meth:`PPOAgent.to_numpy` knows: containers, Linear, Tanh, the input extractors."""
    if isinstance(module, nn.Sequential | nn.Linear | nn.Tanh | nn.Flatten):
        return True
    return type(module).__name__ in ("CountFeatures", "FlattenExtractor")


def _declared_rules(actor: nn.Module) -> Rules | None:
    """The rules a features extractor inside ``actor`` was built for, if any."""
    for module in actor.modules():
        rules = getattr(module, "rules", None)
        if isinstance(rules, Rules):
            return rules
    return None


def _input_size(actor: nn.Module) -> int:
    for module in actor.modules():
        if hasattr(module, "observation_size"):  # a features extractor that adds inputs
            return int(module.observation_size)
        if isinstance(module, nn.Linear):
            return int(module.in_features)
    raise ValueError("the actor has no linear layer")
