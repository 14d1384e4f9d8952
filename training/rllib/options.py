"""Options of the RLlib backend (``kanaszta train --backend rllib``) beside the TrainConfig.

The run itself is described by the same :class:`~training.config.TrainConfig`
as the local trainer (same TOML file, same flags); these few options say where
and how wide it runs. In a TOML file they sit in an ``[rllib]`` table::

    total_timesteps = 2_000_000
    [rllib]
    num_env_runners = 2

How the TrainConfig fields map onto RLlib (and which this backend does not support): the
table of ``docs/rllib.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomllib

from kanaszta_env.cli import bounded_int, field_docs

from ..config import layered


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
    docs = field_docs(RLlibOptions)
    for f in dataclasses.fields(RLlibOptions):
        flag = "--" + f.name.replace("_", "-")
        kind = str if isinstance(f.default, str) else bounded_int(0)
        group.add_argument(
            flag, dest=f.name, type=kind, default=None, help=f"{docs[f.name]} (default: {f.default!r})"
        )


def parse_options(args: argparse.Namespace) -> RLlibOptions:
    """Defaults, then the ``[rllib]`` table of ``--config``, then the flags given."""
    return layered(RLlibOptions, args, load_toml).validate()


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
