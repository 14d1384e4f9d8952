"""The imitation warm start of the RLlib backend: the local trainer's, copied into the RLModule.

:func:`imitation_model` runs :func:`training.train.warm_start` unchanged (the local trainer's
environment, pool, rewards and hint; a MaskablePPO of the run's ``net_arch`` and
``count_features``) and returns the fitted model; :func:`module_state` gives its weights as a
:class:`~training.rllib.module.MaskedActorCritic` state. The two networks match layer for layer:
SB3's ``mlp_extractor.policy_net`` and ``action_net`` are the module's ``pi``,
``mlp_extractor.value_net`` and ``value_net`` its ``vf`` (both ``tanh`` MLPs).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from torch import nn

from ..config import TrainConfig
from ..opponents import OpponentPool


def module_state(policy: Any, template: dict[str, Any]) -> dict[str, np.ndarray]:
    """The weights of an SB3 ``MaskableActorCriticPolicy`` named as the RLModule's ``template``
    state (its ``state_dict``); ``ValueError`` unless every layer has its counterpart."""
    heads = {
        "pi": [*policy.mlp_extractor.policy_net, policy.action_net],
        "vf": [*policy.mlp_extractor.value_net, policy.value_net],
    }
    state: dict[str, np.ndarray] = {}
    for head, layers in heads.items():
        linear = [m for m in layers if isinstance(m, nn.Linear)]
        for k, layer in enumerate(linear):  # the module's Sequential: Linear, Tanh, Linear, ...
            for part in ("weight", "bias"):
                state[f"{head}.{2 * k}.{part}"] = getattr(layer, part).detach().cpu().numpy().copy()
    shapes = {k: tuple(np.shape(v)) for k, v in template.items()}
    if shapes != {k: v.shape for k, v in state.items()}:
        raise ValueError(f"the SB3 policy's layers {sorted(state)} do not match the module's {shapes}")
    return state


def imitation_model(config: TrainConfig) -> tuple[Any, list[dict]]:
    """The local trainer's warm start of ``config``: the fitted MaskablePPO and its rounds
    (decisions, losses, teacher agreement: ``warm_start.json``)."""
    from stable_baselines3.common.utils import set_random_seed

    from ..train import build_env, build_model, warm_start

    set_random_seed(config.seed)
    local = dataclasses.replace(config, resume="", trainer="sb3", tensorboard=False)
    pool = OpponentPool.of_config(local)
    env, base = build_env(local, pool)
    try:
        model = build_model(local, env, None)
        rounds = warm_start(local, model, env, base)
    finally:
        env.close()
    return model, rounds
