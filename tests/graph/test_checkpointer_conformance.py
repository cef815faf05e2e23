"""``langgraph-checkpoint-conformance`` run against ``MemoryCheckpointer``.

The suite is async and picks the capabilities to test by the methods a saver's
class overrides. ``MemoryCheckpointer`` overrides every method (it delegates),
so the capabilities its inner saver lacks (``delete_for_runs``, ``copy_thread``,
``prune`` for InMemorySaver and AsyncSqliteSaver) are skipped, exactly as the
suite skips them for the bare saver. Each wrapped saver must then earn the same
report as the bare one: every base capability passes. SqliteSaver (sync only —
its async methods raise NotImplementedError) is covered through a real graph in
``test_checkpointer.py``; here its async twin AsyncSqliteSaver stands for it.
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.conformance.capabilities import DetectedCapabilities
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.checkpointer import MemoryCheckpointer
from langgraph_memory.storage import InMemoryBackend

aiosqlite_saver = pytest.importorskip("langgraph.checkpoint.sqlite.aio")

Inner = Callable[[Path], AbstractAsyncContextManager[BaseCheckpointSaver[Any]]]


@asynccontextmanager
async def _in_memory(tmp: Path) -> AsyncIterator[BaseCheckpointSaver[Any]]:
    yield InMemorySaver()


@asynccontextmanager
async def _async_sqlite(tmp: Path) -> AsyncIterator[BaseCheckpointSaver[Any]]:
    tmp.mkdir(parents=True, exist_ok=True)
    async with aiosqlite_saver.AsyncSqliteSaver.from_conn_string(
        str(tmp / f"cp-{len(list(tmp.iterdir()))}.db")
    ) as saver:
        yield saver


INNER: dict[str, Inner] = {"InMemorySaver": _in_memory, "AsyncSqliteSaver": _async_sqlite}


async def _report(
    name: str, make: Inner, tmp: Path, wrap: bool, memory: Any = None
) -> dict[str, Any]:
    """The suite's report on ``make``'s saver, bare or wrapped over ``memory`` (default: a
    manager of its own, closed after)."""
    async with make(tmp) as probe:
        missing = {c.value for c in DetectedCapabilities.from_instance(probe).missing}
    mm = memory or MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())

    async def factory() -> AsyncIterator[BaseCheckpointSaver[Any]]:
        async with make(tmp) as inner:
            yield MemoryCheckpointer(inner, mm) if wrap else inner

    registered = checkpointer_test(name=name, skip_capabilities=missing)(factory)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the suite's configs carry no user_id
            report = await validate(registered)
    finally:
        if memory is None:
            mm.close()
    return report.to_dict()


@pytest.mark.asyncio
@pytest.mark.parametrize("inner", list(INNER))
async def test_conformance(inner: str, tmp_path: Path) -> None:
    wrapped = await _report(f"MemoryCheckpointer({inner})", INNER[inner], tmp_path / "w", True)
    bare = await _report(inner, INNER[inner], tmp_path / "b", False)
    results = wrapped["results"]
    failures = {k: r["failures"] for k, r in results.items() if r["passed"] is False}
    assert not failures, failures
    for cap in ("put", "put_writes", "get_tuple", "list", "delete_thread"):
        assert results[cap]["passed"] is True, cap
        assert results[cap]["tests_passed"] > 0
    assert wrapped["conformance_level"] == bare["conformance_level"] == "FULL"
    assert {k: (r["passed"], r["tests_passed"]) for k, r in results.items()} == {
        k: (r["passed"], r["tests_passed"]) for k, r in bare["results"].items()
    }


@pytest.mark.asyncio
async def test_conformance_postgres(pg_databases: Any, tmp_path: Path) -> None:
    """The same report over LangGraph's own AsyncPostgresSaver, on the test server."""
    pg_saver = pytest.importorskip("langgraph.checkpoint.postgres.aio")

    def make_inner(url: str) -> Inner:
        @asynccontextmanager
        async def inner(tmp: Path) -> AsyncIterator[BaseCheckpointSaver[Any]]:
            async with pg_saver.AsyncPostgresSaver.from_conn_string(url) as saver:
                await saver.setup()
                yield saver

        return inner

    wrapped = await _report(
        "MemoryCheckpointer(AsyncPostgresSaver)",
        make_inner(pg_databases.new_database()),
        tmp_path / "w",
        True,
    )
    bare = await _report(
        "AsyncPostgresSaver", make_inner(pg_databases.new_database()), tmp_path / "b", False
    )
    results = wrapped["results"]
    failures = {k: r["failures"] for k, r in results.items() if r["passed"] is False}
    assert not failures, failures
    for cap in ("put", "put_writes", "get_tuple", "list", "delete_thread"):
        assert results[cap]["passed"] is True and results[cap]["tests_passed"] > 0, cap
    assert wrapped["conformance_level"] == bare["conformance_level"] == "FULL"
    assert {k: (r["passed"], r["tests_passed"]) for k, r in results.items()} == {
        k: (r["passed"], r["tests_passed"]) for k, r in bare["results"].items()
    }
