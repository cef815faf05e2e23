"""The lexicon of the rule-based extractor: patterns for English and Chinese.

Each :class:`Rule` is a regular expression over one sentence with a value group
``v`` (and optionally a key group ``k``, a subject group ``s`` and a negation
group ``neg``). Rules are tried in the order of :data:`RULES`; a match that
overlaps an earlier one is skipped, so specific rules (hedged negations,
blockers) come before general ones. A rule with kind ``""`` is a *blocker*: it
claims its text and yields nothing ("I'm not sure I like...", "我以前喜欢...").

Example:
    >>> [r.key for r in RULES if r.kind == "fact" and r.lang == "zh"][:3]
    ['name', 'preferred_name', 'name']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "Rule",
    "RULES",
    "KIN_EN",
    "KIN_ZH",
    "SINGLE_VALUED_KEYS",
    "PROFILE_KEYS",
]

#: Fact keys that hold one value at a time: a new value supersedes the old one.
SINGLE_VALUED_KEYS = frozenset(
    {"name", "preferred_name", "location", "hometown", "employer", "occupation", "age"}
)
#: Fact keys that describe the user and belong in the profile layer.
PROFILE_KEYS = SINGLE_VALUED_KEYS | {"allergy", "diet"}


KIN_EN = (
    "best friend|friend|sister|brother|mother|mom|mum|father|dad|wife|husband|partner|"
    "boyfriend|girlfriend|son|daughter|boss|manager|colleague|coworker|co-worker|roommate|"
    "cousin|aunt|uncle|grandma|grandpa|grandmother|grandfather|dog|cat|neighbou?r|teacher|"
    "mentor|fianc[ée]e?"
)
KIN_ZH = (
    "好朋友|男朋友|女朋友|妈妈|母亲|爸爸|父亲|老婆|妻子|老公|丈夫|对象|儿子|女儿|哥哥|姐姐|"
    "弟弟|妹妹|朋友|同事|老板|领导|经理|室友|表哥|表姐|表弟|表妹|奶奶|爷爷|外婆|外公|狗|猫|"
    "邻居|老师|导师"
)

# Value groups: lazy, ending at the sentence end or a clause boundary.
# (a point between digits is a decimal or a version: "Python 3.12", "2.5 hours")
_V = (
    r"(?P<v>(?:[^.!?;\n]|(?<=\d)\.(?=\d)){1,80}?)(?=\s*$|\s*(?:[!?;\n]|\.(?!\d))|"
    r",\s*(?:but|and|because|so|which|though|"
    r"although|while)\b|\s+(?:but|because|although|though|so that|whereas|unless|and (?:i|we|"
    r"my|he|she|they)\b))"
)
_VZ = (
    r"(?P<v>[^，,。.!！?？;；\n]{1,40}?)"
    r"(?=\s*$|[，,。.!！?？;；\n]|但|不过|可是|因为|所以|而且|并且)"
)
_NAME = r"(?P<v>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})"
_ZNAME = r"(?P<v>[\u4e00-\u9fff]{2,4}?)"
_ADV = (
    r"(?:(?:really|also|just|absolutely|totally|kind of|kinda|sort of|still|actually|do|truly|"
    r"genuinely|definitely|generally|much|very much|so|quite|honestly|personally)\s+){0,2}"
)
_ZADV = r"(?:也|还|很|非常|真的|特别|最|比较|挺|超|超级|一直|都|蛮|十分|还是|确实|尤其)*"
#: A thing said first, before the user ("啤酒我不爱喝"): no pronoun, no time it holds at.
_TOPIC_ZH = r"(?![今明昨每平周晚早])[^，,。.!！?？;；\n我你他她它这那]{1,10}?"
#: A verb of consuming that closes the clause, its object said before it.
_CLOSING_VERB_ZH = r"[吃喝看听玩用穿]?(?:了|啦)?(?=\s*$|[，,。.!！?？;；\n])"
_I = r"\bI(?:'m| am)"
_HABIT_EN = (
    r"(?:drink|eat|use|read|watch|listen to|play|wear|go|take|buy|order|cook|code|write|work|"
    r"run|bike|cycle|walk|travel|sleep|wake up|get up)\b"
)
_HABIT_ZH = r"(?:喝|吃|用|看|听|玩|穿|去|买|点|写|读|跑|骑|坐|睡|起)"


@dataclass(frozen=True)
class Rule:
    """One extraction pattern.

    Attributes:
        kind: The atom kind it yields, or ``""`` for a blocker.
        pattern: The compiled pattern (groups ``v``, optionally ``k``, ``s``, ``neg``).
        key: A fixed key; ``None`` derives it from the ``k`` group or the value.
        polarity: +1 or -1 (a matched ``neg`` group flips +1 to -1).
        source: ``explicit`` or ``inferred``.
        lang: ``en`` or ``zh``.
        compare: Split the value on "over / rather than / 而不是" into a liked and
            a (inferred) disliked part.
    """

    kind: str
    pattern: re.Pattern[str]
    key: str | None = None
    polarity: int = 1
    source: str = "explicit"
    lang: str = "en"
    compare: bool = False


def _en(kind: str, pattern: str, key: str | None = None, **kw: object) -> Rule:
    return Rule(kind, re.compile(pattern, re.I), key, lang="en", **kw)  # type: ignore[arg-type]


def _zh(kind: str, pattern: str, key: str | None = None, **kw: object) -> Rule:
    return Rule(kind, re.compile(pattern), key, lang="zh", **kw)  # type: ignore[arg-type]


_LIKE = r"(?:prefer|like|love|enjoy|adore|am fond of|'m fond of)"
#: What "moved to" names that is no place: a time (a meeting moved to Thursday) or a unit
#: of an organisation (moved to the data team); "moved to Berlin" stays a place.
_NOT_A_PLACE = (
    r"(?!(?:the\s+|a\s+|an\s+|next\s+|this\s+|our\s+|their\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:team|department|dept|group|division|unit|squad|org|desk|side|role|position|shift)\b)"
    r"(?!(?:next\s+|this\s+|the\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"tomorrow|tonight|noon|midnight|morning|afternoon|evening|week|weekend|month|year|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|q[1-4])\b|\d)"
)

RULES: list[Rule] = [
    # --- blockers and hedges (English) ------------------------------------------------------
    _en("", rf"\bnot (?:sure|certain)\s+(?:if|whether|that)?\s*I\s+{_ADV}{_LIKE}\s+{_V}"),
    _en("", rf"\bI\s+used to\s+{_ADV}{_LIKE}\s+{_V}"),
    _en(
        "preference",
        r"\bI(?:'d| would)\s+prefer\s+(?!(?:not|if|that|to know)\b)" + _V,
        compare=True,
    ),
    _en(
        "preference",
        r"\bI(?:'d| would)\s+(?:always|usually|generally|rather|sooner)\s+(?:go with|choose|pick|"
        r"opt for|use|take|have|stick with)\s+" + _V,
        compare=True,
    ),
    _en(
        "preference",
        r"\bI(?:'d| would)\s+(?:much\s+|far\s+|way\s+|a lot\s+)?(?:rather|sooner)\s+(?!not\b)" + _V,
        compare=True,
    ),
    _en("", r"\bI(?:'d| would)\s+(?:like|love|prefer|hate)\s+" + _V),
    _en(
        "preference",
        rf"{_I}\s+not\s+(?:a\s+|much of a\s+)?(?:big\s+|huge\s+)?fan\s+of\s+{_V}",
        polarity=-1,
    ),
    _en(
        "preference",
        rf"\bI\s+(?:don't|do not)\s+(?:think|believe|feel like)\s+(?:that\s+)?I\s+{_ADV}"
        rf"{_LIKE}\s+{_V}",
        polarity=-1,
        source="inferred",
    ),
    _en(
        "preference",
        rf"\bI\s+(?:think|guess|suppose|feel like)\s+(?:that\s+)?I\s+{_ADV}{_LIKE}\s+{_V}",
        source="inferred",
    ),
    # --- preferences (English) --------------------------------------------------------------
    _en(
        "preference",
        rf"\bI\s+{_ADV}(?:dislike|hate|detest|loathe|can't stand|cannot stand|can't bear|"
        rf"(?:don't|do not|no longer|never)\s+{_ADV}(?:like|love|enjoy|care for|want)|"
        rf"'m not (?:a )?(?:big |huge )?fan of|am not (?:a )?(?:big |huge )?fan of)\s+{_V}",
        polarity=-1,
    ),
    _en(
        "preference",
        rf"\bI\s+(?:never|no longer|don't|do not)\s+(?P<v>{_HABIT_EN}[^.!?;,\n]{{0,60}}?)"
        r"(?=\s*$|\s*[.!?;,\n]|\s+(?:but|because)\b)",
        polarity=-1,
    ),
    _en("preference", rf"\bI\s+{_ADV}prefer\s+{_V}", compare=True),
    _en(
        "preference",
        rf"\bI\s+{_ADV}(?:tend to\s+|try to\s+)?(?:avoid|steer clear of|stay away from)\s+{_V}",
        polarity=-1,
    ),
    _en("preference", rf"{_I}\s+(?:a\s+)?(?:big\s+|huge\s+|firm\s+|strong\s+)?believer in\s+{_V}"),
    _en(
        "preference",
        rf"(?:\bI\s+{_ADV}lean|{_I}\s+(?:kind of\s+|kinda\s+)?leaning)\s+(?:towards?|to)\s+{_V}",
        compare=True,
    ),
    _en(
        "preference",
        rf"{_I}\s+(?:much\s+|definitely\s+)?more of\s+an?\s+(?P<v>[\w+#.-]+(?:\s[\w+#.-]+)?)"
        r"\s+(?:person|guy|girl|kind of (?:person|guy|girl))\b",
    ),
    # the liked thing first: "Dark mode works best for me", "Readability matters to me"
    _en(
        "preference",
        r"^\s*(?:(?:honestly|personally|for me|to me|well|so|oh|yeah|yes|ok|okay|actually)"
        r"\s*,\s*)?(?P<v>[^.!?;\n]{1,60}?)\s+"
        r"(?:works?\s+(?:best|better|well|great)\s+for\s+me|"
        r"matters?\s+(?:a lot\s+|most\s+|more\s+|so much\s+)?to\s+me|(?:is|are)\s+"
        r"(?:very\s+|really\s+|super\s+|so\s+|extremely\s+|most\s+)?important\s+to\s+me|"
        r"(?:is|are)\s+(?:a\s+must|non-negotiable)(?:\s+for\s+me)?)\b",
    ),
    _en(
        "preference",
        r"\bI\s+(?:usually\s+|generally\s+|just\s+)?find\s+(?P<v>[^,.!?;\n]{1,40}?)\s+"
        r"(?:much\s+|far\s+|a lot\s+)?(?:easier|better|nicer|clearer|simpler|more\s+[a-z]+)\b",
    ),
    _en(
        "preference",
        rf"\bI\s+{_ADV}(?:like|love|enjoy|adore)\s+{_V}|{_I}\s+{_ADV}(?:fond of|into|"
        rf"(?:a )?(?:big |huge )?fan of)\s+{_V.replace('?P<v>', '?P<v2>')}",
    ),
    _en(
        "preference",
        rf"\bI\s+(?:usually|often|always|normally|typically|tend to|mostly|generally)\s+"
        rf"(?P<v>{_HABIT_EN}[^.!?;,\n]{{0,60}}?)(?=\s*$|\s*[.!?;,\n]|\s+(?:but|because)\b)",
        # a habit the user states is said, hedged or not: explicit
    ),
    # --- standing instructions (English) ----------------------------------------------------
    _en(
        "instruction",
        r"\b(?:from now on|from here on(?: out)?|going forward|in the future|henceforth|"
        r"for all future \w+|for the rest of (?:this|the|our) \w+|until I say otherwise)\b,?\s*"
        r"(?:please\s+)?(?:(?P<neg>don't|do not|never|stop|avoid|no more)\s+|always\s+)?" + _V,
    ),
    _en(
        "instruction",
        r"\b(?:whenever|every time|each time|any time)\s+(?:I|you|we)\s+[^,.!?;\n]{1,60}?,\s*"
        r"(?:please\s+)?(?:(?P<neg>don't|do not|never)\s+|always\s+)?" + _V,
    ),
    _en(
        "instruction",
        r"\bwhen\s+I\s+ask\s+(?:you\s+)?(?:about|for)\s+[^,.!?;\n]{1,60}?,\s*(?:please\s+)?"
        r"(?:(?P<neg>don't|do not|never)\s+|always\s+)?" + _V,
    ),
    _en(
        "instruction",
        r"^\s*(?:please\s+|and\s+)?(?:(?P<neg>never|don't ever|do not ever)|always)\s+" + _V,
    ),
    _en(
        "instruction",
        r"\b(?:for|in|with)\s+(?:any|every|each|all)\s+[^,.!?;\n]{1,50}?,\s*(?!\s)(?:please\s+)?"
        r"(?:(?P<neg>don't|do not|never)\s+|always\s+)?"
        r"(?!(?:I|we|it|the|this|that|they|he|she|there|you|my|our)\b)" + _V,
    ),
    _en(
        "instruction",
        r"^\s*(?:please\s+)?(?P<v>(?:start|begin|end|keep|format|write|put|give|use|add|"
        r"include|open|close)\s+[^.!?;\n]{0,40}?\b(?:every|each|all|your)\s+(?:answers?|"
        r"repl(?:y|ies)|responses?|code|snippets?|examples?|citations?|references?|sources?|"
        r"explanations?|summar(?:y|ies)|functions?|quer(?:y|ies)|scripts?|commit messages?)\b"
        r"[^.!?;\n]{0,60}?)(?=\s*$|\s*[.!?;\n])",
    ),
    # the rule said first, its lasting force last: "Be concise from here on."
    _en(
        "instruction",
        r"^\s*(?:please\s+)?(?P<v>(?!(?:I|we|it|the|this|that|they|he|she|there|my|our)\b)"
        r"[^,.!?;\n]{2,80}?),?\s+(?:from now on|from here on(?: out)?|going forward|"
        r"until I say otherwise)\s*(?:,?\s*please)?(?=\s*$|\s*[.!?;\n])",
    ),
    _en(
        "instruction",
        r"\bI\s+(?:want|need|'d like|would like)\s+(?:every|each|all)\s+(?:of\s+)?(?:your\s+)?"
        r"(?:answers?|repl(?:y|ies)|responses?|code samples?)\s+to\s+" + _V,
    ),
    _en(
        "instruction",
        r"\byou\s+(?:should|must|need to|have to)\s+(?:(?P<neg>never)|always)\s+" + _V,
    ),
    _en("instruction", r"^\s*(?:please\s+)?default to\s+" + _V),
    _en(
        "instruction",
        r"^\s*(?:please\s+)?(?:stop|quit)\s+(?P<v>(?:using|adding|putting|writing|including|"
        r"giving me|sending me|starting with|ending with)\s+[^.!?;\n]{1,60}?)"
        r"(?=\s*$|\s*[.!?;\n]|,\s*please)",
        polarity=-1,
    ),
    _en(
        "instruction",
        r"^\s*no more\s+(?P<v>[^,.!?;\n]{1,40}?)(?:\s+in\s+(?:your|the)\s+(?:answers|replies|"
        r"responses|code))?\s*,\s*please\b",
        polarity=-1,
    ),
    _en(
        "instruction",
        r"\b(?:please|I want you to|make sure (?:to|you)|be sure to|remember to|"
        r"don't forget to)\s+"
        r"(?:(?P<neg>never)|always)\s+" + _V,
    ),
    # --- facts (English) --------------------------------------------------------------------
    _en("fact", r"\bmy name(?:'s| is)\s+" + _NAME, "name"),
    _en("fact", r"\b(?:please\s+)?call me\s+" + _NAME, "preferred_name"),
    _en("fact", rf"{_I}\s+(?:called|named)\s+" + _NAME, "name"),
    _en("fact", rf"{_I}\s+(?:severely |very |mildly )?allergic to\s+{_V}", "allergy"),
    _en("fact", r"\bI\s+have\s+an?\s+(?P<v>[\w-]+(?:\s[\w-]+)?)\s+allergy\b", "allergy"),
    _en(
        "fact",
        rf"{_I}\s+(?:an?\s+)?(?:strict\s+)?(?P<v>vegetarian|vegan|pescatarian|teetotal(?:er)?|"
        r"lactose[- ]intolerant|kosher|halal)\b",
        "diet",
    ),
    _en("fact", rf"\bI\s+(?:currently\s+|now\s+)?live\s+in\s+{_V}", "location"),
    _en(
        "fact",
        rf"\bI(?:'ve| have)?\s+(?:just\s+|recently\s+)?moved\s+to\s+{_NOT_A_PLACE}{_V}",
        "location",
    ),
    _en("fact", rf"{_I}\s+(?:currently\s+|now\s+)?based\s+in\s+{_V}", "location"),
    _en("fact", rf"{_I}\s+(?:originally\s+)?from\s+{_V}", "hometown"),
    _en("fact", rf"\bI\s+(?:currently\s+|now\s+)?work\s+(?:at|for)\s+{_V}", "employer"),
    _en("fact", rf"\bI\s+(?:currently\s+|now\s+)?work\s+as\s+(?:an?\s+)?{_V}", "occupation"),
    _en(
        "fact",
        rf"{_I}\s+an?\s+(?P<v>(?:[\w-]+\s+){{0,2}}(?:engineer|developer|teacher|doctor|nurse|"
        r"student|designer|manager|scientist|researcher|lawyer|writer|artist|programmer|"
        r"consultant|analyst|accountant|chef|architect|professor|dentist|pharmacist))\b",
        "occupation",
    ),
    _en("fact", rf"{_I}\s+(?P<v>\d{{1,3}})\s+(?:years?\s+old|y/?o)\b", "age"),
    _en("relation", rf"\b(?P<s>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\s+is\s+my\s+(?P<k>{KIN_EN})\b"),
    _en(
        "fact", r"\bmy\s+(?P<k>(?:[\w-]+\s+){0,2}?[\w-]+)(?:'s name)?\s+(?:is|are)\s+(?!not\b)" + _V
    ),
    _en(
        "relation",
        rf"\b(?P<s>[A-Z][\w'-]+|my\s+(?:{KIN_EN}))\s+(?P<k>works|worked)\s+(?:at|for)\s+{_V}",
        "works_at",
    ),
    _en(
        "relation",
        rf"\b(?P<s>[A-Z][\w'-]+|my\s+(?:{KIN_EN}))\s+(?P<k>lives|moved)\s+(?:in|to)\s+"
        rf"{_NOT_A_PLACE}{_V}",
        "lives_in",
    ),
    # --- decisions and tasks (English) ------------------------------------------------------
    _en(
        "decision",
        r"\b(?:we|I)\s*(?:'ve|have)?\s+(?:finally\s+)?(?:decided|agreed)\s+(?:to|on|that)?\s*" + _V,
        "decision",
    ),
    _en(
        "decision",
        r"\b(?:let's|let us|we'll|we will|we're going to|we are going to)\s+go\s+with\s+" + _V,
        "decision",
    ),
    _en("decision", r"\b(?:the|our) decision is\s+(?:to\s+)?" + _V, "decision"),
    _en("task", r"\bremind me\s+(?:to|about|that)\s+" + _V, "reminder"),
    _en("task", r"\b(?:don't|do not) (?:let me )?forget\s+to\s+" + _V, "reminder"),
    _en(
        "task",
        r"\bI\s+(?:really\s+)?(?:(?:need|have|got)\s+to|must|gotta)\s+" + _V,
        "todo",
    ),
    _en("task", r"\b(?:todo|to-do)\s*:\s*" + _V, "todo"),
    _en(
        "fact",
        r"(?:^\s*|\bplease\s+)(?:remember|note|keep in mind)\s+(?:that\s+)?" + _V,
        "note",
    ),
    # --- blockers and hedges (Chinese) ------------------------------------------------------
    _zh("", rf"(?:不确定|不知道)我?(?:是否|是不是)?{_ZADV}(?:喜欢|爱){_VZ}"),
    _zh("", rf"我(?:以前|过去|曾经|小时候){_ZADV}(?:喜欢|爱){_VZ}"),
    _zh(
        "preference",
        rf"我(?:不觉得|不认为|并不觉得)我?{_ZADV}(?:喜欢|爱){_VZ}",
        polarity=-1,
        source="inferred",
    ),
    _zh("preference", rf"我(?:觉得|好像|似乎|大概)我?{_ZADV}(?:喜欢|爱){_VZ}", source="inferred"),
    # --- preferences (Chinese) --------------------------------------------------------------
    # the thing said first, the verb closing the clause: "啤酒我不爱喝", "火锅我最爱吃了"
    _zh(
        "preference",
        rf"(?:^|(?<=[，,。！!；;]))(?P<v>{_TOPIC_ZH})我{_ZADV}(?:一点(?:也|都))?"
        rf"(?:不|不太|不怎么|并不|从不)(?:喜欢|爱){_CLOSING_VERB_ZH}",
        polarity=-1,
    ),
    _zh(
        "preference",
        rf"(?:^|(?<=[，,。！!；;]))(?P<v>{_TOPIC_ZH})我{_ZADV}(?:喜欢|爱){_CLOSING_VERB_ZH}",
    ),
    _zh("preference", rf"我最喜欢的(?P<k>[\u4e00-\u9fff\w]{{1,6}}?)是{_VZ}"),
    _zh(
        "preference",
        rf"我{_ZADV}(?:一点(?:也|都))?(?:不|不太|不怎么|并不|不再|从不)(?:喜欢|爱|想要){_VZ}"
        rf"|我{_ZADV}(?:讨厌|厌恶|受不了|反感|不能接受|不吃|不喝)(?:死了?)?"
        rf"{_VZ.replace('?P<v>', '?P<v2>')}",
        polarity=-1,
    ),
    _zh(
        "preference",
        rf"我{_ZADV}(?:更喜欢|更爱|更偏好|偏爱|偏好|更倾向于|倾向于){_VZ}",
        compare=True,
    ),
    # a degree complement is no part of the thing: "我爱死火锅了"
    _zh("preference", rf"我{_ZADV}(?:喜欢|热爱|钟爱|爱吃|爱喝|爱看|爱听|爱)(?:死了?)?{_VZ}"),
    _zh("preference", rf"我{_ZADV}(?:习惯(?:于|了)?|惯用){_VZ}"),
    _zh(
        "preference",
        r"对我(?:来说|而言)[，,]?\s*(?P<v>[^，,。.!！?？;；\n]{1,20}?)(?:是)?(?:最|很|非常|特别|十分|更)重要"
        r"|(?P<v2>[^，,。.!！?？;；\n]{1,20}?)对我(?:来说|而言)?(?:最|很|非常|特别|十分|更)重要",
    ),
    _zh(
        "preference",
        rf"我(?:平时|通常|经常|一般|总是|常常|每天都?)(?P<v>{_HABIT_ZH}[^，,。.!！?？;；\n]{{1,30}}?)"
        r"(?=\s*$|[，,。.!！?？;；\n]|但|不过)",
        # a habit the user states is said, hedged or not: explicit
    ),
    # --- standing instructions (Chinese) ----------------------------------------------------
    _zh(
        "instruction",
        rf"(?:以后|今后|从现在开始|从现在起|从今以后|从今天起|往后)[，,]?(?:你)?(?:都)?(?:请)?(?:你)?"
        # "以后再说": the talk put off, no rule
        r"(?!再(?:说|讲|聊|看|议|商量|考虑)(?:吧|啦|了|呗|哈|呀)*(?:[\s，,。；;!！~～]|$))"
        rf"(?:都)?(?:(?P<neg>不要|别|不用|不必|无需|避免)(?:再)?)?{_VZ}",
    ),
    _zh(
        "instruction",
        rf"(?:每次|每当|凡是|只要)(?:我|你)?[^，,。.!！?？;；\n]{{1,24}}?(?:的时候|时)?[，,]?"
        rf"(?:你)?(?:都|就|请)(?:要|请|得)?(?:(?P<neg>不要|别)(?:再)?)?{_VZ}",
    ),
    _zh(
        "instruction",
        rf"当我(?:问|问到|提到|说到)[^，,。.!！?？;；\n]{{1,24}}?(?:的时候|时)[，,]?(?:请)?(?:你)?"
        rf"(?:(?P<neg>不要|别)(?:再)?)?{_VZ}",
    ),
    _zh("instruction", rf"请(?:你)?(?:总是|始终|一直|永远|务必)(?:都)?{_VZ}"),
    _zh(
        "instruction",
        rf"(?:所有|全部|每个|每一个|每段)的?(?:回答|回复|答复|代码|例子|示例|引用)(?:里|中)?(?:都|一律)"
        rf"(?:要|请|得)?(?:(?P<neg>不要|别)(?:再)?)?{_VZ}",
    ),
    _zh(
        "instruction",
        rf"(?:^|[，,。；;]\s*)(?:记得|请|要)(?:你)?(?:每次|每回)都?(?:要|请|得)?"
        rf"(?:(?P<neg>不要|别)(?:再)?)?{_VZ}",
    ),
    _zh(
        "instruction",
        rf"(?:^|[，,。；;]\s*)(?:我)?(?:问到|问起|提到|说到|聊到)[^，,。.!！?？;；\n]{{1,24}}?(?:的时候|时)"
        rf"[，,]?(?:请)?(?:你)?(?:都|就)?(?:(?P<neg>不要|别)(?:再)?)?{_VZ}",
    ),
    _zh(
        "instruction",
        r"^\s*(?:你的)?(?:回答|回复|答复|代码)(?:的)?(?:开头|结尾|最后|里|中|时|的时候)?[，,]?"
        r"(?P<v>(?:都|请|要|先|必须|尽量|一律|统一|不要|别)[^，,。.!！?？;；\n]{1,40}?)"
        r"(?=\s*$|[，,。.!！?？;；\n])",
    ),
    _zh("instruction", rf"(?:请)?(?P<neg>永远不要|千万别|千万不要|请不要再|请别再){_VZ}"),
    # --- facts and relations (Chinese) ------------------------------------------------------
    _zh("fact", r"我(?:的名字)?叫" + _ZNAME + r"(?=$|[，,。!！;；\s]|$)", "name"),
    _zh("fact", r"(?:你可以|请)?叫我" + _ZNAME + r"(?=$|[，,。!！;；\s吧]|就)", "preferred_name"),
    _zh("fact", r"我的名字是" + _ZNAME, "name"),
    _zh("fact", r"我对(?P<v>[^，,。.!！?？;；\n]{1,15}?)过敏", "allergy"),
    _zh("fact", r"我(?:是(?:个|一个|一名)?)?(?P<v>素食者|素食主义者|纯素食者|吃素的?)", "diet"),
    _zh("fact", rf"我(?:现在|目前)?住在{_VZ}", "location"),
    _zh("fact", rf"我(?:已经|最近|刚)?搬(?:到|去)了?{_VZ}", "location"),
    _zh("fact", rf"我(?:来自|老家在|是从){_VZ}", "hometown"),
    _zh("fact", r"我是(?P<v>[\u4e00-\u9fff]{2,3}?)人(?=$|[，,。!！;；]|$)", "hometown"),
    _zh(
        "fact",
        r"我(?:现在|目前)?在(?P<v>[^，,。.!！?？;；\n]{1,20}?)(?:工作|上班|任职|实习)",
        "employer",
    ),
    _zh("fact", rf"我就职于{_VZ}", "employer"),
    _zh(
        "fact",
        r"我是(?:一名|一位|一个)(?P<v>[\w\u4e00-\u9fff]{0,6}?(?:工程师|医生|老师|教师|学生|设计师|"
        r"程序员|经理|律师|作家|研究员|护士|会计|厨师|科学家|教授|分析师))",
        "occupation",
    ),
    _zh("fact", rf"我的(?:工作|职业)是{_VZ}", "occupation"),
    _zh("fact", r"我今年(?P<v>[\d一二三四五六七八九十]{1,4})岁", "age"),
    _zh("relation", rf"我的?(?P<k>{KIN_ZH})(?:叫|是)" + _ZNAME + r"(?=$|[，,。!！;；\s])"),
    _zh("relation", rf"(?P<s>[\u4e00-\u9fff]{{2,3}})是我的?(?P<k>{KIN_ZH})"),
    _zh("fact", rf"我的(?P<k>[\u4e00-\u9fff\w]{{1,6}}?)是(?!不){_VZ}"),
    _zh(
        "relation",
        rf"(?P<s>我的(?:{KIN_ZH})[\u4e00-\u9fff]{{0,3}}?|(?<![我的])[\u4e00-\u9fff]{{2,3}}?)在"
        r"(?P<v>[^，,。.!！?？;；\n]{1,20}?)"
        r"(?:工作|上班)",
        "works_at",
    ),
    # --- decisions and tasks (Chinese) ------------------------------------------------------
    _zh(
        "decision",
        rf"(?:我们|我们俩|大家|我)(?:最后|最终|已经)?(?:决定|商定|定了|确定)了?{_VZ}",
        "decision",
    ),
    _zh("decision", r"(?:那)?就(?:用|选|定|选择)(?P<v>[^，,。.!！?？;；\n]{1,20}?)吧", "decision"),
    _zh("task", rf"提醒我{_VZ}", "reminder"),
    _zh("task", rf"(?:别|不要)忘(?:了|记)(?:提醒我)?{_VZ}", "reminder"),
    _zh("task", rf"我(?:需要|必须|得去|还得|要记得){_VZ}", "todo"),
    _zh("fact", rf"(?:^\s*|请)(?:你)?(?:记住|记下)[：:，,]?{_VZ}", "note"),
]


#: A message that opens by correcting what was said or assumed: "No, ...", "Actually,
#: ...", "I meant ...", "不对，…", "不是，…", "其实…", "我是说…".
CORRECTION_RE = re.compile(
    r"^\s*(?:(?:no|nope|nah|actually|correction|wrong|not quite|not really|"
    r"that'?s not (?:right|true|correct)|that is not (?:right|true|correct))\b\s*[,.:;!—-]"
    r"|i (?:meant|said)\b)"
    r"|^\s*(?:不对|不是的|不是|错了|其实|更正|纠正|我是说|我说的是)",
    re.IGNORECASE,
)


def is_correction(text: str) -> bool:
    """Whether a message opens by correcting what was said or assumed.

    Example:
        >>> [is_correction(t) for t in ["No, I prefer coffee.", "不对，我喜欢绿茶。",
        ...                             "No problem at all", "I like tea"]]
        [True, True, False, False]
    """
    return bool(CORRECTION_RE.search(text))
