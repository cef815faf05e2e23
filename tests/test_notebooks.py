"""The notebooks execute top to bottom (nbclient, a kernel on this interpreter) and are
committed without outputs.

Each runs in a temporary working directory with matplotlib's Agg backend; nothing is
written into the repository.
"""

from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
KERNEL = "langgraph-memory-tests"


def test_the_four_notebooks_are_there_without_outputs() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01_quickstart.ipynb",
        "02_add_memory_to_existing_graph.ipynb",
        "03_drop_in_retriever_and_store.ipynb",
        "04_inspecting_memory.ipynb",
    ]
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text("utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, path.name


@pytest.fixture
def kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A kernelspec running ipykernel on this very interpreter, with the repo importable."""
    pytest.importorskip("ipykernel")
    spec_dir = tmp_path / "jupyter" / "kernels" / KERNEL
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "langgraph-memory tests",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    # the inline backend renders every plt.show() as a PNG output, which the test checks
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    for var in ("LANGGRAPH_MEMORY_PATH", "LANGGRAPH_MEMORY_CHAT_MODEL"):
        monkeypatch.delenv(var, raising=False)
    return KERNEL


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes(path: Path, kernel: str, tmp_path: Path) -> None:
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    book = nbformat.read(path, as_version=4)
    workdir = tmp_path / "run"
    workdir.mkdir()
    client = nbclient.NotebookClient(
        book,
        kernel_name=kernel,
        timeout=180,
        resources={"metadata": {"path": str(workdir)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and traceback, on any error
    errors = [
        out
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error"
    ]
    assert errors == []
    printed = "".join(
        out.get("text", "")
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "stream"
    )
    assert printed.strip(), "the notebook printed nothing"
    # matplotlib warns when a label has a glyph its font lacks (drawn as a box)
    warned = "".join(
        out.get("text", "")
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "stream" and out.get("name") == "stderr"
    )
    assert "missing from font" not in warned and "Glyph" not in warned, warned
    assert list(workdir.iterdir()) == [], "a notebook wrote files into its working directory"
    # every cell that shows a plot rendered it: a PNG of real size, saved for inspection
    shows = [c for c in book.cells if c.cell_type == "code" and "plt.show()" in c.source]
    pngs = [
        out["data"]["image/png"]
        for cell in shows
        for out in cell.outputs
        if out.output_type == "display_data" and "image/png" in out.get("data", {})
    ]
    assert len(pngs) == len(shows), f"{len(shows)} plots, {len(pngs)} rendered"
    for i, data in enumerate(pngs):
        png = base64.b64decode(data)
        assert png.startswith(b"\x89PNG") and len(png) > 5_000
        (tmp_path / f"{path.stem}-{i}.png").write_bytes(png)
