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

This module holds the data and the rules and does no I/O; the store is
:class:`~langgraph_memory.layers.long_term.memory.LongTermMemory`.

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

import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any, ClassVar

import numpy as np

from langgraph_memory.core.records import from_data
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.core.validation import check_content, check_id, parse_timestamp
from langgraph_memory.extraction.changes import CHANGE_CUE, CHANGE_KEY, names_change
from langgraph_memory.extraction.slots import TENTATIVE, is_slot_key, is_tentative
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.layers.long_term.fact_memo import FactMemo
from langgraph_memory.layers.long_term.profile import (
    check_source_ids,
    clamp01,
    has_cjk,
    merge_ids,
    normalize_key,
    stable_id,
)
from langgraph_memory.layers.long_term.records import RecordsStore
from langgraph_memory.storage.capabilities import record_matches

__all__ = [
    "Fact",
    "Facts",
    "DEFAULT_FUNCTIONAL_RELATIONS",
    "place_fact",
    "normalize_term",
    "is_functional",
]

MAX_OBJECT_CHARS = 2000

#: Relations with one value at a time (English and Chinese), in canonical form.
#: How many of a subject's latest facts a new fact is compared with for near duplicates.
_DEDUP_SCAN = 200

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


def _plain(f: Fact) -> str:
    """The triple as words, for comparing two facts."""
    return f"{f.subject} {f.relation.replace('_', ' ')} {f.object}"


def _refresh(old: Fact, new: Fact, now: datetime) -> None:
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
            _refresh(f, new, now)
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
        _refresh(nxt, new, now)
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


def _shape(value: str) -> str:
    """What kind of value it is: a count, a date, a name, Chinese words or words."""
    v = value.strip()
    if re.search(
        r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\d(?:st|nd|rd|th)\b|"
        # (a Chinese date has its number or its time word: "6月", "15号", "下周日", "月底";
        # not the 日 of "学日语" nor the 月 of "月饼")
        r"day\b|days\b|[\d一二三四五六七八九十两几]\s*[月号日]|周[一二三四五六日天]|星期|礼拜|"
        r"(?:月|年)(?:底|初|中)|(?:今|明|后|昨|前)天|[上下这本]个?月|[上下这本]周",
        v,
        re.I,
    ):
        return "date"
    if re.match(
        r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|[一二两三四五六七八九十]+)"
        r"(?:\b|[个只盆本辆位名人])",
        v,
        re.I,
    ):
        return "count"
    if re.search(r"[\u4e00-\u9fff]", v):
        return "cjk"
    return "name" if v[:1].isupper() else "words"


#: A Chinese name of an organisation by its head noun ("朝阳医院", "华为技术有限公司").
_ZH_ORG = re.compile(r"公司|集团|大学|学院|银行|医院|研究院|研究所|中学|小学|实验室|事务所")


def _shares_word(relation: str, quote: str) -> bool:
    """Whether a Chinese relation and a quote share a word of two characters or more
    (every two characters side by side of the relation that are not a particle's)."""
    pairs = {relation[i : i + 2] for i in range(len(relation) - 1)}
    return any(p in quote for p in pairs if not re.search(r"[的了是我你他她]", p))


def _org_shape(value: str) -> str:
    """:func:`_shape`, telling a Chinese organisation's name from other Chinese words
    (a change to "朝阳医院急诊科" is one of the employer, not of the occupation "护士")."""
    return "org" if _ZH_ORG.search(value) else _shape(value)


def _open_slots(new: Fact, facts: Sequence[Fact], functional: frozenset[str]) -> list[Fact]:
    """The open facts of ``new``'s subject with one value at a time, newest first."""
    subject = normalize_term(new.subject)
    out = [
        f
        for f in facts
        if f.valid_to is None
        and f.id != new.id
        and normalize_term(f.subject) == subject
        and f.key()[1] != normalize_key(CHANGE_KEY)
        and (is_functional(f.key()[1], functional) or f.key()[1] not in _ACCUMULATING)
    ]
    return sorted(out, key=lambda f: (f.valid_from, f.updated_at), reverse=True)


#: Relations that hold many values at once (never replaced by a change).
_ACCUMULATING = frozenset({"likes", "dislikes", "knows", "has", "喜欢", "讨厌", "认识"})


def _resolved(new: Fact, facts: Sequence[Fact], functional: frozenset[str]) -> Fact:
    """A change whose slot the statement did not name, given the slot it changes: the
    one whose old value it names as ended, else the one whose relation it names, else
    the newest one holding a value of the same kind (a date for a date, a count for a
    count, a name for a name). Unresolved, it stays a change of its own."""
    slots = _open_slots(new, facts, functional)
    quote = (new.quote or "").casefold()
    pick = next((f for f in slots if names_change(new.quote or "", f.object)), None)
    if pick is None:
        pick = next(
            (
                f
                for f in slots
                if any(len(w) > 2 and w in quote for w in re.split(r"[_\s]+", f.key()[1]))
                or (has_cjk(f.relation) and f.relation.casefold() in quote)
                # "换了个咨询师" of the slot "心理咨询师": a word of two characters shared
                or (has_cjk(f.relation) and _shares_word(f.relation, quote))
            ),
            None,
        )
    for shape_of in (_org_shape, _shape) if pick is None else ():  # "朝阳医院急诊科": an org's
        shape = shape_of(new.object)
        pick = next((f for f in slots if shape_of(f.object) == shape), None)
        if pick is not None:
            break
    if pick is None or normalize_term(pick.object) == normalize_term(new.object):
        return new
    return _in_slot(new, pick)


def _in_slot(new: Fact, slot: Fact) -> Fact:
    """``new`` said of ``slot``'s relation, with the id the same assertion gets there."""
    rkey = slot.key()[1]
    fid = stable_id("fact", new.user_id, new.key()[0], rkey, normalize_term(new.object),
                    new.valid_from.isoformat())  # fmt: skip
    return replace(new, id=fid, relation=slot.relation, relation_key=rkey)


def _ended_by(
    new: Fact, facts: Sequence[Fact], functional: frozenset[str], now: datetime
) -> list[Fact]:
    """Open facts of other slots whose value ``new``'s statement names as ended ("I'm
    no longer at Netflix", "已经从京东离职了"): closed where ``new`` begins."""
    out = []
    for f in _open_slots(new, facts, functional):
        if (
            f.key() != new.key()
            and f.valid_from < new.valid_from
            and names_change(new.quote or "", f.object)
        ):
            f.valid_to, f.superseded_by, f.updated_at = new.valid_from, new.id, now
            new.earlier = new.earlier or f.object
            out.append(f)
    return out


#: Slots a tentative name can change, and those a tentative place can.
_NAME_SLOTS = frozenset(
    {"employer", "manager", "location", "works_at", "works_for", "lives_in", "boss",
     "supervisor", "studies_at", "领导", "上级", "老板", "住在"}
)  # fmt: skip
_PLACE_SLOTS = frozenset({"location", "lives_in", "resides_in", "current_city", "住在", "居住在"})
_EMPLOYER_SLOTS = frozenset({"employer", "works_at", "works_for"})


def _tentative_slot(new: Fact, facts: Sequence[Fact], functional: frozenset[str]) -> Fact | None:
    """The one open slot fact a tentative value replaces: of a slot a name (or a place)
    fills, holding a name of the same script, another value than it, and the only such
    slot; none when the value is one the user's facts already hold, or the message
    already placed a value in that slot."""
    slots = _open_slots(new, facts, functional)
    same = normalize_term(new.object)
    wanted = normalize_key(new.relation.strip().lower()[len(TENTATIVE) :])
    if wanted.startswith(("number_of_", "date_of_")):  # a count or a date of a named thing
        hit = [f for f in slots if f.key()[1] == wanted and normalize_term(f.object) != same]
        return hit[0] if len(hit) == 1 else None
    allowed = {"place": _PLACE_SLOTS, "employer": _EMPLOYER_SLOTS}.get(wanted, _NAME_SLOTS)
    if any(normalize_term(f.object) == same or same in normalize_term(f.object) for f in slots):
        return None  # "I love my Shopify team": the value the user's slot holds
    cjk = has_cjk(new.object)
    cands = [
        f
        for f in slots
        if f.key()[1] in allowed
        and has_cjk(f.object) == cjk
        and (cjk or f.object[:1].isupper())
        and not set(f.source_ids) & set(new.source_ids)
    ]
    return cands[0] if len({f.key()[1] for f in cands}) == 1 else None


def _twins(kept: Fact, changed: Sequence[Fact], facts: Sequence[Fact], now: datetime) -> list[Fact]:
    """Open facts saying a value ``kept`` just replaced under another key ("主管: 陈姐"
    and "manager: 陈姐", read from one statement): the same belief, closed with it."""
    gone = {
        normalize_term(f.object): f
        for f in changed
        if f is not kept and f.superseded_by == kept.id and f.valid_to is not None
    }
    out = []
    for f in facts:
        old = gone.get(normalize_term(f.object))
        if old is None or f.valid_to is not None or f in changed or f.key()[0] != kept.key()[0]:
            continue
        f.valid_to, f.superseded_by, f.updated_at = old.valid_to, kept.id, now
        out.append(f)
    return out


class Facts(RecordsStore):
    """User and knowledge-graph facts with their validity (``LongTermMemory.facts``)."""

    _loaders: ClassVar[dict[str, Callable[[dict[str, Any]], Any]]] = {"fact": Fact.load}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._local = threading.local()  # this thread's batch memo, see :meth:`batch`

    # -- a batch's reads ----------------------------------------------------------------
    @contextmanager
    def batch(self) -> Iterator[None]:
        """Within it, this thread's :meth:`add_fact` calls read each subject's facts from
        the store once and keep them in step with their own writes (see
        :mod:`~langgraph_memory.layers.long_term.fact_memo`): the worker writes a
        batch's facts, mostly about one subject, one after another. What is stored is
        the same as without it. A record store that does not count its writes
        (``writes``) gets no memo.

        Example:
            >>> from langgraph_memory.layers.long_term.memory import LongTermMemory
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> lt = LongTermMemory(InMemoryBackend())
            >>> add = lt.facts.add_fact
            >>> with lt.facts.batch():
            ...     _ = add("u1", "user", "lives_in", "Paris", valid_from="2024-01-01")
            ...     new = add("u1", "user", "lives_in", "Rome", valid_from="2024-06-01")
            >>> new.earlier
            'Paris'
        """
        writes = getattr(self.records, "writes", None)
        if writes is None or getattr(self._local, "memo", None) is not None:
            yield  # no count to check against, or nested: the outer batch keeps it
            return
        self._local.memo = FactMemo(stamp=writes["fact"])
        try:
            yield
        finally:
            self._local.memo = None

    def _memo(self) -> FactMemo | None:
        """This thread's batch memo, in step with the store (``None`` outside a batch)."""
        memo: FactMemo | None = getattr(self._local, "memo", None)
        if memo is not None:
            stamp = self.records.writes["fact"]  # type: ignore[attr-defined]
            if stamp != memo.stamp:  # a fact written by someone else: read again
                memo.clear(stamp)
        return memo

    def _put(self, kind: str, obj: Any) -> None:
        super()._put(kind, obj)
        memo = getattr(self._local, "memo", None) if kind == "fact" else None
        if memo is not None:
            stored = self.records.get_record("fact", obj.id, obj.user_id)
            memo.wrote(stored, obj.id, self.records.writes["fact"], _DEDUP_SCAN)  # type: ignore[attr-defined]

    def _met(self, user_id: str, new: Fact, subject: str) -> list[Fact]:
        """The stored facts ``new`` can meet: its timeline (the same subject and
        relation) and the subject's latest facts (near duplicates), not every fact of
        the user; each loaded once."""
        skey, rkey = new.key()
        query, memo = self.records.query_records, self._memo()
        latest = memo.subject(user_id, skey) if memo is not None else None
        if latest is None:
            latest = query(
                "fact", user_id, where={"subject_key": skey}, limit=_DEDUP_SCAN, newest_first=True
            )
            if memo is not None:
                memo.keep_subject(user_id, skey, latest, complete=len(latest) < _DEDUP_SCAN)
        same_key = {"subject_key": skey, "relation_key": rkey}
        if len(latest) < _DEDUP_SCAN:  # all of the subject's: its timeline is among them
            found = [r for r in reversed(latest) if record_matches(r, same_key)]
        else:
            found = query("fact", user_id, where=same_key)
        # facts stored before these keys were: by the subject and relation as given
        named = memo.by_names(user_id, subject, new.relation) if memo is not None else None
        if named is None:
            named = query("fact", user_id, where={"subject": subject, "relation": new.relation})
            if memo is not None:
                memo.keep_names(user_id, subject, new.relation, named)
        found += named
        found += latest
        # a fact two queries return is loaded once
        return [Fact.load(r.data) for r in {r.id: r for r in found}.values()]

    # -- facts --------------------------------------------------------------------------
    def add_fact(
        self,
        user_id: str,
        subject: str,
        relation: str,
        object: str,
        *,
        valid_from: datetime | str | float | None = None,
        valid_to: datetime | str | float | None = None,
        source_ids: Sequence[str] | None = None,
        confidence: float | None = None,
        quote: str | None = None,
        provenance: str | None = None,
    ) -> Fact:
        """Assert a fact; a contradicting fact of a functional relation is superseded.

        For a functional relation (``functional_relations``) the fact that
        held at ``valid_from`` with another object is closed at ``valid_from``
        (kept, with ``superseded_by`` set), and the new fact ends where a later
        fact of the same subject and relation begins. Re-asserting what already
        holds refreshes that fact (citations merged, confidence kept at the higher).

        Args:
            user_id: Whose memory.
            subject: Who or what (``user`` for the user).
            relation: The relation (``lives_in``, ``likes``, ``住在``...).
            object: The value.
            valid_from: When it started to hold (now when ``None``).
            valid_to: When it stopped holding, if known.
            source_ids: Ids of the messages it came from.
            confidence: How sure (``config.fact_confidence`` when ``None``).
            quote: The words it was read from (shown with it; the latest kept).
            provenance: ``"confirmed"`` for what the user confirmed of the assistant's
                words; ``None`` (the user's own words) otherwise.

        Returns:
            The fact that records the assertion (a refreshed old one, or the new one).
        """
        user_id = check_id(user_id, "user_id")
        subject, relation = check_id(subject, "subject").strip(), check_id(relation, "relation")
        obj = self._clean(check_content(object, MAX_OBJECT_CHARS, "object", None).strip(), "object")
        subject, quote = self._clean(subject, "subject"), self._clean(quote, "quote")
        conf = self.config.fact_confidence if confidence is None else confidence
        if isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0 <= conf <= 1:
            raise ValueError(f"confidence must be a number within [0, 1], got {confidence!r}")
        ids = check_source_ids(source_ids)
        with self._lock:
            now = self._now()
            start = now if valid_from is None else parse_timestamp(valid_from, "valid_from")
            end = None if valid_to is None else parse_timestamp(valid_to, "valid_to")
            if end is not None and end <= start:
                raise ValueError("valid_to must be later than valid_from")
            # The same assertion gets the same id (a replayed message refreshes its fact).
            fid = stable_id(
                "fact", user_id, normalize_term(subject), normalize_key(relation),
                normalize_term(obj), start.isoformat(),
            )  # fmt: skip
            new = Fact(
                fid, user_id, subject, relation.strip(), obj, start, end,
                ids, clamp01(conf), created_at=now, updated_at=now, quote=quote or None,
                provenance=provenance or None,
            )  # fmt: skip
            facts = self._met(user_id, new, subject)
            if new.key()[1] == normalize_key(CHANGE_KEY):  # a change, its slot unnamed
                new = _resolved(new, facts, self.functional_relations)
            if is_tentative(new.relation):  # kept only where it changes a slot's value
                slot = _tentative_slot(new, facts, self.functional_relations)
                if slot is None:
                    return new  # not stored: it changes nothing the user said
                new = _in_slot(new, slot)
            key = new.key()
            timeline = [f for f in facts if f.key() == key]
            functional = is_functional(new.key()[1], self.functional_relations)
            if not functional and new.quote and CHANGE_CUE.search(new.quote):
                # "my favourite food is ramen now": a change of the value the key held
                functional = any(f.valid_to is None for f in timeline)
            dup = self._near_duplicate(new, facts, functional, now)
            if dup is not None:
                _refresh(dup, new, now)
                self._put("fact", dup)
                return dup
            kept, changed = place_fact(timeline, new, functional=functional, now=now)
            if kept is new:  # "Sold the Honda, I drive a Tesla now": the old value named
                changed += _ended_by(new, facts, self.functional_relations, now)
                changed += _twins(kept, changed, facts, now)
            for f in changed:
                self._put("fact", f)
            return kept

    def _near_duplicate(
        self, new: Fact, facts: Sequence[Fact], functional: bool, now: datetime
    ) -> Fact | None:
        """A recent open fact saying what ``new`` says in other words, if any.

        Candidates: facts still holding, stored or refreshed within the dedup window,
        of another key or another object (the same key and object is a re-assertion,
        handled by :func:`place_fact`), never a fact of the same functional key (a
        new value there is a contradiction, not a duplicate). The same text, case and
        spacing aside, is a duplicate; otherwise a candidate of the same subject whose
        object shares at least half of its terms is compared by embedding cosine.
        """
        cfg = self.config
        window = timedelta(days=cfg.dedup_window_days)
        key, same = new.key(), normalize_term(new.object)
        cands = [
            f
            for f in facts
            if f.valid_to is None
            and f.superseded_by is None
            and now - f.updated_at <= window
            and not (f.key() == key and (functional or normalize_term(f.object) == same))
        ]
        if not cands:
            return None
        text = normalize_term(_plain(new))
        for f in cands:
            if normalize_term(_plain(f)) == text:
                return f
        if self.embed is None:
            return None
        # Only a fact of the same subject whose object shares at least half of its
        # terms is worth an embedding (a cosine above 0.95 needs nearly the same words).
        subject, words = normalize_term(new.subject), set(tokenize(new.object))
        close = [
            f
            for f in cands
            if normalize_term(f.subject) == subject
            and len(words & (w := set(tokenize(f.object)))) >= 0.5 * max(len(words), len(w), 1)
        ]
        if not close:
            return None
        vecs = np.asarray(self.embed([_plain(new)] + [_plain(f) for f in close]), dtype=float)
        norms = np.linalg.norm(vecs, axis=1)
        norms[norms == 0] = 1.0
        sims = (vecs[1:] @ vecs[0]) / (norms[1:] * norms[0])
        best = int(np.argmax(sims))
        return close[best] if sims[best] > cfg.dedup_threshold else None

    def replaced(self, user_id: str, fact: Fact) -> list[Fact]:
        """The facts of ``fact``'s subject that ``fact`` superseded (any relation).

        Example:
            >>> from langgraph_memory.layers.long_term.memory import LongTermMemory
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> lt = LongTermMemory(InMemoryBackend())
            >>> _ = lt.facts.add_fact("u1", "user", "employer", "IBM", valid_from="2024-01-01")
            >>> new = lt.facts.add_fact("u1", "user", "employer", "SAP", valid_from="2024-06-01")
            >>> [f.object for f in lt.facts.replaced("u1", new)]
            ['IBM']
        """
        if not fact.earlier:  # it replaced nothing
            return []
        found = self.records.query_records("fact", user_id, where={"subject_key": fact.key()[0]})
        return [f for r in found if (f := Fact.load(r.data)).superseded_by == fact.id]

    def close_fact(
        self, user_id: str, fact_id: str, when: datetime | str | float | None = None
    ) -> Fact:
        """Record that an open fact stopped holding at ``when`` (now by default).

        Raises:
            KeyError: When the user has no such fact.
            ValueError: When the fact is closed already or ``when`` precedes its start.
        """
        with self._lock:
            fact: Fact = self._get("fact", user_id, fact_id)
            end = self._now() if when is None else parse_timestamp(when, "when")
            if fact.valid_to is not None:
                raise ValueError(f"fact {fact_id!r} is closed already")
            if end <= fact.valid_from:
                raise ValueError("when must be later than the fact's valid_from")
            fact.valid_to, fact.updated_at = end, self._now()
            self._put("fact", fact)
            return fact

    def list_facts(
        self,
        user_id: str,
        *,
        subject: str | None = None,
        relation: str | None = None,
        include_superseded: bool = True,
    ) -> list[Fact]:
        """The user's facts in the order they began (``valid_from``), optionally of one
        subject and/or relation."""
        subj = None if subject is None else normalize_term(subject)
        rel = None if relation is None else normalize_key(relation)
        out = []
        for r in self.records.list_records("fact", check_id(user_id, "user_id")):
            f = Fact.load(r.data)
            s, k = f.subject_key, f.relation_key
            if (subj is None or s == subj) and (rel is None or k == rel):
                if include_superseded or f.superseded_by is None:
                    out.append(f)
        return sorted(out, key=lambda f: (f.valid_from, f.created_at, f.id))

    def facts_at(self, user_id: str, when: datetime | str | float | None = None) -> list[Fact]:
        """The facts that held at ``when`` (now by default), in the order they began."""
        t = self._now() if when is None else parse_timestamp(when, "when")
        return [f for f in self.list_facts(user_id) if f.holds_at(t)]

    def splice_out(self, user_id: str, gone: Fact) -> None:
        """Before deleting ``gone``: give its span back to the fact it superseded.

        When several facts were closed where ``gone`` began (one at the same instant),
        the latest takes the span over and the others point at it.
        """
        preds = [
            f
            for f in self.list_facts(user_id)
            if f.superseded_by == gone.id and f.valid_to == gone.valid_from
        ]
        if not preds:
            return
        heir = max(preds, key=lambda f: (f.valid_from, f.created_at, f.id))
        now = self._now()
        heir.valid_to, heir.superseded_by = gone.valid_to, gone.superseded_by
        for f in preds:
            if f is not heir:
                f.superseded_by = heir.id
            f.updated_at = now
            self._put("fact", f)
