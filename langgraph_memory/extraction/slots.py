"""Slots of the user's life said in passing, so a newer value can supersede an older one.

Where the user lives, works, what they do, who their manager is, who a person is to
them, how many of something they have, when an event is and what they plan: each is a
*slot* with one value at a time. People rarely say "I live in X" twice; the new value
comes in passing ("Our new place in Porto has a river view", "搬来深圳第一周",
"Tom took over as my boss", "老三出生了", "答辩提前到2月18号了"). This module reads such
statements, in English and Chinese, as ``fact`` atoms whose key names the slot:

=================  ==========================================================
key                slot
=================  ==========================================================
``location``       the city the user lives in
``employer``       who the user works for
``occupation``     what the user does, or their level
``manager``        who the user reports to
``department``     the team or department the user is in
``role of NAME``   who NAME is to the user
``number of X``    how many X the user has (children, cats, plants, books...)
``date of X``      when event X is (wedding, flight, defence, dentist...)
``plan``           what the user plans to do
=================  ==========================================================

The long-term layers keep one value per slot (see :func:`is_slot_key`): a new value
supersedes the old one, which stays marked as earlier.

The readers are :mod:`.slots_en` and :mod:`.slots_zh`, over the words and tables of
:mod:`.slot_words`; this module picks one, drops what belongs to someone else, and
falls back on a tentative value.

Example:
    >>> said = "Last day at Shopify was Friday; I start at Stripe on Monday!"
    >>> [(k, v) for k, v, _ in slots_of(said)]
    [('employer', 'Stripe')]
    >>> [(k, v) for k, v, _ in slots_of("答辩提前到2月18号了，得抓紧。")]
    [('date of 答辩', '2月18号')]
    >>> [(k, v) for k, v, _ in slots_of("Baby number three is here!")]
    [('number of children', 'three')]
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.changes import CHANGE_KEY, changes_of, ended_value
from langgraph_memory.extraction.clauses import is_question
from langgraph_memory.extraction.cues import Cued
from langgraph_memory.extraction.entities import SURNAMES, find_entities, sentence_spans, zh_tags
from langgraph_memory.extraction.pronouns import resolved
from langgraph_memory.extraction.rules import PROFILE_KEYS
from langgraph_memory.extraction.slot_words import (
    COUNTED_RX,
    DATE_EN,
    DATE_ZH,
    EVENTS_RX,
    MONTH,
    NUM_EN,
    NUM_ZH,
    TENTATIVE,
    Slot,
    kind_of,
    names_someone,
    within_clause,
)
from langgraph_memory.extraction.slots_en import en_slots
from langgraph_memory.extraction.slots_zh import NO_PLACE, names_department, zh_slots
from langgraph_memory.extraction.whereabouts import not_lived_at
from langgraph_memory.extraction.workplaces import WORKPLACE_KEY, others_clauses, workplace_of

__all__ = [
    "slots_of",
    "about_others",
    "is_slot_key",
    "is_profile_key",
    "is_tentative",
    "names_date",
    "within_clause",
    "names_someone",
    "names_department",
    "event_named",
    "thing_counted",
    "SLOT_KEYS",
    "TENTATIVE",
]

#: The fixed slot keys (``role of``, ``number of`` and ``date of`` keys are open).
SLOT_KEYS = frozenset(
    {"location", "employer", "occupation", "manager", "department", "plan", CHANGE_KEY}
)
_OPEN = (
    "role of ", "number of ", "date of ", "age of ",
    "role_of_", "number_of_", "date_of_", "age_of_",
)  # fmt: skip


def is_slot_key(key: str) -> bool:
    """Whether a fact key names a slot with one value at a time.

    Example:
        >>> is_slot_key("number of cats"), is_slot_key("date_of_wedding"), is_slot_key("likes")
        (True, True, False)
    """
    k = key.strip().lower()
    return k in SLOT_KEYS or k.startswith(_OPEN)


def is_profile_key(key: str) -> bool:
    """Whether a fact with this key describes the user (and belongs in the profile): one
    of :data:`~langgraph_memory.extraction.rules.PROFILE_KEYS`, or a slot of their life.

    Example:
        >>> is_profile_key("location"), is_profile_key("number of cats"), is_profile_key("note")
        (True, True, False)
    """
    return key in PROFILE_KEYS or is_slot_key(key)


#: A sentence about someone else's things: "His flight is on…", "同学的论文截止日期推到了九月".
_THEIRS = Cued(
    re.compile(
        r"\s*(?:his|her|their|[A-Z][a-z]+'s)\s+(?:\w+\s+)?(?:flight|wedding|birthday|interview|exam|"
        r"party|appointment|project|thesis|defen[cs]e|trip|move|surgery)|\s*(?:他|她|他们|她们|同学|同事|朋友|室友|老板|领导|"
        r"[\u4e00-\u9fff]{1,3}(?:组|部门|公司))的?(?:论文|项目|婚礼|航班|工作|生日|会|面试|考试)",
        re.I,
    )
)


#: Slots of one person's own life (a relative's move is not the user's; a family's
#: wedding date or count of children is shared).
_PERSONAL = frozenset(
    {"location", "employer", "occupation", "manager", "department", WORKPLACE_KEY}
)


def about_others(said: str) -> bool:
    """Whether a user's statement is about someone else's life rather than the user's
    (:data:`_OTHERS`): a relative or friend is its subject, not an object after the user
    ("I live with my parents in Cork", "我和我妈住在一起" are the user's).

    Example:
        >>> about_others("My sister plays the cello."), about_others("我妹妹喜欢拉大提琴。")
        (True, True)
        >>> about_others("I play the cello."), about_others("I live with my parents in Cork.")
        (False, False)
        >>> about_others("Jake moved away, so my new gym partner is my neighbour Sam.")
        False
    """
    m = _OTHERS.search(said)
    if m is None:
        return False
    return not _USER_BEFORE.search(said[: m.start()])


#: A sentence whose subject is a third person and that names the user nowhere ("He moved to
#: Denver", "他从广州搬到深圳了"): where it says someone lives or works, and a change it tells,
#: are not the user's; not what he is to the user ("He's my new boss", 他是我老板) nor what
#: they did to the user ("They promoted me", 他们让我当店长了). Slots only: the read path
#: still reads "they called, the dentist is Thursday now" as the user's news.
_THIRD_PERSON = re.compile(
    r"\s*(?:(?:he|she|they)\b(?!\s*(?:is|are|was|were|'s|'re)\b)"
    r"(?!.*\b(?:i|i'm|i've|i'd|me|my|mine|we|us|our)\b)"
    # someone by name who moves, lives or works somewhere ("Anna moved to Monterey")
    r"|(?-i:(?!(?:The|This|That|These|Those|My|Our|We|I|It|Today|Yesterday|Tomorrow|Now|"
    r"Then|So|And|But|Also|Finally|Last|Next|Just|Already|Still|Soon|Once|Even|Only|Since|"
    r"After|Before|Officially|Recently|Eventually|Hence|Anyway|Well|Ok|Okay|Yes|Yeah|Guess|"
    r"Update|News)\b)(?![A-Z][a-z]+ly\b)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+"
    r"(?:(?:just|finally|recently|has|had|also|eventually)\s+)*(?:moved|moves|relocated|lives|"
    r"lived|works|worked|joined|transferred|is\s+moving|'s\s+moving)\b"
    r"(?!.*\b(?:i|i'm|i've|i'd|me|my|mine|we|us|our)\b)"
    r"|(?:他|她)们?(?![是的])(?!.*[我咱]))",
    re.I | re.S,
)


#: A Chinese sentence opening on its subject and a move or change of it ("安娜调去数据组了",
#: "十二份录音都转成文字了"), the user named nowhere in it.
_ZH_MOVE = (
    r"(?:都|也|已经|刚|下个月|上个月)?(?:调|搬|跳槽|转成|转到|换成|去了|离职|入职|退休|升职|走了)"
)
_ZH_MOVED = re.compile(r"^[^，,。；;我咱你]{1,6}?" + _ZH_MOVE)
_ZH_COUNTED = re.compile(
    r"^[一二三四五六七八九十两几\d]+[份个台张条篇只本部项套](?!多?(?:月|年|天|星期|礼拜|周|小时|钟头))"
)


#: Where a Chinese clause ends: a comma, or a space between two Chinese words.
_ZH_CLAUSE_CUT = re.compile(r"[，,；;]|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")


def _zh_moved_clause(sentence: str) -> int:
    """The length of a Chinese sentence's first clause when it tells that someone by name,
    or things counted, moved (:func:`_zh_someone_moved`), else 0."""
    if not _zh_someone_moved(sentence):
        return 0
    cut = _ZH_CLAUSE_CUT.search(sentence)
    return cut.start() if cut else len(sentence)


def _zh_someone_moved(sentence: str) -> bool:
    """Whether a Chinese sentence tells that someone by name, or things counted, moved or
    changed ("安娜调去数据组了", "十二份录音都转成文字了"): not the user's slot.

    Example:
        >>> _zh_someone_moved("安娜调去数据组了"), _zh_someone_moved("我调去数据组了")
        (True, False)
        >>> _zh_someone_moved("十二份录音都转成文字了"), _zh_someone_moved("下个月调去北京")
        (True, False)
    """
    s = _ZH_CLAUSE_CUT.split(sentence.strip(), maxsplit=1)[0]  # its first clause
    if not is_cjk_text(s) or "我" in s or "咱" in s or not _ZH_MOVED.match(s):
        return False
    if _ZH_COUNTED.match(s):
        return True
    if s[0] in "小老阿" and s[1:2] in SURNAMES and re.match(_ZH_MOVE, s[2:]):
        return True  # 小王, 老张 (the dictionary cuts them into two words)
    tags = zh_tags(s[:12])
    return len(tags) > 1 and tags[0][1] == "nr" and tags[1][1].startswith("v")


#: The user as the subject before a relative is named ("I live with", "we visited"; not
#: "I think my sister…"), a relative named after a copula (what the subject is: "my gym
#: partner is my neighbour Sam"), or a Chinese preposition that makes the relative an object
#: ("和我妈", "给我爸", "跟我老公").
_USER_BEFORE = re.compile(
    r"\b(?:I|I'm|I've|I'd|we|we're|we've)\b(?!.*\b(?:think|thought|heard|hear|guess|said|say|"
    r"says|told|tell|know|knew|hope|wish|feel|believe|suppose)\b)|"
    r"\b(?:is|are|was|were)\s+$|"  # "my new gym partner is my neighbour Sam": what it is
    r"\bme\s+(?:and|&)\s+$|"  # "Me and my wife moved to Porto": the user too
    r"(?:给|送给|和|跟|陪|带|替|帮|与)$",
    re.I,
)


#: Words of a hypothetical: what they open gives no slot value.
_UNREAL = re.compile(
    r"\b(?:if|imagine|suppose|what if|would|wish)\b|如果|假如|要是|万一|假设", re.I
)
#: A turn back to what is: "but anyway", "但是", "不过".
_TURN_BACK = re.compile(r"\b(?:but|anyway|anyhow|however)\b|但是|不过|可是|反正", re.I)


def _real_after(text: str, start: int) -> str:
    """The part of ``text`` after the first turn past ``start`` (the end of a
    hypothetical's word) that no hypothetical word follows: what is real again; ``""``
    when there is none.

    Example:
        >>> _real_after("if X hadn't called I'd have stayed, but anyway — X is great", 2)
        '— X is great'
        >>> _real_after("I'd move if they paid more", 8)
        ''
    """
    for m in _TURN_BACK.finditer(text, start):
        rest = text[m.end() :]
        if not _UNREAL.search(rest):
            rest = re.sub(r"^(?:\s*(?:anyway|anyhow|now|but)\b)+", "", rest, flags=re.I)
            return rest.strip(" ,，、") if re.search(r"\w", rest) else ""
    return ""


def slots_of(text: str) -> list[Slot]:
    """``(key, value, offset)`` of each slot ``text`` (one user message) gives a value
    to (see the module docs); questions and hypotheticals give none.

    Example:
        >>> slots_of("Tom took over as my boss after the reorg.")
        [('manager', 'Tom', 0)]
        >>> slots_of("Where do I work now?")
        []
    """
    if not text or not text.strip():
        return []
    body = text.strip()
    if re.search(r"[?？]\s*$", body) and len(re.findall(r"[.!。！；;]", body)) == 0:
        return []  # a question
    unreal = _UNREAL.search(body)
    if unreal:  # "if Moderna hadn't called back I'd have stayed, but anyway — Moderna onboarding…":
        body = _real_after(body, unreal.end())  # what follows the turn after it is real
        if not body:
            return []
    spans = sentence_spans(body)
    # the statements about the user, not questions or others' doings
    parts = [t for _, t in spans if not is_question(t) and not _THEIRS.match(t)]
    said = " ".join(parts)
    if not said.strip():
        return []
    found = zh_slots(said) if is_cjk_text(said) else en_slots(said)
    named = None if any(k == "employer" for k, _, _ in found) else workplace_of(said)
    if named:  # "米哈游这边氛围挺好", "Netflix's first all-hands": where, if it replaces one
        found.append((WORKPLACE_KEY, *named))
    # where someone else lives or works is no slot of the user's ("我妹妹住在杭州")
    theirs, at, third, mine = [], 0, False, said
    for t in parts:  # (or whose subject is a third person: "他从广州搬到深圳了")
        by_third = _THIRD_PERSON.match(t) is not None
        # someone by name who moved, in Chinese: that clause only ("老周走了，组长换成了小林")
        clause = 0 if by_third else _zh_moved_clause(t)
        third = third or by_third or clause > 0
        if by_third or clause:
            end = at + (clause or len(t))
            theirs.append((at, end))
            mine = mine[:at] + " " * (end - at) + mine[end:]  # blanked: offsets hold
        elif about_others(t):  # a Chinese sentence, clause by clause: "我老公…"
            theirs += [(at + a, at + b) for a, b in others_clauses(t, about_others)]
        at += len(t) + 1
    found = [f for f in found if f[0] not in _PERSONAL or not any(a <= f[2] < b for a, b in theirs)]
    found = resolved(said, found)  # "现在我每周一向他汇报": whom 他 stands for, or nothing
    # a value the statement says ended is not its new value ("my last day at Shopify")
    found = [f for f in found if not ended_value(said, f[1])]
    # someone else's change is none of the user's ("my sister moved…", "他搬到深圳了"); the
    # user's own sentences beside it still tell one ("Eli moved away. I'm with Mariana now")
    if third and mine.strip():
        said = mine
    others = (third and not mine.strip()) or _OTHERS.search(said)
    if not found and not others:  # a change said in other words, slot unnamed
        found = changes_of(said)
    if not found and not others and _ARRIVAL.search(said):
        found = _tentative(said)
    return found


#: Words that say something is new or current: "finally came through", "first day", "新…".
_ARRIVAL = Cued(
    re.compile(
        r"\b(?:new|now|first|finally|moved|start(?:ed|ing|s)?|since|after|these days|here|"
        r"officially|just|came through|arrived|settled|got the|landed|done)\b|"
        r"新|现在|第一|终于|之后|以后|这边|安顿|入职|搬|来了|到了|正式|刚",
        re.I,
    )
)
_NAME_EN = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z&'-]+(?:\s+[A-Z][a-zA-Z&'-]+)*")
_NOT_NAME = re.compile(
    rf"(?:I|I'm|I've|I'd|I'll|My|Our|The|We|It|This|That|OK|Ok|Lol|LOL|Mr|Mrs|Ms|Dr|"
    rf"{MONTH}|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$",
    re.I,
)


def _tentative(said: str) -> list[Slot]:
    """Names a statement that says something is new holds ("My Amazon badge finally came
    through", "到了厦门才发现…"), keyed ``maybe place`` or ``maybe name``: the long-term
    facts keep one only where it replaces the value of the user's slot of that kind."""
    out: list[Slot] = []
    # a name in a trip, a plan or a past story is no new value ("下个月搬去成都", "landed in
    # Tokyo for the conference"); one after a home verb is ("lived in Tokyo since the conference")
    if is_cjk_text(said):
        for at, name, kind in find_entities(said):
            if (
                kind in ("place", "org", "other")
                and len(name) >= 2
                and not NO_PLACE.search(name)
                and not not_lived_at(said, at)
            ):
                out.append((f"{TENTATIVE}{'place' if kind == 'place' else 'name'}", name, at))
    else:
        for m in _NAME_EN.finditer(said):
            words = [w for w in m[0].split() if not _NOT_NAME.match(w)]
            if words and not not_lived_at(said, m.start()):
                out.append((f"{TENTATIVE}name", " ".join(words), m.start()))
    numbers = _NUM_ZH_RX if is_cjk_text(said) else _NUM_EN_RX
    counted = kind_of(said, COUNTED_RX)
    num = numbers.search(said)
    if counted and num:  # "we're a family of five now": a count of what the sentence names
        out.append((f"{TENTATIVE}number of {counted}", num[0], num.start()))
    date = (_DATE_ZH_RX if is_cjk_text(said) else _DATE_EN_RX).search(said)
    event = kind_of(said, EVENTS_RX)
    if date and event:  # "the wedding … September 20": a date of what the sentence names
        out.append((f"{TENTATIVE}date of {event}", date[0], date.start()))
    return out[:4]


_NUM_EN_RX = re.compile(
    rf"\b{NUM_EN}\b(?!\s*(?:am|pm|%|percent|times|o'clock|minutes|hours))", re.I
)
_NUM_ZH_RX = re.compile(rf"(?:第|老)?{NUM_ZH}[只个盆本辆条位名棵口人]")
_DATE_EN_RX = re.compile(rf"\b{DATE_EN}\b", re.I)
_DATE_ZH_RX = re.compile(DATE_ZH)


def names_date(text: str) -> bool:
    """Whether ``text`` names a date or a day ("下周一早上", "March 3", "next Friday").

    Example:
        >>> names_date("航班改签到下周一早上。"), names_date("The wedding is on June 12.")
        (True, True)
        >>> names_date("我的航班很早。")
        False
    """
    return bool((_DATE_ZH_RX if is_cjk_text(text) else _DATE_EN_RX).search(text))


def event_named(text: str) -> str | None:
    """The kind of event ``text`` names ("wedding", "flight", "答辩"...), if any: the key a
    date of it has (``date of <kind>``).

    Example:
        >>> event_named("婚礼改到十月了"), event_named("My flight got moved."), event_named("hi")
        ('wedding', 'flight', None)
    """
    return kind_of(text, EVENTS_RX)


def thing_counted(text: str) -> str | None:
    """The kind of thing ``text`` counts ("children", "cats"...), if any: the key a number
    of it has (``number of <kind>``).

    Example:
        >>> thing_counted("我有几个孩子？"), thing_counted("How many cats do I have?")
        ('children', 'cats')
    """
    return kind_of(text, COUNTED_RX)


def is_tentative(key: str) -> bool:
    """Whether a fact key names a tentative value (see :func:`slots_of`).

    Example:
        >>> is_tentative("maybe name"), is_tentative("employer")
        (True, False)
    """
    return key.strip().lower().replace("_", " ").startswith(TENTATIVE)


#: A statement about someone else's life: "My brother moved to Denver", "我朋友搬到成都了".
_OTHERS = Cued(
    re.compile(
        r"\b(?:my|our)\s+(?:brother|sister|friend|mom|mum|dad|mother|father|son|daughter|cousin|"
        r"colleague|coworker|roommate|neighbou?r|wife|husband|parents|kids?|uncle|aunt|friend's)\s+"
        r"(?!is\b|'s\b|name|and I\b|& I\b|and me\b)[a-z]+|"
        r"(?:我|我的)(?:朋友|同事|哥哥?|姐姐?|弟弟?|妹妹?|爸爸?|妈妈?|室友|邻居|表[哥姐弟妹]|堂[哥姐弟妹]|"
        r"闺蜜|发小|同学|舍友|哥们|"
        # not the user beside them ("我爸妈和我搬到了深圳"), but one telling the user of
        # their own life ("我老婆跟我说她搬到深圳了")
        r"老公|老婆|儿子|女儿|父母)"
        r"(?![爸妈哥姐弟妹]{0,2}(?:是|(?:和|跟)我(?!说|讲|聊)|陪我|带我|和咱))",
        re.I,
    )
)
