"""The memory's documents as a read-only namespace of :class:`~.store.MemoryStore`.

Documents added with :meth:`~langgraph_memory.parts.documents.Documents.add` show under one
namespace root (``"documents"`` by default): shared knowledge at ``("documents",)`` and a user's own
documents at ``("documents", user_id)``. Each chunk of a document's current version is an item keyed
``"<document id>#<chunk index>"`` whose value holds its ``text``, its ``citation`` and its fields
(``document_id``, ``version``, ``title``, ``headings``, ``chunk``, ``status``, ``shared`` and the
document's metadata). A query search ranks the chunks as
:meth:`~langgraph_memory.parts.documents.Documents.search` does; puts and deletes are refused.

Example:
    >>> from langgraph_memory import HashingEmbeddings, InMemoryBackend, MemoryManager
    >>> from langgraph_memory.integrations.graph.store import MemoryStore
    >>> mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
    >>> _ = mm.documents.add(None, "# Office\\n## Parking\\nVisitors park on level two.",
    ...                     document_id="office")
    >>> mm.flush()
    >>> store = MemoryStore(mm)
    >>> item = store.get(("documents",), "office#0")
    >>> item.value["text"], item.value["citation"]
    ('Visitors park on level two.', '[doc: Office § Office > Parking, v1]')
    >>> mm.close()
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from langgraph.store.base import InvalidNamespaceError, Item, SearchItem

from langgraph_memory.core.records import MemoryHit
from langgraph_memory.integrations.graph.store_search import matches_filter
from langgraph_memory.manager import MemoryManager

if TYPE_CHECKING:
    from langgraph_memory.integrations.remote import RemoteMemory
    from langgraph_memory.parts.documents import DocumentChunk

__all__ = ["DocumentsView"]


class DocumentsView:
    """The documents namespace of a store (see the module docs).

    Args:
        memory: The manager holding the documents.
        root: The namespace root they show under.
    """

    def __init__(self, memory: MemoryManager | RemoteMemory, root: str) -> None:
        if not isinstance(root, str) or not root:
            raise ValueError(f"documents_namespace must be a non-empty str, got {root!r}")
        self.memory = memory
        self.root = root

    def owns(self, namespace: Sequence[str]) -> bool:
        """Whether ``namespace`` (a path or a search prefix) lies under the root."""
        return bool(namespace) and namespace[0] == self.root

    def refuse_write(self, namespace: Sequence[str]) -> None:
        """Raise: the documents namespace is read-only."""
        raise InvalidNamespaceError(
            f"the {self.root!r} namespace is read-only: it shows the memory's documents; "
            "add or remove them with mm.documents.add / mm.documents.remove"
        )

    def _owner(self, namespace: Sequence[str]) -> tuple[bool, str | None]:
        """``(valid, user_id)``: ``(root,)`` is shared knowledge, ``(root, user)`` a
        user's documents; deeper paths hold nothing."""
        if len(namespace) == 1:
            return True, None
        if len(namespace) == 2:
            return True, namespace[1]
        return False, None

    def get(self, namespace: Sequence[str], key: str) -> Item | None:
        """The chunk ``key`` (``"<document id>#<index>"``) of the current version."""
        valid, user = self._owner(namespace)
        document_id, sep, index = str(key).rpartition("#")
        if not valid or not sep or not document_id or not index.isdigit():
            return None
        for chunk in self.memory.documents.chunks(user, document_id):
            if chunk.index == int(index):
                return _item(Item, namespace, key, _chunk_value(chunk), chunk.created_at)
        return None

    def search(
        self,
        prefix: Sequence[str],
        query: str | None,
        flt: Mapping[str, Any] | None,
        limit: int,
        offset: int,
    ) -> list[SearchItem]:
        """The chunks under ``prefix``: ranked by ``query``, else in document order."""
        valid, user = self._owner(prefix)
        if not valid:
            return []
        namespace = (self.root,) if user is None else (self.root, user)
        if query:
            infos = self.memory.documents.list(user)
            total = sum(d.chunks for d in infos)
            if not total:
                return []
            k = total if flt else min(total, offset + limit)
            found = [
                (_hit_value(hit), hit) for hit in self.memory.documents.search(user, query, k=k)
            ]
            rows = [
                _item(SearchItem, namespace, _key(v), v, hit.timestamp, score=hit.score)
                for v, hit in found
                if matches_filter(v, flt)
            ]
        else:
            rows = []
            for info in self.memory.documents.list(user):
                chunks = self.memory.documents.chunks(user, info.document_id, version=info.version)
                for chunk in chunks:
                    value = _chunk_value(chunk)
                    if matches_filter(value, flt):
                        rows.append(
                            _item(SearchItem, namespace, _key(value), value, chunk.created_at)
                        )
        return rows[offset : offset + limit]

    def namespaces(self) -> list[tuple[str, ...]]:
        """Every documents namespace holding a document: shared knowledge, and each
        user's (of the users with messages) who has documents of their own."""
        found: list[tuple[str, ...]] = []
        if self.memory.documents.list(None):
            found.append((self.root,))
        found += [
            (self.root, u) for u in self.memory.maintenance.users() if self.memory.documents.list(u)
        ]
        return found


def _key(value: Mapping[str, Any]) -> str:
    return f"{value['document_id']}#{value['chunk']}"


def _chunk_value(chunk: DocumentChunk) -> dict[str, Any]:
    """A chunk as a store value: its body, its citation and its fields."""
    return {"text": chunk.body, "citation": chunk.citation(), **chunk.meta()}


def _hit_value(hit: MemoryHit) -> dict[str, Any]:
    """A chunk hit as a store value: its body (the text after its citation line)."""
    citation, _, body = hit.text.partition("\n")
    return {"text": body, "citation": citation, **(hit.metadata or {})}


def _item(
    cls: type[Item],
    namespace: Sequence[str],
    key: str,
    value: dict[str, Any],
    when: datetime | None,
    **extra: Any,
) -> Any:
    stamp = when or datetime.fromtimestamp(0, timezone.utc)
    return cls(
        value=value,
        key=key,
        namespace=tuple(namespace),
        created_at=stamp,
        updated_at=stamp,
        **extra,
    )
