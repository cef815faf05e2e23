"""Record kinds the read path ranks beside the messages, each rendering itself.

A fact, an agent trait, an episode, a lesson... is a record of the store. Each such
kind is a class with its record kind (``KIND``), a ``load`` from the record's data and
an ``entry()`` that says what the read path sees of it: its text, the messages it
came from, its time and a few display fields (:class:`EntryView`), or ``None`` when it
is not ranked (a fact that stopped holding, an entity mentioned once). The entry index
(:mod:`.entries`) and the read path take the kinds they serve as an argument
(:data:`EntryKinds`), so this package knows no layer above it.

Example:
    >>> from dataclasses import dataclass
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.core.records import Record
    >>> @dataclass
    ... class Note:
    ...     KIND = "note"
    ...     text: str
    ...     @classmethod
    ...     def load(cls, data): return cls(data["text"])
    ...     def entry(self): return EntryView(self.text, ["m1"], None)
    >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> e = render(Record("note", "n1", "ann", {"text": "Ann likes tea"}, t, t), {"note": Note})
    >>> e.key, e.text, e.doc["source_ids"]
    ('note/n1', 'Ann likes tea', ['m1'])
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar, NamedTuple, Protocol, cast

from langgraph_memory.core.records import Record
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.layers.index.ranking import LongTermDoc, LongTermLayer
from langgraph_memory.storage.capabilities import IndexedEntry

__all__ = ["EntryView", "Indexed", "EntryKinds", "render", "to_doc"]


class EntryView(NamedTuple):
    """What the read path sees of one record: its text, the ids of the messages it came
    from, when it holds, and the fields a hit shows beside the text (``importance``,
    ``title``, ``meta``, ``agent``...)."""

    text: str
    source_ids: Sequence[str]
    timestamp: datetime | None
    extra: Mapping[str, Any] = {}


class Indexed(Protocol):
    """A record kind the read path ranks: loads from a record's data and renders itself."""

    KIND: ClassVar[str]

    @classmethod
    def load(cls, data: Any) -> Indexed: ...

    def entry(self) -> EntryView | None: ...


#: The indexed kinds a memory serves, by record kind.
EntryKinds = Mapping[str, type[Indexed]]


def view_of(record: Record, kinds: EntryKinds) -> EntryView | None:
    """The :class:`EntryView` of a record of one of ``kinds`` (``None``: not ranked)."""
    return kinds[record.kind].load(record.data).entry()


def render(record: Record, kinds: EntryKinds) -> IndexedEntry:
    """The index entry of a record of one of ``kinds`` (a tombstone when the read path
    does not rank it): its text, term counts, display fields and a digest that tells
    whether anything of it changed."""
    key = f"{record.kind}/{record.id}"
    view = view_of(record, kinds)
    if view is None:
        return IndexedEntry(key, None)
    when = view.timestamp
    doc = {
        "layer": record.kind,
        "id": record.id,
        "source_ids": list(view.source_ids),
        "timestamp": when.isoformat() if when is not None else None,
        **view.extra,
    }
    digest = hashlib.sha256(
        json.dumps([view.text, doc], ensure_ascii=False, sort_keys=True).encode()
    ).hexdigest()[:32]
    return IndexedEntry(key, view.text, dict(Counter(tokenize(view.text))), doc, digest)


def to_doc(record: Record, view: EntryView) -> LongTermDoc:
    """The :class:`~.ranking.LongTermDoc` of a rendered record."""
    extra = view.extra
    return LongTermDoc(
        record.id,
        cast(LongTermLayer, record.kind),
        view.text,
        list(view.source_ids),
        view.timestamp,
        extra.get("importance"),
        extra.get("title"),
        extra.get("meta"),
    )
