"""Imitation warm start ("kickstarting") of the PPO policy from a teacher bot.

A turn is a chain of atomic decisions (draw, meld one card, ..., discard) and
a meld only counts once the whole turn is acceptable (R12, R14), so a policy
starting from uniform logits almost never completes an opening and PPO learns
to hoard instead. Before PPO starts, :func:`training.train.warm_start` therefore

1. plays the training games with a teacher bot in the learner's seat and the
   opponent pool in the others (the same :class:`~training.opponents.PoolVecEnv`
   and rewards PPO will see), recording the learner's observations, masks, the
   teacher's actions and the discounted (shaped) returns; in later rounds the
   student itself chooses a share of the moves while the teacher still labels
   every one (DAgger, Ross et al. 2011), so the student also learns to recover
   from the positions its own mistakes lead to;
2. fits the MaskablePPO policy by supervised learning: cross-entropy of the
   masked action logits against the teacher's action, and the value head by
   regression on the returns (so the first PPO advantages are not noise).

The result is an ordinary MaskablePPO model that PPO then improves; the
teacher never acts during PPO. Options: ``TrainConfig.warm_start`` (teacher
name, ``""`` to train from scratch) and the ``warm_start_*`` fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv

from agents.base import Agent, check_actions
from agents.checkpoint import frozen_actor

from .lean_ppo import MASKED, policy_heads, torch_threads


@dataclass
class Demonstrations:
    """Learner decisions labelled by the teacher."""

    obs: np.ndarray  # (T, D) float32
    mask: np.ndarray  # (T, A) bool
    action: np.ndarray  # (T,) int64, the teacher's choice
    ret: np.ndarray  # (T,) float32, discounted return of the (shaped) rewards
    has_ret: np.ndarray  # (T,) bool, the hand ended before collection stopped (else ret is partial)
    hands: int  # hands finished while collecting


def collect(
    env: VecEnv,
    masks: Callable[[], np.ndarray],
    teacher: Agent,
    steps: int,
    gamma: float,
    *,
    student: Agent | None = None,
    student_share: float = 0.0,
    seed: int = 0,
    on_step: Callable[[int], None] | None = None,
) -> Demonstrations:
    """Play ``steps`` vectorised steps of ``env``; every decision is labelled by ``teacher``.

    With ``student`` and ``student_share > 0`` each game follows the student
    (rather than the teacher) for a whole hand with probability
    ``student_share``. Returns are computed backwards within each game's
    hands; for the steps of a hand still running when collection stops they
    are partial (``has_ret`` False) and :func:`fit` leaves them out of the
    value loss.
    """
    n = env.num_envs
    rng = np.random.default_rng(seed)
    obs = env.reset()
    size = obs.shape[1]
    plain = getattr(env, "base_size", size)  # the teacher reads plain observations, without a hint
    all_obs = np.empty((steps, n, size), dtype=np.float32)
    all_mask = np.empty((steps, n, masks().shape[1]), dtype=np.bool_)
    all_act = np.empty((steps, n), dtype=np.int64)
    rewards = np.empty((steps, n), dtype=np.float32)
    dones = np.empty((steps, n), dtype=np.bool_)
    by_student = rng.random(n) < student_share if student is not None else np.zeros(n, bool)
    for t in range(steps):
        mask = masks()
        label = check_actions(teacher.act(obs[:, :plain], mask), mask, teacher.name)
        played = label.copy()
        if by_student.any():
            rows = np.flatnonzero(by_student)
            played[rows] = check_actions(student.act(obs[rows], mask[rows]), mask[rows], "student")  # type: ignore[union-attr]
        all_obs[t], all_mask[t], all_act[t] = obs, mask, label
        obs, rewards[t], dones[t], _ = env.step(played)
        if student is not None and dones[t].any():
            ended = np.flatnonzero(dones[t])
            by_student[ended] = rng.random(ended.size) < student_share
        if on_step is not None:
            on_step(t + 1)
    returns = np.zeros((steps, n), dtype=np.float32)
    keep = np.zeros((steps, n), dtype=np.bool_)
    running = np.zeros(n, dtype=np.float32)
    complete = np.zeros(n, dtype=np.bool_)  # a later hand end was seen
    for t in range(steps - 1, -1, -1):
        complete |= dones[t]
        running = rewards[t] + gamma * running * ~dones[t]
        returns[t], keep[t] = running, complete
    return Demonstrations(
        obs=all_obs.reshape(steps * n, size),
        mask=all_mask.reshape(steps * n, -1),
        action=all_act.reshape(-1),
        ret=returns.reshape(-1),
        has_ret=keep.reshape(-1),
        hands=int(dones.sum()),
    )


def fit(
    model: MaskablePPO,
    data: Demonstrations,
    *,
    epochs: int,
    batch_size: int = 2048,
    learning_rate: float = 1e-3,
    value_coef: float = 0.5,
    smoothing: float = 0.0,
    seed: int = 0,
    threads: int = 0,
    on_epoch: Callable[[int, dict], None] | None = None,
) -> dict:
    """Supervised fit of ``model.policy`` (masked cross-entropy + value regression).

    ``smoothing`` spreads that much of the target probability evenly over the legal
    actions (label smoothing), so that a policy which can copy its teacher exactly (a
    hinted one, :mod:`agents.hinted`) still samples other actions when PPO starts.

    Returns the last epoch's mean loss terms and the teacher-agreement rate of
    the masked argmax. ``threads > 0`` sets PyTorch's threads for the fit only
    (its large batches gain from more cores than the per-step inference of PPO).
    """
    with torch_threads(threads):
        policy = model.policy
        policy.set_training_mode(True)
        optimiser = torch.optim.Adam(policy.parameters(), lr=learning_rate)
        gen = np.random.default_rng(seed)
        obs = torch.from_numpy(data.obs)
        mask = torch.from_numpy(data.mask)
        action = torch.from_numpy(data.action)
        ret = torch.from_numpy(data.ret)
        has_ret = torch.from_numpy(data.has_ret).float()
        stats: dict = {}
        for epoch in range(epochs):
            order = torch.from_numpy(gen.permutation(len(action)))
            totals = np.zeros(3)
            for start in range(0, len(order), batch_size):
                idx = order[start : start + batch_size]
                logits, values = policy_heads(policy, obs[idx])
                logits = logits.masked_fill(~mask[idx], MASKED)
                ce = torch.nn.functional.cross_entropy(logits, action[idx])
                if smoothing > 0.0:  # cross-entropy with the uniform distribution over the legal actions
                    legal = mask[idx].float()
                    spread = -(torch.log_softmax(logits, dim=1) * legal).sum(1) / legal.sum(1)
                    ce = (1.0 - smoothing) * ce + smoothing * spread.mean()
                weight = has_ret[idx]
                vf = (weight * (values - ret[idx]) ** 2).sum() / weight.sum().clamp(min=1.0)
                loss = ce + value_coef * vf
                optimiser.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
                optimiser.step()
                agree = (logits.argmax(1) == action[idx]).float().mean()
                totals += np.array([ce.item(), vf.item(), agree.item()]) * len(idx)
            totals /= len(order)
            xent, mse, agree = totals.tolist()
            stats = {"epoch": epoch + 1, "cross_entropy": xent, "value_mse": mse, "agreement": agree}
            if on_epoch is not None:
                on_epoch(epoch + 1, stats)
        policy.set_training_mode(False)
        return stats


def student_of(model: MaskablePPO, seed: int = 0) -> Agent:
    """The model's current policy as a sampling agent (the DAgger student)."""
    return frozen_actor(model, "student", deterministic=False, seed=seed)
