"""Someone the user named before is gone, and someone else has their place.

People tell a new manager, teacher, roommate or running partner by the end of the old one
rather than by naming the relation again: "Gwen retired on friday, we had cake. Dario
took over the floor today", "Cleo's pregnant so she's off running for a while. Noor from
my office joined me on sunday", "张店长被调到万达那家店去了 现在是刘姐管我们", "婷婷搬走了
现在跟我合租的是薇薇". The new statement shares no word of the relation with the old one
("Gwen, my supervisor, asked me to…", "我室友婷婷老是半夜打电话"), but it names the old
value itself, as the subject of an ending (retired, left, moved, is off, on leave, 离职,
退休, 搬走, 调去, 回老家, 分了…).

:func:`handover` reads that event: the user's latest statement in which a person the user
named in an earlier statement ends, and another person, new to the conversation, is
named after them, is the latest value of whatever that person was to the user; the
earlier statements naming them are earlier ones. Names are read by their form (a
capitalised word, a title and a name, a Chinese name such as 小美, 老吴, 阿杰, 刘姐,
何主任), and the one that ends must be said, character for character, in an earlier
statement of the user's: what ties the two statements is the old value, not a list of
relations.

Example:
    >>> ended_names("Gwen retired on friday, we had cake. Dario took over the floor today")
    ['Gwen']
    >>> ended_names("张店长被调到万达那家店去了 现在是刘姐管我们")
    ['张店长']
    >>> new_names("Gwen retired on friday. Dario took over the floor today", ["Gwen"])
    ['Dario']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langgraph_memory.core.records import Message
from langgraph_memory.extraction.entities import SURNAMES, zh_tags
from langgraph_memory.read.leading import lead_with
from langgraph_memory.read.timeline import latest_statements

__all__ = ["ended_names", "new_names", "handover", "handover_lead"]

_SUR = "".join(sorted(SURNAMES))
#: A person named in Latin letters: a capitalised word, after a title if any ("Dr. Moreau").
_LATIN = re.compile(
    r"(?<![A-Za-z.'])(?:(?:Dr|Prof|Professor|Mr|Mrs|Ms|Coach)\.?\s+)?[A-Z][a-z][a-zA-Z-]*(?![A-Za-z])"
)
#: A capitalised word that names no one: sentence openers, days, months, pronouns.
_NOT_NAME = re.compile(
    r"(?:I|I'm|I've|I'd|I'll|My|Our|The|We|It|This|That|He|She|They|His|Her|So|And|But|Also|"
    r"Just|OK|Ok|Lol|Haha|Anyway|Well|Yeah|Finally|Today|Yesterday|Monday|Tuesday|Wednesday|"
    r"Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|"
    r"September|October|November|December|RIP|After|Since|When|Now|Then|Thank|Thanks|Good|"
    r"Problem|Update|Big|Ugh|Oh|Hey|Hi|Hello|Sorry|Guess|Took|Got|Had|Went)$"
)
#: A person named in Chinese: by a title (何主任, 刘医生, 方老师, 张店长, 刘姐), by 小/老/阿 and
#: a character (小美, 老吴, 阿杰), or by a doubled character (婷婷, 薇薇); Latin letters too.
_ZH = re.compile(
    rf"[{_SUR}](?:医生|大夫|老师|教授|教练|师傅|店长|科长|处长|主任|经理|主管|组长|总监|姐|哥|总)|"
    rf"(?:小|老|阿)[\u4e00-\u9fff](?![了的是去说])|大[{_SUR}]|([\u4e00-\u9fff])\1|[A-Z][a-zA-Z]+|"
    # a name given outright ("一个程序员叫浩子", "取名叫可乐")
    r"(?<=叫)(?!什么|啥|做|作)[\u4e00-\u9fff]{2}(?=[，,。！!；;\s]|$)"
)
#: A doubled character that names no one: an adverb, a word of kin, a laugh ("天天半夜敲键盘").
_NOT_DOUBLED = re.compile(
    r"^(?:天天|常常|刚刚|慢慢|好好|渐渐|偷偷|悄悄|往往|明明|人人|个个|年年|时时|处处|默默|轻轻|"
    r"早早|久久|统统|仅仅|稍稍|纷纷|匆匆|连连|频频|哈哈|呵呵|嘿嘿|嘻嘻|谢谢|妈妈|爸爸|哥哥|姐姐|"
    r"弟弟|妹妹|爷爷|奶奶|宝宝|星星|乖乖|快快|看看|试试|想想|聊聊|走走|等等|样样|事事|家家)$"
)
#: What follows a person who ends as the user's: leaving, retiring, moving away, a break
#: (parental leave, pregnant), a parting, a death ("passed away", 去喵星); said of the
#: person, right after their name (a few words may come between in English: "Luis won't
#: get to taste it again, he left").
_ENDS_EN = re.compile(
    r"^(?:'s|\s+(?:is|was|has|had|got|just|finally|already|also))*\s*"
    r"(?:retired|left|quit|resigned|moved|transferred|transfered|relocated|went back|"
    r"passed away|died|split|broke up|is off|'s off|off|on (?:\w+ )?leave|pregnant|"
    r"got (?:moved|transferred|transfered|reassigned|promoted|too busy)|too busy|"
    r"and I (?:split|broke up))\b",
    re.I,
)
_ENDS_ZH = re.compile(
    r"^(?:被|也|已经|早就|刚|自己|最近)?"
    r"(?:离职|辞职|退休|退二线|走了|搬走|调去|调到|调走|回老家|出国|出去|去了?外地|去世|去喵星|休(?:产)?假|"
    r"分了|分手|不干了|不带了|转走)"
)
#: The ending said of the person by a pronoun in the next clause ("Luis won't taste it
#: again, he left to open his own place").
_ENDS_BY_PRONOUN = re.compile(
    r"^[^.!?]{0,60}?[,;]\s*(?:and |but |so )?(?:he|she)(?:'s|\s+(?:just|finally|already|has|had))*"
    r"\s+(?:retired|left|quit|resigned|moved (?:away|out|back)|transferred|relocated|"
    r"passed away|died)\b",
    re.I,
)
#: Who ends, said as the subject of a Chinese clause (of any form of name: "晓峰搬走了",
#: "大刘去外地了"); what ties them to the user is their name in an earlier message.
_ZH_SUBJECT_ENDS = re.compile(
    r"(?:^|(?<=[，,。！!；;\s]))(?P<n>[\u4e00-\u9fff]{2,3}?)(?=" + _ENDS_ZH.pattern[1:] + ")"
)
_NOT_SUBJECT = re.compile(r"[我你他她它们这那哪谁自己家人]|^[跟和与给对被把在]")
#: A parting said with the person after it ("跟阿哲早就分了", "we lost Biscuit", "RIP Nugget").
_PARTED = re.compile(
    r"(?:跟|和)(?P<zh>\S{2,4}?)(?:早就|已经)?分(?:了|手)|\b(?:lost|RIP)\s+(?P<en>[A-Z]\w+)"
)


def _names(said: str) -> list[tuple[int, str]]:
    """The people named in ``said`` by form, with their offsets."""
    out = []
    for m in _LATIN.finditer(said):
        if not _NOT_NAME.match(m[0]):
            out.append((m.start(), m[0]))
    for m in _ZH.finditer(said):
        if not m[0].isascii() and not _NOT_DOUBLED.match(m[0]):
            out.append((m.start(), m[0]))
    return sorted(out)


#: What a Chinese subject that is a person looks like beside a name: a form of address
#: (小刘, 老张, 大刘, 阿哲) or a role (王老师, 张店长, 李姐).
_ZH_PERSON_FORM = re.compile(
    r"^[小老大阿][\u4e00-\u9fff]|(?:老师|经理|主任|师傅|店长|医生|教练|总|姐|哥|叔|姨|阿姨)$"
)


def _a_person(word: str) -> bool:
    """Whether a Chinese clause subject is a person ("晓峰", "大刘", "王老师"), not a thing
    ("工资", "公司", "项目组").

    Example:
        >>> _a_person("晓峰"), _a_person("大刘"), _a_person("工资"), _a_person("公司")
        (True, True, False, False)
    """
    if _ZH_PERSON_FORM.search(word):
        return True
    tags = zh_tags(word)  # a name, or a word the dictionary does not know (晓/峰): a name
    return (len(tags) == 1 and tags[0][1] == "nr") or all(len(w) == 1 for w, _ in tags)


def ended_names(said: str) -> list[str]:
    """The people ``said`` tells to be gone from where they were (see the module docs)."""
    out = []
    for at, name in _names(said):
        rest = said[at + len(name) :]
        if _ENDS_EN.search(rest) or _ENDS_ZH.search(rest) or _ENDS_BY_PRONOUN.search(rest):
            out.append(name)
    out += [
        m["n"]
        for m in _ZH_SUBJECT_ENDS.finditer(said)
        if not _NOT_SUBJECT.search(m["n"]) and _a_person(m["n"])
    ]
    out += [m["zh"] or m["en"] for m in _PARTED.finditer(said)]
    return list(dict.fromkeys(out))


def new_names(said: str, before: Sequence[str]) -> list[str]:
    """The people ``said`` names after the first of ``before`` it names, who are none of
    ``before``."""
    starts = [said.find(b) for b in before if b in said]
    if not starts:
        return []
    first = min(starts)
    return [
        name
        for at, name in _names(said)
        if at > first and not any(name in b or b in name for b in before)
    ]


def handover(msgs: Sequence[Message]) -> tuple[int, tuple[int, ...]] | None:
    """The latest of the user's statements in ``msgs`` telling someone named in an earlier
    message of the user's gone and naming someone new after them, and those earlier
    statements (indices into ``msgs``), if any.

    Example:
        >>> from datetime import datetime, timedelta, timezone
        >>> t = datetime(2024, 3, 1, tzinfo=timezone.utc)
        >>> said = ["Gwen, my supervisor, asked me to run the safety training",
        ...         "it's raining again",
        ...         "Gwen retired on friday, we had cake. Dario took over the floor today"]
        >>> m = [Message(f"m{i}", "u", "s", "user", s, t + timedelta(days=i), seq=i)
        ...      for i, s in enumerate(said)]
        >>> handover(m)
        (2, (0,))
    """
    for at, earlier in latest_statements(msgs):
        said = msgs[at].content
        # (an earlier message naming them may be a question: "Cleo and I run on Sundays,
        # what should we eat?" tells who Cleo is all the same)
        before = earlier[::-1]  # in the order they were said
        gone = [g for g in ended_names(said) if any(g in msgs[j].content for j in before)]
        if gone and new_names(said, gone):
            return at, tuple(j for j in before if any(g in msgs[j].content for g in gone))
    return None


def handover_lead(said: str, older: Sequence[str]) -> str:
    """The latest statement of a handover ``said`` led by the clause naming the new person
    (the one who went follows, said to be about the earlier one), for the ``older``
    messages naming who went.

    Example:
        >>> handover_lead("Gwen retired on friday, we had cake. Dario took over today",
        ...               ["Gwen, my supervisor, asked me to run the training"])
        'Dario took over today (on the earlier one: Gwen retired on friday, we had cake)'
    """
    gone = [g for g in ended_names(said) if any(g in o for o in older)]
    new = new_names(said, gone)
    return lead_with(said, new[0]) if new else said
