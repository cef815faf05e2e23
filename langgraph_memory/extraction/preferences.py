"""Preferences recognised by their form, in English and Chinese.

Beside the likes and dislikes the rules read ("I love…", "我不喜欢…"), a taste is said
by **comparison** ("I'd take tea over coffee", "Podcasts > music", "X比Y好喝",
"宁可X也不Y", "与其X不如Y"), by **habit** ("Every morning I have a flat white", "Been
using vim for 12 years", "我一般不吃早饭", "星巴克我每次都点馥芮白", "黑色运动鞋我每年都买同一款"),
by **choice** ("my go-to is X", "I always go for X", "X is not my thing", "X是我的首选",
"我是咖啡控", "还得是X"), and by **opinion or feeling** ("X is overrated", "X makes me
happy", "X我吃不来", "X喝了睡不着", "无辣不欢").

A habit the user states about themselves is ``explicit`` whether it is categorical
("always", "every", "only", "每次", "一直") or hedged ("usually", "mostly", "一般", "平时"):
the user said it, so it rides along in the profile like any stated taste. Only the
dispreferred side of a comparison is ``inferred`` (never said, only implied). Someone
else's taste ("my roommate can't stand jazz",
"我女儿喜欢猫"), a habit that ended ("I used to…", "以前…戒了"), a choice for now only
("tonight", "这次") and hypotheticals give none.

Example:
    >>> preferences_of("I'd take tea over coffee.")
    [('tea', 1, 'explicit'), ('coffee', -1, 'inferred')]
    >>> preferences_of("我宁可走路也不坐公交。")
    [('走路', 1, 'explicit'), ('坐公交', -1, 'inferred')]
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.attachment import attachment_of, restated
from langgraph_memory.extraction.clauses import (
    EN_HYPOTHETICAL,
    EN_REPORTED,
    NOW_ONLY,
    ZH_HYPOTHETICAL,
    ZH_REPORTED,
    is_question,
    opens_on_other,
    other_subject,
    reported_zh,
    spaced_clauses,
    speaks_of_user,
    split_clauses,
    tidy_value,
)
from langgraph_memory.extraction.cues import Cued, open_entries
from langgraph_memory.extraction.habits import ZH_PREF_BLOCK, en_habit, is_thing, zh_habit
from langgraph_memory.extraction.leanings import instead, leanings_of, refusal_of, specified
from langgraph_memory.extraction.leanings import restated as parted
from langgraph_memory.extraction.preference_forms_en import EN_FEELINGS, EN_PREFS
from langgraph_memory.extraction.preference_forms_zh import ZH_FEELINGS, ZH_PREFS
from langgraph_memory.extraction.spelling import plain_spelling
from langgraph_memory.extraction.stance import cleft_of, stance_of

__all__ = ["preferences_of"]


_EN_PREF_BLOCK = re.compile(
    r"\b(?:my|his|her|their|our)\s+(?:\w+\s+)?(?:says?|thinks?|likes?|prefers?)\b|"
    r"^(?:he|she|they|my (?:wife|husband|partner|friend|sister|brother|mom|dad|mother|father|"
    r"boss|son|daughter|kids?|colleague|roommate)\b|[A-Z][a-z]+\s+(?:(?:always|usually|never|only|"
    r"really)\b(?!\s+(?:is|isn't|are|aren't|was|wasn't|'s|\w+\s+me)\b)|(?:likes?|loves?|prefers?|hates?|"
    r"would|'d|says|thinks|enjoys?)\b))",
)


#: A hypothetical or a time that is over: no taste now ("以前…", "之前一直…后来换了").
_ZH_NOT_NOW = r"如果|要是|假如|以前|过去|曾经|小时候|之前|原来|以往|那时候|后来(?:换|改|不)"


#: A request to the assistant ("Cite this article in APA for me", "给我列五个周末去处"): a
#: task for now, not a taste (a choice said so, "give me X any day", is one).
_EN_REQUEST = re.compile(
    r"^(?:please\s+|can you\s+|could you\s+)?(?:cite|write|make|find|book|get|fix|send|translate|"
    r"summari[sz]e|draft|check|show|tell|list|order|buy|plan|create|draw|explain|rewrite|edit|"
    r"proofread|format|convert|calculate|look up|search|give)\b"
    r"(?!.*\b(?:any day|any ?time|every time|over|instead of|rather than)\b)",
    re.I,
)
_ZH_REQUEST = re.compile(r"^(?:请|麻烦你?|你)?(?:给我|帮我|替我|帮忙)")
#: A demonstrative and a measure word first: one particular thing ("那家店的…", "这部电影…").
_ZH_DEICTIC = re.compile(r"^(?:这|那)(?:一)?[家个碗杯次部本首件款位场顿道份辆间]")
#: A time that is over: what was liked then was an episode ("昨天那碗汤太难喝了").
_ZH_PAST = re.compile(r"昨天|前天|昨晚|上次|刚才|那天|上周|上个月|去年")
#: The patterns, each behind the gate of its own cues (:mod:`.cues`): a clause holding none
#: of a pattern's words skips its search.
_EN_PREFS_RX = [(Cued(rx), pol) for rx, pol in EN_PREFS]
_EN_FEELINGS_RX = [(Cued(rx), pol) for rx, pol in EN_FEELINGS]
_ZH_PREFS_RX = [(Cued(rx), pol, other) for rx, pol, other in ZH_PREFS]
_ZH_FEELINGS_RX = [(Cued(rx), pol) for rx, pol in ZH_FEELINGS]
#: "nothing beats X", "I avoid X": read before any comparison or habit.
_EN_FIRST = [
    (rx, pol) for rx, pol in _EN_FEELINGS_RX if re.search(r"nothing beats|avoid", rx.pattern)
]
#: Those first, then the comparisons and habits: one table, so its cue index is built once.
_EN_FIRST_PREFS = _EN_FIRST + _EN_PREFS_RX


#: "能不出门就不出门", "能不开会就不开会": what the user avoids whenever they can.
_ZH_AVOID = re.compile(r"能不(?P<x>[\u4e00-\u9fff]{1,4})就不(?P=x)")
#: No thing: a pronoun, a demonstrative, or a degree ("一点都吃不了": 一点 is how little).
_ZH_NO_THING = r"[你您他她它]们?|这个|那个|这样|那样|什么|哪个|一点儿?|一口|一下|半点|丝毫"


#: A Chinese thing named with a kind word after it ("爬山这种事", "榴莲这玩意儿"): the kind
#: word is no part of the thing (one before it may point at one thing: "这种天气").
_ZH_KIND_WORD = re.compile(
    r"(?<=.{2})(?:(?:这|那)(?:种|类|个)?(?:事情?|东西|玩意儿?)|(?:这|那)(?:种|类)|之类的?)$"
)


#: The user's body as the one who cannot bear something ("膝盖受不了", "我胃受不了"): a
#: reason, not a thing disliked.
_ZH_BODY = re.compile(
    r"我?的?(?:胃|肠胃|肚子|膝盖|腰|背|颈椎|脖子|眼睛|嗓子|喉咙|皮肤|头|牙|牙齿|腿|脚|心脏|身体)"
)


def preferences_of(clause: str) -> list[tuple[str, int, str]]:
    """``(value, polarity, source)`` of each preference ``clause`` states by comparison,
    habit or choice (the dispreferred side of a comparison is ``inferred``); a Chinese
    thing without the kind word it was named with ("爬山这种事" is 爬山).

    Example:
        >>> preferences_of("Every morning I have a flat white.")  # a categorical habit: stated
        [('have a flat white', 1, 'explicit')]
        >>> preferences_of("Mostly I listen to 90s hip hop while coding.")  # hedged, still said
        [('90s hip hop', 1, 'explicit')]
        >>> preferences_of("Spicy food is not my thing.")
        [('Spicy food', -1, 'explicit')]
        >>> preferences_of("比起米饭，我更喜欢面条。")
        [('面条', 1, 'explicit'), ('米饭', -1, 'inferred')]
        >>> preferences_of("If I liked jazz I'd go.")
        []
        >>> preferences_of("爬山这种事我真的不行")
        [('爬山', -1, 'explicit')]
    """
    found = _preferences_of(clause)
    if found and is_cjk_text(clause):
        found = [(_ZH_KIND_WORD.sub("", v) or v, pol, src) for v, pol, src in found]
        found = [f for f in found if not _ZH_BODY.fullmatch(f[0])]
        found = [(_zh_thing(clause, v), pol, src) for v, pol, src in found]
        found = [f for f in found if f[0]]
    elif found:  # "play it with headphones": what "it" is was said elsewhere, not here
        found = [f for f in found if not re.search(r"\b(?:it|them|they)\b", f[0], re.I)]
    return found


#: A verb said alone, with nothing after it: what it is done to is not there.
_ZH_BARE_VERB = re.compile(r"[用做吃喝看听玩穿去买点坐开抽碰要弄搞]")
#: An amount alone ("每月只要650"): a price or a count, not a thing liked.
_ZH_AMOUNT = re.compile(
    r"[\d０-９.,，万千百十两一二三四五六七八九零]+(?:块钱?|元|毛|分|个|次|小时)?"
)
#: The topic said before the user: "文档不全的库我基本不用" (what the verb is done to).
_ZH_TOPIC = re.compile(r"^(?P<t>[^，,。我你他她]{2,12}?)(?:呢|啊|吧)?[，,]?\s*我")


def _zh_thing(clause: str, value: str) -> str:
    """The thing a Chinese reading's value names, or ``""`` when it names none: a verb said
    alone is done to the topic before the user ("文档不全的库我基本不用": the libraries, not
    "用"), or to nothing said (no belief); an amount alone is none, nor is the degree of a
    concession ("再巧妙也不行": however clever, no — "巧妙" is no thing).

    Example:
        >>> _zh_thing("文档不全的库我基本不用", "用"), _zh_thing("平板布局必须做", "做")
        ('文档不全的库', '')
        >>> _zh_thing("现在每月只要650", "650"), _zh_thing("再巧妙也不行", "巧妙")
        ('', '')
        >>> _zh_thing("我不喝咖啡", "咖啡")
        '咖啡'
    """
    if _ZH_AMOUNT.fullmatch(value) or f"再{value}也" in clause:
        return ""
    if _ZH_BARE_VERB.fullmatch(value):
        topic = _ZH_TOPIC.match(clause.strip())
        return topic["t"] if topic else ""
    return value


def _preferences_of(clause: str) -> list[tuple[str, int, str]]:
    """:func:`preferences_of`, the kind words kept."""
    s = plain_spelling(clause.strip())
    pieces = spaced_clauses(s)
    if len(pieces) > 1:  # typed with spaces for commas: each clause read on its own
        return _spaced(s, pieces)
    if not s or is_question(s) or NOW_ONLY.search(s):
        return []
    if opens_on_other(s):  # "We…, I'm a sucker for X", "the wife loves X but I find them…"
        return _mine_after_others(s)
    zh = is_cjk_text(s)
    if zh:
        if (
            ZH_HYPOTHETICAL.search(s)
            or ZH_REPORTED.search(s)
            or ZH_PREF_BLOCK.match(s)
            or reported_zh(s)
        ):
            return []
        if re.search(_ZH_NOT_NOW, s) or _ZH_REQUEST.match(s):
            return []
        if (_ZH_PAST.search(s) or _ZH_DEICTIC.match(s)) and not re.search(
            r"我|每次|每天|一直|总是|经常|常常", s
        ):
            return []  # "昨天那碗汤太难喝了": one thing met once, not a kind
        avoid = _ZH_AVOID.search(s)  # "能不出门就不出门": avoided whenever it can be
        if avoid:
            return [(avoid["x"], -1, "explicit")]
        cleft = cleft_of(s) or refusal_of(s)  # "加班是我最讨厌的事", "榴莲我闻都不能闻"
        if cleft:
            return cleft
        stance = stance_of(s)  # the grammar of a stance before any single phrasing
        for _, (pattern, pol, other) in open_entries(_ZH_PREFS_RX, s):
            m = pattern.search(s)
            if m is None:
                continue
            if stance and not other:  # only a comparison says more (its other side)
                return stance
            g = m.groupdict()
            x = tidy_value(g.get("x") or g.get("x2") or g.get("x3") or "", "zh")
            if not x or re.fullmatch(_ZH_NO_THING, x):
                continue
            if _ZH_DEICTIC.match(x):  # "这个方案我接受不了": one particular thing, not a kind
                continue
            out = [(x, pol, "explicit")]  # stated by the user, hedged or not
            if other and m.group("y"):
                y = tidy_value(m.group("y"), "zh")
                if y:
                    out.append((y, -pol, "inferred"))
            return out
        for _, (pattern, pol) in open_entries(_ZH_FEELINGS_RX, s):
            m = pattern.search(s)
            x = tidy_value(m.group("x"), "zh") if m else ""
            x = (
                re.sub(r"^(?:吃|喝)(?=.{2})", "", x)
                if pol < 0 and m and "不(?P<x>" in m.re.pattern
                else x
            )
            if x and not re.match(_ZH_NO_THING + "|的|了", x):
                return stance or [(x, pol, "explicit")]
        return (
            stance
            or zh_habit(s)
            or attachment_of(s, True)
            or _restated(s, True)
            or leanings_of(s)  # "手机只用苹果", "我还是偏粤菜", "安卓用不惯"
        )
    if EN_HYPOTHETICAL.search(s) and not re.search(r"given the choice|if I had to", s, re.I):
        return []
    if re.search(r"\b(?:if|unless|suppose|used to|once|when I was)\b", s, re.I) and not re.search(
        r"given the choice|if I (?:had|have) to (?:choose|pick)|if it's up to me", s, re.I
    ):
        return []
    if EN_REPORTED.search(s) or _EN_PREF_BLOCK.search(s) or _EN_REQUEST.match(s):
        return []
    tried = _EN_TRIED.search(s)  # "tried Vim for a month and hated it": "it" is Vim
    if tried and is_thing(tried["x"], strict=True):
        return [(tidy_value(tried["x"], "en"), -1 if tried["bad"] else 1, "explicit")]
    # "nothing beats X", "I avoid X": said before any comparison or habit reads them
    first = _EN_FIRST
    for i, (pattern, pol) in open_entries(_EN_FIRST_PREFS, s):  # the others find nothing
        if (pattern, pol) in first:
            m = pattern.search(s)
            x = tidy_value(m.group("x"), "en") if m else ""
            x = re.sub(r"^(?:the|a|an|some|my)\s+", "", x, flags=re.I)
            if (
                x
                and is_thing(x, strict=False)
                and not re.fullmatch(r"it|them|that|this|those", x, re.I)
            ):
                return [(x, pol, "explicit")]
            continue
        i -= len(first)
        m = pattern.search(s)
        if m is None:
            continue
        x = tidy_value(m.group("x") or m.groupdict().get("x2") or "", "en")
        x = re.sub(r"^(?:the|a|an|some|my)\s+", "", x, flags=re.I) if i < 3 else x
        x = re.sub(r"^(?:give me|gimme)\s+(?:(?:a|an|the)\s+)?", "", x, flags=re.I)
        if not is_thing(x, strict=m.start("x" if m.group("x") else "x2") <= 2):
            continue
        if not x or re.match(
            r"(?:it|that|this|them|those|these|you|one|ones|so|too|what|which|much|more|less|"
            r"sure|know|think|mean|do|did|not|can't|cannot|nothing|no one|nobody|there|he|she|"
            r"they|we|I)(?:\s|$)",
            x,
            re.I,
        ):
            continue
        out = [(x, pol, "explicit")]  # stated by the user, hedged or not
        if "y" in m.re.groupindex and m.group("y"):
            y = tidy_value(m.group("y"), "en")
            y = re.sub(r"^(?:the|a|an|some|my)\s+", "", y, flags=re.I)
            if y:
                out.append((y, -pol, "inferred"))
        return out
    for _, (pattern, pol) in open_entries(_EN_FEELINGS_RX, s):
        m = pattern.search(s)
        if m is None:
            continue
        x = tidy_value(m.groupdict().get("x") or m.groupdict().get("x2") or "", "en")
        x = re.sub(r"^(?:honestly|really|just|the|a|an|some|my)\s+", "", x, flags=re.I)
        if (
            x
            and is_thing(x, strict=False)
            and not re.match(
                r"(?:it|that|this|them|you|he|she|they|we|I|there|what|which)(?:\s|$)", x, re.I
            )
        ):
            return [(x, pol, "explicit")]
    return (
        stance_of(s)
        or _restated(s, False)
        or en_habit(s)
        or attachment_of(s, False)
        or leanings_of(s)  # "jazz is what I put on when I work"
    )


#: The user tried something and then says how it went, "it" naming it: "(I) tried Spotify
#: for podcasts and hated it", "gave Wordle a go and loved it".
_EN_TRIED = re.compile(
    r"(?:^|\bI\s+|,\s*)(?:finally\s+|once\s+|recently\s+)?(?:tried|tried out|gave)\s+"
    r"(?:out\s+)?(?:the\s+|a\s+|an\s+)?(?P<x>[^,;.!?]{1,40}?)(?:\s+a\s+(?:go|try|shot))?"
    r"(?:\s+(?:for|over)\s+(?:a|an|one|two|three|\d+|a few|a couple of)\s+\w+|\s+(?:last|this|"
    r"the other)\s+\w+|\s+(?:yesterday|recently|once|again))?\s*,?\s+"
    r"and\s+(?:(?:really|absolutely|totally|just|honestly)\s+)*(?:(?P<bad>hated|disliked|"
    r"couldn't stand|didn't like|did not like|loathed)|loved|liked|enjoyed|adored)\s+it\b",
    re.I,
)
#: Someone else's liking, said first: "the wife loves musicals", "everyone's obsessed with
#: true crime podcasts", "大家都爱听悬疑故事" (what a later "them"/"it" of the user's is).
_EN_OTHERS_TASTE = re.compile(
    r"\b(?:loves?|likes?|adores?|enjoys?|swears? by|raves? about|can't get enough of|(?:is|are|"
    r"'s|'re)\s+(?:\w+\s+)?(?:obsessed with|into|crazy about|mad about|big on))\s+"
    r"(?:the\s+|a\s+|an\s+)?(?P<x>[^,;.!?]+?)\s*$",
    re.I,
)
_ZH_OTHERS_TASTE = re.compile(
    r"(?:喜欢|爱|迷|追|热衷于?)(?:[看听吃喝玩](?=[^，,。]{2}))?(?P<x>[^，,。]{1,10})$"
)
_EN_LEAD = re.compile(
    r"^\s*(?:(?:but|and|yet|though|while|whereas|honestly|personally|tbh|frankly|me)[,\s]+)+", re.I
)
_EN_BACK = re.compile(r"\b(?:it|them|they|those|these)\b", re.I)


def _mine_after_others(s: str) -> list[tuple[str, int, str]]:
    """The tastes of the user's own clauses in a sentence opening on someone else ("We
    always end up at the Italian place, I'm a sucker for carbonara"); a "them"/"it" there
    (a dropped topic, in Chinese) is what the other one was said to like ("the wife loves
    musicals but honestly I find them unbearable": musicals, disliked)."""
    zh = is_cjk_text(s)
    parts = [c for _, c in split_clauses(s)]
    m = (_ZH_OTHERS_TASTE if zh else _EN_OTHERS_TASTE).search(parts[0])
    x = tidy_value(m["x"], "zh" if zh else "en") if m else ""
    out: list[tuple[str, int, str]] = []
    for c in parts[1:]:
        c = re.sub(r"^(?:但是?|可是|不过|而|可)", "", c) if zh else _EN_LEAD.sub("", c)
        if x and not zh:
            c = _EN_BACK.sub(x, c, count=1)
        elif not zh and _EN_BACK.search(c):
            continue  # "…can't stand jazz, so I play it…": a "it" of the other one's words
        if not speaks_of_user(c) or opens_on_other(c):
            continue  # the other one still, or someone new
        found = preferences_of(c) or (preferences_of(x + c) if x and zh else [])
        out += [f for f in found if f[0] not in {o[0] for o in out}]
    return out


def _spaced(s: str, pieces: list[str]) -> list[tuple[str, int, str]]:
    """The preferences of the clauses of a Chinese ``s`` typed with spaces for commas,
    each read on its own ("我不爱喝白开水 没味道 一般都泡点柠檬片"). A clause whose subject is
    someone else (or that reports their words) says nothing of the user, nor do the
    clauses after it that name no subject of their own ("他特别爱吃辣 天天吃火锅": he does)."""
    if ZH_PREF_BLOCK.match(s):
        return []
    out: list[tuple[str, int, str]] = []
    other = False
    for piece in pieces:
        if other_subject(piece) or reported_zh(piece):
            other = True
            continue
        if other and "我" not in piece:
            continue
        other = False
        found = preferences_of(piece)
        liked = [pol for _, pol, src in out if src == "explicit"]
        one = specified(piece) if not found and liked else None  # "…喜欢狗 尤其是金毛"
        found = found or ([(one, liked[-1], "explicit")] if one else [])
        pick = instead(piece) if not found and liked and liked[-1] < 0 else None
        found = found or ([(pick, 1, "explicit")] if pick else [])  # "… 还是纪录片好看"
        out += [p for p in found if p[0] not in {q[0] for q in out}]
    return out


def _restated(s: str, zh: bool) -> list[tuple[str, int, str]]:
    """The preferences of ``s`` restated in a shape the readers know (a fronted adverbial
    off, a dropped Chinese subject back; :func:`.attachment.restated`)."""
    for again in (restated(s, zh), parted(s) if zh else None):  # "我坐车喜欢…": 我喜欢…
        found = preferences_of(again) if again and again != s else []
        if found:
            return found
    return []
