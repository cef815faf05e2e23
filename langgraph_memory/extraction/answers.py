"""A choice said as the answer to the assistant's question ("高铁吧，我晕机" to "坐高铁还是飞机？").

The user's words carry the choice; the question only tells what was offered, so it is
read to find which of the user's words name an option. The belief's value is always
the user's own words (grounded in their message): the assistant's words never make a
belief, and an option the user did not pick is never recorded as disliked.

No answer is read when the question offers nothing to choose between ("X or Y?",
"X还是Y？"), asks about a fact or the past ("Did you mean the red one or the blue
one?", "是周一还是周二开的会？"), or when the answer picks for now only ("tea for now",
"这次坐高铁吧"), asks back, hedges ("either", "都行") or refuses ("neither", "都不要").

Example:
    >>> [(a.value, a.polarity) for a in chosen("你平时出行喜欢坐高铁还是飞机？", "高铁吧，我晕机")]
    [('高铁', 1)]
    >>> [(a.value, a.polarity) for a in chosen("Would you prefer a morning or an evening class?",
    ...                                        "evenings, I'm useless before 10am")]
    [('evenings', 1)]
    >>> chosen("Did you mean the red one or the blue one?", "the blue one")
    []
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.atoms import CONFIDENCE, MemoryAtom
from langgraph_memory.extraction.clauses import JOKE, NOW_ONLY, is_question, strip_particles
from langgraph_memory.extraction.extractor import normalize_key
from langgraph_memory.extraction.habits import is_thing
from langgraph_memory.extraction.leanings import specified

__all__ = ["answer_head", "chosen"]

#: The end of an answer's first part: a comma, a stop, a dash, an exclamation.
_EN_HEAD_END = re.compile(r"\s*(?:[,.;:!?\n]|\s[-—–]+\s|—|\s+(?:because|since|as|but)\s)")
_ZH_HEAD_END = re.compile(r"[，,。.；;：:！!？?\n~～]|\s")
#: Words around a pick that are not the pick: "for sure", "please", "definitely"…
_EN_FILLER = re.compile(
    r"^(?:oh|ah|hmm+|um+|uh|well|ok|okay|so|i think|i'd say|i guess|probably|definitely|"
    r"always|def|honestly|mostly|mainly|usually|the|a|an|some)\s+|"
    r"\s+(?:for sure|please|pls|definitely|obviously|of course|always|every time|for me|"
    r"all the way|i think|i guess|probably|thanks|thank you|then)$",
    re.I,
)
_ZH_FILLER = re.compile(
    r"^(?:嗯+|额|呃|哦|那|还是|当然是?|肯定是?|我选|选|要)|(?:吧|呀|啊|呗|哈|啦|好了|吧我觉得)$"
)
#: No pick: a hedge, a refusal, a yes or a no.
_EN_NO_PICK = re.compile(
    r"^(?:yes|yeah|yep|no|nope|nah|either|both|neither|none|whatever|not sure|no idea|"
    r"don't know|dunno|idk|depends|it depends|doesn't matter|not|never|no)\b",
    re.I,
)
_ZH_NO_PICK = re.compile(r"^(?:都|随便|无所谓|不知道|看情况|不|没|别|是的|对|好的?|行|可以|嗯)")
#: A question about a fact or the past, not about what the user likes.
_EN_FACT_QUESTION = re.compile(
    r"\b(?:did|was|were|has|had|mean|meant|is it|is that|is the|are they|are those)\b",
    re.I,
)
_ZH_FACT_QUESTION = re.compile(
    r"了[^还]*还是|[^还]*过[^还]*还是|是不是|是哪|有没有|还是说|^[^你您]*是[^还你您]*还是|"
    r"昨天|前天|昨晚|上次|刚才|上周|上个月|去年"
)
#: An interjection before the answer: "嗯，煎饼吧", "Oh, tea".
_INTERJECTION = re.compile(
    r"^(?:嗯+|额|呃|哦|噢|好|行|oh|ah|hmm+|um+|uh|well|ok|okay|so)\s*[，,]\s*", re.I
)
_EN_TOKEN = re.compile(r"[a-z0-9][a-z0-9'-]*")
#: A question asking what the user likes, lastingly: a favourite, a preference, a habit.
_EN_TASTE_QUESTION = re.compile(
    r"\b(?:favou?rites?|prefer(?:red)?|go-to|like best|(?:usually|normally|typically|generally|"
    r"tend to|always)\b[^?]*\b(?:go for|get|have|order|pick|choose|drink|eat|listen to|"
    r"watch|read|play|use|wear|like)|what (?:kind|sort|type|style) of\b[^?]*\b(?:like|enjoy|"
    r"go for|prefer|into))\b|"
    # what the user habitually does, whatever the verb: "What do you usually reach for?"
    r"^\W*what\s+(?!time|day|date|year|month)(?:\w+\s+){0,3}?(?:do|would)\s+you\s+(?:usually|"
    r"normally|typically|generally|tend to|always)\b",
    re.I,
)
#: The user is the one asked about ("do you…", "your favourite"; not "does your wife…").
_EN_TO_YOU = re.compile(
    r"\b(?:do|are|would|have|will)\s+you\b|\byour\s+(?:favou?rite|go-to|preferred|usual)\b|"
    r"\byou\s+(?:usually|normally|typically|generally|always|prefer|like|tend)\b",
    re.I,
)
#: …and in Chinese: a favourite, a usual choice, a taste (with a word asking which).
_ZH_TASTE_QUESTION = re.compile(
    r"(?:最喜欢|最爱|喜欢|爱|偏好|首选|平时|一般|通常|常)[^？?]{0,8}(?:什么|哪|啥|怎样|怎么样)|"
    r"(?:什么|哪种|哪类|啥)[^？?]{0,6}(?:口味|风格|类型)"
)
#: A head that answers nothing: no idea, a think-about-it, a laugh.
#: …or a "for sure" (agreeing, not naming), or a time or place phrase ("During Thanksgiving").
_EN_NO_THING = re.compile(
    r"^(?:good question|hard to say|tough (?:one|call)|hard one|let me think|hmm+|lol|haha\w*|"
    r"nothing|none|anything|everything|whatever|all of them|any|for sure|sure|definitely|"
    r"absolutely|of course|totally|exactly|indeed|right|true|same|me too|agreed|yup|yes|no|"
    r"during|in|on|at|after|before|when|while|since|by|from|to|with|without|around|about|"
    r"last|this|next|every)\b",
    re.I,
)
_ZH_NO_THING = re.compile(
    r"^(?:不知道|说不好|难说|看心情|没有|没啥|没什么|什么都|啥都|哈哈|嗯|当然|肯定|必须|那必须|"
    r"好的|可以|没问题|是的|对的|在|当|每次|每当|从|上次|这次)"
)


def _names_thing_en(head: str) -> bool:
    """Whether an English answer's head names a thing (not a yes, a no, a shrug)."""
    return not _EN_NO_THING.match(head) and is_thing(head, strict=True)


def _names_thing_zh(head: str) -> bool:
    """Whether a Chinese answer's head names a thing (not a yes, a no, a shrug, a verb
    alone: "喝" to "你平时喝茶吗？")."""
    return len(head) >= 2 and not _ZH_NO_THING.match(head)


#: At most this many words (characters, in Chinese) in the part that picks.
_EN_MAX_WORDS = 5
_ZH_MAX_CHARS = 8


def answer_head(answer: str) -> str | None:
    """The first part of ``answer`` if it is short enough to be a pick, else ``None``
    (cheap: the question is only fetched when there is one).

    Example:
        >>> answer_head("普洱吧，绿茶太寡淡了"), answer_head("green tea, black is too bitter")
        ('普洱', 'green tea')
    """
    text = _INTERJECTION.sub("", answer.strip())
    if not text or "?" in text or "？" in text:
        return None  # asked back: no pick
    if is_cjk_text(text):
        head = _ZH_HEAD_END.split(text, maxsplit=1)[0]
        for _ in range(2):
            head = _ZH_FILLER.sub("", head)
        head = strip_particles(head)
        ok = 0 < len(head) <= _ZH_MAX_CHARS and not _ZH_NO_PICK.match(head) and "我" not in head
        return head if ok else None
    head = _EN_HEAD_END.split(text, maxsplit=1)[0].strip()
    for _ in range(3):
        head = _EN_FILLER.sub("", head).strip()
    words = head.split()
    if not words or len(words) > _EN_MAX_WORDS or _EN_NO_PICK.match(head):
        return None
    if re.match(r"(?:i|i'm|i'd|i'll|you|it|it's|that|this|we|they|he|she|my)\b", head, re.I):
        return None  # a sentence of its own, not a pick
    return head


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _offered_en(question: str) -> list[str]:
    """The sentences of ``question`` that offer a choice ("… X or Y?"), lower-cased."""
    return [
        sentence.lower()
        for sentence in re.findall(r"[^.!?\n]*\?", question)
        if re.search(r"\bor\b", sentence, re.I) and not _EN_FACT_QUESTION.search(sentence)
    ]


def _offered_zh(question: str) -> list[str]:
    """The sentences of ``question`` that offer a choice ("X还是Y？")."""
    return [
        sentence
        for sentence in re.findall(r"[^。！!？?\n，,]*[？?]", question)
        if "还是" in sentence and not _ZH_FACT_QUESTION.search(sentence)
    ]


def _picks(head: str, offered: str) -> bool:
    """Whether every word of ``head`` is in ``offered`` and one names one option only."""
    said = {_stem(w) for w in _EN_TOKEN.findall(offered)}
    words = [_stem(w) for w in _EN_TOKEN.findall(head.lower())]
    if not words or any(w not in said for w in words):
        return False
    sides = [{_stem(t) for t in _EN_TOKEN.findall(s)} for s in re.split(r"\bor\b", offered)]
    return any(sum(w in side for side in sides) == 1 for w in words)


def _asks_taste_en(question: str) -> bool:
    """Whether a sentence of ``question`` asks the user what they like, lastingly
    ("Do you have a favourite?", "What kind of wine do you usually go for?")."""
    return any(
        _EN_TASTE_QUESTION.search(q) and _EN_TO_YOU.search(q)
        for q in re.findall(r"[^.!?\n]*\?", question)
        if not _EN_FACT_QUESTION.search(q) and not NOW_ONLY.search(q)
    )


def _asks_taste_zh(question: str) -> bool:
    """Whether a sentence of ``question`` asks the user (你) which thing they like,
    lastingly ("你最喜欢什么茶？", "你平时一般听什么歌？"); not a yes/no question."""
    return any(
        re.search(r"[你您]", q)
        # "你们平时喜欢玩什么": the user among those asked; not "你们公司…" (theirs)
        and not re.search(r"[他她它]|你们(?!(?:平时|一般|通常|都|最|更|还)*(?:喜欢|爱))", q)
        and _ZH_TASTE_QUESTION.search(q)
        and not _ZH_FACT_QUESTION.search(q)
        and not NOW_ONLY.search(q)
        for q in re.findall(r"[^。！!？?\n]*[？?]", question)
    )


def chosen(question: str, answer: str) -> list[MemoryAtom]:
    """The preference ``answer`` states by picking one of the options ``question`` (the
    assistant's message before it) offers, or by naming a thing when ``question`` asks
    what the user likes ("Do you have a favourite?" "Oh definitely sencha."), in the
    user's words; none when it picks nothing offered.

    Args:
        question: The assistant's message the user answers.
        answer: The user's message.

    Returns:
        At most one liking, its value and text from ``answer``.
    """
    head = answer_head(answer)
    if head is None or is_question(answer) or NOW_ONLY.search(answer) or JOKE.search(answer):
        return []
    zh = is_cjk_text(answer)
    if zh:
        offered = [q for q in _offered_zh(question) if head in q]
        picked = len(offered) == 1 and sum(head in s for s in offered[0].split("还是")) == 1
        if not picked and not (
            not _offered_zh(question) and _asks_taste_zh(question) and _names_thing_zh(head)
        ):
            return []  # nothing offered, or named on both sides: no pick
    elif not any(_picks(head, q) for q in _offered_en(question)) and not (
        not _offered_en(question) and _asks_taste_en(question) and _names_thing_en(head)
    ):
        return []
    start = answer.find(head)
    span = answer[start : start + len(head)] if start >= 0 else head
    picks = [span]
    narrower = _narrowed(answer[start + len(head) :] if start >= 0 else "", zh)
    if narrower and narrower.casefold() != span.casefold():
        picks.append(narrower)  # "white, specifically a dry Riesling": the Riesling too
    return [
        MemoryAtom(
            kind="preference", subject="user", key=normalize_key(v), value=v, polarity=1,
            source="explicit", confidence=CONFIDENCE["explicit"], text=answer.strip(),
            language="zh" if zh else "en",
        )
        for v in picks
    ]  # fmt: skip


def _narrowed(rest: str, zh: bool) -> str | None:
    """The thing the part of an answer right after its pick singles out of it ("茶！尤其是
    铁观音", "Dry reds, mostly Rioja"), if it does.

    Example:
        >>> _narrowed(", specifically a dry Riesling, I find reds too heavy", False)
        'dry Riesling'
        >>> _narrowed("！尤其是铁观音", True), _narrowed(", I find reds too heavy", False)
        ('铁观音', None)
    """
    part = re.match(r"\s*[,，。.;；:：!！—–-]*\s*[^,，。.;；!！?？]*", rest)
    one = specified(part.group().strip()) if part else None
    if one is None or (not zh and not is_thing(one, strict=True)):
        return None
    if re.search(r"\bones?$", one, re.I):  # "mostly Dutch ones": a kind of the pick, no name
        return None
    return one
