"""The package's shape, pinned: one-way layers by concept (the import contract in
``pyproject.toml``), no import circles, nothing loose at the package root, no private name
imported across modules, a small storage core.

These read the source (nothing of the memory is run), so a change that breaks the layout
fails here with the file and the rule it breaks.
"""

from __future__ import annotations

import ast
import inspect
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import langgraph_memory
from langgraph_memory.storage.base import StorageCore

PACKAGE = Path(langgraph_memory.__file__).parent
REPO = PACKAGE.parent
MODULES = sorted(PACKAGE.rglob("*.py"))
#: The only modules at the package root: its door, the manager and the config.
ROOT_MODULES = {"__init__.py", "manager.py", "config.py"}


def _imports(path: Path) -> list[ast.ImportFrom | ast.Import]:
    tree = ast.parse(path.read_text("utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def _module(path: Path, root: Path = REPO) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(path: Path, node: ast.ImportFrom, root: Path = REPO) -> str:
    """The imported module's dotted name (relative imports resolved against ``root``)."""
    if not node.level:
        return node.module or ""
    parts = list(path.relative_to(root).with_suffix("").parts)
    base = parts[: len(parts) - node.level]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(package: Path, root: Path) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of it that it imports anywhere: at the
    top, inside functions and under ``TYPE_CHECKING`` alike."""
    paths = sorted(package.rglob("*.py"))
    names = {_module(p, root) for p in paths}
    graph: dict[str, set[str]] = {}
    for path in paths:
        me = _module(path, root)
        deps: set[str] = set()
        for node in _imports(path):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name in names)
                continue
            base = _absolute(path, node, root)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                deps.add(full if full in names else base)
        graph[me] = {d for d in deps if d in names and d != me}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph`` (its strongly connected parts of two or more)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_not_even_under_type_checking() -> None:
    assert circles(import_graph(PACKAGE, REPO)) == []


def test_the_circle_finder_sees_a_circle_under_type_checking(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.b import B\n")
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n"
    )
    assert circles(import_graph(pkg, tmp_path)) == [["pkg.a", "pkg.b"]]


def test_nothing_is_loose_at_the_package_root() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ROOT_MODULES)
    assert not loose, f"put these in the folder of their concept: {loose}"


def _lint_imports(cwd: Path, pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), env.get("PYTHONPATH", "")])
    script = "import sys; from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run(
        [sys.executable, "-c", script, "--no-cache"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_import_contract_holds() -> None:
    run = _lint_imports(REPO)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "BROKEN" not in run.stdout and "0 broken" in run.stdout


@pytest.fixture()
def package_copy(tmp_path: Path) -> Iterator[Path]:
    """A copy of the package and its ``pyproject.toml`` to break on purpose."""
    shutil.copytree(PACKAGE, tmp_path / "langgraph_memory", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    yield tmp_path


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("core/probe.py", "import langgraph_memory.manager\n", "layers point down"),
        ("layers/index/probe.py", "from langgraph_memory.layers.long_term import facts\n", ""),
        ("write/probe.py", "import langgraph_memory.storage.sqlite.backend\n", "open a store"),
        ("integrations/probe.py", "from langgraph_memory.write import worker\n", "surface"),
    ],
)
def test_the_import_contract_fails_on_an_upward_import(
    package_copy: Path, module: str, line: str, contract: str
) -> None:
    (package_copy / "langgraph_memory" / module).write_text(line)
    run = _lint_imports(package_copy, pythonpath=package_copy)
    assert run.returncode != 0, run.stdout[-2000:]
    assert "BROKEN" in run.stdout and "probe" in run.stdout
    assert contract in run.stdout


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


def test_the_storage_core_is_small() -> None:
    abstract = sorted(StorageCore.__abstractmethods__)
    assert len(abstract) <= 12, abstract
    source = inspect.getsource(inspect.getmodule(StorageCore))  # type: ignore[arg-type]
    assert "NotImplementedError" not in source


def test_the_import_reader_sees_relative_and_private_imports(tmp_path: Path) -> None:
    """The checks above can fail: a relative import of the storage from integrations/
    and a private name are both seen."""
    place = tmp_path / "langgraph_memory" / "integrations"
    place.mkdir(parents=True)
    probe = place / "probe.py"
    probe.write_text("from ..storage import base\nfrom ._x import _private\n")
    storage, private = _imports(probe)
    assert isinstance(storage, ast.ImportFrom) and isinstance(private, ast.ImportFrom)
    assert _absolute(probe, storage, tmp_path) == "langgraph_memory.storage"
    assert _absolute(probe, private, tmp_path) == "langgraph_memory.integrations._x"
    assert private.names[0].name == "_private"
