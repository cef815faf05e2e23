"""Habits and choices said in any words, as the preferences they show.

"I run every morning", "Been using vim for 12 years", "我一直用 vim", "星巴克我每次都点馥芮白":
a first-person habit, categorical or hedged, is a liking of what it is about; a habit that
ended ("used to", "以前", "戒了") or someone else's ("我哥每天…") is none. Also here, the two
tests every preference reader shares: whether a phrase can be a liked thing
(:func:`is_thing`), and whether a Chinese clause opens on someone else (``ZH_PREF_BLOCK``).

Example:
    >>> en_habit("I run every morning.")
    [('run', 1, 'explicit')]
    >>> zh_habit("我一直用vim。")
    [('vim', 1, 'explicit')]
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.clauses import strip_particles, tidy_value

__all__ = ["ZH_PREF_BLOCK", "en_habit", "is_thing", "zh_habit"]

#: Words a liked thing never starts with: pronouns, fillers, conjunctions, verbs' helpers.
_EN_NOT_THING = re.compile(
    r"(?:your|ur|you|you're|it|it's|its|that|that's|this|there|there's|we|we're|we'll|they|they're|"
    r"he|she|our|their|his|her|those|these|yes|yeah|yep|so|as|and|but|plus|or|really|also|just|"
    r"great|having|being|knowing|then|now|well|oh|wow|thanks|thank|hey|hi|ok|okay|sure|what|"
    r"which|who|how|why|when|where|if|because|since|while|though|although|can't|cannot|don't|"
    r"won't|isn't|aren't|not|no|nothing|everything|something|anything|someone|everyone|"
    r"tough|hard|hectic|busy|here|let's|let|keep|i|i'm|i'll|i've|i'd|me|my|mine)\b",
    re.I,
)
_EN_FINITE = re.compile(
    r"\b(?:is|are|was|were|am|be|been|being|have|has|had|will|would|can|could|should|shall|"
    r"must|do|does|did|can't|don't|won't|'s|'re|'ve|'ll|'d)\b|'(?:s|re|ve|ll|d)\b",
    re.I,
)


def is_thing(x: str, strict: bool) -> bool:
    """Whether ``x`` can be a liked thing: not opening with a pronoun or a filler, and
    (``strict``, for a thing said first) a short phrase without a verb of its own."""
    if not x or _EN_NOT_THING.match(x):
        return False
    return not strict or (len(x.split()) <= 5 and not _EN_FINITE.search(x))


ZH_PREF_BLOCK = re.compile(
    r"^(?:他|她|他们|她们|我(?:妈|爸|老婆|老公|朋友|同事|女儿|儿子|哥|姐|弟|妹)|"
    r"(?:很多|不少|好多|大部分|多数|有些|一些|别|有|大家|年轻|老)人|大家)"
)


#: A categorical frequency: the habit is stated, not guessed.
_EN_ALWAYS = re.compile(
    r"\b(?:always|every\s+(?:single\s+)?\w+|each\s+\w+|whenever|never|only|religiously|"
    r"without fail|"
    r"as usual|as always|like always|I always do|all the time|daily|nightly|"
    r"for (?:\d+|many|several|ten|twenty) (?:years|decades)|rain or shine|can't live without|"
    r"(?:once|twice|three times|four times|five times|\d+ times|\w+ times) (?:a|per|every) "
    r"(?:day|week|month|year)|everywhere|every single time)\b",
    re.I,
)
_EN_HEDGED = re.compile(
    r"\b(?:usually|normally|typically|generally|mostly|mainly|often|regularly|tend to|"
    r"most (?:days|mornings|nights|evenings|weekends|of the time)|on weekends|weekly)\b",
    re.I,
)
#: A habit that ended, or is joked about: no preference now.
_EN_ENDED = re.compile(
    r"\b(?:used to|back in|back when|in my (?:twenties|thirties|teens|youth|twenties)|when I was|"
    r"those days|anymore|any more|haven't|hasn't|quit|stopped|gave up|gonna|going to|"
    r"wish|lmao|jk|kidding)\b|🙄|😂|🤣",
    re.I,
)
_EN_NOT_HABIT = re.compile(
    r"(?:am|'m|was|were|is|are|think|thought|feel|felt|say|said|guess|know|knew|mean|hope|"
    r"need|have to|has to|want|wanted|try|tried|forget|forgot|wonder|get|got|can|could|"
    r"should|must|go through|worry|worried|miss|missed|lose|lost|hate|hated|be|remember|"
    r"believe|keep|love|like|enjoy|appreciate|cherish|treasure|agree|hold|look|find|see|let|"
    r"bet|wonder|hope|wish|try|tried|make|made|put|give|gave|tell|told|ask|asked|call|called|"
    r"carry|carrying|support|help|helped|push|pushed|stick around|stay|stayed|feel)",
    re.I,
)
_EN_PAST = re.compile(
    r"(?:\w+ed|ran|went|ate|drank|took|bought|had|made|saw|chose|wore|drove|rode|swam|read|wrote|"
    r"got|picked)",
    re.I,
)
_EN_HABIT = re.compile(
    # (a clause of when, with no comma: "Whenever we travel I book window seats")
    r"(?:^|[,;]\s*|\b(?:and|but|so)\s+|"
    r"\b(?:whenever|every time|each time)\s+[^,;]{1,40}?\s+(?=I\b))"
    r"(?:(?:honestly|mostly|usually|normally|basically|generally|typically|every\s+\w+|"
    r"each\s+\w+|on\s+\w+|at\s+\w+)\s*,?\s+)*"
    r"(?:I(?:'d|'ll|\s+would|\s+will)?\s+|(?:I(?:'ve|\s+have)\s+)?(?=been\s+\w+ing\b))"
    r"(?:(?:always|usually|normally|"
    r"typically|"
    r"generally|mostly|mainly|often|regularly|only|still|just|also|almost always|pretty much|"
    r"basically|tend to|been|have been|'ve been|never|rarely|seldom|hardly ever|almost never|"
    r"nearly always|almost)\s+)*(?P<verb>[a-z]+(?:\s+(?:with|to|for|as|on|up|out|in))?)(?![\w'’])"
    r"(?:\s+(?P<x>[^,.;!?\n]{1,60}))?",
    re.I,
)
_EN_GENERIC_OBJECT = re.compile(
    r"^(?:the same(?: \w+)?|it|them|one|that|this|those|these|a lot|too much|so much|think|"
    r"not|nothing|anything|something)\b",
    re.I,
)
_EN_HABIT_CUT = re.compile(
    r"\s+(?:every|each|again|as usual|as always|like always|always|daily|religiously|"
    r"without fail|for (?:\d+|many|several|ten|twenty) (?:years|decades)|while|when|whenever|"
    r"before|after|because|since|so|but|and I|on (?:my|the|weekends)|at (?:the|work|home)|"
    r"in the (?:morning|evening)|rain or shine|no matter)\b.*$",
    re.I,
)


def en_habit(clause: str) -> list[tuple[str, int, str]]:
    """A first-person habit or choice ("I run every morning", "I went with the window seat
    again, as usual", "Been using vim for 12 years") as a liking of what it is about."""
    s = clause.strip()
    explicit = _EN_ALWAYS.search(s)
    if not (explicit or _EN_HEDGED.search(s)) or _EN_ENDED.search(s):
        return []
    m = _EN_HABIT.search(s)
    if m is None:
        nominal = re.match(
            r"^(?P<x>[A-Za-z][\w' -]{2,30}?)\s+(?:every|each)\s+(?:single\s+)?(?:morning|day|"
            r"night|evening|week|weekend|year|month|time|\w+day)s?\b",
            s,
        )  # "Cold showers every morning, can't live without them"
        thing = nominal and is_thing(nominal["x"], strict=True)
        if nominal and thing and not re.search(r"ing\b", nominal["x"]):
            return [(tidy_value(nominal["x"], "en"), 1, "explicit")]
        return []
    verb = m["verb"]
    if _EN_NOT_HABIT.fullmatch(verb.split()[0]):
        return []
    if _EN_PAST.fullmatch(verb.split()[0]) and not re.search(
        r"as usual|as always|like always|I always do|every time|again,? as", s, re.I
    ):
        return []
    x = _EN_HABIT_CUT.sub("", " " + (m["x"] or "")).strip()
    x = re.sub(r"^(?:mostly|mainly|largely|primarily|usually|only|just)\s+", "", x, flags=re.I)
    x = re.sub(r"^(?:the same|my usual|my|the|a|an|some)\s+", "", x, flags=re.I)
    if re.match(r"(?:it|them|those|these)\b", x, re.I):
        return []  # "so I buy it every week": the habit is about a thing said elsewhere
    if not x or _EN_GENERIC_OBJECT.match(x):
        x = verb.split()[0]
    neg = re.search(r"\b(?:never|rarely|seldom|hardly)\b", s[m.start() : m.start("verb")], re.I)
    polarity = -1 if neg else 1
    return [(tidy_value(x, "en"), polarity, "explicit")]


_ZH_FREQ = (
    r"(?:每天|每周|每年|每月|每晚|每早|每次|每回|每个[\u4e00-\u9fff]{1,2}|一直|总是|永远|一般|通常|"
    r"平时|经常|常常|向来|一向|天天|基本上?|老是|往往|都是|又|还是|也|都|只|什么都|从来都|一年四季|"
    r"早上|晚上|周末|平常|平日|日常|一周|一个星期|一个月|主要|大多|多数|大部分时候)"
)
_ZH_ALWAYS = re.compile(r"每|一直|总是|永远|向来|一向|天天|只|都是|什么都|从来都|无\S不欢|越\S越好")
_ZH_ENDED = re.compile(
    r"以前|小时候|曾经|那时候|那会儿|上大学|读书的时候|戒了|不再|早就不|现在不|早不|已经不|"
    r"不玩了|不喝了|不吃了|开玩笑|说笑|😂|🤣|🙄|如果|要是|万一|假如|打算|准备|想要?试试"
)
_ZH_HABIT_VERBS = (
    r"(?:喝|吃|用|听|看|玩|买|点|穿|选|挑|开|坐|骑车|骑|跑步|跑|冲|泡|加|睡|读|写|做|去|逛|追|刷|"
    r"戴|带|订|住|走路|走|游泳|练|打)"
)
_ZH_HABIT = re.compile(
    rf"(?P<pre>[^，,。；;！!？?]{{0,16}}?)(?:(?<![们的])我(?![们的妈爸女儿子婆公朋同室老哥姐弟妹家])|"
    rf"^(?=每天|每周|每晚|每个|周末|平时|平常|早上|晚上|上午|下午|夏天|冬天|春天|秋天|假期|工作日|"
    rf"通勤|出门|在家|上班))"
    rf"[^，,。；;我]{{0,14}}?{_ZH_FREQ}+(?:早上|晚上|中午)?(?:都|也|会|是|只|要)*"
    rf"[^，,。；;]{{0,6}}?(?P<verb>{_ZH_HABIT_VERBS})了?(?P<x>[^，,。；;！!？?]{{0,14}})"
)
#: Someone other than the user, said first: "小王", "我哥", "他们", "老板".
_ZH_PERSON = re.compile(
    r"他|她|它们|[\u4e00-\u9fff]{0,2}(?:哥|姐|弟|妹|妈|爸|叔|姨|舅|总|老师|同学|同事|朋友|老板|"
    r"领导|室友|儿子|女儿|老婆|老公|孩子|宝宝|闺蜜|男友|女友|对象|家人|爷爷|奶奶|外婆|外公)|"
    r"小[\u4e00-\u9fff](?![时时候])|老[王李张刘陈杨赵黄周吴]|公司|学校|单位|部门"
)
_ZH_GENERIC_OBJECT = re.compile(r"^(?:同一款|同一个|一样的|这个|那个|它|这些|那些|这样|那样)")


def zh_habit(clause: str) -> list[tuple[str, int, str]]:
    """A habit or choice said in Chinese ("我一直用 vim", "星巴克我每次都点馥芮白",
    "黑色运动鞋我每年都买同一款", "周末都是睡到自然醒") as a liking of what it is about."""
    s = clause.strip()
    if _ZH_ENDED.search(s) or ZH_PREF_BLOCK.match(s):
        return []
    out: list[tuple[str, int, str]] = []
    idiom = re.search(
        r"无(?P<x>[\u4e00-\u9fff])不欢|(?P<y>[\u4e00-\u9fff]{1,4}?)(?:的)?越\S越好", s
    )
    if idiom:
        out.append((idiom["x"] or idiom["y"], 1, "explicit"))
    best = re.search(
        r"(?P<x>[^，,。；;！!？?我]{2,12}?)(?:效率最高|最舒服|最合适|最有感觉|最香|最好用|最顺手)",
        s,
    )
    if best:
        out.append((strip_particles(best["x"]), 1, "explicit"))
    out += _zh_habit_of(s[best.end() :] if best else s)  # the time it is best at is read
    weekly = re.search(
        r"我(?:一周|每周|一个星期|一天|每天|一个月|"
        r"每月)(?P<x>[\u4e00-\u9fff]{1,6}?)[一二三四五六七两几\d]+次",
        s,
    )
    if weekly:
        out.append((weekly["x"], 1, "explicit"))
    without = re.search(
        r"我[^，,。]{0,6}?(?:从来|一般|平时|都)?不(?:加|放)(?P<x>[\u4e00-\u9fff]{1,4})", s
    )
    if without and not out:
        out.append((without["x"], -1, "explicit"))
    unused = re.search(r"(?:用|吃|喝|穿|住|睡|看|听)不惯(?P<x>[^，,。；;！!？?]{1,10})", s)
    if unused:
        out.append((strip_particles(unused["x"]), -1, "explicit"))
    return out


#: A stance verb just before the habit's verb: the stance says the polarity, not the habit.
_ZH_STANCE_BEFORE = re.compile(r"(?:喜欢|爱|讨厌|怕|烦|受不了|恨)[^，,。]{0,2}$")


def _zh_habit_of(s: str) -> list[tuple[str, int, str]]:
    m = _ZH_HABIT.search(s)
    if m is None or not re.search(_ZH_FREQ, s):
        return []
    if re.search(r"(?:我们|他|她|他们|老板|同事)[^，,。]{0,4}" + _ZH_FREQ, s[: m.start("verb")]):
        return []
    if _ZH_PERSON.search(
        s[: m.start("verb")].split("我")[0]
        if "我" in s[: m.start("verb")]
        else s[: m.start("verb")]
    ):
        return []  # someone else's habit
    if _ZH_STANCE_BEFORE.search(s[: m.start("verb")]):
        return []  # "我平时讨厌开会": a stance, read as one (restated without the adverb)
    source = "explicit"  # a habit the user states, hedged or not
    polarity = -1 if re.search(r"(?:不|从不|很少|没)\S?$", s[: m.start("verb")]) else 1
    x = strip_particles(
        re.sub(r"(?:比较多|最多|居多|多一些|多一点|比较多一些)$", "", m["x"].strip())
    )
    if not x or _ZH_GENERIC_OBJECT.match(x):
        topic = strip_particles(re.sub(r"我.*$", "", m["pre"]).strip())
        x = topic if len(topic) >= 2 else m["verb"] + x
    elif len(x) <= 1:
        x = m["verb"] + x
    if len(x) < 2:
        return []
    return [(x, polarity, source)]
