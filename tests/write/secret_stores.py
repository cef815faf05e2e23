"""The stores that the secret-path tests write into, one per backend, and how each is
read back: every byte the store keeps, for the tests to grep.

- ``sqlite``: the database, write-ahead log and shared-memory files.
- ``memory``: nothing reaches a disk; every string and byte string the backend holds
  (every message, record, posting, cache entry and metadata value, found by walking
  its whole state).
- ``postgres``: every row of every table of the store's database, read with SQL (so a
  value that PostgreSQL compressed in TOAST is seen too), and the raw files of those
  tables, their TOAST tables and their indexes after a ``CHECKPOINT`` (so a row that
  was written and then updated or deleted, still in the file as a dead tuple, is seen
  too). The write-ahead log is left out: one server holds the databases of all runs.
- ``chroma``: every file of the persistent directory but the HNSW index files
  (:data:`HNSW_FILES`). Those hold vectors, integer labels and graph links, never a
  text of the store; but Chroma writes them from buffers it does not clear, so they
  carry stale bytes of the process's memory, entries of other Chroma stores that the
  process used before among them (seen here: a run's entries in the next run's
  ``data_level0.bin``). What lands there depends on what the process did earlier, not
  on this store's writes.

PostgreSQL and Chroma cost far more per write (a round trip; about 4 ms a Chroma
call), so each path writes a rotating slice of the secret kinds there
(:func:`kinds_for`): every kind and every path still reach every backend.
"""

from __future__ import annotations

import os
import pickle
from abc import ABC, abstractmethod
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chroma_server
import numpy as np
import pg_server
import pytest
from test_sensitivity_storage import _raw

from langgraph_memory import MemoryManager
from langgraph_memory.storage import InMemoryBackend

__all__ = ["STORES", "Store", "kinds_for", "make_store"]

#: Chroma's HNSW index files (see the module docstring).
HNSW_FILES = {"header.bin", "data_level0.bin", "length.bin", "link_lists.bin"}
#: Backend -> how many kinds each path writes there under ``redact`` and under ``allow``
#: (None: all of them). The control needs one accepted kind per path to show that the
#: grep sees where that path's writes go.
STORES: dict[str, tuple[int | None, int | None]] = {
    "sqlite": (None, None),
    "memory": (None, None),
    "postgres": (3, 2),
    "chroma": (3, 1),
}


def kinds_for(backend: str, policy: str, path_index: int, kinds: list[str]) -> list[str]:
    """The kinds that path number ``path_index`` writes on ``backend``: all of them, or
    a slice that moves on with each path (26 paths x 3 kinds cover the 55 kinds)."""
    per_path = STORES[backend][policy == "allow"]
    if per_path is None or per_path >= len(kinds):
        return list(kinds)
    start = path_index * per_path
    return [kinds[(start + i) % len(kinds)] for i in range(per_path)]


class Store(ABC):
    """One fresh store: a manager over it, then every byte it keeps."""

    @abstractmethod
    def manager(self, **kwargs: Any) -> MemoryManager:
        """A manager over this store (``kwargs`` go to :class:`MemoryManager`)."""

    @abstractmethod
    def raw(self) -> bytes:
        """Every byte the store keeps (called after the manager is closed)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Free what the store took (a PostgreSQL database)."""

    def held(self) -> bytes:
        """Every value the store holds, as its own interface reads it back: what
        :meth:`raw` reads, less the bytes of deleted rows that a server keeps in its
        files until it reuses the space."""
        return self.raw()


class SQLiteStore(Store):
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def manager(self, **kwargs: Any) -> MemoryManager:
        return MemoryManager(self.directory, **kwargs)

    def raw(self) -> bytes:
        return _raw(self.directory)


class InMemoryStore(Store):
    def __init__(self) -> None:
        self.backend = InMemoryBackend()

    def manager(self, **kwargs: Any) -> MemoryManager:
        return MemoryManager(backend=self.backend, **kwargs)

    def raw(self) -> bytes:
        return b"\n".join(_texts(self.backend))


class PostgresStore(Store):
    def __init__(self, server: pg_server.PgServer, dbs: pg_server.TestDatabases) -> None:
        self.server = server
        self.url = dbs.new_database()
        self._admin = dbs.admin_url

    def close(self) -> None:
        import psycopg
        from psycopg.conninfo import conninfo_to_dict

        name = conninfo_to_dict(self.url)["dbname"]
        with psycopg.connect(self._admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())

    def manager(self, **kwargs: Any) -> MemoryManager:
        from langgraph_memory.storage.postgres.backend import PostgresBackend

        return MemoryManager(backend=PostgresBackend(self.url), **kwargs)

    def held(self) -> bytes:
        return self._read(files=False)

    def raw(self) -> bytes:
        return self._read(files=True)

    def _read(self, files: bool) -> bytes:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            tables = [
                t
                for (t,) in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
                )
            ]
            assert "lgm_messages" in tables and "lgm_records" in tables, tables
            rows = {t: conn.execute(f'SELECT * FROM "{t}"').fetchall() for t in tables}
            if not files:
                return pickle.dumps(rows)
            conn.execute("CHECKPOINT")  # the dirty pages to the files read below
            relations = conn.execute(
                """
                WITH own AS (
                    SELECT oid, reltoastrelid FROM pg_class
                    WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'i')
                ), toast AS (
                    SELECT reltoastrelid AS oid FROM own WHERE reltoastrelid <> 0
                )
                SELECT pg_relation_filepath(oid) FROM own
                UNION SELECT pg_relation_filepath(oid) FROM toast
                UNION SELECT pg_relation_filepath(indexrelid)
                      FROM pg_index WHERE indrelid IN (SELECT oid FROM toast)
                """
            ).fetchall()
        data: list[bytes] = []
        for (rel,) in relations:
            main = self.server.data / rel
            segments = [main, *sorted(main.parent.glob(f"{main.name}.*"))]
            data += [f.read_bytes() for f in segments if f.exists()]
        assert data, "no relation file"
        return pickle.dumps(rows) + b"".join(data)


class ChromaStore(Store):
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def manager(self, **kwargs: Any) -> MemoryManager:
        from langgraph_memory.storage.chroma.backend import ChromaBackend

        return MemoryManager(backend=ChromaBackend.persistent(self.directory), **kwargs)

    def held(self) -> bytes:
        import chromadb
        from chromadb.config import Settings

        client = chromadb.PersistentClient(
            path=str(self.directory), settings=Settings(anonymized_telemetry=False)
        )
        try:
            got = [c.get(include=["documents", "metadatas"]) for c in client.list_collections()]
            assert len(got) == 2, "expected the store and vector collections"
        finally:
            getattr(client, "close")()  # noqa: B009 - missing from ClientAPI's type
        return b"\n".join(_texts(got))

    def raw(self) -> bytes:
        files = sorted(p for p in self.directory.rglob("*") if p.is_file())
        assert any(p.name == "chroma.sqlite3" for p in files), files
        return b"".join(p.read_bytes() for p in files if p.name not in HNSW_FILES)


def _texts(obj: object) -> Iterator[bytes]:
    """Every string and byte string reachable from ``obj`` (containers, dict keys,
    attributes and slots of objects), UTF-8 encoded; numbers and locks are skipped."""
    seen: set[int] = set()
    todo = [obj]
    while todo:
        o = todo.pop()
        if id(o) in seen or isinstance(o, (int, float, bool, type(None))):
            continue
        seen.add(id(o))
        if isinstance(o, str):
            yield o.encode()
        elif isinstance(o, (bytes, bytearray, memoryview)):
            yield bytes(o)
        elif isinstance(o, np.ndarray):
            if o.dtype.kind in "OUS":
                todo.extend(o.ravel().tolist())
        elif isinstance(o, dict):
            todo.extend(o.keys())
            todo.extend(o.values())
        elif isinstance(o, (list, tuple, set, frozenset)):
            todo.extend(o)
        else:
            slots = [n for c in type(o).__mro__ for n in getattr(c, "__slots__", ())]
            todo.extend(getattr(o, n) for n in slots if hasattr(o, n))
            todo.extend(getattr(o, "__dict__", {}).values())


def make_store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Store:
    """A fresh store of ``backend`` (skips when the backend cannot run here)."""
    if backend == "sqlite":
        return SQLiteStore(tmp_path / "mem")
    if backend == "memory":
        return InMemoryStore()
    if backend == "postgres":
        server, dbs = request.getfixturevalue("secrets_pg")
        return PostgresStore(server, dbs)
    if os.environ.get("LANGGRAPH_MEMORY_TEST_CHROMA", "1") == "0":
        pytest.skip("Chroma left out (LANGGRAPH_MEMORY_TEST_CHROMA=0)")
    pytest.importorskip("chromadb", reason="needs: pip install 'langgraph-memory[chroma]'")
    return ChromaStore(chroma_server.scratch_dir(tmp_path, "chroma-store"))
