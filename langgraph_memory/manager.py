"""The manager: :class:`MemoryManager`, the verbs an agent calls every turn, and its parts.

An agent adds messages (or turns), searches, builds a budgeted context, flushes, deletes
and reads statistics through the manager itself; everything else is a part with a short
API of its own, each one module of :mod:`langgraph_memory.parts`:

================== =============================================================
``mm.tasks``       tasks and steps, the episodes they become, lessons, knowledge
``mm.anchors``     instructions pinned to a session or a user
``mm.profile``     preferences and feedback, facts, entities, insights, roll-ups
``mm.documents``   documents and the vector stores attached as knowledge
``mm.maintenance`` forget gate, consolidation, reflection, checks, quarantine
``mm.items``       what the graph adapters keep (store items, core blocks)
================== =============================================================

:class:`AsyncMemoryManager` is the same surface, awaitable (``mm.aio`` is the one of a
manager you have). Every call is validated and handed to the write path
(:mod:`~langgraph_memory.write.pipeline`), the read path
(:mod:`~langgraph_memory.read.pipeline`) or a layer, all built once by
:func:`~langgraph_memory.parts.assembly.wire`.

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

import asyncio
import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langgraph_memory.config import MemoryConfig
from langgraph_memory.core.concurrency import in_foreground
from langgraph_memory.core.records import MemoryHit, SearchLayer
from langgraph_memory.core.validation import (
    LAYERS,
    check_content,
    check_id,
    check_layers,
    check_positive_int,
)
from langgraph_memory.parts.aio import awaitable

# The parts, the storage and the models load when a manager is made, not when the
# package is imported (``from langgraph_memory import MemoryManager`` stays light).
if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings
    from langchain_core.language_models import BaseChatModel

    from langgraph_memory.core.context import MemoryContext
    from langgraph_memory.embeddings import CachedEmbeddings
    from langgraph_memory.read.rerank import Reranker
    from langgraph_memory.storage.base import MemoryBackend

__all__ = ["MemoryManager", "AsyncMemoryManager", "DEFAULT_PATH", "LAYERS"]

#: Where the default SQLite memory lives (override with ``LANGGRAPH_MEMORY_PATH``).
DEFAULT_PATH = ".langgraph_memory"

#: What to do instead of ``backup()`` on a store that has none of its own.
_NO_BACKUP = {
    "postgres": "PostgreSQL stores are backed up by the server's tools: "
    "`pg_dump --format=custom --table='lgm_*' --file=memory.dump DBNAME` (restore with "
    "`pg_restore --dbname=DBNAME memory.dump`), or the server's continuous archiving",
    "memory": "an in-memory store keeps nothing to back up; use SQLite or PostgreSQL",
    "chroma": "back up a Chroma store by copying its persist directory while no client "
    "writes (or with the Chroma server's own tools)",
    "": "this backend has no backup of its own; use the store's own tools",
}


class MemoryManager:
    """A user-scoped, layered memory for agents.

    Args:
        path: Directory of the default SQLite store (default ``./.langgraph_memory``
            or ``$LANGGRAPH_MEMORY_PATH``). Ignored when ``backend`` is given.
        embeddings: Any LangChain ``Embeddings``; default: the packaged
            all-MiniLM-L6-v2, loaded on first use.
        llm: An optional LangChain chat model (extraction, summaries, consolidation;
            never required).
        config: Parameters; :class:`~langgraph_memory.MemoryConfig` defaults when
            omitted.
        backend: A storage backend instance (e.g. ``InMemoryBackend()``); it must offer
            vectors, posting lists and records (every bundled backend does).
        reranker: An optional cross-encoder for the best retrieved candidates.
        encryption_key: Encrypt the default SQLite store with SQLCipher under this
            passphrase (default ``$LANGGRAPH_MEMORY_KEY``; ``pip install
            'langgraph-memory[encrypt]'``). Opening it again needs the same key.

    Attributes:
        tasks: :class:`~langgraph_memory.parts.tasks.Tasks`.
        anchors: :class:`~langgraph_memory.parts.anchors.Anchors`.
        profile: :class:`~langgraph_memory.parts.profile.Profile`.
        documents: :class:`~langgraph_memory.parts.documents.Documents`.
        maintenance: :class:`~langgraph_memory.parts.maintenance.Maintenance`.
        items: :class:`~langgraph_memory.parts.items.Items`.

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
        from langgraph_memory.parts.anchors import Anchors
        from langgraph_memory.parts.assembly import open_backend, wire
        from langgraph_memory.parts.documents import Documents
        from langgraph_memory.parts.maintenance import Maintenance
        from langgraph_memory.parts.profile import Profile
        from langgraph_memory.parts.tasks import Tasks

        backend = open_backend(
            path, backend, config, embeddings, reranker, DEFAULT_PATH, encryption_key
        )
        self.config = config or MemoryConfig()
        self.llm = llm
        #: The SQLite file, when the store is one.
        self.path: Path | None = getattr(backend, "file", None)
        parts = self._parts = wire(backend, self.config, embeddings, llm, reranker)
        self._life = parts.lifetime
        # Dropped without close(): the lifetime's finaliser stops the threads and closes
        # the store (the closers of close(), none of which holds the lifetime or this
        # manager, so neither the worker thread nor the finaliser keeps them alive).
        self._life.release_on_drop(parts.write.close, parts.read.close, parts.storage.close)
        self._backend, self._write, self._read = parts.storage, parts.write, parts.read
        self._longterm = parts.longterm
        self.tasks = Tasks(parts.working, parts.reflector, parts.consolidator, self._life)
        self.anchors = Anchors(parts.working, self.config.write, self._life)
        self.profile = Profile(
            parts.longterm, parts.entities, parts.reflector, parts.rollups, self._life
        )
        self.documents = Documents(
            parts.documents,
            parts.sources,
            parts.read,
            parts.write.worker,
            self.config.write,
            self._life,
        )
        self.maintenance = Maintenance(
            parts.storage,
            parts.write,
            parts.forget,
            parts.consolidator,
            parts.reflector,
            parts.gate,
            self._life,
        )
        self.items = parts.items
        self._aio: AsyncMemoryManager | None = None

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

    @property
    def aio(self) -> AsyncMemoryManager:
        """This manager's awaitable surface (one per manager, made on first access).

        Example:
            >>> ctx = await mm.aio.build_context("u1", "s1", "what do I like?")  # doctest: +SKIP
        """
        if self._aio is None:
            self._aio = AsyncMemoryManager.from_manager(self)
        return self._aio

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
        self._life.check()
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
        self._life.check()
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
        self._life.check()
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
        """Hybrid search (BM25 + dense) over one user's memory.

        Each layer is ranked on its own (messages with those of the closest segments'
        pages, long-term entries by terms and meaning); the best of each are merged by
        their relevance, one hit per source (a fact and the message it came from are
        one hit citing both, see :mod:`~langgraph_memory.read.hits`).

        Args:
            user_id: Whose memory; nothing of any other user is ever returned.
            query: What to look for.
            k: How many hits.
            layers: Restrict to these layers (see ``LAYERS``), or to hits of these
                labels (``"fact"``, ``"profile"``, ``"chunk"``...: every label a hit
                shows); default all.
            filter: Metadata filter, e.g. ``{"topic": "travel"}`` or
                ``{"timestamp": {"$gte": "2024-01-01"}}`` (messages only: with a filter
                the other layers are left out).
            agent_id: The agent asking: the traits of other agents are left out (those of
                no agent and of this one stay). ``None``: every agent's.

        Returns:
            Hits, best first, each with ``source_ids`` and ``score_parts``; ``score`` is
            a relevance in ``[0, 1]``, one scale for every layer and query (unrelated
            memories near 0, so a threshold works).
        """
        self._life.check()
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

        Packed by priority: the session's anchors (``mm.anchors.add``), the
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
        self._life.check()
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

    # -- housekeeping ---------------------------------------------------------------------
    def delete(self, user_id: str, message_id: str | Sequence[str]) -> int:
        """Delete one message (or several) and everything derived from it.

        Gone with it: its text, terms, vector and cached embedding; its place in the
        session's pages and topic chains and in the mid-term segments (the summaries
        made from it are made again without it); the profile entries, facts, standing
        instructions, contradiction links, roll-ups, entity mentions and insights read
        from it (an entry another message also supports stays, citing that one, with
        any quote of the deleted message dropped). Search then ranks as if it had never
        been written. On SQLite the file is rebuilt afterwards, so no copy of it
        remains on disk (this takes a while on a large store: delete several at once).

        Args:
            user_id: Whose message.
            message_id: Its id, or a list of ids. Unknown ids are ignored.

        Returns:
            How many messages were deleted.

        Raises:
            TimeoutError: When another process held the store's writer lease for a
                minute (nothing was deleted).

        Example:
            >>> mid = mm.add_message("u1", "s1", "user", "My PIN hint: the cat")  # doctest: +SKIP
            >>> mm.delete("u1", mid)  # doctest: +SKIP
            1
        """
        self._life.check()
        check_id(user_id, "user_id")
        if isinstance(message_id, str):
            ids = [check_id(message_id, "message_id")]
        elif isinstance(message_id, Sequence):
            ids = [check_id(m, "message_id") for m in message_id]
        else:
            raise TypeError(
                f"message_id must be a str or a list of str, got {type(message_id).__name__}"
            )
        return len(self._write.delete_messages(user_id, ids))

    def delete_user(self, user_id: str) -> int:
        """Delete every trace of a user: messages, terms, vectors, records (documents
        too), cached embeddings, the vector stores attached for them alone (detached; the
        stores themselves are not touched), and the
        :class:`~langgraph_memory.integrations.graph.store.MemoryStore` items the user owns
        (by ``WriteSection.store_owner_label``: ``("memories", user_id)``), all in one
        transaction. Items of other users, and shared items, are never touched, whatever
        labels their namespaces hold.

        Returns:
            The number of messages deleted.

        Raises:
            TimeoutError: When another process held the store's writer lease for a minute
                (nothing was deleted).
        """
        self._life.check()
        check_id(user_id, "user_id")
        profile, docs = self._parts.long_term_docs.long_term_docs(user_id)
        texts = [d.text for d in profile + docs] + self._parts.documents.texts(user_id)
        n = self._write.delete_user(user_id, texts)
        self._read.speakers.forget(user_id)
        self._parts.sources.detach_user(user_id)
        return n

    def stats(self, user_id: str | None = None) -> dict[str, Any]:
        """Counts for one user (or the whole store): messages, embedded, pending, sessions,
        per layer; for one user also the hierarchy and long-term memory in detail; with
        vector stores attached, ``"vector_stores"``: per store it reads, whether it is
        shared and its searches, failures and last error."""
        self._life.check()
        if user_id is not None:
            check_id(user_id, "user_id")
        from langgraph_memory.read.stats import memory_stats

        out = memory_stats(self._backend, self._parts.hierarchy, self._longterm, user_id)
        stores = self._parts.sources.stats(user_id)
        if stores:
            out["vector_stores"] = stores
        return out

    def setup(self) -> None:
        """Run the store's pending schema migrations (idempotent, safe from several processes).

        A manager already migrates when it opens its store; ``setup()`` is there for the
        same convention as LangGraph's ``PostgresStore.setup()`` and
        ``PostgresSaver.setup()`` (e.g. a deploy step that migrates before workers
        start). Stores without a schema (in-memory, Chroma) have nothing to do.

        Example:
            >>> with MemoryManager.from_conn_string(url) as mm:  # doctest: +SKIP
            ...     mm.setup()
        """
        self._life.check()
        migrate = getattr(self._backend, "setup", None)
        if callable(migrate):
            migrate()

    def backup(self, dest: str | os.PathLike[str]) -> Path:
        """A consistent copy of the store, taken while it is in use (SQLite's online
        backup API), checked (``PRAGMA quick_check``), as one self-contained file.

        Args:
            dest: The copy's file (``.sqlite3``), or a directory to write
                ``memory.sqlite3`` into.

        Returns:
            The copy's path. Open it with ``MemoryManager(path)``; check one with
            ``langgraph-memory --path DIR verify``.

        Raises:
            FileExistsError: When the destination file exists.
            NotImplementedError: When the store has no backup of its own (PostgreSQL:
                use ``pg_dump``; the message says how).

        Example:
            >>> mm.backup("/backups/memory-2026-11-25.sqlite3")  # doctest: +SKIP
        """
        self._life.check()
        from langgraph_memory.storage.capabilities import Backup

        if not isinstance(self._backend, Backup):
            raise NotImplementedError(_NO_BACKUP.get(self._backend.name, _NO_BACKUP[""]))
        return self._backend.backup(dest)

    def close(self) -> None:
        """Stop the background worker and close the store (pending work resumes next time).

        Closing twice is a no-op. A manager dropped without ``close()`` is closed when
        it is garbage collected (it and every part of it, ``mm.tasks`` and its kin,
        unreachable); accepted messages are in the store already, and are embedded
        the next time it is opened.
        """
        if self._life.closed:
            return
        self._parts.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._life.closed

    def __enter__(self) -> MemoryManager:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> MemoryManager:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.to_thread(self.close)


class AsyncMemoryManager:
    """The same surface as :class:`MemoryManager`, awaitable.

    Every method awaits its :class:`MemoryManager` twin on a worker thread (the same
    parameters; see :func:`~langgraph_memory.parts.aio.awaitable`), so an event loop
    never blocks on storage or on the model; :meth:`search` and :meth:`build_context`
    also await the attached vector stores' async searches on the caller's loop. The
    parts are awaitable too (``await amm.tasks.start(...)``).

    Args:
        path, embeddings, llm, config, backend, reranker, encryption_key: As
            :class:`MemoryManager`'s, which this one opens.

    Attributes:
        sync: The :class:`MemoryManager` it awaits.

    Example:
        >>> import asyncio
        >>> from langgraph_memory.storage import InMemoryBackend
        >>> from langgraph_memory.embeddings import HashingEmbeddings
        >>> async def main():
        ...     async with AsyncMemoryManager(backend=InMemoryBackend(),
        ...                                   embeddings=HashingEmbeddings()) as amm:
        ...         await amm.add_message("ann", "s1", "user", "I like tea")
        ...         await amm.flush()
        ...         tid = await amm.tasks.start("ann", "s1", "brew tea")
        ...         return (await amm.search("ann", "tea", k=1))[0].text, tid != ""
        >>> asyncio.run(main())
        ('I like tea', True)
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
        manager = MemoryManager(
            path,
            embeddings=embeddings,
            llm=llm,
            config=config,
            backend=backend,
            reranker=reranker,
            encryption_key=encryption_key,
        )
        self._bind(manager)

    def _bind(self, manager: MemoryManager) -> None:
        from langgraph_memory.parts.anchors import AsyncAnchors
        from langgraph_memory.parts.documents import AsyncDocuments
        from langgraph_memory.parts.items import AsyncItems
        from langgraph_memory.parts.maintenance import AsyncMaintenance
        from langgraph_memory.parts.profile import AsyncProfile
        from langgraph_memory.parts.tasks import AsyncTasks

        self.sync = manager
        self.tasks = AsyncTasks(manager.tasks)
        self.anchors = AsyncAnchors(manager.anchors)
        self.profile = AsyncProfile(manager.profile)
        self.documents = AsyncDocuments(manager.documents)
        self.maintenance = AsyncMaintenance(manager.maintenance)
        self.items = AsyncItems(manager.items)

    @classmethod
    def from_manager(cls, manager: MemoryManager) -> AsyncMemoryManager:
        """The awaitable surface of a manager you have (what ``manager.aio`` returns)."""
        if not isinstance(manager, MemoryManager):
            raise TypeError(f"expected a MemoryManager, got {type(manager).__name__}")
        amm = cls.__new__(cls)
        amm._bind(manager)
        return amm

    @classmethod
    def from_conn_string(
        cls,
        url: str,
        *,
        embeddings: Embeddings | None = None,
        llm: BaseChatModel | None = None,
        config: MemoryConfig | None = None,
        **backend_kw: Any,
    ) -> AsyncMemoryManager:
        """An async manager over PostgreSQL + pgvector (see
        :meth:`MemoryManager.from_conn_string`); use it in an ``async with``."""
        manager = MemoryManager.from_conn_string(
            url, embeddings=embeddings, llm=llm, config=config, **backend_kw
        )
        return cls.from_manager(manager)

    @property
    def config(self) -> MemoryConfig:
        """The manager's config."""
        return self.sync.config

    @property
    def closed(self) -> bool:
        """Whether the manager was closed."""
        return self.sync.closed

    add_message = awaitable(MemoryManager.add_message)
    add_turn = awaitable(MemoryManager.add_turn)
    flush = awaitable(MemoryManager.flush)
    delete = awaitable(MemoryManager.delete)
    delete_user = awaitable(MemoryManager.delete_user)
    stats = awaitable(MemoryManager.stats)
    setup = awaitable(MemoryManager.setup)
    backup = awaitable(MemoryManager.backup)
    close = awaitable(MemoryManager.close)

    async def search(
        self,
        user_id: str,
        query: str,
        k: int = 10,
        layers: Sequence[SearchLayer] | None = None,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - the contract's name
        agent_id: str | None = None,
    ) -> list[MemoryHit]:
        """:meth:`MemoryManager.search`, with the attached vector stores awaited on this
        loop (their ``asimilarity_search_with_relevance_scores``)."""
        args = (user_id, query, k, layers, filter, agent_id)
        mm = self.sync
        if layers is not None and "document" not in check_layers(layers):  # or an alias
            return await asyncio.to_thread(mm.search, *args)
        async with mm._parts.sources.prefetch(user_id, query):
            return await asyncio.to_thread(mm.search, *args)

    async def build_context(
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
        """:meth:`MemoryManager.build_context`, with the attached vector stores awaited
        on this loop."""
        mm = self.sync
        async with mm._parts.sources.prefetch(user_id, query):
            return await asyncio.to_thread(
                mm.build_context,
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

    async def __aenter__(self) -> AsyncMemoryManager:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
