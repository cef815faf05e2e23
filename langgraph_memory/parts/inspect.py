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

from datetime import datetime, timezone
from typing import Any, Literal

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
from langgraph_memory.layers.working.tasks import Anchor, Episode, TaskState
from langgraph_memory.parts.aio import AsyncPart, awaitable
from langgraph_memory.parts.inspect_views import (
    CITING,
    CITING_SCAN,
    LAYER_KINDS,
    MAX_LIMIT,
    RECORD_LAYERS,
    SCAN,
    ChainView,
    Derived,
    EntityView,
    Listing,
    MessageView,
    Overview,
    PageView,
    ProfileView,
    RecordLayer,
    SegmentDetail,
    SegmentView,
    SessionView,
    check_cursor,
    check_limit,
    check_record_cursor,
    cites,
    listing_of,
    page_view,
    record_cursor,
    utc_time,
)
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
        limit = check_limit(limit)
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
        limit = check_limit(limit)
        rows = self._storage.session_page(user_id, before=check_cursor(cursor), limit=limit + 1)
        return listing_of(rows, limit, rows[limit - 1].last_seq if len(rows) > limit else None)

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
        limit = check_limit(limit)
        msgs = self._storage.message_page(
            user_id,
            session_id=session_id,
            terms=terms,
            before=check_cursor(cursor),
            limit=limit + 1,
        )
        return listing_of(msgs, limit, msgs[limit - 1].seq if len(msgs) > limit else None)

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
        for layer in CITING if derived else ():
            kind, load, _ = RECORD_LAYERS[layer]
            recs = self._storage.record_page(kind, user_id, limit=CITING_SCAN + 1)
            complete = complete and len(recs) <= CITING_SCAN
            found += [
                Derived(layer, load(r.data)) for r in recs[:CITING_SCAN] if cites(r.data, msg.id)
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
            window = tuple(page_view(p) for p in st.pages)
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
        limit = check_limit(limit)
        start = check_cursor(cursor) or 0
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
        limit = check_limit(limit)
        start = check_cursor(cursor) or 0
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
            pages = tuple(page_view(p) for p in newest[start : start + limit])
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
            visits = tuple(utc_time(v) for v in seg.visit_times)
            promotions = tuple(utc_time(p.at) for p in seg.promotion_log)
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
        limit = check_limit(limit)
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
        if layer not in RECORD_LAYERS:
            raise ValueError(f"layer must be one of {sorted(RECORD_LAYERS)}, got {layer!r}")
        limit = check_limit(limit)
        kind, load, keep = RECORD_LAYERS[layer]
        before = check_record_cursor(cursor)
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
                        return Listing(tuple(items), record_cursor(last))
                    items.append(item)
                last = rec
                scanned += 1
            if len(recs) < batch:  # the list's end
                return Listing(tuple(items), None)
            if scanned >= SCAN:  # a bounded call: the rest on the next page
                assert last is not None
                return Listing(tuple(items), record_cursor(last))
            assert last is not None
            before = (last.created_at.isoformat(), last.id)
            batch = min(max(batch * 2, 64), SCAN)

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
