"""Storage backends. Each implements :class:`MemoryBackend` and passes the same conformance suite.

A backend is the storage core (:class:`StorageCore`) plus the capabilities it declares
(:mod:`.capabilities`): every bundled one offers vectors, posting lists, records and
an embedding cache; PostgreSQL also a claim queue for concurrent embedding, and
SQLite and PostgreSQL a writer lease.

| backend | use |
|---|---|
| :class:`InMemoryBackend` | tests, notebooks |
| :class:`SQLiteBackend` | the default: one file under the memory path, WAL |
| ``PostgresBackend`` | many workers, one PostgreSQL + pgvector server (``[postgres]`` extra) |
| ``ChromaBackend`` | users already on Chroma: local directory or server (``[chroma]`` extra) |

``PostgresBackend`` and ``ChromaBackend`` are imported on first access, so this
package never needs psycopg or chromadb.
"""

from typing import Any

from ..filters import compile_filter
from .base import BackendStats, MemoryBackend, StorageCore
from .capabilities import (
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
from .memory import InMemoryBackend
from .sqlite import SQLiteBackend

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
    "compile_filter",
]


def __getattr__(name: str) -> Any:
    """Import optional backends on first use (their drivers are optional extras)."""
    if name == "PostgresBackend":
        from .postgres import PostgresBackend

        return PostgresBackend
    if name == "ChromaBackend":
        from .chroma import ChromaBackend

        return ChromaBackend
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
