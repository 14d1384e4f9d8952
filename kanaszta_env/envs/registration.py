"""Registers the environments with PettingZoo's and Gymnasium's registries.

Importing this module (the package ``kanaszta_env`` does) makes
``pettingzoo.make("aec", "kanaszta_v0")`` and ``gymnasium.make("Kanaszta-v0")``
work; ``gymnasium.make("kanaszta_env:Kanaszta-v0")`` imports the package itself
first. PettingZoo's registry exists from 1.27 on; older versions are skipped.

The Gymnasium id is registered without the passive checker and order-enforcing
wrappers: the env enforces the order itself (a step before ``reset`` raises
``ResetNeeded``) and is checked by Gymnasium's full ``check_env`` in the tests,
and without wrappers ``gym.make("Kanaszta-v0").action_masks()`` works — the
method sb3-contrib's ``ActionMasker(env, lambda e: e.action_masks())`` and
``MaskablePPO`` read (Gymnasium ≥ 1.0 wrappers do not forward attributes).
"""

from __future__ import annotations

PETTINGZOO_ID = "kanaszta_v0"
GYMNASIUM_ID = "Kanaszta-v0"


def register_envs() -> None:
    """Register both ids once (repeated calls do nothing)."""
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover - pettingzoo is a dependency
        pettingzoo = None
    if pettingzoo is not None and hasattr(pettingzoo, "register") and hasattr(pettingzoo, "aec_registry"):
        from pettingzoo.env_registry.spec import EnvSpec

        spec_id = EnvSpec(id=PETTINGZOO_ID).id  # the registry's normalised form ("kanaszta-v0")
        if spec_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", PETTINGZOO_ID, entry_point="kanaszta_env.envs.aec:env")

    import gymnasium

    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(
            id=GYMNASIUM_ID,
            entry_point="kanaszta_env.envs.gym_env:KanasztaGymEnv",
            disable_env_checker=True,
            order_enforce=False,
        )


register_envs()
