"""The lean PPO loops compute what sb3-contrib's MaskablePPO computes, and the
NumPy export of a trained actor plays like the torch module."""

from __future__ import annotations

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
from stable_baselines3.common.callbacks import BaseCallback

from agents.numpy_policy import NumpyPolicy
from kanaszta_env import Rules
from kanaszta_env.observation import observation_size
from training.config import TrainConfig, parse_weights
from training.lean_ppo import MASKED, LeanMaskablePPO, legal_probs, sample
from training.opponents import OpponentPool
from training.policy import PPOAgent
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
    callback = _Quiet()
    model._setup_learn(total_timesteps=10**6, callback=None)
    callback.init_callback(model)
    assert model.collect_rollouts(model.env, callback, model.rollout_buffer, n_rollout_steps=steps)
    return model, config


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


def test_sample_draws_by_probability_and_never_an_illegal_action() -> None:
    probs = torch.zeros(3, 200)
    probs[0, [3, 50, 199]] = torch.tensor([0.2, 0.3, 0.5])
    probs[1, 0] = 1.0  # only the first action
    probs[2, 199] = 1.0  # only the last action
    torch.manual_seed(0)
    draws = torch.stack([sample(probs.repeat(1000, 1)) for _ in range(10)]).reshape(-1, 3)
    assert set(draws[:, 0].tolist()) == {3, 50, 199}
    assert (draws[:, 1] == 0).all() and (draws[:, 2] == 199).all()
    shares = torch.tensor([(draws[:, 0] == a).float().mean() for a in (3, 50, 199)])
    assert torch.allclose(shares, torch.tensor([0.2, 0.3, 0.5]), atol=0.02)  # 10,000 draws: sd 0.005
    torch.manual_seed(1)
    first = sample(probs)
    torch.manual_seed(1)
    assert torch.equal(first, sample(probs))  # reproducible from torch's seed


def test_loss_terms_are_maskableppos() -> None:
    model, _ = _collected()
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


def test_update_moves_the_network_and_keeps_it_finite() -> None:
    model, _ = _collected(n_epochs=2, batch_size=64)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.train()
    after = list(model.policy.parameters())
    assert all(torch.isfinite(p).all() for p in after)  # masked logits never give NaN gradients
    assert any(not torch.equal(a, b) for a, b in zip(after, before, strict=True))
    assert model.logger.name_to_value["train/clip_range"] == pytest.approx(0.2)
    # a second rollout samples from the updated network (it would fail on NaN probabilities)
    callback = _Quiet()
    callback.init_callback(model)
    assert model.collect_rollouts(model.env, callback, model.rollout_buffer, n_rollout_steps=4)


def test_features_extracted_once_per_update_give_the_same_network(monkeypatch) -> None:
    import copy

    import training.lean_ppo as lean

    model, _ = _collected(n_epochs=2, batch_size=64)
    start = copy.deepcopy(model.policy.state_dict()), copy.deepcopy(model.policy.optimizer.state_dict())
    networks = []
    for once in (True, False):
        monkeypatch.setattr(lean, "_fixed_features", lambda policy, once=once: once)
        model.policy.load_state_dict(start[0])
        model.policy.optimizer.load_state_dict(start[1])
        torch.manual_seed(5)  # the same minibatches
        model.train()
        networks.append([p.detach().clone() for p in model.policy.parameters()])
    assert any(not torch.equal(a, b) for a, b in zip(networks[0], start[0].values(), strict=False))
    for once, per_minibatch in zip(*networks, strict=True):
        torch.testing.assert_close(once, per_minibatch)


def test_target_kl_stops_the_update_before_a_step() -> None:
    model, _ = _collected(target_kl=1e-12)
    model.rollout["logp"] += 0.5  # every ratio far from 1: the first minibatch's KL is past the bound
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.train()
    assert all(torch.equal(a, b) for a, b in zip(model.policy.parameters(), before, strict=True))


def test_checkpoints_leave_the_rollout_out_and_load_as_maskableppo(tmp_path) -> None:
    from sb3_contrib import MaskablePPO

    model, _ = _collected()
    model.save(tmp_path / "m.zip")
    assert (tmp_path / "m.zip").stat().st_size < 2_000_000  # the rollout tensors would be ~1 MB per step
    loaded = MaskablePPO.load(tmp_path / "m.zip", device="cpu")
    for a, b in zip(loaded.policy.parameters(), model.policy.parameters(), strict=True):
        assert torch.equal(a, b)


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


def test_numpy_policy_samples_the_softmax_of_the_legal_logits() -> None:
    from agents.numpy_policy import softmax_sample

    logits = np.full((2, 200), -np.inf, dtype=np.float32)
    logits[0, [4, 90, 199]] = np.log([0.2, 0.3, 0.5]) + 7.0  # a shift changes nothing
    logits[1, 0] = -3.0  # the only legal action
    uniforms = np.random.default_rng(0).random(20_000)
    picks = np.empty(20_000, dtype=np.int64)
    softmax_sample(np.repeat(logits[:1], 20_000, axis=0), uniforms, picks)
    assert set(np.unique(picks)) == {4, 90, 199}
    shares = [np.mean(picks == a) for a in (4, 90, 199)]
    np.testing.assert_allclose(shares, [0.2, 0.3, 0.5], atol=0.015)  # sd at most 0.0036
    one = np.empty(3, dtype=np.int64)
    softmax_sample(np.repeat(logits[1:], 3, axis=0), np.array([0.0, 0.5, 0.999999]), one)
    assert (one == 0).all()


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
    callback = _Quiet()
    callback.init_callback(model)
    assert model.collect_rollouts(model.env, callback, model.rollout_buffer, n_rollout_steps=8)
    assert model._pending is None  # taken in at the end of the collection
    learner = list(model._learner.parameters())
    acting = list(model.policy.parameters())
    assert all(torch.equal(a, b) for a, b in zip(acting, learner, strict=True))
    assert any(not torch.equal(a, b) for a, b in zip(acting, acting_before, strict=True))
    assert all(torch.isfinite(p).all() for p in acting)
    model.train()
    model.save(tmp_path / "m.zip")  # joins the running update first
    assert model._pending is None


def test_overlap_learn_ends_with_the_last_update_taken_in() -> None:
    model, _ = _collected(overlap=True, n_epochs=1, batch_size=128)
    model.learn(total_timesteps=3 * 32 * 8, reset_num_timesteps=False)
    assert model._pending is None and model._n_updates >= 3
    for a, b in zip(model.policy.parameters(), model._learner.parameters(), strict=True):
        assert torch.equal(a, b)


def test_overlap_update_errors_reach_the_main_thread() -> None:
    model, _ = _collected(overlap=True)
    model.rollout["obs"] = model.rollout["obs"][:, :, :10]  # a malformed rollout: the network refuses it
    model.train()
    with pytest.raises(RuntimeError):
        model._join()
