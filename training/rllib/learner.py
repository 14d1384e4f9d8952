"""RLlib's PPO learner with the two optimisation details of the local trainer (SB3's PPO).

* Adam's epsilon is SB3's 1e-5, not torch's default 1e-8: with the small gradients of a
  warm-started policy, 1e-8 lets rarely-updated weights take full-size steps.
* Advantages are standardised per minibatch, as SB3 does, on top of RLlib's per-batch
  standardisation (a minibatch of 4,096 decisions drawn from a batch of 16,384 has its
  own mean and spread).

Everything else of the loss is RLlib's: the clipped surrogate, the entropy bonus and the
value loss (unclipped here, as the local trainer's).
"""

from __future__ import annotations

from typing import Any

import torch
from ray.rllib.algorithms.ppo.torch.ppo_torch_learner import PPOTorchLearner
from ray.rllib.core.columns import Columns
from ray.rllib.evaluation.postprocessing import Postprocessing

ADAM_EPS = 1e-5
"""SB3's Adam epsilon for on-policy algorithms (``ActorCriticPolicy``)."""


def standardised(advantages: torch.Tensor, valid: torch.Tensor | None = None) -> torch.Tensor:
    """``advantages`` shifted to mean 0 and scaled to standard deviation 1 (SB3's 1e-8 guard),
    the statistics taken over the ``valid`` entries (RLlib masks its padding steps)."""
    kept = advantages if valid is None else advantages[valid]
    if kept.numel() < 2:
        return advantages
    return (advantages - kept.mean()) / (kept.std() + 1e-8)


class LocalStylePPOLearner(PPOTorchLearner):
    """``PPOTorchLearner`` with SB3's Adam epsilon and per-minibatch advantages (module doc)."""

    def configure_optimizers_for_module(self, module_id: Any, config: Any = None) -> None:
        params = self.get_parameters(self._module[module_id])
        self.register_optimizer(
            module_id=module_id,
            optimizer=torch.optim.Adam(params, eps=ADAM_EPS),
            params=params,
            lr_or_lr_schedule=config.lr,
        )

    def compute_loss_for_module(self, *, module_id: Any, config: Any, batch: dict, fwd_out: dict) -> Any:
        batch = dict(batch)  # the minibatch's own advantages; RLlib's batch stays as it was
        valid = batch.get(Columns.LOSS_MASK)
        batch[Postprocessing.ADVANTAGES] = standardised(batch[Postprocessing.ADVANTAGES], valid)
        return super().compute_loss_for_module(
            module_id=module_id, config=config, batch=batch, fwd_out=fwd_out
        )
