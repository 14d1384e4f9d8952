"""The ``kanaszta`` command line: bad input gives one line on stderr and exit status 2
(no traceback), ``--debug`` shows the traceback, Ctrl-C exits with 130.

Every case fails in validation, before any game is played or any model trained.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

import agents.cli
from kanaszta_env.cli import UsageError, main, non_negative_int, positive_int

HAS_TRAINING = importlib.util.find_spec("sb3_contrib") is not None


def fails(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> str:
    """Run ``kanaszta argv``: it must exit with 2 and one stderr line naming ``words``."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    command = next(arg for arg in argv if not arg.startswith("-"))
    assert lines[0].startswith(f"kanaszta {command}: error: "), lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def tournament(*argv: str) -> list[str]:
    """``kanaszta tournament random greedy argv --no-progress``."""
    return ["tournament", "random", "greedy", *argv, "--no-progress"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (
            ["play", "--opponent", "nosuchbot"],
            ["unknown agent", "'nosuchbot'", "random", "greedy", "heuristic"],
        ),
        (["play", "--seat", "5"], ["--seat 5", "2-player", "0-1"]),
        (["play", "--opponent", "greedy", "--opponent", "greedy", "--seat", "3"], ["--seat 3", "0-2"]),
        (
            ["play", "--variant", "pl", "--players", "4", *["--opponent", "random"] * 2],
            ["one --opponent for all or 3"],
        ),
        (["play", "--seat", "-1"], ["--seat", "non-negative integer"]),
        (["play", "--opening-minimum", "60"], ["--opening-minimum", "60", "50, 75, 90, 120"]),
        (["play", "--variant", "1999"], ["--variant", "2003-02"]),
        (["play", "--max-turns", "0"], ["--max-turns", "positive integer"]),
        (["play", "--seed", "-3"], ["--seed", "non-negative integer"]),
        (["play", "--opponent", "search:samples=x"], ["samples", "integer", "'x'"]),
        (["play", "--opponent", "heuristic:min_left=lots"], ["min_left", "number", "'lots'"]),
        (["play", "--record", "no/such/folder/game.json"], ["--record", "does not exist"]),
        (["play", "--no-such-flag"], ["unrecognized arguments", "--no-such-flag"]),
        (["watch", "random"], ["one agent per seat", "got 1"]),
        (["watch", "random", "greedy", "--speed", "-1"], ["--speed", "non-negative number"]),
        (["watch", "random", "greedy", "--speed", "fast"], ["--speed", "'fast'"]),
        (["watch", "random", "nosuchbot"], ["unknown agent", "'nosuchbot'"]),
        (["watch", "random", "greedy", "--record", "no/such/dir/g.json"], ["--record", "does not exist"]),
        (tournament("--deals", "0"), ["--deals", "positive integer", "'0'"]),
        (tournament("--deals", "many"), ["--deals", "positive integer", "'many'"]),
        (tournament("--batch", "0"), ["--batch", "positive integer"]),
        (tournament("--bootstrap", "-1"), ["--bootstrap", "non-negative integer"]),
        (tournament("--seed", "-1"), ["--seed", "non-negative integer"]),
        (tournament("--opening-minimum", "60"), ["--opening-minimum", "50, 75, 90, 120"]),
        (tournament("search:samples=x"), ["option samples", "'search:samples=x'", "integer", "'x'"]),
        (tournament("search:depth=3"), ["unknown search option", "depth"]),
        (tournament("nosuchbot"), ["unknown agent", "'nosuchbot'", "random, greedy, heuristic, search"]),
        (tournament("missing.zip"), ["no checkpoint", "missing.zip"]),
        (tournament("random"), ["each agent may appear once", "random"]),
        (tournament("--records", "no/such/folder/games.jsonl"), ["--records", "does not exist"]),
        (tournament("--out", "no/such/folder/bots"), ["--out", "does not exist"]),
        (["tournament", "random"], ["at least two agents"]),
        (["eval", "some.zip", "--hands", "0"], ["--hands", "positive even integer", "'0'"]),
        (["eval", "some.zip", "--hands", "3"], ["--hands", "positive even integer", "'3'"]),
        (["eval", "some.zip", "--batch", "0"], ["--batch", "positive integer"]),
        (["train", "--opponents", "foo:1", "--run-dir", "run"], ["opponents", "'foo'", "self"]),
        (["train", "--opponents", "self:1", "--run-dir", "run"], ["only 'self'"]),
        (["train", "--eval-bots", "random,nobot", "--run-dir", "run"], ["eval_bots", "'nobot'"]),
        (["train", "--warm-start", "search:samples=x", "--run-dir", "run"], ["warm_start", "integer"]),
        (["train", "--resume", "none.zip", "--run-dir", "run"], ["resume"]),
        (["train", "--num-envs", "0", "--run-dir", "run"], ["--num-envs", "positive integer"]),
        (["train", "--eval-hands", "5", "--run-dir", "run"], ["--eval-hands", "positive even integer"]),
        (
            ["serve", "--runs-dir", "/no/such/folder", "--port", "0"],
            ["--runs-dir /no/such/folder: no such folder"],
        ),
        (["serve", "--port", "70000"], ["at most 65535"]),
    ],
)
def test_bad_arguments_are_refused_before_anything_is_written(
    capsys, tmp_path: Path, monkeypatch, argv: list[str], words: list[str]
) -> None:
    """Run in an empty folder: the refusal leaves it empty (no run, record or game written)."""
    monkeypatch.chdir(tmp_path)
    fails(capsys, argv, *words)
    assert not any(tmp_path.iterdir())


GOOD_RECORD = json.dumps({"format": "kanaszta-record/1", "rules": {}, "actions": [], "seed": 1})


@pytest.mark.parametrize(
    ("command", "content", "words"),
    [  # content None: no such file; "/": a folder
        (["play", "--resume"], None, ["game.json", "No such file"]),
        (["play", "--resume"], "{not json", ["game.json", "not valid JSON"]),
        (["play", "--resume"], "[1, 2]", ["--resume", "invalid position"]),
        (["position"], None, ["game.json", "No such file"]),
        (["position"], "this is not JSON\n", ["game.json", "not valid JSON", "line 1"]),
        (["position"], json.dumps({"variant": "2003-02"}), ["invalid position", "game.json", "missing"]),
        (["position"], "/", ["directory"]),
        (["replay", "--speed", "0"], None, ["No such file"]),
        (["replay", "--speed", "0"], "not json at all\nstill not\n", ["neither JSON nor JSON lines"]),
        (["replay", "--speed", "0"], "[1, 2]", ["not a game record"]),
        (["replay", "--speed", "0"], json.dumps({"format": "something/1"}), ["not a game record of format"]),
        (
            ["replay", "--speed", "0"],
            GOOD_RECORD.replace("[]", '["keep", "fly"]'),
            ["unknown action name 'fly'"],
        ),
        (["replay", "--game", "3"], GOOD_RECORD, ["--game 3"]),
        (["train", "--config"], None, ["game.json", "No such file"]),
    ],
)
def test_a_bad_file_is_refused_naming_the_problem(
    capsys, tmp_path: Path, command: list[str], content: str | None, words: list[str]
) -> None:
    path = tmp_path / "game.json"
    if content == "/":
        path.mkdir()
    elif content is not None:
        path.write_text(content)
    fails(capsys, [*command, str(path)], *words)


def test_every_help_text_renders(capsys) -> None:
    """Every help text goes through argparse's %-formatting without error."""
    for command in ("train", "eval", "play", "watch", "replay", "position", "tournament"):
        with pytest.raises(SystemExit) as stop:
            main([command, "--help"])
        out = capsys.readouterr().out
        assert stop.value.code == 0 and f"kanaszta {command}" in out and "%%" not in out
    assert "95%" in out  # the tournament's confidence interval


@pytest.mark.skipif(not HAS_TRAINING, reason="needs the training layer (sb3-contrib)")
def test_eval_checks_bots_and_checkpoints_before_loading(capsys, tmp_path: Path) -> None:
    fails(capsys, ["eval", str(tmp_path / "a.zip"), "--bots", "random,foo"], "unknown bot", "'foo'")
    fails(capsys, ["eval", str(tmp_path / "a.zip")], "no checkpoint", "a.zip")
    fails(capsys, ["eval", "--bots", "random"], "required: checkpoints")


@pytest.mark.skipif(not HAS_TRAINING, reason="needs the training layer (sb3-contrib)")
def test_duplicate_match_needs_whole_deals_of_hands() -> None:
    """Two hands a deal with two players; six with three (each agent alone on every seat)."""
    from agents.random_bot import RandomBot
    from kanaszta_env import Rules
    from training.evaluate import duplicate_match

    for hands in (0, 1, 3):
        with pytest.raises(ValueError, match="positive multiple of 2"):
            duplicate_match(RandomBot(), RandomBot(), Rules(), hands, seed=0)
    with pytest.raises(ValueError, match="positive multiple of 6"):
        duplicate_match(RandomBot(), RandomBot(), Rules(num_players=3), 4, seed=0)


@pytest.mark.skipif(not HAS_TRAINING, reason="needs the training layer (sb3-contrib)")
def test_training_evaluations_play_whole_deals() -> None:
    """A training run's evaluations round their hands up to whole duplicate deals: the
    defaults (200, 2,000) serve a three-sided table too (six seatings a deal)."""
    from agents.random_bot import RandomBot
    from kanaszta_env import Rules
    from training.evaluate import evaluate_against_bots

    (row,) = evaluate_against_bots(
        RandomBot(), ["random"], Rules(num_players=3, max_turns=4), hands=4, seed=0
    )
    assert row["hands"] == 6


@pytest.mark.parametrize(
    ("toml", "words"),
    [
        ('num_envs = "many"', ["num_envs", "an integer", "'many'"]),
        ("[train]\nmax_minutes = true", ["max_minutes", "a number", "True"]),
        ("progress_bar = 1", ["progress_bar", "true or false", "1"]),
        ("opponents = 3", ["opponents", "a string", "3"]),
        ('net_arch = [64, "x"]', ["net_arch", "list of integers"]),
        ("eval_hands = 7", ["eval_hands", "positive even integer", "7"]),
        ("num_env = 3", ["unknown training option", "num_env"]),
        ("seed = ", ["not valid TOML"]),
    ],
)
def test_train_config_file_values_are_checked(capsys, tmp_path: Path, toml: str, words: list[str]) -> None:
    path = tmp_path / "run.toml"
    path.write_text(toml + "\n")
    line = fails(capsys, ["train", "--config", str(path), "--run-dir", str(tmp_path / "run")], *words)
    assert "run.toml" in line or "eval_hands" in line
    assert not (tmp_path / "run").exists()


def test_no_command_is_a_usage_error(capsys) -> None:
    main([])
    assert capsys.readouterr().err.startswith("kanaszta: error: the following arguments are required")


def test_debug_shows_the_traceback(capsys) -> None:
    with pytest.raises(UsageError, match="--seat 5"):
        main(["--debug", "play", "--seat", "5"])
    with pytest.raises(ValueError, match="samples"):
        main(["--debug", "tournament", "random", "search:samples=x"])
    with pytest.raises(UsageError, match="--deals"):
        main(["--debug", "tournament", "random", "greedy", "--deals", "0"])


def test_ctrl_c_exits_quietly_with_130(capsys, monkeypatch) -> None:
    def interrupted(_args) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(agents.cli, "_tournament", interrupted)
    assert main(["tournament", "random", "greedy"]) == 130
    out, err = capsys.readouterr()
    assert err.strip() == "kanaszta tournament: interrupted" and "Traceback" not in out + err
    with pytest.raises(KeyboardInterrupt):
        main(["--debug", "tournament", "random", "greedy"])


def test_programming_errors_are_not_swallowed(monkeypatch) -> None:
    def buggy(_args) -> int:
        raise TypeError("a bug")

    monkeypatch.setattr(agents.cli, "_tournament", buggy)
    with pytest.raises(TypeError, match="a bug"):
        main(["tournament", "random", "greedy"])


def test_standalone_entry_points_share_the_error_handling(capsys) -> None:
    assert agents.cli.main(["tournament", "random", "greedy", "--deals", "0"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("python -m agents.cli tournament: error: argument --deals") and "Traceback" not in err
    )


@pytest.mark.skipif(not HAS_TRAINING, reason="needs the training layer (sb3-contrib)")
def test_python_dash_m_reports_errors_raised_in_other_modules(tmp_path: Path) -> None:
    """`python -m kanaszta_env.cli` runs the module twice (as __main__ and as imported by the
    commands): an error raised by a command must still be a usage error, not a traceback."""
    argv = [sys.executable, "-m", "kanaszta_env.cli", "eval", str(tmp_path / "a.zip")]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "no checkpoint" in done.stderr and "Traceback" not in done.stderr


def test_int_flag_types() -> None:
    assert positive_int("3") == 3 and non_negative_int("0") == 0
    for bad in ("0", "-2", "x", "1.5"):
        with pytest.raises(Exception, match="positive integer"):
            positive_int(bad)
