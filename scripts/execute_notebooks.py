"""Execute the tutorial notebooks in place and store their outputs.

The notebooks in ``notebooks/`` are committed with their outputs (text, tables
and PNG plots) so that they can be read on the web without running them. This
script runs every code cell of each notebook with nbclient (working directory
``notebooks/``), writes the outputs back into the file and records in the
notebook's metadata what was executed::

    metadata["kanaszta"] = {"source_sha256": <hash of the code cells' sources>,
                            "executed_with": <kanaszta-env version>}

``tests/test_notebooks.py`` checks with :func:`problems` that every committed
notebook is current: each code cell executed in order, no errors, a plot in
each notebook that draws one, and the recorded hash equal to the hash of the
code cells as they are now. After editing a notebook, run::

    python scripts/execute_notebooks.py                      # every notebook
    python scripts/execute_notebooks.py notebooks/02_train_ppo.ipynb
    python scripts/execute_notebooks.py --check              # report stale notebooks, run nothing

The kernel runs with one thread for numpy and PyTorch (``OMP_NUM_THREADS=1``
etc., unless already set): the notebooks' networks and batches are small.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
META_KEY = "kanaszta"
COMMAND = "python scripts/execute_notebooks.py"
CELL_TIMEOUT = 900  # seconds per cell
# output mime types that only a live Jupyter front end can show (progress-bar widgets)
VOLATILE_MIME = ("application/vnd.jupyter.widget-view+json", "application/vnd.jupyter.widget-state+json")
# code that makes a notebook draw a figure: such a notebook must hold at least one image output
PLOTTING = ("matplotlib", "IPython.display import Image")


def notebooks() -> list[Path]:
    """The tutorial notebooks, in order."""
    return sorted(NOTEBOOK_DIR.glob("*.ipynb"))


def code_cells(nb: dict) -> list[dict]:
    return [cell for cell in nb["cells"] if cell["cell_type"] == "code"]


def _source(cell: dict) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source  # raw JSON may split lines


def source_hash(nb: dict) -> str:
    """sha256 of the code cells' sources, in order (markdown cells do not count)."""
    sources = [_source(cell) for cell in code_cells(nb)]
    return hashlib.sha256(json.dumps(sources, ensure_ascii=False).encode("utf-8")).hexdigest()


def package_version() -> str:
    try:
        return version("kanaszta-env")
    except PackageNotFoundError:
        return "unknown"


def problems(nb: dict, name: str = "notebook") -> list[str]:
    """Why the committed notebook ``nb`` is not current ([] if it is)."""
    rerun = f"run `{COMMAND} notebooks/{name}` and commit the result"
    found = []
    recorded = nb.get("metadata", {}).get(META_KEY, {}).get("source_sha256")
    if recorded is None:
        found.append(f"{name}: never executed by the script (no metadata.{META_KEY}); {rerun}")
    elif recorded != source_hash(nb):
        found.append(f"{name}: code cells were edited after the notebook was executed; {rerun}")
    cells = [cell for cell in code_cells(nb) if _source(cell).strip()]
    counts = [cell.get("execution_count") for cell in cells]
    if counts != list(range(1, len(cells) + 1)):
        found.append(f"{name}: code cells are not all executed once in order (counts {counts}); {rerun}")
    for i, cell in enumerate(cells, 1):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append(f"{name}: code cell {i} raised {out.get('ename')}: {out.get('evalue')}")
    plots = any(word in _source(cell) for cell in cells for word in PLOTTING)
    images = any("image/png" in out.get("data", {}) for cell in cells for out in cell.get("outputs", []))
    if plots and not images:
        found.append(f"{name}: draws a figure but holds no image output; {rerun}")
    return found


def _clean(nb) -> None:
    """Drop what changes on every run without being worth reading: widget state and views."""
    nb.metadata.pop("widgets", None)
    for cell in code_cells(nb):
        cell.metadata.pop("execution", None)  # timestamps
        kept = []
        for out in cell.get("outputs", []):
            data = out.get("data")
            if data is not None:
                for mime in VOLATILE_MIME:
                    data.pop(mime, None)
                if not data:
                    continue
            kept.append(out)
        cell["outputs"] = kept


def execute(path: Path) -> float:
    """Run ``path`` in place; returns the seconds it took. Raises on a failing cell."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    started = time.perf_counter()
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.resolve().parent)}},  # the working directory
    )
    client.execute()
    seconds = time.perf_counter() - started
    _clean(nb)
    nb.metadata[META_KEY] = {"source_sha256": source_hash(nb), "executed_with": package_version()}
    nbformat.validate(nb)
    nbformat.write(nb, path)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="notebooks (default: every notebooks/*.ipynb)")
    parser.add_argument("--check", action="store_true", help="only report notebooks that are not current")
    args = parser.parse_args(argv)
    paths = args.paths or notebooks()
    if args.check:
        found = [p for path in paths for p in problems(json.loads(path.read_text("utf-8")), path.name)]
        print("\n".join(found) or "every notebook is current")
        return 1 if found else 0
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, "1")  # inherited by the kernels
    # the kernel imports this checkout, whatever is installed
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    # tqdm.auto warns in a kernel without ipywidgets; the notebooks show no progress bars anyway
    os.environ["PYTHONWARNINGS"] = ",".join(
        filter(None, [os.environ.get("PYTHONWARNINGS"), "ignore:IProgress not found"])
    )
    for path in paths:
        print(f"executing {path.name} ...", flush=True)
        seconds = execute(path)
        print(f"  {path.name}: {seconds:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
