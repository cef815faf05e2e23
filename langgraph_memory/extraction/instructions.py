"""Standing instructions recognised by their form, in English and Chinese.

The rules of :mod:`~langgraph_memory.extraction.rules` catch the usual phrasings; this
module reads a clause by its *shape*. A standing instruction is addressed to the
assistant: an imperative ("Use metric units."), a prohibition ("Don't use emojis.",
"别给我推荐辣的"), a modal ("You should cite sources", "你回答要简短", "I'd appreciate it
if you'd use 24-hour time"), a polite request for something lasting ("Could you stop
apologising all the time?"), a rule said as one ("Two rules: tabs not spaces…",
"规则：…") or a conditional whose consequence is one ("When you write Python, add type
hints", "如果涉及日期，用 YYYY-MM-DD 格式", "凡是涉及钱的计算，保留两位小数").

A plain imperative is a *standing* one when a scope word says so (always, never, from
now on, anymore, anyone, every; 以后, 每次, 一律, 所有, 记住) or when it is about the manner
of the replies (their language, length, format, tone, units; a shaping verb with a
generic object: "give me keyboard shortcuts with Cmd") and names no one-off object
("this", "the second one", "这段", "帮我…一下", "写一个…函数"). Questions, hypotheticals
("imagine you never…"), third parties' words ("my boss says never…", "菜谱上说…"),
quoted speech and advice between people ("Never give up!", "别担心") are none.

Example:
    >>> instruction_of("Don't use emojis in your answers.")
    ('use emojis in your answers', -1)
    >>> instruction_of("Don't worry about it.") is None
    True
    >>> instruction_of("用中文回答。")
    ('用中文回答', 1)
    >>> instruction_of("帮我翻译一下这段话。") is None
    True
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.clauses import (
    EN_HYPOTHETICAL,
    EN_REPORTED,
    ZH_HYPOTHETICAL,
    ZH_REPORTED,
    is_question,
    reported_zh,
    strip_particles,
    tidy_value,
)

__all__ = ["instruction_of", "instruction_in", "lasting_scope"]

# -- standing instructions (English) ----------------------------------------------------------
_EN_LEAD = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|alright|all right|also|and|oh|btw|by the way|one more thing|"
    r"another thing|quick note|note|fyi|hey|so|well|right|hi|hello|one request|"
    r"a request|small request|last thing|finally|general rule|rule|house rule|for the record|"
    r"going forward|from now on|from here on(?: out)?|in (?:the )?future|henceforth|"
    r"in general|generally|as a rule|by default|for everything|for all (?:future )?\w+|"
    r"heads up|whatever you do|no matter what|under no circumstances|in any case|"
    r"remember|keep in mind|for future reference|note to self|important|"
    r"for the rest of (?:this|the|our) \w+|until I say otherwise)\b[\s,:;—–-]*)+",
    re.I,
)
_EN_SOFT = re.compile(
    r"^(?:(?:please|pls|plz|kindly|just|simply|really|also|always|only|do|try to|make sure to|"
    r"let's|let us|"
    r"make sure you|be sure to|remember to|don't forget to|be careful to|take care to)\s+)+",
    re.I,
)
_EN_PROHIBIT = re.compile(
    r"^(?:(?:please\s+|just\s+|also\s+|and\s+)*(?:do not|don't|dont|never|never ever|"
    r"don't ever|do not ever|stop|quit|avoid|refrain from|try not to|make sure (?:you )?"
    r"(?:don't|do not|never)|no more|no)\s+)",
    re.I,
)
_EN_MODAL = re.compile(  # "you'd better", "I'd appreciate it if you'd", "your answers must"
    r"^(?:you\s+(?:should|must|need to|have to|ought to|'ve got to|have got to|gotta|will|'ll|"
    r"are to|shall)(?P<neg>\s+(?:not|never))?|you(?:'d| had) better(?P<neg2>\s+not)?|"
    r"I(?:\s+|(?='))(?:want|need|'d like|would like|expect|prefer|'d prefer|would prefer)"
    r"\s+you\s+to"
    r"(?P<neg3>\s+(?:not|never))?|"
    r"you (?:don't|do not) (?:need|have) to|(?:there's |there is )?no need (?:for you )?to|"
    r"(?:it(?:'d| would) (?:be (?:great|nice|better|good|helpful)|help)|it helps|"
    r"I(?:'d| would) appreciate it)"
    r"\s+if you(?:'d| would| could)?(?P<neg4>\s+(?:didn't|did not|never|don't|not))?|"
    r"I(?:'d| would) rather you(?P<neg5>\s+(?:didn't|did not|not|never|don't))?|"
    r"I don't want you to|I do not want you to|I never want you to|"
    r"(?:your |all |the |any )?(?:answers?|repl(?:y|ies)|responses?|explanations?|code|examples?|"
    r"summar(?:y|ies)|messages?|output|prices?|dates?|times?|temperatures?|numbers?|amounts?|"
    r"units?|measurements?|distances?|weights?|figures?|currenc(?:y|ies))\s+(?:should|must|"
    r"need to|have to|ought to|(?:always\s+)?(?:needs?|has|"
    r"have) to)"
    r"(?P<neg6>\s+(?:not|never))?)\s+",
    re.I,
)
_EN_COND = re.compile(
    r"^(?P<cond>(?:when(?:ever)?|if|every time|each time|any ?time|once|in case|as long as|"
    r"unless|for (?:any|every|each|all)|with (?:any|every|each|all)|in (?:any|every|each|all))"
    r"\b[^,;:]{2,90}?)\s*[,:]\s*(?:then\s+)?(?P<rest>.+)$",
    re.I,
)
#: Verbs of what the assistant does or makes, opening an imperative.
_EN_VERBS = (
    "use|answer|reply|respond|write|keep|be|give|show|include|add|put|format|start|begin|end|"
    "avoid|call|address|refer|explain|tell|list|mention|cite|quote|summari[sz]e|translate|spell|"
    "speak|talk|switch|stick|default|make|assume|treat|ask|check|remind|skip|leave|drop|limit|"
    "cap|provide|offer|suggest|recommend|follow|mark|label|sign|greet|double-check|present|"
    "break|split|wrap|number|bold|highlight|comment|document|type|name|indent|convert|round|"
    "express|measure|report|lead|open|close|finish|conclude|focus|stay|confirm|clarify|flag|"
    "warn|point out|lay out|spell out|write out|err|lean|prioriti[sz]e|favou?r|emphasi[sz]e|"
    "simplify|shorten|expand|elaborate|reference|link|attach|append|prefix|capitali[sz]e|"
    "lowercase|uppercase|separate|group|sort|order|rank|display|render|output|return|print|"
    "adopt|apply|maintain|match|mirror|omit|exclude|remove|hide|cut|trim|reduce|minimi[sz]e|"
    "tone down|go easy on|send|pick|choose|go with|opt for|try|stop|prefer|reference|sprinkle|"
    "overexplain|over-explain|apologi[sz]e|repeat|restate|pad|hedge|lecture|moralise|moralize|"
    "sugarcoat|guess|invent|make up|bring up|share|insert|assume|state|note|respond|say|"
    "admit|tell me|double check"
)
_EN_IMPERATIVE = re.compile(rf"^(?:{_EN_VERBS})\b", re.I)
#: Verbs whose object is the assistant's own output (an instruction without a manner word).
_EN_ACTS = re.compile(
    r"^(?:use|answer|reply|respond|write|cite|format|include|add|explain|list|show me|give me|"
    r"tell me|call me|address me|refer to me|remind me|ask me|summari[sz]e|translate|suggest|"
    r"recommend|mention|say|double-check|double check|check|confirm|flag|warn|spell|quote|round|"
    r"convert|label|number|structure|put|start|begin|end|sign|greet|apologi[sz]e|assume|"
    r"lecture|moralis|moraliz|sugarcoat|hedge|pad|guess|invent|make up|bring up|over-?explain|"
    r"repeat|restate|talk|speak|default|stick|switch|avoid|skip|omit|leave out|drop)\b",
    re.I,
)
#: What the replies are made of: their language, length, format, tone, units, parts.
_EN_MANNER = re.compile(
    r"\b(?:answers?|answering|repl(?:y|ies|ying)|respon(?:d|ses?|ding)|explanations?|"
    r"messages?|output|code|coding|snippets?|examples?|format(?:ting|ted)?|"
    r"markdown|bullets?|bullet points?|lists?|tables?|headings?|headers?|emojis?|emoticons?|"
    r"exclamation|tone|style|voice|register|jargon|slang|words?|sentences?|paragraphs?|"
    r"length|brief|briefly|concise|concisely|short|shorter|terse|succinct|detailed|verbose|"
    r"wordy|long-winded|formal|informal|casual|polite|friendly|plain (?:english|language|text)|"
    r"simple|simply|language|english|chinese|mandarin|french|spanish|german|japanese|korean|"
    r"italian|portuguese|russian|british|american|metric|imperial|celsius|fahrenheit|units?|"
    r"kilometers|kilometres|miles|kg|pounds|currency|dates?|times?|timezone|time zone|"
    r"prices?|temperatures?|amounts?|figures?|"
    r"iso|24-hour|12-hour|citations?|cite|sources?|references?|links?|footnotes?|"
    r"type hints?|comments?|docstrings?|tests?|variable names?|naming|tabs|spaces|indent\w*|"
    r"semicolons?|quotes|summar(?:y|ies)|tl;?dr|recap|caveats?|disclaimers?|warnings?|"
    r"apolog\w+|sorry|reasoning|short|brief|simple|steps?|step by step|numbered|sign-?off|greeting|"
    r"first name|my name|me as|call me|address me|opinion|recommendations?|suggestions?|"
    r"options?|alternatives?|questions?|follow-up|pleasantries|small talk|filler|fluff|"
    r"preamble|intro|introductions?|conclusions?|outline|like an? (?:friend|teacher|professor|"
    r"colleague|peer|expert|beginner|child|kid|five-year-old|human|person|coach|mentor)|"
    r"python|javascript|typescript|rust|java|golang|sql|bash|shell|vegetarian|vegan|spicy)\b",
    re.I,
)
#: How the assistant should be: its manner.
_EN_ADJ = (
    r"(?:concise|brief|short|succinct|terse|direct|blunt|honest|clear|precise|formal|"
    r"informal|casual|polite|friendly|gentle|patient|thorough|detailed|specific|"
    r"explicit|candid|frank|straightforward|objective|neutral|critical|skeptical|sceptical|"
    r"encouraging|professional|exact|consistent|realistic|technical|verbose|wordy|chatty|"
    r"funny|playful|warm|harsh|brutal|sarcastic|upbeat)"
)
#: A one-off object: this text, that file, the thing just said, this time.
_EN_ONE_OFF = re.compile(
    r"\b(?:this|that|these|those|it|here|above|below|the following|the attached|"
    r"my (?:essay|email|letter|code|draft|text|message|question|file|document|cv|resume|"
    r"paper|report|post|list)|this time|for now|right now|today|tonight|tomorrow|"
    r"yesterday|just this once|for this one|in this (?:one|answer|reply|case)|"
    r"for this (?:answer|reply|response|one|email|message|question|task|draft|post)|"
    r"(?:answer|reply|response|time) only|"
    r"once more|again please|instead|the (?:first|second|third|last|other|previous|next|"
    r"latter|former) (?:one|option|approach|version|way|idea))\b",
    re.I,
)
#: A creation verb with an indefinite object: a task ("write a poem"), not a rule.
_EN_TASK = re.compile(
    r"^(?:write|give|make|create|draft|generate|compose|tell|find|suggest|recommend|plan|book|"
    r"show|list|explain|translate|summari[sz]e|draw|design|build|fix|check|calculate|compute|"
    r"send|add|convert|teach|help|walk)\s+(?:me\s+|us\s+)?(?:a|an|one|two|three|four|five|some|\d+|"
    r"the|how|what|why|where|when|which|who|through)\b"
    r"|^(?:translate|summari[sz]e|proofread|paraphrase|rewrite|reword|spell-?check)\b"
    r"|['\"“‘][^'\"”’]{2,}['\"”’]",  # quoted words to work on
    re.I,
)
#: A scope word: the instruction lasts.
_EN_SCOPE = re.compile(
    r"\b(?:always|never|from now on|from here on|going forward|in (?:the )?future|henceforth|"
    r"every ?time|each time|whenever|any ?time|at all times|all the time|by default|as a rule|"
    r"every|each|all (?:your|my|the|future)|any (?:answer|reply|response|code|example)|"
    r"anymore|any more|ever again|again|consistently|no matter what|for the rest|"
    r"until I say otherwise|permanently|in general|generally|from today|for good|"
    r"throughout|across the board|default to|stick to|stick with|anyone|anybody|anything|"
    r"everyone|everybody|everything|whatever|whoever|no matter|all the time|constantly|"
    r"under no circumstances)\b",
    re.I,
)
#: Advice between people that only looks like an instruction.
_EN_ADVICE = re.compile(
    r"^(?:(?:do not|don't|never)\s+)?(?:give up|be yourself|worry|panic|mind|hesitate|stress|"
    r"forget (?:it|that|about)|look back|stop believing|settle|quit|lose|let (?:go|it)|"
    r"be (?:afraid|scared|sad|shy|sorry|late)|judge|get me wrong|bother|"
    r"take (?:it|this) personally|say never|stay safe|take care|keep (?:going|it up|up)|"
    r"let me know|reach out|hesitate|keep (?:on|believing|trying|inspiring|pushing|shining|"
    r"smiling|rocking|dreaming|at it)|believe in yourself|be proud|stay strong|hang in there|"
    r"have fun|enjoy (?:it|yourself|the)|take it easy|chill)\b",
    re.I,
)


#: "Ground rule:", "Two rules for this project:": what follows is the rule, whatever its form.
_EN_RULE_LABEL = re.compile(
    r"^(?:(?:one|two|three|a few|some|my|our|the|a|ground|house|general|standing|new|hard|"
    r"golden|simple)\s+)*(?:rules?|policy|policies|requirements?|conventions?|standing orders?)"
    r"(?:\s+(?:for|in|on|about)\s+[^:]{1,40})?\s*:\s*(?P<rule>.{3,})$",
    re.I,
)
#: A polite question asking for something lasting: "Could you stop apologising all the time?"
_EN_POLITE = re.compile(
    r"^(?:could|can|would|will)\s+you\s+(?:please\s+|kindly\s+|maybe\s+|just\s+)*", re.I
)
_EN_TAIL = re.compile(
    r"[\s,]+(?:from now on|from here on(?: out)?|going forward|in (?:the )?future|always|"
    r"every time|each time|at all times|all the time|by default|until I say otherwise|please|"
    r"pls|thanks|thank you|for me|ok(?:ay)?|if you can|if possible|"
    r"that's how I like it|that's what I prefer|that's my preference|it's getting old|"
    r"it's annoying)\s*$",
    re.I,
)
_EN_USER_REF = re.compile(r"\b(?:I|me|my|mine|I'm|I've)\b")
#: A shaping verb with a bare (generic) object and how to shape it: "give me keyboard
#: shortcuts with Cmd", "format dates as ISO", "convert prices to euros".
_EN_GENERIC = re.compile(
    r"^(?:use|give me|give|show me|show|format|convert|write|put|keep|express|round|spell|"
    r"quote|cite|list|mark|label|number|sort|display|present|render|provide|include|add|"
    r"translate|measure|report|output|print|return|name|call|refer to|sign|end|start|begin)\s+"
    r"(?!(?:a|an|the|this|that|these|those|my|your|his|her|its|our|their|one|some|it|them|him|"
    r"how|what|why|where|when|which|who)\b)(?:all\s+|any\s+|every\s+|each\s+)?"
    r"[\w'-]+(?:\s+[\w'-]+){0,3}?\s+(?:with|in|as|to|using|without|instead of|rather than|not|"
    r"over|into|under|below|above|only|first|last|at the (?:top|end|start|bottom))\b",
    re.I,
)


def _en_instruction(clause: str, scoped: bool = False) -> tuple[str, int] | None:
    """``(what, polarity)`` when an English clause is a standing instruction."""
    s = clause.strip().rstrip(".!…~ ")
    if not s:
        return None
    polite = _EN_POLITE.match(s)
    if is_question(s):
        if polite is None:
            return None
        s = s[polite.end() :].rstrip("?？ ")
    elif polite is not None:
        s = s[polite.end() :]
    if EN_HYPOTHETICAL.search(s) or EN_REPORTED.search(s):
        return None
    lets = False  # a first-person plural proposal ("let's…")
    lead = _EN_LEAD.match(s)
    if lead:
        scoped = scoped or bool(_EN_SCOPE.search(lead.group(0)))
        s = s[lead.end() :]
    label = _EN_RULE_LABEL.match(s)
    if label:  # a rule said as a rule: its words are the instruction
        return tidy_value(label["rule"], "en"), 1
    cond = _EN_COND.match(s)
    if cond:
        about_us = re.search(r"\b(?:I|you|we|me|my|your|in doubt|unsure|unclear)\b", cond["cond"])
        if about_us or _EN_MANNER.search(cond["cond"]):
            return _en_instruction(cond["rest"], scoped=True)
        return None
    for _ in range(4):  # a trailing scope or courtesy: "Be concise from now on, please"
        tail = _EN_TAIL.search(s)
        if tail is None:
            break
        if not re.search(r"please|pls|thanks|thank you|for me|ok|if", tail.group(0), re.I):
            scoped = True
        s = s[: tail.start()]
    polarity, kind = 1, "imperative"
    modal = _EN_MODAL.match(s)
    prohibit = None if modal else _EN_PROHIBIT.match(s)
    if modal:
        kind = "modal"
        if any(modal.group(g) for g in modal.re.groupindex) or re.match(
            r"I (?:don't|do not|never) want you to|you (?:don't|do not) (?:need|have) to|"
            r"(?:there's |there is )?no need",
            modal.group(0),
            re.I,
        ):
            polarity = -1
        scoped = scoped or bool(re.match(r"always\b", s[modal.end() :], re.I))
        body = re.sub(r"^(?:always|also|just|please)\s+", "", s[modal.end() :], flags=re.I)
        past = re.match(r"(\w+?)(e?d)\b", body)  # "if you included…": the verb "include"
        if past and not _EN_IMPERATIVE.match(body):
            for stem in (past[1] + "e", past[1]):
                if _EN_IMPERATIVE.match(stem + body[past.end() :]):
                    body = stem + body[past.end() :]
                    break
        if re.match(r"never\s+", body, re.I):
            polarity, scoped, body = -1, True, body[6:].lstrip()
    elif prohibit:
        kind, polarity = "prohibit", -1
        body = s[prohibit.end() :]
        scoped = scoped or bool(re.search(r"\bnever\b|\bever\b", prohibit.group(0), re.I))
    else:
        scoped = scoped or bool(re.match(r"(?:please\s+)?(?:always|only)\b", s, re.I))
        body = _EN_SOFT.sub("", s)
        lets = bool(re.search(r"\blet(?:'s|’s|\s+us)\b", s[: len(s) - len(body)], re.I))
    body = body.strip(" ,")
    if not body or _EN_ADVICE.match(body) or _EN_ADVICE.match(s):
        return None
    verb = bool(_EN_IMPERATIVE.match(body) or re.match(r"^\w+ing\b", body))
    verb = verb or (kind == "prohibit" and bool(re.match(r"[a-z]+\b", body)))
    if kind == "imperative" and not _EN_IMPERATIVE.match(body):
        return None
    if not verb and not (kind == "prohibit" and _EN_MANNER.search(body)):
        return None
    if (
        re.match(r"be\b", body, re.I)
        and not re.match(r"be\s+(?:in|as|under|within|below)\b", body, re.I)
        and not re.match(
            rf"be\s+(?:(?:so|too|very|overly|that|extra|more|less|a bit|a little|as|brutally|"
            rf"completely|totally|really|always|super|absolutely|extremely|radically)\s+)*{_EN_ADJ}\b",
            body,
            re.I,
        )
    ):
        return None
    scoped = scoped or bool(_EN_SCOPE.search(body))
    manner = bool(_EN_MANNER.search(body) or re.search(rf"\b{_EN_ADJ}\b", body, re.I))
    if lets and (not manner or _EN_JOINT.search(body)):
        return None  # "Let's keep working together to…", "let's talk again soon": our plan
    if (
        modal
        and not re.search(r"\b(?:you|I)\b", modal.group(0), re.I)
        and not re.match(r"(?:be|use|include|have|show|come|stay|follow|start|end|look)\b", body)
    ):
        return None  # "The prices should drop soon": a forecast, not how to write them
    manner = manner or bool(modal and _EN_MANNER.search(modal.group(0)))  # "Prices should…"
    generic = bool(_EN_GENERIC.match(body))
    plain = re.sub(
        r"\b(?:keep|make) it\s+(?=(?:\w+\s+)?(?:short|brief|simple|concise|casual|light|"
        r"professional|formal|friendly|tight|clean|readable|snappy)\b)",
        "",
        body,
        flags=re.I,
    )
    if _EN_ONE_OFF.search(plain) and not scoped:
        return None
    if polite is not None and not _EN_TIME_SCOPE.search(clause):
        return None  # "Could you use tabs?", "Can you log each request?": a request now
    if scoped:
        addressed = manner or generic or _EN_ACTS.match(body) or _EN_USER_REF.search(body)
        if not addressed:
            return None
    elif kind == "imperative":
        if not (manner or generic) or _EN_TASK.match(body):
            return None
    elif kind == "modal":
        if not (manner or generic):
            return None
    elif not (manner or generic or _EN_PROHIBITED_ACTS.match(body)):
        return None
    return tidy_value(body, "en"), polarity


#: What marks a "let's…" clause as something the speakers will do together, not a way to
#: reply: "together", "we", "us", "soon", "our" before anything but the replies.
_EN_JOINT = re.compile(
    r"\b(?:together|each other|one another|we|us|soon|someday|sometime|one day)\b|"
    r"\bour\s+(?!(?:answers?|replies|responses?|chats?|conversations?|messages?)\b)",
    re.I,
)

_EN_PROHIBITED_ACTS = re.compile(
    r"(?:use|add|include|give|show|put|start|end|call|address|mention|recommend|suggest|apologi|"
    r"repeat|explain|ask|assume|remind|lecture|moralis|moraliz|sugarcoat|hedge|pad|guess|invent|"
    r"make up|bring up|over-?explain|send|write|reply|respond|answer|say|tell|talk|speak|overdo|"
    r"sign|greet|spoil|share|post|book|schedule|order|buy|pick|choose|offer|propose|list|cite|"
    r"quote|translate|correct|change|rewrite|shorten|summari)",
    re.I,
)


# -- standing instructions (Chinese) ----------------------------------------------------------
_ZH_LEAD = re.compile(
    r"^\s*(?:(?:好的|好吧|好|嗯|哦|对了|另外|还有|顺便说一下|顺便|补充一下|补充|再说一下|"
    r"提醒一下|说一下|麻烦|拜托|那|那么|然后|以及|最后|还有一点|一个要求|一个请求|规矩是|"
    r"以后|今后|往后|从现在开始|从现在起|从今以后|从今天起|从今往后|接下来|之后|每次|每回|"
    r"任何时候|无论什么时候|不管什么时候|记住|记得|请记住|请记得|注意|请注意|提醒你|说好了|"
    r"重要|一个规矩|还有个事|还有件事)[，,：:]?\s*)+"
)
_ZH_SCOPE = re.compile(
    r"记住|记得|(?:^|[，,])(?:以后|之后)|(?:以后|之后)(?=都|请|你|也|就|别|不要)|今后|往后|从现在|从今|"
    r"每次|每回|每当|总是|始终|永远|一律|统一(?=用|成|按|写|改)|所有|凡是|任何时候|随时|一定要|务必|"
    r"千万|必须|尽量|都要|都用|都得|都请|都别|都不要|默认|不管什么|无论|再也|再"
)
#: A scope that lasts in time, as a polite question asks for it ("以后能不能…", "别再…").
_ZH_TIME_SCOPE = re.compile(r"以后|今后|往后|从现在|每次|每回|总是|一直|永远|再也|别再|不要再|老是")
_EN_TIME_SCOPE = re.compile(
    r"\b(?:always|never|from now on|going forward|in (?:the )?future|anymore|any more|"
    r"all the time|every time|each time|again|constantly|ever)\b",
    re.I,
)
_ZH_PROHIBIT = re.compile(
    r"^(?:请|你|请你|你们|以后|今后|每次|都|也|千万|一定|永远|再也|就)*"
    r"(?P<neg>不要|别|不许|不准|禁止|请勿|勿|不用|无需|不必|不需要|少|避免|停止|不能|不可以|不得)"
    r"(?:再|总是|老是|一直|给我)?"
)
_ZH_MODAL = re.compile(
    r"^(?:你|您|你们)(?:以后|今后|每次)?(?:都)?(?:应该|要|得|必须|需要|最好|一定要|务必|记得|可以)"
    r"(?P<neg>不要|别|不能|不用)?"
    r"|^(?:你的|您的|给我的|我的|你给我的)?(?:回答|回复|答复|答案|解释|代码|输出|说明|例子|示例)"
    r"(?:里|中|的时候|时)?"
    r"(?:都|请|也)?(?:要|得|应该|必须|需要|一定要|务必|尽量|最好|一律|统一|不要|别|不能|不用)"
    r"|^我(?:希望|想要|想让|要|需要|要求)(?:你|您)(?:以后|今后|每次)?(?:都)?(?:能)?(?P<neg2>不要|"
    r"别)?"
)
_ZH_COND = re.compile(
    r"^(?P<cond>(?:如果|要是|假如|当|每当|只要|一旦|凡是|遇到|碰到)[^，,。；;]{1,30}?"
    r"(?:的话|的时候|时候|时|之后|以后)?)(?:[，,]\s*(?:那么?|就|请|都|也|则|便)*|就|"
    r"便)(?P<rest>.+)$"
    r"|^(?P<cond2>[^，,。；;]{1,30}?(?:的时候|时候|时))[，,]\s*(?P<rest2>.+)$"
)
#: Verbs of what the assistant does or makes, opening a Chinese imperative.
_ZH_VERBS = re.compile(
    r"^(?:请|你|记得|要|都|就|也|先|尽量|一定|务必|一律|统一|多|少|直接|总是|始终|永远)*"
    r"(?:用|使用|回答|回复|答复|说|讲|写|给我|给出|列出|列|总结|概括|保持|控制|附上|附|加上|加|"
    r"标注|标明|注明|引用|解释|说明|翻译|叫我|称呼我|称我|推荐|建议|提醒|告诉我|输出|显示|展示|"
    r"按|按照|以|采用|带上|带|放|把|换成|改成|改用|切换|分点|分条|分段|举例|举个例子|给个|提供|"
    r"省略|跳过|去掉|删掉|避免|注意|考虑|确认|标出|配上|换算|写成|说成|翻成|统一用|一律用|"
    r"保留|精简|简化|展开|详细|简短|简洁|直接|先说|先给|署名|签名|落款|称|换|转换|转成|折算|"
    r"四舍五入|精确到|写明|标|附|备注|回|答)"
)
_ZH_MANNER = re.compile(
    r"回答|回复|答复|答案|解释|中文|英文|汉语|英语|日语|简体|繁体|普通话|粤语|简洁|简短|简单|"
    r"详细|啰嗦|废话|客套|长篇大论|要点|分点|列表|表格|代码|注释|类型注解|格式|markdown|"
    r"Markdown|表情|emoji|语气|口吻|正式|口语|幽默|礼貌|例子|示例|举例|引用|来源|出处|参考|"
    r"字数|字以内|字以下|一句话|句话|段落|标题|公制|英制|摄氏|华氏|公里|单位|日期|时间|时区|"
    r"货币|人民币|美元|价格|术语|专业|通俗|口诀|步骤|编号|总结|结论|先|开头|结尾|称呼|叫我|"
    r"名字|推荐|建议|提醒|辣|素|Python|python|SQL|sql|客气|绕弯子|编造|瞎编|"
    r"英文|单词|拼音|翻译|长度|篇幅|问题|追问|确认|道歉|寒暄|客套|重复|废话"
)
_ZH_ONE_OFF = re.compile(
    r"这个|这段|这篇|这句|这份|这些|这张|这次|这回|这一次|这里|那个|那段|那篇|上面|下面|刚才|"
    r"以下|如下|一下|帮我|给我写|现在就|马上|今天|明天|今晚|待会|等会|"
    r"(?:写|做|画|生成|编|起|列|给|找|推荐|讲|设计|翻译)(?:一|几|两|三|四|五|个)(?:个|篇|首|封|份|"
    r"段|张|条|些|下|句)?"
    r"(?:[^，,。]{0,8})?(?:函数|程序|脚本|代码|故事|诗|邮件|文章|笑话|方案|计划|名字|标题|例子|文案|总结|回复|说明|测试|接口|页面)"
)
_ZH_POLITE = re.compile(r"^(?:你|您)?(?:能不能|能否|可不可以|可以|能|麻烦你|麻烦)(?:请你|请|你)?")
#: Quoted speech: words after a speech verb, or in quotes a speech verb follows.
_ZH_QUOTED = re.compile(
    r"(?:说|道|写着|问|喊)[：:，,]?\s*[“「『\"]|[”」』\"]\s*(?:他|她|我妈|我爸|老板)?(?:说|道)"
)
_ZH_RULE_LABEL = re.compile(
    r"^(?:[一两三几]?条|我的|我们的|几个)?(?:规则|规矩|要求|约定|"
    r"原则)(?:是)?[：:]\s*(?P<rule>.{2,})$"
)
#: A condition about the conversation: what the user asks or says, what the reply holds.
_ZH_COND_ABOUT = re.compile(
    r"你|我|问|提到|说到|聊到|谈到|讲到|涉及|关于|有关|写|回答|回复|推荐|翻译|计算|算|"
    r"不确定|不知道|没把握|拿不准|不清楚|需要|遇到|碰到|出现"
)
#: A topic first, then the rule for it: "所有金额都…", "快捷键给我…", "代码一律…".
_ZH_TOPIC = re.compile(
    r"^(?!直接|先|尽量|一定|务必|必须|总是|一直|永远|只|再|还|多|少)"
    r"(?:所有的?|全部的?|凡是|每个|每一个|每封|每篇|每段|每次|任何)?"
    r"(?P<topic>[^，,。；;我你他她人们组]{1,8}?)"
    r"(?:(?:都|一律|统一|全部|全都|请|就|要|得)(?=给我|用|写|说|按|换算|保留|加上|附上|标注|写成|"
    r"署名|签名|落款|放在|放|列|翻译|不要|别|请勿|一律|统一)|(?=给我|别|不要|请勿|不许))"
)
#: How the assistant should talk, asked of it: "你说话直接一点", "回答简洁些", "您解释得通俗点".
_ZH_MANNER_ASK = re.compile(
    r"^(?:你|您)?(?:以后|平时|跟我)?(?:说话|讲话|聊天|回答|回复|解释|写东西|讲)(?:的时候)?(?:得|要|请|就|"
    r"可以|能|再|都)*(?P<how>直接|简洁|简短|简单|直白|正式|随意|客气|温柔|耐心|幽默|具体|详细|通俗|"
    r"口语化|严谨|专业|坦诚|实在|干脆|委婉|轻松)(?:一点|一些|些|点)?$"
)
_ZH_STRONG_SCOPE = re.compile(r"以后|今后|每次|每回|每当|总是|始终|永远|一律|所有|凡是|任何时候")
_ZH_ADVICE = re.compile(
    r"^(?:担心|着急|急|害怕|怕|难过|生气|客气|放弃|紧张|慌|灰心|多想|想太多|在意|介意|管|理|"
    r"忘了|忘记|熬夜|喝酒|吸烟|抽烟|迟到|哭)"
)


def _zh_instruction(clause: str, scoped: bool = False) -> tuple[str, int] | None:
    """``(what, polarity)`` when a Chinese clause is a standing instruction."""
    s = clause.strip().rstrip("。.!！…~～ ")
    if not s:
        return None
    polite = _ZH_POLITE.match(s)
    if is_question(clause):
        if polite is None:
            return None
        s = re.sub(r"(?:好吗|行吗|可以吗|好不好|行不行|吗|呢)?[?？。]*$", "", s[polite.end() :])
    elif polite is not None:
        s = s[polite.end() :]
    if ZH_HYPOTHETICAL.search(s) or ZH_REPORTED.search(s) or _ZH_QUOTED.search(s) or reported_zh(s):
        return None
    lead = _ZH_LEAD.match(s)
    if lead:
        scoped = scoped or bool(_ZH_SCOPE.search(lead.group(0)))
        s = s[lead.end() :]
    label = _ZH_RULE_LABEL.match(s)
    if label:
        return strip_particles(label["rule"]), 1
    if _ZH_MANNER_ASK.match(s) and not _ZH_ONE_OFF.search(s):  # how to talk, no one-off object
        return s, 1
    cond = _ZH_COND.match(s)
    if cond:
        c = cond.group("cond") or cond.group("cond2") or ""
        rest = cond.group("rest") or cond.group("rest2") or ""
        if _ZH_COND_ABOUT.search(c) or _ZH_MANNER.search(c):
            return _zh_instruction(rest, scoped=True)
        return None
    scoped = scoped or bool(_ZH_SCOPE.search(s))
    polarity, kind, body = 1, "imperative", s
    prohibit = _ZH_PROHIBIT.match(s)
    modal = None if prohibit else _ZH_MODAL.match(s)
    if prohibit:
        polarity, kind, body = -1, "prohibit", s[prohibit.end() :]
        scoped = scoped or "再" in prohibit.group(0) or "永远" in prohibit.group(0)
    elif modal:
        kind, body = "modal", s[modal.end() :]
        if (
            modal.group("neg")
            or modal.group("neg2")
            or re.search(r"(?:不要|别|不能|不用)$", modal.group(0))
        ):
            polarity = -1
        inner = _ZH_PROHIBIT.match(body)
        if inner:
            polarity, body = -1, body[inner.end() :]
    else:
        body = re.sub(r"^(?:请你|请|你|您)+", "", s)
        if body != s:
            kind = "please"
    topic = _ZH_TOPIC.match(body)  # "所有金额都换算成人民币", "快捷键给我说 Command 的"
    if topic and kind != "prohibit":
        inner = _ZH_PROHIBIT.match(body[topic.end() :])
        if inner:
            polarity, kind, body = -1, "prohibit", body[topic.end() + inner.end() :]
        elif _ZH_VERBS.match(body[topic.end() :]):
            body = body[topic.end() :]
            scoped = scoped or bool(re.search(r"都|一律|统一|全|所有|每", topic.group(0)))
    body = strip_particles(body.strip(" ，,"))
    if not body or _ZH_ADVICE.match(body):
        return None
    if re.match(r"(?:我|我们|他|她|它|他们|咱们)(?!们)", body) and kind != "modal":
        return None  # the user's own doing, not the assistant's
    if re.search(r"我(?:每|一直|总是|永远|一般|通常|平时|都|也|又|还是|只)", s):
        return None  # "打游戏我永远玩奶妈": the user's habit
    if _ZH_ONE_OFF.search(s) and not _ZH_STRONG_SCOPE.search(s):
        return None
    verb = bool(_ZH_VERBS.match(body))
    manner = bool(_ZH_MANNER.search(body))
    if polite is not None and not _ZH_TIME_SCOPE.search(clause):
        return None
    if kind in ("imperative", "please") and re.search(r"[\u4e00-\u9fff]了(?!解)", body):
        return None  # "用了预留实例", "启用了限流": what happened, not what to do
    if kind == "imperative" and not (verb and (manner or scoped)):
        return None
    if kind == "please" and not ((verb or manner) and (manner or scoped)):
        return None
    if kind in ("prohibit", "modal") and not (verb or manner or (scoped and kind == "prohibit")):
        return None
    return body, polarity


def instruction_of(clause: str) -> tuple[str, int] | None:
    """``(what, polarity)`` when ``clause`` is a standing instruction to the assistant
    (polarity −1 for a prohibition), else ``None`` (see the module docs).

    Example:
        >>> instruction_of("When you explain code, add a short example.")
        ('add a short example', 1)
        >>> instruction_of("My boss always says never use emojis.") is None
        True
        >>> instruction_of("如果你不确定，就直接说不知道。")
        ('直接说不知道', 1)
    """
    return instruction_in(clause, False)


def instruction_in(clause: str, scoped: bool) -> tuple[str, int] | None:
    """``(what, polarity)`` when ``clause`` is a standing instruction; ``scoped``: the
    words before it gave it a lasting scope ("Remember, …")."""
    if not clause.strip():
        return None
    if is_cjk_text(clause):
        return _zh_instruction(clause, scoped)
    return _en_instruction(clause, scoped)


def lasting_scope(prefix: str) -> bool:
    """Whether the words before a clause give it a lasting scope ("From now on, …")."""
    if is_cjk_text(prefix):
        return bool(_ZH_STRONG_SCOPE.search(prefix) or re.search(r"记住|记得", prefix))
    return bool(_EN_SCOPE.search(prefix) or re.search(r"\bremember\b|heads up", prefix, re.I))
