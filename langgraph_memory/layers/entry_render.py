"""How a long-term record becomes an entry of the entry index (its rendering, terms and
display fields); :mod:`.entry_index` keeps and ranks the index.

Example:
    >>> INDEXED_KINDS[:3]
    ('fact', 'trait', 'episode')
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from datetime import datetime
from typing import Any, get_args

from ..backends.capabilities import IndexedEntry
from ..consolidation import Knowledge
from ..records import Record
from ..reflection import Insight, Lesson
from ..tokens import tokenize
from ..working import Episode
from .contradictions import Contradiction
from .documents import CHUNK_KIND, DocumentChunk
from .entities import MIN_MENTIONS, Entity
from .facts import Fact
from .longterm import AgentTrait
from .longterm_read import LongTermLayer
from .passages import PASSAGE_KIND, Passage
from .rollups import Rollup

__all__ = ["INDEXED_KINDS", "render"]

#: Record kinds whose entries are indexed (each is its layer's name).
INDEXED_KINDS: tuple[str, ...] = tuple(k for k in get_args(LongTermLayer) if k != "profile")


def _doc(kind: str, data: dict[str, Any]) -> tuple[str, list[str], datetime, dict[str, Any]] | None:
    """``(text, source ids, time, extra display fields)`` of a record the read path
    ranks, or ``None`` for one it does not (a fact that stopped holding)."""
    if kind == "fact":
        f = Fact.load(data)
        if f.valid_to is not None:
            return None
        extra = {"confidence": f.confidence, "created": f.created_at.isoformat()}
        return f.text(), f.source_ids, f.updated_at, extra
    if kind == "trait":
        t = AgentTrait.load(data)
        # the agent it belongs to (none: every agent); a context for one agent leaves out
        # the others' traits
        return t.text(), t.source_ids, t.updated_at, {"agent": t.agent_id} if t.agent_id else {}
    if kind == "episode":
        e = Episode.load(data)
        extra = {"importance": e.importance, "target": e.target, "outcome": e.outcome}
        return e.text(), e.source_ids, e.created_at, extra
    if kind == "lesson":
        les = Lesson.load(data)
        return les.text(), les.source_ids, les.updated_at, {"target": les.target}
    if kind == "insight":
        ins = Insight.load(data)
        return ins.text(), ins.source_ids, ins.updated_at, {}
    if kind == "contradiction":
        link = Contradiction.load(data)
        return link.text(), link.source_ids, link.later_at, {}
    if kind == "entity":
        ent = Entity.load(data)
        if ent.count < MIN_MENTIONS:  # mentioned once: its message says as much
            return None
        when = ent.last_at or ent.updated_at
        return ent.text(), ent.source_ids, when, {"title": ent.name, "type": ent.type}
    if kind == CHUNK_KIND:
        c = DocumentChunk.load(data)
        return c.text(), c.source_ids(), c.created_at, {"meta": c.meta()}
    if kind == PASSAGE_KIND:
        p = Passage.load(data)
        return p.body, [p.message_id], p.timestamp, {"meta": p.meta()}
    if kind == "rollup":
        r = Rollup.load(data)
        if not (r.closed and r.summary):  # an open span is not summarised yet
            return None
        return r.text(), r.source_ids, r.end, {"level": r.level}
    k = Knowledge.load(data)
    return k.text(), k.source_episodes, k.updated_at, {}


def render(record: Record) -> IndexedEntry:
    """The index entry of a record of an :data:`INDEXED_KINDS` kind (a tombstone when
    the read path does not rank it).

    Example:
        >>> from datetime import datetime, timezone
        >>> from langgraph_memory.layers.facts import Fact
        >>> from langgraph_memory.records import to_data
        >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
        >>> f = Fact("f1", "ann", "Ann", "lives_in", "Lyon", t, created_at=t, updated_at=t)
        >>> e = render(Record("fact", "f1", "ann", to_data(f), t, t))
        >>> e.key, e.text, e.terms["lyon"]
        ('fact/f1', 'Ann lives in Lyon (since 2024-05-01)', 1)
    """
    key = f"{record.kind}/{record.id}"
    got = _doc(record.kind, record.data)
    if got is None:
        return IndexedEntry(key, None)
    text, sources, when, extra = got
    doc = {
        "layer": record.kind,
        "id": record.id,
        "source_ids": list(sources),
        "timestamp": when.isoformat(),
        **extra,
    }
    digest = hashlib.sha256(
        json.dumps([text, doc], ensure_ascii=False, sort_keys=True).encode()
    ).hexdigest()[:32]
    return IndexedEntry(key, text, dict(Counter(tokenize(text))), doc, digest)
