"""The committed tutorial notebooks hold current outputs.

The notebooks are committed executed (text, tables and plots readable on the
web) by ``scripts/execute_notebooks.py``, which records a hash of the code
cells' sources in each notebook's metadata. These tests fail when a notebook
was edited without being executed again, or when its stored outputs are
incomplete or hold an error. That the notebooks still run is checked by the
test command's ``pytest --nbmake notebooks`` (``scripts/test.sh``).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_script():
    """Import ``scripts/execute_notebooks.py`` (scripts/ is not a package)."""
    name = "execute_notebooks"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "execute_notebooks.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


script = _load_script()
NOTEBOOKS = script.notebooks()


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_notebooks_and_each_plots() -> None:
    """The tutorials show a figure each (the check below is only as good as this detection)."""
    assert [p.name for p in NOTEBOOKS] == [
        "01_quickstart.ipynb",
        "02_train_ppo.ipynb",
        "03_tournament.ipynb",
        "04_classic_and_turkish.ipynb",
    ]
    for path in NOTEBOOKS:
        sources = "".join(script._source(c) for c in script.code_cells(_read(path)))
        assert any(word in sources for word in script.PLOTTING), path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_notebook_is_current_without_volatile_noise(path: Path) -> None:
    """Executed by the script after its last edit, every code cell in order, no error, plots
    stored; no widget state, widget views or cell timestamps (they change on every run)."""
    nb = _read(path)
    problems = script.problems(nb, path.name)
    assert not problems, "\n".join(problems)
    assert "widgets" not in nb["metadata"]
    for i, cell in enumerate(script.code_cells(nb), 1):
        assert "execution" not in cell["metadata"], f"{path.name}: cell {i} holds execution timestamps"
        for out in cell["outputs"]:
            for mime in script.VOLATILE_MIME:
                assert mime not in out.get("data", {}), f"{path.name}: cell {i} holds a widget"


# --- the check itself catches stale notebooks ------------------------------------------


@pytest.fixture
def executed() -> dict:
    """A small notebook as the script leaves it: two code cells executed, one plot."""
    nb = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# title"},
            {
                "cell_type": "code",
                "execution_count": 1,
                "metadata": {},
                "outputs": [{"output_type": "stream", "name": "stdout", "text": "2\n"}],
                "source": "import matplotlib.pyplot as plt\nprint(1 + 1)",
            },
            {
                "cell_type": "code",
                "execution_count": 2,
                "metadata": {},
                "outputs": [
                    {"output_type": "display_data", "metadata": {}, "data": {"image/png": "iVBORw0KGgo="}}
                ],
                "source": ["plt.plot([1, 2])\n", "plt.show()"],
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    nb["metadata"]["kanaszta"] = {"source_sha256": script.source_hash(nb), "executed_with": "0"}
    return nb


def test_check_accepts_a_current_notebook(executed: dict) -> None:
    """Executed; after a markdown edit (which does not count); without plots (no image needed)."""
    assert script.problems(executed, "x.ipynb") == []
    executed["cells"][0]["source"] = "# another title"
    assert script.problems(executed, "x.ipynb") == []
    for cell in executed["cells"][1:]:
        cell["source"] = "print(1 + 1)"
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "2\n"}]
    executed["metadata"]["kanaszta"]["source_sha256"] = script.source_hash(executed)
    assert script.problems(executed, "x.ipynb") == []


ERROR = {"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": []}


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (
            lambda nb: nb["cells"][1].update(source="import matplotlib.pyplot as plt\nprint(1 + 2)"),
            [
                "edited after the notebook was executed",
                "python scripts/execute_notebooks.py notebooks/x.ipynb",
            ],
        ),
        (lambda nb: nb["metadata"].pop("kanaszta"), ["never executed by the script"]),
        (lambda nb: nb["cells"][2]["outputs"].append(ERROR), ["code cell 2 raised ValueError: bad"]),
        (lambda nb: nb["cells"][2].update(outputs=[]), ["draws a figure but holds no image output"]),
    ],
)
def test_check_catches_a_stale_notebook(
    executed: dict, edit: Callable[[dict], None], words: list[str]
) -> None:
    edit(executed)
    (problem,) = script.problems(executed, "x.ipynb")
    assert all(word in problem for word in words), problem


@pytest.mark.parametrize("counts", [[None, None], [1, None], [1, 3], [2, 3]])
def test_check_catches_cells_not_executed_in_order(executed: dict, counts: list) -> None:
    for cell, count in zip(executed["cells"][1:], counts, strict=True):
        cell["execution_count"] = count
    (problem,) = script.problems(executed, "x.ipynb")
    assert "not all executed once in order" in problem


def test_check_catches_reordered_cells(executed: dict) -> None:
    executed["cells"][1:] = executed["cells"][:0:-1]
    problems = script.problems(executed, "x.ipynb")
    assert any("edited after" in p for p in problems)
    assert any("not all executed once in order (counts [2, 1])" in p for p in problems)


def test_check_command_reports_stale_notebooks(executed: dict, tmp_path: Path, capsys) -> None:
    good, stale = tmp_path / "good.ipynb", tmp_path / "stale.ipynb"
    good.write_text(json.dumps(executed), encoding="utf-8")
    executed["cells"][2]["execution_count"] = None
    stale.write_text(json.dumps(executed), encoding="utf-8")
    assert script.main(["--check", str(good)]) == 0
    assert "every notebook is current" in capsys.readouterr().out
    assert script.main(["--check", str(good), str(stale)]) == 1
    out = capsys.readouterr().out
    assert "stale.ipynb" in out and "good.ipynb" not in out
