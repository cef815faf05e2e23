"""Where the user works, said by a bare organisation name, and whose clause is whose.

A new job is often told by what it is like, the employer named bare: "Netflix's first
all-hands was wild", "my first payslip from Deloitte", "米哈游这边氛围挺二次元的，工位上全是手办",
"在快手这边加班少一点", "我已经在小米干了一个月了". No verb of joining names it, so the slot
reader (:mod:`~langgraph_memory.extraction.slots`) finds no employer. :func:`workplace_of`
reads the organisation named in such a frame: before a thing only a workplace has (an
all-hands, an onboarding, a badge, 食堂, 工位), after a time at it (在X干了一个月, X第一个月)
or as "here" (X这边) in a message that speaks of work. Its value is *tentative*
(``maybe employer``): the long-term facts keep it only where it replaces the value the
user's employer slot holds ("Apple's onboarding flow is slick" names no job of the user's).

:func:`others_clauses` splits a Chinese sentence about someone else into the clauses that
are theirs: "我老公还在华为，我已经在小米干了一个月了" tells the husband's job, then the
user's; a clause with no subject of its own goes with the one before it.

Example:
    >>> workplace_of("Netflix's first all-hands was wild, still getting used to the new badge")
    ('Netflix', 0)
    >>> workplace_of("米哈游这边氛围挺二次元的哈哈哈，工位上全是手办")
    ('米哈游', 0)
    >>> workplace_of("Apple's new phone is nice") is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.clauses import ZH_GAP

__all__ = ["workplace_of", "others_clauses", "WORKPLACE_KEY"]

#: The key of an employer named bare (tentative: see the module docs).
WORKPLACE_KEY = "maybe employer"

_CAP = r"(?P<v>[A-Z][\w&.'-]*(?:\s+(?:[A-Z][\w&.'-]*|&))*)"
#: What only a workplace has, for the people who work there.
_EN_THINGS = (
    r"(?:all-hands|all hands|onboarding|orientation|standup|stand-up|town hall|offsite|"
    r"badge|payslip|pay slip|paycheck|paystub|pay stub|new-hire|new hire|"
    r"HR portal|intranet|work laptop|swag|offer|offer letter|contract)"
)
_EN = [
    # "Netflix's first all-hands was wild", "Moderna onboarding is a LOT of videos"
    re.compile(rf"{_CAP}(?:'s)?\s+(?:(?i:first|new|weekly|first ever)\s+)?(?i:{_EN_THINGS})\b"),
    # "my first payslip from Deloitte", "first standup at Revolut today"
    re.compile(rf"\b(?i:{_EN_THINGS})s?\s+(?:at|from|with)\s+{_CAP}"),
    # "St. Brigid's Clinic hired me", "Globex took me on": the one hiring the user
    re.compile(rf"{_CAP}\s+(?i:hired|took on|onboarded|offered)\s+(?i:me)\b"),
]
#: Words of work: a message naming a place "here" (X这边) speaks of a workplace with one.
_ZH_WORK = re.compile(
    r"加班|上班|下班|工位|食堂|同事|领导|新人|入职|试用期|转正|团建|工资|薪水|年终奖|福利|开会|"
    r"打卡|工牌|项目组|组里|老板|氛围|录用|录取|聘用|报到|报道|offer|Offer"
)
_ZH_NAME = r"(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)"
_ZH = [
    # "在小米干了一个月了", "在快手这边加班少一点": a time at it, a place of work
    re.compile(rf"在{_ZH_NAME}(?:这边|那边)?(?:也|都|又|已经|还|一直)?干(?:了|活|得)"),
    # "米哈游这边氛围挺好", "在快手这边…": here, in a message of work
    re.compile(rf"(?:在|^|[，,。！!；;\s]){_ZH_NAME}这边"),
    # "米哈游第一个月，福利是真的好": the first weeks at it, in a message of work
    re.compile(rf"(?:在|^|[，,。！!；;\s]){_ZH_NAME}(?:的)?(?:第一|头)(?:天|周|个月|年|份工资)"),
    # "石榴科技录用我了", "下周一去橙光工作室报到", "拿到了字节的offer": hired there
    re.compile(rf"(?:^|[，,。！!；;\s]){_ZH_NAME}(?:录用|录取|聘用)了?我"),
    re.compile(rf"去{_ZH_NAME}报[到道]"),
    re.compile(rf"{_ZH_NAME}的(?:offer|Offer|录用通知|工牌)"),
]
#: What no organisation is named: a person, a place word, a time ("这边" of "我们这边").
_ZH_NOT_ORG = re.compile(
    r"^(?:我|你|他|她|它|咱|这|那|哪|家|公司|单位|新公司|老家|国内|国外|外地|上海|北京|今天|今年|"
    r"现在|目前|最近|刚|已经|一直)|[我你他她们个的了在是]"
)


def workplace_of(said: str) -> tuple[str, int] | None:
    """The organisation a user's statement names as where they work by a frame of work
    (see the module docs), with its offset; None when it names none.

    Example:
        >>> workplace_of("my first payslip from Deloitte came through")
        ('Deloitte', 22)
        >>> workplace_of("我已经在小米干了一个月了")
        ('小米', 4)
        >>> workplace_of("我们这边下雨了") is None
        True
    """
    if is_cjk_text(said):
        for k, rx in enumerate(_ZH):
            if k and not _ZH_WORK.search(said):
                break  # "X这边", "X第一个月" speak of a workplace only in a message of work
            for m in rx.finditer(said):
                if not _ZH_NOT_ORG.search(m["v"]):
                    return m["v"], m.start("v")
        return None
    for k, rx in enumerate(_EN):
        for m in rx.finditer(said):
            # "Netflix's first all-hands": the owner; "orientation at Guy's": a name
            name = re.sub(r"'s$", "", m["v"].strip()) if k == 0 else m["v"].strip()
            if name and name.split()[0] not in _NOT_NAMES:
                return name, m.start("v")
    return None


_NOT_NAMES = frozenset(
    "I I'm My Our The A An This That My Their His Her Your Its New First Last Today "
    "Yesterday Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
)

#: A clause's own subject: the user, or a third person.
_ZH_USER = re.compile(
    r"^\s*(?:[^\u4e00-\u9fff]{0,3})?(?:但是?|不过|可是?|而|现在|那|所以)?(?:我|咱)"
)
_ZH_THIRD = re.compile(r"^\s*(?:但是?|不过|可是?|而)?(?:他|她)")
_ZH_CLAUSE = re.compile(r"[^，,]+[，,]?")
#: Where an English sentence about someone else turns to the user as the subject of a
#: clause of its own ("My brother took my old flat in Porto, which is funny because I've
#: been in Lisbon for weeks", "my sister did Iceland, but we booked Japan").
_EN_TURN = re.compile(
    r"(?:[,;]\s*|\s+)(?:(?:and|but|so|because|since|though|although|while|whereas|yet|"
    r"which is \w+ because|anyway|meanwhile)\s+)+(?=(?:I|I'm|I've|I'd|I'll|we|we're|we've)\b)",
    re.I,
)


def _zh_clauses(sentence: str) -> list[tuple[int, int]]:
    """The clauses of a Chinese sentence, as spans: set off by a comma, or by a space
    between Chinese words (:data:`~langgraph_memory.extraction.clauses.ZH_GAP`, a chat
    habit: "我表妹要去长沙读研 可我都在厦门待了快两个月了" is two)."""
    spans = []
    for m in _ZH_CLAUSE.finditer(sentence):
        at = m.start()
        for gap in ZH_GAP.finditer(m[0]):
            spans.append((at, m.start() + gap.end()))
            at = m.start() + gap.end()
        spans.append((at, m.end()))
    return spans


def others_clauses(sentence: str, about_others: Callable[[str], bool]) -> list[tuple[int, int]]:
    """The spans (start, end) of a sentence about someone else (``about_others`` of it is
    true) that are theirs: of an English one, all of it up to a clause turning to the
    user as its subject (:data:`_EN_TURN`: "…, because I've been in Lisbon for weeks"); of
    a Chinese one, each clause (set off by a comma or a space: :func:`_zh_clauses`)
    ``about_others`` says is another's, each whose subject is 他/她, and each with no
    subject of its own after one of theirs ("我老公还在华为，我已经在小米干了一个月了": the
    first clause only; "我妹妹搬到杭州了，住在西湖边": both).

    Example:
        >>> from langgraph_memory.extraction.slots import about_others
        >>> others_clauses("我老公还在华为，我已经在小米干了", about_others)
        [(0, 8)]
        >>> others_clauses("我表妹要去长沙读研 让我帮她找房 可我都在厦门待了两个月了", about_others)
        [(0, 10), (10, 17)]
        >>> others_clauses("My brother took my old flat, but I'm in Lisbon now", about_others)
        [(0, 27)]
    """
    if not is_cjk_text(sentence):
        turn = _EN_TURN.search(sentence)
        return [(0, turn.start() if turn else len(sentence))]
    out: list[tuple[int, int]] = []
    theirs = False
    for a, b in _zh_clauses(sentence):
        clause = sentence[a:b]
        if about_others(clause) or _ZH_THIRD.match(clause):
            theirs = True
        elif _ZH_USER.match(clause):
            theirs = False
        if theirs:
            out.append((a, b))
    return out
