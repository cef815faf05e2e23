"""The storage interface every backend implements.

A backend stores messages (with their lexical terms and vectors), an embedding
cache, and answers scoped lexical and vector searches. BM25 scoring is done
here, on posting lists the backend returns, so every backend ranks alike.
All methods are synchronous and thread-safe; the manager adds async twins.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from ..records import Message, Record
from ..retrieval.bm25 import bm25_scores
from .filters import Predicate

__all__ = ["MemoryBackend", "Postings", "BackendStats"]


@dataclass(slots=True)
class Postings:
    """What BM25 needs for one query within one user's messages."""

    lists: dict[str, list[tuple[int, int]]]
    n_docs: int
    total_len: int
    doc_len: dict[int, int]


@dataclass(slots=True)
class BackendStats:
    """Counts kept by a backend."""

    messages: int
    embedded: int
    sessions: int
    users: int


class MemoryBackend(ABC):
    """Abstract storage. Messages are addressed by ``(user_id, id)`` and by ``seq``.

    ``seq`` is a store-wide increasing integer given at insertion; it orders a
    session's messages and keys vectors and postings.
    """

    #: Short backend name shown in stats.
    name: str = "abstract"
    #: Whether a lexical and a vector search gain from running at once on two threads
    #: (each waits on a server); hybrid retrieval then overlaps them, and the query's
    #: embedding with the lexical search.
    parallel_reads: bool = False
    #: Whether several processes may embed at once: :meth:`embed_pending` claims a batch
    #: no other claimer gets and stores its vectors in one transaction, and the messages
    #: still to place in the memory hierarchy are flagged one by one
    #: (:meth:`unplaced_messages`, :meth:`mark_placed`). When False, one worker at a
    #: time embeds, under the writer lease.
    concurrent_embedding: bool = False

    # -- messages ---------------------------------------------------------------------
    @abstractmethod
    def insert_message(self, msg: Message, terms: Sequence[str]) -> tuple[Message, bool]:
        """Store a message and its lexical terms in one transaction.

        Returns:
            ``(stored, created)``: when ``(user_id, id)`` exists already with the
            same content, the stored message and ``False``.

        Raises:
            ValueError: When ``(user_id, id)`` exists with different content.
        """

    @abstractmethod
    def get_messages(self, user_id: str, seqs: Sequence[int]) -> dict[int, Message]:
        """Messages of ``user_id`` by seq (seqs of other users are ignored)."""

    @abstractmethod
    def get_message(self, user_id: str, message_id: str) -> Message | None:
        """One message of ``user_id`` by its id."""

    @abstractmethod
    def session_messages(
        self, user_id: str, session_id: str, *, last: int | None = None
    ) -> list[Message]:
        """A session's messages in order (only the ``last`` n when given)."""

    @abstractmethod
    def neighbors(self, user_id: str, seq: int, window: int) -> list[Message]:
        """Up to ``window`` messages before and after ``seq`` in its session, in order."""

    def neighbors_many(
        self, user_id: str, seqs: Sequence[int], window: int
    ) -> dict[int, list[Message]]:
        """:meth:`neighbors` of several messages at once (backends may batch it)."""
        return {s: self.neighbors(user_id, s, window) for s in seqs}

    @abstractmethod
    def iter_messages(self, user_id: str) -> list[Message]:
        """All messages of a user in insertion order."""

    def index_pending(self, limit: int = 4096) -> int:
        """Write the posting lists of up to ``limit`` messages stored without them.

        A backend may keep a new message's terms with the message and leave its posting
        lists to the background worker, which calls this under the writer lease; its
        searches count those terms meanwhile, so results are the same either way. This
        default has nothing to do: postings are written with the message.

        Returns:
            How many messages were indexed (0 when none waited).
        """
        return 0

    # -- vectors ----------------------------------------------------------------------
    @abstractmethod
    def pending_embeddings(self, limit: int) -> list[Message]:
        """Messages (of any user) that have no vector yet, oldest first."""

    @abstractmethod
    def store_vectors(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        """Attach vectors to stored messages (ignores messages deleted meanwhile)."""

    def embed_pending(
        self, limit: int, embed: Callable[[list[Message]], np.ndarray]
    ) -> list[Message]:
        """Embed up to ``limit`` pending messages (oldest first) and store their vectors.

        This default reads :meth:`pending_embeddings` and calls :meth:`store_vectors`: two
        callers at once would embed the same messages, so callers take turns (the worker
        holds the writer lease). Backends with :attr:`concurrent_embedding` claim the
        batch in a transaction that also stores its vectors, so that concurrent callers
        get disjoint batches and a caller that dies releases its claim.

        Args:
            limit: Most messages to embed.
            embed: Returns the vectors of messages, one row each. When it raises, nothing
                is stored and the messages stay pending.

        Returns:
            The messages embedded, in seq order (empty when none was pending).

        Example:
            >>> from datetime import datetime, timezone
            >>> from langgraph_memory.backends import InMemoryBackend
            >>> from langgraph_memory.records import Message
            >>> b = InMemoryBackend()
            >>> now = datetime.now(timezone.utc)
            >>> _ = b.insert_message(Message("m1", "ann", "s1", "user", "hi", now), ["hi"])
            >>> [m.id for m in b.embed_pending(8, lambda msgs: np.ones((len(msgs), 2)))]
            ['m1']
            >>> b.pending_embeddings(8)
            []
        """
        batch = self.pending_embeddings(limit)
        if batch:
            vectors = np.asarray(embed(batch))
            self.store_vectors(list(zip(batch, vectors, strict=True)))
        return batch

    def unplaced_messages(self, limit: int) -> list[Message]:
        """Embedded messages not yet placed in the memory hierarchy, oldest first, each
        user's only up to its oldest message still without a vector (a user's messages
        are placed in order). Only backends with :attr:`concurrent_embedding` keep
        placement flags; the others track placement with marks (see
        ``layers.hierarchy``).

        Raises:
            NotImplementedError: On a backend without :attr:`concurrent_embedding`.
        """
        raise NotImplementedError(
            f"{type(self).__name__} keeps no per-message placement flags "
            "(concurrent_embedding is False); the hierarchy uses its placement marks"
        )

    def mark_placed(self, seqs: Sequence[int]) -> None:
        """Flag messages as placed in the memory hierarchy (see :meth:`unplaced_messages`).

        Raises:
            NotImplementedError: On a backend without :attr:`concurrent_embedding`.
        """
        raise NotImplementedError(
            f"{type(self).__name__} keeps no per-message placement flags "
            "(concurrent_embedding is False); the hierarchy uses its placement marks"
        )

    @abstractmethod
    def vector_search(
        self, user_id: str, vector: np.ndarray, k: int, allowed: set[int] | None = None
    ) -> list[tuple[int, float]]:
        """Top ``k`` ``(seq, cosine)`` of the user's messages, best first."""

    # -- lexical ----------------------------------------------------------------------
    @abstractmethod
    def postings(self, user_id: str, terms: Sequence[str]) -> Postings:
        """Posting lists of ``terms`` within the user's messages."""

    def lexical_search(
        self,
        user_id: str,
        terms: Sequence[str],
        k: int,
        allowed: set[int] | None = None,
        *,
        k1: float = 1.2,
        b: float = 0.75,
    ) -> list[tuple[int, float]]:
        """Top ``k`` ``(seq, bm25)`` of the user's messages, best first."""
        counts = Counter(terms)
        if not counts:
            return []
        p = self.postings(user_id, list(counts))
        if p.n_docs == 0:
            return []
        ranked = bm25_scores(
            p.lists,
            n_docs=p.n_docs,
            avg_len=p.total_len / p.n_docs,
            doc_len=p.doc_len,
            query_counts=counts,
            k1=k1,
            b=b,
            top=k if allowed is None else None,
        )
        if allowed is not None:
            ranked = [(s, v) for s, v in ranked if s in allowed]
        return ranked[:k]

    def filter_seqs(self, user_id: str, predicate: Predicate) -> set[int]:
        """Seqs of the user's messages that satisfy ``predicate``."""
        return {m.seq for m in self.iter_messages(user_id) if predicate(m)}

    # -- embedding cache --------------------------------------------------------------
    @abstractmethod
    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """Cached vectors by content hash."""

    @abstractmethod
    def cache_put(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        """Store vectors in the cache."""

    # -- records (tasks, episodes, knowledge) ---------------------------------------------
    @abstractmethod
    def put_record(self, record: Record) -> None:
        """Insert or replace a record, keyed by ``(kind, id)``.

        Raises:
            ValueError: When ``(kind, id)`` belongs to another user.
        """

    @abstractmethod
    def get_record(self, kind: str, record_id: str, user_id: str | None = None) -> Record | None:
        """A record by kind and id (restricted to ``user_id`` when given)."""

    @abstractmethod
    def list_records(self, kind: str, user_id: str | None = None) -> list[Record]:
        """Records of a kind, oldest first (one user's, or everyone's when ``user_id`` is None)."""

    def count_records(self, kind: str, user_id: str | None = None) -> int:
        """How many records of a kind a user (or everyone) has."""
        return len(self.list_records(kind, user_id))

    @abstractmethod
    def delete_records(self, kind: str, ids: Sequence[str], user_id: str) -> int:
        """Delete a user's records by id; returns how many went."""

    # -- store metadata -----------------------------------------------------------------
    @abstractmethod
    def get_meta(self, key: str) -> str | None:
        """A store-wide setting (e.g. the embedding model the vectors came from)."""

    @abstractmethod
    def set_meta(self, key: str, value: str) -> None:
        """Record a store-wide setting."""

    # -- lifecycle ----------------------------------------------------------------------
    @abstractmethod
    def delete_user(self, user_id: str, cache_hashes: Sequence[str] = ()) -> int:
        """Remove every trace of the user in one transaction.

        Args:
            user_id: The user.
            cache_hashes: Embedding-cache keys derived from the user's texts, to drop too.

        Returns:
            The number of messages removed.
        """

    @abstractmethod
    def stats(self, user_id: str | None = None) -> BackendStats:
        """Counts for one user, or for the whole store."""

    @abstractmethod
    def users(self) -> list[str]:
        """All user ids with stored messages."""

    @contextmanager
    def writer_lease(self) -> Iterator[bool]:
        """Try to become the store's only hierarchy writer for a while; yields whether
        this process is.

        The memory hierarchy (pages, chains, segments, their placement marks) is
        written by one process at a time: every manager's worker processes its batches
        and housekeeping inside this lease and skips them when another process holds
        it (that one drains the shared queue meanwhile). Never blocks. Stores a single
        process owns (in memory) are always leased; SQLite uses a file lock beside the
        database, PostgreSQL a session advisory lock.

        Example:
            >>> from langgraph_memory.backends import InMemoryBackend
            >>> with InMemoryBackend().writer_lease() as mine:
            ...     mine
            True
        """
        yield True

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources."""
