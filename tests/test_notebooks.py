"""The committed tutorial notebooks hold current outputs.

The notebooks are committed executed (text, tables and plots readable on the
web) by ``scripts/execute_notebooks.py``, which records a hash of the code
cells' sources in each notebook's metadata. These tests fail when a notebook
was edited without being executed again, or when its stored outputs are
incomplete or hold an error. That the notebooks still run is checked by the
test command's ``pytest --nbmake notebooks`` (``scripts/test.sh``).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
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


def test_there_are_notebooks() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01_quickstart.ipynb",
        "02_train_ppo.ipynb",
        "03_tournament.ipynb",
        "04_classic_and_turkish.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_notebook_is_current(path: Path) -> None:
    """Executed by the script after its last edit, every code cell in order, no error, plots stored."""
    problems = script.problems(_read(path), path.name)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_notebook_has_no_volatile_noise(path: Path) -> None:
    """No widget state, widget views or cell timestamps (they change on every run)."""
    nb = _read(path)
    assert "widgets" not in nb["metadata"]
    for i, cell in enumerate(script.code_cells(nb), 1):
        assert "execution" not in cell["metadata"], f"{path.name}: cell {i} holds execution timestamps"
        for out in cell["outputs"]:
            for mime in script.VOLATILE_MIME:
                assert mime not in out.get("data", {}), f"{path.name}: cell {i} holds a widget"


def test_every_notebook_plots() -> None:
    """The tutorials show a figure each (the check below is only as good as this detection)."""
    for path in NOTEBOOKS:
        sources = "".join(script._source(c) for c in script.code_cells(_read(path)))
        assert any(word in sources for word in script.PLOTTING), path.name


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


def test_check_accepts_an_executed_notebook(executed: dict) -> None:
    assert script.problems(executed, "x.ipynb") == []


def test_check_catches_an_edited_cell(executed: dict) -> None:
    executed["cells"][1]["source"] = "import matplotlib.pyplot as plt\nprint(1 + 2)"
    (problem,) = script.problems(executed, "x.ipynb")
    assert "edited after the notebook was executed" in problem
    assert "python scripts/execute_notebooks.py notebooks/x.ipynb" in problem


def test_markdown_edits_do_not_count(executed: dict) -> None:
    executed["cells"][0]["source"] = "# another title"
    assert script.problems(executed, "x.ipynb") == []


def test_check_catches_a_notebook_never_executed_by_the_script(executed: dict) -> None:
    del executed["metadata"]["kanaszta"]
    (problem,) = script.problems(executed, "x.ipynb")
    assert "never executed by the script" in problem


def test_check_catches_reordered_cells(executed: dict) -> None:
    swapped = copy.deepcopy(executed)
    swapped["cells"][1:] = swapped["cells"][:0:-1]
    problems = script.problems(swapped, "x.ipynb")
    assert any("edited after" in p for p in problems)
    assert any("not all executed once in order (counts [2, 1])" in p for p in problems)


@pytest.mark.parametrize("counts", [[None, None], [1, None], [1, 3], [2, 3]])
def test_check_catches_cells_not_executed_in_order(executed: dict, counts: list) -> None:
    for cell, count in zip(executed["cells"][1:], counts, strict=True):
        cell["execution_count"] = count
    (problem,) = script.problems(executed, "x.ipynb")
    assert "not all executed once in order" in problem


def test_check_catches_an_error_output(executed: dict) -> None:
    executed["cells"][2]["outputs"].append(
        {"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": []}
    )
    (problem,) = script.problems(executed, "x.ipynb")
    assert "code cell 2 raised ValueError: bad" in problem


def test_check_catches_a_missing_plot(executed: dict) -> None:
    executed["cells"][2]["outputs"] = []
    (problem,) = script.problems(executed, "x.ipynb")
    assert "draws a figure but holds no image output" in problem


def test_notebook_without_plots_needs_no_image(executed: dict) -> None:
    for cell in executed["cells"][1:]:
        cell["source"] = "print(1 + 1)"
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "2\n"}]
    executed["metadata"]["kanaszta"]["source_sha256"] = script.source_hash(executed)
    assert script.problems(executed, "x.ipynb") == []


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
