"""User facts and knowledge-graph facts with a validity span, and how they supersede each other.

A :class:`Fact` is a triple (``subject``, ``relation``, ``object``) true from
``valid_from`` until ``valid_to`` (open when ``None``). For a *functional*
relation (one value at a time: ``lives_in``, ``works_at``, ``name``, ``住在``...)
the facts of one subject form a timeline: a new fact with another object closes
the one that held at its ``valid_from`` (``valid_to`` set, ``superseded_by``
pointing at the new fact) and is itself bounded by the next fact in time, so at
no instant do two facts of the timeline hold. Nothing is deleted. Other
relations (``likes``, ``knows``) accumulate. Re-asserting what already holds
refreshes the old fact instead of adding one.

This module holds the data and the rules and does no I/O: how a change finds the slot
it changes is in :mod:`~langgraph_memory.layers.long_term.fact_slots`, the store of
facts in :mod:`~langgraph_memory.layers.long_term.fact_store`.

Example:
    >>> from datetime import datetime, timedelta, timezone
    >>> def at(year): return datetime(year, 1, 1, tzinfo=timezone.utc)
    >>> paris = Fact("f1", "u1", "user", "lives_in", "Paris", valid_from=at(2019))
    >>> berlin = Fact("f2", "u1", "user", "lives in", "Berlin", valid_from=at(2022))
    >>> kept, changed = place_fact([paris], berlin, functional=True, now=at(2024))
    >>> kept is berlin, paris.valid_to == at(2022), paris.superseded_by
    (True, True, 'f2')
    >>> [f.object for f in (paris, berlin) if f.holds_at(at(2020))]
    ['Paris']
    >>> berlin.text()   # the current value first, the one it replaced marked as earlier
    'User lives in Berlin (since 2022-01-01; earlier: Paris)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, ClassVar

from langgraph_memory.core.records import from_data
from langgraph_memory.extraction.slots import is_slot_key
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.layers.long_term.profile import has_cjk, merge_ids, normalize_key

__all__ = [
    "Fact",
    "DEFAULT_FUNCTIONAL_RELATIONS",
    "place_fact",
    "normalize_term",
    "is_functional",
    "fact_words",
    "refresh_fact",
]

#: Relations with one value at a time (English and Chinese), in canonical form.
DEFAULT_FUNCTIONAL_RELATIONS = frozenset(
    {
        # English
        "name",
        "age",
        "birthday",
        "born_in",
        "born_on",
        "lives_in",
        "location",
        "preferred_name",
        "resides_in",
        "current_city",
        "hometown",
        "nationality",
        "timezone",
        "works_at",
        "works_for",
        "employer",
        "job_title",
        "occupation",
        "role",
        "married_to",
        "spouse",
        "partner",
        "relationship_status",
        "studies_at",
        "manager",
        "boss",
        "supervisor",
        "plan",
        # Chinese
        "名字",
        "姓名",
        "叫",
        "年龄",
        "生日",
        "出生于",
        "住在",
        "居住在",
        "居住于",
        "所在城市",
        "家乡",
        "老家",
        "国籍",
        "时区",
        "工作于",
        "就职于",
        "任职于",
        "公司",
        "职业",
        "职位",
        "配偶",
        "伴侣",
        "婚姻状况",
        "就读于",
        "领导",
        "上级",
        "经理",
        "老板",
        "计划",
    }
)


def is_functional(relation_key: str, functional: frozenset[str]) -> bool:
    """Whether a relation (canonical form) has one value at a time: one of ``functional``,
    or a slot of the user's life (``number of X``, ``date of X``, ``role of X``; see
    :func:`~langgraph_memory.extraction.slots.is_slot_key`).

    Example:
        >>> is_functional("number_of_cats", frozenset()), is_functional("likes", frozenset())
        (True, False)
    """
    return relation_key in functional or is_slot_key(relation_key)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def normalize_term(text: str) -> str:
    """A subject or object for comparison: case-folded, whitespace collapsed."""
    return " ".join(text.casefold().split())


@dataclass(slots=True)
class Fact:
    """A (subject, relation, object) triple with the span of time it held.

    Attributes:
        id: Unique id.
        user_id: Whose memory it is.
        subject: Who or what it is about (``user`` for the user).
        relation: The relation as given (compared in canonical form, see :meth:`key`).
        object: The value.
        valid_from: When it started to hold.
        valid_to: When it stopped holding (``None``: it still does).
        source_ids: Ids of the messages it came from (the citation trail).
        confidence: How sure we are, in [0, 1].
        superseded_by: Id of the fact that replaced it, if one did.
        created_at: When it was stored.
        updated_at: When it last changed or was re-asserted.
        access_count: How often it was retrieved.
        last_accessed_at: When it was last retrieved or re-asserted.
        quote: The words it was read from (the latest statement), if any.
        subject_key, relation_key: :meth:`key`, stored so that a fact's timeline is
            found by a query instead of a scan of every fact (set from the subject and
            relation).
        provenance: ``None`` when the user's own words said it; ``"confirmed"`` when the
            assistant said it and the user confirmed it (its sources cite both).
        earlier: The value it superseded (a functional relation's previous object),
            shown with it as earlier.
    """

    id: str
    user_id: str
    subject: str
    relation: str
    object: str
    valid_from: datetime = field(default_factory=_now)
    valid_to: datetime | None = None
    source_ids: list[str] = field(default_factory=list)
    confidence: float = 1.0
    superseded_by: str | None = None
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    access_count: int = 0
    last_accessed_at: datetime | None = None
    quote: str | None = None
    subject_key: str = ""
    relation_key: str = ""
    provenance: str | None = None
    earlier: str | None = None

    def __post_init__(self) -> None:
        if not (self.subject_key and self.relation_key):  # stored ones are kept
            self.subject_key, self.relation_key = self.key()

    #: Its record kind.
    KIND: ClassVar[str] = "fact"

    @classmethod
    def load(cls, data: dict[str, Any]) -> Fact:
        """A fact from its stored form."""
        return from_data(cls, data)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        if self.valid_to is not None:  # it stopped holding: not ranked
            return None
        extra = {"confidence": self.confidence, "created": self.created_at.isoformat()}
        return EntryView(self.text(), self.source_ids, self.updated_at, extra)

    def key(self) -> tuple[str, str]:
        """``(subject, relation)`` in canonical form: facts with the same key share a timeline."""
        return normalize_term(self.subject), normalize_key(self.relation)

    def holds_at(self, when: datetime) -> bool:
        """Whether the fact was true at ``when`` (``valid_from <= when < valid_to``)."""
        return self.valid_from <= when and (self.valid_to is None or when < self.valid_to)

    @property
    def is_open(self) -> bool:
        """True while no end is known (not superseded, not closed)."""
        return self.valid_to is None

    def text(self) -> str:
        """A one-line rendering for prompts and search (English or Chinese)."""
        subject = "User" if normalize_term(self.subject) in ("user", "the user") else self.subject
        relation = self.relation.replace("_", " ").strip()
        start = self.valid_from.date().isoformat()
        end = self.valid_to.date().isoformat() if self.valid_to else None
        if has_cjk(relation + self.object + subject):
            subject = "用户" if subject == "User" else subject
            span = f"{start} 至 {end}" if end else f"自 {start} 起"
            note = "，已被取代" if self.superseded_by else ""
            note += f"；此前：{self.earlier}" if self.earlier and not end else ""
            said = f"：“{self.quote}”" if self.quote else ""
            return f"{subject}{relation}{self.object}（{span}{note}）{said}"
        span = f"from {start} until {end}" if end else f"since {start}"
        note = "; superseded" if self.superseded_by else ""
        note += f"; earlier: {self.earlier}" if self.earlier and not end else ""
        said = f' — "{self.quote}"' if self.quote else ""
        return f"{subject} {relation} {self.object} ({span}{note}){said}"


def fact_words(f: Fact) -> str:
    """The triple as words, for comparing two facts."""
    return f"{f.subject} {f.relation.replace('_', ' ')} {f.object}"


def refresh_fact(old: Fact, new: Fact, now: datetime) -> None:
    old.source_ids = merge_ids(old.source_ids, new.source_ids)
    old.quote = new.quote or old.quote
    if new.provenance is None:  # the user's own words now say it
        old.provenance = None
    old.confidence = max(old.confidence, new.confidence)
    old.updated_at = now
    old.last_accessed_at = now


def place_fact(
    timeline: Sequence[Fact], new: Fact, *, functional: bool, now: datetime
) -> tuple[Fact, list[Fact]]:
    """Fit ``new`` among the stored facts that share its key, changing them in place.

    Args:
        timeline: The stored facts with ``new.key()`` (any validity).
        new: The asserted fact (``valid_to`` set only when the assertion bounds it).
        functional: Whether the relation has one value at a time.
        now: The current time (for ``updated_at``).

    Returns:
        ``(kept, changed)``: the fact that now records the assertion (``new``, or
        an old fact it refreshed) and every fact to store, ``kept`` included.
    """
    same = normalize_term(new.object)
    t = new.valid_from
    live = [f for f in timeline if f.valid_to is None or f.valid_to > f.valid_from]
    for f in live:
        if normalize_term(f.object) == same and f.holds_at(t):
            refresh_fact(f, new, now)
            if f.valid_to is None and new.valid_to is not None:
                f.valid_to = new.valid_to  # the assertion says when it ended
            return f, [f]

    def reached(f: Fact) -> bool:  # a later fact the new one runs into
        return f.valid_from > t and (new.valid_to is None or new.valid_to >= f.valid_from)

    later = [f for f in live if reached(f) and (functional or normalize_term(f.object) == same)]
    nxt = min(later, key=lambda f: (f.valid_from, f.id)) if later else None
    kept = new
    if nxt is not None and normalize_term(nxt.object) == same:
        nxt.valid_from = t  # the next fact says the same: it started earlier
        refresh_fact(nxt, new, now)
        kept = nxt
    elif nxt is not None:
        new.valid_to = nxt.valid_from
        new.superseded_by = nxt.id
    if not functional:
        return kept, [kept]
    changed = [kept]
    for f in live:
        if f is not kept and f.holds_at(t):
            f.valid_to = t
            f.superseded_by = kept.id
            f.updated_at = now
            if normalize_term(f.object) != normalize_term(kept.object):
                kept.earlier = f.object  # shown with the new value, marked as earlier
            changed.append(f)
    return kept, changed
