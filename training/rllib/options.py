"""Options of the RLlib backend (``kanaszta train --backend rllib``) beside the TrainConfig.

The run itself is described by the same :class:`~training.config.TrainConfig`
as the local trainer (same TOML file, same flags); these few options say where
and how wide it runs. In a TOML file they sit in an ``[rllib]`` table::

    total_timesteps = 2_000_000
    [rllib]
    num_env_runners = 2

How the TrainConfig fields map onto RLlib: ``num_envs`` games per env runner
(one vectorised env each), ``n_steps`` the rollout fragment, so a training
batch is ``num_envs * n_steps * max(1, num_env_runners)`` learner decisions,
split over the learners; ``batch_size`` is the minibatch, ``n_epochs``,
``learning_rate``, ``gamma``, ``gae_lambda``, ``clip_range``, ``ent_coef``,
``vf_coef``, ``max_grad_norm`` the PPO settings of the same meaning; ``hint`` and
the imitation warm start (``warm_start*``) as the local trainer's
(:mod:`training.rllib.warm_start`). Not supported by this backend: ``anneal_lr``,
``target_kl`` and the TensorBoard logs (RLlib's own metrics go to ``progress.jsonl``).
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomllib

from kanaszta_env.cli import bounded_int


@dataclass
class RLlibOptions:
    """Where and how wide an RLlib run goes."""

    address: str = ""
    """Ray cluster to join ("auto": the one `ray start` set up on this machine; "": a local Ray instance)"""
    num_cpus: int = 2
    """CPUs of the local Ray instance (ignored with --address)"""
    num_env_runners: int = 1
    """EnvRunner actors collecting experience, each with one vectorised env of num_envs games"""
    num_learners: int = 0
    """Learner actors (0: one learner in the driver process; >1: data-parallel updates)"""
    num_cpus_per_env_runner: int = 1
    """CPUs Ray reserves for each env runner"""

    def validate(self) -> RLlibOptions:
        if self.num_env_runners < 0 or self.num_learners < 0:
            raise ValueError("num_env_runners and num_learners must be non-negative")
        if self.num_cpus < 1 or self.num_cpus_per_env_runner < 1:
            raise ValueError("num_cpus and num_cpus_per_env_runner must be positive")
        return self


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--backend`` switch and the RLlib flags (default: not given)."""
    parser.add_argument(
        "--backend",
        choices=("local", "rllib"),
        default="local",
        help="local: MaskablePPO in this process (default); rllib: Ray RLlib, on this machine or a "
        "cluster (--address; needs pip install -e '.[ray]'; see docs/rllib.md)",
    )
    group = parser.add_argument_group("RLlib backend (--backend rllib)")
    docs = _docs()
    for f in dataclasses.fields(RLlibOptions):
        flag = "--" + f.name.replace("_", "-")
        kind = str if isinstance(f.default, str) else bounded_int(0)
        group.add_argument(
            flag, dest=f.name, type=kind, default=None, help=f"{docs[f.name]} (default: {f.default!r})"
        )


def _docs() -> dict[str, str]:
    import ast
    import inspect
    import itertools

    tree = ast.parse(inspect.getsource(RLlibOptions))
    out = {}
    for node, after in itertools.pairwise(tree.body[0].body):  # type: ignore[attr-defined]
        if isinstance(node, ast.AnnAssign) and isinstance(after, ast.Expr):
            out[node.target.id] = str(after.value.value)  # type: ignore[union-attr,attr-defined]
    return out


def parse_options(args: argparse.Namespace) -> RLlibOptions:
    """Defaults, then the ``[rllib]`` table of ``--config``, then the flags given."""
    values: dict[str, Any] = {}
    if getattr(args, "config", None):
        values.update(load_toml(args.config))
    for f in dataclasses.fields(RLlibOptions):
        given = getattr(args, f.name, None)
        if given is not None:
            values[f.name] = given
    return RLlibOptions(**values).validate()


def load_toml(path: str | Path) -> dict[str, Any]:
    """The ``[rllib]`` table of a TOML file (empty if none)."""
    with open(path, "rb") as handle:
        table = tomllib.load(handle).get("rllib", {})
    known = {f.name: f for f in dataclasses.fields(RLlibOptions)}
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise ValueError(f"{path}: unknown [rllib] option(s) {unknown}")
    for name, value in table.items():
        if type(value) is not type(known[name].default):
            raise ValueError(f"{path}: [rllib] {name} must be a {type(known[name].default).__name__}")
    return dict(table)
