"""The storage core every backend implements, and what a manager needs of a backend.

:class:`StorageCore` is small on purpose: messages addressed by ``(user_id, id)`` and by ``seq``,
the durable queue (stored messages without a vector), store metadata, deleting a user and counting.
Everything else a backend offers is a capability it declares
(:mod:`~langgraph_memory.storage.capabilities`). :class:`MemoryBackend` is the core with the four
capabilities every bundled backend offers, the shape a :class:`~langgraph_memory.MemoryManager` is
built on.

All methods are synchronous and thread-safe; the manager adds async twins.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from langgraph_memory.core.filters import Predicate
from langgraph_memory.core.records import Message, index_text
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.storage.capabilities import (
    ClaimQueue,
    EmbeddingCache,
    FailedMessages,
    LexicalIndex,
    MessageDeletion,
    Postings,
    RecordStore,
    VectorIndex,
)
from langgraph_memory.storage.entries_records import RecordEntryIndex

__all__ = [
    "StorageCore",
    "MemoryBackend",
    "Postings",
    "BackendStats",
    "SessionRow",
    "MessageCounts",
]


@dataclass(slots=True)
class BackendStats:
    """Counts kept by a backend."""

    messages: int
    embedded: int
    sessions: int
    users: int


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A session as a store lists it: what its messages say about it.

    Attributes:
        session_id: The session.
        messages: How many messages it holds.
        first_at: Its first message's timestamp.
        last_at: Its latest message's timestamp.
        last_seq: Its latest message's ``seq`` (sessions are listed by it, newest first).
    """

    session_id: str
    messages: int
    first_at: datetime
    last_at: datetime
    last_seq: int


@dataclass(frozen=True, slots=True)
class MessageCounts:
    """A user's messages counted the cheap way (what an overview shows).

    Attributes:
        messages: Messages stored.
        pending: Of them, those waiting for a vector (the background worker's queue).
        sessions: Sessions with at least one message.
    """

    messages: int
    pending: int
    sessions: int


#: No ``seq`` is this high: "before" it means "from the newest".
NO_SEQ = 2**63 - 1


def holds_terms(msg: Message, terms: Sequence[str]) -> bool:
    """Whether a message's indexed text (:func:`~langgraph_memory.core.records.index_text`)
    holds every one of ``terms`` (lexical terms, as :func:`~langgraph_memory.core.tokens.tokenize`
    makes them)."""
    own = set(tokenize(index_text(msg)))
    return all(t in own for t in terms)


class StorageCore(ABC):
    """Messages, the queue of messages still to embed, store metadata and deletion.

    ``seq`` is a store-wide increasing integer given at insertion; it orders a
    session's messages and keys vectors and postings. The queue is durable by
    construction: it is the set of stored messages without a vector
    (:meth:`pending_embeddings`), emptied by the vector capability.
    """

    #: Short backend name shown in stats.
    name: str = "abstract"
    #: Whether a lexical and a vector search gain from running at once on two threads
    #: (each waits on a server); hybrid retrieval then overlaps them, and the query's
    #: embedding with the lexical search.
    parallel_reads: bool = False

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
    def neighbors_many(
        self, user_id: str, seqs: Sequence[int], window: int
    ) -> dict[int, list[Message]]:
        """For each seq, up to ``window`` messages before and after it in its session, in
        order (an empty list for a seq of another user)."""

    @abstractmethod
    def iter_messages(self, user_id: str) -> list[Message]:
        """All messages of a user in insertion order."""

    def speaker_names(self, user_id: str, after: int = 0) -> tuple[set[str], int]:
        """The ``name`` of every message of ``user_id`` with a seq above ``after``, and the
        highest seq among them (``after`` when there is none): read once whole, then
        only what came since.

        Example:
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> from langgraph_memory.core.records import Message
            >>> from datetime import datetime, timezone
            >>> b = InMemoryBackend()
            >>> when = datetime(2024, 5, 1, tzinfo=timezone.utc)
            >>> _ = b.insert_message(Message("m1", "ann", "s1", "user", "hi", when, name="Ann"), [])
            >>> b.speaker_names("ann")
            ({'Ann'}, 1)
        """
        later = [m for m in self.iter_messages(user_id) if m.seq > after]
        return {m.name for m in later if m.name}, max((m.seq for m in later), default=after)

    def neighbors(self, user_id: str, seq: int, window: int) -> list[Message]:
        """:meth:`neighbors_many` of one message."""
        return self.neighbors_many(user_id, [seq], window).get(seq, [])

    def filter_seqs(self, user_id: str, predicate: Predicate) -> set[int]:
        """Seqs of the user's messages that satisfy ``predicate``."""
        return {m.seq for m in self.iter_messages(user_id) if predicate(m)}

    # -- pages of messages and sessions (for inspection) ---------------------------------
    def message_page(
        self,
        user_id: str,
        *,
        session_id: str | None = None,
        terms: Sequence[str] = (),
        before: int | None = None,
        limit: int = 50,
    ) -> list[Message]:
        """A page of the user's messages, newest first: those with a ``seq`` below
        ``before`` (all when ``None``), of one session when given, holding every one of
        ``terms`` (lexical terms) when given; at most ``limit``.

        The next page is the one ``before`` the last message's ``seq``: every message is
        on exactly one page, whatever is added meanwhile. This default reads the user's
        messages whole; SQLite and PostgreSQL read one page by an index.

        Example:
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> from datetime import datetime, timezone
            >>> b = InMemoryBackend()
            >>> when = datetime(2024, 5, 1, tzinfo=timezone.utc)
            >>> for i in range(3):
            ...     _ = b.insert_message(Message(f"m{i}", "ann", "s1", "user", "hi", when), [])
            >>> [m.id for m in b.message_page("ann", limit=2)]
            ['m2', 'm1']
            >>> [m.id for m in b.message_page("ann", before=2)]
            ['m0']
        """
        top = NO_SEQ if before is None else before
        if session_id is not None:
            pool = self.session_messages(user_id, session_id)
        else:
            pool = self.iter_messages(user_id)
        out: list[Message] = []
        for msg in reversed(pool):
            if len(out) >= limit:
                break
            if msg.seq < top and (not terms or holds_terms(msg, terms)):
                out.append(msg)
        return out

    def message_counts(self, user_id: str) -> MessageCounts:
        """A user's messages, those pending and sessions, counted.

        This default is :meth:`stats` (where ``pending`` counts the quarantined
        messages too: they have no vector either); the bundled backends count without
        reading the user's rows (SQLite: three indexes).
        """
        st = self.stats(user_id)
        return MessageCounts(st.messages, st.messages - st.embedded, st.sessions)

    def session_page(
        self, user_id: str, *, before: int | None = None, limit: int = 20
    ) -> list[SessionRow]:
        """A page of the user's sessions, the most recently active first: those whose
        latest message's ``seq`` is below ``before`` (all when ``None``), at most
        ``limit``. The next page is the one ``before`` the last session's ``last_seq``.

        This default reads the user's messages whole; SQLite and PostgreSQL walk the
        newest messages by an index until the page is full.
        """
        top = NO_SEQ if before is None else before
        rows: dict[str, list[Message]] = {}
        for msg in self.iter_messages(user_id):
            rows.setdefault(msg.session_id, []).append(msg)
        out = [
            SessionRow(sid, len(ms), ms[0].timestamp, ms[-1].timestamp, ms[-1].seq)
            for sid, ms in rows.items()
            if ms[-1].seq < top
        ]
        out.sort(key=lambda r: r.last_seq, reverse=True)
        return out[: max(limit, 0)]

    # -- the durable queue --------------------------------------------------------------
    @abstractmethod
    def pending_embeddings(self, limit: int) -> list[Message]:
        """Messages (of any user) that have no vector yet, oldest first."""

    @property
    def concurrent_embedding(self) -> bool:
        """Whether several processes may embed at once (the backend is a
        :class:`~langgraph_memory.storage.capabilities.ClaimQueue`)."""
        return isinstance(self, ClaimQueue)

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

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources."""


class MemoryBackend(
    StorageCore,
    VectorIndex,
    LexicalIndex,
    RecordEntryIndex,
    RecordStore,
    EmbeddingCache,
    FailedMessages,
    MessageDeletion,
):
    """The storage core with vectors, posting lists, records, the embedding cache, the
    long-term entry index, quarantined messages and single-message deletion: what every
    bundled backend offers,
    and the type a manager is built on. The entry index defaults to
    :class:`~langgraph_memory.storage.entries_records.RecordEntryIndex`
    (kept as records); SQLite and PostgreSQL keep tables of their own for it.

    Example:
        >>> from langgraph_memory.storage import InMemoryBackend
        >>> isinstance(InMemoryBackend(), MemoryBackend)
        True
    """
