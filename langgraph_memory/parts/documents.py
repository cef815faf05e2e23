"""``mm.documents``: semantic memory, documents added, versioned, searched and removed,
and the vector stores you already keep, read at query time.

A document is split by its Markdown headings into chunks that cite their section
(:mod:`~langgraph_memory.layers.knowledge.documents`); the background worker embeds
them; ``mm.search(..., layers=["document"])``, ``build_context`` and
``MemoryRetriever`` return them. A collection in langchain-postgres' ``PGVectorStore``
(or any LangChain ``VectorStore``) is attached instead of copied: it is read where it
is on every query (:mod:`~langgraph_memory.read.external`), ranked with the document
chunks, cited and counted against the token budget.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.documents.add(None, "# Office\\n## Wi-Fi\\nThe guest password is on the "
    ...                          "fridge.", document_id="office", version="2024.1")
    ...     mm.flush()
    ...     print(mm.search("ann", "guest wifi password", k=1, layers=["document"])[0].text)
    [doc: Office § Office > Wi-Fi, v2024.1]
    The guest password is on the fridge.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from langgraph_memory.config import WriteSection
from langgraph_memory.core.concurrency import in_foreground
from langgraph_memory.core.records import MemoryHit
from langgraph_memory.core.validation import check_content, check_positive_int
from langgraph_memory.layers.knowledge.documents import (
    DocumentChunk,
    DocumentInfo,
    owner_of,
)
from langgraph_memory.layers.knowledge.documents import (
    Documents as DocumentStore,
)
from langgraph_memory.parts.aio import AsyncPart, awaitable
from langgraph_memory.parts.lifetime import Lifetime
from langgraph_memory.read.external import DEFAULT_TIMEOUT, VectorStores
from langgraph_memory.read.pipeline import ReadPipeline
from langgraph_memory.write.worker import EmbeddingWorker

if TYPE_CHECKING:
    from langchain_core.vectorstores import VectorStore

__all__ = ["Documents", "DocumentChunk", "DocumentInfo", "AsyncDocuments"]


class Documents:
    """Documents and attached vector stores: the semantic layer.

    Args:
        store: The documents' chunks and versions.
        sources: The vector stores attached as knowledge.
        read: The read path (searches one owner's documents).
        worker: The background worker (woken to embed new chunks).
        limits: The query length limit.
        lifetime: The manager's open/closed state.
    """

    def __init__(
        self,
        store: DocumentStore,
        sources: VectorStores,
        read: ReadPipeline,
        worker: EmbeddingWorker,
        limits: WriteSection,
        lifetime: Lifetime,
    ) -> None:
        self._store = store
        self._sources = sources
        self._read = read
        self._worker = worker
        self._limits = limits
        self._life = lifetime

    @in_foreground
    def add(
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
        (``#`` to ``####``) and then by size (``write.document_chunk_chars``); each chunk
        keeps its heading path and is cited as ``[doc: Title § Heading > Subheading,
        v1.2]``. The background worker embeds the chunks (``flush()`` waits for it). A
        new version archives the previous one's chunks: they are kept and found only on
        request (``filter={"status": "archived"}`` or a ``version``).

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
                ``write.max_document_chars``, or ``version`` is older than the current
                one (or is the current one with other text). Nothing is stored then.
            SensitiveContentError: When the sensitivity policy refuses what it found.

        Example:
            >>> from pathlib import Path
            >>> mm.documents.add(None, Path("handbook.md"), version="1.2")  # doctest: +SKIP
            >>> mm.documents.add("ann", loader.load(), document_id="notes")  # doctest: +SKIP
        """
        self._life.check()
        info = self._store.add(
            user_id, source, document_id=document_id, version=version, metadata=metadata
        )
        self._worker.notify()  # embed the new chunks now
        return info

    def remove(self, user_id: str | None, document_id: str) -> int:
        """Remove a document: every version's chunks, their index entries and vectors.

        Args:
            user_id: Whose document (``None``: shared knowledge).
            document_id: Its id.

        Returns:
            How many chunks were removed (0 for an unknown document).
        """
        self._life.check()
        return self._store.remove(user_id, document_id)

    def list(self, user_id: str | None) -> builtins.list[DocumentInfo]:
        """The user's own documents (``None``: shared knowledge), oldest first.

        Example:
            >>> docs = mm.documents.list(None)  # doctest: +SKIP
            >>> [(d.document_id, d.version, d.chunks) for d in docs]  # doctest: +SKIP
            [('handbook', '1.2', 48)]
        """
        self._life.check()
        return self._store.documents(user_id)

    def chunks(
        self, user_id: str | None, document_id: str, *, version: str | None = None
    ) -> builtins.list[DocumentChunk]:
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
            >>> [c.citation() for c in mm.documents.chunks(None, "office")]  # doctest: +SKIP
            ['[doc: Office § Office > Wi-Fi, v2024.1]']
        """
        self._life.check()
        if version is None:
            info = self._store.info(user_id, document_id)
            if info is None:
                return []
            version = info.version
        return self._store.chunks(user_id, document_id, version=version)

    def search(
        self,
        user_id: str | None,
        query: str,
        k: int = 10,
        *,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - as search's
    ) -> builtins.list[MemoryHit]:
        """Search one owner's documents only: a user's own, or (``None``) shared
        knowledge. ``mm.search(user_id, query, layers=["document"])`` searches both (and
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
            >>> hits = mm.documents.search(None, "guest wifi", k=3)  # doctest: +SKIP
        """
        self._life.check()
        owner = owner_of(user_id)
        check_content(query, self._limits.max_content_chars, "query")
        check_positive_int(k, "k")
        return self._read.document_hits(owner, query, k, filter)

    def attach(
        self,
        user_id: str | None,
        store: VectorStore,
        *,
        name: str,
        k: int = 4,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - LangChain's name
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> None:
        """Read a vector store you already keep as knowledge, at query time (no copy).

        Meant for a langchain-postgres ``PGVectorStore`` (or ``PGVector``) whose
        collection holds your documents; any LangChain ``VectorStore`` works. On each
        ``search`` (``document`` layer) and ``build_context`` the store is asked for its
        ``k`` closest passages (``similarity_search_with_relevance_scores``, or the
        async twin's ``asimilarity_search_with_relevance_scores``) while the memory's
        own retrieval runs; they are ranked together with the document chunks (terms
        and the memory's embedder, in process: nothing is stored) and cited as ``[doc:
        <title or source> § page <page>, via <name>]``, with ``vs:<name>:<id>`` and
        ``doc:<source>`` in their ``source_ids``. A store that raises or does not answer
        within ``timeout`` is left out of that query: logged, noted in the context's
        ``notes`` (``explain=True`` shows them) and counted in ``stats()``.
        Attachments live in this process (a store holds live connections): attach
        again after a restart. Attaching a name again replaces the store.

        Args:
            user_id: Whose knowledge; ``None`` attaches it for every user of this memory.
            store: The vector store, e.g. ``PGVectorStore.create_sync(engine,
                embeddings, "handbook")``.
            name: Its name in citations, explanations and ``stats()``.
            k: Passages asked per query.
            filter: The store's metadata filter for every query (its own syntax, e.g.
                ``{"team": "support"}``).
            timeout: Seconds the store has to answer (``None``: no limit).

        Raises:
            TypeError: When ``store`` is no LangChain ``VectorStore`` or an argument
                has the wrong type.
            ValueError: When ``user_id`` or ``name`` is no valid id, or ``k`` or
                ``timeout`` is not positive.

        Example:
            >>> store = PGVectorStore.create_sync(engine, embeddings, "handbook")  # doctest: +SKIP
            >>> mm.documents.attach(None, store, name="handbook")  # doctest: +SKIP
        """
        self._life.check()
        self._sources.attach(user_id, store, name=name, k=k, filter=filter, timeout=timeout)

    def detach(self, user_id: str | None, name: str) -> bool:
        """Stop reading an attached vector store (the store itself is left as it is).

        Args:
            user_id: Whose attachment (``None``: a shared one).
            name: Its name.

        Returns:
            Whether one was attached under ``name``.
        """
        self._life.check()
        return self._sources.detach(user_id, name)

    def attached(self, user_id: str | None) -> builtins.list[str]:
        """The names of the vector stores attached for ``user_id`` alone (``None``: the
        shared ones), sorted; a user reads both."""
        self._life.check()
        return self._sources.names(user_id)


class AsyncDocuments(AsyncPart[Documents]):
    """Awaitable ``mm.documents`` (see
    :class:`~langgraph_memory.parts.documents.Documents`)."""

    add = awaitable(Documents.add)
    remove = awaitable(Documents.remove)
    list = awaitable(Documents.list)
    chunks = awaitable(Documents.chunks)
    search = awaitable(Documents.search)
    attach = awaitable(Documents.attach)
    detach = awaitable(Documents.detach)
    attached = awaitable(Documents.attached)
