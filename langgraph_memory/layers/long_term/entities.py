"""Entities and their relations: a small knowledge graph of who and what the user talks
about, kept from every exchange.

Extraction reads named entities (people, places, organisations, products; English and
Chinese rules, or the LLM) from each message the worker places. Each becomes an
:class:`Entity` of the user (one per name, case and spacing folded): its type, how
often and from when to when it was mentioned, and its latest mentions, quoted and
cited. Its relations are the facts whose subject or object names it (the fact store's
``subject —relation→ object`` triples, dated, superseded values kept as history):
:meth:`EntityGraph.relations`. An entity is a long-term entry whose text is its card
(its latest mentions): a question that names an entity mentioned at least
:data:`MIN_MENTIONS` times ("what do I know about Sofia?", "王伟最近怎么样？") gets the
card, citing the messages it quotes.

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.core.records import Message
    >>> graph = EntityGraph(InMemoryBackend())
    >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> m = Message("m1", "ann", "s", "user", "I met Caroline at the book club.", t)
    >>> graph.mention("ann", "Caroline", "person", m, "I met Caroline at the book club.").count
    1
    >>> [e.name for e in graph.entities("ann")]
    ['Caroline']
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar

from langgraph_memory.core.records import Message, Record, from_data, to_data
from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.layers.long_term.profile import normalize_key, stable_id
from langgraph_memory.storage.capabilities import RecordStore

if TYPE_CHECKING:
    from langgraph_memory.layers.long_term.facts import Fact
    from langgraph_memory.layers.long_term.memory import LongTermMemory

__all__ = ["Entity", "EntityGraph", "ENTITY_KIND"]

ENTITY_KIND = "entity"
#: Mentions an entity keeps (the latest), and how many its card quotes.
KEPT_MENTIONS = 12
CARD_MENTIONS = 3
#: An entity mentioned fewer times has no card in the context (its message says as much).
MIN_MENTIONS = 2
#: A quoted mention is cut to this many characters.
QUOTE_CHARS = 200


def _now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(slots=True)
class Entity:
    """Someone or something the user mentions.

    Attributes:
        id: One per user and folded name.
        user_id: Whose.
        name: The name as last written.
        type: ``person``, ``place``, ``org``, ``product`` or ``other``.
        count: How many messages mentioned it.
        first_at, last_at: When it was first and last mentioned.
        mentions: The latest mentions, ``[message id, when (ISO), quote]``, oldest first.
    """

    id: str
    user_id: str
    name: str
    type: str
    count: int = 0
    first_at: datetime | None = None
    last_at: datetime | None = None
    mentions: list[list[str]] = field(default_factory=list)
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    access_count: int = 0
    last_accessed_at: datetime | None = None

    #: Its record kind.
    KIND: ClassVar[str] = ENTITY_KIND

    @classmethod
    def load(cls, data: dict[str, Any]) -> Entity:
        return from_data(cls, data)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        if self.count < MIN_MENTIONS:  # mentioned once: its message says as much
            return None
        when = self.last_at or self.updated_at
        return EntryView(
            self.text(), self.source_ids, when, {"title": self.name, "type": self.type}
        )

    @property
    def source_ids(self) -> list[str]:
        """The messages its card quotes."""
        return [m[0] for m in self.mentions[-CARD_MENTIONS:]]

    def text(self) -> str:
        """Its card: what it is, how often and when it came up, its latest mentions (the
        newest first: a value said last answers a question about it now)."""
        first = self.first_at.date().isoformat() if self.first_at else "?"
        last = self.last_at.date().isoformat() if self.last_at else "?"
        latest = self.mentions[-CARD_MENTIONS:][::-1]
        quotes = [f"{when[:10]}: {quote}" for _, when, quote in latest]
        if is_cjk_text(self.name + "".join(q for _, _, q in self.mentions)):
            return (
                f"{self.name}（{self.type}）：提到 {self.count} 次，{first} 至 {last}。"
                + "；".join(quotes)
            )
        return (
            f"{self.name} ({self.type}): mentioned {self.count} times, {first} to {last}. "
            + " | ".join(quotes)
        )


class EntityGraph:
    """The user's entities (see the module docs).

    Args:
        records: Where entities are kept (the indexed record store).
        longterm: The fact store whose triples are the entities' relations.
    """

    def __init__(self, records: RecordStore, longterm: LongTermMemory | None = None) -> None:
        self.records = records
        self.longterm = longterm
        self._lock = threading.Lock()
        self._local = threading.local()  # this thread's batch, see :meth:`batch`

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Within it, this thread's mentions change entities in process and each entity
        changed is written once, at the end: the worker places a batch of messages that
        name the same few people and places many times, and an entity written per
        mention was stored, re-indexed and re-embedded per mention. Other threads'
        mentions and reads are unaffected (they read the entity as last written).

        Example:
            >>> with graph.batch():  # doctest: +SKIP
            ...     for msg in placed:
            ...         graph.mention("ann", "Caroline", "person", msg, msg.content)
        """
        if getattr(self._local, "pending", None) is not None:
            yield  # nested: the outer batch writes
            return
        pending: dict[str, Entity] = {}  # by id (one per user and name)
        self._local.pending = pending
        try:
            yield
        finally:
            self._local.pending = None
            with self._lock:
                for e in pending.values():
                    self._put(e)

    def _put(self, e: Entity) -> None:
        self.records.put_record(
            Record(ENTITY_KIND, e.id, e.user_id, to_data(e), e.created_at, e.updated_at)
        )

    def mention(self, user_id: str, name: str, kind: str, msg: Message, quote: str) -> Entity:
        """Record that ``msg`` mentions ``name`` (of type ``kind``); returns the entity."""
        name = " ".join(name.split())
        if not name:
            raise ValueError("an entity needs a name")
        eid = stable_id("entity", user_id, normalize_key(name))
        pending: dict[str, Entity] | None = getattr(self._local, "pending", None)
        with self._lock:
            e = pending.get(eid) if pending is not None else None
            if e is None:
                rec = self.records.get_record(ENTITY_KIND, eid, user_id)
                e = Entity.load(rec.data) if rec is not None else Entity(eid, user_id, name, kind)
            if any(m[0] == msg.id for m in e.mentions):
                return e  # a replayed message
            e.name = name
            if kind != "other" or e.type == "other":
                e.type = kind
            e.count += 1
            e.first_at = msg.timestamp if e.first_at is None else min(e.first_at, msg.timestamp)
            e.last_at = msg.timestamp if e.last_at is None else max(e.last_at, msg.timestamp)
            quote = " ".join(quote.split())
            if len(quote) > QUOTE_CHARS:
                quote = quote[: QUOTE_CHARS - 1] + "…"
            e.mentions.append([msg.id, msg.timestamp.isoformat(), quote])
            e.mentions.sort(key=lambda m: m[1])
            e.mentions = e.mentions[-KEPT_MENTIONS:]
            e.updated_at = _now()
            if pending is not None:
                pending[eid] = e  # written when the batch ends
            else:
                self._put(e)
            return e

    def entities(self, user_id: str) -> list[Entity]:
        """The user's entities, most mentioned first."""
        found = [Entity.load(r.data) for r in self.records.list_records(ENTITY_KIND, user_id)]
        return sorted(found, key=lambda e: (-e.count, e.name))

    def get(self, user_id: str, name: str) -> Entity | None:
        """An entity by name (case and spacing folded)."""
        eid = stable_id("entity", user_id, normalize_key(" ".join(name.split())))
        rec = self.records.get_record(ENTITY_KIND, eid, user_id)
        return None if rec is None else Entity.load(rec.data)

    def relations(self, user_id: str, name: str) -> list[Fact]:
        """The facts whose subject or object names the entity (its edges), oldest first,
        superseded ones included (their span says when they held)."""
        if self.longterm is None:
            return []
        folded = " ".join(name.split()).casefold()
        return [
            f
            for f in self.longterm.facts.list_facts(user_id)
            if f.subject.casefold() == folded or folded in f.object.casefold()
        ]

    def by_names(self, user_id: str, names: Sequence[str]) -> list[Entity]:
        """The entities among ``names`` that exist."""
        return [e for n in names if (e := self.get(user_id, n)) is not None]
