"""The manager's semantic memory (a mixin of :class:`~langgraph_memory.MemoryManager`):
documents added, versioned, listed and removed, with their async twins.

A document is split by its Markdown headings into chunks that cite their section
(:mod:`.layers.documents`); the background worker embeds them; ``search(...,
layers=["document"])``, ``build_context`` and ``MemoryRetriever`` return them.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.backends import InMemoryBackend
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

from .concurrency import in_foreground

if TYPE_CHECKING:
    from .layers.documents import DocumentInfo
    from .wiring import MemoryParts

__all__ = ["DocumentsMixin"]


class DocumentsMixin:
    """Documents: the semantic memory layer."""

    _parts: MemoryParts

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
        (``#`` to ``####``) and then by size (``config.document_chunk_chars``); each
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
                ``config.max_document_chars``, or ``version`` is older than the current
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
