"""The user's statements of the type a question asks for, for a query read by its words.

With the English-only default model a Chinese query has no vector, so it is ranked by its
words alone: a new statement sharing none of them ("来昆明三个月了" for "我现在在哪座城市？")
is never retrieved, and nothing links it to the old one ("我住在杭州"). A question about an
everyday slot names the type of its answer: a place (住哪, 哪座城市, where do I live), an
organisation (哪家公司, 在哪上班, which company), a person (上级, 领导, 对象, manager), a
job (做什么工作, 职位, 哪个部门), a date (哪天, 什么时候), a count (几台, 多少) or a plan
(打算, 计划). :func:`asked_type` reads it; :func:`typed` tells which of the user's
statements hold a value of that type (the entity finder's places, organisations and
people, and the slot reader's location, employer, manager and occupation values; a count
or a date of what the question itself names; a plan said or dropped for another; never
a trip, a plan or a past story as a home, nor someone else's life): :func:`latest_typed`
finds the latest
few of them among the user's recent messages, to be added as candidates, and recency
links the typed statements of a context as statements on one question (see
:func:`~langgraph_memory.read.recency.current_first`).

Example:
    >>> asked_type("我现在在哪座城市？"), asked_type("Which company do I work for?")
    ('place', 'org')
    >>> typed("来昆明三个月了", "place"), typed("我妹妹住在杭州", "place")
    (True, False)
    >>> typed("上周去上海出差了", "place"), typed("加起来三台了", "count", "我有几台电脑？")
    (False, True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from langgraph_memory.config import PackingSection
from langgraph_memory.core.context import ContextItem
from langgraph_memory.core.filters import Predicate
from langgraph_memory.core.records import Message
from langgraph_memory.core.tokens import is_cjk_text, tokenize
from langgraph_memory.extraction.entities import SURNAMES, find_entities
from langgraph_memory.extraction.slots import about_others, event_named, names_date, slots_of
from langgraph_memory.extraction.whereabouts import not_lived_at
from langgraph_memory.read.candidates import message_item
from langgraph_memory.read.timeline import is_statement

if TYPE_CHECKING:
    from langgraph_memory.storage.base import MemoryBackend

__all__ = ["asked_type", "typed", "states_a", "latest_typed", "add_typed", "RECENT", "LATEST"]

#: What in a question asks for a value of a type (general wording of everyday slots), in
#: the order they are tried ("我在哪家公司上班": an organisation, before a job).
_ASKS = (
    (
        "place",
        re.compile(
            r"住哪|住在哪|哪座城|哪个城市|哪一个城市|在哪(?:儿|里)?(?:生活|定居|住)|"
            r"人在哪|现居|\bwhere do i live\b|\bwhich city\b|\bwhat city\b|\bwhere (?:am i|i) liv|"
            r"\bwhere(?:'s| is) home\b|\bwhere am i based\b|\bwhich (?:town|country)\b",
            re.I,
        ),
    ),
    (
        "org",
        re.compile(
            r"哪家公司|哪个公司|什么公司|在哪(?:儿|里)?(?:工作|上班)|哪个单位|什么单位|"
            r"\bwhich company\b|\bwhat company\b|\bwhere do i work\b|"
            r"\bwho do i work for\b|\bemployer\b",
            re.I,
        ),
    ),
    (
        "job",
        re.compile(
            r"什么工作|做什么的|干什么的|职业|职位|岗位|谋生|靠什么(?:吃饭|赚钱|生活)|"
            r"上学还是(?:上班|工作)|哪个部门|什么部门|"
            r"\bwhat do i do (?:for (?:a living|work)|now)\b|"
            r"\bwhat(?:'s| is) my (?:job|role|title|position|occupation|profession)\b|"
            r"\bwhat do i do\b|\bwhat(?:'s| is) my line of work\b|"
            r"\bjob title\b",
            re.I,
        ),
    ),
    (
        "person",
        re.compile(
            r"上级|上司|领导是谁|老板是谁|经理是谁|主管是谁|谁管我|归谁管|向谁汇报|导师是谁|"
            r"谁(?:在)?带我|对象是谁|有对象|男朋友是谁|女朋友是谁|和谁一起|跟谁一起|"
            r"\bmy (?:manager|boss|supervisor)\b|\bwho do i report to\b|"
            r"我的[\u4e00-\u9fff]{1,4}是谁|我(?:现在)?(?:跟|和)谁|"
            r"\bwho(?:'s| is) my (?:partner|girlfriend|boyfriend|wife|husband|doctor|dentist|"
            r"mentor|coach|landlord|lead|advisor|tutor)\b|"
            r"\bwho (?:do i|am i) (?:work out|train|go|play|live|dating|seeing)\b",
            re.I,
        ),
    ),
    (
        "date",
        re.compile(
            r"哪天|哪一天|什么时候|几号|几月几|\bwhat (?:date|day)\b|\bwhen (?:is|do|am)\b", re.I
        ),
    ),
    ("count", re.compile(r"多少|几(?:个人|[个只台本辆位名条棵件套口盆次])|\bhow many\b", re.I)),
    ("plan", re.compile(r"打算|计划|要干嘛|要做什么|\bwhat are my plans\b", re.I)),
)
#: The slot reader's keys whose values are of each type.
_SLOT_TYPE = {"location": "place", "employer": "org", "manager": "person"}
#: A change said with no slot named is a change of employer when it speaks of work
#: ("我换到字节了，上周刚入职"), not of anything ("I switched to oat milk").
_WORK = re.compile(
    r"入职|上班|工作|公司|跳槽|单位|offer|\b(?:job|work(?:ing)?|joined|hired|employer)\b", re.I
)
#: The user's most recent messages searched for statements of the asked type.
RECENT = 200
#: The latest typed statements added as candidates.
LATEST = 2


def asked_type(query: str) -> str | None:
    """The type of value ``query`` asks for (``place``, ``org``, ``person``), if any."""
    for kind, rx in _ASKS:
        if rx.search(query):
            return kind
    return None


#: A Chinese person named by surname and title ("何总监", "赵主管", "郑老师", "老杨").
_ZH_TITLED = re.compile(
    rf"(?:[{''.join(sorted(SURNAMES))}](?:总监|总(?![是体共算之结统部数额量价值])|经理|主管|主任|"
    r"老师|教授|导师|处长|科长|部长|组长|姐|哥))"
)
#: The statement's first characters read for a value (a statement of a slot is short; a
#: pasted page is not read whole on every question).
_READ_CHARS = 400


def typed(said: str, kind: str, query: str = "") -> bool:
    """Whether the user's statement ``said`` holds a value of type ``kind`` (a statement
    about someone else's life does not: "我妹妹住在杭州"). A count or a date is of the
    thing the ``query`` asks about: a number beside its measure word or one of its
    words ("几台电脑": "两台"), a date of its event or beside one of its words."""
    said = said[:_READ_CHARS]
    if about_others(said):
        return False
    if kind == "count":
        return _counts(said, query)
    if kind == "date":
        return names_date(said) and _same_event(said, query)
    if kind == "plan":
        return bool(_PLANS.search(said) or _DROPPED.search(said))
    slots = slots_of(said)
    keys = {key for key, _, _ in slots}
    if any(_SLOT_TYPE.get(key) == kind for key in keys):
        return True
    if kind == "org" and "changed to" in keys and _WORK.search(said):
        return True
    if kind == "job":  # a trade, a level, a department, or where the user works
        return bool(keys & {"occupation", "employer"} or _DOES.search(said)) or any(
            _TRADE.search(value) for _, value, _ in slots
        )
    if kind == "person" and (_ZH_TITLED.search(said) or _BOSS_NAMED.search(said)):
        return True
    found = find_entities(said)
    if kind == "place":  # a place in a clause of a trip, a plan, a past story is no home
        return any(k == kind and not not_lived_at(said, at) for at, _, k in found)
    return any(k == kind for _, _, k in found)


#: A value that names a trade or a level ("销售主管", "自媒体博主", "网约车"): a job.
_TRADE = re.compile(
    r"(?:师|员|手|工|家|者|生|经理|总监|主管|主任|老师|医生|护士|博主|主播|司机|网约车|外卖|"
    r"销售|运营|会计|律师|编辑|记者|教授|研究生|博士|freelance|engineer|manager|designer|"
    r"developer|teacher|nurse|doctor|analyst|consultant|writer|lead|director)$",
    re.I,
)
#: The user saying what they do for a living ("我在做外卖骑手", "我是做设计的", "I work as").
_DOES = re.compile(
    r"(?:做|当|干)(?:了)?(?:一名|一个)?[\u4e00-\u9fff]{0,5}?"
    r"(?:师|员|手|工|博主|主播|司机|销售|运营|会计|律师|编辑|记者)(?=[，,。！!；;\s]|$|了|啦)|"
    r"读研|读博|在读|上大学|[\u4e00-\u9fff]{2}部(?:门)?(?=[，,。！!；;\s]|$|那边|这边|了)|"
    r"\bI (?:work|am working) as\b|\bmy (?:job|role|title) is\b",
    re.I,
)
#: Someone named as the user's boss ("我的 manager 是 Kevin", "新来的 boss 叫 Amanda").
_BOSS_NAMED = re.compile(
    r"(?:manager|boss|leader|supervisor|领导|上级|老板|经理|主管|导师|上司)\s*"
    r"(?:是|叫|换成了?|变成了?|is|:)\s*[A-Za-z\u4e00-\u9fff]",
    re.I,
)
#: A plan dropped for another ("云南不去了，改成回老家", "车先不买了"): a plan said again.
_DROPPED = re.compile(r"不[去买考做学办搬换读]了|改成|改为|换成|\binstead\b", re.I)
#: The user saying what they plan (准备, 打算, 计划, 决定, "I plan to", "we're going to").
_PLANS = re.compile(r"准备|打算|计划|决定(?!不)|\b(?:plan(?:ning)? to|going to|decided to)\b", re.I)
#: A number, with the measure word it counts by ("两台", "12个人", "三千", "3500"; not the
#: 一 of "一起").
_NUMBER = re.compile(
    r"\d+(?:\.\d+)?|[一二两三四五六七八九十百千万]+(?:多|余)?(?:个人|[个只台本辆位名条棵件套口盆人块元岁])|"
    r"[一二两三四五六七八九]?[十百千万][一二两三四五六七八九十百千万]*|"
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|"
    r"fifty|hundred)\b",
    re.I,
)
#: What a count question is asked in (not the thing counted).
_ASK_WORDS = re.compile(
    r"^(?:我|我们|我家|我的|你|的|现在|目前|如今|有|是|在|了|吗|呢|么|多少|几|一共|总共|"
    r"每|个|还|要|what|how|many|much|do|does|i|my|we|our|have|has|now|is|are|the|a|of)$",
    re.I,
)


def _terms(query: str) -> list[str]:
    """The words of a question that name what it asks about (its terms minus the words
    every question of its type has: "我的公众号有多少粉丝": 公众, 号, 粉丝)."""
    return [t for t in tokenize(query) if t.strip() and not _ASK_WORDS.match(t)]


def _counts(said: str, query: str) -> bool:
    """Whether ``said`` holds a number of what ``query`` counts: beside the measure word it
    asks by ("几台" and "两台"), or in a statement sharing a word with it."""
    numbers = [m[0] for m in _NUMBER.finditer(said)]
    if not numbers:
        return False
    measure = re.search(r"几(个人|[个只台本辆位名条棵件套口盆])", query)
    if measure and any(n.endswith(measure[1]) for n in numbers):
        return True
    low = said.casefold()
    return any(t.casefold() in low for t in _terms(query) if len(t) > 1 or is_cjk_text(t))


def _same_event(said: str, query: str) -> bool:
    """Whether a statement naming a date is about the event ``query`` asks the date of:
    the same kind of event, or a word of the question."""
    asked = event_named(query)
    if asked is not None:
        return event_named(said) == asked
    low = said.casefold()
    return any(t.casefold() in low for t in _terms(query) if len(t) > 1)


def states_a(m: Message, kind: str, query: str = "") -> bool:
    """Whether ``m`` is a statement of the user's (not a question) holding a value of type
    ``kind`` (:func:`typed`, for ``query``): what :func:`latest_typed` finds and recency
    groups."""
    return is_statement(m) and typed(m.content, kind, query)


def latest_typed(
    recent: Sequence[Message], kind: str, n: int = LATEST, query: str = ""
) -> list[Message]:
    """The latest ``n`` of the user's statements in ``recent`` (newest first) holding a
    value of type ``kind`` (for ``query``: see :func:`typed`)."""
    out: list[Message] = []
    for m in recent:
        if len(out) >= n:
            break
        if states_a(m, kind, query):
            out.append(m)
    return out


def add_typed(
    storage: MemoryBackend,
    user_id: str,
    query: str,
    cands: list[ContextItem],
    skip: set[str],
    packing: PackingSection,
    terms: frozenset[str],
    keep: Predicate | None = None,
) -> None:
    """Add to ``cands`` the latest of the user's statements holding a value of the type
    ``query`` asks for (:func:`asked_type`; among the :data:`RECENT` latest messages), at
    the best message candidate's score times ``successor_decay``: the new value may share
    no word with the question. Used for a query ranked by its words alone. ``keep``: the
    caller's filter (a statement it refuses is never added)."""
    kind = asked_type(query)
    if kind is None:
        return
    seen = {it.order for it in cands if it.layer in ("message", "neighbor")}
    best = max((it.score for it in cands if it.layer == "message"), default=1.0)
    recent = storage.message_page(user_id, limit=RECENT)
    for m in latest_typed([m for m in recent if keep is None or keep(m)], kind, query=query):
        if m.seq in seen or m.id in skip:
            continue
        reason = f"the user's latest statement holding a {kind} (the question asks for one)"
        cands.append(
            message_item(
                m,
                "message",
                best * packing.successor_decay,
                {"asked_type": 1.0},
                reason,
                show_dates=packing.show_dates,
                terms=terms,
                max_tokens=packing.excerpt_tokens,
            )  # fmt: skip
        )
