"""What a backend may offer beside the storage core, one protocol per capability.

A backend implements :class:`~langgraph_memory.storage.base.StorageCore` (messages,
the durable queue of messages still without a vector, store metadata, deletion,
counts) and declares the capabilities it offers by subclassing these protocols:

| capability | what it is | who offers it |
|---|---|---|
| :class:`VectorIndex` | vectors per message and cosine search | every backend |
| :class:`LexicalIndex` | posting lists, so BM25 ranks alike everywhere | every backend |
| :class:`RecordStore` | structured records (tasks, episodes...) with a query | every backend |
| :class:`EmbeddingCache` | vectors by content hash, kept across restarts | every backend |
| :class:`EntryIndex` | long-term entries, their terms and vectors, by revision | every backend |
| :class:`ClaimQueue` | several processes embed at once, each its own batch | PostgreSQL |
| :class:`WriterLease` | one writing process at a time among several | SQLite, PostgreSQL |
| :class:`Checkpoint` | a write-ahead log checkpointed on time as well as on size | SQLite |
| :class:`GroupedWrites` | several writes committed once | SQLite |

A :class:`~langgraph_memory.MemoryManager` needs the first three; without an
embedding cache, vectors are cached in process only; without a claim queue one
worker at a time embeds; without a writer lease one process writes the store.
The protocols are ``runtime_checkable``: ``isinstance(backend, ClaimQueue)`` tells
whether a backend offers one.

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> backend = InMemoryBackend()
    >>> isinstance(backend, VectorIndex), isinstance(backend, ClaimQueue)
    (True, False)
"""

from __future__ import annotations

import os
import re
from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from langgraph_memory.core.records import Message, Record
from langgraph_memory.retrieval.bm25 import bm25_scores

__all__ = [
    "VectorIndex",
    "LexicalIndex",
    "Postings",
    "RecordStore",
    "RecordValue",
    "check_where",
    "record_matches",
    "EmbeddingCache",
    "EntryIndex",
    "IndexedEntry",
    "ClaimQueue",
    "Backup",
    "FailedMessages",
    "MessageDeletion",
    "WriterLease",
    "Checkpoint",
    "AtomicWrites",
    "GroupedWrites",
    "atomic",
    "grouped",
]

#: A value a record query compares a top-level data field with.
RecordValue = str | int | float | bool
_FIELD_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(slots=True)
class Postings:
    """What BM25 needs for one query within one user's messages."""

    lists: dict[str, list[tuple[int, int]]]
    n_docs: int
    total_len: int
    doc_len: dict[int, int]


@runtime_checkable
class VectorIndex(Protocol):
    """A vector per message, and the user's messages nearest a query vector."""

    @abstractmethod
    def store_vectors(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        """Attach vectors to stored messages, which leave the queue of pending ones
        (messages deleted meanwhile are ignored)."""

    @abstractmethod
    def vector_search(
        self, user_id: str, vector: np.ndarray, k: int, allowed: set[int] | None = None
    ) -> list[tuple[int, float]]:
        """Top ``k`` ``(seq, cosine)`` of the user's messages (only ``allowed`` seqs when
        given), best first."""

    def vector_search_many(
        self, user_id: str, vectors: Sequence[np.ndarray], k: int
    ) -> list[list[tuple[int, float]]]:
        """:meth:`vector_search` of each vector, in order (a backend that scans its
        vectors reads them once for all)."""
        return [self.vector_search(user_id, v, k) for v in vectors]


@runtime_checkable
class LexicalIndex(Protocol):
    """Posting lists of the user's messages; BM25 is scored here, the same everywhere."""

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

    def document_frequencies(self, user_id: str, terms: Sequence[str]) -> dict[str, int]:
        """How many of the user's messages hold each of ``terms`` (terms in none are
        absent)."""
        lists = self.postings(user_id, list(dict.fromkeys(terms))).lists
        return {t: len(plist) for t, plist in lists.items() if plist}

    def index_pending(self, limit: int = 4096) -> int:
        """Write the posting lists of up to ``limit`` messages stored without them (of
        those stored when it is called).

        A backend may keep a new message's terms with the message and leave its posting
        lists to the background worker, which calls this under the writer lease; its
        searches count those terms meanwhile, so results are the same either way. This
        default has nothing to do: postings are written with the message.

        Returns:
            How many messages were indexed (0 when none waited).
        """
        return 0


def check_where(where: Mapping[str, RecordValue] | None) -> dict[str, RecordValue]:
    """Validate a record query's ``where``: field names are identifiers, values scalars.

    A text value holding a NUL character is refused on every backend: PostgreSQL stores
    no NUL, and SQLite's JSON functions read text only up to one, so such a value would
    match differently from backend to backend.

    Raises:
        ValueError: On a field name that is not an identifier, or a text value holding a
            NUL character.
        TypeError: On a value that is not a str, int, float or bool.

    Example:
        >>> check_where({"status": "open"})
        {'status': 'open'}
        >>> check_where({"status": "a\\x00b"})
        Traceback (most recent call last):
        ...
        ValueError: record query value of 'status' holds a NUL character ...
    """
    out: dict[str, RecordValue] = {}
    for name, value in (where or {}).items():
        if not isinstance(name, str) or not _FIELD_RE.match(name):
            raise ValueError(f"record query field {name!r} must be an identifier")
        if not isinstance(value, (str, int, float, bool)):
            raise TypeError(f"record query value of {name!r} must be a str, int, float or bool")
        if isinstance(value, str) and "\x00" in value:
            raise ValueError(
                f"record query value of {name!r} holds a NUL character (\\x00), "
                "which no backend matches alike"
            )
        out[name] = value
    return out


def record_matches(record: Record, where: Mapping[str, RecordValue]) -> bool:
    """Whether a record's data has every field of ``where`` with an equal value (a bool
    equals only a bool)."""
    for name, value in where.items():
        if name not in record.data:
            return False
        got = record.data[name]
        if isinstance(got, bool) != isinstance(value, bool) or got != value:
            return False
    return True


@runtime_checkable
class RecordStore(Protocol):
    """Structured records beside the messages: tasks, episodes, knowledge, the hierarchy's
    pages and segments... Each is keyed by ``(kind, id)`` and belongs to one user."""

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
    def query_records(
        self,
        kind: str,
        user_id: str | None = None,
        *,
        where: Mapping[str, RecordValue] | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        """Records of a kind, oldest first (by creation, then id).

        Args:
            kind: The record kind.
            user_id: One user's records, or everyone's when ``None``.
            where: Top-level data fields and the values they must equal
                (see :func:`check_where`).
            limit: At most this many.
            newest_first: Newest first instead.

        Example:
            >>> from datetime import datetime, timezone
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> b = InMemoryBackend()
            >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
            >>> for i, status in enumerate(["open", "done", "open"]):
            ...     b.put_record(Record("task", f"t{i}", "ann", {"status": status}, t, t))
            >>> [r.id for r in b.query_records("task", "ann", where={"status": "open"})]
            ['t0', 't2']
            >>> [r.id for r in b.query_records("task", "ann", limit=1, newest_first=True)]
            ['t2']
        """

    @abstractmethod
    def delete_records(self, kind: str, ids: Sequence[str], user_id: str) -> int:
        """Delete a user's records by id; returns how many went."""

    def list_records(self, kind: str, user_id: str | None = None) -> list[Record]:
        """Records of a kind, oldest first (one user's, or everyone's when ``user_id`` is None)."""
        return self.query_records(kind, user_id)

    def record_page(
        self,
        kind: str,
        user_id: str,
        *,
        before: tuple[str, str] | None = None,
        limit: int = 50,
    ) -> list[Record]:
        """A page of a user's records of a kind, newest first (by creation, then id):
        those before ``(created_at ISO string, id)`` (all when ``None``), at most ``limit``.
        The next page is the one before the last record's ``(created_at.isoformat(), id)``.

        This default reads the user's records of the kind whole; SQLite reads one page by
        its ``(user_id, kind, created_at)`` index.

        Example:
            >>> from datetime import datetime, timezone
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> b = InMemoryBackend()
            >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
            >>> for i in range(3):
            ...     b.put_record(Record("task", f"t{i}", "ann", {}, t, t))
            >>> [r.id for r in b.record_page("task", "ann", limit=2)]
            ['t2', 't1']
            >>> [r.id for r in b.record_page("task", "ann", before=(t.isoformat(), "t1"))]
            ['t0']
        """
        out: list[Record] = []
        for r in self.query_records(kind, user_id, newest_first=True):
            if len(out) >= limit:
                break
            if before is None or (r.created_at.isoformat(), r.id) < before:
                out.append(r)
        return out

    def count_records(self, kind: str, user_id: str | None = None) -> int:
        """How many records of a kind a user (or everyone) has."""
        return len(self.query_records(kind, user_id))


@runtime_checkable
class EmbeddingCache(Protocol):
    """Vectors by model and content hash, kept across restarts (``delete_user`` drops the
    hashes of the user's texts)."""

    @abstractmethod
    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """Cached vectors by content hash."""

    @abstractmethod
    def cache_put(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        """Store vectors in the cache."""


@dataclass(slots=True)
class IndexedEntry:
    """A long-term entry (fact, trait, episode, knowledge...) as the entry index keeps it.

    Attributes:
        key: Unique among the user's entries (``"<layer>/<id>"``).
        text: What is searched and shown; ``None`` for an entry that is gone (kept as a
            tombstone, so readers that mirror the index learn it).
        terms: The text's term counts (its postings).
        doc: What the read path shows beside the text (layer, id, sources, time...).
        hash: Of the text and ``doc``: writing an entry whose hash is stored changes nothing.
        vector: Its embedding, or ``None`` until it is embedded.
        rev: The store-wide revision of its last change (given by the backend).
    """

    key: str
    text: str | None
    terms: dict[str, int] = field(default_factory=dict)
    doc: dict[str, Any] = field(default_factory=dict)
    hash: str = ""
    vector: np.ndarray | None = None
    rev: int = 0


@runtime_checkable
class EntryIndex(Protocol):
    """Long-term entries indexed like messages: each with its term counts and vector,
    persisted, and read by revision so a process keeps a mirror of a user's entries and
    fetches only what changed since it last looked (see
    :class:`~langgraph_memory.layers.index.entries.EntryIndexer`)."""

    @abstractmethod
    def put_entries(self, user_id: str, entries: Sequence[IndexedEntry]) -> int:
        """Insert, replace or (``text`` ``None``) remove entries of ``user_id``.

        An entry whose ``hash`` is stored already is left alone. Every change gets a new
        revision, above every revision given before it, and changes become visible in
        revision order: a reader that has seen revision ``r`` never later finds a new
        change at or below ``r``. A replaced entry whose text is unchanged keeps its
        vector; otherwise its vector is ``entry.vector`` (``None``: pending).

        Returns:
            How many entries changed.
        """

    @abstractmethod
    def entries_since(self, user_id: str, rev: int) -> tuple[int, list[IndexedEntry]]:
        """The user's index generation (0 while it was never built, see
        :meth:`mark_entries_built`) and the entries changed after revision ``rev``
        (tombstones included), in revision order."""

    @abstractmethod
    def mark_entries_built(self, user_id: str) -> int:
        """Record that the user's index holds every entry; returns the new generation
        (a revision: it changes whenever the index is built again, and ``delete_user``
        resets it to 0)."""

    @abstractmethod
    def pending_entries(self, limit: int) -> list[tuple[str, IndexedEntry]]:
        """``(user_id, entry)`` of entries (of any user) with a text and no vector, oldest
        change first."""

    @abstractmethod
    def store_entry_vectors(self, items: Sequence[tuple[str, str, str, np.ndarray]]) -> int:
        """Attach vectors ``(user_id, key, hash, vector)`` to entries that still have that
        hash (each gets a new revision); returns how many were stored."""


@runtime_checkable
class ClaimQueue(Protocol):
    """Several processes embed at once: each claims a batch of pending messages no other
    claimer gets and stores its vectors in the claiming transaction (a claimer that dies
    releases its claim). The one consumer of what is embedded (the writer-lease holder)
    then takes the embedded messages one by one and marks them done, since claims commit
    out of seq order."""

    @abstractmethod
    def embed_pending(
        self, limit: int, embed: Callable[[list[Message]], np.ndarray]
    ) -> list[Message]:
        """Claim up to ``limit`` pending messages (oldest first), embed them and store their
        vectors, in one transaction.

        Args:
            limit: Most messages to embed.
            embed: Returns the vectors of messages, one row each. When it raises, nothing
                is stored and the messages stay pending.

        Returns:
            The messages embedded, in seq order (empty when none was pending).
        """

    @abstractmethod
    def unplaced_messages(self, limit: int) -> list[Message]:
        """Embedded messages not yet marked done by :meth:`mark_placed`, oldest first, each
        user's only up to its oldest message still without a vector (so a user's messages
        are taken in order)."""

    @abstractmethod
    def mark_placed(self, seqs: Sequence[int]) -> None:
        """Mark embedded messages as done (see :meth:`unplaced_messages`)."""


@runtime_checkable
class MessageDeletion(Protocol):
    """Single messages deleted: afterwards the store ranks, counts and reads as if they
    had never been written."""

    @abstractmethod
    def delete_messages(
        self, user_id: str, ids: Sequence[str], cache_hashes: Sequence[str] = ()
    ) -> list[Message]:
        """Remove messages of a user in one transaction: their rows, terms (and the
        user's term statistics), vectors, place in the queue, and the embedding-cache
        rows of ``cache_hashes``; the later messages of each session move up one place
        (neighbours stay contiguous). Unknown ids are ignored.

        Returns:
            The messages removed, in seq order.
        """

    def compact(self) -> None:  # noqa: B027 - nothing to do unless the store keeps copies
        """After a deletion: rewrite the store so no copy of deleted data remains (SQLite
        rebuilds its file; a server store or an in-memory one has nothing to do)."""


@runtime_checkable
class FailedMessages(Protocol):
    """Messages the worker cannot embed are set aside: out of the queue, still stored."""

    @abstractmethod
    def set_failed(self, user_id: str, ids: Sequence[str], failed: bool = True) -> int:
        """Quarantine messages the worker cannot embed, or put them back in the queue.

        With ``failed=True``, pending messages of ``user_id`` among ``ids`` leave the
        queue without a vector (they stay stored and found by their terms; they never
        block the messages after them); with ``failed=False``, quarantined ones become
        pending again. Other messages are left alone.

        Returns:
            How many messages changed state.
        """


@runtime_checkable
class Backup(Protocol):
    """A consistent copy of the store, taken while it is in use, and a check of its
    pages."""

    @abstractmethod
    def verify(self) -> None:
        """Check every page of the store now.

        Raises:
            StoreDamagedError: Naming the first problems found.
        """

    @abstractmethod
    def backup(self, dest: str | os.PathLike[str]) -> Path:
        """Copy the whole store to ``dest`` (a file, or a directory to put it in) while
        it is in use, check the copy, and return its path.

        Raises:
            FileExistsError: When the destination file exists.
            StoreDamagedError: When the copy fails its integrity check.
        """


@runtime_checkable
class WriterLease(Protocol):
    """One writing process at a time among several on one store."""

    @abstractmethod
    def writer_lease(self) -> AbstractContextManager[bool]:
        """Try to become the store's only writer for a while; yields whether this process
        is. Never blocks (SQLite: a file lock beside the database; PostgreSQL: a session
        advisory lock).

        Example:
            >>> import tempfile
            >>> from langgraph_memory.storage import SQLiteBackend
            >>> b = SQLiteBackend(tempfile.mkdtemp())
            >>> with b.writer_lease() as mine:
            ...     mine
            True
            >>> b.close()
        """


@runtime_checkable
class Checkpoint(Protocol):
    """A write-ahead log that the worker checkpoints when idle, so that the writes a
    power loss can take are bounded in time as well as in size."""

    @abstractmethod
    def checkpoint(self, *, force: bool = False) -> bool:
        """Checkpoint the log when it is due (or ``force``); returns whether one ran.
        Never blocks on readers."""


@runtime_checkable
class GroupedWrites(Protocol):
    """Writes that belong together committed once: a commit costs more than the writes
    it holds (about 0.1 ms on SQLite, where a long-term entry and its index row were
    two)."""

    @abstractmethod
    def grouped_writes(self) -> AbstractContextManager[None]:
        """A scope whose writes (on this thread) commit together when it ends; each
        write still succeeds or fails as a whole. Other threads' calls wait for the
        scope to end: keep it to a few writes, with no model call inside."""


@runtime_checkable
class AtomicWrites(Protocol):
    """Writes that must land together or not at all (a record and its index row, a
    knowledge entry and the marks of the episodes it consolidates) in one transaction,
    on a store whose :class:`GroupedWrites` it does not offer for every batch
    (PostgreSQL: a group holds its users' locks until it ends)."""

    @abstractmethod
    def atomic_writes(self) -> AbstractContextManager[None]:
        """A scope whose writes (on this thread) commit in one transaction when it ends;
        an error leaving it (or a crash) keeps none of them."""


def atomic(store: object) -> AbstractContextManager[None]:
    """``store.atomic_writes()`` where the store has them, else its grouped writes (one
    transaction on SQLite), else a scope that does nothing (each write commits alone:
    the caller must make a cut between them harmless).

    Example:
        >>> from langgraph_memory.storage import InMemoryBackend
        >>> with atomic(InMemoryBackend()):
        ...     pass
    """
    if isinstance(store, AtomicWrites):
        return store.atomic_writes()
    return grouped(store)


def grouped(store: object) -> AbstractContextManager[None]:
    """``store.grouped_writes()`` where the store groups writes, else a scope that does
    nothing (each write commits alone, as usual)."""
    return store.grouped_writes() if isinstance(store, GroupedWrites) else nullcontext()
