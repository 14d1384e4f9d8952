"""MaskablePPO with lean rollout collection and update loops.

sb3-contrib's loops are general: every step builds a masked distribution
object, copies observations through a dict-aware rollout buffer and asks the
VecEnv for masks row by row; every minibatch rebuilds distributions three
times. On this game (200 actions, observations of about a thousand slots,
128 games stepped together) that bookkeeping costs more than the network.

:class:`LeanMaskablePPO` keeps everything else of ``MaskablePPO`` — the
network (``MaskableActorCriticPolicy``), ``learn()``, callbacks, logging,
``save``/``load`` (a lean run's checkpoint is an ordinary MaskablePPO
``.zip``) — and replaces the two loops:

* **collection** writes observations, masks, actions, log-probabilities and
  values into tensors allocated once; the policy is evaluated once per step
  on all games (masked logits, a categorical sample, the value), and the
  masks come from the environment in one array;
* **update** extracts the (parameter-free) count features once per update,
  gathers minibatches into reused tensors, computes the masked log-softmax
  once per minibatch and derives the probability ratio, the entropy and the
  KL estimate from it, never exponentiating the masked entries (torch's exp
  is slow on them).

The algorithm is unchanged: the same clipped objective, GAE, advantage
normalisation per minibatch, value loss, entropy bonus, gradient clipping
and ``target_kl`` early stop as MaskablePPO (``benchmarks/bench_training.py``
runs both side by side). ``update_threads`` lets the update use more PyTorch
threads than collection.

``overlap=True`` splits the two cores between collection and update: the
update of rollout ``k`` runs in a thread on a second copy of the network
(the learner) while rollout ``k + 1`` is collected with the acting network,
which then takes the learner's weights. Rollout ``k + 1`` is therefore
collected by the policy one update behind the one that starts training on it;
its stored log-probabilities are that older policy's, so the probability
ratio and its clipping measure the step from the policy that acted, as PPO
requires. Checkpoints, snapshots and evaluations always see the acting
network (and its synchronised optimizer state).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.utils import explained_variance
from stable_baselines3.common.vec_env import VecEnv
from torch.nn import functional as F

#: logit of an illegal action: finite, so that 0 * log p stays 0 in the entropy and its gradient
#: (with -inf the gradient through the masked entries would be NaN), yet exp() of it is exactly 0
MASKED = -1e8


def legal_probs(logp_all: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``exp(logp_all)`` on the legal entries, exactly 0 on the others (as exp of MASKED gives).

    The illegal entries are not exponentiated: torch's exp takes a slow path on arguments below
    about -88 (10x slower on this game's rows, where most actions are illegal)."""
    return torch.where(mask, logp_all, 0.0).exp() * mask


def policy_heads(
    policy: Any, obs: torch.Tensor | None, features: Any = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Raw action logits ``(N, A)`` and values ``(N,)`` of a ``MaskableActorCriticPolicy``, from
    ``obs`` or from the features extracted from it (no distribution objects)."""
    if features is None:
        features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    return policy.action_net(latent_pi), policy.value_net(latent_vf).squeeze(1)


@contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """PyTorch's thread count set to ``n`` (0: left as it is) inside the block, restored after."""
    previous = torch.get_num_threads()
    if n > 0:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


def _fixed_features(policy: Any) -> bool:
    """Whether ``policy``'s features are a fixed function of the observation: one extractor,
    shared by actor and critic, without parameters (the count features, or none)."""
    return bool(policy.share_features_extractor) and not any(
        True for _ in policy.features_extractor.parameters()
    )


def _rows(
    flat: dict[str, torch.Tensor], idx: torch.Tensor, into: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor]:
    """Rows ``idx`` of every tensor of ``flat``, written into the tensors of ``into`` (made there
    on first use). ``index_select`` into reused memory: indexing with ``[idx]`` and a fresh tensor
    of 4,096 observations took 4x as long."""
    batch = {}
    for key, tensor in flat.items():
        shape = (len(idx), *tensor.shape[1:])
        if key not in into or into[key].shape != shape:
            into[key] = torch.empty(shape, dtype=tensor.dtype)
        batch[key] = torch.index_select(tensor, 0, idx, out=into[key])
    return batch


def sample(probs: torch.Tensor) -> torch.Tensor:
    """One action per row drawn with probability ``probs`` (rows of non-negative weights): the
    first action whose cumulative weight reaches a uniform point of ``(0, row total]``, so an
    action of weight 0 is never drawn. Draws from torch's global generator, like
    ``torch.multinomial`` (6x slower on 128 rows of 200 actions)."""
    cdf = probs.cumsum(1)
    point = (1.0 - torch.rand(probs.shape[0], 1, dtype=probs.dtype)) * cdf[:, -1:]
    return (cdf < point).sum(1)


class LeanMaskablePPO(MaskablePPO):
    """``MaskablePPO`` with the lean loops of this module (see its docstring).

    Extra keyword argument: ``update_threads`` (PyTorch threads of the update;
    0 keeps the current setting).
    """

    def __init__(self, *args: Any, update_threads: int = 0, overlap: bool = False, **kwargs: Any) -> None:
        self.update_threads = update_threads
        self.overlap = overlap
        self.minibatch_generator = torch.Generator()  # seeded by set_random_seed
        super().__init__(*args, **kwargs)
        self._lean: dict[str, torch.Tensor] = {}
        self._spare: dict[str, torch.Tensor] = {}  # the other rollout's tensors (overlap)
        self._learner: Any = None  # the network the overlapped update trains
        self._pending: threading.Thread | None = None
        self._outcome: dict[str, Any] = {}

    def _excluded_save_params(self) -> list[str]:
        # rollout tensors, the learner copy, the update thread and its generator stay out of checkpoints
        hidden = ["_lean", "_spare", "_learner", "_pending", "_outcome", "minibatch_generator"]
        return [*super()._excluded_save_params(), *hidden]

    def set_random_seed(self, seed: int | None = None) -> None:
        """SB3's seeding, and the update's own generator of minibatch orders: the overlapped
        update runs beside collection, whose draws use torch's global generator, so sharing that
        one would make a run depend on the threads' timing."""
        super().set_random_seed(seed)
        if seed is None:
            self.minibatch_generator.seed()
        else:
            self.minibatch_generator.manual_seed(seed)

    def save(self, path: str | Path, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        """Save after any running update has been taken in (the acting network is saved)."""
        self._join()
        super().save(path, *args, **kwargs)

    def learn(self, *args: Any, **kwargs: Any) -> LeanMaskablePPO:  # type: ignore[override]
        try:
            super().learn(*args, **kwargs)
        finally:
            self._join()  # the last rollout's update
        return self

    def _values(self, obs: np.ndarray) -> torch.Tensor:
        with torch.no_grad():
            return policy_heads(self.policy, torch.as_tensor(obs, dtype=torch.float32))[1]

    # --- collection -------------------------------------------------------------------------
    def _buffers(self, steps: int, n: int, obs_size: int, actions: int) -> dict[str, torch.Tensor]:
        shape = (steps, n)
        want = {"obs": (torch.float32, (*shape, obs_size)), "mask": (torch.bool, (*shape, actions))}
        want["action"] = (torch.int64, shape)
        want |= dict.fromkeys(("logp", "value", "reward", "done"), (torch.float32, shape))
        have = self._lean
        if any(k not in have or tuple(have[k].shape) != s for k, (_, s) in want.items()):
            self._lean = {k: torch.empty(s, dtype=d) for k, (d, s) in want.items()}
        return self._lean

    def collect_rollouts(  # type: ignore[override]
        self,
        env: VecEnv,
        callback: BaseCallback,
        rollout_buffer: Any,
        n_rollout_steps: int,
        use_masking: bool = True,
    ) -> bool:
        """Play ``n_rollout_steps`` steps of every game into the preallocated tensors."""
        assert self._last_obs is not None, "no previous observation was provided"
        if not use_masking:
            raise ValueError("LeanMaskablePPO always uses the action masks")
        masks_of = env.unwrapped.action_masks  # the innermost VecEnv gives all rows at once
        self.policy.set_training_mode(False)
        n = env.num_envs
        buf = self._buffers(n_rollout_steps, n, int(self._last_obs.shape[1]), int(self.action_space.n))
        callback.on_rollout_start()
        new_obs, dones = self._last_obs, self._last_episode_starts
        for t in range(n_rollout_steps):
            obs = torch.as_tensor(self._last_obs, dtype=torch.float32)
            mask = torch.as_tensor(masks_of(), dtype=torch.bool)
            with torch.no_grad():
                logits, values = policy_heads(self.policy, obs)
                logp_all = torch.log_softmax(logits.masked_fill(~mask, MASKED), dim=1)
                action = sample(legal_probs(logp_all, mask))
            buf["obs"][t] = obs
            buf["mask"][t] = mask
            buf["action"][t] = action
            buf["logp"][t] = logp_all.gather(1, action[:, None]).squeeze(1)
            buf["value"][t] = values
            new_obs, rewards, dones, infos = env.step(action.numpy())
            self.num_timesteps += n
            callback.update_locals(locals())
            if not callback.on_step():
                return False
            self._update_info_buffer(infos, dones)
            rewards = np.asarray(rewards, dtype=np.float32)
            self._bootstrap_truncations(rewards, dones, infos)
            buf["reward"][t] = torch.from_numpy(rewards)
            buf["done"][t] = torch.from_numpy(np.asarray(dones, dtype=np.float32))
            self._last_obs, self._last_episode_starts = new_obs, dones
        self._advantages(self._values(new_obs))
        self._join()  # the previous rollout's update (overlap): the acting network takes its weights
        callback.update_locals(locals())
        callback.on_rollout_end()
        return True

    def _bootstrap_truncations(self, rewards: np.ndarray, dones: np.ndarray, infos: list[dict]) -> None:
        """A hand cut by a time limit gets its last state's value, as MaskablePPO does."""
        rows = [
            i
            for i in np.flatnonzero(dones)
            if infos[i].get("TimeLimit.truncated", False) and infos[i].get("terminal_observation") is not None
        ]
        if rows:
            terminal = np.stack([infos[i]["terminal_observation"] for i in rows])
            rewards[rows] += self.gamma * self._values(terminal).numpy()

    @property
    def rollout(self) -> dict[str, torch.Tensor]:
        """The last rollout's tensors ``(n_steps, n_envs, ...)``: obs, mask, action, logp, value,
        reward, done (the hand ended at that step), advantage, return."""
        return self._lean

    def _advantages(self, last_values: torch.Tensor) -> None:
        """GAE(lambda) over the rollout (``done[t]``: the hand ended at step ``t``)."""
        buf = self._lean
        steps = buf["reward"].shape[0]
        adv = torch.zeros_like(buf["reward"])
        running = torch.zeros_like(last_values)
        next_value = last_values
        for t in range(steps - 1, -1, -1):
            live = 1.0 - buf["done"][t]
            delta = buf["reward"][t] + self.gamma * next_value * live - buf["value"][t]
            running = delta + self.gamma * self.gae_lambda * live * running
            adv[t] = running
            next_value = buf["value"][t]
        buf["advantage"] = adv
        buf["return"] = adv + buf["value"]

    # --- update ------------------------------------------------------------------------------
    def train(self) -> None:
        """PPO epochs over the collected rollout (the clipped objective of MaskablePPO); with
        ``overlap``, started in a thread on the learner network (taken in by :meth:`_join`)."""
        clip = float(self.clip_range(self._current_progress_remaining))  # type: ignore[operator]
        if not self.overlap:
            self._update_learning_rate(self.policy.optimizer)
            with torch_threads(self.update_threads):
                logs = self._train(self.policy, self._lean, clip)
            self._record(logs, self._lean, clip)
            return
        self._join()
        if self._learner is None:
            self._learner = copy.deepcopy(self.policy)  # its own parameters and optimizer
        self._update_learning_rate(self._learner.optimizer)
        rollout, self._lean = self._lean, self._spare
        outcome = self._outcome = {"rollout": rollout, "clip": clip}

        def update() -> None:
            try:
                outcome["logs"] = self._train(self._learner, rollout, clip)
            except BaseException as error:  # re-raised by _join in the main thread
                outcome["error"] = error

        self._pending = threading.Thread(target=update, name="ppo-update")  # exit waits
        self._pending.start()

    def _join(self) -> None:
        """Wait for an overlapped update; copy its network and optimizer state to the acting one."""
        if self._pending is None:
            return
        self._pending.join()
        self._pending = None
        outcome, self._outcome = self._outcome, {}
        self._spare = outcome["rollout"]
        if "error" in outcome:
            raise outcome["error"]
        self.policy.load_state_dict(self._learner.state_dict())
        self.policy.optimizer.load_state_dict(self._learner.optimizer.state_dict())
        self._record(outcome["logs"], outcome["rollout"], outcome["clip"])

    def _train(self, policy: Any, rollout: dict[str, torch.Tensor], clip: float) -> dict[str, list[float]]:
        """The epochs of one update on ``policy``; the minibatches' statistics, and ``epochs``:
        one entry per epoch begun (the KL stop ends the update inside an epoch)."""
        policy.set_training_mode(True)
        flat = {k: v.flatten(0, 1) for k, v in rollout.items()}
        if _fixed_features(policy):  # the same for every epoch: extracted once, not per minibatch
            with torch.no_grad():
                flat["features"] = policy.extract_features(flat.pop("obs"))
        total = flat["action"].shape[0]
        logs: dict[str, list[float]] = {k: [] for k in ("pg", "vf", "ent", "clip", "kl", "stopped", "epochs")}
        reused: dict[str, torch.Tensor] = {}  # the minibatch tensors, refilled
        for _ in range(self.n_epochs):
            logs["epochs"].append(1.0)
            for idx in torch.randperm(total, generator=self.minibatch_generator).split(self.batch_size):
                stats = self._minibatch(policy, _rows(flat, idx, reused), clip)
                for k, v in stats.items():
                    logs[k].append(v)
                if stats["stopped"]:
                    break
            if logs["stopped"][-1]:  # the KL stop ends the whole update
                break
        policy.set_training_mode(False)
        return logs

    def _minibatch(self, policy: Any, batch: dict[str, torch.Tensor], clip: float) -> dict[str, float]:
        """One gradient step on a minibatch (none past ``target_kl``, as in MaskablePPO); its loss
        terms and statistics, ``stopped`` 1.0 when the KL estimate stopped the update."""
        terms = self.losses(batch, clip, policy)
        stats = {k: float(v.detach()) for k, v in terms.items()}
        stats["stopped"] = float(self.target_kl is not None and stats["kl"] > 1.5 * self.target_kl)
        if stats["stopped"]:
            return stats
        loss = terms["pg"] + self.ent_coef * terms["ent"] + self.vf_coef * terms["vf"]
        policy.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), self.max_grad_norm)
        policy.optimizer.step()
        return stats

    def losses(
        self, batch: dict[str, torch.Tensor], clip: float, policy: Any = None
    ) -> dict[str, torch.Tensor]:
        """PPO's loss terms on ``batch`` (keys as the rollout tensors, flattened; ``features`` may
        stand for ``obs``): ``pg`` (clipped surrogate), ``vf`` (value MSE), ``ent`` (minus the
        masked entropy), and ``clip``/``kl`` (the clipped share and the KL estimate, without
        gradient)."""
        policy = policy if policy is not None else self.policy
        logits, values = policy_heads(policy, batch.get("obs"), batch.get("features"))
        logp_all = torch.log_softmax(logits.masked_fill(~batch["mask"], MASKED), dim=1)
        logp = logp_all.gather(1, batch["action"][:, None]).squeeze(1)
        entropy = -(legal_probs(logp_all, batch["mask"]) * logp_all).sum(1)  # masked: 0 * (about -1e8) = 0
        adv = batch["advantage"]
        if self.normalize_advantage and len(adv) > 1:
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        log_ratio = logp - batch["logp"]
        ratio = torch.exp(log_ratio)
        pg_loss = -torch.min(adv * ratio, adv * torch.clamp(ratio, 1 - clip, 1 + clip)).mean()
        if self.clip_range_vf is not None:
            clip_vf = self.clip_range_vf(self._current_progress_remaining)  # type: ignore[operator]
            values = batch["value"] + torch.clamp(values - batch["value"], -clip_vf, clip_vf)
        with torch.no_grad():
            kl = ((ratio - 1) - log_ratio).mean()
            clipped = (torch.abs(ratio - 1) > clip).float().mean()
        return {
            "pg": pg_loss,
            "vf": F.mse_loss(batch["return"], values),
            "ent": -entropy.mean(),
            "clip": clipped,
            "kl": kl,
        }

    def _record(self, logs: dict[str, list[float]], rollout: dict[str, torch.Tensor], clip: float) -> None:
        """The same ``train/`` keys as MaskablePPO."""
        self._n_updates += len(logs["epochs"])
        explained = explained_variance(
            rollout["value"].flatten().numpy(), rollout["return"].flatten().numpy()
        )
        record = self.logger.record
        record("train/entropy_loss", float(np.mean(logs["ent"])))
        record("train/policy_gradient_loss", float(np.mean(logs["pg"])))
        record("train/value_loss", float(np.mean(logs["vf"])))
        record("train/approx_kl", float(np.mean(logs["kl"])))
        record("train/clip_fraction", float(np.mean(logs["clip"])))
        record("train/explained_variance", float(explained))
        record("train/n_updates", self._n_updates, exclude="tensorboard")
        record("train/clip_range", clip)


__all__ = ["MASKED", "LeanMaskablePPO", "legal_probs", "sample"]
