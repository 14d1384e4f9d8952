"""The trained policy shipped with the package (``make_agent("ppo")``) and
``kanaszta export``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.base import play_batch
from agents.hinted import HintedPolicy
from agents.numpy_policy import NumpyPolicy
from agents.random_bot import RandomBot
from agents.registry import SHIPPED_POLICY, make_agent, shipped_tables
from kanaszta_env import Rules

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_policy_is_small_and_plays_legal_moves() -> None:
    assert SHIPPED_POLICY.is_file() and SHIPPED_POLICY.stat().st_size < 4_000_000  # a few MB at most
    agent = make_agent("ppo", Rules())
    assert isinstance(agent, HintedPolicy) and agent.name == "ppo" and agent.deterministic
    assert agent.policy.hint == "heuristic"  # the shipped network reads HeuristicBot's choice
    seats = np.array([[0, 1], [1, 0]] * 4)
    result = play_batch(Rules(max_turns=40), [agent, RandomBot(seed=1)], seats, np.arange(8))
    assert result.decisions[:, 0].sum() > 0 and result.scores.shape == (8, 2)  # the driver checks legality
    sampler = make_agent("ppo:sample=1", Rules(), seed=3)
    assert not sampler.deterministic


def test_the_shipped_policy_loads_without_pytorch() -> None:
    code = (
        "import sys; sys.modules['torch'] = None\n"  # any import of torch now fails
        "from agents.registry import make_agent\n"
        "import numpy as np\n"
        "from kanaszta_env import GameBatch, Rules\n"
        "g = GameBatch(Rules(), 4); g.reset(seed=np.arange(4))\n"
        "a = make_agent('ppo').act(g.observe(), g.legal_mask())\n"
        "assert g.legal_mask()[np.arange(4), a].all(); print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]


@pytest.mark.parametrize("table", shipped_tables())
def test_every_shipped_policy_is_small_and_plays_its_table(table: str) -> None:
    """make_agent("ppo", rules) finds the policy of the rules' table (agents/data), a few MB,
    which plays legal moves there (the driver checks them)."""
    variant, players = table.split()
    rules = Rules(variant=variant, num_players=int(players.removesuffix("p")), max_turns=30)
    agent = make_agent("ppo", rules)
    trained = agent.trained_rules
    assert (trained.variant, trained.num_players) == (rules.variant, rules.num_players)
    seats = np.array([[k % 2] * rules.num_players for k in range(4)])
    seats[:, 1::2] = 1 - seats[:, 1::2]
    result = play_batch(rules, [agent, RandomBot(seed=1)], seats, np.arange(4))
    assert result.decisions[:, 0].sum() > 0


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (Rules(variant="pl", num_players=3), r"no ppo agent is shipped for .*\(pl\) with 3 players \(shipped: 2003"),
        (Rules(variant="sk", num_players=3), r"no ppo agent is shipped for .*\(sk\) with 3 players"),
    ],
)
def test_the_shipped_policy_refuses_other_games(rules: Rules, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent("ppo", rules)


def test_ppo_options_are_checked() -> None:
    with pytest.raises(ValueError, match=r"unknown ppo option\(s\) \['depth'\]"):
        make_agent("ppo:depth=3")
    with pytest.raises(ValueError, match="must be an integer"):
        make_agent("ppo:sample=yes")


def test_export_writes_a_policy_that_tournaments_take(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from training.cli import main as train_cli

    run = tmp_path / "run"
    tiny = [
        "--num-envs", "4", "--opponent-slots", "1", "--n-steps", "8", "--batch-size", "32", "--n-epochs", "1",
        "--net-arch", "8", "--max-turns", "10", "--eval-max-turns", "10", "--opponents", "random",
        "--eval-every", "0", "--final-eval-hands", "0", "--no-progress-bar", "--no-tensorboard",
        "--warm-start", "", "--total-timesteps", "32",
    ]  # fmt: skip
    assert train_cli(["train", "--run-dir", str(run), *tiny]) == 0
    out = tmp_path / "mine.npz"
    assert train_cli(["export", str(run / "final.zip"), "--out", str(out)]) == 0
    agent = make_agent(str(out))
    assert isinstance(agent, NumpyPolicy) and agent.trained_rules == Rules(max_turns=10)
    assert agent.weights[0].shape[1] == 8 and agent.name == str(out)
    assert train_cli(["export", str(tmp_path / "missing.zip")]) == 2  # bad input: one line, status 2
    from agents.cli import main as agents_cli

    assert agents_cli(["tournament", "random", str(out), "--deals", "2", "--max-turns", "20"]) == 0


@pytest.mark.parametrize("table", ["2003-02 2p", "tr 4p"])
def test_ppo_search_keeps_the_policy_unless_a_candidate_beats_it(table: str) -> None:
    """``ppo+search`` puts the shipped policy's choice first: with an unreachable bar (a prior
    of a billion points) it plays exactly the policy's actions; with z = 0 it overrules the
    policy at some decisions, always legally."""
    from kanaszta_env import GameBatch

    variant, players = table.split()
    rules = Rules(variant=variant, num_players=int(players.removesuffix("p")))
    games = GameBatch(rules, 48)
    games.reset(seed=np.arange(48))
    rng = np.random.default_rng(0)
    for _ in range(rng.integers(20, 40)):  # random legal play to mid-hand states
        mask = games.legal_mask()
        games.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))
    obs, mask = games.observe(), games.legal_mask()
    policy = make_agent("ppo", rules).act(obs, mask)
    small = "samples=4,horizon=2,max_discards=3"
    strict = make_agent(f"ppo+search:{small},prior=1000000000", rules)
    assert strict.name.startswith("ppo+search") and (strict.act(obs, mask) == policy).all()
    loose = make_agent(f"ppo+search:{small},z=0", rules).act(obs, mask)
    assert mask[np.arange(len(obs)), loose].all() and (loose != policy).any()
