"""The ``kanaszta`` command: one entry point for the main jobs.

    kanaszta train …        train a MaskablePPO agent by self-play (training/)
    kanaszta eval CKPT …    tournament of trained agents and bots (training/)
    kanaszta tournament …   round robin of bots and checkpoints (agents/)
    kanaszta play …         play a hand in the terminal against a bot (agents/)
    kanaszta position FILE  check a position document and draw it

Subcommands of the upper layers are imported only when used, so the core
package never depends on them.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

#: subcommand -> module providing ``add_parser(subparsers)`` and ``run(args)``
_PROVIDERS = {
    "train": "training.cli",
    "eval": "training.cli",
    "tournament": "agents.cli",
    "play": "agents.cli",
}


def _position_command(args: argparse.Namespace) -> int:
    from . import position
    from .envs.render import render_table

    with open(args.file, encoding="utf-8") as handle:
        doc = json.load(handle)
    try:
        games = position.load(doc)
    except ValueError as error:
        print(f"invalid position: {error}", file=sys.stderr)
        return 2
    print(render_table(games.state, games.rules, 0))
    print("legal actions:", ", ".join(games.legal_names()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kanaszta", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    loaded = set()
    for module_name in dict.fromkeys(_PROVIDERS.values()):
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:  # an optional layer is not installed
            for command, provider in _PROVIDERS.items():
                if provider == module_name:
                    missing = sub.add_parser(command, help=f"(unavailable: {error})")
                    missing.set_defaults(func=lambda _args, e=error: _unavailable(e))
            continue
        module.add_parser(sub)
        loaded.add(module_name)
    pos = sub.add_parser("position", help="check a position document (JSON) and draw it")
    pos.add_argument("file", help="path of a position JSON file (docs/position.md)")
    pos.set_defaults(func=_position_command)
    return parser


def _unavailable(error: Exception) -> int:
    print(f"this command needs an optional part that failed to import: {error}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``kanaszta`` command line."""
    args = build_parser().parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:  # providers may dispatch on ``args.command`` in their ``run``
        func = importlib.import_module(_PROVIDERS[args.command]).run
    return int(func(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
