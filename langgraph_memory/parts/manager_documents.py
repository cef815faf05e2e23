"""The manager's semantic memory (a mixin of :class:`~langgraph_memory.MemoryManager`):
documents added, versioned, listed and removed, with their async twins.

A document is split by its Markdown headings into chunks that cite their section
(:mod:`~langgraph_memory.layers.knowledge.documents`); the background worker embeds them;
``search(..., layers=["document"])``, ``build_context`` and ``MemoryRetriever`` return them.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.add_document(None, "# Office\\n## Wi-Fi\\nThe guest password is on the "
    ...                         "fridge.", document_id="office", version="2024.1")
    ...     mm.flush()
    ...     print(mm.search("ann", "guest wifi password", k=1, layers=["document"])[0].text)
    [doc: Office § Office > Wi-Fi, v2024.1]
    The guest password is on the fridge.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from langgraph_memory.core.concurrency import in_foreground
from langgraph_memory.core.validation import check_content, check_positive_int

if TYPE_CHECKING:
    from langgraph_memory.config import MemoryConfig
    from langgraph_memory.core.records import MemoryHit
    from langgraph_memory.layers.knowledge.documents import DocumentChunk, DocumentInfo
    from langgraph_memory.parts.assembly import MemoryParts

__all__ = ["DocumentsMixin"]


class DocumentsMixin:
    """Documents: the semantic memory layer."""

    _parts: MemoryParts
    config: MemoryConfig

    def _check_open(self) -> None:
        """Raise when the manager is closed (the manager's own check)."""

    @in_foreground
    def add_document(
        self,
        user_id: str | None,
        source: Any,
        *,
        document_id: str | None = None,
        version: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> DocumentInfo:
        """Add a document (or a new version of one) to semantic memory.

        The text goes through the sensitivity gate, is split by its Markdown headings
        (``#`` to ``####``) and then by size (``config.write.document_chunk_chars``); each
        chunk keeps its heading path and is cited as ``[doc: Title § Heading >
        Subheading, v1.2]``. The background worker embeds the chunks (``flush()`` waits
        for it). A new version archives the previous one's chunks: they are kept and
        found only on request (``filter={"status": "archived"}`` or a ``version``).

        Args:
            user_id: Whose document; ``None`` adds shared knowledge, found by every user
                of this store.
            source: A str (text or Markdown), a file path (``pathlib.Path``, UTF-8
                text), a LangChain ``Document`` or a list of them (one document's parts,
                e.g. the pages a document loader returns).
            document_id: Its id (default: the loader's ``source``, else the first
                heading, else a hash of the text).
            version: Its version (default ``"1"``, then the next integer). Versions
                compare by their numbers (``"1.10"`` after ``"1.9"``).
            metadata: JSON metadata (``title`` names it; the rest rides along on each
                chunk and can be filtered on).

        Returns:
            The document as stored (its current version, chunks and versions). The
            current version again with the same text changes nothing.

        Raises:
            TypeError: When ``source`` is bytes or no text, or an argument has the
                wrong type.
            ValueError: When the document is binary, empty, only headings, over
                ``config.write.max_document_chars``, or ``version`` is older than the current
                one (or is the current one with other text). Nothing is stored then.
            SensitiveContentError: When the sensitivity policy refuses what it found.

        Example:
            >>> from pathlib import Path
            >>> mm.add_document(None, Path("handbook.md"), version="1.2")  # doctest: +SKIP
            >>> mm.add_document("ann", loader.load(), document_id="notes")  # doctest: +SKIP
        """
        self._check_open()
        info = self._parts.documents.add(
            user_id, source, document_id=document_id, version=version, metadata=metadata
        )
        self._parts.write.worker.notify()  # embed the new chunks now
        return info

    def remove_document(self, user_id: str | None, document_id: str) -> int:
        """Remove a document: every version's chunks, their index entries and vectors.

        Args:
            user_id: Whose document (``None``: shared knowledge).
            document_id: Its id.

        Returns:
            How many chunks were removed (0 for an unknown document).
        """
        self._check_open()
        return self._parts.documents.remove(user_id, document_id)

    def documents(self, user_id: str | None) -> list[DocumentInfo]:
        """The user's own documents (``None``: shared knowledge), oldest first.

        Example:
            >>> [(d.document_id, d.version, d.chunks) for d in mm.documents(None)]  # doctest: +SKIP
            [('handbook', '1.2', 48)]
        """
        self._check_open()
        return self._parts.documents.documents(user_id)

    def document_chunks(
        self, user_id: str | None, document_id: str, *, version: str | None = None
    ) -> list[DocumentChunk]:
        """A document's chunks, in order: of its current version, or of ``version``
        (an archived one too).

        Args:
            user_id: Whose document (``None``: shared knowledge).
            document_id: Its id.
            version: Which version (default: the current one).

        Returns:
            The chunks (empty for an unknown document or version); each has its
            ``body``, ``hierarchy_info`` (heading path), ``status`` and ``citation()``.

        Example:
            >>> [c.citation() for c in mm.document_chunks(None, "office")]  # doctest: +SKIP
            ['[doc: Office § Office > Wi-Fi, v2024.1]']
        """
        self._check_open()
        docs = self._parts.documents
        if version is None:
            info = docs.info(user_id, document_id)
            if info is None:
                return []
            version = info.version
        return docs.chunks(user_id, document_id, version=version)

    def search_documents(
        self,
        user_id: str | None,
        query: str,
        k: int = 10,
        *,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - as search's
    ) -> list[MemoryHit]:
        """Search one owner's documents only: a user's own, or (``None``) shared
        knowledge. ``search(user_id, query, layers=["document"])`` searches both (and
        the user's attached vector stores) at once; this is for tools that keep them
        apart, such as :class:`~langgraph_memory.MemoryStore`'s documents namespace.

        Args:
            user_id: Whose documents (``None``: shared knowledge).
            query: What to look for.
            k: How many hits.
            filter: Chunk fields to match (``document_id``, ``version``, ``title``,
                ``status`` or the document's metadata); archived chunks only when it
                names a ``status`` or a ``version``.

        Returns:
            Hits of layer ``"chunk"``, best first, each citing its section.

        Example:
            >>> hits = mm.search_documents(None, "guest wifi", k=3)  # doctest: +SKIP
        """
        from langgraph_memory.layers.knowledge.documents import owner_of

        self._check_open()
        owner = owner_of(user_id)
        check_content(query, self.config.write.max_content_chars, "query")
        check_positive_int(k, "k")
        return self._parts.read.document_hits(owner, query, k, filter)

    async def aadd_document(
        self,
        user_id: str | None,
        source: Any,
        *,
        document_id: str | None = None,
        version: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> DocumentInfo:
        """Async :meth:`~langgraph_memory.MemoryManager.add_document`."""
        return await asyncio.to_thread(
            self.add_document,
            user_id,
            source,
            document_id=document_id,
            version=version,
            metadata=metadata,
        )

    async def aremove_document(self, user_id: str | None, document_id: str) -> int:
        """Async :meth:`~langgraph_memory.MemoryManager.remove_document`."""
        return await asyncio.to_thread(self.remove_document, user_id, document_id)

    async def adocuments(self, user_id: str | None) -> list[DocumentInfo]:
        """Async :meth:`~langgraph_memory.MemoryManager.documents`."""
        return await asyncio.to_thread(self.documents, user_id)

    async def adocument_chunks(
        self, user_id: str | None, document_id: str, *, version: str | None = None
    ) -> list[DocumentChunk]:
        """Async :meth:`~langgraph_memory.MemoryManager.document_chunks`."""
        return await asyncio.to_thread(self.document_chunks, user_id, document_id, version=version)

    async def asearch_documents(
        self,
        user_id: str | None,
        query: str,
        k: int = 10,
        *,
        filter: Mapping[str, Any] | None = None,  # noqa: A002
    ) -> list[MemoryHit]:
        """Async :meth:`~langgraph_memory.MemoryManager.search_documents`."""
        return await asyncio.to_thread(self.search_documents, user_id, query, k, filter=filter)
