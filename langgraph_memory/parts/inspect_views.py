"""What :class:`~langgraph_memory.parts.inspect.Inspect` returns (the views, each a
frozen dataclass), the record lists it pages through, and how its pages and cursors are
made and checked.

A page is a :class:`Listing`: at most ``limit`` items (``1..MAX_LIMIT``) and a ``cursor``
for the next one: a message's sequence number, or a record's ``(created_at, id)``
URL-safe encoded (:func:`record_cursor`).

Example:
    >>> check_cursor("12"), check_limit(3)
    (12, 3)
    >>> listing_of(["a", "b", "c"], 2, last=2)
    Listing(items=('a', 'b'), cursor='2')
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

from langgraph_memory.core.records import Message, Record
from langgraph_memory.layers.knowledge.consolidation import Knowledge
from langgraph_memory.layers.knowledge.documents import DocumentInfo
from langgraph_memory.layers.long_term.contradictions import Contradiction
from langgraph_memory.layers.long_term.entities import Entity
from langgraph_memory.layers.long_term.facts import Fact
from langgraph_memory.layers.long_term.memory import AgentTrait
from langgraph_memory.layers.long_term.profile import ProfileEntry
from langgraph_memory.layers.long_term.reflection import Insight, Lesson
from langgraph_memory.layers.long_term.rollups import Rollup
from langgraph_memory.layers.mid_term.heat_history import HeatPoint
from langgraph_memory.layers.short_term.pages import Page
from langgraph_memory.layers.working.tasks import Anchor, Episode, TaskState
from langgraph_memory.storage.base import SessionRow

__all__ = [
    "Listing",
    "Overview",
    "MessageView",
    "Derived",
    "SessionView",
    "PageView",
    "ChainView",
    "SegmentView",
    "SegmentDetail",
    "ProfileView",
    "EntityView",
    "RecordLayer",
    "RECORD_LAYERS",
    "LAYER_KINDS",
    "MAX_LIMIT",
    "CITING",
    "CITING_SCAN",
    "SCAN",
    "check_limit",
    "check_cursor",
    "check_record_cursor",
    "record_cursor",
    "listing_of",
    "utc_time",
    "cites",
    "page_view",
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
RECORD_LAYERS: dict[str, tuple[str, Callable[[dict[str, Any]], Any], Callable[[Any], bool]]] = {
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
assert set(RECORD_LAYERS) == set(get_args(RecordLayer))
#: The lists whose records cite the messages they were read from.
CITING = (
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
CITING_SCAN = 500
#: Records a filtered list reads at most per call (a page then ends early, with a cursor).
SCAN = 2000


def check_limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, got {type(limit).__name__}")
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be between 1 and {MAX_LIMIT}, got {limit}")
    return limit


def check_cursor(cursor: object) -> int | None:
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


def utc_time(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=timezone.utc)


def listing_of(items: list[T], limit: int, last: int | None) -> Listing[T]:
    """A page of ``limit + 1`` items read: the first ``limit``, and a cursor when there
    was one more (``last`` is the keyset value of the page's last item)."""
    more = len(items) > limit
    return Listing(tuple(items[:limit]), str(last) if more and last is not None else None)


def record_cursor(rec: Record) -> str:
    """The cursor after a record: its ``(created_at, id)``, URL-safe."""
    raw = json.dumps([rec.created_at.isoformat(), rec.id], ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def check_record_cursor(cursor: object) -> tuple[str, str] | None:
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


def cites(data: Mapping[str, Any], message_id: str) -> bool:
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


def page_view(p: Page) -> PageView:
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
