"""Which stored slot a statement changes, when the statement does not name it.

"Moved again, Lisbon this time" changes the user's city; "陈教授退休了，我转到了李老师组里"
changes the manager: the new fact is said under a change relation (``CHANGE_KEY``) or a
tentative one, and the slot is found among the subject's open facts: the one whose old
value the statement names as ended, else the one whose relation it names, else the
newest one holding a value of the same kind (a date for a date, a count for a count, an
organisation for an employer). The functions change facts in place and return what to
store; :class:`~langgraph_memory.layers.long_term.fact_store.Facts` calls them under its
lock.

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.layers.long_term.facts import Fact
    >>> t = datetime(2024, 1, 1, tzinfo=timezone.utc)
    >>> city = Fact("f1", "u1", "user", "lives_in", "Paris", valid_from=t)
    >>> move = Fact("f2", "u1", "user", "change", "Lisbon", valid_from=t,
    ...             quote="Moved out of Paris, Lisbon now")
    >>> resolved_change(move, [city], frozenset({"lives_in"})).relation
    'lives_in'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from langgraph_memory.extraction.changes import CHANGE_KEY, names_change
from langgraph_memory.extraction.slots import TENTATIVE
from langgraph_memory.layers.long_term.facts import Fact, is_functional, normalize_term
from langgraph_memory.layers.long_term.profile import has_cjk, normalize_key, stable_id

__all__ = ["resolved_change", "in_slot", "ended_by", "tentative_slot", "twins_closed"]


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


def resolved_change(new: Fact, facts: Sequence[Fact], functional: frozenset[str]) -> Fact:
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
    return in_slot(new, pick)


def in_slot(new: Fact, slot: Fact) -> Fact:
    """``new`` said of ``slot``'s relation, with the id the same assertion gets there."""
    rkey = slot.key()[1]
    fid = stable_id("fact", new.user_id, new.key()[0], rkey, normalize_term(new.object),
                    new.valid_from.isoformat())  # fmt: skip
    return replace(new, id=fid, relation=slot.relation, relation_key=rkey)


def ended_by(
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


def tentative_slot(new: Fact, facts: Sequence[Fact], functional: frozenset[str]) -> Fact | None:
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


def twins_closed(
    kept: Fact, changed: Sequence[Fact], facts: Sequence[Fact], now: datetime
) -> list[Fact]:
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
