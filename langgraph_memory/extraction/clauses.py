"""What a clause of a user's message is: its parts, and whether it says anything lasting.

Shared by the readers of standing instructions (:mod:`.instructions`), preferences
(:mod:`.preferences`) and slots (:mod:`.slots`): how a message is cut into clauses; the
questions, hypotheticals, reported and quoted words, jokes and one-time choices that say
nothing lasting about the user; and how a value is tidied (Chinese particles such as
也/都/还 never end up in one: "海鲜也" is "海鲜").

Example:
    >>> is_question("Do you always use tabs?"), is_question("我不吃辣。")
    (True, False)
    >>> [c for _, c in split_clauses("I'm on a Mac, so give me shortcuts with Cmd.")]
    ["I'm on a Mac", 'so give me shortcuts with Cmd.']
    >>> reported_zh("菜谱上说一定要用无盐黄油"), reported_zh("用中文说")
    (True, False)
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.cues import gated

__all__ = [
    "opens_on_other",
    "other_subject",
    "speaks_of_user",
    "strip_particles",
    "tidy_value",
    "is_question",
    "split_clauses",
    "spaced_clauses",
    "ZH_GAP",
    "reported_zh",
    "EN_REPORTED",
    "ZH_REPORTED",
    "EN_HYPOTHETICAL",
    "ZH_HYPOTHETICAL",
    "NOW_ONLY",
    "JOKE",
    "SERIOUS",
]

#: Adverbs and particles that cling to a Chinese value ("海鲜也", "都辣的"): never part of it.
_ZH_PARTICLE_EDGE = re.compile(
    r"^(?:也|都|还|又|就|才|再|也都|都还|还是|总是|一直|一般|通常|平时|的是|是|的)+"
    r"|(?:也|都|还|又|就|才|再|了|的|啊|呀|呢|吧|哦|嘛|啦)+$"
)

#: A taste or a kind said by one adjective and 的 ("甜的", "辣的", "冰的"): a noun.
_TASTE_KIND = re.compile(r"[甜辣酸咸苦凉冰热烫素荤]的$")


def strip_particles(value: str) -> str:
    """A Chinese value without the adverbs and particles at its edges.

    Example:
        >>> strip_particles("海鲜也"), strip_particles("都用中文"), strip_particles("绿茶")
        ('海鲜', '用中文', '绿茶')
        >>> strip_particles("吃甜的"), strip_particles("都辣的")
        ('吃甜的', '辣的')
    """
    out = value.strip()
    if _TASTE_KIND.search(out):  # "甜的", "吃辣的": the sweet kind, a thing; its 的 stays
        return strip_particles(out[:-1]) + "的"
    for _ in range(3):  # bounded: each pass strips one layer
        cut = _ZH_PARTICLE_EDGE.sub("", out).strip()
        if cut == out or not cut:
            break
        out = cut
    return out or value


def tidy_value(value: str, lang: str) -> str:
    """A value as memory keeps it: Chinese particles off its edges, English filler off
    its ends.

    Example:
        >>> tidy_value("海鲜也", "zh"), tidy_value("tea, please", "en")
        ('海鲜', 'tea')
    """
    value = value.strip(" \t,，.。!！:：;；\"'“”‘’")
    if lang == "zh":
        return strip_particles(value)
    value = re.sub(
        r"(?:,?\s+(?:please|pls|thanks|thank you|ok\??|okay\??|tbh|honestly|lol|haha|though))+$",
        "",
        value,
        flags=re.I,
    )
    return value.strip(" ,.")


EN_REPORTED = gated(
    r"\b(?:says|said|told (?:me|us|him|her|them)|tells (?:me|us)|asked (?:me|us)|"
    r"according to|keeps? saying|always says|wrote|quote|the sign|the rule(?:s)? (?:is|are|say)|"
    r"(?:wants|requires|insists|makes us|tells us|asks us|expects us|expects everyone)|"
    r"(?:my|our|the) (?:boss|manager|company|school|team|teacher|doctor|mom|dad|wife|husband|"
    r"partner|policy|client)\s+(?:wants|requires|says|insists|prefers|likes|hates|always|never))\b",
    re.I,
)
ZH_REPORTED = gated(
    r"(?:他|她|他们|她们|老师|老板|领导|医生|妈妈|爸爸|我妈|我爸|同事|朋友|经理|别人|大家|"
    r"有人|网上|书上)[^，,。]{0,6}?(?:说|讲|告诉|叮嘱|嘱咐|要求|让|叫)"
    r"|(?:^|[，,。])\s*(?:据说|听说)"
    r"|(?:公司|学校|老板|领导|部门|单位|老师|医生|上面|客户|规定|我们组|团队)[^，,。]{0,6}?(?:规定|"
    r"要求|让我们|要我们|让我|要我|说|想|希望|打算|计划|准备)"
)
EN_HYPOTHETICAL = gated(
    r"\b(?:imagine|suppose|supposing|pretend|what if|wonder|hypothetically|in theory|"
    r"would you|could you|can you|will you|do you|did you|are you|were you|if I were|"
    r"if you were|I wish)\b",
    re.I,
)
ZH_HYPOTHETICAL = gated(
    r"假如|假设|想象|万一|倘若|假使|要是我是|如果我是|你会不会|你能不能|能不能|可不可以|是不是"
)


_ZH_QUESTION_END = re.compile(r"(?:吗|呢|么)[。.!！]?$")
#: 适不适合, 要不要, 有没有; not the idiom "动不动就"
_ZH_A_NOT_A = re.compile(r"([\u4e00-\u9fff])[不没]\1(?!就)")


#: A question said with no mark, asking which is good ("周末看啥电影好", "去哪玩比较好",
#: "中午吃啥好纠结"); not "什么都好" (anything is).
_ZH_WHICH_IS_GOOD = re.compile(
    r"(?:啥|什么|哪[个家种里儿]?|怎么)(?![都也])[\u4e00-\u9fff]{0,3}?(?:好|合适|比较好|划算)"
    r"(?:呢|啊|呀|纠结|难选)?[。.!！~～]*$"
)


def is_question(clause: str) -> bool:
    """Whether a clause asks: a question mark, a Chinese question particle, an A-not-A
    form, or a question of which is good said with no mark.

    Example:
        >>> is_question("周末看啥电影好"), is_question("我觉得什么都好"), is_question("有没有推荐")
        (True, False, True)
    """
    s = clause.rstrip()
    if s.endswith(("?", "？")):
        return True
    if s.isascii():  # the Chinese forms below need Chinese characters
        return False
    return bool(_ZH_QUESTION_END.search(s) or _ZH_A_NOT_A.search(s) or _ZH_WHICH_IS_GOOD.search(s))


_ZH_SAID_BY = re.compile(
    r"^(?P<who>[^，,。我你]{1,8}?)(?:上|里|中)?(?:说|讲|(?<![缩描改编抄手填大小速书特听默])写[着道的]|规定|要求|"
    r"提到|建议|推荐|"
    r"认为)"
)


def reported_zh(s: str) -> bool:
    """Whether a Chinese clause reports someone else's words ("菜谱上说…", "医生建议…")."""
    m = _ZH_SAID_BY.match(s)
    if m is None:
        return False
    who = m["who"]
    # an imperative ("别再推荐…", "不许…") names no one who said it
    # nor does a condition ("只要是推荐餐厅，…") or a manner of saying ("时间都按北京时间说")
    return not re.match(
        r"请|你|用|给|跟|对|把|按|直接|先|就|都|回答|回复|别|不要|不许|不准|千万|再|也|少|多|"
        r"只要|如果|要是|每当|每次|每回|以后|今后|记得|所有|顺便|另外|当|凡是|一旦|遇到|碰到",
        who,
    ) and not re.search(
        r"用|给|跟|对|时候|时$|之前|以前|之后|(?:直|明|先|再|就|都|要|别|多|少)$|"
        r"(?:按|按照|以)[^，,。]{1,8}$",
        who,
    )  # "推荐餐厅的时候别推荐…"


def split_clauses(sentence: str) -> list[tuple[int, str]]:
    """A sentence's clauses with their offsets: cut at ``;``, a dash, a colon and the
    commas before "so/and/but…" in English; at every comma, colon and ``；`` in Chinese."""
    if is_cjk_text(sentence):
        cut = r"[;；，,：:]"
    else:
        cut = r";(?![A-Za-z0-9])|\s[-—–]+\s|:\s|,\s+|\s+(?=(?:but|so|because|cause|'cause|cuz)\s)"
    parts: list[tuple[int, str]] = []
    start = 0
    for m in re.finditer(cut, sentence):
        parts.append((start, sentence[start : m.start()]))
        start = m.end()
    parts.append((start, sentence[start:]))
    return [(s, t) for s, t in parts if t.strip()]


#: A space between two Chinese words (or a closing and an opening quote or bracket): a
#: message typed without punctuation ends a clause there ("我不爱喝白开水 没味道
#: 一般都泡点柠檬片"); one beside a Latin word or a number does not ("我一直用 vim").
ZH_GAP = re.compile(r"(?<=[\u4e00-\u9fff”」』）)])[ \t\u3000]+(?=[\u4e00-\u9fff“「『（(])")


def spaced_clauses(text: str) -> list[str]:
    """The clauses of a Chinese ``text`` typed with spaces for commas (a chat habit), or
    ``[text]`` when it has none (English: always ``[text]``).

    Example:
        >>> spaced_clauses("我不爱喝白开水 没味道 一般都泡点柠檬片")
        ['我不爱喝白开水', '没味道', '一般都泡点柠檬片']
        >>> spaced_clauses("我一直用 vim"), spaced_clauses("I like tea")
        (['我一直用 vim'], ['I like tea'])
    """
    if not is_cjk_text(text):
        return [text]
    return [t for t in ZH_GAP.split(text) if t.strip()] or [text]


#: A choice for now only ("this time", "tonight", "这次"): no lasting taste.
NOW_ONLY = gated(
    r"\b(?:this time|tonight|today|for now|right now|just this once|this once|for this one|"
    r"in the mood for|feel like having|craving|(?:answer|reply|response) only|"
    r"for this (?:answer|reply|response|one|email|message|question|task|draft|post)|"
    # a scope word saying "only this one": "for this summary only", "only for this chart"
    r"for this (?:\w+ ){1,2}only|only for this \w+|just for this \w+)\b|"
    r"这次|这回|今天|今晚|现在先|这一次|想来点|就这一次|仅此一次|就这一?[封篇条段份]|这一?封|"
    r"(?:就|只|仅)(?:这|那)一?[封个篇次份段条张]",
    re.I,
)


#: Jest and sarcasm: what the message says is not meant.
JOKE = gated(
    r"🙄|😜|😏|😒|🙃|开玩笑|开个玩笑|说笑的|逗你的?|\bjk\b|just kidding|\bkidding\b|/s\b|"
    r"yeah right|^\s*oh sure\b|nothing but .{1,30} forever|只吃.{1,8}了.{0,12}(?:😂|🤣|哈哈)|"
    # a sarcastic opener before a strong liking: "Yeah, because I just adore Mondays"
    r"^\s*(?:yeah|sure|oh(?: yeah| great| joy)?|right|great),?\s+(?:because\s+)?I\s+(?:just\s+|"
    r"totally\s+|really\s+|absolutely\s+)?(?:love|adore|enjoy|live for)\b|"
    # …and in Chinese, a yes said three times: "对对对 我超爱等客服"
    r"^\s*(?:对对对|是是是|好好好)[，,\s]*我?(?:超|最|特别|真的|可)?(?:爱|喜欢)|"
    # a tag taking back what was just said: "I love Mondays, said no one ever", "…，才怪"
    r"\bsaid no ?(?:one|body) ever\b|(?:^|[，,。.!！\s])才怪(?:呢|咧|啦)?[!！。.~～]*\s*$",
    re.I,
)


#: The turn back to earnest: what comes before it was said in jest, what follows is meant
#: ("我最爱加班了😅 好了说正经的，我对青霉素过敏", "lol I love Mondays. But seriously, I'm vegan").
SERIOUS = re.compile(
    r"(?:说正经的|言归正传|不开玩笑了|\b(?:but seriously|(?:all )?jokes? aside)\b)[\s,，、:：]*",
    re.I,
)


#: A sentence whose subject is someone other than the user: "We…", "My team…", "他们…",
#: "隔壁组的人…", "团队…", "同学的论文…".
_OTHER_EN = re.compile(
    r"^\s*(?:(?:so|and|but|also|well|oh|ok(?:ay)?|yeah|now)[,\s]+)?(?:we|we're|we've|we'll|he|"
    r"she|they|they're|the team|my team|our|his|her|their|everyone|everybody|people|"
    r"(?:my|the) (?:wife|husband|partner|friend|sister|brother|mom|mum|dad|mother|father|boss|"
    r"manager|son|daughter|kids?|colleague|coworker|roommate|teacher|doctor|girlfriend|boyfriend)|"
    r"[A-Z][a-z]+ (?:and [A-Z][a-z]+ )?(?:says|said|likes|loves|prefers|hates|always|never|only|"
    r"wants|thinks|can't|doesn't))\b",
    re.I,
)
#: The people a user speaks of by how they are related ("闺蜜", "我对象", "发小"): a
#: sentence with one of them as subject is about them.
PEOPLE_ZH = (
    r"同学|同事|室友|舍友|老板|领导|朋友|闺蜜|发小|哥们|对象|男朋友|女朋友|男友|女友|家人|老婆|老公|"
    r"孩子|女儿|儿子|邻居|爷爷|奶奶|外婆|外公|姥姥|姥爷|表[哥姐弟妹]|堂[哥姐弟妹]"
)
_OTHER_ZH = re.compile(
    r"^\s*(?:我们|咱们|他|她|它|他们|她们|大家|团队|公司|客户|用户们|别人|隔壁|"
    rf"我?(?:{PEOPLE_ZH})|我(?:妈|爸|哥|姐|弟|妹|家娃)|"
    r"(?![\u4e00-\u9fff]{0,3}(?:在|去|到|回|从))[\u4e00-\u9fff]{0,4}(?:组|部门|团队|公司)的?(?:人|同事)?|[\u4e00-\u9fff]{1,3}的(?:论文|项目|婚礼|"
    r"航班|工作))"
)


_WE = re.compile(
    r"^\s*(?:(?:so|and|but|also|well|oh|ok(?:ay)?|yeah|now)[,\s]+)?(?:we|we're|we've|we'll|our|"
    r"我们|咱们|我们家)\b|^\s*(?:我们|咱们)",
    re.I,
)


#: A clause with the user in it, as subject or object ("I'm a sucker for…", "they make me
#: anxious", "我听了只会焦虑"): the user speaks of themselves there.
_USER_IN = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me)\b|我(?!们)")


def speaks_of_user(clause: str) -> bool:
    """Whether the user is in ``clause``, as subject or object ("I…", "…make me…", "我…")."""
    return bool(_USER_IN.search(clause))


def opens_on_other(clause: str) -> bool:
    """Whether ``clause`` opens on someone other than the user as its subject ("We…",
    "the wife loves…", "大家都爱听…"), whatever its later clauses say."""
    if is_cjk_text(clause):
        return bool(_OTHER_ZH.match(clause))
    return bool(_OTHER_EN.match(clause))


def other_subject(sentence: str, *, we: bool = True) -> bool:
    """Whether a sentence is about someone other than the user (its subject says so, and
    no later clause of it speaks of the user: "We always end up at the Italian place, I'm
    a sucker for carbonara" is about the user too); ``we``: whether "we"/"our"/"我们"
    count as others (they do for tastes; for where the user lives or when their wedding
    is they do not).

    Example:
        >>> other_subject("We changed the auth middleware."), other_subject("I run daily.")
        (True, False)
        >>> other_subject("We always eat out, I'm a sucker for pho")
        False
        >>> other_subject("隔壁组的人都用浅色主题。"), other_subject("我一直用 vim。")
        (True, False)
        >>> other_subject("今天在公司被气死了")  # where the user was, not who did it
        False
    """
    if not we and _WE.match(sentence):
        return False
    if not opens_on_other(sentence):
        return False
    return not any(speaks_of_user(c) for _, c in split_clauses(sentence)[1:])


#: Where a liked thing's value runs into a clause of its own after a comma: a subject
#: ("coffee, it wakes me up", "paper books, I listen…"), a verb of its own ("phone calls,
#: text is easier"), a request ("waiting, give me a minute") or an abbreviation the
#: sentence splitter cut ("tea, e" of "tea, e.g. jasmine").
_TASTE_RUNS_ON = re.compile(
    r"\s*[,;]\s*(?=(?:it|it's|that|this|they|they're|which|i|i'm|i've|i'd|i'll|we|you|he|she|"
    r"there|give me|gimme|let me|tell me|e|eg|e\.g|i\.e|ie|etc)\b|[^,;]*?\b(?:is|are|was|were|"
    r"makes?|gets?|feels?)\b|[^,;]*?\w'(?:s|re)\b)",
    re.I,
)


def taste_in_clause(value: str) -> str:
    """A liked thing ``value`` up to where a clause of its own starts (a list of things
    stays whole; in Chinese, a space between two characters ends the clause).

    Example:
        >>> taste_in_clause("waiting, give me a minute"), taste_in_clause("tea, e")
        ('waiting', 'tea')
        >>> taste_in_clause("phone calls, text is so much easier")
        'phone calls'
        >>> taste_in_clause("tea, coffee and cocoa")
        'tea, coffee and cocoa'
        >>> taste_in_clause("看综艺 吵吵闹闹的")
        '看综艺'
    """
    if is_cjk_text(value):  # "看综艺 吵吵闹闹的": a space between characters ends a clause
        return spaced_clauses(value)[0].strip() or value
    if "," not in value and ";" not in value:
        return value
    return _TASTE_RUNS_ON.split(value, maxsplit=1)[0].strip() or value
