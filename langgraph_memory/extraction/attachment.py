"""The user's attachment to a kind of thing, and clauses restated so a stance can be read.

Two methods beside :mod:`.stance`, both by the clause's grammar rather than by phrasings:

- :func:`restated` puts a clause in the shape the stance readers know: a fronted adverbial
  comes off ("After that trip to Kyoto I got obsessed with matcha", "Weekends I'm always
  out…", "Between Vim and VS Code I'm…"); a Chinese clause whose subject was dropped gets
  the user back ("还是喜欢去实体店试", "最近迷上了做手冲咖啡": in a user's message an adverb
  and a stance verb with no subject are the user's); a verb phrase naming the domain comes
  out from between the user and the stance ("我穿衣服喜欢简约风" → "我喜欢简约风").
- :func:`attachment_of` reads attachments said by **identity** ("I'm firmly a Vim person",
  "more of a beach person than a mountains person"), a **pseudo-cleft** ("what I really
  love is 90s hip hop"), a **topic and a pronoun** ("Mechanical keyboards — love them"),
  a **verbless pick** ("Dark mode everywhere", "Boutique hotels, always"), **devotion**
  ("Taylor Swift on repeat", "我对榴莲是真爱", "我用惯了机械键盘", "书我几乎全看过了"),
  **preference without a contrast** ("我宁愿去游泳") and **refusal** ("X我是不会去的", "X
  ruins everything", "X sounds like my nightmare").

Example:
    >>> restated("还是喜欢去实体店试")
    '我还是喜欢去实体店试'
    >>> attachment_of("I'm way more of a beach person than a mountains person.")
    [('beach', 1, 'explicit'), ('mountains', -1, 'inferred')]
    >>> attachment_of("人挤人的景点我是不会去的")
    [('人挤人的景点', -1, 'explicit')]
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.clauses import strip_particles, tidy_value

__all__ = ["attachment_of", "restated"]

Stance = list[tuple[str, int, str]]

# -- restating ----------------------------------------------------------------------------------
#: A fronted adverbial of time, frequency or circumstance before the user as subject.
_EN_FRONTED = re.compile(
    r"^(?:(?:but|and|so|well|honestly|long story short)\s*,?\s+)*"
    r"(?:(?:after|since|before|during|ever since|on|at|in|over|between)\s+[^,;:!?]{2,50}?|"
    r"(?:on\s+)?(?:(?:late|early|most|some|many|long|lazy|cold|warm|sunny|rainy)\s+)?"
    r"(?:weekends?|weekdays|mornings?|afternoons?|evenings?|nights?|summers?|winters?)|"
    r"given the choice|if (?:it's|it is) up to me|if I (?:have|had) to (?:choose|pick)|"
    r"these days|lately|recently|nowadays|most days|every (?:day|morning|evening|night|week|"
    r"weekend|summer|winter))\s*,?\s+(?=I(?:'m|'ve|'d| am| have)?\s)",
    re.I,
)
#: A Chinese clause with no subject that opens on an adverb and a verb of stance, or on a
#: habit adverb and a verb of habit ("平时用微信"); after 还是/也/就 alone a verb of doing is
#: a plan or an aside ("还是去医院", "也用微信"), not a taste.
_ZH_NO_SUBJECT = re.compile(
    r"^(?:最近|这阵子|这段时间|这两年|近来|现在|一直|还是|也|更|就|平时|一般|偶尔|总是|经常|"
    r"宁愿|宁可|情愿|倒是|反而)*"
    r"(?:(?:真的|特别|超|很|挺|比较|最|还)*"
    r"(?:喜欢|爱|迷上|着迷|痴迷|偏爱|讨厌|受不了|宁愿|宁可|情愿)|"
    r"(?:平时|一般|偶尔|总是|经常|一直)(?:会|都)?(?:喝点|吃点|喝|吃|听|看|玩|用|去))"
)
#: A verb phrase naming the domain between the user and the stance: "我穿衣服喜欢…".
_ZH_DOMAIN_VP = re.compile(
    r"^我(?P<vp>[穿吃喝听看玩用买选挑住读开][^，,。喜爱讨厌我]{1,3}?)"
    r"(?=(?:最|更|比较|特别|很|还是|一般|都|就|只)?(?:喜欢|爱|偏爱|讨厌|不喜欢|不爱))"
)


def restated(clause: str, zh: bool | None = None) -> str | None:
    """``clause`` in a shape the stance readers know (see the module docs), or ``None``
    when it needs no restating (``zh``: whether it is Chinese, when the caller knows)."""
    s = clause.strip()
    if not s:
        return None
    if is_cjk_text(s) if zh is None else zh:
        if _ZH_NO_SUBJECT.match(s) and not re.search(r"[我你您他她]", s):
            return "我" + s
        vp = _ZH_DOMAIN_VP.match(s)
        return "我" + s[vp.end() :] if vp else None
    m = _EN_FRONTED.match(s) if " I" in s else None  # the user must follow it
    return s[m.end() :] if m else None


# -- English attachments ------------------------------------------------------------------------
_NP = r"(?:a\s+|an\s+|the\s+)?(?P<{}>[A-Za-z0-9][\w'&+-]*(?:\s+[\w'&+-]+){{0,3}}?)"
#: The user as "a/an <kind> person" (or guy, girl, type, fan, "kind of person"): the
#: article is needed, so "I'm a guy." and "I'm the delivery guy" (a role) name no kind; a
#: negation before the article turns the sign ("I'm never a Vim person").
_EN_NOUN = r"(?:person|guy|girl|gal|type|fan|kind of (?:person|guy|girl|gal)|kinda person)"
_EN_IDENTITY = re.compile(
    r"^I(?:'m| am)\s+(?:(?:firmly|definitely|totally|absolutely|really|very much|such|"
    r"always been|a lot|way|much|far|so|just|more of)\s+)*"
    r"(?:(?P<neg>not|never|no longer|never been)\s+(?:(?:really|much|exactly|at all)\s+)?)?"
    r"(?:more of\s+)?(?:a|an)\s+(?P<x>[A-Za-z0-9][\w'&+-]*(?:\s+[\w'&+-]+){0,3}?)\s+"
    + _EN_NOUN
    + r"(?:\s*,?\s+(?:than|not)\s+(?:a\s+|an\s+)(?P<y>[\w'&+-]+(?:\s+[\w'&+-]+){0,3}?)\s+"
    r"(?:person|guy|girl|gal|type|fan|one))?\s*[.!]?\s*$",
    re.I,
)
_EN_CLEFT = re.compile(
    r"^(?:(?:but|and|so)\s+)?what I\s+(?:(?:really|truly|honestly|absolutely|actually|just)\s+)*"
    r"(?:(?P<like>love|like|enjoy|adore|prefer|go for)|(?P<bad>hate|dislike|can't stand|"
    r"cannot stand|loathe|detest))(?:\s+most)?\s+is\s+" + _NP.format("x") + r"\s*[.!]?\s*$",
    re.I,
)
_EN_TOPIC_PRONOUN = re.compile(
    r"^" + _NP.format("x") + r"(?:\s+with\s+[^—–,]{2,30}?)?\s*(?:[—–-]+|,|:)\s*(?:I\s+)?"
    r"(?:(?:just|really|absolutely|totally|simply)\s+)*(?:(?P<like>love|adore|like|enjoy)|"
    r"(?P<bad>hate|loathe|detest|can't stand|cannot stand))\s+(?:them|it|those|these)\b",
    re.I,
)
_EN_VERBLESS = re.compile(
    r"^(?:(?:oh|yeah|definitely|honestly)\s*,?\s+)*"
    + _NP.format("x")
    + r"\s*,?\s+(?:always|every time|all the way|everywhere|on everything|any day|for life|"
    r"forever|"
    r"hands down|every single time)\s*(?:[,—–-]|[.!]?\s*$)",
    re.I,
)
#: Words that make a phrase a clause, not the name of a kind ("Thanks for always…").
_EN_VERBAL = re.compile(
    r"\b(?:is|are|was|were|isn't|aren't|be|been|being|can|could|will|would|we|thanks?|for|to|"
    r"have|has|had|do|does|did)\b",
    re.I,
)
_EN_REPEAT = re.compile(
    r"^I(?:'ve| have)?\s+(?:(?P<had>had|got)|been playing|been listening to|been blasting)\s+"
    + _NP.format("x")
    + r"\s+on (?:repeat|loop|heavy rotation)\b",
    re.I,
)
#: What one plays, for "had X on repeat": a named work or artist, or a noun of the kind.
_EN_PLAYED = re.compile(
    r"(?:\b[A-Z0-9][\w'&+-]*|\b(?:songs?|albums?|tracks?|records?|playlists?|shows?|series|"
    r"podcasts?|episodes?|mix(?:tape)?s?|tapes?|soundtracks?|singles?|vinyls?|EPs?|LPs?|"
    r"music|tunes?|beats?|films?|movies?|audiobooks?|anthems?|hymns?|ballads?|jams?|"
    r"sets?|videos?|remix(?:es)?))\s*$"
)
#: Out on one's own gear ("always out on my bike"); "out with the dog", "out on the road"
#: say where or with whom the user is, not what they go for.
_EN_OUT_ON = re.compile(
    r"^I(?:'m| am)\s+(?:always|usually|mostly|often)\s+out\s+on\s+my\s+"
    r"(?P<x>[\w'-]+(?:\s+[\w'-]+)?)\b",
    re.I,
)
_EN_DREAD = re.compile(
    r"^" + _NP.format("x") + r"\s+(?:(?:is|are|sounds?|seems?|feels?|looks?)\s+(?:like\s+)?"
    r"(?:my|a|an|the)\s+(?:(?:personal|worst|absolute|living|total)\s+)*(?:nightmare|hell|"
    r"idea of hell|kryptonite)|(?:ruins?|spoils?|kills?)\s+(?:everything|every \w+|any \w+))\b",
    re.I,
)
#: Not a kind of thing: pronouns, demonstratives, the other speaker's things.
_EN_NOT_KIND = re.compile(
    r"^(?:a|an|the|not|never|no|just|it|that|this|these|those|they|he|she|we|you|your|my|his|"
    r"her|their|our|i|me|what|"
    r"which|there|here|life|work|today|tonight|everything|nothing|something|anything|"
    r"everyone|someone|people|things|stuff)\b",
    re.I,
)


#: What describes a person rather than naming what they go for: "a very private person",
#: "a shy guy", "a people person" (an intensifier, an adjective's ending, common adjectives).
_EN_CHARACTER = re.compile(
    r"^(?:very|really|so|quite|pretty|super|extremely|rather|fairly|too|kind|nice|good|bad|"
    r"great|private|quiet|calm|simple|open|honest|smart|busy|happy|lazy|shy|easy|moody|needy|"
    r"nosy|messy|funny|lucky|picky|people|different|normal|real|whole|new|old|young|strong|"
    r"weak|big|small|little|hard|soft|warm|cold|loud|proud|free|fun|sweet|cool|chill|late|"
    r"sensitive|social|careful|patient|organi[sz]ed|regular|ordinary|average|typical|"
    r"decent|huge|massive)\b|"
    r"\w(?:ive|ous|ful|less|able|ible|ical|ent|ant|ed|ish)$",
    re.I,
)


def _kind(x: str | None) -> str:
    x = tidy_value(x or "", "en")
    return "" if not x or _EN_NOT_KIND.match(x) else x


#: The words each English form needs: a clause holding none of them skips its match.
_EN_NEEDS = {
    form: re.compile(words)
    for form, words in {
        "identity": r"person|guy|girl|gal|type|fan",
        "cleft": r"what i",
        "topic": r"them|it|those|these",
        "repeat": r"repeat|loop|rotation",
        "out": r" out on my ",
        "dread": r"nightmare|hell|kryptonite|ruin|spoil|kill",
        "verbless": r"always|every|all the way|any day|for life|forever|hands down",
    }.items()
}


#: Any of those words: one search, so that most clauses are done with at once.
_EN_ANY_NEED = re.compile("|".join(rx.pattern for rx in _EN_NEEDS.values()))


def _needs(low: str, form: str) -> bool:
    return _EN_NEEDS[form].search(low) is not None


def _en_attachment(s: str) -> Stance:
    low = s.lower()
    if not _EN_ANY_NEED.search(low):
        return []
    m = _EN_IDENTITY.match(s) if _needs(low, "identity") else None
    if m and _kind(m["x"]) and not _EN_CHARACTER.search(m["x"]):
        sign = -1 if m["neg"] else 1
        out = [(_kind(m["x"]), sign, "explicit")]
        y = _kind(m["y"]) if m["y"] and not _EN_CHARACTER.search(m["y"]) else ""
        return out + [(y, -sign, "inferred")] if y else out
    m = _EN_CLEFT.match(s) if _needs(low, "cleft") else None
    if m and _kind(m["x"]):
        return [(_kind(m["x"]), -1 if m["bad"] else 1, "explicit")]
    m = _EN_TOPIC_PRONOUN.match(s) if _needs(low, "topic") else None
    if m and _kind(m["x"]):
        return [(_kind(m["x"]), -1 if m["bad"] else 1, "explicit")]
    for form, pattern, pol in (
        ("repeat", _EN_REPEAT, 1),
        ("out", _EN_OUT_ON, 1),
        ("dread", _EN_DREAD, -1),
        ("verbless", _EN_VERBLESS, 1),
    ):
        m = pattern.match(s) if _needs(low, form) else None
        if m and pattern is _EN_REPEAT and m["had"] and not _EN_PLAYED.search(m["x"]):
            continue  # "had the flu on repeat": not a thing one plays
        if m and _kind(m["x"]) and not (pattern is _EN_VERBLESS and _EN_VERBAL.search(m["x"])):
            return [(_kind(m["x"]), pol, "explicit")]
    return []


# -- Chinese attachments ------------------------------------------------------------------------
_ZX = r"(?P<x>[^，,。；;！!？?我你他她它这那]{1,12}?)"
_ZH_ATTACHED: list[tuple[re.Pattern[str], int]] = [
    # devotion: "我对榴莲是真爱", "X是我的真爱"
    (re.compile(r"^我对" + _ZX + r"(?:是|绝对是|简直是)?(?:真爱|死忠|铁粉|真心喜欢)"), 1),
    # used to it: "我用惯了机械键盘", "我吃惯了清淡的"
    (
        re.compile(
            r"^我(?:已经|早就)?(?:用|吃|喝|穿|住|开|坐|睡)惯了(?P<x>[^，,。；;！!？?]{1,12})"
        ),
        1,
    ),
    # the whole of it: "东野圭吾的书我几乎全看过了"
    (
        re.compile(
            r"^"
            + _ZX
            + r"我(?:几乎|基本上?|差不多)?(?:全|都|全都)(?:看|听|读|玩|吃|追|刷)(?:过|遍)了"
        ),
        1,
    ),
    # again and again: "周杰伦的歌我能循环一整天", "这类剧我能刷好几遍"
    (
        re.compile(
            r"^" + _ZX + r"我(?:真的|可以|能|都)*(?:循环|单曲循环|刷|听|看|吃|玩)"
            r"(?:一整天|一整晚|一下午|一晚上|好几个小时|好几遍|无数遍|一百遍)"
        ),
        1,
    ),
    # a preference without its contrast: "我宁愿去游泳", "宁可在酒店躺着"
    (re.compile(r"^我?(?:宁愿|宁可|情愿)(?!.*也不)(?P<x>[^，,。；;！!？?]{2,12})"), 1),
    # refusal: "人挤人的景点我是不会去的", "榴莲我打死也不吃"
    (
        re.compile(
            r"^" + _ZX + r"我(?:是|就|可|反正)?(?:绝对|打死|死也|从来|永远)?(?:不会|不|也不|都不)"
            r"(?:再)?(?:去|吃|喝|买|看|用|坐|碰|听|玩)的?"
            r"(?=$|[，,。.!！?？;；]|了)"
        ),
        -1,
    ),
    # a hedged habit with a small amount: "偶尔喝点精酿啤酒", "平时会听些播客"
    (
        re.compile(
            r"^我(?:平时|一般|偶尔|有时候?|通常|经常)(?:会|就)?(?:喝|吃|听|看|玩|读|买)(?:点|些|一点|一些)"
            r"(?P<x>[^，,。；;！!？?]{2,12})"
        ),
        1,
    ),
    # a superlative said of a kind: "普洱最好", "还是川菜最香"
    (
        re.compile(
            r"^(?:还是)?(?P<x>[^，,。；;！!？?我你他她它这那早晚先]{2,8}?)最(?:好|棒|香|好喝|好吃|好听|"
            r"好看|舒服|对味)(?:了|啦)?$"
        ),
        1,
    ),
]


#: Not a kind one goes for: a time or a pronoun, or a negated verb ("宁愿不去").
_ZH_NOT_KIND = re.compile(r"^(?:今天|明天|昨天|现在|这|那|什么|哪|不|没|别)")
#: A medicine ("偶尔吃点安眠药": health data, not a taste) or a place one goes to out of
#: need ("医院"), at the end of a Chinese value.
_ZH_NEED = re.compile(
    r"(?:药|药片|药丸|胶囊|片剂|冲剂|口服液|针剂|医院|诊所|门诊|急诊|药店|药房|牙医|"
    r"派出所|警察局|法院|银行)$"
)


def _zh_attachment(s: str) -> Stance:
    for pattern, pol in _ZH_ATTACHED:
        m = pattern.match(s)
        if m is None:
            continue
        x = strip_particles(m["x"])
        if len(x) >= 2 and not _ZH_NOT_KIND.match(x) and not _ZH_NEED.search(x):
            return [(x, pol, "explicit")]
    return []


def attachment_of(clause: str, zh: bool | None = None) -> Stance:
    """``(value, polarity, source)`` of an attachment ``clause`` states (see the module
    docs; ``zh``: whether it is Chinese, when the caller knows); the caller has ruled out
    questions, hypotheticals and other people's words.

    Example:
        >>> attachment_of("Between Vim and VS Code I'm firmly a Vim person.")
        []
        >>> attachment_of("I'm firmly a Vim person.")
        [('Vim', 1, 'explicit')]
        >>> attachment_of("我对榴莲是真爱，一个人能干掉一整个。")
        [('榴莲', 1, 'explicit')]
    """
    s = clause.strip()
    if not s:
        return []
    return _zh_attachment(s) if (is_cjk_text(s) if zh is None else zh) else _en_attachment(s)
