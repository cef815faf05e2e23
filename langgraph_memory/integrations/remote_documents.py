"""The parts of :class:`~langgraph_memory.RemoteMemory` that mirror the manager's
``embeddings``, ``maintenance`` and ``documents`` over HTTP (and the awaitable documents).

Example:
    >>> with RemoteMemory(url, api_key=key) as mem:  # doctest: +SKIP
    ...     mem.embeddings.embed_query("tea")[:2]
    ...     mem.documents.list("alice")
"""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from langgraph_memory.core.records import MemoryHit
from langgraph_memory.integrations.remote_admin import RemoteMaintenance as AdminMaintenance
from langgraph_memory.integrations.remote_asks import Asks, asend_ask, send_ask
from langgraph_memory.integrations.remote_calls import AsyncSender, Labels, Sender
from langgraph_memory.parts.documents import DocumentChunk, DocumentInfo


class RemoteEmbeddings(Embeddings):
    """``mm.embeddings`` over HTTP: the service's model embeds (the client loads none).

    Example:
        >>> mem.embeddings.embed_query("tea")[:2]  # doctest: +SKIP
        [0.013, -0.094]
    """

    def __init__(self, memory: Sender) -> None:
        self._m = memory

    def embed_array(self, texts: Sequence[str], *, persist: bool = True) -> np.ndarray:
        """Embed texts into a float32 matrix, one row each (``CachedEmbeddings.embed_array``)."""
        rows = [send_ask(self._m, ask) for ask in Asks.embed(texts, persist)]
        return np.concatenate(rows) if rows else np.zeros((0, 0), dtype=np.float32)

    def embed_documents(self, texts: builtins.list[str]) -> builtins.list[builtins.list[float]]:
        """LangChain's ``embed_documents``."""
        return [row.tolist() for row in self.embed_array(texts)]

    def embed_query(self, text: str) -> builtins.list[float]:
        """LangChain's ``embed_query`` (not kept in the service's cache)."""
        return [float(x) for x in self.embed_array([text], persist=False)[0]]

    async def aembed_documents(
        self, texts: builtins.list[str]
    ) -> builtins.list[builtins.list[float]]:
        """LangChain's ``aembed_documents`` (the sync client's requests, on a thread)."""
        return await asyncio.to_thread(self.embed_documents, texts)

    async def aembed_query(self, text: str) -> builtins.list[float]:
        """LangChain's ``aembed_query`` (on a thread)."""
        return await asyncio.to_thread(self.embed_query, text)


class RemoteMaintenance(AdminMaintenance):
    """``mm.maintenance`` over HTTP: ``redact`` (the client's sensitivity gate, run
    locally), ``users`` (the tenant's users), and the admin key's calls (``verify``,
    ``failed``, ``retry_failed``, ``forget``, ``consolidate``, ``reflect``)."""

    def __init__(self, memory: Sender) -> None:
        super().__init__(memory.request)
        self._labels = Labels(memory.config)

    def redact(self, value: Any, *, field: str = "value") -> Any:
        """``value`` through the sensitivity gate (``mm.maintenance.redact``).

        Raises:
            SensitiveContentError: When the policy refuses what it found.
        """
        return self._labels.redact(value, field=field)


class RemoteDocuments:
    """``mm.documents`` over HTTP, the user's own documents only: the service keeps no
    shared knowledge for a tenant, so ``user_id=None`` reads as empty and cannot write."""

    def __init__(self, memory: Sender) -> None:
        self._m = memory

    def add(
        self,
        user_id: str,
        text: str,
        *,
        document_id: str | None = None,
        version: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> DocumentInfo:
        """Add a document (or a new version) of the user's (``mm.documents.add``)."""
        ask = Asks.add_document(user_id, text, document_id, version, metadata)
        out: DocumentInfo = send_ask(self._m, ask)
        return out

    def remove(self, user_id: str, document_id: str) -> int:
        """Remove a document, every version; chunks removed (0: none)."""
        return int(send_ask(self._m, Asks.remove_document(user_id, document_id)))

    def list(self, user_id: str | None) -> builtins.list[DocumentInfo]:
        """The user's documents, oldest first (``None``: none)."""
        out: builtins.list[DocumentInfo] = (
            [] if user_id is None else send_ask(self._m, Asks.documents(user_id))
        )
        return out

    def chunks(
        self, user_id: str | None, document_id: str, *, version: str | None = None
    ) -> builtins.list[DocumentChunk]:
        """A document's chunks in order (empty for an unknown document or version)."""
        if user_id is None:
            return []
        out: builtins.list[DocumentChunk] = send_ask(
            self._m, Asks.chunks(user_id, document_id, version)
        )
        return out

    def search(
        self,
        user_id: str | None,
        query: str,
        k: int = 10,
        *,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - the manager's name
    ) -> builtins.list[MemoryHit]:
        """Search the user's own documents (``mm.documents.search``)."""
        if user_id is None:
            return []
        out: builtins.list[MemoryHit] = send_ask(
            self._m, Asks.search_documents(user_id, query, k, filter)
        )
        return out


class AsyncRemoteDocuments:
    """:class:`RemoteDocuments`, awaited."""

    def __init__(self, memory: AsyncSender) -> None:
        self._m = memory

    async def add(
        self,
        user_id: str,
        text: str,
        *,
        document_id: str | None = None,
        version: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> DocumentInfo:
        """:meth:`RemoteDocuments.add`, awaited."""
        ask = Asks.add_document(user_id, text, document_id, version, metadata)
        out: DocumentInfo = await asend_ask(self._m, ask)
        return out

    async def remove(self, user_id: str, document_id: str) -> int:
        """:meth:`RemoteDocuments.remove`, awaited."""
        return int(await asend_ask(self._m, Asks.remove_document(user_id, document_id)))

    async def list(self, user_id: str | None) -> builtins.list[DocumentInfo]:
        """:meth:`RemoteDocuments.list`, awaited."""
        if user_id is None:
            return []
        out: builtins.list[DocumentInfo] = await asend_ask(self._m, Asks.documents(user_id))
        return out

    async def chunks(
        self, user_id: str | None, document_id: str, *, version: str | None = None
    ) -> builtins.list[DocumentChunk]:
        """:meth:`RemoteDocuments.chunks`, awaited."""
        if user_id is None:
            return []
        out: builtins.list[DocumentChunk] = await asend_ask(
            self._m, Asks.chunks(user_id, document_id, version)
        )
        return out

    async def search(
        self,
        user_id: str | None,
        query: str,
        k: int = 10,
        *,
        filter: Mapping[str, Any] | None = None,  # noqa: A002
    ) -> builtins.list[MemoryHit]:
        """:meth:`RemoteDocuments.search`, awaited."""
        if user_id is None:
            return []
        out: builtins.list[MemoryHit] = await asend_ask(
            self._m, Asks.search_documents(user_id, query, k, filter)
        )
        return out
