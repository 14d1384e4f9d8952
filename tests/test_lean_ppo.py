"""The lean PPO loops compute what sb3-contrib's MaskablePPO computes, and the
NumPy export of a trained actor plays like the torch module."""

from __future__ import annotations

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
from stable_baselines3.common.callbacks import BaseCallback

from agents.checkpoint import PPOAgent
from agents.numpy_policy import NumpyPolicy
from kanaszta_env import Rules
from kanaszta_env.observation import observation_size
from training.config import TrainConfig, parse_weights
from training.lean_ppo import MASKED, LeanMaskablePPO, legal_probs, sample
from training.opponents import OpponentPool
from training.train import build_env, build_model


class _Quiet(BaseCallback):
    def _on_step(self) -> bool:
        return True


def _collected(steps: int = 32, **overrides: object) -> tuple[LeanMaskablePPO, TrainConfig]:
    settings = dict(
        num_envs=8,
        opponent_slots=2,
        max_turns=6,
        net_arch=[32],
        opponents="random:1,greedy:1",
        n_steps=steps,
        overlap=False,  # the update in place (the overlap tests ask for it)
    )
    settings.update(overrides)
    config = TrainConfig(tensorboard=False, progress_bar=False, **settings).validate()  # type: ignore[arg-type]
    pool = OpponentPool(parse_weights(config.opponents), config.rules(), seed=0)
    env, _ = build_env(config, pool)
    model = build_model(config, env, None)
    assert isinstance(model, LeanMaskablePPO)
    from stable_baselines3.common.utils import configure_logger

    model.set_logger(configure_logger(verbose=0))
    model._setup_learn(total_timesteps=10**6, callback=None)
    _collect(model, steps)
    return model, config


def _collect(model: LeanMaskablePPO, steps: int) -> None:
    """One rollout of ``steps`` steps (it would fail on NaN probabilities)."""
    callback = _Quiet()
    callback.init_callback(model)
    assert model.collect_rollouts(model.env, callback, model.rollout_buffer, n_rollout_steps=steps)


def test_collection_records_the_policy_and_sb3s_advantages() -> None:
    model, config = _collected()
    r = model.rollout
    steps, n = r["action"].shape
    assert r["obs"].shape == (steps, n, observation_size(config.rules()))
    flat_mask = r["mask"].flatten(0, 1)
    assert flat_mask[torch.arange(steps * n), r["action"].flatten()].all()  # sampled actions are legal
    assert r["done"].sum() > 0  # hands of 6 turns end inside 32 steps of 8 games
    with torch.no_grad():  # log-probabilities and values are MaskablePPO's own
        obs = r["obs"].flatten(0, 1)
        dist = model.policy.get_distribution(obs, action_masks=flat_mask.numpy())
        logp = dist.log_prob(r["action"].flatten())
        values = model.policy.predict_values(obs).squeeze(1)
    torch.testing.assert_close(r["logp"].flatten(), logp, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(r["value"].flatten(), values, atol=1e-5, rtol=1e-5)

    # GAE: sb3's buffer fed the same rewards, values and episode starts gives the same advantages
    buffer = MaskableRolloutBuffer(
        steps,
        model.observation_space,
        model.action_space,
        gamma=model.gamma,
        gae_lambda=model.gae_lambda,
        n_envs=n,
    )
    starts = np.zeros((steps, n), dtype=np.float32)
    starts[1:] = r["done"][:-1].numpy()
    for t in range(steps):
        buffer.add(
            r["obs"][t].numpy(),
            r["action"][t].numpy()[:, None],
            r["reward"][t].numpy(),
            starts[t],
            r["value"][t],
            r["logp"][t],
            action_masks=r["mask"][t].numpy(),
        )
    last_values = model._values(model._last_obs)
    buffer.compute_returns_and_advantage(last_values, np.asarray(model._last_episode_starts))
    np.testing.assert_allclose(r["advantage"].numpy(), buffer.advantages, atol=1e-4, rtol=1e-4)
    np.testing.assert_allclose(r["return"].numpy(), buffer.returns, atol=1e-4, rtol=1e-4)


def test_legal_probs_are_the_softmax_over_the_legal_actions() -> None:
    gen = torch.Generator().manual_seed(0)
    logits = torch.randn(64, 200, generator=gen) * 5
    mask = torch.rand(64, 200, generator=gen) < 0.1
    mask[:, 7] = True
    logp_all = torch.log_softmax(logits.masked_fill(~mask, MASKED), dim=1)
    probs = legal_probs(logp_all, mask)
    assert torch.equal(probs[~mask], torch.zeros(int((~mask).sum())))
    expected = torch.cat([torch.softmax(row[m], 0) for row, m in zip(logits, mask, strict=True)])
    assert torch.allclose(probs[mask], expected, atol=1e-6)
    assert torch.equal(probs, logp_all.exp())  # what exp() gives, without its slow underflow path


def test_samplers_draw_by_probability_and_never_an_illegal_action() -> None:
    """The torch sampler of the probabilities and the NumPy policy's of the legal logits (a
    shift changes nothing) draw each action as often as its probability, and a sole legal
    action always; torch's draws are reproducible from its seed."""
    from agents.numpy_policy import softmax_sample

    probs = torch.zeros(3, 200)
    probs[0, [3, 50, 199]] = torch.tensor([0.2, 0.3, 0.5])
    probs[1, 0] = 1.0  # only the first action
    probs[2, 199] = 1.0  # only the last action
    torch.manual_seed(0)
    draws = torch.stack([sample(probs.repeat(1000, 1)) for _ in range(10)]).reshape(-1, 3).numpy()
    with np.errstate(divide="ignore"):
        logits = np.log(probs.numpy()) + 7.0  # -inf: illegal
    picks = np.empty((3, 10_000), dtype=np.int64)
    for k in range(3):
        uniforms = np.random.default_rng(k).random(10_000)
        uniforms[:2] = (0.0, 0.999999)  # the edges
        softmax_sample(np.repeat(logits[k : k + 1], 10_000, axis=0), uniforms, picks[k])
    for got in (draws, picks.T):  # 10,000 draws: sd at most 0.005
        assert set(got[:, 0].tolist()) == {3, 50, 199} and (got[:, 1] == 0).all() and (got[:, 2] == 199).all()
        np.testing.assert_allclose(
            [np.mean(got[:, 0] == a) for a in (3, 50, 199)], [0.2, 0.3, 0.5], atol=0.02
        )
    torch.manual_seed(1)
    first = sample(probs)
    torch.manual_seed(1)
    assert torch.equal(first, sample(probs))


def test_loss_terms_are_maskableppos_checkpoints_load_as_maskableppo_and_target_kl_stops(tmp_path) -> None:
    model, _ = _collected(target_kl=1e-12)  # the losses do not read target_kl
    flat = {k: v.flatten(0, 1) for k, v in model.rollout.items()}
    flat["logp"] = flat["logp"] + 0.1 * torch.randn_like(flat["logp"])  # ratios away from 1
    clip = 0.2
    terms = model.losses(flat, clip)
    values, log_prob, entropy = model.policy.evaluate_actions(
        flat["obs"], flat["action"], action_masks=flat["mask"].numpy()
    )
    adv = flat["advantage"]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    ratio = torch.exp(log_prob - flat["logp"])
    pg = -torch.min(adv * ratio, adv * torch.clamp(ratio, 1 - clip, 1 + clip)).mean()
    torch.testing.assert_close(terms["pg"], pg, atol=1e-5, rtol=1e-4)
    torch.testing.assert_close(terms["vf"], torch.nn.functional.mse_loss(flat["return"], values.flatten()))
    torch.testing.assert_close(terms["ent"], -entropy.mean(), atol=1e-5, rtol=1e-4)
    assert 0.0 < float(terms["clip"]) < 1.0
    from sb3_contrib import MaskablePPO

    model.save(tmp_path / "m.zip")  # checkpoints leave the rollout out and load as MaskablePPO
    assert (tmp_path / "m.zip").stat().st_size < 2_000_000  # the rollout tensors would be ~1 MB per step
    loaded = MaskablePPO.load(tmp_path / "m.zip", device="cpu")
    for a, b in zip(loaded.policy.parameters(), model.policy.parameters(), strict=True):
        assert torch.equal(a, b)
    model.rollout["logp"] += 0.5  # every ratio far from 1: the first minibatch's KL is past target_kl
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.train()  # stops the update before a step
    assert all(torch.equal(a, b) for a, b in zip(model.policy.parameters(), before, strict=True))


def test_update_moves_the_network_alike_with_features_extracted_once_or_per_minibatch(monkeypatch) -> None:
    import copy

    import training.lean_ppo as lean

    model, _ = _collected(n_epochs=2, batch_size=64)
    start = copy.deepcopy(model.policy.state_dict()), copy.deepcopy(model.policy.optimizer.state_dict())
    networks = []
    for once in (True, False):
        monkeypatch.setattr(lean, "_fixed_features", lambda policy, once=once: once)
        model.policy.load_state_dict(start[0])
        model.policy.optimizer.load_state_dict(start[1])
        model.minibatch_generator.manual_seed(5)  # the same minibatches
        model.train()
        networks.append([p.detach().clone() for p in model.policy.parameters()])
    assert any(not torch.equal(a, b) for a, b in zip(networks[0], start[0].values(), strict=False))
    for once, per_minibatch in zip(*networks, strict=True):
        torch.testing.assert_close(once, per_minibatch)
    assert all(torch.isfinite(p).all() for p in networks[0])  # masked logits never give NaN gradients
    assert model.logger.name_to_value["train/clip_range"] == pytest.approx(0.2)
    # a second rollout samples from the updated network (it would fail on NaN probabilities)
    _collect(model, 4)


@pytest.mark.parametrize("rules", [Rules(), Rules(num_players=3), Rules(variant="pl", num_players=4)])
def test_numpy_export_plays_like_the_torch_actor(rules: Rules, tmp_path) -> None:
    model, config = _collected(num_players=rules.num_players, variant=rules.variant, net_arch=[24, 16])
    torch_agent = PPOAgent.from_sb3(model.policy, "x")
    exported = torch_agent.to_numpy()
    obs, mask = model.rollout["obs"].flatten(0, 1).numpy(), model.rollout["mask"].flatten(0, 1).numpy()
    expected = torch_agent.logits(obs, mask).numpy()
    got = exported.logits(obs, mask)
    np.testing.assert_array_equal(np.isfinite(got), mask)
    np.testing.assert_allclose(got[mask], expected[mask], atol=1e-4, rtol=1e-4)
    np.testing.assert_array_equal(exported.act(obs, mask), torch_agent.act(obs, mask))
    path = exported.save(tmp_path / "policy.npz")
    loaded = NumpyPolicy.load(path)
    assert loaded.trained_rules == config.rules() and loaded.name == "ppo:policy"
    np.testing.assert_array_equal(loaded.logits(obs, mask), got)
    sampler = NumpyPolicy.load(path, deterministic=False, seed=5)
    picks = sampler.act(obs, mask)
    assert mask[np.arange(len(picks)), picks].all()
    np.testing.assert_array_equal(NumpyPolicy.load(path, deterministic=False, seed=5).act(obs, mask), picks)
    with pytest.raises(ValueError, match="trained on"):
        loaded.setup(Rules(variant=rules.variant, num_players=3 if rules.num_players != 3 else 2))


def test_numpy_policy_refuses_bad_files_and_shapes(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="no policy file"):
        NumpyPolicy.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(ValueError, match="not a policy file"):
        NumpyPolicy.load(tmp_path / "other.npz")
    rules = Rules()
    with pytest.raises(ValueError, match="first layer takes 10 inputs"):
        NumpyPolicy([np.zeros((10, 200))], [np.zeros(200)], rules)


def test_overlap_updates_a_learner_copy_while_the_acting_network_collects(tmp_path) -> None:
    model, _ = _collected(overlap=True, n_epochs=2, batch_size=64)
    acting_before = [p.detach().clone() for p in model.policy.parameters()]
    collected = model.rollout
    model.train()  # starts the update in a thread and returns
    assert model._pending is not None and model.rollout is not collected  # the next rollout's tensors
    _collect(model, 8)
    assert model._pending is None  # taken in at the end of the collection
    learner = list(model._learner.parameters())
    acting = list(model.policy.parameters())
    assert all(torch.equal(a, b) for a, b in zip(acting, learner, strict=True))
    assert any(not torch.equal(a, b) for a, b in zip(acting, acting_before, strict=True))
    assert all(torch.isfinite(p).all() for p in acting)
    model.train()
    model.save(tmp_path / "m.zip")  # joins the running update first
    assert model._pending is None
    updates = model._n_updates
    model.learn(total_timesteps=3 * 32 * 8, reset_num_timesteps=False)  # ends with the last update taken in
    assert model._pending is None and model._n_updates >= updates + 3
    for a, b in zip(model.policy.parameters(), model._learner.parameters(), strict=True):
        assert torch.equal(a, b)


def test_overlap_update_errors_reach_the_main_thread() -> None:
    model, _ = _collected(overlap=True)
    model.rollout["obs"] = model.rollout["obs"][:, :, :10]  # a malformed rollout: the network refuses it
    model.train()
    with pytest.raises(RuntimeError):
        model._join()
