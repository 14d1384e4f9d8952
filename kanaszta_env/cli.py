"""The ``kanaszta`` command: one entry point for the main jobs.

    kanaszta train …        train a MaskablePPO agent by self-play (training/)
    kanaszta eval CKPT …    tournament of trained agents and bots (training/)
    kanaszta tournament …   round robin of bots and checkpoints (agents/)
    kanaszta play …         play a hand in the terminal against a bot (agents/)
    kanaszta watch A B …    watch bots play a hand, a turn per line (agents/)
    kanaszta replay RECORD  play back a recorded game (agents/)
    kanaszta serve          play, watch and replay in the browser (webapp/)
    kanaszta position FILE  check a position document and draw it

Subcommands of the upper layers are imported only when used, so the core
package never depends on them.

Errors: bad input (a bad flag value, a missing or malformed file, an invalid
agent or rule) ends the command with one line ``kanaszta CMD: error: …`` on
stderr and exit status 2; Ctrl-C ends it with status 130. ``kanaszta --debug
CMD …`` shows the traceback instead. :func:`run_cli` does this for the
standalone ``python -m agents.cli`` and ``python -m training.cli`` too, and the
``type=`` helpers below (:func:`positive_int` …) check numeric flags.

The first command run with an empty numba cache compiles the kernels; a line
``compiling the rules kernels (first run only)…`` on stderr says so
(:mod:`kanaszta_env._numba_cache`).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import inspect
import itertools
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

#: subcommand -> module providing ``add_parser(subparsers)`` and ``run(args)``
_PROVIDERS = {
    "train": "training.cli",
    "eval": "training.cli",
    "export": "training.cli",
    "tournament": "agents.cli",
    "play": "agents.cli",
    "watch": "agents.cli",
    "replay": "agents.cli",
    "serve": "webapp.cli",
}

#: exit status of a command ended by bad input (as argparse) and by Ctrl-C (128 + SIGINT)
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Bad input to a command: reported as one line, without a traceback.

    ``prog`` is the command the message belongs to (``"kanaszta play"``) when
    it is known where the error is raised (argparse errors); otherwise
    :func:`run_cli` names the command being run.
    """

    def __init__(self, message: str, prog: str | None = None) -> None:
        super().__init__(message)
        self.prog = prog


#: exceptions that mean bad input (files, values, agents, rules) rather than a bug;
#: ``json.JSONDecodeError`` and ``tomllib.TOMLDecodeError`` are ``ValueError``s
USER_ERRORS: tuple[type[BaseException], ...] = (UsageError, ValueError, OSError)


class ArgumentParser(argparse.ArgumentParser):
    """``argparse`` whose errors raise :class:`UsageError` (one line, no usage dump).

    Subparsers made by :meth:`add_subparsers` are of the same class.
    """

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message}; see {self.prog} --help", prog=self.prog)


# --- argparse ``type=`` helpers ------------------------------------------------------------
def int_requirement(minimum: int, even: bool = False) -> str:
    """What :func:`bounded_int` asks for, in words: ``"a positive even integer"``."""
    kind = "even integer" if even else "integer"
    if minimum in (0, 1):
        return f"a {('non-negative', 'positive')[minimum]} {kind}"
    return f"an {kind} of at least {minimum}"


def check_int(value: Any, minimum: int, even: bool = False) -> bool:
    """Whether ``value`` is an integer (not a bool) ``>= minimum`` (and even if asked)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return value >= minimum and not (even and value % 2)


def bounded_int(minimum: int, even: bool = False) -> Callable[[str], int]:
    """An argparse ``type=``: an integer ``>= minimum`` (even if ``even``); a bad value
    gives ``argument --flag: must be a positive integer, got '0'``."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not check_int(value, minimum, even):
            raise argparse.ArgumentTypeError(f"must be {int_requirement(minimum, even)}, got {text!r}")
        return value

    return convert


def non_negative_float(text: str) -> float:
    """argparse ``type=``: a finite number >= 0 (delays in seconds)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a non-negative number, got {text!r}")
    return value


positive_int = bounded_int(1)
"""argparse ``type=``: an integer >= 1 (counts: deals, hands, batch sizes …)."""
non_negative_int = bounded_int(0)
"""argparse ``type=``: an integer >= 0 (seeds, counts where 0 means none)."""


def read_json(path: str) -> Any:
    """The JSON document in the file ``path``; a malformed file raises :class:`UsageError`
    naming it (a missing one ``FileNotFoundError``)."""
    with open(path, encoding="utf-8") as handle:
        try:
            return json.load(handle)
        except json.JSONDecodeError as error:
            raise UsageError(f"{path} is not valid JSON: {error}") from None
        except UnicodeDecodeError as error:
            raise UsageError(f"{path} is not a UTF-8 text file: {error.reason}") from None


# --- the command ---------------------------------------------------------------------------
def _position_command(args: argparse.Namespace) -> int:
    from . import position
    from .envs.render import render_table

    doc = read_json(args.file)
    try:
        games = position.load(doc)
    except ValueError as error:
        raise UsageError(f"invalid position in {args.file}: {error}") from None
    print(render_table(games.state, games.rules, 0))
    print("legal actions:", ", ".join(games.legal_names()))
    return 0


def new_parser(prog: str, description: str | None = None) -> ArgumentParser:
    """A top-level parser with the global ``--debug`` flag (the ``kanaszta`` command and the
    standalone ``python -m agents.cli`` / ``training.cli``)."""
    parser = ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "--debug", action="store_true", help="show the Python traceback of an error instead of one line"
    )
    return parser


def build_parser() -> ArgumentParser:
    parser = new_parser("kanaszta", __doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
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
    pos = sub.add_parser("position", help="check a position document (JSON) and draw it")
    pos.add_argument("file", help="path of a position JSON file (docs/position.md)")
    pos.set_defaults(func=_position_command)
    return parser


def _unavailable(error: Exception) -> NoReturn:
    raise UsageError(f"this command needs an optional part that failed to import: {error}")


def _dispatch(args: argparse.Namespace) -> int:
    func = getattr(args, "func", None)
    if func is None:  # providers may dispatch on ``args.command`` in their ``run``
        func = importlib.import_module(_PROVIDERS[args.command]).run
    return int(func(args) or 0)


def _debug_requested(argv: Sequence[str]) -> bool:
    """Whether ``--debug`` comes before the subcommand (known even if parsing fails)."""
    for token in argv:
        if token == "--debug":
            return True
        if token == "--" or not token.startswith("-"):
            return False
    return False


def describe(error: BaseException) -> str:
    """The one-line message of a user error."""
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.filename}: {error.strerror or error}"
    text = " ".join(str(error).split())  # one line even if the message has several
    return text or type(error).__name__


def run_cli(
    make_parser: Callable[[], argparse.ArgumentParser],
    argv: Sequence[str] | None,
    dispatch: Callable[[argparse.Namespace], int],
) -> int:
    """Parse ``argv`` and run the chosen subcommand: the one place where errors become messages.

    A :data:`USER_ERRORS` exception prints ``PROG CMD: error: MESSAGE`` to stderr and returns
    2; Ctrl-C prints ``PROG CMD: interrupted`` and returns 130. With ``--debug`` both are
    re-raised (traceback). Other exceptions are bugs and propagate.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = _debug_requested(argv)
    prog = "kanaszta"
    try:
        parser = make_parser()
        prog = parser.prog
        args, extra = parser.parse_known_args(argv)
        if getattr(args, "command", None):
            prog = f"{parser.prog} {args.command}"
        if extra:  # named here, where the subcommand is known
            raise UsageError(f"unrecognized arguments: {' '.join(extra)}; see {prog} --help")
        return int(dispatch(args) or 0)
    except KeyboardInterrupt:
        if debug:
            raise
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except USER_ERRORS as error:
        if debug:
            raise
        where = getattr(error, "prog", None) or prog
        print(f"{where}: error: {describe(error)}", file=sys.stderr)
        return EXIT_USAGE


def field_docs(cls: type) -> dict[str, str]:
    """The docstring under each field of the dataclass ``cls`` (for ``--help`` texts)."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls!r} is not a dataclass")
    tree = ast.parse(inspect.getsource(cls))
    docs: dict[str, str] = {}
    body = tree.body[0].body  # type: ignore[attr-defined]
    for node, after in itertools.pairwise(body):
        named = isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
        if named and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            docs[node.target.id] = str(after.value.value)  # type: ignore[union-attr]
    return docs


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``kanaszta`` command line."""
    return run_cli(build_parser, argv, _dispatch)


if __name__ == "__main__":
    # `python -m kanaszta_env.cli` runs this file as __main__; the commands raise the errors of
    # the imported module kanaszta_env.cli, so its main must catch them
    from kanaszta_env.cli import main as imported_main

    raise SystemExit(imported_main())
