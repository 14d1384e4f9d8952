"""Command-line entry points ``tournament``, ``play``, ``watch`` and ``replay``.

:func:`add_parser` adds the subcommands to an ``argparse`` subparsers object
(the ``kanaszta`` command hooks them in); :func:`run` executes parsed
arguments. ``python -m agents.cli tournament …`` works on its own::

    python -m agents.cli tournament random greedy heuristic search --deals 2000 --out results/bots
    python -m agents.cli play --opponent heuristic --record game.json
    python -m agents.cli play --resume saved.json
    python -m agents.cli watch random heuristic --speed 0.5 --seed 3
    python -m agents.cli replay game.json
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from kanaszta_env import Rules
from kanaszta_env.cli import (
    UsageError,
    new_parser,
    non_negative_float,
    non_negative_int,
    positive_int,
    read_json,
    run_cli,
)
from kanaszta_env.games import all_games, game_of_preset, preset_names

AGENTS_HELP = "random, greedy, heuristic, search[:k=v,...] or a .zip checkpoint"
SEED_HELP = "seed of the deal (default: random)"
RECORD_HELP = "save the game record (JSON) here at the end"
TABLE_HELP = "show the table after every turn"


def _rules_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--variant",
        choices=preset_names(),
        default="2003-02",
        help="rules preset: " + "; ".join(f"{g.title} {' or '.join(g.presets)}" for g in all_games()),
    )
    p.add_argument(
        "--opening-minimum",
        type=int,
        default=None,
        help="opening minimum (default: the preset's; Díszített 50, 75, 90 or 120, R12.2)",
    )
    p.add_argument(
        "--max-turns", type=positive_int, default=200, help="turns after which a hand is cut short (R19.2)"
    )


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``tournament``, ``play``, ``watch`` and ``replay`` subcommands."""
    t = subparsers.add_parser(
        "tournament",
        help="round robin of agents on duplicate deals",
        description="Every pair of agents plays --deals deals twice with the seats swapped; prints and "
        "writes the mean hand-score difference and win rate with 95% intervals and Elo ratings.",
    )
    t.add_argument("agents", nargs="+", help=AGENTS_HELP)
    t.add_argument(
        "--deals", type=positive_int, default=200, help="duplicate deals per pair (two hands each)"
    )
    t.add_argument("--seed", type=non_negative_int, default=0, help="deal d uses seed SEED + d")
    t.add_argument("--episode", choices=("hand", "game"), default="hand", help="score hands or whole games")
    t.add_argument(
        "--chain",
        action="store_true",
        help="only neighbours in the given order play (a-b, b-c, ...): a ladder instead of all pairs",
    )
    t.add_argument(
        "--players",
        type=positive_int,
        default=None,
        help="players per table: Díszített 2 (the default), 3 or 4; classic 2, 3 or 4 (default, two "
        "partnerships), sk also 5 or 6; Turkish 4. With more than two sides each agent sits alone "
        "on every side in turn",
    )
    t.add_argument("--batch", type=positive_int, default=256, help="deals played at once")
    t.add_argument("--out", default=None, help="write OUT.json, OUT.csv and OUT.png")
    t.add_argument("--records", default=None, help="save every game as a record (JSON lines)")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    t.add_argument(
        "--bootstrap",
        type=non_negative_int,
        default=200,
        help="bootstrap samples for the Elo intervals (0: none)",
    )
    _rules_options(t)
    t.set_defaults(command="tournament", func=run)
    p = subparsers.add_parser(
        "play",
        help="play a hand in the terminal against bots",
        description="Play one hand against bots: moves by number or name; 'help' lists the commands.",
    )
    p.add_argument(
        "--opponent",
        action="append",
        default=None,
        help="the agents of the other seats, your partners included: one for all, or one per seat "
        "(repeated; without --players, the players are one more than the agents given); default heuristic",
    )
    p.add_argument(
        "--players",
        type=positive_int,
        default=None,
        help="players at the table (default: the preset's, 4 in the partnership games: you and a bot "
        "partner against two bots)",
    )
    p.add_argument(
        "--seat",
        type=non_negative_int,
        default=0,
        help="your seat, 0 to players - 1 (0 = starter of the hand)",
    )
    p.add_argument("--seed", type=non_negative_int, default=None, help=SEED_HELP)
    p.add_argument("--resume", default=None, help="continue from a position saved with 'save FILE'")
    p.add_argument("--record", default=None, help=RECORD_HELP)
    _rules_options(p)
    p.set_defaults(command="play", func=run)
    _add_watch_parsers(subparsers)


def _add_watch_parsers(subparsers: argparse._SubParsersAction) -> None:
    w = subparsers.add_parser(
        "watch",
        help="watch bots play a hand in the terminal",
        description="Agents (one per seat, 2-4) play a hand; every turn is told in a line.",
    )
    w.add_argument("agents", nargs="+", help=AGENTS_HELP)
    w.add_argument("--speed", type=non_negative_float, default=0.5,
                   help="seconds to wait after each turn (0: no wait)")  # fmt: skip
    w.add_argument("--seed", type=non_negative_int, default=None, help=SEED_HELP)
    w.add_argument("--table", action="store_true", help=TABLE_HELP)
    w.add_argument("--record", default=None, help=RECORD_HELP)
    _rules_options(w)
    w.set_defaults(command="watch", func=run)
    r = subparsers.add_parser(
        "replay",
        help="play back a recorded game",
        description="Play back a game record (kanaszta play/watch --record, or a line of tournament "
        "--records): a turn at each Enter ('a' runs to the end, 'q' stops), or at --speed.",
    )
    r.add_argument("record", help="a record file: JSON, or JSON lines (then see --game)")
    r.add_argument("--game", type=non_negative_int, default=0, help="which game of a JSON-lines file")
    r.add_argument("--speed", type=non_negative_float, default=None,
                   help="seconds between turns instead of waiting for Enter")  # fmt: skip
    r.add_argument("--table", action="store_true", help=TABLE_HELP)
    r.set_defaults(command="replay", func=run)


def _rules(args: argparse.Namespace, players: int, episode: str = "hand") -> Rules:
    try:
        return Rules(
            variant=args.variant,
            num_players=players,
            opening_minimum=args.opening_minimum,
            max_turns=args.max_turns,
            episode=episode,
        )
    except ValueError as error:
        if "opening_minimum" in str(error):
            raise UsageError(f"--opening-minimum {args.opening_minimum}: {error}") from None
        raise UsageError(str(error)) from None


def _table_players(preset: str) -> int:
    """Players at a table of ``preset`` when --players is not given (partnership games: four)."""
    spec = game_of_preset(preset).presets[preset]
    return spec.get("table_players", spec["default_players"])


def run(args: argparse.Namespace) -> int:
    """Execute a parsed ``tournament``, ``play``, ``watch`` or ``replay`` command; returns an exit code."""
    commands = {"tournament": _tournament, "play": _play, "watch": _watch, "replay": _replay}
    if args.command not in commands:
        raise UsageError(f"unknown command {args.command!r}: use one of {tuple(commands)}")
    return commands[args.command](args)


def _check_output(path: str | None, flag: str) -> None:
    """Fail before the games if the folder of an output file does not exist."""
    if path and not Path(path).resolve().parent.is_dir():
        raise UsageError(f"{flag} {path}: the folder {Path(path).parent} does not exist")


def _tournament(args: argparse.Namespace) -> int:
    from .records import save_jsonl
    from .registry import make_agent
    from .tournament import format_table, round_robin, write_outputs

    repeated = sorted({spec for spec in args.agents if args.agents.count(spec) > 1})
    if repeated:
        raise UsageError(f"each agent may appear once; repeated: {', '.join(repeated)}")
    _check_output(args.records, "--records")
    _check_output(args.out, "--out")  # like every output of the CLI: no folder made silently
    players = args.players or _table_players(args.variant)
    rules = _rules(args, players, args.episode)
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
    """``kanaszta play``: the human in one seat, bots in the others (his partners too)."""
    from kanaszta_env import position

    from .human import play_human
    from .registry import make_agent

    specs = args.opponent or ["heuristic"]
    start = None
    if args.resume:
        start = read_json(args.resume)
        try:
            rules = position.load(start).rules
        except ValueError as error:
            raise UsageError(f"--resume {args.resume}: invalid position: {error}") from None
        players = rules.num_players
    else:
        many = len(specs) > 1
        players = args.players or (len(specs) + 1 if many else _table_players(args.variant))
        rules = _rules(args, players)
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise UsageError(
            f"{players} players need one --opponent for all or {players - 1} of them, got {len(specs)}"
        )
    if args.seat >= players:
        raise UsageError(
            f"--seat {args.seat} is out of range: a {players}-player game has seats 0-{players - 1}"
        )
    _check_output(args.record, "--record")
    opponents = [make_agent(spec, rules, seed=q) for q, spec in enumerate(specs)]
    game = play_human(
        opponents, None if start is not None else rules, seat=args.seat, seed=args.seed, start=start
    )
    if args.record:
        game.record.save(args.record)
        print(f"game record saved to {args.record}")
    return 0


def _watch(args: argparse.Namespace) -> int:
    import numpy as np

    from .registry import make_agent
    from .watch import Show, watch

    counts = game_of_preset(args.variant).player_counts(args.variant)
    if len(args.agents) not in counts:
        raise UsageError(f"watch needs one agent per seat, {counts} of them for {args.variant}; "
                         f"got {len(args.agents)}")  # fmt: skip
    _check_output(args.record, "--record")
    rules = _rules(args, len(args.agents))
    agents = [make_agent(spec, rules, seed=q) for q, spec in enumerate(args.agents)]
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % (2**31))
    record = watch(agents, rules, seed, Show(sys.stdout, speed=args.speed, table=args.table))
    if args.record:
        record.save(args.record)
        print(f"game record saved to {args.record}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from .records import GameRecord
    from .watch import Show, replay_record

    doc = _read_record(args.record, args.game)
    try:
        record = GameRecord.from_dict(doc)
    except (TypeError, ValueError) as error:
        raise UsageError(f"{args.record} is not a valid game record: {error}") from None
    replay_record(record, Show(sys.stdout, speed=args.speed, table=args.table or args.speed is None))
    return 0


def _read_record(path: str, game: int) -> dict:
    """Game ``game`` of a record file: one JSON document, or JSON lines."""
    from .records import parse_records

    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    try:
        docs = parse_records(text)
    except ValueError as error:
        raise UsageError(f"{path} {error}") from None
    if game >= len(docs):
        raise UsageError(f"--game {game}: {path} holds {len(docs)} game(s), numbered from 0")
    return docs[game]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m agents.cli {tournament,play,watch,replay} …``"""

    def parser() -> argparse.ArgumentParser:
        parser = new_parser("python -m agents.cli", "kanaszta bots and human play")
        add_parser(parser.add_subparsers(dest="command", required=True))
        return parser

    return run_cli(parser, argv, run)


if __name__ == "__main__":
    raise SystemExit(main())
