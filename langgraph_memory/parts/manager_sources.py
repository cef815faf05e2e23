"""Vector stores the user already keeps, attached as knowledge (a mixin of
:class:`~langgraph_memory.MemoryManager`), and the async read twins that await them.

A collection in langchain-postgres' ``PGVectorStore`` (or its older ``PGVector``, or any LangChain
``VectorStore``) is read where it is, at query time: nothing is copied into the memory. ``search``
and ``build_context`` rank its passages with the document chunks (the ``document`` layer; context
items of layer ``chunk``), cite them and count them against the token budget; a store that fails is
left out of that query, logged, noted in ``MemoryContext.notes`` and counted in ``stats()`` (see
:mod:`~langgraph_memory.read.external`).

``asearch`` and ``abuild_context`` live here because they differ from a plain
``asyncio.to_thread`` by the attached stores alone: their async methods are awaited on
the caller's event loop while the read runs on a worker thread.

Example:
    >>> from langchain_core.documents import Document
    >>> from langchain_core.vectorstores import InMemoryVectorStore
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> store = InMemoryVectorStore(HashingEmbeddings())
    >>> _ = store.add_documents([Document("Badges are collected at reception.",
    ...                                   metadata={"source": "office.md"})])
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     mm.attach_vector_store(None, store, name="handbook")
    ...     print(mm.search("ann", "where are badges collected", k=1)[0].text)
    [doc: office.md, via handbook]
    Badges are collected at reception.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from langgraph_memory.core.validation import check_layers
from langgraph_memory.read.external import DEFAULT_TIMEOUT

if TYPE_CHECKING:
    from langchain_core.vectorstores import VectorStore

    from langgraph_memory.core.context import MemoryContext
    from langgraph_memory.core.records import MemoryHit, SearchLayer
    from langgraph_memory.parts.assembly import MemoryParts

__all__ = ["VectorStoresMixin"]


class _Reads(Protocol):
    """The manager's own reads, which the async twins run on a worker thread."""

    _parts: MemoryParts

    @property
    def search(self) -> Callable[..., list[MemoryHit]]: ...

    @property
    def build_context(self) -> Callable[..., MemoryContext]: ...


class VectorStoresMixin:
    """Vector stores attached as knowledge; ``asearch`` and ``abuild_context``."""

    _parts: MemoryParts

    def _check_open(self) -> None:
        """Raise when the manager is closed (the manager's own check)."""

    def attach_vector_store(
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
            >>> from langchain_postgres import PGEngine, PGVectorStore  # doctest: +SKIP
            >>> engine = PGEngine.from_connection_string(  # doctest: +SKIP
            ...     "postgresql+psycopg://app@db/kb")
            >>> store = PGVectorStore.create_sync(engine, embeddings, "handbook")  # doctest: +SKIP
            >>> mm.attach_vector_store(None, store, name="handbook")  # doctest: +SKIP
        """
        self._check_open()
        self._parts.sources.attach(user_id, store, name=name, k=k, filter=filter, timeout=timeout)

    def detach_vector_store(self, user_id: str | None, name: str) -> bool:
        """Stop reading an attached vector store (the store itself is left as it is).

        Args:
            user_id: Whose attachment (``None``: a shared one).
            name: Its name.

        Returns:
            Whether one was attached under ``name``.
        """
        self._check_open()
        return self._parts.sources.detach(user_id, name)

    def vector_stores(self, user_id: str | None) -> list[str]:
        """The names of the vector stores attached for ``user_id`` alone (``None``: the
        shared ones), sorted; a user reads both."""
        self._check_open()
        return self._parts.sources.names(user_id)

    async def aattach_vector_store(
        self,
        user_id: str | None,
        store: VectorStore,
        *,
        name: str,
        k: int = 4,
        filter: Mapping[str, Any] | None = None,  # noqa: A002
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> None:
        """Async :meth:`~langgraph_memory.MemoryManager.attach_vector_store` (no I/O)."""
        self.attach_vector_store(user_id, store, name=name, k=k, filter=filter, timeout=timeout)

    async def adetach_vector_store(self, user_id: str | None, name: str) -> bool:
        """Async :meth:`~langgraph_memory.MemoryManager.detach_vector_store` (no I/O)."""
        return self.detach_vector_store(user_id, name)

    async def avector_stores(self, user_id: str | None) -> list[str]:
        """Async :meth:`~langgraph_memory.MemoryManager.vector_stores` (no I/O)."""
        return self.vector_stores(user_id)

    # -- the async read twins -------------------------------------------------------------
    async def asearch(
        self: _Reads,
        user_id: str,
        query: str,
        k: int = 10,
        layers: Sequence[SearchLayer] | None = None,
        filter: Mapping[str, Any] | None = None,  # noqa: A002
        agent_id: str | None = None,
    ) -> list[MemoryHit]:
        """Async :meth:`~langgraph_memory.MemoryManager.search` (attached vector stores
        are awaited on this loop)."""
        args = (user_id, query, k, layers, filter, agent_id)
        if layers is not None and "document" not in check_layers(layers):  # or an alias
            return await asyncio.to_thread(self.search, *args)
        async with self._parts.sources.prefetch(user_id, query):
            return await asyncio.to_thread(self.search, *args)

    async def abuild_context(
        self: _Reads,
        user_id: str,
        session_id: str,
        query: str,
        token_budget: int | None = None,
        *,
        explain: bool = False,
        filter: Mapping[str, Any] | None = None,  # noqa: A002
        scope: str | None = None,
        agent_id: str | None = None,
        shown_ids: Collection[str] | None = None,
    ) -> MemoryContext:
        """Async :meth:`~langgraph_memory.MemoryManager.build_context` (attached vector
        stores are awaited on this loop)."""
        async with self._parts.sources.prefetch(user_id, query):
            return await asyncio.to_thread(
                self.build_context,
                user_id,
                session_id,
                query,
                token_budget,
                explain=explain,
                filter=filter,
                scope=scope,
                agent_id=agent_id,
                shown_ids=shown_ids,
            )
