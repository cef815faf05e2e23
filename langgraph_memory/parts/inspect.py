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

import base64
import binascii
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Generic, Literal, TypeVar, get_args

from langgraph_memory.config import HierarchySection, WriteSection
from langgraph_memory.core.records import Message, Record
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.core.validation import check_content, check_id
from langgraph_memory.layers.hierarchy.placement import Hierarchy
from langgraph_memory.layers.knowledge.consolidation import Knowledge
from langgraph_memory.layers.knowledge.documents import DocumentInfo
from langgraph_memory.layers.long_term.contradictions import Contradiction
from langgraph_memory.layers.long_term.entities import Entity
from langgraph_memory.layers.long_term.facts import Fact, normalize_term
from langgraph_memory.layers.long_term.memory import AgentTrait
from langgraph_memory.layers.long_term.profile import ProfileEntry
from langgraph_memory.layers.long_term.reflection import Insight, Lesson
from langgraph_memory.layers.long_term.rollups import Rollup
from langgraph_memory.layers.mid_term.heat_history import MAX_SAMPLES, HeatPoint, heat_curve
from langgraph_memory.layers.mid_term.segments import Segment
from langgraph_memory.layers.short_term.pages import Page
from langgraph_memory.layers.working.tasks import Anchor, Episode, TaskState
from langgraph_memory.parts.aio import AsyncPart, awaitable
from langgraph_memory.parts.lifetime import Lifetime
from langgraph_memory.storage.base import MemoryBackend, SessionRow

__all__ = [
    "Inspect",
    "AsyncInspect",
    "Listing",
    "Overview",
    "MessageView",
    "Derived",
    "SessionRow",
    "SessionView",
    "PageView",
    "ChainView",
    "SegmentView",
    "SegmentDetail",
    "HeatPoint",
    "ProfileView",
    "EntityView",
    "RecordLayer",
    "LAYER_KINDS",
    "MAX_LIMIT",
    # the library's records the views return, importable from here
    "Message",
    "ProfileEntry",
    "Fact",
    "Anchor",
    "AgentTrait",
    "Entity",
    "Contradiction",
    "TaskState",
    "Episode",
    "Knowledge",
    "Lesson",
    "Insight",
    "Rollup",
    "DocumentInfo",
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
        pending: Of them, those waiting for the background worker (embedding).
        quarantined: Of them, those the worker could not embed (set aside, still
            stored and found by their terms; see ``mm.maintenance``).
        sessions: Sessions with at least one message.
        layers: Records per layer (see :data:`LAYER_KINDS`; ``segments`` counts archived
            ones too, ``short_term_sessions`` the sessions with a short-term window).
        recent_sessions: The most recently active sessions (a first page of
            :meth:`Inspect.sessions`).
        latest_messages: The newest messages (a first page of :meth:`Inspect.messages`).
    """

    user_id: str
    messages: int
    pending: int
    quarantined: int
    sessions: int
    layers: Mapping[str, int]
    recent_sessions: Listing[SessionRow]
    latest_messages: Listing[Message]


@dataclass(frozen=True, slots=True)
class Derived:
    """A record read from a message (it cites the message).

    Attributes:
        layer: Its list in :meth:`Inspect.records` (``"preferences"``, ``"facts"``,
            ``"instructions"``, ``"entities"``, ``"episodes"``...).
        record: The library's record (:class:`ProfileEntry`, :class:`Fact`...).
    """

    layer: str
    record: Any


@dataclass(frozen=True, slots=True)
class MessageView:
    """One message, where it sits, and what was read from it.

    Attributes:
        message: The message.
        before: Up to ``window`` messages said before it in its session, in order.
        after: Up to ``window`` messages said after it in its session, in order.
        segment_id: The mid-term segment holding its page, once it left short-term
            memory (``None`` before, or when it was never placed).
        derived: The records that cite it (preferences, facts, instructions, entities,
            traits, contradictions, roll-ups, insights, lessons, episodes), newest first:
            what deleting it takes along or changes.
        derived_complete: Whether every record of those lists was checked: the search
            reads the newest 500 of each list (a user with more of one list may have
            older records citing it that are not shown).
    """

    message: Message
    before: tuple[Message, ...]
    after: tuple[Message, ...]
    segment_id: str | None
    derived: tuple[Derived, ...] = ()
    derived_complete: bool = True


@dataclass(frozen=True, slots=True)
class PageView:
    """A page (one exchange: a user message and the reply) as the hierarchy keeps it.

    Attributes:
        id: The id of its first message.
        session_id: Where it was said.
        message_ids: Its messages, in order.
        timestamp: When its first message was said.
        keywords: Its content words, most frequent first.
        tokens: Tokens of its messages.
        chain_id: Its topic chain (in short-term memory), if any.
        open: Whether it may still take a reply.
    """

    id: str
    session_id: str
    message_ids: tuple[str, ...]
    timestamp: datetime
    keywords: tuple[str, ...]
    tokens: int
    chain_id: str | None
    open: bool


@dataclass(frozen=True, slots=True)
class ChainView:
    """A topic chain of a session's short-term memory.

    Attributes:
        id: ``"<session>#<n>"``.
        page_ids: Its pages still in the short-term window, oldest first.
        pages_total: Pages it ever had.
        summary: What it is about (empty until summarised).
        summary_source_ids: The messages the summary was made from.
        keywords: Its most frequent words.
    """

    id: str
    page_ids: tuple[str, ...]
    pages_total: int
    summary: str
    summary_source_ids: tuple[str, ...]
    keywords: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SessionView:
    """A session: its messages' span and its short-term memory.

    Attributes:
        session: Its id, size and span (as :meth:`Inspect.sessions` lists it).
        window: The short-term window: its pages, oldest first (the messages the
            background worker placed; the newest may still wait for it).
        window_tokens: Tokens of the window's pages.
        chains: Its topic chains, with their summaries.
        last_active: When its last placed message was said.
    """

    session: SessionRow
    window: tuple[PageView, ...]
    window_tokens: int
    chains: tuple[ChainView, ...]
    last_active: datetime | None


@dataclass(frozen=True, slots=True)
class SegmentView:
    """A mid-term segment: similar pages of a user, with a summary and a heat.

    The heat is computed now from what the segment keeps: ``visits`` (retrievals since
    its last promotion), ``interactions`` (pages gained since then) and the time since
    ``last_access``. Its past values are rebuilt from the events the segment keeps (its
    latest visits' and promotions' times, its pages' times): see
    :attr:`SegmentDetail.heat_curve`.

    Attributes:
        id: ``"seg-..."``.
        summary: What it is about.
        summary_source_ids: The messages the summary was made from.
        keywords: Its most frequent words.
        pages: How many pages it holds.
        heat: Its heat now (``α·visits + β·interactions + γ·exp(−Δt/μ)``).
        visits: Retrievals since its last promotion.
        interactions: Pages gained since its last promotion.
        promotions: How often its heat passed the threshold and it was promoted to
            long-term memory.
        created_at: When it was made.
        last_access: When it was last retrieved or extended.
        archived: Evicted from mid-term retrieval (its pages stay searchable).
    """

    id: str
    summary: str
    summary_source_ids: tuple[str, ...]
    keywords: tuple[str, ...]
    pages: int
    heat: float
    visits: int
    interactions: int
    promotions: int
    created_at: datetime
    last_access: datetime
    archived: bool


@dataclass(frozen=True, slots=True)
class SegmentDetail:
    """One segment, a page of its pages, and its heat over time.

    Attributes:
        segment: The segment.
        pages: Its pages, the latest joined first.
        page_times: When each of its pages was said, oldest first (at most the last
            1,000).
        heat_curve: Its heat over time, oldest first, from ``history_from`` to now (the
            last point is :attr:`SegmentView.heat`): the heat formula with the configured
            ``α, β, γ, μ`` applied at each time to the events up to it (visits and pages
            counted from the last promotion before it). Evenly spaced times, and each
            kept event twice (the heat just before it, then with it). See
            :func:`~langgraph_memory.layers.mid_term.heat_history.heat_curve`.
        visit_times: When it was retrieved, oldest first (its latest 200 visits).
        promotion_times: When it was promoted to long-term memory, oldest first (its
            latest 50 promotions).
        history_from: Since when every visit and promotion is kept (its creation until
            the oldest was dropped, or for a segment saved before visits had times, its
            last access then): the curve starts there.
    """

    segment: SegmentView
    pages: Listing[PageView]
    page_times: tuple[datetime, ...]
    heat_curve: tuple[HeatPoint, ...] = ()
    visit_times: tuple[datetime, ...] = ()
    promotion_times: tuple[datetime, ...] = ()
    history_from: datetime | None = None


@dataclass(frozen=True, slots=True)
class ProfileView:
    """What the memory believes about a user: the first page of each list (more with
    :meth:`Inspect.records`).

    Attributes:
        preferences: Preferences (key, value, scope, source, confidence...), newest first.
        current_facts: Facts that still hold, newest first.
        superseded_facts: Facts closed by a later one (``valid_to``, ``superseded_by``),
            newest first.
        instructions: Standing instructions (anchors of the user or of one session),
            newest first.
        threshold: The confidence a preference needs to reach a context.
    """

    preferences: Listing[ProfileEntry]
    current_facts: Listing[Fact]
    superseded_facts: Listing[Fact]
    instructions: Listing[Anchor]
    threshold: float


@dataclass(frozen=True, slots=True)
class EntityView:
    """An entity and its edges in the user's knowledge graph.

    Attributes:
        entity: The entity (name, type, mentions...).
        relations: Facts whose subject is the entity, newest first (at most 20).
    """

    entity: Entity
    relations: tuple[Fact, ...]


#: The record lists of :meth:`Inspect.records`.
RecordLayer = Literal[
    "preferences",
    "facts",
    "current_facts",
    "superseded_facts",
    "instructions",
    "traits",
    "entities",
    "contradictions",
    "tasks",
    "episodes",
    "knowledge",
    "lessons",
    "insights",
    "rollups",
    "documents",
]

#: Each record list: its record kind, how a record loads, and which records it keeps.
_RECORD_LAYERS: dict[str, tuple[str, Callable[[dict[str, Any]], Any], Callable[[Any], bool]]] = {
    "preferences": ("profile", ProfileEntry.load, lambda _: True),
    "facts": ("fact", Fact.load, lambda _: True),
    "current_facts": ("fact", Fact.load, lambda f: f.superseded_by is None and f.valid_to is None),
    "superseded_facts": (
        "fact",
        Fact.load,
        lambda f: f.superseded_by is not None or f.valid_to is not None,
    ),
    "instructions": ("anchor", Anchor.load, lambda _: True),
    "traits": ("trait", AgentTrait.load, lambda _: True),
    "entities": ("entity", Entity.load, lambda _: True),
    "contradictions": ("contradiction", Contradiction.load, lambda _: True),
    "tasks": ("task", TaskState.load, lambda _: True),
    "episodes": ("episode", Episode.load, lambda _: True),
    "knowledge": ("knowledge", Knowledge.load, lambda _: True),
    "lessons": ("lesson", Lesson.load, lambda _: True),
    "insights": ("insight", Insight.load, lambda _: True),
    "rollups": ("rollup", Rollup.load, lambda _: True),
    "documents": ("document", DocumentInfo.load, lambda _: True),
}
assert set(_RECORD_LAYERS) == set(get_args(RecordLayer))
#: The lists whose records cite the messages they were read from.
_CITING = (
    "preferences",
    "facts",
    "instructions",
    "traits",
    "entities",
    "contradictions",
    "rollups",
    "insights",
    "lessons",
    "episodes",
)
#: Records of each list :meth:`Inspect.message` reads at most for what cites a message.
_CITING_SCAN = 500
#: Records a filtered list reads at most per call (a page then ends early, with a cursor).
_SCAN = 2000


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


def _utc(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=timezone.utc)


def _listing(items: list[T], limit: int, last: int | None) -> Listing[T]:
    """A page of ``limit + 1`` items read: the first ``limit``, and a cursor when there
    was one more (``last`` is the keyset value of the page's last item)."""
    more = len(items) > limit
    return Listing(tuple(items[:limit]), str(last) if more and last is not None else None)


def _record_cursor(rec: Record) -> str:
    """The cursor after a record: its ``(created_at, id)``, URL-safe."""
    raw = json.dumps([rec.created_at.isoformat(), rec.id], ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _check_record_cursor(cursor: object) -> tuple[str, str] | None:
    if cursor is None:
        return None
    if not isinstance(cursor, str):
        raise TypeError(f"cursor must be a str or None, got {type(cursor).__name__}")
    bad = ValueError(
        f"cursor must be the .cursor of a previous page of this list, got {cursor[:40]!r}"
    )
    if len(cursor) > 2000:
        raise bad
    try:
        got = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise bad from None
    if not (isinstance(got, list) and len(got) == 2 and all(isinstance(v, str) for v in got)):
        raise bad
    return got[0], got[1]


def _cites(data: Mapping[str, Any], message_id: str) -> bool:
    """Whether a record's data cites a message (as deletion finds them:
    ``source_ids``, also under ``metadata``; ``message_id(s)``; entity ``mentions``)."""
    meta = data.get("metadata")
    for holder in (data, meta if isinstance(meta, Mapping) else {}):
        sources = holder.get("source_ids")
        if isinstance(sources, list) and message_id in sources:
            return True
    ids = data.get("message_ids")
    if data.get("message_id") == message_id or (isinstance(ids, list) and message_id in ids):
        return True
    mentions = data.get("mentions")
    return isinstance(mentions, list) and any(
        isinstance(m, list) and m and m[0] == message_id for m in mentions
    )


def _page_view(p: Page) -> PageView:
    return PageView(
        p.id,
        p.session_id,
        tuple(p.message_ids),
        p.timestamp,
        tuple(p.keywords),
        p.tokens,
        p.chain_id,
        p.open,
    )


class Inspect:
    """Read-only, paginated views of a user's memory (see the module docs).

    Args:
        storage: The store.
        hierarchy: Short-term windows and mid-term segments.
        limits: The query length limit.
        heat: The heat parameters (segments' heat is computed with them).
        threshold: The confidence a preference needs to reach a context.
        lifetime: The manager's open/closed state.
    """

    def __init__(
        self,
        storage: MemoryBackend,
        hierarchy: Hierarchy,
        limits: WriteSection,
        heat: HierarchySection,
        threshold: float,
        lifetime: Lifetime,
    ) -> None:
        self._storage = storage
        self._hierarchy = hierarchy
        self._limits = limits
        self._heat = heat
        self._threshold = threshold
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
        counts = self._storage.message_counts(user_id)
        layers = {
            name: self._storage.count_records(kind, user_id) for name, kind in LAYER_KINDS.items()
        }
        quarantined = self._storage.count_records("failed_message", user_id)
        return Overview(
            user_id,
            counts.messages,
            counts.pending,
            quarantined,
            counts.sessions,
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

    def message(
        self, user_id: str, message_id: str, *, window: int = 2, derived: bool = True
    ) -> MessageView:
        """One message of a user, with the ``window`` messages around it in its session,
        the mid-term segment holding it, and the records read from it (see
        :class:`MessageView`).

        Args:
            user_id: Whose.
            message_id: The message's id.
            window: How many messages before and after it (0 to 50).
            derived: Look for the records read from it (``False``: ``derived`` is empty
                and ``derived_complete`` false; a few indexed reads instead of up to
                5,000 records decoded, for a list of messages).

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
        found: list[Derived] = []
        complete = derived
        for layer in _CITING if derived else ():
            kind, load, _ = _RECORD_LAYERS[layer]
            recs = self._storage.record_page(kind, user_id, limit=_CITING_SCAN + 1)
            complete = complete and len(recs) <= _CITING_SCAN
            found += [
                Derived(layer, load(r.data)) for r in recs[:_CITING_SCAN] if _cites(r.data, msg.id)
            ]
        return MessageView(
            msg,
            tuple(m for m in around if m.seq < msg.seq),
            tuple(m for m in around if m.seq > msg.seq),
            seg,
            tuple(found),
            complete,
        )

    def session(self, user_id: str, session_id: str) -> SessionView:
        """A session: its span, its short-term window (pages, oldest first), its topic
        chains and their summaries.

        Raises:
            KeyError: When the user has no message in that session.

        Example:
            >>> view = mm.inspect.session("ann", "s1")  # doctest: +SKIP
            >>> [c.summary for c in view.chains]  # doctest: +SKIP
        """
        self._life.check()
        check_id(user_id, "user_id")
        check_id(session_id, "session_id")
        last = self._storage.message_page(user_id, session_id=session_id, limit=1)
        if not last:
            raise KeyError(f"user {user_id!r} has no session {session_id!r}")
        with self._hierarchy.lock:
            st = self._hierarchy.state(user_id, session_id)
            window = tuple(_page_view(p) for p in st.pages)
            chains = tuple(
                ChainView(
                    c.id,
                    tuple(c.page_ids),
                    c.pages_total,
                    c.summary,
                    tuple(c.summary_source_ids),
                    tuple(c.keywords(10)),
                )
                for c in st.chains.values()
            )
            tokens, active = st.tokens, st.last_active
        row = self._session_row(user_id, session_id, last[0])
        return SessionView(row, window, tokens, chains, active)

    def _session_row(self, user_id: str, session_id: str, last: Message) -> SessionRow:
        """A session's row from its latest message (its size and first message read by
        the session's index)."""
        for row in self._storage.session_page(user_id, before=last.seq + 1, limit=1):
            if row.session_id == session_id:
                return row
        return SessionRow(session_id, 1, last.timestamp, last.timestamp, last.seq)

    def segments(
        self,
        user_id: str,
        *,
        archived: bool | None = False,
        order: Literal["heat", "recent"] = "heat",
        cursor: str | None = None,
        limit: int = 20,
    ) -> Listing[SegmentView]:
        """A user's mid-term segments, hottest (or most recently accessed) first.

        Args:
            user_id: Whose.
            archived: ``False`` (default): the active ones; ``True``: the archived ones;
                ``None``: both.
            order: ``"heat"`` (hottest first) or ``"recent"`` (latest access first).
            cursor: The previous page's ``cursor``.
            limit: At most this many (1 to :data:`MAX_LIMIT`).

        Heat is computed now (see :class:`SegmentView`: no history is stored). The
        segments are read from the hierarchy the background worker keeps in memory (the
        store's records are read once per process and user).

        Example:
            >>> hot = mm.inspect.segments("ann", limit=10).items  # doctest: +SKIP
            >>> [(s.id, round(s.heat, 2), s.visits, s.promotions) for s in hot]  # doctest: +SKIP
        """
        self._life.check()
        check_id(user_id, "user_id")
        if archived not in (None, True, False):
            raise TypeError(f"archived must be a bool or None, got {archived!r}")
        if order not in ("heat", "recent"):
            raise ValueError(f"order must be 'heat' or 'recent', got {order!r}")
        limit = _check_limit(limit)
        start = _check_cursor(cursor) or 0
        now = datetime.now(timezone.utc)
        with self._hierarchy.lock:
            segs = [
                s
                for s in self._hierarchy.segments(user_id).values()
                if archived is None or s.archived == archived
            ]
            keyed = [(self._segment_heat(s, now), s) for s in segs]
            if order == "heat":
                keyed.sort(key=lambda hs: (-hs[0], hs[1].id))
            else:
                keyed.sort(key=lambda hs: (hs[1].last_access, hs[1].id), reverse=True)
            page = [self._segment_view(s, h) for h, s in keyed[start : start + limit]]
            more = start + limit < len(keyed)
        return Listing(tuple(page), str(start + limit) if more else None)

    def segment(
        self,
        user_id: str,
        segment_id: str,
        *,
        cursor: str | None = None,
        limit: int = 50,
        samples: int = 120,
        since: datetime | None = None,
    ) -> SegmentDetail:
        """One segment with a page of its pages (the latest joined first), when its pages
        were said, and its heat over time (rebuilt from its visits, promotions and pages:
        see :class:`SegmentDetail`).

        Args:
            user_id: Whose.
            segment_id: Which.
            cursor: The previous page's ``cursor`` (of its pages).
            limit: Pages at most (1 to :data:`MAX_LIMIT`).
            samples: Evenly spaced times of the heat curve (2 to 1,000).
            since: Start the heat curve no earlier than this (timezone-aware; a zoom on
                the latest events: a segment made of old messages and visited today
                spans years).

        Raises:
            KeyError: When the user has no segment with that id.

        Example:
            >>> d = mm.inspect.segment("ann", "seg-0123456789abcdef")  # doctest: +SKIP
            >>> d.heat_curve[-1].heat == d.segment.heat  # doctest: +SKIP
            True
        """
        self._life.check()
        check_id(user_id, "user_id")
        check_id(segment_id, "segment_id")
        limit = _check_limit(limit)
        start = _check_cursor(cursor) or 0
        if isinstance(samples, bool) or not isinstance(samples, int):
            raise TypeError(f"samples must be an int, got {type(samples).__name__}")
        if not 2 <= samples <= MAX_SAMPLES:
            raise ValueError(f"samples must be between 2 and {MAX_SAMPLES}, got {samples}")
        if since is not None and (not isinstance(since, datetime) or since.tzinfo is None):
            raise TypeError(f"since must be a timezone-aware datetime or None, got {since!r}")
        with self._hierarchy.lock:
            seg = self._hierarchy.segments(user_id).get(segment_id)
            if seg is None:
                raise KeyError(f"user {user_id!r} has no segment {segment_id!r}")
            now = datetime.now(timezone.utc)
            view = self._segment_view(seg, self._segment_heat(seg, now))
            newest = seg.pages[::-1]
            pages = tuple(_page_view(p) for p in newest[start : start + limit])
            more = start + limit < len(newest)
            times = tuple(p.timestamp for p in seg.pages[-1000:])
            c = self._heat
            curve = heat_curve(
                seg,
                now,
                samples=samples,
                since=since,
                alpha=c.heat_alpha,
                beta=c.heat_beta,
                gamma=c.heat_gamma,
                mu_seconds=c.heat_mu_seconds,
            )
            visits = tuple(_utc(v) for v in seg.visit_times)
            promotions = tuple(_utc(p.at) for p in seg.promotion_log)
            since = seg.history_from or seg.created_at
        return SegmentDetail(
            view,
            Listing(pages, str(start + limit) if more else None),
            times,
            tuple(curve),
            visits,
            promotions,
            since,
        )

    def _segment_heat(self, seg: Segment, now: datetime) -> float:
        c = self._heat
        return seg.heat(
            now,
            alpha=c.heat_alpha,
            beta=c.heat_beta,
            gamma=c.heat_gamma,
            mu_seconds=c.heat_mu_seconds,
        )

    @staticmethod
    def _segment_view(seg: Segment, heat: float) -> SegmentView:
        return SegmentView(
            seg.id,
            seg.summary,
            tuple(seg.summary_source_ids),
            tuple(seg.keywords(10)),
            len(seg.pages),
            heat,
            seg.visits,
            seg.interactions,
            seg.promotions,
            seg.created_at,
            seg.last_access,
            seg.archived,
        )

    def profile(self, user_id: str, *, limit: int = 20) -> ProfileView:
        """What the memory believes about a user: the first page (``limit``) of their
        preferences, current facts, superseded facts and standing instructions.

        Example:
            >>> prof = mm.inspect.profile("ann")  # doctest: +SKIP
            >>> [(p.key, p.value, p.scope, p.source, p.confidence)  # doctest: +SKIP
            ...  for p in prof.preferences.items]
        """
        self._life.check()
        check_id(user_id, "user_id")
        limit = _check_limit(limit)
        return ProfileView(
            self.records(user_id, "preferences", limit=limit),
            self.records(user_id, "current_facts", limit=limit),
            self.records(user_id, "superseded_facts", limit=limit),
            self.records(user_id, "instructions", limit=limit),
            self._threshold,
        )

    def records(
        self,
        user_id: str,
        layer: RecordLayer,
        *,
        cursor: str | None = None,
        limit: int = 50,
    ) -> Listing[Any]:
        """A page of one of a user's long-term or working-memory lists, newest first.

        Args:
            user_id: Whose.
            layer: Which list (see :data:`RecordLayer`): ``"preferences"``
                (:class:`ProfileEntry`), ``"facts"``, ``"current_facts"``,
                ``"superseded_facts"`` (:class:`Fact`), ``"instructions"``
                (:class:`Anchor`), ``"traits"`` (:class:`AgentTrait`), ``"entities"``
                (:class:`Entity`), ``"contradictions"``, ``"tasks"`` (:class:`TaskState`),
                ``"episodes"``, ``"knowledge"``, ``"lessons"``, ``"insights"``,
                ``"rollups"``, ``"documents"`` (:class:`DocumentInfo`, with its
                versions).
            cursor: The previous page's ``cursor``.
            limit: At most this many (1 to :data:`MAX_LIMIT`).

        Returns:
            A :class:`Listing` of the library's own records. A filtered list
            (``current_facts``, ``superseded_facts``) reads at most 2,000 records a
            call: a page may then hold fewer than ``limit`` items and a cursor.

        Raises:
            ValueError: On an unknown layer, a cursor that no page gave, or a limit out
                of range.

        Example:
            >>> eps = mm.inspect.records("ann", "episodes", limit=10)  # doctest: +SKIP
            >>> more = mm.inspect.records("ann", "episodes", cursor=eps.cursor)  # doctest: +SKIP
        """
        self._life.check()
        check_id(user_id, "user_id")
        if layer not in _RECORD_LAYERS:
            raise ValueError(f"layer must be one of {sorted(_RECORD_LAYERS)}, got {layer!r}")
        limit = _check_limit(limit)
        kind, load, keep = _RECORD_LAYERS[layer]
        before = _check_record_cursor(cursor)
        items: list[Any] = []
        scanned = 0
        last: Record | None = None
        batch = limit + 1
        while True:
            recs = self._storage.record_page(kind, user_id, before=before, limit=batch)
            for rec in recs:
                item = load(rec.data)
                if keep(item):
                    if len(items) == limit:  # one more exists: this page ends before it
                        assert last is not None
                        return Listing(tuple(items), _record_cursor(last))
                    items.append(item)
                last = rec
                scanned += 1
            if len(recs) < batch:  # the list's end
                return Listing(tuple(items), None)
            if scanned >= _SCAN:  # a bounded call: the rest on the next page
                assert last is not None
                return Listing(tuple(items), _record_cursor(last))
            assert last is not None
            before = (last.created_at.isoformat(), last.id)
            batch = min(max(batch * 2, 64), _SCAN)

    def entities(
        self, user_id: str, *, cursor: str | None = None, limit: int = 20
    ) -> Listing[EntityView]:
        """A page of the user's entities, newest first, each with the facts whose subject
        it is (its relations, at most 20 each, newest first).

        Example:
            >>> for ev in mm.inspect.entities("ann").items:  # doctest: +SKIP
            ...     print(ev.entity.name, [(f.relation, f.object) for f in ev.relations])
        """
        page = self.records(user_id, "entities", cursor=cursor, limit=limit)
        out = []
        for e in page.items:
            recs = self._storage.query_records(
                "fact",
                user_id,
                where={"subject_key": normalize_term(e.name)},
                limit=20,
                newest_first=True,
            )
            out.append(EntityView(e, tuple(Fact.load(r.data) for r in recs)))
        return Listing(tuple(out), page.cursor)


class AsyncInspect(AsyncPart[Inspect]):
    """Awaitable ``mm.inspect`` (see :class:`~langgraph_memory.parts.inspect.Inspect`)."""

    overview = awaitable(Inspect.overview)
    sessions = awaitable(Inspect.sessions)
    messages = awaitable(Inspect.messages)
    message = awaitable(Inspect.message)
    session = awaitable(Inspect.session)
    segments = awaitable(Inspect.segments)
    segment = awaitable(Inspect.segment)
    profile = awaitable(Inspect.profile)
    records = awaitable(Inspect.records)
    entities = awaitable(Inspect.entities)
