"""The facade: :class:`MemoryManager` writes, searches and builds context.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.backends import InMemoryBackend
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
import logging
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from .backends.base import MemoryBackend
from .backends.sqlite import SQLiteBackend
from .config import MemoryConfig
from .context import MemoryContext
from .embeddings import CachedEmbeddings, MiniLMEmbeddings, default_embeddings, model_id
from .layers.hierarchy import Hierarchy
from .layers.longterm import LongTermConfig, LongTermMemory
from .layers.longterm_read import LongTermDoc
from .layers.midterm import Segment
from .layers.promotion import write_atoms
from .lifecycle import LifecycleMixin, make_lifecycle
from .reading import ContextBuilder
from .records import MemoryHit, Message
from .retrieval.hybrid import HybridRetriever, index_text
from .retrieval.rerank import Reranker
from .tokens import tokenize
from .validation import (
    check_content,
    check_id,
    check_metadata,
    check_positive_int,
    check_role,
    new_message_id,
    parse_timestamp,
)
from .worker import EmbeddingWorker, in_foreground
from .working import Anchor, TaskState
from .write.extraction_entities import load_chinese
from .write.sensitivity import SensitivityFilter

__all__ = ["MemoryManager", "DEFAULT_PATH", "LAYERS"]

log = logging.getLogger(__name__)

#: Where the default SQLite memory lives (override with ``LANGGRAPH_MEMORY_PATH``).
DEFAULT_PATH = ".langgraph_memory"
#: Layers that ``search(layers=...)`` accepts: stored messages (every page, whatever
#: layer holds it, stays searchable as a message), mid-term segment summaries, and
#: long-term entries (profile, facts, traits, episodes, knowledge). Each layer is
#: ranked on its own (messages with those of the closest segments' pages, long-term
#: entries by terms and meaning); the rankings are interleaved by reciprocal rank.
LAYERS = ("message", "mid_term", "long_term")


class MemoryManager(LifecycleMixin):
    """A user-scoped, layered memory for agents.

    Args:
        path: Directory of the default SQLite store (default ``./.langgraph_memory``
            or ``$LANGGRAPH_MEMORY_PATH``). Ignored when ``backend`` is given.
        embeddings: Any LangChain ``Embeddings``; default: the packaged
            all-MiniLM-L6-v2, loaded in the background.
        llm: An optional LangChain chat model (used by later layers; never required).
        config: Parameters; :class:`MemoryConfig` defaults when omitted.
        backend: A storage backend instance (e.g. ``InMemoryBackend()``).

    Example:
        >>> mm = MemoryManager("/tmp/lgm-doc")  # doctest: +SKIP
        >>> mm.add_message("u1", "s1", "user", "我对花生过敏")  # doctest: +SKIP
    """

    #: How long ``delete_user`` waits for another process to release the writer lease.
    _LEASE_WAIT_S = 60.0

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        embeddings: Embeddings | None = None,
        llm: BaseChatModel | None = None,
        config: MemoryConfig | None = None,
        backend: MemoryBackend | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        if reranker is not None and not isinstance(reranker, Reranker):
            raise TypeError(
                "reranker must be a langgraph_memory.retrieval.rerank.Reranker "
                f"(e.g. FlashRankReranker), got {type(reranker).__name__}"
            )
        if config is not None and not isinstance(config, MemoryConfig):
            raise TypeError(f"config must be a MemoryConfig, got {type(config).__name__}")
        if embeddings is not None and not isinstance(embeddings, Embeddings):
            raise TypeError("embeddings must be a LangChain Embeddings instance")
        self.config = config or MemoryConfig()
        self.llm = llm
        if backend is None:
            root = (
                path if path is not None else os.environ.get("LANGGRAPH_MEMORY_PATH", DEFAULT_PATH)
            )
            backend = SQLiteBackend(Path(root))
        self.backend = backend
        self.path = getattr(backend, "file", None)
        self._embed_lock = threading.Lock()
        self._embedder: CachedEmbeddings | None = None
        self._inner_embeddings = embeddings
        self._write_lock = threading.RLock()
        self._access_lock = threading.Lock()
        self._accesses: dict[tuple[str, str, str], int] = {}
        self._lease_depth = 0  # nested _writer() holds inside this process
        self._closed = False
        self._sensitivity = SensitivityFilter(self.config.sensitivity)
        self._retriever = HybridRetriever(self.backend, self._get_embedder, self.config)
        self.longterm = LongTermMemory(
            self.backend,
            LongTermConfig(
                explicit_confidence=self.config.explicit_confidence,
                confirmed_confidence=self.config.confirmed_confidence,
                inferred_confidence=self.config.inferred_confidence,
                reinforce_step=self.config.reinforce_step,
                correct_step=self.config.correct_step,
                context_threshold=self.config.preference_threshold,
                dedup_threshold=self.config.dedup_threshold,
                dedup_window_days=self.config.dedup_window_days,
            ),
            # not persisted: the cache table keeps only what delete_user can find again
            embed=lambda texts: self.embeddings.embed_array(texts, persist=False),
        )
        self.hierarchy = Hierarchy(
            self.backend,
            self.config,
            llm=llm,
            promote=lambda user, seg, msgs: write_atoms(self.longterm, user, msgs, llm=llm),
        )
        self.working, self._forget, self._consolidator = make_lifecycle(
            self.backend, llm, self.config
        )
        self._reader = ContextBuilder(
            self.backend,
            self._retriever,
            self.config,
            self.hierarchy,
            self._long_term_docs,
            working=lambda u, s: (self.working.anchors(u, s), self.working.current_task(u, s)),
            reranker=reranker,
            on_access=self._note_access,
        )
        self._worker = EmbeddingWorker(
            self.backend,
            self._get_embedder,
            index_text,
            batch_size=self.config.embed_batch_size,
            writer=self._writer,
            after_batch=self.hierarchy.on_embedded,
            on_idle=self._housekeeping,
            before_store=self.hierarchy.begin_batch,
            # on start (and after a failed placement): place what a crash left unplaced
            replay=lambda: self.hierarchy.replay(self._embed_messages),
            # concurrent embedding (PostgreSQL): place what any process embedded
            place=lambda: self.hierarchy.place_embedded(self._embed_messages),
        )
        self._worker.notify()  # drain what a previous run left pending

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

        Migrations run on open (``setup()`` is idempotent). Use it plainly or in a ``with``.

        Example:
            >>> url = "postgresql://u:p@db/mem"
            >>> with MemoryManager.from_conn_string(url) as mm:  # doctest: +SKIP
            ...     mm.add_message("alice", "s1", "user", "I prefer tea")

        Raises:
            ConnectionError: When the server cannot be reached (the password is never shown).
            RuntimeError: When the pgvector extension is missing.
        """
        from .backends.postgres import PostgresBackend

        backend = PostgresBackend.from_conn_string(url, **backend_kw)
        return cls(backend=backend, embeddings=embeddings, llm=llm, config=config)

    def _long_term_docs(self, user_id: str) -> tuple[list[LongTermDoc], list[LongTermDoc]]:
        """The profile for context, and the rest of long-term memory to rank."""
        profile = [
            LongTermDoc(e.id, "profile", e.text(), list(e.source_ids), e.updated_at)
            for e in self.longterm.for_context(user_id)
        ]
        others = [
            LongTermDoc(t.id, t.kind, t.text, list(t.source_ids), t.updated_at)
            for t in self.longterm.texts_for_search(
                user_id, include_history=False, kinds=("fact", "trait")
            )
        ]
        others += [
            LongTermDoc(e.id, "episode", e.text(), list(e.source_ids), e.created_at, e.importance)
            for e in self.working.episodes(user_id)
        ]
        others += [
            LongTermDoc(k.id, "knowledge", k.text(), list(k.source_episodes), k.updated_at)
            for k in self._consolidator.knowledge(user_id)
        ]
        return profile, others

    @contextmanager
    def _writer(self, wait: float = 0.0) -> Iterator[bool]:
        """Hold the write lock and the store's writer lease; yields whether this process
        may write the hierarchy now (False: another process holds the lease).

        Re-entrant in this process; only the outermost hold takes the lease, and it tells
        the hierarchy when a hold begins and ends (it reloads what other processes
        changed meanwhile, and publishes what this hold changed).

        Args:
            wait: Seconds to keep trying while another process holds the lease.
        """
        deadline = time.monotonic() + wait
        while True:
            with self._write_lock:
                if self._lease_depth:
                    self._lease_depth += 1
                    try:
                        yield True
                    finally:
                        self._lease_depth -= 1
                    return
                with self.backend.writer_lease() as held:
                    if held:
                        with self._held():
                            yield True
                        return
                    if time.monotonic() >= deadline:
                        yield False
                        return
            time.sleep(0.05)  # the write lock is free meanwhile

    @contextmanager
    def _held(self) -> Iterator[None]:
        self._lease_depth = 1
        self.hierarchy.begin_hold()
        try:
            yield
        finally:
            self._lease_depth = 0
            self.hierarchy.end_hold()

    def _note_access(self, user_id: str, used: list[tuple[str, str]]) -> None:
        """Count long-term entries a context included. The worker saves the counts at its
        next idle pass (at least once a second; not woken for them: a write per context
        would slow the reads around it); ``flush()`` saves them at once."""
        with self._access_lock:
            for layer, entry_id in used:
                key = (user_id, layer, entry_id)
                self._accesses[key] = self._accesses.get(key, 0) + 1

    def _save_accesses(self) -> None:
        """Write the counted accesses: ``access_count`` and ``last_accessed_at``."""
        with self._access_lock:
            accesses, self._accesses = self._accesses, {}
        now = datetime.now(timezone.utc)
        for (user_id, layer, entry_id), n in accesses.items():
            if layer == "episode":
                self.working.touch_episode(user_id, entry_id, n, now)
            elif layer == "knowledge":
                self._consolidator.touch(user_id, entry_id, n, now)
            elif layer in ("profile", "fact", "trait"):
                self.longterm.touch(user_id, [entry_id], times=n)

    def _housekeeping(self) -> None:
        """Worker idle hook: persist segment visits and long-term accesses, run due
        promotions, expire sessions."""
        try:
            self._save_accesses()
            self.hierarchy.run_pending()
            self.hierarchy.maybe_expire()
        except Exception:  # housekeeping must never stop the embedding worker
            log.exception("memory housekeeping failed")

    # -- embeddings -----------------------------------------------------------------------
    def _check_embedding_model(self, mid: str) -> None:
        """Refuse to mix vectors of two embedding models in one store."""
        stored = self.backend.get_meta("embedding_model")
        if stored is not None and stored != mid and self.backend.stats().embedded > 0:
            raise ValueError(
                f"this memory's vectors were made by embedding model {stored!r}, not {mid!r}; "
                "open it with the same embeddings, or use another memory path"
            )
        if stored != mid:
            self.backend.set_meta("embedding_model", mid)

    def _embed_messages(self, msgs: list[Message]) -> np.ndarray:
        """The vectors of stored messages (cache hits once they were embedded)."""
        return self._get_embedder().embed_array([index_text(m) for m in msgs])

    def _get_embedder(self) -> CachedEmbeddings:
        if self._embedder is None:
            with self._embed_lock:
                if self._embedder is None:
                    given = self._inner_embeddings
                    self._check_embedding_model(
                        model_id(given) if given is not None else MiniLMEmbeddings.model_id
                    )
                    inner = given or default_embeddings()
                    self._embedder = CachedEmbeddings(
                        inner,
                        cache_size=self.config.embed_cache_size,
                        batch_size=self.config.embed_batch_size,
                        store_get=self.backend.cache_get,
                        store_put=self.backend.cache_put,
                    )
        return self._embedder

    @property
    def embeddings(self) -> CachedEmbeddings:
        """The cached embedder (loads the model on first access)."""
        return self._get_embedder()

    def warm_up(self, *, chinese: bool = True) -> None:
        """Load now what the first calls would load: the embedding model and, with
        ``chinese``, jieba's dictionaries (about 1.5 s together for Chinese text).

        Call it at startup (a server before taking requests) so the first
        ``add_message`` or ``build_context`` does not pay for the loading.

        Example:
            >>> mm.warm_up(chinese=False)  # doctest: +SKIP
        """
        self._check_open()
        self.embeddings.embed_query("warm up")
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
            content: The text (at most ``config.max_content_chars`` characters).
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
        msg = self._message(
            user_id, session_id, role, content, name, timestamp, message_id, metadata
        )
        return self._store(msg)

    def _message(
        self,
        user_id: Any,
        session_id: Any,
        role: Any,
        content: Any,
        name: Any,
        timestamp: Any,
        message_id: Any,
        metadata: Any,
        field: str = "content",
    ) -> Message:
        """Validate every argument and build the message (stores nothing); the
        sensitivity gate redacts content and metadata here, before any storage."""
        self._check_open()
        msg = Message(
            id=new_message_id() if message_id is None else check_id(message_id, "message_id"),
            user_id=check_id(user_id, "user_id"),
            session_id=check_id(session_id, "session_id"),
            role=check_role(role),
            content=check_content(content, self.config.max_content_chars, field),
            timestamp=parse_timestamp(timestamp),
            name=None if name is None else check_id(name, "name"),
            metadata=check_metadata(
                dict(metadata) if isinstance(metadata, Mapping) else metadata,
                self.config.max_metadata_bytes,
            ),
        )
        return self._sensitivity.clean_message(msg, field)

    def _store(self, msg: Message) -> str:
        stored, created = self.backend.insert_message(msg, tokenize(index_text(msg)))
        if created:
            self._worker.notify()
        return stored.id

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

        Returns:
            The ids of the stored messages.
        """
        msgs = [
            self._message(
                user_id, session_id, "user", user, user_name, timestamp, None, metadata, "user"
            )
        ]
        if assistant is not None:
            msgs.append(
                self._message(
                    user_id,
                    session_id,
                    "assistant",
                    assistant,
                    assistant_name,
                    timestamp,
                    None,
                    metadata,
                    "assistant",
                )
            )
        return [self._store(m) for m in msgs]

    def flush(self, timeout: float | None = None) -> None:
        """Wait until every accepted message is embedded and indexed.

        Raises:
            TimeoutError: When ``timeout`` seconds pass first.
            RuntimeError: When background embedding failed.
        """
        self._check_open()
        self._worker.flush(timeout)
        with self._writer() as mine:  # retrieval visits and promotions they made due
            if mine:
                self._save_accesses()
                self.hierarchy.run_pending()

    # -- reading ------------------------------------------------------------------------
    @in_foreground
    def search(
        self,
        user_id: str,
        query: str,
        k: int = 10,
        layers: Sequence[str] | None = None,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - the contract's name
    ) -> list[MemoryHit]:
        """Hybrid search (BM25 + dense, RRF) over one user's memory.

        Args:
            user_id: Whose memory; nothing of any other user is ever returned.
            query: What to look for.
            k: How many hits.
            layers: Restrict to these layers (see ``LAYERS``); default all.
            filter: Metadata filter, e.g. ``{"topic": "travel"}`` or
                ``{"timestamp": {"$gte": "2024-01-01"}}``.

        Returns:
            Hits, best first, each with ``source_ids`` and ``score_parts``.
        """
        self._check_open()
        check_id(user_id, "user_id")
        check_content(query, self.config.max_content_chars, "query")
        check_positive_int(k, "k")
        wanted = self._layers(layers)
        ranked: list[tuple[float, int, MemoryHit]] = []
        qvec = self._retriever.query_vector(query, start=self.config.dense_weight > 0)
        segments: list[tuple[Segment, float, dict[str, float]]] | None = None

        def ranked_segments() -> list[tuple[Segment, float, dict[str, float]]]:
            nonlocal segments
            if segments is None:
                segments = self._reader.ranked_segments(user_id, query, query_vector=qvec)
            return segments

        def via_segments() -> list[tuple[int, float]]:
            return self._reader.segment_pages(user_id, ranked_segments(), qvec)

        cfg = self.config
        routed = filter is None and cfg.segment_page_weight > 0 and cfg.dense_weight > 0
        message_hits: list[MemoryHit] = []
        if "message" in wanted:
            message_hits = self._retriever.search(
                user_id,
                query,
                k,
                filter,
                query_vector=qvec,
                via_segments=via_segments if routed else None,
            )
            for r, hit in enumerate(message_hits, 1):
                ranked.append((1.0 / (self.config.rrf_k + r), 0, hit))
        if filter is None:  # metadata filters apply to messages only
            extra: list[MemoryHit] = []
            if "mid_term" in wanted:
                extra += [
                    self._reader.segment_hit(seg, fscore, parts)
                    for seg, fscore, parts in ranked_segments()
                ]
            if "long_term" in wanted:
                profile, docs = self._long_term_docs(user_id)
                parts_of = [h.score_parts for h in message_hits]
                extra += [
                    MemoryHit(
                        d.id, d.layer, d.text, score, parts, d.source_ids, timestamp=d.timestamp
                    )
                    for d, score, parts in self._reader.rank_long_term(
                        profile + docs, query, qvec, parts_of, k
                    )
                ]
            by_layer: dict[str, int] = {}
            for hit in extra:
                by_layer[hit.layer] = r = by_layer.get(hit.layer, 0) + 1
                ranked.append((1.0 / (self.config.rrf_k + r), 1, hit))
        ranked.sort(key=lambda x: (-x[0], x[1]))
        return [hit for _, _, hit in ranked[:k]]

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
    ) -> MemoryContext:
        """Build the context for a query within a token budget.

        Packed by priority: the session's anchors (see :meth:`add_anchor`), the
        user profile (up to ``config.profile_share`` of the budget), the task in
        progress (up to ``config.working_share``), the current session's latest
        messages (up to ``config.session_share``), then retrieved memories best
        first (messages with the turns around them, segment summaries, facts,
        episodes, knowledge), scored by relevance × the query route's layer
        weight × time match × recency × importance. The rendered prompt never
        exceeds the budget.

        Args:
            user_id: Whose memory.
            session_id: The current session (its latest messages ride along).
            query: The user's latest message or question.
            token_budget: Tokens available (default ``config.default_token_budget``).
            explain: Make ``str(ctx)`` show why each item is there.
            filter: Metadata filter for retrieved memories.

        Returns:
            A :class:`MemoryContext`.
        """
        self._check_open()
        check_id(user_id, "user_id")
        check_id(session_id, "session_id")
        check_content(query, self.config.max_content_chars, "query")
        budget = check_positive_int(
            self.config.default_token_budget if token_budget is None else token_budget,
            "token_budget",
        )
        return self._reader.build(
            user_id, session_id, query, budget, explain=explain, filter=filter
        )

    @staticmethod
    def _layers(layers: Sequence[str] | None) -> set[str]:
        if layers is None:
            return set(LAYERS)
        if isinstance(layers, str) or not isinstance(layers, Sequence):
            raise TypeError("layers must be a list of layer names")
        unknown = [x for x in layers if x not in LAYERS]
        if unknown:
            raise ValueError(f"unknown layers {unknown}; known layers: {list(LAYERS)}")
        return set(layers)

    # -- working memory: session anchors -------------------------------------------------
    def add_anchor(
        self,
        user_id: str,
        text: str,
        *,
        session_id: str | None = None,
        anchor_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Pin an instruction that rides along in every context of a session.

        Args:
            user_id: Whose anchor.
            text: The instruction (at most ``config.max_content_chars`` characters); the
                sensitivity gate redacts or refuses it like message content.
            session_id: Its session; ``None`` (default) makes it ride along in every
                session of the user.
            anchor_id: Your id for it (default: generated). Adding an existing id
                replaces that anchor's text, session and metadata; it keeps its place.
            metadata: JSON-serialisable metadata.

        Returns:
            The anchor id.

        Raises:
            TypeError: When an argument has the wrong type.
            ValueError: When an argument is invalid or the sensitivity policy refuses
                the text. Nothing is stored then.

        Example:
            >>> aid = mm.add_anchor("u1", "Always answer in French.")  # doctest: +SKIP
            >>> mm.add_anchor("u1", "Units: metric.", session_id="s1")  # doctest: +SKIP
        """
        self._check_open()
        anchor = self.working.add_anchor(
            user_id,
            text,
            session_id=session_id,
            anchor_id=anchor_id,
            metadata=dict(metadata) if isinstance(metadata, Mapping) else metadata,
            gate=self._sensitivity,
            max_chars=self.config.max_content_chars,
            max_metadata_bytes=self.config.max_metadata_bytes,
        )
        return anchor.id

    def anchors(self, user_id: str, session_id: str | None = None) -> list[Anchor]:
        """The anchors of a session and the user-wide ones, in insertion order (only the
        user-wide ones when ``session_id`` is ``None``)."""
        self._check_open()
        return self.working.anchors(user_id, session_id)

    def remove_anchor(self, user_id: str, anchor_id: str) -> bool:
        """Remove an anchor; returns ``False`` when the user has none with that id."""
        self._check_open()
        return self.working.remove_anchor(user_id, anchor_id)

    def working_items(self, user_id: str, session_id: str) -> tuple[list[Anchor], TaskState | None]:
        """What working memory puts into a session's context: its anchors (see
        :meth:`anchors`) and the session's latest task still in progress."""
        self._check_open()
        anchors = self.working.anchors(user_id, check_id(session_id, "session_id"))
        return anchors, self.working.current_task(user_id, session_id)

    # -- housekeeping ---------------------------------------------------------------------
    def delete_user(self, user_id: str) -> int:
        """Delete every trace of a user: messages, terms, vectors, cached embeddings.

        Returns:
            The number of messages deleted.
        """
        self._check_open()
        check_id(user_id, "user_id")
        # The writer lease too: no process's worker writes the user's hierarchy records
        # back while they are deleted.
        with self._writer(wait=self._LEASE_WAIT_S) as mine:
            if not mine:
                raise TimeoutError(
                    f"delete_user({user_id!r}): another process held this store's writer "
                    f"lease for {self._LEASE_WAIT_S:.0f} s; nothing was deleted, retry"
                )
            hashes = [
                CachedEmbeddings.content_hash(index_text(m))
                for m in self.backend.iter_messages(user_id)
            ]
            profile, docs = self._long_term_docs(user_id)  # embedded in process by reads
            texts = [CachedEmbeddings.content_hash(d.text) for d in profile + docs]
            n = self.backend.delete_user(user_id, hashes)
            self.hierarchy.forget_user(user_id)
            if self._embedder is not None:
                self._embedder.forget(hashes + texts)
        return n

    def stats(self, user_id: str | None = None) -> dict[str, Any]:
        """Counts for one user (or the whole store): messages, embedded, pending, sessions."""
        self._check_open()
        if user_id is not None:
            check_id(user_id, "user_id")
        s = asdict(self.backend.stats(user_id))
        s["pending"] = s["messages"] - s["embedded"]
        s["backend"] = self.backend.name
        s["layers"] = {"message": s["messages"]}
        for kind in ("anchor", "task", "episode", "knowledge"):
            s["layers"][kind] = self.backend.count_records(kind, user_id)
        if user_id is not None:
            h = self.hierarchy.stats(user_id)
            s["layers"]["short_term"] = h["short_term_pages"]
            s["layers"]["mid_term"] = h["mid_term_segments"]
            s["layers"]["archived_segments"] = h["archived_segments"]
            s["hierarchy"] = h
            lt = self.longterm.stats(user_id)
            s["layers"].update(profile=lt["profile"], facts=lt["facts"], traits=lt["traits"])
            s["longterm"] = lt
        if self.path is not None:
            s["path"] = str(self.path)
        return s

    def close(self) -> None:
        """Stop the background worker and close the store (pending work resumes next time)."""
        if self._closed:
            return
        self._closed = True
        self._worker.stop()
        self._retriever.close()
        self.backend.close()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this MemoryManager is closed")

    def __enter__(self) -> MemoryManager:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- async twins ----------------------------------------------------------------------
    async def aadd_message(
        self, user_id: str, session_id: str, role: str, content: str, **kwargs: Any
    ) -> str:
        """Async :meth:`add_message`."""
        return await asyncio.to_thread(
            self.add_message, user_id, session_id, role, content, **kwargs
        )

    async def aadd_turn(self, user_id: str, session_id: str, **kwargs: Any) -> list[str]:
        """Async :meth:`add_turn`."""
        return await asyncio.to_thread(self.add_turn, user_id, session_id, **kwargs)

    async def aflush(self, timeout: float | None = None) -> None:
        """Async :meth:`flush`."""
        await asyncio.to_thread(self.flush, timeout)

    async def asearch(
        self,
        user_id: str,
        query: str,
        k: int = 10,
        layers: Sequence[str] | None = None,
        filter: Mapping[str, Any] | None = None,
    ) -> list[MemoryHit]:  # noqa: A002
        """Async :meth:`search`."""
        return await asyncio.to_thread(self.search, user_id, query, k, layers, filter)

    async def abuild_context(
        self,
        user_id: str,
        session_id: str,
        query: str,
        token_budget: int | None = None,
        **kwargs: Any,
    ) -> MemoryContext:
        """Async :meth:`build_context`."""
        return await asyncio.to_thread(
            self.build_context, user_id, session_id, query, token_budget, **kwargs
        )

    async def aadd_anchor(self, user_id: str, text: str, **kwargs: Any) -> str:
        """Async :meth:`add_anchor`."""
        return await asyncio.to_thread(self.add_anchor, user_id, text, **kwargs)

    async def aanchors(self, user_id: str, session_id: str | None = None) -> list[Anchor]:
        """Async :meth:`anchors`."""
        return await asyncio.to_thread(self.anchors, user_id, session_id)

    async def aremove_anchor(self, user_id: str, anchor_id: str) -> bool:
        """Async :meth:`remove_anchor`."""
        return await asyncio.to_thread(self.remove_anchor, user_id, anchor_id)

    async def aworking_items(
        self, user_id: str, session_id: str
    ) -> tuple[list[Anchor], TaskState | None]:
        """Async :meth:`working_items`."""
        return await asyncio.to_thread(self.working_items, user_id, session_id)

    async def adelete_user(self, user_id: str) -> int:
        """Async :meth:`delete_user`."""
        return await asyncio.to_thread(self.delete_user, user_id)

    async def astats(self, user_id: str | None = None) -> dict[str, Any]:
        """Async :meth:`stats`."""
        return await asyncio.to_thread(self.stats, user_id)

    async def awarm_up(self, *, chinese: bool = True) -> None:
        """Async :meth:`warm_up`."""
        await asyncio.to_thread(self.warm_up, chinese=chinese)

    async def aclose(self) -> None:
        """Async :meth:`close`."""
        await asyncio.to_thread(self.close)
