"""The RLlib backend on a two-node Ray cluster started on this machine (``ray.cluster_utils.Cluster``).

A head node and one worker node of one CPU each; ``train_rllib`` (what ``kanaszta train
--backend rllib --address ...`` runs) joins it with two env runners of one CPU each, so
Ray has to place one runner on each node. The run must finish, write its checkpoint and
progress, and its ``env_runners.json`` must name both nodes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path

import pytest
from test_rllib import TINY

from training.config import TrainConfig
from training.rllib.options import RLlibOptions

if find_spec("ray") is None:  # scripts/test.sh installs the ray extra: in CI this test never skips
    if os.environ.get("CI"):
        raise ImportError("the RLlib cluster test needs ray[rllib]: pip install -e '.[ray]'")
    pytest.skip("ray[rllib] is not installed (pip install -e '.[ray]')", allow_module_level=True)

NODE = dict(num_cpus=1, object_store_memory=80 * 2**20)  # Ray's floor is 75 MiB


@pytest.fixture
def cluster() -> Iterator:
    """A head and a worker node on this machine; shut down (with the driver's connection) afterwards."""
    import ray
    from ray.cluster_utils import Cluster

    nodes = Cluster(initialize_head=True, head_node_args=dict(NODE, include_dashboard=False))
    try:
        nodes.add_node(**NODE)
        nodes.wait_for_nodes()
        yield nodes
    finally:
        ray.shutdown()
        nodes.shutdown()


def test_two_iterations_with_an_env_runner_on_each_node(cluster, tmp_path: Path) -> None:
    import ray

    from training.rllib.train import train_rllib

    run = tmp_path / "run"
    runners = 2
    per_iteration = 8 * 16 * runners
    config = TrainConfig(
        run_dir=str(run),
        total_timesteps=2 * per_iteration,
        **{**TINY, "snapshot_every": per_iteration},
        max_turns=40,
    )
    result = train_rllib(config, RLlibOptions(address=cluster.address, num_env_runners=runners))

    assert result.timesteps == 2 * per_iteration
    rows = [json.loads(line) for line in (run / "progress.jsonl").read_text().splitlines()]
    assert [row["decisions"] for row in rows] == [per_iteration, per_iteration]
    assert (run / "final" / "kanaszta_state.json").exists() and (run / "latest").is_dir()
    placed = json.loads((run / "env_runners.json").read_text())
    alive = {node["NodeID"] for node in ray.nodes() if node["Alive"]}
    assert len(alive) == 2 and len(placed) == runners
    assert {runner["node_id"] for runner in placed} == alive
