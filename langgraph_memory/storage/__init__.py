"""Storage backends. Each implements :class:`MemoryBackend` and passes the same conformance suite.

A backend is the storage core (:class:`StorageCore`) plus the capabilities it declares
(:mod:`~langgraph_memory.storage.capabilities`): every bundled one offers vectors, posting lists,
records and an embedding cache; PostgreSQL also a claim queue for concurrent embedding, and SQLite
and PostgreSQL a writer lease.

| backend | use |
|---|---|
| :class:`InMemoryBackend` | tests, notebooks |
| :class:`SQLiteBackend` | the default: one file under the memory path, WAL |
| ``PostgresBackend`` | many workers, one PostgreSQL + pgvector server (``[postgres]`` extra) |
| ``ChromaBackend`` | users already on Chroma: local directory or server (``[chroma]`` extra) |

Each name is imported on first access (a module ``__getattr__``), so importing one
module of this package loads no backend, and psycopg or chromadb only with the
backend that needs them.

Only this package touches a database; the rest of the memory reaches a store through
the protocols of :mod:`.base` and :mod:`.capabilities` (the import contract in
``pyproject.toml``).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

#: Each public name and the module that defines it.
EXPORTS: dict[str, str] = {
    "StorageCore": "langgraph_memory.storage.base",
    "MemoryBackend": "langgraph_memory.storage.base",
    "BackendStats": "langgraph_memory.storage.base",
    "VectorIndex": "langgraph_memory.storage.capabilities",
    "LexicalIndex": "langgraph_memory.storage.capabilities",
    "RecordStore": "langgraph_memory.storage.capabilities",
    "EmbeddingCache": "langgraph_memory.storage.capabilities",
    "ClaimQueue": "langgraph_memory.storage.capabilities",
    "FailedMessages": "langgraph_memory.storage.capabilities",
    "MessageDeletion": "langgraph_memory.storage.capabilities",
    "WriterLease": "langgraph_memory.storage.capabilities",
    "Checkpoint": "langgraph_memory.storage.capabilities",
    "Postings": "langgraph_memory.storage.capabilities",
    "InMemoryBackend": "langgraph_memory.storage.memory",
    "SQLiteBackend": "langgraph_memory.storage.sqlite.backend",
    "StoreDamagedError": "langgraph_memory.storage.sqlite.health",
    "PostgresBackend": "langgraph_memory.storage.postgres.backend",
    "ChromaBackend": "langgraph_memory.storage.chroma.backend",
    "compile_filter": "langgraph_memory.core.filters",
}

if TYPE_CHECKING:
    from langgraph_memory.core.filters import compile_filter
    from langgraph_memory.storage.base import BackendStats, MemoryBackend, StorageCore
    from langgraph_memory.storage.capabilities import (
        Checkpoint,
        ClaimQueue,
        EmbeddingCache,
        FailedMessages,
        LexicalIndex,
        MessageDeletion,
        Postings,
        RecordStore,
        VectorIndex,
        WriterLease,
    )
    from langgraph_memory.storage.memory import InMemoryBackend
    from langgraph_memory.storage.sqlite.backend import SQLiteBackend
    from langgraph_memory.storage.sqlite.health import StoreDamagedError

__all__ = [
    "StorageCore",
    "VectorIndex",
    "LexicalIndex",
    "RecordStore",
    "EmbeddingCache",
    "ClaimQueue",
    "FailedMessages",
    "MessageDeletion",
    "WriterLease",
    "Checkpoint",
    "MemoryBackend",
    "BackendStats",
    "Postings",
    "InMemoryBackend",
    "SQLiteBackend",
    "StoreDamagedError",
    "compile_filter",
]


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` (the optional backends' drivers are
    optional extras) and cache the value here."""
    module = EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(EXPORTS))
