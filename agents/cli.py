"""Command-line entry points ``tournament`` and ``play``.

:func:`add_parser` adds both subcommands to an ``argparse`` subparsers object
(the ``kanaszta`` command hooks them in); :func:`run` executes parsed
arguments. ``python -m agents.cli tournament …`` works on its own::

    python -m agents.cli tournament random greedy heuristic search --deals 2000 --out results/bots
    python -m agents.cli play --opponent heuristic
    python -m agents.cli play --resume saved.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from kanaszta_env import Rules

COMMANDS = ("tournament", "play")


def _rules_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="2003-02", help="rules preset: 2003-02 (heart aces) or 2003-01")
    p.add_argument(
        "--opening-minimum", type=int, default=50, help="opening minimum: 50, 75, 90 or 120 (R12.2)"
    )
    p.add_argument("--max-turns", type=int, default=200, help="turns after which a hand is cut short (R19.2)")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``tournament`` and ``play`` subcommands."""
    t = subparsers.add_parser(
        "tournament",
        help="round robin of agents on duplicate deals",
        description="Every pair of agents plays --deals deals twice with the seats swapped; prints and "
        "writes the mean hand-score difference and win rate with 95%% intervals and Elo ratings.",
    )
    t.add_argument(
        "agents", nargs="+", help="random, greedy, heuristic, search[:k=v,...] or a .zip checkpoint"
    )
    t.add_argument("--deals", type=int, default=200, help="duplicate deals per pair (two hands each)")
    t.add_argument("--seed", type=int, default=0, help="deal d uses seed SEED + d")
    t.add_argument("--episode", choices=("hand", "game"), default="hand", help="score hands or whole games")
    t.add_argument(
        "--chain",
        action="store_true",
        help="only neighbours in the given order play (a-b, b-c, ...): a ladder instead of all pairs",
    )
    t.add_argument("--batch", type=int, default=256, help="deals played at once")
    t.add_argument("--out", default=None, help="write OUT.json, OUT.csv and OUT.png")
    t.add_argument("--records", default=None, help="save every game as a record (JSON lines)")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    t.add_argument("--bootstrap", type=int, default=200, help="bootstrap samples for the Elo intervals")
    _rules_options(t)
    t.set_defaults(command="tournament")
    p = subparsers.add_parser(
        "play",
        help="play a hand in the terminal against bots",
        description="Play one hand against bots: moves by number or name; 'help' lists the commands.",
    )
    p.add_argument("--opponent", action="append", default=None,
                   help="opponent agent (repeat for 3-4 players); default heuristic")  # fmt: skip
    p.add_argument("--seat", type=int, default=0, help="your seat (0 = starter of the hand)")
    p.add_argument("--seed", type=int, default=None, help="seed of the deal")
    p.add_argument("--resume", default=None, help="continue from a position saved with 'save FILE'")
    p.add_argument("--record", default=None, help="save the game record (JSON) here at the end")
    _rules_options(p)
    p.set_defaults(command="play")


def _rules(args: argparse.Namespace, players: int, episode: str = "hand") -> Rules:
    return Rules(
        variant=args.variant,
        num_players=players,
        opening_minimum=args.opening_minimum,
        max_turns=args.max_turns,
        episode=episode,
    )


def run(args: argparse.Namespace) -> int:
    """Execute a parsed ``tournament`` or ``play`` command; returns an exit code."""
    if args.command == "tournament":
        return _tournament(args)
    if args.command == "play":
        return _play(args)
    raise ValueError(f"unknown command {args.command!r}")


def _tournament(args: argparse.Namespace) -> int:
    from .records import save_jsonl
    from .registry import make_agent
    from .tournament import format_table, round_robin, write_outputs

    rules = _rules(args, 2, args.episode)
    if len(set(args.agents)) != len(args.agents):
        raise SystemExit("each agent may appear once")
    agents = {spec: make_agent(spec, rules, seed=args.seed) for spec in args.agents}
    records = [] if args.records else None
    pairs = list(zip(args.agents[:-1], args.agents[1:], strict=True)) if args.chain else None
    result = round_robin(rules, agents, args.deals, seed=args.seed, batch=args.batch, pairs=pairs,
                         progress=not args.no_progress, records=records, boot=args.bootstrap)  # fmt: skip
    print(format_table(result))
    if args.out:
        for path in write_outputs(result, args.out):
            print(f"wrote {path}")
    if records is not None:
        save_jsonl(records, args.records)
        print(f"wrote {len(records)} game records to {args.records}")
    return 0


def _play(args: argparse.Namespace) -> int:
    from .human import play_human
    from .registry import make_agent

    start = None
    if args.resume:
        start = json.loads(Path(args.resume).read_text())
        players = int(start.get("num_players", 2))
        rules = None
    else:
        specs = args.opponent or ["heuristic"]
        players = len(specs) + 1
        rules = _rules(args, players)
    specs = args.opponent or ["heuristic"] * (players - 1)
    if len(specs) != players - 1:
        raise SystemExit(f"a {players}-player game needs {players - 1} --opponent options")
    agent_rules = rules or _position_rules(start)
    opponents = [make_agent(spec, agent_rules, seed=q) for q, spec in enumerate(specs)]
    game = play_human(opponents, rules, seat=args.seat, seed=args.seed, start=start)
    if args.record:
        game.record.save(args.record)
        print(f"game record saved to {args.record}")
    return 0


def _position_rules(doc: dict | None) -> Rules:
    from kanaszta_env import position

    return position.load(doc).rules  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m agents.cli {tournament,play} …``"""
    parser = argparse.ArgumentParser(prog="python -m agents.cli", description="kanaszta bots and human play")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
