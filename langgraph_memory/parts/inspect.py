"""``mm.inspect``: read-only views of what a user's memory holds, a page at a time.

For the people who look at a memory (the inspector pages of ``langgraph-memory serve``
under ``/ui``, a notebook, a support tool): a user's overview (counts per layer, recent
sessions, latest messages), their sessions and messages newest first with a text search,
one message with its surroundings. Nothing here writes.

Every list is a :class:`Listing`: at most ``limit`` items and a ``cursor`` to pass back
for the next page (``None`` at the end). Pages are keyset pages (each starts below the
last item of the one before), so every item is on exactly one page whatever is written
meanwhile, and the thousandth page costs what the first does: on SQLite and PostgreSQL
each call is a few indexed range reads, never a scan of a user's messages (see
:mod:`langgraph_memory.storage.sqlite.pages`). A text search matches the messages
holding every term of the query, by the store's own lexical index (the terms BM25
ranks with: English words folded, Chinese cut by jieba), newest first.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.add_turn("ann", "s1", user="I moved to Lyon.", assistant="Nice city!")
    ...     _ = mm.add_turn("ann", "s2", user="我喜欢绿茶", assistant="好的")
    ...     first = mm.inspect.messages("ann", limit=3)
    ...     rest = mm.inspect.messages("ann", limit=3, cursor=first.cursor)
    ...     found = mm.inspect.messages("ann", query="Lyon")
    ...     [m.content for m in first.items], [m.content for m in rest.items], rest.cursor
    ...     [m.content for m in found.items], mm.inspect.overview("ann").messages
    (['好的', '我喜欢绿茶', 'Nice city!'], ['I moved to Lyon.'], None)
    (['I moved to Lyon.'], 4)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from langgraph_memory.config import WriteSection
from langgraph_memory.core.records import Message
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.core.validation import check_content, check_id
from langgraph_memory.layers.hierarchy.placement import Hierarchy
from langgraph_memory.parts.aio import AsyncPart, awaitable
from langgraph_memory.parts.lifetime import Lifetime
from langgraph_memory.storage.base import MemoryBackend, SessionRow

__all__ = [
    "Inspect",
    "AsyncInspect",
    "Listing",
    "Overview",
    "MessageView",
    "SessionRow",
    "LAYER_KINDS",
    "MAX_LIMIT",
]

T = TypeVar("T")

#: The most items one page holds.
MAX_LIMIT = 500

#: What :meth:`Inspect.overview` counts per layer: a name, and the record kind it counts.
LAYER_KINDS: Mapping[str, str] = {
    "short_term_sessions": "stm",
    "segments": "segment",
    "preferences": "profile",
    "facts": "fact",
    "instructions": "anchor",
    "traits": "trait",
    "entities": "entity",
    "contradictions": "contradiction",
    "tasks": "task",
    "episodes": "episode",
    "knowledge": "knowledge",
    "lessons": "lesson",
    "insights": "insight",
    "rollups": "rollup",
    "documents": "document",
}

_CURSOR = re.compile(r"[0-9]{1,19}")


@dataclass(frozen=True, slots=True)
class Listing(Generic[T]):
    """One page of a list.

    Attributes:
        items: The page's items, in the list's order (newest first unless said).
        cursor: Pass it back as ``cursor=`` for the next page; ``None`` when this page
            is the last.
    """

    items: tuple[T, ...]
    cursor: str | None


@dataclass(frozen=True, slots=True)
class Overview:
    """A user's memory at a glance.

    Attributes:
        user_id: Whose.
        messages: Messages stored.
        embedded: Of them, those embedded (found by meaning as well as by terms).
        pending: Of them, those waiting for the background worker.
        sessions: Sessions with at least one message.
        layers: Records per layer (see :data:`LAYER_KINDS`; ``segments`` counts archived
            ones too, ``short_term_sessions`` the sessions with a short-term window).
        recent_sessions: The most recently active sessions (a first page of
            :meth:`Inspect.sessions`).
        latest_messages: The newest messages (a first page of :meth:`Inspect.messages`).
    """

    user_id: str
    messages: int
    embedded: int
    pending: int
    sessions: int
    layers: Mapping[str, int]
    recent_sessions: Listing[SessionRow]
    latest_messages: Listing[Message]


@dataclass(frozen=True, slots=True)
class MessageView:
    """One message and where it sits.

    Attributes:
        message: The message.
        before: Up to ``window`` messages said before it in its session, in order.
        after: Up to ``window`` messages said after it in its session, in order.
        segment_id: The mid-term segment holding its page, once it left short-term
            memory (``None`` before, or when it was never placed).
    """

    message: Message
    before: tuple[Message, ...]
    after: tuple[Message, ...]
    segment_id: str | None


def _check_limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, got {type(limit).__name__}")
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be between 1 and {MAX_LIMIT}, got {limit}")
    return limit


def _check_cursor(cursor: object) -> int | None:
    """The seq a cursor stands for (``None``: the first page)."""
    if cursor is None:
        return None
    if not isinstance(cursor, str):
        raise TypeError(f"cursor must be a str or None, got {type(cursor).__name__}")
    if not _CURSOR.fullmatch(cursor):
        raise ValueError(
            f"cursor must be the .cursor of a previous page of this list, got {cursor[:40]!r}"
        )
    return int(cursor)


def _listing(items: list[T], limit: int, last: int | None) -> Listing[T]:
    """A page of ``limit + 1`` items read: the first ``limit``, and a cursor when there
    was one more (``last`` is the keyset value of the page's last item)."""
    more = len(items) > limit
    return Listing(tuple(items[:limit]), str(last) if more and last is not None else None)


class Inspect:
    """Read-only, paginated views of a user's memory (see the module docs).

    Args:
        storage: The store.
        hierarchy: Short-term windows and mid-term segments.
        limits: The query length limit.
        lifetime: The manager's open/closed state.
    """

    def __init__(
        self,
        storage: MemoryBackend,
        hierarchy: Hierarchy,
        limits: WriteSection,
        lifetime: Lifetime,
    ) -> None:
        self._storage = storage
        self._hierarchy = hierarchy
        self._limits = limits
        self._life = lifetime

    def overview(self, user_id: str, *, limit: int = 10) -> Overview:
        """A user's counts per layer, most recent sessions and newest messages.

        Args:
            user_id: Whose memory.
            limit: How many recent sessions and newest messages.

        Returns:
            An :class:`Overview` (zeros and empty pages for an unknown user).

        Example:
            >>> ov = mm.inspect.overview("ann")  # doctest: +SKIP
            >>> ov.messages, ov.layers["facts"]  # doctest: +SKIP
            (4, 1)
            >>> [s.session_id for s in ov.recent_sessions.items]  # doctest: +SKIP
            ['s2', 's1']
        """
        self._life.check()
        check_id(user_id, "user_id")
        limit = _check_limit(limit)
        st = self._storage.stats(user_id)
        layers = {
            name: self._storage.count_records(kind, user_id) for name, kind in LAYER_KINDS.items()
        }
        return Overview(
            user_id,
            st.messages,
            st.embedded,
            st.messages - st.embedded,
            st.sessions,
            layers,
            self.sessions(user_id, limit=limit),
            self.messages(user_id, limit=limit),
        )

    def sessions(
        self, user_id: str, *, cursor: str | None = None, limit: int = 20
    ) -> Listing[SessionRow]:
        """A user's sessions, the most recently active first.

        Args:
            user_id: Whose.
            cursor: The previous page's ``cursor`` (``None``: the first page).
            limit: At most this many (1 to :data:`MAX_LIMIT`).

        Returns:
            A :class:`Listing` of :class:`SessionRow` (id, messages, first and last
            message times).

        Raises:
            ValueError: On a cursor that no page gave, or a limit out of range.

        Example:
            >>> page = mm.inspect.sessions("ann", limit=20)  # doctest: +SKIP
            >>> more = mm.inspect.sessions("ann", limit=20, cursor=page.cursor)  # doctest: +SKIP
        """
        self._life.check()
        check_id(user_id, "user_id")
        limit = _check_limit(limit)
        rows = self._storage.session_page(user_id, before=_check_cursor(cursor), limit=limit + 1)
        return _listing(rows, limit, rows[limit - 1].last_seq if len(rows) > limit else None)

    def messages(
        self,
        user_id: str,
        *,
        session_id: str | None = None,
        query: str | None = None,
        cursor: str | None = None,
        limit: int = 50,
    ) -> Listing[Message]:
        """A user's messages, newest first: all of them, a session's, or those matching
        a text search.

        Args:
            user_id: Whose.
            session_id: Only this session's.
            query: Only messages holding every term of it (the store's lexical index:
                words lower-cased and folded, stopwords dropped, Chinese cut into words;
                ``"Lyon trip"`` finds messages holding both ``lyon`` and ``trip``).
            cursor: The previous page's ``cursor`` (``None``: the first page).
            limit: At most this many (1 to :data:`MAX_LIMIT`).

        Returns:
            A :class:`Listing` of :class:`~langgraph_memory.core.records.Message`.

        Raises:
            ValueError: On a query holding no searchable term (only stopwords or
                punctuation), a cursor that no page gave, or a limit out of range.

        Example:
            >>> page = mm.inspect.messages("ann", query="green tea")  # doctest: +SKIP
            >>> older = mm.inspect.messages(  # doctest: +SKIP
            ...     "ann", query="green tea", cursor=page.cursor)
        """
        self._life.check()
        check_id(user_id, "user_id")
        if session_id is not None:
            check_id(session_id, "session_id")
        terms: list[str] = []
        if query is not None:
            check_content(query, self._limits.max_content_chars, "query")
            terms = list(dict.fromkeys(tokenize(query)))
            if not terms:
                raise ValueError(
                    f"query {query[:40]!r} holds no searchable term (only stopwords or punctuation)"
                )
        limit = _check_limit(limit)
        msgs = self._storage.message_page(
            user_id,
            session_id=session_id,
            terms=terms,
            before=_check_cursor(cursor),
            limit=limit + 1,
        )
        return _listing(msgs, limit, msgs[limit - 1].seq if len(msgs) > limit else None)

    def message(self, user_id: str, message_id: str, *, window: int = 2) -> MessageView:
        """One message of a user, with the ``window`` messages around it in its session
        and the mid-term segment holding it.

        Raises:
            KeyError: When the user has no message with that id (another user's id is
                not found either).

        Example:
            >>> view = mm.inspect.message("ann", "m-123")  # doctest: +SKIP
            >>> view.message.content, [m.id for m in view.before]  # doctest: +SKIP
        """
        self._life.check()
        check_id(user_id, "user_id")
        check_id(message_id, "message_id")
        if isinstance(window, bool) or not isinstance(window, int):
            raise TypeError(f"window must be an int, got {type(window).__name__}")
        if not 0 <= window <= 50:
            raise ValueError(f"window must be between 0 and 50, got {window}")
        msg = self._storage.get_message(user_id, message_id)
        if msg is None:
            raise KeyError(f"user {user_id!r} has no message {message_id!r}")
        around = self._storage.neighbors(user_id, msg.seq, window) if window else []
        seg = self._hierarchy.segment_of(user_id, [msg.seq]).get(msg.seq)
        return MessageView(
            msg,
            tuple(m for m in around if m.seq < msg.seq),
            tuple(m for m in around if m.seq > msg.seq),
            seg,
        )


class AsyncInspect(AsyncPart[Inspect]):
    """Awaitable ``mm.inspect`` (see :class:`~langgraph_memory.parts.inspect.Inspect`)."""

    overview = awaitable(Inspect.overview)
    sessions = awaitable(Inspect.sessions)
    messages = awaitable(Inspect.messages)
    message = awaitable(Inspect.message)
