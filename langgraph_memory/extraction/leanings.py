"""Leanings said by scope, habituation and emphasis, and the word order that hides a liking.

Beside the verbs of liking, Chinese says a taste with a handful of grammatical forms:

- a **lean** (偏 + a thing): "川菜和粤菜比，我还是偏粤菜", "口味偏清淡";
- a **scope word** before a habitual verb (只 + verb): "手机只用苹果", "现在只玩原神";
- **habituation** (惯): "用惯了苹果" (liked), "安卓用不惯", "西餐我吃不来" (not);
- an **emphatic refusal** (the verb doubled around 都不): "榴莲我是真的闻都不能闻";
- a **standard kit** (标配, 必备): "古典乐是我写作业的标配";
- a **specification** after a liking (尤其是, 特别是; "especially", "esp."): "…喝茶，尤其是
  乌龙", "board game night is the highlight of my week, Catan especially".

:func:`leanings_of` reads those (the preference readers call it when their own patterns
find none). And a liking whose verb is parted from the user by an adverbial or a topic
("我坐车喜欢靠窗的位置", "开会我最怕开长会") is :func:`restated` with the user right before
the verb, for the readers to read as they read "我喜欢…". Someone else's taste and a
negated scope ("不只", "他只用…") give none.

Example:
    >>> leanings_of("手机只用苹果，安卓用不惯")
    [('苹果', 1, 'explicit'), ('安卓', -1, 'explicit')]
    >>> leanings_of("川菜和粤菜比，我还是偏粤菜，清淡点")
    [('粤菜', 1, 'explicit')]
    >>> restated("我坐车喜欢靠窗的位置")
    '我喜欢靠窗的位置'
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.clauses import strip_particles

__all__ = ["instead", "leanings_of", "refusal_of", "restated", "specified"]

Pref = tuple[str, int, str]

#: A value's end: a clause's end, a particle, or a reason after it.
_END = r"(?=[，,。！!；;～~\s]|$|了|啦|吧|呢|的时候|因为|比较|就行)"
#: Verbs of a habit (what is used, eaten, played, worn...).
_VERB = r"(?:用|玩|喝|吃|穿|看|听|买|坐|开|骑|抽|读|刷|追|点|选|住|去)"
#: A thing: no pronoun, demonstrative or clause.
_THING = r"(?P<x>(?![我你他她它这那哪什])[\u4e00-\u9fffA-Za-z0-9·]{1,10}?)"
#: Someone other than the user before the form ("他只用…", "我妈偏爱…").
_OTHER = re.compile(
    r"[你您他她它]|别人|大家|我们|朋友|同事|同学|室友|对象|儿子|女儿|孩子|老公|老婆|"
    r"(?<!自)己|[妈爸哥姐弟妹]"
)
#: A time, never the thing refused ("现在看都不敢看").
_TIME = re.compile(r"现在|今天|昨天|明天|最近|平时|以后|之前|以前|早上|晚上|周末|每天|一直|有时")
#: What a lean to is not a taste: a size, a price, a build, a time ("偏贵", "偏瘦", "偏晚").
NOT_LEAN = r"(?:贵|便宜|瘦|胖|高|矮|大|小|多|少|远|近|晚|早|黑|白|长|短|重|轻|低|偏)"
_NOT_LEAN = re.compile("^" + NOT_LEAN)

_LEAN = re.compile(
    r"(?:^|我|口味|(?<=[，,]))(?:还是|比较|更|一般|一向|向来|平时|都)*偏(?:爱|向|好)?"
    + _THING
    + _END
)
_ONLY = re.compile(
    r"(?<![不非])只(?:会|肯|愿意)?(?P<v>" + _VERB + r")(?!了|过)"
    # (not "只用跑三天": only needs to, a verb after 用)
    r"(?!(?<=用)[跑走做花等交付带去来写看说买吃喝上下开])" + _THING + _END
)
_USED_TO = re.compile(r"(?P<v>" + _VERB + r")惯了" + _THING + _END)
_NOT_USED_TO = re.compile(
    r"(?:^|[，,。；;])(?P<x>(?![我你他她它这那])[\u4e00-\u9fffA-Za-z0-9·]{1,8}?)"
    r"(?:我|我是|我也)?(?:真的?|实在|是真的?|完全|根本|确实)*"
    r"(?P<v>" + _VERB + r")不(?:惯|来)"
)
_REFUSED = re.compile(
    r"^(?P<x>(?![我你他她它这那])[\u4e00-\u9fffA-Za-z0-9·]{1,8}?)(?:我|我是)?(?:真的?|实在|是真的?)*"
    r"(?:连)?(?P<v>[\u4e00-\u9fff])都不(?:能|想|敢|愿意|会)?(?P=v)"
)
_KIT = re.compile(
    r"(?:^|[，,])" + _THING + r"是我[\u4e00-\u9fff]{0,6}?的?(?:标配|必备|必需品|续命神器|命)" + _END
)
_SPECIFIC_ZH = re.compile(r"(?:^|[，,。！!；;])\s*(?:尤其是|特别是|尤其|最爱的是)" + _THING + _END)
_SPECIFIC_EN = re.compile(
    r"(?:^|[,;.!]\s*|\s)(?:especially|esp\.?|particularly|in particular)\s+"
    r"(?P<x>[A-Za-z0-9][\w'&+-]*(?:\s+[A-Z0-9][\w'&+-]*){0,3})"
    r"|(?:^|[,;]\s*)(?!I\b)(?P<y>[A-Z0-9][\w'&+-]*(?:\s+[\w'&+-]+){0,2}?)\s+"
    r"(?:especially|in particular)\s*[.!]?\s*$"
    # a part of its own narrowing what was named: "white, specifically a dry Riesling",
    # "Dry reds, mostly Rioja"
    r"|(?:^|[,;—–]\s*)(?:specifically|mostly|mainly)\s+(?:(?:a|an|the|some)\s+)?"
    r"(?P<z>[A-Za-z0-9][\w'&+-]*(?:\s+[A-Za-z0-9][\w'&+-]*){0,3})\s*(?=$|[,;.!—–])",
    re.I,
)


#: A thing named first, then said to be what the user habitually does with ("jazz is what
#: I put on when I work", "Oat milk is all I drink").
_WHAT_I = re.compile(
    r"^(?P<x>[A-Za-z0-9][\w'&+-]*(?:\s+[\w'&+-]+){0,3}?)\s+(?:is|are)\s+(?:what|all)\s+I\s+"
    r"(?:(?:ever|always|usually|mostly|basically|really)\s+)?(?:put on|listen to|play|eat|drink|"
    r"order|wear|use|read|watch|reach for|go for|pick|choose|crave|want)\b",
    re.I,
)


def refusal_of(said: str) -> list[Pref]:
    """A thing the user will not even take in, said by its verb doubled around 都不
    ("榴莲我是真的闻都不能闻", "香菜我看都不想看"): a dislike of it.

    Example:
        >>> refusal_of("香菜我看都不想看"), refusal_of("我看都不想看")
        ([('香菜', -1, 'explicit')], [])
    """
    m = _REFUSED.search(said) if "都不" in said else None
    if m is None or _OTHER.search(m["x"]) or _TIME.search(m["x"]):
        return []
    if len(strip_particles(m["x"])) < 2:
        return []
    return [(strip_particles(m["x"]), -1, "explicit")]


#: Who a clause is about: the user, or someone else ("我妈" is her; "我们家" is the user's).
_WHO = re.compile(
    r"我们家|我(?![们妈爸哥姐弟妹])|[你您他她它]|别人|大家|我们|朋友|同事|同学|室友|对象|儿子|女儿|"
    r"孩子|老公|老婆|领导|老板|[妈爸哥姐弟妹]"
)


def _mine(before: str) -> bool:
    """Whether the words before a form (its sentence so far) leave the user its subject:
    the last one named is the user, or no one is and nothing is reported ("说只喝…")."""
    named = _WHO.findall(before)
    if named:
        return named[-1] in ("我", "我们家")
    return not re.search(r"(?:^|[，,])说", before)


def leanings_of(said: str) -> list[Pref]:
    """``(value, polarity, source)`` of each leaning ``said`` states by a lean, a scope
    word, habituation, an emphatic refusal or a standard kit (see the module docs).

    Example:
        >>> leanings_of("榴莲我是真的闻都不能闻")
        [('榴莲', -1, 'explicit')]
        >>> leanings_of("古典乐是我写作业的标配")
        [('古典乐', 1, 'explicit')]
        >>> leanings_of("他只用苹果"), leanings_of("这家店偏贵")
        ([], [])
    """
    out: list[Pref] = []
    seen: set[str] = set()

    def add(x: str, pol: int) -> None:
        x = strip_particles(x)
        if len(x) >= 2 and x not in seen:
            seen.add(x)
            out.append((x, pol, "explicit"))

    # (each form only where its word is: most clauses hold none)
    for m in _LEAN.finditer(said) if "偏" in said else ():
        if _mine(said[: m.start("x")]) and not _NOT_LEAN.match(m["x"]):
            add(m["x"], 1)
    for rx, pol, cue in ((_ONLY, 1, "只"), (_USED_TO, 1, "惯了"), (_KIT, 1, "是我")):
        for m in rx.finditer(said) if cue in said else ():
            if _mine(said[: m.start()]):
                add(m["x"], pol)
    for rx, cue in ((_NOT_USED_TO, "不"), (_REFUSED, "都不")):
        for m in rx.finditer(said) if cue in said else ():
            if not _OTHER.search(m["x"]) and not _TIME.search(m["x"]):
                add(m["x"], -1)
    what = _WHAT_I.match(said.strip()) if " I " in said else None
    if what and not re.match(r"(?:it|that|this|which|he|she|they|you)\b", what["x"], re.I):
        out.append((what["x"], 1, "explicit"))
    return out


def specified(clause: str) -> str | None:
    """The thing a clause singles out of a liking said before it ("尤其是乌龙",
    "esp. Coltrane", "Catan especially"), if it does.

    Example:
        >>> specified("尤其是乌龙"), specified("esp. Coltrane"), specified("Catan especially")
        ('乌龙', 'Coltrane', 'Catan')
        >>> specified("specifically a dry Riesling"), specified("Dry reds, mostly Rioja.")
        ('dry Riesling', 'Rioja')
        >>> specified("especially when it rains") is None
        True
    """
    m = _SPECIFIC_ZH.search(clause)
    if m:
        return strip_particles(m["x"]) or None
    m = _SPECIFIC_EN.search(clause)
    if m is None:
        return None
    x = (m["x"] or m["y"] or m["z"] or "").strip()
    if re.match(r"(?:when|if|on|in|at|for|with|after|before|since|because|the|a|an)\b", x, re.I):
        return None
    return x or None


_INSTEAD = re.compile(
    r"^\s*(?:just\s+|so\s+)?(?:give me|gimme|I'll take|I'd take)\s+(?:a\s+|an\s+|the\s+|some\s+)?"
    r"(?P<x>[A-Za-z][\w'&+-]*(?:\s+[\w'&+-]+){0,4}?)\s*(?:any day|any ?time|every time|instead)?"
    r"\s*[.!]*\s*$",
    re.I,
)


#: "…，还是纪录片好看", "还是纸质书有感觉": after a dislike, the other one and how it is.
_INSTEAD_ZH = re.compile(
    r"^\s*(?:但是?|不过|可是|倒是)?(?:还是|还得是)"
    + _THING.replace("{1,10}?", "{1,8}?")
    + r"(?:更|最|比较|才)?(?:好|有感觉|有意思|有味道|香|舒服|顺手|靠谱|实在|对味|带劲|得劲)"
)


def instead(clause: str) -> str | None:
    """The thing a clause picks after a dislike ("I'm not a beach person — give me
    mountains and a cabin", "…不喜欢看综艺，还是纪录片好看"), if it picks one.

    Example:
        >>> instead("give me mountains and a cabin."), instead("give me a minute") is None
        ('mountains and a cabin', True)
        >>> instead("还是纸质书有感觉"), instead("还是算了吧") is None
        ('纸质书', True)
    """
    zh = _INSTEAD_ZH.match(clause)
    if zh:
        return strip_particles(zh["x"]) or None
    m = _INSTEAD.match(clause)
    if m is None or re.match(
        r"(?:it|that|this|them|one|more|(?:minute|moment|sec|second|break|hand|chance)s?)\b",
        m["x"],
        re.I,
    ):  # "give me a minute": a moment, not a pick
        return None
    return m["x"]


#: The user, an adverbial or topic of a few characters, then a verb of liking: "我坐车喜欢…",
#: "我周末最爱…", and a topic before the user: "开会我最怕…".
_PARTED = re.compile(
    r"^(?:(?P<topic>[\u4e00-\u9fff]{2,4})我|我(?P<adv>[\u4e00-\u9fff]{2,4}?))"
    r"(?P<verb>(?:最|更|还是|比较|特别|很|挺|超|也|都)?(?:不太|不怎么|不大|不)?"
    r"(?:喜欢|爱|讨厌|怕|烦|受不了|偏爱))"
)
#: What an adverbial or topic parting the user from the verb is: a doing ("坐车", "开会",
#: "写代码") or a time or setting ("周末", "平时", "出差") — never someone ("我领导喜欢…").
_SETTING = re.compile(
    r"^(?:[坐吃喝看听玩出上下写做开骑旅睡逛买穿点住学跑游打回]|周末|平时|平常|早上|晚上|中午|"
    r"夏天|冬天|春天|秋天|工作日|假期|一般|在家|在外)"
)
#: What no adverbial holds: a negation, a thought or a saying, someone, a time that is over.
_NOT_ADVERBIAL = re.compile(
    r"不|没|别|觉得|说|以为|的|们|[妈爸哥姐弟妹]|"
    r"老公|老婆|朋友|同事|同学|儿子|女儿|孩子|对象|家人|以前|小时候|曾经"
)


def restated(said: str) -> str | None:
    """``said`` with the user right before its verb of liking, when an adverbial or a
    topic parts them (see the module docs); None otherwise.

    Example:
        >>> restated("开会我最怕开长会"), restated("我妈喜欢吃辣"), restated("我不喜欢吃辣")
        ('我最怕开长会', None, None)
    """
    m = _PARTED.match(said.strip())
    if m is None:
        return None
    part = m["topic"] or m["adv"]
    if not _SETTING.match(part) or _NOT_ADVERBIAL.search(part):
        return None  # "我领导喜欢…", "我不太喜欢…": someone else, or no adverbial
    return "我" + said.strip()[m.start("verb") :]
