"""The package's shape, pinned: a thin facade, small modules, storage reached only by the
pipelines and the layers through the protocols they are given, a small storage core.

These read the source (nothing is run), so a change that breaks the layout fails here
with the file and the rule it breaks.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import langgraph_memory
from langgraph_memory.backends.base import StorageCore

PACKAGE = Path(langgraph_memory.__file__).parent
MODULES = sorted(PACKAGE.rglob("*.py"))
#: The longest module allowed, and the longest facade.
MAX_MODULE_LINES = 550
MAX_MANAGER_LINES = 400
#: Modules that use the memory only through the manager's public methods.
ADAPTERS = [PACKAGE / "graph", PACKAGE / "retriever.py", PACKAGE / "cli.py"]


def _lines(path: Path) -> int:
    return len(path.read_text("utf-8").splitlines())


def _imports(path: Path) -> list[ast.ImportFrom | ast.Import]:
    tree = ast.parse(path.read_text("utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def _absolute(path: Path, node: ast.ImportFrom, root: Path = PACKAGE.parent) -> str:
    """The imported module's dotted name (relative imports resolved against ``root``)."""
    if not node.level:
        return node.module or ""
    parts = list(path.relative_to(root).with_suffix("").parts)
    base = parts[: len(parts) - node.level]
    return ".".join(base + ([node.module] if node.module else []))


def test_the_facade_is_thin() -> None:
    assert _lines(PACKAGE / "manager.py") <= MAX_MANAGER_LINES


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_the_limit(path: Path) -> None:
    assert _lines(path) <= MAX_MODULE_LINES, f"{path.name}: split it by idea"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_private_name_is_imported_across_modules(path: Path) -> None:
    private = [
        f"{node.module}.{alias.name}"
        for node in _imports(path)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]
    assert not private, f"{path.name} imports private names {private}"


def test_adapters_do_not_reach_storage() -> None:
    offenders = []
    for place in ADAPTERS:
        for path in [place] if place.is_file() else sorted(place.rglob("*.py")):
            for node in _imports(path):
                names = (
                    [_absolute(path, node)]
                    + [f"{_absolute(path, node)}.{a.name}" for a in node.names]
                    if isinstance(node, ast.ImportFrom)
                    else [a.name for a in node.names]
                )
                if any(n.startswith("langgraph_memory.backends") for n in names):
                    offenders.append(path.name)
    assert not offenders, f"these go around the manager to the store: {offenders}"


def test_the_storage_core_is_small() -> None:
    abstract = sorted(StorageCore.__abstractmethods__)
    assert len(abstract) <= 12, abstract
    source = inspect.getsource(inspect.getmodule(StorageCore))  # type: ignore[arg-type]
    assert "NotImplementedError" not in source


def test_the_import_reader_sees_relative_and_private_imports(tmp_path: Path) -> None:
    """The checks above can fail: a relative import of the backends from graph/ and a
    private name are both seen."""
    graph = tmp_path / "langgraph_memory" / "graph"
    graph.mkdir(parents=True)
    probe = graph / "probe.py"
    probe.write_text("from ..backends import base\nfrom ._x import _private\n")
    backends, private = _imports(probe)
    assert isinstance(backends, ast.ImportFrom) and isinstance(private, ast.ImportFrom)
    assert _absolute(probe, backends, tmp_path) == "langgraph_memory.backends"
    assert _absolute(probe, private, tmp_path) == "langgraph_memory.graph._x"
    assert private.names[0].name == "_private"
