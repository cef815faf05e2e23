"""The words and tables both slot readers share: numbers, months and dates, the kinds of
thing a count counts and of event a date belongs to, what names no one, and where a
value's clause ends.

The English reader (:mod:`.slots_en`) and the Chinese one (:mod:`.slots_zh`) read a message
with these; :func:`.slots.slots_of` picks the reader by the message's language.

Example:
    >>> kind_of("Two kittens joined us", COUNTED_RX)
    'cats'
    >>> event_of("the appointment", "Dentist called, the appointment is now March 10")
    'dentist'
    >>> within_clause("Boston and work at Google"), names_someone("kevin")
    ('Boston', True)
"""

from __future__ import annotations

import re
from collections.abc import Callable

from langgraph_memory.extraction.cues import Cued, possible

__all__ = [
    "Slot",
    "Keep",
    "TENTATIVE",
    "NUM_EN",
    "NUM_ZH",
    "NUM_BIG",
    "MONTH",
    "DATE_EN",
    "DATE_ZH",
    "COUNTED_RX",
    "EVENTS_RX",
    "NOT_NAMED",
    "ZH_NOT_NAMED_WORDS",
    "ZH_NOT_NAMED",
    "ZH_NEXT",
    "compiled",
    "kind_of",
    "event_of",
    "first_value",
    "last_value",
    "names_someone",
    "within_clause",
]

Slot = tuple[str, str, int]  # (key, value, offset in the text)

#: The key of a tentative value: kept only when it changes a value the user's slot of the
#: same kind holds (see :func:`.slots.is_tentative`).
TENTATIVE = "maybe "

# -- shared lexicons ----------------------------------------------------------------------------
NUM_EN = (
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|a dozen|dozen)"
)
NUM_ZH = r"(?:[0-9]+|[一二两三四五六七八九十百]+)"
NUM_BIG = r"(?:[0-9]+(?:\.[0-9]+)?|[一二两三四五六七八九十百千]+)[万千wWkK]?"
#: What is counted, by its kind: the key of a count ("number of children").
_COUNTED = [
    (
        r"kids?|child(?:ren)?|bab(?:y|ies)|sons?|daughters?|孩子|小孩|娃|宝宝|儿子|女儿|"
        r"老[二三四五]|[二三四]胎|[二三]宝",
        "children",
    ),
    (r"cats?|kittens?|猫咪?", "cats"),
    (r"dogs?|pupp(?:y|ies)|狗狗?", "dogs"),
    (r"plants?|ferns?|succulents?|flowers?|cacti|cactus|pots?|花|多肉|植物|绿植|盆栽|盆", "plants"),
    (r"books?|novels?|titles?|书|\d本$", "books"),
    (r"cars?|车", "cars"),
    (r"bikes?|bicycles?|自行车", "bikes"),
    (
        r"employees|people on (?:my|the) team|reports|direct reports|下属|员工|组员",
        "people on the team",
    ),
    (r"languages?|语言", "languages"),
    (r"followers|subscribers|粉丝|关注者|订阅", "followers"),
    (r"marathons?|马拉松", "marathons"),
]
#: Events a date belongs to, by kind (the key of a date: "date of wedding").
_EVENTS = [
    (r"wedding|婚礼|结婚|办酒", "wedding"),
    (r"flight|fly(?:ing)? out|fly|plane|航班|飞机|机票|起飞", "flight"),
    (r"defen[cs]e|viva|答辩", "答辩"),
    (r"dentist|dental|teeth|牙医|看牙|口腔|(?<![班西])牙(?!买加)", "dentist"),  # (not 西班牙)
    (r"doctor|check-?up|appointment|医生|体检|复查|看病|门诊", "appointment"),
    (r"interview|面试", "interview"),
    (r"exam|test|考试|驾考|科目[一二三四]", "exam"),
    (r"launch|release|ship date|deadline|上线|发布|截止|交付", "launch"),
    (r"meeting|会议|开会|周会|例会", "meeting"),
    (r"party|聚会|派对|生日会", "party"),
    (r"move|moving|搬家|搬(?!砖)|租到|住到|退租|\blease\b", "move"),
    (r"trip|vacation|holiday|旅行|旅游|度假|出差", "trip"),
    (r"surgery|operation|手术", "surgery"),
    (r"concert|show|演唱会|演出", "concert"),
    (r"birthday|生日", "birthday"),
]
MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
DATE_EN = (
    rf"(?:{MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}|"
    rf"the\s+\d{{1,2}}(?:st|nd|rd|th)(?:\s+of\s+{MONTH})?|(?:next\s+|this\s+)?(?:monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)(?:\s+(?:morning|afternoon|evening|at\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?))?|"
    rf"\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|\d{{4}}-\d{{2}}-\d{{2}}|next (?:week|month|year)|"
    rf"(?:early|mid|late|end of)\s+{MONTH})"
)
DATE_ZH = (
    r"(?:(?:明年|今年|后年|下个?月|这个?月|本月)?(?:[0-9一二三四五六七八九十]{1,2}月"
    r"[0-9一二三四五六七八九十]{1,3}[号日]?|[0-9一二三四五六七八九十]{1,2}号|"
    r"[0-9一二三四五六七八九十]{1,2}月(?:底|初|中|份)?)|"
    r"(?:下下|下|这|本)?(?:周|星期|礼拜)[一二三四五六日天](?:[上下]午|早上|"
    r"晚上)?(?:[0-9一二三四五六七八九十]{1,2}点(?:半)?)?|明天|后天|"
    r"(?:下下|下)个?月|"
    r"(?:下下|下)周|月底|月初|年底|明年|下半年|春节后|国庆后)"
    # a date ends with its suffix or digits: never "6月15" of "6月15号"
    r"(?![号日0-9一二三四五六七八九十])"
)


def compiled(patterns: list[str], flags: int = 0) -> list[Cued]:
    """The patterns compiled once (each message tries each of them), each behind the gate
    of its own cues (a sentence with none of its words skips it: :mod:`.cues`)."""
    return [Cued(re.compile(p, flags)) for p in patterns]


def _table(table: list[tuple[str, str]]) -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(rf"(?:{pattern})", re.I), kind) for pattern, kind in table]


COUNTED_RX = _table(_COUNTED)
EVENTS_RX = _table(_EVENTS)


def kind_of(word: str, table: list[tuple[re.Pattern[str], str]]) -> str | None:
    """The kind of the first entry of ``table`` found in ``word`` (:data:`COUNTED_RX`,
    :data:`EVENTS_RX`), if any."""
    for pattern, kind in table:
        if pattern.search(word):
            return kind
    return None


#: Events named only by their kind ("the appointment"): the sentence may say which.
_GENERIC_EVENTS = frozenset({"appointment", "meeting"})


def event_of(named: str, text: str) -> str | None:
    """The event a date belongs to: the one ``named`` beside the date, unless that is a
    mere "appointment" and the sentence says which ("Dentist called, the appointment is
    now…": the dentist), so one event keeps one key however it is said."""
    event = kind_of(named, EVENTS_RX)
    in_text = kind_of(text, EVENTS_RX)
    if event is None or (event in _GENERIC_EVENTS and in_text is not None):
        return in_text
    return event


#: What a possessive copula says of a boss or a company that names no one: "my boss is
#: annoying", "my company is great".
NOT_NAMED = re.compile(
    r"(?:a|an|the|so|very|really|pretty|super|quite|too|not|never|always|kind|nice|great|good|"
    r"bad|cool|awesome|amazing|terrible|awful|horrible|strict|chill|lazy|crazy|busy|away|out|"
    r"off|sick|late|new|mean|fine|ok|okay|fair|smart|young|old|tough|nuts|hiring|remote|hybrid|"
    r"small|big|huge|tiny|here|there|back|gone|leaving|great|best|worst|the best|the worst|"
    r"[\w'-]+(?:ing|ed|'d|ful|ous|ive|able|ible|ic|less|ish))[.!]*",
    re.I,
)
#: How a description, not a name, opens: "so strict", "a nightmare", "kind of a jerk".
_NOT_NAMED_LEAD = re.compile(
    r"(?:so|very|really|pretty|super|quite|too|not|never|always|kind of|sort of|a bit|a|an|such|"
    r"the best|the worst)\s",
    re.I,
)
#: What a possessive copula of a company or a boss says that names none: "我们公司是做电商的",
#: "我的领导是个工作狂", "我们公司是一家创业公司".
ZH_NOT_NAMED_WORDS = (
    r"(?:个|一个|一位|一家|一名|家|做|搞|卖|干|在|很|挺|太|非常|比较|特别|超|真|好|不|没|有|最|"
    r"那种|这种|外企|国企|私企|大厂|小厂|创业公司|上市公司)"
)
ZH_NOT_NAMED = re.compile("^" + ZH_NOT_NAMED_WORDS)


Keep = Callable[["re.Match[str]"], bool]


def first_value(
    text: str, patterns: list[Cued], keep: Keep | None = None
) -> tuple[str, int] | None:
    """The ``v`` group and its offset of the first match of ``patterns`` in ``text`` that
    ``keep`` accepts (by pattern, then by place)."""
    for pattern in possible(patterns, text):
        for m in pattern.finditer(text):
            if keep is None or keep(m):
                return m["v"], m.start("v")
            # a match ``keep`` turns down: a later one of the same pattern may hold
    return None


def last_value(text: str, patterns: list[Cued], keep: Keep | None = None) -> tuple[str, int] | None:
    """The ``v`` group and its offset of the match of ``patterns`` latest in ``text`` that
    ``keep`` accepts."""
    best: tuple[str, int] | None = None
    for pattern in possible(patterns, text):
        for m in pattern.finditer(text):
            if (best is None or m.start("v") > best[1]) and (keep is None or keep(m)):
                best = (m["v"], m.start("v"))
    return best


#: Words that start a new clause after a value: "住在北京并且在字节上班".
ZH_NEXT = r"并且|而且|然后|但是|不过|所以|因为|同时|可是"
#: Where a value's clause ends: a conjunction that starts a new verb phrase ("Boston and
#: work at Google", "Stripe but I hate it", "Berlin, which…"; "并且在字节上班", "，然后…"). A
#: value reads up to there, so a slot never holds the next clause.
_CLAUSE_END = re.compile(
    r"\s*[,;]?\s*\b(?i:and|&|or|so|plus|then)\s+(?:(?i:also|then|now|still|just|currently|"
    r"really|even)\s+)*(?:I|I'm|I've|I'd|I'll|we|we're|he|she|they|it|you|my|our|(?:work|works|"
    r"working|worked|live|lives|living|lived|love|loves|like|likes|enjoy|enjoys|hate|"
    r"have|has|had|am|is|are|was|were|do|does|did|go|goes|going|went|move|moved|moving|start|"
    r"started|starting|study|studies|studying|teach|teaches|teaching|commute|commuting|drive|"
    r"drives|run|runs|play|plays|get|gets|got|spend|spends|spent|want|wants|need|needs|miss|"
    r"take|takes|took|report|reports|manage|manages|head|heading|plan|planning|hope|hoping)\b)"
    r"|\s*[,;]?\s*\b(?i:but|which|who|because|although|though|while|whereas|where|yet)\b"
    # a clause with a subject of its own: "Boston and Cambridge is nearby"
    r"|\s*[,;]?\s*\b(?i:and)\s+(?:the\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?\s+(?:is|are|was|were|"
    r"has|have|will|would|can|could|isn't|aren't|wasn't)\b"
    rf"|\s*[，,]?\s*(?:{ZH_NEXT}|并在|并去)"
)


def names_someone(value: str) -> bool:
    """Whether ``value``, what a possessive copula says a boss, a company or a team is,
    names one ("kevin", "Acme Corp", "字节跳动"), not what it is like ("annoying", "great",
    "是个工作狂", "做电商的").

    Example:
        >>> names_someone("kevin"), names_someone("annoying"), names_someone("个工作狂")
        (True, False, False)
    """
    v = value.strip()
    return (
        bool(v)
        and not NOT_NAMED.fullmatch(v)
        and not _NOT_NAMED_LEAD.match(v)
        and not ZH_NOT_NAMED.match(v)
    )


def within_clause(value: str) -> str:
    """``value`` up to where its clause ends (:data:`_CLAUSE_END`).

    Example:
        >>> within_clause("Boston and work at Google"), within_clause("北京并且在字节上班")
        ('Boston', '北京')
        >>> within_clause("Boston and Cambridge"), within_clause("salt and pepper")
        ('Boston and Cambridge', 'salt and pepper')
    """
    m = _CLAUSE_END.search(value)
    return value[: m.start()].rstrip(" ,，;") if m and m.start() > 0 else value
