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


# --- play ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--opponent", "nosuchbot"], ["unknown agent", "'nosuchbot'", "random", "greedy", "heuristic"]),
        (["--seat", "5"], ["--seat 5", "2-player", "0-1"]),
        (["--opponent", "greedy", "--opponent", "greedy", "--seat", "3"], ["--seat 3", "0-2"]),
        (
            ["--variant", "pl", "--players", "4", *["--opponent", "random"] * 2],
            ["one --opponent for all or 3"],
        ),
        (["--seat", "-1"], ["--seat", "non-negative integer"]),
        (["--opening-minimum", "60"], ["--opening-minimum", "60", "50, 75, 90, 120"]),
        (["--variant", "1999"], ["--variant", "2003-02"]),
        (["--max-turns", "0"], ["--max-turns", "positive integer"]),
        (["--seed", "-3"], ["--seed", "non-negative integer"]),
        (["--opponent", "search:samples=x"], ["samples", "integer", "'x'"]),
        (["--opponent", "heuristic:min_left=lots"], ["min_left", "number", "'lots'"]),
        (["--record", "no/such/folder/game.json"], ["--record", "does not exist"]),
    ],
)
def test_play_rejects_bad_arguments(capsys, argv: list[str], words: list[str]) -> None:
    fails(capsys, ["play", *argv], *words)


def test_play_resume_needs_a_position_file(capsys, tmp_path: Path) -> None:
    fails(capsys, ["play", "--resume", str(tmp_path / "saved.json")], "saved.json", "No such file")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    fails(capsys, ["play", "--resume", str(broken)], "broken.json", "not valid JSON")
    wrong = tmp_path / "wrong.json"
    wrong.write_text("[1, 2]")
    fails(capsys, ["play", "--resume", str(wrong)], "--resume", "invalid position")


# --- position -----------------------------------------------------------------------------
def test_position_reports_missing_and_malformed_files(capsys, tmp_path: Path) -> None:
    fails(capsys, ["position", str(tmp_path / "nofile.json")], "nofile.json", "No such file")
    text = tmp_path / "text.json"
    text.write_text("this is not JSON\n")
    fails(capsys, ["position", str(text)], "text.json", "not valid JSON", "line 1")
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"variant": "2003-02"}))
    fails(capsys, ["position", str(odd)], "invalid position", "odd.json", "missing")
    fails(capsys, ["position", str(tmp_path)], "directory")


# --- tournament ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--deals", "0"], ["--deals", "positive integer", "'0'"]),
        (["--deals", "many"], ["--deals", "positive integer", "'many'"]),
        (["--batch", "0"], ["--batch", "positive integer"]),
        (["--bootstrap", "-1"], ["--bootstrap", "non-negative integer"]),
        (["--seed", "-1"], ["--seed", "non-negative integer"]),
        (["--opening-minimum", "60"], ["--opening-minimum", "50, 75, 90, 120"]),
        (["search:samples=x"], ["option samples", "'search:samples=x'", "integer", "'x'"]),
        (["search:depth=3"], ["unknown search option", "depth"]),
        (["nosuchbot"], ["unknown agent", "'nosuchbot'", "random, greedy, heuristic, search"]),
        (["missing.zip"], ["no checkpoint", "missing.zip"]),
        (["random"], ["each agent may appear once", "random"]),
        (["--records", "no/such/folder/games.jsonl"], ["--records", "does not exist"]),
        (["--out", "no/such/folder/bots"], ["--out", "does not exist"]),
    ],
)
def test_tournament_rejects_bad_arguments(capsys, argv: list[str], words: list[str]) -> None:
    fails(capsys, ["tournament", "random", "greedy", *argv, "--no-progress"], *words)


def test_tournament_needs_two_agents(capsys) -> None:
    fails(capsys, ["tournament", "random"], "at least two agents")


def test_tournament_help_shows_single_percent_signs(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["tournament", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "95%" in out and "95%%" not in out


def test_train_and_eval_help_render(capsys) -> None:
    """Every help text goes through argparse's %-formatting without error."""
    for command in ("train", "eval", "play", "watch", "replay", "position"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        assert f"kanaszta {command}" in out and "%%" not in out


# --- eval ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--hands", "0"], ["--hands", "positive even integer", "'0'"]),
        (["--hands", "3"], ["--hands", "positive even integer", "'3'"]),
        (["--batch", "0"], ["--batch", "positive integer"]),
    ],
)
def test_eval_rejects_bad_counts(capsys, argv: list[str], words: list[str]) -> None:
    fails(capsys, ["eval", "some.zip", *argv], *words)


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


# --- train --------------------------------------------------------------------------------
def test_train_validates_before_writing_anything(capsys, tmp_path: Path) -> None:
    run = tmp_path / "run"
    fails(capsys, ["train", "--opponents", "foo:1", "--run-dir", str(run)], "opponents", "'foo'", "self")
    assert not (run / "config.json").exists() and not run.exists()
    fails(capsys, ["train", "--opponents", "self:1", "--run-dir", str(run)], "only 'self'")
    fails(capsys, ["train", "--eval-bots", "random,nobot", "--run-dir", str(run)], "eval_bots", "'nobot'")
    fails(
        capsys, ["train", "--warm-start", "search:samples=x", "--run-dir", str(run)], "warm_start", "integer"
    )
    fails(capsys, ["train", "--resume", str(tmp_path / "none.zip"), "--run-dir", str(run)], "resume")
    fails(capsys, ["train", "--num-envs", "0"], "--num-envs", "positive integer")
    fails(capsys, ["train", "--eval-hands", "5"], "--eval-hands", "positive even integer")
    assert not run.exists()


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


def test_train_config_file_must_exist(capsys, tmp_path: Path) -> None:
    fails(capsys, ["train", "--config", str(tmp_path / "none.toml")], "none.toml", "No such file")


# --- the error machinery ------------------------------------------------------------------
def test_usage_errors_name_the_command(capsys) -> None:
    main([])
    assert capsys.readouterr().err.startswith("kanaszta: error: the following arguments are required")
    fails(capsys, ["play", "--no-such-flag"], "unrecognized arguments", "--no-such-flag")


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
