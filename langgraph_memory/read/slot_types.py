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
from langgraph_memory.extraction.changes import CHANGE_KEY
from langgraph_memory.extraction.entities import SURNAMES, find_entities, sentence_spans
from langgraph_memory.extraction.slots import (
    TENTATIVE,
    about_others,
    event_named,
    names_date,
    slots_of,
    thing_counted,
)
from langgraph_memory.extraction.whereabouts import homes_named, not_lived_at
from langgraph_memory.extraction.workplaces import others_clauses
from langgraph_memory.read.candidates import message_item
from langgraph_memory.read.handovers import handover
from langgraph_memory.read.questions import as_users_own, asked_by_form
from langgraph_memory.read.recounts import recounted
from langgraph_memory.read.relations import names_relation
from langgraph_memory.read.reschedules import MOVED, rescheduled
from langgraph_memory.read.timeline import is_statement

if TYPE_CHECKING:
    from langgraph_memory.storage.base import MemoryBackend

__all__ = [
    "asked_type",
    "own_part",
    "typed",
    "states_a",
    "latest_typed",
    "add_typed",
    "RECENT",
    "LATEST",
]

#: The measure words a count is said by, other than 个 (次 and 回 count how often).
_MEASURES = "只台本辆位名条棵件套口盆次回张双把部份间"
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
            r"哪家公司|哪个公司|什么公司|在哪(?:儿|里)?(?:工作|上班|任职|实习|教书)|哪个单位|什么单位|"
            r"哪(?:个|家)机构|什么机构|"
            r"\bwhich company\b|\bwhat company\b|\bwhere do i work\b|"
            r"\bwho do i work for\b|\bemployer\b",
            re.I,
        ),
    ),
    (
        "job",
        re.compile(
            r"什么工作|做什么的|干什么的|职业|职位|岗位|谋生|靠什么(?:吃饭|赚钱|生活)|"
            r"上学还是(?:上班|工作)|哪个部门|什么部门|哪个组|\bwhat department\b|"
            r"\bwhich (?:department|team) (?:am i|do i work)\b|"
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
            r"\bwho (?:do i|am i) (?:work out|train|go|play|live|dating|seeing)\b|"
            r"\bwho(?:'s| is| are) (?:my|our) (?:new |current )?(?:room|house|flat|gym|"
            r"running|study|lab|team|class|desk|work)?(?:mate|buddy|partner|vet|therapist|"
            r"trainer|teacher|landlord|neighbou?r|doctor|dentist)s?\b",
            re.I,
        ),
    ),
    (
        "date",
        re.compile(
            r"哪天|哪一天|什么时候|几号|几月几|\bwhat (?:date|day)\b|\bwhen (?:is|do|am)\b", re.I
        ),
    ),
    ("count", re.compile(rf"多少|几(?:个人|[个{_MEASURES}])|\bhow many\b", re.I)),
    (
        "plan",
        re.compile(
            r"打算|计划|准备(?:买|去|换|学|做)|要干嘛|要做什么|怎么安排|什么安排|怎么过|"
            r"\bwhat are my plans\b|"
            r"\b(?:am i|was i|i'm) (?:planning|going) to\b",
            re.I,
        ),
    ),
)
#: The slot reader's keys whose values are of each type.
_SLOT_TYPE = {
    "location": "place",
    "employer": "org",
    "manager": "person",
    "department": "job",
}
#: A change said with no slot named is a change of employer when it speaks of work
#: ("我换到字节了，上周刚入职"), not of anything ("I switched to oat milk").
_WORK = re.compile(
    r"入职|上班|工作|公司|跳槽|跳去|跳到|单位|offer|\b(?:job|work(?:ing)?|joined|hired|employer)\b",
    re.I,
)
#: The user working somewhere the slot reader does not know by name ("在京东也干了半个月了",
#: "在一家律所实习", "跳去好未来了"): the place before a verb of work (not home nor a room),
#: or after a verb of joining one.
_WORKS_AT = re.compile(
    r"在(?!家|这|那|哪|外|公司|单位|办公室|线上|远程)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)"
    r"(?:也|都|又|已经|还|一直)?(?:干|上班|工作|实习|任职|做事|打工)|"
    r"(?:跳槽到|跳槽去|跳去|跳到|入职了?)(?!这|那|哪)[\u4e00-\u9fffA-Za-z]{2}"
)
#: The user's most recent messages searched for statements of the asked type.
RECENT = 200
#: The latest typed statements added as candidates.
LATEST = 2


def asked_type(query: str) -> str | None:
    """The type of value ``query`` asks for (``place``, ``org``, ``person``...), if any: by
    the everyday wordings of :data:`_ASKS`, else by the question's form
    (:func:`~langgraph_memory.read.questions.asked_by_form`), whoever it names the user as
    ("Where does she live?": :func:`~langgraph_memory.read.questions.as_users_own`)."""
    asked = as_users_own(query)
    for kind, rx in _ASKS:
        if rx.search(asked):
            return kind
    return asked_by_form(asked)


#: A Chinese person named by surname and title ("何总监", "赵主管", "郑老师", "老杨").
_ZH_TITLED = re.compile(
    rf"(?:[{''.join(sorted(SURNAMES))}](?:总监|总(?![是体共算之结统部数额量价值])|经理|主管|主任|"
    r"老师|教授|导师|处长|科长|部长|组长|姐|哥))"
)
#: The statement's first characters read for a value (a statement of a slot is short; a
#: pasted page is not read whole on every question).
_READ_CHARS = 400


def own_part(said: str) -> str:
    """The sentences of the user's statement ``said`` about the user's own life: a
    message often tells another's news before the user's own ("My dad just retired from
    Bosch! And me, I jumped ship to ABB", "我哥升总监了。我呢，转去做市场策划了"), and the
    other's sentence holds no value of the user's ("" when every sentence is another's).

    Example:
        >>> own_part("My brother moved to Denver. And us, we're in Portland now.")
        " And us, we're in Portland now."
        >>> own_part("我妹妹住在杭州。"), own_part("I live with my parents in Cork.")
        ('', 'I live with my parents in Cork.')
    """
    spans = sentence_spans(said)
    if len(spans) < 2 and not about_others(said):
        return said
    return "".join(_own_clauses(t) if about_others(t) else t for _, t in spans)


def _own_clauses(sentence: str) -> str:
    """The clauses of a sentence about someone else that are the user's ("想了很久还是决定
    考公了，稳定一点，我爸妈也支持": the first two; an English one: none)."""
    theirs = others_clauses(sentence, about_others)
    kept, at = [], 0
    for a, b in theirs:
        kept.append(sentence[at:a])
        at = b
    kept.append(sentence[at:])
    return "".join(kept).strip("，, ")


def typed(said: str, kind: str, query: str = "") -> bool:
    """Whether the user's statement ``said`` holds a value of type ``kind`` in a sentence
    about the user's own life (:func:`own_part`; "我妹妹住在杭州" holds none). A count or a
    date is of the thing the ``query`` asks about: the slot reader's count of the thing it
    names (``number of children`` for "我有几个孩子"), or else a number by the measure word
    it asks by ("几台电脑": "三台了") or beside a word it names; a date of its event, or in
    a statement sharing one of its words."""
    if kind == "person" and names_relation(said[:_READ_CHARS], query):
        return True  # "my roommate Chloe is a night owl": who, though the rest is hers
    said = own_part(said[:_READ_CHARS])
    if not said.strip():
        return False
    if kind == "date":
        return names_date(said) and _same_event(said, query)
    slots = slots_of(said)
    keys = {key for key, _, _ in slots}
    if kind == "count":
        return _counts(said, query, keys)
    if kind == "plan":
        return "plan" in keys or bool(_PLANS.search(said) or _DROPPED.search(said))
    if any(_SLOT_TYPE.get(key) == kind for key in keys):
        return True
    if kind == "org" and (CHANGE_KEY in keys and _WORK.search(said) or _WORKS_AT.search(said)):
        return True
    if kind == "job":  # a trade, a level, a department, or where the user works
        return bool(keys & {"occupation", "employer"} or _DOES.search(said)) or any(
            _TRADE.search(value) for key, value, _ in slots if key in _NAMES_A_VALUE
        )
    if kind == "person" and (_ZH_TITLED.search(said) or _BOSS_NAMED.search(said)):
        return True
    found = find_entities(said)
    if kind == "place":  # a place in a trip, a plan, a past story is no home
        # (a city named by a thing of the home there: "the Tacoma apartment", "济南的新房子")
        if homes_named(said, {name for _, name, k in found if k == kind}):
            return True
        return any(k == kind and not not_lived_at(said, at) for at, _, k in found)
    return any(k == kind for _, _, k in found)


#: The slot keys whose value may name a trade ("我现在是销售主管了": a change).
_NAMES_A_VALUE = frozenset({CHANGE_KEY, f"{TENTATIVE}name"})
#: A value that names a trade or a level ("销售主管", "自媒体博主", "网约车"): a job.
_TRADE = re.compile(
    r"(?:师|员|手|工|家|者|生|经理|总监|主管|主任|老师|医生|护士|博主|主播|司机|网约车|外卖|"
    r"销售|运营|会计|律师|编辑|记者|教授|研究生|博士|freelance|engineer|manager|designer|"
    r"developer|teacher|nurse|doctor|analyst|consultant|writer|lead|director)$",
    re.I,
)
#: The user saying what they do for a living ("我在做外卖骑手", "我是做设计的", "I work as");
#: not a pastime ("做了手工"), and a department by its trade ("调到技术部了"), not any 部
#: ("俱乐部", "东北部").
_DOES = re.compile(
    # a verb of doing or becoming one ("当瑜伽教练", "成了公务员", "升成技术经理", "跑网约车司机",
    # "以讲师身份"), and the trade it makes the user
    r"(?:(?:做|当上?|干|跑|成了|成为|变成|升成|升为|升任|转成|转为|以)(?:了)?|"
    # the user said to be one ("我现在还是实习生", "现在是正式的算法工程师了")
    r"(?:我|(?:^|(?<=[，,。！!；;\s]))(?=现在|目前|如今))(?:现在|目前|如今|已经)?(?:还|也|就|都)?是)"
    r"(?:一名|一个|个)?[\u4e00-\u9fff]{0,7}?"
    r"(?:师|员|(?<!手)工|(?<!做)手|士|(?<!学)生|博主|主播|司机|销售|运营|会计|律师|编辑|记者|经理|总监|"
    r"主管|主任|助理|专员|顾问|策划|老板|店主|店长|教练)(?=[，,。！!；;\s]|$|了|啦|的|身份)|"
    # "as a registered midwife", "full-time dog groomer now", "took the financial controller
    # job": a word of a trade (its ending: "-er", "-ist"...) the user is, or a job taken
    r"\bas an? (?:[a-z-]+ ){0,2}(?!(?:matter|reminder|favou?r|user|member|customer|beginner|"
    r"teenager|father|mother|brother|sister|daughter|partner|result|number|order|whole|"
    r"kid|child)\b)[a-z-]+(?:er|or|ist|ian|wife|nurse|chef|cook)\b|"
    r"\b(?:a|an|full-time|officially)\s+(?:[a-z-]+\s+){0,2}[a-z-]+(?:er|or|ist|ian)\s+now\b|"
    r"\b(?:took|accepted|got|landed|started|into)\s+(?:the|a|an|my)\s+(?:new\s+)?"
    r"(?:[a-z-]+\s+){1,3}(?:job|role|position)\b|"
    # what the user does, said "做…的" ("我做前端开发的", "我是做设计的"; not "做饭的时候")
    r"我(?:是|一直|现在)?做[\u4e00-\u9fffA-Za-z]{2,6}?的(?=[，,。！!；;\s]|$)|"
    r"读研|读博|在读|上大学|"
    r"(?:技术|市场|销售|财务|人事|人力|产品|研发|运营|法务|行政|采购|设计|工程|质量|质检|客服|品牌|"
    r"公关|战略|投资|业务|数据|信息|审计|风控|营销|总裁办|IT|HR)部(?:门)?"
    r"(?=[，,。！!；;\s]|$|那边|这边|了)|"
    r"\bI (?:work|am working) as\b|\bmy (?:job|role|title) is\b",
    re.I,
)
#: Someone named as the user's boss ("我的 manager 是 Kevin", "新来的 boss 叫 Amanda",
#: "领导换成了王磊"): a name after the verb, a capital or a surname, not "领导是个工作狂" nor
#: "my manager is so annoying", "my manager issued…".
_BOSS_NAMED = re.compile(
    r"(?:manager|boss|leader|supervisor|领导|上级|老板|经理|主管|导师|上司|师傅|师父)\s*"
    rf"(?:(?:是|叫|换成了?|变成了?|:|\bis\b)\s*(?-i:[A-Z])|(?:是|叫|换成了?|变成了?)(?:老|小|阿)?"
    rf"[{''.join(sorted(SURNAMES))}](?![个了人们])[\u4e00-\u9fff]?)",
    re.I,
)
#: A plan dropped for another ("云南不去了，改成回老家", "车先不买了"): a plan said again;
#: not any change ("午饭改成吃面了").
_DROPPED = re.compile(r"不[去买考做学办搬换读]了|(?:改成|改为|换成)(?:去|回|在家|坐|开车|带)")
#: The user saying what they plan (准备, 打算, 计划, 决定, "I plan to"; not "准备好了", nor
#: "going to", which is as often a way there).
_PLANS = re.compile(
    r"准备(?!好)|打算|计划|决定(?!不)|\b(?:plan(?:ning)? to|decided to)\b|"
    # a wish to buy or switch ("想买个比亚迪"), and the choice that ends it ("最后还是定了…")
    r"想(?:要)?(?:买|换|入手)|(?:最后|最终)(?:还是|决定)?(?:定|订|选|挑|入手|买)了?|"
    r"\b(?:was|were) going to\b|\bwant(?:ed)? to (?:buy|get)\b|\bthinking of (?:buying|getting)\b",
    re.I,
)
#: A number, with the measure word it counts by ("两台", "12个人", "三千", "3500"; not the
#: 一 of "一起").
_NUMBER = re.compile(
    rf"\d+(?:\.\d+)?|[一二两三四五六七八九十百千万]+(?:多|余|来)?(?:个人|[个{_MEASURES}人块元岁])|"
    r"[一二两三四五六七八九]?[十百千万][一二两三四五六七八九十百千万]*|"
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|"
    r"fifty|hundred)\b",
    re.I,
)
#: A number by a measure word other than 个 (every thing is counted by 个: "三个月"); 次
#: and 回 count how often ("一周五次").
_MEASURED = re.compile(rf"(?:\d+|[一二两三四五六七八九十百千万]+)(?:多|余|来)?(个人|[{_MEASURES}])")
#: What a count question is asked in (not the thing counted), and when it is asked ("this
#: month", "每个月").
_ASK_WORDS = re.compile(
    r"^(?:我|我们|我家|我的|你|的|现在|目前|如今|有|是|在|了|吗|呢|么|多少|几|一共|总共|"
    r"每|个|还|要|每个|每个月|每月|这个月|本月|每周|每年|今年|多少钱|"
    r"what|how|many|much|do|does|did|i|my|we|our|have|has|now|is|are|the|a|of|go|went|get|got|"
    r"times?|this|last|day|week|month|year|today)$",
    re.I,
)


def _terms(query: str) -> list[str]:
    """The words of a question that name what it asks about (its terms minus the words
    every question of its type has: "我的公众号有多少粉丝": 公众, 号, 粉丝)."""
    return [t for t in tokenize(query) if t.strip() and not _ASK_WORDS.match(t)]


def _counts(said: str, query: str, keys: set[str]) -> bool:
    """Whether ``said`` (whose slots have ``keys``) holds a number of what ``query``
    counts: the slot reader's count of the thing the question names ("几个孩子":
    ``number of children``), or a number beside the same thing; a number by the measure
    word the question asks by with no other thing after it ("几只猫": "现在三只了", not
    "三只螃蟹"); or, for a thing the slot reader does not know, a number in a statement
    sharing a word of the question (not one of its time words: "this month", "每个月"),
    the head of one ("房租": "涨租了"), or its amount per period ("月供")."""
    asked = thing_counted(query)
    if asked is not None and any(k.endswith(f"number of {asked}") for k in keys):
        return True
    if asked is not None and thing_counted(said) == asked and _NUMBER.search(said):
        return True  # "After the merger it's 19 reports": a count the slot reader missed
    terms = [t for t in _terms(query) if len(t) > 1]
    measure = re.search(rf"几(个人|[{_MEASURES}])", query)
    for m in _MEASURED.finditer(said):
        after = said[m.end() : m.end() + 4]
        if (
            measure
            and m[1] == measure[1]
            and (
                not re.match(r"[\u4e00-\u9fff]", after)
                or re.match(r"[了啦呢吧的]", after)
                or any(after.startswith(t) for t in terms)
            )
        ):
            return True
    if asked is not None or not _NUMBER.search(said):
        return False
    low = said.casefold()
    if any(t.casefold() in low for t in terms):
        return True
    if _RATE.search(query) and _RATE.search(said):  # "每个月还多少房贷": "月供降到三千二了"
        return True
    # a Chinese word shared by its head, its last character ("房租": "涨租了"), or a word of
    # one character as the noun of a number ("多少人": "7个人"; not the 号 of "3号")
    if any(t[-1] in said for t in terms if is_cjk_text(t)):
        return True
    ones = {t for t in _terms(query) if len(t) == 1 and is_cjk_text(t)}
    return any(m["n"] in ones for m in _COUNTED_NOUN.finditer(said))


#: An amount by a period ("每个月", "月供", "月租", "年薪", "4200一个月", "per month"): a
#: question of an amount per period and a statement of one speak of the same amount.
_RATE = re.compile(
    r"[每一]个?月|每[周年天]|月[供租薪费入]|年[薪费]|[周日时]薪|"
    r"\b(?:per|a|each|every) (?:month|week|year)\b|\b(?:monthly|yearly|annual|weekly)\b",
    re.I,
)
#: A number and the one character after it (past a measure word), unless it makes the
#: number a date, a time or an age ("3号", "5点", "12岁").
_COUNTED_NOUN = re.compile(
    rf"(?:\d+|[一二两三四五六七八九十百千万]+)(?:多|余|来)?(?:[个{_MEASURES}])?"
    r"(?P<n>[^\d\s一二两三四五六七八九十百千万号日月年点时分秒天周岁])"
)


def _same_event(said: str, query: str) -> bool:
    """Whether a statement naming a date is about the event ``query`` asks the date of:
    the same kind of event, or a word of the question; or a date said as moved
    (:data:`~.reschedules.MOVED`) with no event named, for a question naming its event.

    Example:
        >>> _same_event("they moved it up to May 28", "When is my wedding?")
        True
        >>> _same_event("my flight got moved to May 28", "When is my wedding?")
        False
    """
    asked, named = event_named(query), event_named(said)
    moved = MOVED.search(said) is not None
    if moved and named == "move" and asked != "move":
        named = None  # "they moved it to May 28": a date moved, no move of house
    if moved and named is None and asked is not None:
        return True  # the question names the event, the statement leaves it unsaid
    if asked is not None:
        return named == asked
    low = said.casefold()
    return any(t.casefold() in low for t in _terms(query) if len(t) > 1)


def states_a(m: Message, kind: str, query: str = "") -> bool:
    """Whether ``m`` is a statement of the user's (not a question) holding a value of type
    ``kind`` (:func:`typed`, for ``query``): what :func:`latest_typed` finds and recency
    groups."""
    return is_statement(m) and typed(m.content, kind, query)


#: Where a question's statement ends: the last comma, semicolon, dash or full stop before
#: the clause it asks in.
_LEAD_END = re.compile(r".*[,，;；。!！]|.*[.](?=\s)|.*\s[—–-]+\s", re.S)


def said_before_asking(m: Message, kind: str, query: str = "") -> bool:
    """Whether ``m`` is a question of the user's whose clauses before the one it asks in
    hold a value of type ``kind`` (:func:`typed`): a question often says who the user is
    first ("I'm a remote dev living in Austin, what's a good standing desk?", "My commute
    from Cork is 50 min, is a folding bike worth it?").

    Example:
        >>> from datetime import datetime
        >>> t = datetime(2024, 3, 1)
        >>> m = Message("m", "u", "s", "user", "I live in Dayton, does renter's insurance "
        ...             "cover bikes?", t, seq=1)
        >>> said_before_asking(m, "place")
        True
        >>> said_before_asking(Message("n", "u", "s", "user", "Is Dayton nice?", t), "place")
        False
    """
    if m.role != "user" or is_statement(m):
        return False
    lead = _LEAD_END.match(m.content.strip().split("\n\n", 1)[0])
    return lead is not None and typed(lead[0], kind, query)


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
    no word with the question; for a question asking for a person, a handover's statements
    too (:func:`~langgraph_memory.read.handovers.handover`: who went and who came); for a
    date, a moved date and the event it moves (:func:`~.reschedules.rescheduled`); for a
    count, a count said as a level and an earlier one of its unit
    (:func:`~.recounts.recounted`). Used for a query ranked by its words alone. ``keep``:
    the caller's filter (a statement it refuses is never added)."""
    kind = asked_type(query)
    if kind is None:
        return
    seen = {it.order for it in cands if it.layer in ("message", "neighbor")}
    best = max((it.score for it in cands if it.layer == "message"), default=1.0)
    recent = [m for m in storage.message_page(user_id, limit=RECENT) if keep is None or keep(m)]
    found = latest_typed(recent, kind, query=query)
    handed = handover(recent) if kind == "person" else None
    # (a date moved, of the event told last: "手术约在下个月12号" … "让我提前到这个月28号"; a
    # count said as a level, of a unit said before: "选了四门课" … "一口气加到七门")
    handed = handed or (rescheduled(recent, query, own_part) if kind == "date" else None)
    handed = handed or (recounted(recent, own_part) if kind == "count" else None)
    if handed is not None:  # "张店长被调走了，现在是刘姐管我们": the new one and who went
        found += [recent[i] for i in (handed[0], *handed[1][-LATEST:]) if recent[i] not in found]
    for m in found:
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
