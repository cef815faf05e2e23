"""Storage backends. Each implements :class:`MemoryBackend` and passes the same conformance suite.

| backend | use |
|---|---|
| :class:`InMemoryBackend` | tests, notebooks |
| :class:`SQLiteBackend` | the default: one file under the memory path, WAL |
"""

from .base import BackendStats, MemoryBackend, Postings
from .filters import compile_filter
from .memory import InMemoryBackend
from .sqlite import SQLiteBackend

__all__ = [
    "MemoryBackend",
    "BackendStats",
    "Postings",
    "InMemoryBackend",
    "SQLiteBackend",
    "compile_filter",
]
