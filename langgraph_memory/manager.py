"""The facade: :class:`MemoryManager` writes, searches and builds context.

It holds no pipeline logic: every call is validated and handed to the write pipeline
(:mod:`~langgraph_memory.write.pipeline`), the read pipeline
(:mod:`~langgraph_memory.read.pipeline`) or a layer, all wired once by
:func:`~langgraph_memory.parts.assembly.wire`. Working memory, episodes and maintenance are in
:mod:`~langgraph_memory.parts.lifecycle`, store items and core blocks in
:mod:`~langgraph_memory.parts.manager_items`, documents in
:mod:`~langgraph_memory.parts.manager_documents`, vector stores attached as knowledge (with
``asearch`` and ``abuild_context``, which await them) in
:mod:`~langgraph_memory.parts.manager_sources`, deletion, statistics and quarantined messages in
:mod:`~langgraph_memory.parts.manager_housekeeping`, and every other method's async twin in
:mod:`~langgraph_memory.parts.manager_async`.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.add_turn("alice", "s1", user="I moved to Lyon last spring.",
    ...                     assistant="Lyon is lovely in spring!")
    ...     mm.flush()
    ...     print(mm.search("alice", "Where does Alice live?", k=1)[0].text)
    I moved to Lyon last spring.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.embeddings import Embeddings

from langgraph_memory.config import MemoryConfig
from langgraph_memory.core.concurrency import in_foreground
from langgraph_memory.core.context import MemoryContext
from langgraph_memory.core.records import MemoryHit, SearchLayer
from langgraph_memory.core.validation import (
    LAYERS,
    check_content,
    check_id,
    check_layers,
    check_positive_int,
)
from langgraph_memory.embeddings import CachedEmbeddings
from langgraph_memory.extraction.entities import load_chinese
from langgraph_memory.extraction.extractor import load_rules
from langgraph_memory.parts.assembly import open_backend, wire
from langgraph_memory.parts.lifecycle import LifecycleMixin
from langgraph_memory.parts.manager_async import AsyncMixin
from langgraph_memory.parts.manager_documents import DocumentsMixin
from langgraph_memory.parts.manager_housekeeping import HousekeepingMixin
from langgraph_memory.parts.manager_items import ItemsMixin
from langgraph_memory.parts.manager_sources import VectorStoresMixin
from langgraph_memory.read.rerank import Reranker
from langgraph_memory.storage.base import MemoryBackend

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["MemoryManager", "DEFAULT_PATH", "LAYERS"]

#: Where the default SQLite memory lives (override with ``LANGGRAPH_MEMORY_PATH``).
DEFAULT_PATH = ".langgraph_memory"


class MemoryManager(
    LifecycleMixin, HousekeepingMixin, ItemsMixin, DocumentsMixin, VectorStoresMixin, AsyncMixin
):
    """A user-scoped, layered memory for agents.

    Args:
        path: Directory of the default SQLite store (default ``./.langgraph_memory``
            or ``$LANGGRAPH_MEMORY_PATH``). Ignored when ``backend`` is given.
        embeddings: Any LangChain ``Embeddings``; default: the packaged
            all-MiniLM-L6-v2, loaded in the background.
        llm: An optional LangChain chat model (extraction, summaries, consolidation;
            never required).
        config: Parameters; :class:`MemoryConfig` defaults when omitted.
        backend: A storage backend instance (e.g. ``InMemoryBackend()``); it must offer
            vectors, posting lists and records (every bundled backend does).
        reranker: An optional cross-encoder for the best retrieved candidates.
        encryption_key: Encrypt the default SQLite store with SQLCipher under this
            passphrase (default ``$LANGGRAPH_MEMORY_KEY``; ``pip install
            'langgraph-memory[encrypt]'``). Opening it again needs the same key.

    Raises:
        TypeError: When an argument has the wrong type, or the backend lacks a
            capability the memory needs.

    Example:
        >>> mm = MemoryManager("/tmp/lgm-doc")  # doctest: +SKIP
        >>> mm.add_message("u1", "s1", "user", "我对花生过敏")  # doctest: +SKIP
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        embeddings: Embeddings | None = None,
        llm: BaseChatModel | None = None,
        config: MemoryConfig | None = None,
        backend: MemoryBackend | None = None,
        reranker: Reranker | None = None,
        encryption_key: str | None = None,
    ) -> None:
        backend = open_backend(
            path, backend, config, embeddings, reranker, DEFAULT_PATH, encryption_key
        )
        self.config = config or MemoryConfig()
        self.llm = llm
        #: The SQLite file, when the store is one.
        self.path: Path | None = getattr(backend, "file", None)
        self._closed = False
        parts = wire(backend, self.config, embeddings, llm, reranker)
        self._parts = parts
        self._backend, self._write, self._read = parts.storage, parts.write, parts.read
        self._hierarchy, self._longterm, self._working = (
            parts.hierarchy,
            parts.longterm,
            parts.working,
        )
        self._forget, self._consolidator, self._items = (
            parts.forget,
            parts.consolidator,
            parts.items,
        )

    @classmethod
    def from_conn_string(
        cls,
        url: str,
        *,
        embeddings: Embeddings | None = None,
        llm: BaseChatModel | None = None,
        config: MemoryConfig | None = None,
        **backend_kw: Any,
    ) -> MemoryManager:
        """A manager over PostgreSQL + pgvector (``pip install "langgraph-memory[postgres]"``).

        Migrations run on open (``setup()`` is idempotent). Use it plainly, in a ``with``
        or in an ``async with``.

        Example:
            >>> url = "postgresql://u:p@db/mem"
            >>> with MemoryManager.from_conn_string(url) as mm:  # doctest: +SKIP
            ...     mm.add_message("alice", "s1", "user", "I prefer tea")

        Raises:
            ConnectionError: When the server cannot be reached (the password is never shown).
            RuntimeError: When the pgvector extension is missing.
        """
        from langgraph_memory.storage.postgres.backend import PostgresBackend

        backend = PostgresBackend.from_conn_string(url, **backend_kw)
        return cls(backend=backend, embeddings=embeddings, llm=llm, config=config)

    @property
    def embeddings(self) -> CachedEmbeddings:
        """The cached embedder (loads the model on first access)."""
        return self._write.embedder.get()

    def warm_up(self, *, chinese: bool = True) -> None:
        """Load now what the first calls would load: the embedding model, the extraction
        rules and, with ``chinese``, jieba's dictionaries (about 1.5 s together for
        Chinese text).

        Call it at startup (a server before taking requests) so the first
        ``add_message`` or ``build_context`` does not pay for the loading.

        Example:
            >>> mm.warm_up(chinese=False)  # doctest: +SKIP
        """
        self._check_open()
        self.embeddings.embed_query("warm up")
        load_rules()
        if chinese:
            load_chinese()

    # -- writing ------------------------------------------------------------------------
    @in_foreground
    def add_message(
        self,
        user_id: str,
        session_id: str,
        role: str,
        content: str,
        *,
        name: str | None = None,
        timestamp: Any = None,
        message_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Store one message; embedding and indexing by meaning happen in the background.

        Args:
            user_id: Whose memory.
            session_id: The conversation (LangGraph ``thread_id``).
            role: ``user``/``human``, ``assistant``/``ai``, ``system`` or ``tool``.
            content: The text (at most ``config.write.max_content_chars`` characters).
            name: The speaker's name.
            timestamp: When it was said: ``datetime``, epoch seconds or a date
                string (default: now).
            message_id: Your id for it (default: generated). Adding the same id
                with the same content again is a no-op.
            metadata: JSON-serialisable metadata, usable in search filters.

        Returns:
            The message id.

        Raises:
            TypeError: When an argument has the wrong type.
            ValueError: When an argument is invalid or ``message_id`` exists with
                other content. Nothing is stored then.

        Example:
            >>> mid = mm.add_message("u1", "s1", "user", "I prefer tea",  # doctest: +SKIP
            ...                      metadata={"topic": "food"})
        """
        self._check_open()
        w = self._write
        return w.store(
            w.message(user_id, session_id, role, content, name, timestamp, message_id, metadata)
        )

    @in_foreground
    def add_turn(
        self,
        user_id: str,
        session_id: str,
        *,
        user: str,
        assistant: str | None = None,
        timestamp: Any = None,
        user_name: str | None = None,
        assistant_name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[str]:
        """Store a user message and (optionally) the assistant's reply.

        Both are validated before either is stored.

        Returns:
            The ids of the stored messages.
        """
        self._check_open()
        w = self._write
        said = [("user", user, user_name)]
        if assistant is not None:
            said.append(("assistant", assistant, assistant_name))
        msgs = [
            w.message(user_id, session_id, role, text, name, timestamp, None, metadata, role)
            for role, text, name in said
        ]
        return [w.store(m) for m in msgs]

    def flush(self, timeout: float | None = None) -> None:
        """Wait until every accepted message is embedded and indexed.

        Raises:
            TimeoutError: When ``timeout`` seconds pass first.
            RuntimeError: When background embedding failed.
        """
        self._check_open()
        self._write.flush(timeout)

    # -- reading ------------------------------------------------------------------------
    @in_foreground
    def search(
        self,
        user_id: str,
        query: str,
        k: int = 10,
        layers: Sequence[SearchLayer] | None = None,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - the contract's name
        agent_id: str | None = None,
    ) -> list[MemoryHit]:
        """Hybrid search (BM25 + dense, RRF) over one user's memory.

        Each layer is ranked on its own (messages with those of the closest segments'
        pages, long-term entries by terms and meaning); the rankings are interleaved by
        reciprocal rank.

        Args:
            user_id: Whose memory; nothing of any other user is ever returned.
            query: What to look for.
            k: How many hits.
            layers: Restrict to these layers (see ``LAYERS``); default all.
            filter: Metadata filter, e.g. ``{"topic": "travel"}`` or
                ``{"timestamp": {"$gte": "2024-01-01"}}`` (messages only: with a filter
                the other layers are left out).
            agent_id: The agent asking: the traits of other agents are left out (those of
                no agent and of this one stay). ``None``: every agent's.

        Returns:
            Hits, best first, each with ``source_ids`` and ``score_parts``.
        """
        self._check_open()
        check_id(user_id, "user_id")
        agent = None if agent_id is None else check_id(agent_id, "agent_id")
        check_content(query, self.config.write.max_content_chars, "query")
        check_positive_int(k, "k")
        return self._read.search(user_id, query, k, check_layers(layers), filter, agent)

    @in_foreground
    def build_context(
        self,
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
        """Build the context for a query within a token budget.

        Packed by priority: the session's anchors (see :meth:`add_anchor`), the
        standing instructions read from the user's messages ("from now on…",
        "always…", "以后…"; up to ``config.packing.instruction_share``, the closest to the
        query first), the user profile (up to ``config.packing.profile_share``, the closest
        first; resolved in ``scope``), the task in
        progress (up to ``config.packing.working_share``), the current session's latest
        messages (up to ``config.packing.session_share``), then retrieved memories best
        first (messages with the turns around them, segment summaries, facts,
        episodes, knowledge), scored by relevance × the query route's layer
        weight × time match × recency × importance. The rendered prompt never
        exceeds the budget.

        Args:
            user_id: Whose memory.
            session_id: The current session (its latest messages ride along).
            query: The user's latest message or question.
            token_budget: Tokens available (default ``config.packing.default_token_budget``).
            explain: Make ``str(ctx)`` show why each item is there.
            filter: Metadata filter for retrieved memories.
            scope: The session's scope (a project, a topic): preferences stated for it
                beat global ones, and other scopes' stay out. ``None`` takes the
                ``"scope"`` metadata key of the session's latest message, if any.
            agent_id: The agent the context is for: the traits of other agents never
                reach it (those of no agent and of this one do). ``None``: every agent's.
            shown_ids: Ids of the messages the model reads anyway (a graph's thread):
                they are not recalled again, and their tokens go to other memories.

        Returns:
            A :class:`MemoryContext`.

        Example:
            >>> mm.add_turn("u1", "s1", user="From now on, always cite page numbers.",
            ...             assistant="Noted.")  # doctest: +SKIP
            >>> mm.flush()  # doctest: +SKIP
            >>> print(mm.build_context("u1", "s2", "How do I quote chapter 3?"))  # doctest: +SKIP
        """
        self._check_open()
        check_id(user_id, "user_id")
        check_id(session_id, "session_id")
        for value, name in ((scope, "scope"), (agent_id, "agent_id")):
            if value is not None:
                check_id(value, name)
        check_content(query, self.config.write.max_content_chars, "query")
        budget = self.config.packing.default_token_budget if token_budget is None else token_budget
        check_positive_int(budget, "token_budget")
        return self._read.build_context(
            user_id, session_id, query, budget, explain=explain, flt=filter, scope=scope,
            agent_id=agent_id, shown=frozenset(shown_ids or ()),
        )  # fmt: skip

    def close(self) -> None:
        """Stop the background worker and close the store (pending work resumes next time)."""
        if self._closed:
            return
        self._closed = True
        self._parts.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this MemoryManager is closed")

    def __enter__(self) -> MemoryManager:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> MemoryManager:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
