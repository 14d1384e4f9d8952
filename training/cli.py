"""Command line of the training layer: ``kanaszta train``, ``kanaszta eval`` and ``kanaszta export``.

``kanaszta_env.cli`` calls :func:`add_parser` with its subparsers; the same
commands run standalone as ``python -m training.cli train …``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from kanaszta_env.cli import UsageError, bounded_int, new_parser, non_negative_int, positive_int, run_cli
from kanaszta_env.games import preset_names

from .config import add_arguments, parse_config
from .rllib.options import add_arguments as add_rllib_arguments


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``train`` and ``eval`` subcommands."""
    train = subparsers.add_parser(
        "train",
        help="train a MaskablePPO agent by self-play",
        description="Train a MaskablePPO agent by self-play against a pool of bots and snapshots "
        "(--backend rllib: PPO on Ray RLlib, on this machine or a cluster; see docs/rllib.md).",
    )
    add_arguments(train)
    add_rllib_arguments(train)
    train.set_defaults(func=run)
    ev = subparsers.add_parser(
        "eval",
        help="tournament of trained agents (checkpoints) and bots",
        description="Round robin of the checkpoints and the bots on duplicate deals: score differences, "
        "win rates (95% intervals) and Elo ratings.",
    )
    ev.add_argument(
        "checkpoints",
        nargs="+",
        help="MaskablePPO checkpoints (.zip) written by `kanaszta train`, policies exported by "
        "`kanaszta export` (.npz), or rllib:FOLDER (a checkpoint of `kanaszta train --backend rllib`)",
    )
    ev.add_argument(
        "--bots", default="random,greedy,heuristic", help="comma-separated bot names (default: %(default)s)"
    )
    ev.add_argument(
        "--hands",
        type=bounded_int(1, even=True),
        default=2000,
        help="hands per pairing, a positive even number: duplicate deals, each played once per seating "
        "(two with two sides: HANDS/2 deals; 2 x sides with more, e.g. three players each for "
        "himself) (default: %(default)s)",
    )
    ev.add_argument(
        "--seed", type=non_negative_int, default=20_000_000, help="first deal (default: %(default)s)"
    )
    ev.add_argument(
        "--batch", type=positive_int, default=1000, help="deals played together (default: %(default)s)"
    )
    ev.add_argument(
        "--variant", choices=preset_names(), default="2003-02", help="rules preset (default: %(default)s)"
    )
    ev.add_argument(
        "--num-players", type=non_negative_int, default=0, help="players (default 0: the preset's default)"
    )
    ev.add_argument("--out", default=None, help="write PREFIX.json, PREFIX.csv and PREFIX.png (Elo plot)")
    ev.add_argument(
        "--stochastic", action="store_true", help="sample the agents' actions instead of the argmax"
    )
    ev.set_defaults(func=run)
    ex = subparsers.add_parser(
        "export",
        help="export a checkpoint's policy to NumPy arrays (.npz)",
        description="Write the actor of a checkpoint (either backend) as NumPy arrays: an agent that loads "
        "without PyTorch (make_agent('FILE.npz'), kanaszta play --opponent FILE.npz); "
        "--out agents/data/ppo-PRESET-Np.npz ships it as the ppo agent of that table (e.g. ppo-tr-4p.npz).",
    )
    ex.add_argument(
        "checkpoint",
        help="a MaskablePPO checkpoint (.zip) written by `kanaszta train`, or an RLlib checkpoint "
        "folder written by `kanaszta train --backend rllib` (e.g. runs/x/final)",
    )
    ex.add_argument("--out", default=None, help="the .npz file to write (default: the checkpoint's name)")
    ex.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the ``train`` or ``eval`` command of parsed ``args``."""
    if args.command == "train" and getattr(args, "backend", "local") == "rllib":
        return run_rllib(args)
    if args.command == "export":
        return run_export(args)
    if args.command == "train":
        config = parse_config(args)  # validated before the heavy imports and before anything is written
        from .train import summary, train

        print(summary(train(config)))
        return 0
    from .evaluate import run_eval

    return run_eval(args)


def run_export(args: argparse.Namespace) -> int:
    """``kanaszta export CHECKPOINT [--out FILE]``: the checkpoint's actor as a NumPy policy."""
    from agents.checkpoint import load_policy
    from agents.hinted import HintedPolicy

    source = Path(args.checkpoint)
    rllib = source.is_dir()
    if not rllib and (source.suffix != ".zip" or not source.is_file()):
        raise UsageError(f"no MaskablePPO checkpoint (.zip) or RLlib checkpoint folder: {args.checkpoint!r}")
    out = Path(args.out) if args.out else source.with_suffix(".npz")
    if out.suffix != ".npz":
        raise UsageError(f"--out must name a .npz file, got {args.out!r}")
    if rllib:  # the learner's module of an RLlib run, as the NumPy actor it plays with
        from ray.rllib.core.rl_module.rl_module import RLModule

        from agents.rllib_checkpoint import module_dir

        agent = RLModule.from_checkpoint(module_dir(source)).to_agent(out.stem)
        policy = agent.policy if isinstance(agent, HintedPolicy) else agent
    else:
        agent = load_policy(source)
        policy = agent.policy if isinstance(agent, HintedPolicy) else agent.to_numpy(name=out.stem)  # type: ignore[attr-defined]
    policy.save(out)
    rules = policy.trained_rules
    shapes = " -> ".join(str(w.shape[1]) for w in policy.weights)
    print(
        f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB): {rules.spec.title} ({rules.variant}), "
        f"{rules.num_players} players, {policy.weights[0].shape[0]} inputs -> {shapes}"
        + (f", hints from {policy.hint}" if policy.hint else "")
    )
    return 0


def run_rllib(args: argparse.Namespace) -> int:
    """``kanaszta train --backend rllib``: the same config, trained on Ray RLlib."""
    from .rllib.options import parse_options

    resume, args.resume = args.resume, None  # an RLlib checkpoint is a folder, not a .zip
    config = parse_config(args)
    options = parse_options(args)
    if resume is None and config.resume:
        resume, config.resume = config.resume, ""
    if resume:
        if not (Path(resume) / "algorithm_state.pkl").is_file():
            raise UsageError(f"--resume: no RLlib checkpoint folder at {resume!r}")
        config.resume = resume
    try:
        from .rllib.train import train_rllib
    except ImportError as error:
        raise UsageError(f"--backend rllib needs ray[rllib]: pip install -e '.[ray]' ({error})") from None
    from .train import summary

    print(summary(train_rllib(config, options), best="best"))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.cli {train,eval} …``."""

    def parser() -> argparse.ArgumentParser:
        parser = new_parser("python -m training.cli")
        add_parser(parser.add_subparsers(dest="command", required=True))
        return parser

    return run_cli(parser, argv, run)


if __name__ == "__main__":
    sys.exit(main())
