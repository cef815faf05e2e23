"""What a memory holds, per layer: the counts behind ``MemoryManager.stats``.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.add_turn("ann", "s1", user="I like tea", assistant="Noted!")
    ...     mm.flush()
    ...     s = mm.stats("ann")
    >>> s["messages"], s["pending"], s["layers"]["short_term"]
    (2, 0, 1)
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from langgraph_memory.storage.base import MemoryBackend

__all__ = ["memory_stats", "LayerStats"]

#: Record kinds counted as layers of their own.
_KINDS = (
    "anchor",
    "task",
    "episode",
    "knowledge",
    "lesson",
    "insight",
    "contradiction",
    "rollup",
    "entity",
)


class LayerStats(Protocol):
    """A layer that reports its own counts for a user."""

    def stats(self, user_id: str) -> dict[str, Any]:
        """The layer's counts for one user."""
        ...


def memory_stats(
    storage: MemoryBackend,
    hierarchy: LayerStats,
    longterm: LayerStats,
    user_id: str | None,
) -> dict[str, Any]:
    """Counts for one user (or the whole store): messages, embedded, pending, sessions,
    and per layer; for one user also the hierarchy's and long-term memory's own stats."""
    s = asdict(storage.stats(user_id))
    s["failed"] = storage.count_records("failed_message", user_id)
    s["pending"] = s["messages"] - s["embedded"] - s["failed"]
    s["backend"] = storage.name
    s["layers"] = {"message": s["messages"]}
    for kind in _KINDS:
        s["layers"][kind] = storage.count_records(kind, user_id)
    if user_id is not None:
        h = hierarchy.stats(user_id)
        s["layers"]["short_term"] = h["short_term_pages"]
        s["layers"]["mid_term"] = h["mid_term_segments"]
        s["layers"]["archived_segments"] = h["archived_segments"]
        s["hierarchy"] = h
        lt = longterm.stats(user_id)
        s["layers"].update(profile=lt["profile"], facts=lt["facts"], traits=lt["traits"])
        s["longterm"] = lt
    path = getattr(storage, "file", None)
    if path is not None:
        s["path"] = str(path)
    return s
