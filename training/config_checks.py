"""Checks of a training configuration that build bots
(:meth:`training.config.TrainConfig.validate` calls them before anything is written)."""

from __future__ import annotations

from kanaszta_env import Rules


def check_bot(name: str, spec: str, rules: Rules) -> None:
    """``spec`` (a field's bot) must build as a bot of :mod:`agents.registry`; else ``ValueError``."""
    from agents.registry import BOT_NAMES, make_agent

    clean = spec.strip().lower()
    if clean.partition(":")[0] not in BOT_NAMES:
        raise ValueError(f"{name}: unknown bot {spec!r}: choose one of {', '.join(BOT_NAMES)}")
    try:
        make_agent(clean, rules)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
