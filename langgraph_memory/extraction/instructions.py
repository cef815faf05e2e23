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

The frames an English instruction is said in ("…, ok?", "make sure every reply…", "keep
that in mind for any…", "if I ask about money assume…", "For maths, …", "short replies
from here on", "I live in the eurozone so…") are read by :mod:`.instruction_frames`; the
moods it is said in (its lead-in, prohibition, modal, condition) are in
:mod:`.instruction_moods`; the words of the replies (their verbs, parts and manners) are in
:mod:`.reply_words`; Chinese is :mod:`.instructions_zh`.

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

from langgraph_memory.core.held_texts import text_cache
from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.clauses import (
    EN_HYPOTHETICAL,
    EN_REPORTED,
    is_question,
    tidy_value,
)
from langgraph_memory.extraction.cues import gated
from langgraph_memory.extraction.instruction_frames import (
    ANY_OF_YOURS,
    YOURS_MUST,
    bare_condition,
    base_form,
    domain_topic,
    inverted_resolve,
    kept_in_mind,
    limit_rule,
    make_sure,
    reason_so,
    same_again,
    untag,
    verbless_rule,
)
from langgraph_memory.extraction.instruction_gaps import spaced, spaced_instruction
from langgraph_memory.extraction.instruction_lookalikes import ADVICE as _EN_ADVICE
from langgraph_memory.extraction.instruction_lookalikes import COUNTERFACTUAL as _EN_COUNTERFACTUAL
from langgraph_memory.extraction.instruction_lookalikes import PAST_FORM as _EN_PAST_FORM
from langgraph_memory.extraction.instruction_lookalikes import PICK as _EN_PICK
from langgraph_memory.extraction.instruction_lookalikes import SOCIAL as _EN_SOCIAL
from langgraph_memory.extraction.instruction_moods import COND as _EN_COND
from langgraph_memory.extraction.instruction_moods import LATE_COND as _EN_LATE_COND
from langgraph_memory.extraction.instruction_moods import LEAD as _EN_LEAD
from langgraph_memory.extraction.instruction_moods import MODAL as _EN_MODAL
from langgraph_memory.extraction.instruction_moods import PROHIBIT as _EN_PROHIBIT
from langgraph_memory.extraction.instruction_moods import SCOPE as _EN_SCOPE
from langgraph_memory.extraction.instruction_moods import SOFT as _EN_SOFT
from langgraph_memory.extraction.instruction_moods import TAIL as _EN_TAIL
from langgraph_memory.extraction.instruction_moods import TIME_SCOPE as _EN_TIME_SCOPE
from langgraph_memory.extraction.instructions_zh import (
    zh_instruction,
    zh_lasting_scope,
    zh_one_thing,
    zh_said_by_another,
)
from langgraph_memory.extraction.reply_words import (
    EN_ACTS as _EN_ACTS,
)
from langgraph_memory.extraction.reply_words import (
    EN_ADJ as _EN_ADJ,
)
from langgraph_memory.extraction.reply_words import (
    EN_IMPERATIVE as _EN_IMPERATIVE,
)
from langgraph_memory.extraction.reply_words import (
    EN_MANNER as _EN_MANNER,
)
from langgraph_memory.extraction.reply_words import (
    EN_OWN_OUTPUT as _EN_OWN_OUTPUT,
)
from langgraph_memory.extraction.reply_words import (
    EN_PROHIBITED_ACTS as _EN_PROHIBITED_ACTS,
)
from langgraph_memory.extraction.reply_words import (
    EN_REPLY_ACT as _EN_REPLY_ACT,
)
from langgraph_memory.extraction.reply_words import (
    EN_REPLY_PART as _EN_REPLY_PART,
)
from langgraph_memory.extraction.spelling import plain_spelling

__all__ = [
    "instruction_of",
    "instruction_in",
    "lasting_scope",
    "one_thing",
    "said_by_another",
    "RULE_REACH",
]

#: The longest clause read as a standing instruction, in characters. A rule for the
#: replies is said in a sentence, not a page; a longer run (a pasted log, a thousand
#: stacked "When I code, …") is read in linear time by giving it no rule, where its
#: conditions, each read with the rest of the clause, would cost the square of its length.
RULE_REACH = 1_000

# -- standing instructions (English) ----------------------------------------------------------
#: A one-off object: this text, that file, the thing just said, this time.
_EN_ONE_OFF = gated(
    r"\b(?:this|that|these|those|it|here|(?:above|below)(?!\s+(?:\d|ten|five|a |an |zero|\w+ty))|"
    r"the following|the attached|"
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
    r"over|into|under|below|above|only|first|last|for|at the (?:top|end|start|bottom))\b",
    re.I,
)
#: Leaving something out of the replies: "Avoid sarcasm.", "Spare me the quotes.", "Hold
#: off on recommendations" (a bare or "the" object, no one-off).
_EN_LEAVE_OUT = re.compile(
    r"^(?:avoid|skip|omit|leave out|cut out|spare me|hold off on|ease up on|go light on)\s+"
    r"(?!(?:me|us|him|her|them|it|this|that|my|your|his|their)\b)(?:the\s+)?[a-z][\w'-]*"
    r"(?:\s+(?!(?:by|to|at|in|on|for|with|from|and)\b)[a-z][\w'-]*){0,3}(?:\s+until I ask)?$",
    re.I,
)


#: A word of the user's that stands for a request: "When I say 'ship it', commit…".
_EN_TRIGGER = re.compile(
    r"^(?:when(?:ever)?|if|once|every time|any ?time)\s+I\s+(?:say|type|write|send)\s+"
    r"['\"“‘](?P<word>[^'\"”’]{1,30})['\"”’]\s*,?\s*(?:that\s+|it\s+)?"
    r"(?:means?|do|then|you\s+(?:should|can|must)|please|just)?\s*(?P<rest>\w.{2,})$",
    re.I,
)
#: A verbless request, "Temperatures in Celsius please": a part of the replies and its form.
_EN_VERBLESS = re.compile(
    r"^(?:(?:all|the|your)\s+)?(?P<part>[\w-]+(?:\s+[\w-]+)?)\s+(?:in|as|with|without|under)\s+"
    r"(?P<how>[\w' -]{1,30})$",
    re.I,
)


@text_cache(maxsize=1024)
def _en_instruction(
    clause: str, scoped: bool = False, addressed: bool = False
) -> tuple[str, int] | None:
    """``(what, polarity)`` when an English clause is a standing instruction (remembered:
    a clause of stacked conditions, "When I code, when I code, …", reaches the same rest by
    many paths, which must be read once each, not once a path)."""
    s = untag(plain_spelling(clause.strip().rstrip(".!…~ ")))
    pick = _EN_PICK.match(s)  # "give me mountains any time": a taste, not a rule
    if not s or (pick and not _EN_MANNER.search(f"{pick['what']} {pick['other'] or ''}")):
        return None
    if _EN_COUNTERFACTUAL.match(s):
        return None  # "If the offer had come through I'd have…": what did not happen
    trigger = _EN_TRIGGER.match(s)
    if trigger:  # a trigger word lasts by its nature
        return f"'{trigger['word']}' means: {tidy_value(trigger['rest'], 'en')}", 1
    # a lasting scope said before the polite question: "In future, could you skip…?"
    head = _EN_LEAD.match(s)
    rest = s[head.end() :] if head else s
    polite = _EN_POLITE.match(rest)
    if polite is not None and head is not None:
        scoped = scoped or bool(_EN_SCOPE.search(head.group(0)))
    if is_question(s):
        if polite is None:
            return None
        s = rest[polite.end() :].rstrip("?？ ")
    elif polite is not None:
        s = rest[polite.end() :]
    so = reason_so(s)  # "I live in the eurozone so quote prices in euros"
    if so is not None and kept_in_mind(s) is not None:
        so = None  # "…, so keep that in mind for any charts you describe": the whole of it
    if so is not None and not (EN_HYPOTHETICAL.search(so[2]) or EN_REPORTED.search(so[2])):
        rest, lasting = so[0], so[1]
        if _EN_TASK.match(_EN_SOFT.sub("", rest)) and not _EN_CONTRAST.search(rest):
            lasting = False  # "I love Italian food so recommend a restaurant": a task now
        return _en_instruction(rest, scoped or lasting, addressed)
    if EN_HYPOTHETICAL.search(s) or EN_REPORTED.search(_EN_QUOTE_VERB.sub("", s)):
        return None
    lets = False  # a first-person plural proposal ("let's…")
    lead = _EN_LEAD.match(s)
    if lead:
        scoped = scoped or bool(_EN_SCOPE.search(lead.group(0)))
        s = s[lead.end() :]
    again = same_again(s)  # "do that every time": the request before, made standing
    if again is not None:
        return tidy_value(again, "en"), 1
    label = _EN_RULE_LABEL.match(s)
    if label:  # a rule said as a rule: its words are the instruction
        return tidy_value(label["rule"], "en"), 1
    framed = _en_framed(s)
    if framed is not None:
        return framed
    want = _EN_WANT.match(s)
    if want and not _EN_ONE_OFF.search(want["what"]):  # "I want short answers"
        return tidy_value(want["what"], "en"), -1 if want["neg"] else 1
    late = _EN_LATE_COND.match(s)
    if late and _EN_REPLY_ACT.search(late["cond"]):  # "Assume I'm new when explaining money"
        got = _en_instruction(late["body"], True, True)
        if got is not None:  # the condition stays in what is kept: "jargon when you explain…"
            return tidy_value(f"{got[0]} {late['cond']}", "en"), got[1]
    cond = _EN_COND.match(s)
    if cond:
        about_us = re.search(r"\b(?:I|you|we|me|my|your|in doubt|unsure|unclear)\b", cond["cond"])
        if about_us or _EN_MANNER.search(cond["cond"]):
            to_us = bool(_EN_REPLY_ACT.search(cond["cond"]) or _EN_MANNER.search(cond["cond"]))
            got = _en_instruction(cond["rest"], True, to_us)  # "When reviewing my code, …"
            wish = re.sub(r"[\s,]+(?:please|pls)$", "", re.split(r"\s*[,;—–]\s*", cond["rest"])[0])
            if got is None and to_us and verbless_rule(wish, _EN_MANNER):
                return tidy_value(f"{wish} {cond['cond']}", "en"), 1  # ", bullet points please"
            if got is None and re.search(r"\byou\b", cond["cond"], re.I):  # its rule before
                got = _en_instruction(cond["cond"], scoped, True)  # the comma: "if you're not
            return got  # sure just say so, don't…"
        return None
    topic = domain_topic(s)
    if topic is not None and not _EN_ONE_OFF.search(topic[0]):  # "For maths, show the working"
        return _en_instruction(topic[1], True, False)
    for bare, rest in bare_condition(s):  # "if I ask about money assume I'm in the UK"
        said = re.sub(r"^just\s+", "", rest, flags=re.I)  # "if you're unsure just say so"
        opens = _EN_IMPERATIVE.match(said)
        if opens and _EN_IMPERATIVE.match(said[opens.end() :].lstrip()):
            continue  # "a word list make…": "list" names a thing, "make" is the verb
        if opens or _EN_PROHIBIT.match(rest):
            to_us = bool(_EN_REPLY_ACT.search(bare) or _EN_MANNER.search(bare))
            got = _en_instruction(rest, True, to_us)
            if got is not None:
                return tidy_value(f"{bare}, {got[0]}", "en"), got[1]
    asked = tailed = False  # a "please" after it; a lasting scope after it
    for _ in range(4):  # a trailing scope or courtesy: "Be concise from now on, please"
        tail = _EN_TAIL.search(s)
        if tail is None:
            break
        if not re.search(r"please|pls|thanks|thank you|for me|ok|if", tail.group(0), re.I):
            scoped = tailed = True
        asked = asked or bool(re.search(r"please|pls", tail.group(0), re.I))
        s = s[: tail.start()]
    if tailed and not _EN_IMPERATIVE.match(s) and verbless_rule(s, _EN_MANNER):
        return tidy_value(s, "en"), 1  # "short replies from here on"
    verbless = _EN_VERBLESS.match(s) if asked and not _EN_IMPERATIVE.match(s) else None
    if verbless and re.fullmatch(_EN_REPLY_PART, verbless["part"].split()[-1], re.I):
        if _EN_MANNER.search(verbless["how"]):  # "Temperatures in Celsius please"
            return tidy_value(s, "en"), 1
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
        body = base_form(body)  # "if you gave me…": the verb "give"
        past = re.match(r"(\w+?)(e?d)\b", body)  # "if you included…": the verb "include"
        if past and not _EN_IMPERATIVE.match(body):
            doubled = past[1][:-1] if re.search(r"([bdglmnprt])\1$", past[1]) else ""
            for stem in (past[1] + "e", past[1], doubled):  # "stopped": "stop"
                if _EN_IMPERATIVE.match(stem + body[past.end() :]):
                    body = stem + body[past.end() :]
                    break
        if re.match(r"never\s+", body, re.I):
            polarity, scoped, body = -1, True, body[6:].lstrip()
        elif re.match(r"(?:stop|quit)\s+\w+ing\b", body, re.I):  # "if you stopped saying…"
            polarity, body = -polarity, body.split(None, 1)[1]
    elif prohibit:
        kind, polarity = "prohibit", -1
        body = s[prohibit.end() :]
        scoped = scoped or bool(re.search(r"\bnever\b|\bever\b", prohibit.group(0), re.I))
        if inverted_resolve(body):
            return None  # "Never again will I…": the speaker's resolve
    else:
        scoped = scoped or bool(re.match(r"(?:please\s+)?(?:always|only)\b", s, re.I))
        body = _EN_SOFT.sub("", s)
        # "Remember to give me both units": a lasting reminder, not a one-off task
        scoped = scoped or bool(
            re.search(r"\b(?:remember|forget) to\b", s[: len(s) - len(body)], re.I)
        )
        lets = bool(re.search(r"\blet(?:'s|’s|\s+us)\b", s[: len(s) - len(body)], re.I))
    body = body.strip(" ,")
    if not body or _EN_ADVICE.match(body) or _EN_ADVICE.match(s) or _EN_SOCIAL.match(body):
        return None
    if _EN_PAST_FORM.match(body) and not _EN_IMPERATIVE.match(body):
        return None  # "Never thought I'd say this": what happened, not what to do
    if kind == "imperative" and re.match(r"\w+\s+\w+\s+(?:is|was|are|were)\b", body, re.I):
        return None  # "start date is the 3rd": a noun and its verb, no imperative
    verb = bool(_EN_IMPERATIVE.match(body) or re.match(r"^\w+ing\b", body))
    verb = verb or bool(modal and re.match(rf"(?:\w+\s+)?{_EN_REPLY_PART}", modal.group(0), re.I))
    verb = verb or (kind == "prohibit" and bool(re.match(r"[a-z]+\b", body)))
    own = bool(modal and re.match(YOURS_MUST, modal.group(0), re.I))  # "any email you draft…"
    verb = verb or own
    if kind == "imperative" and not _EN_IMPERATIVE.match(body):
        return None
    if not verb and not (kind == "prohibit" and _EN_MANNER.search(body)):
        return None
    scoped, addressed = scoped or own, addressed or own
    if (
        re.match(r"be\b", body, re.I)
        and not own
        and not re.match(r"be\s+(?:in|as|under|within|below)\b", body, re.I)
        and not re.match(
            rf"be\s+(?:(?:so|too|very|overly|that|extra|more|less|a bit|a little|as|brutally|"
            rf"completely|totally|really|always|super|absolutely|extremely|radically)\s+)*{_EN_ADJ}\b",
            body,
            re.I,
        )
    ):
        return None
    yours = bool(ANY_OF_YOURS.search(body))  # "any terms you use": each of them, lasting
    scoped, addressed = scoped or yours or bool(_EN_SCOPE.search(body)), addressed or yours
    manner = bool(_EN_MANNER.search(body) or re.search(rf"\b{_EN_ADJ}\b", body, re.I))
    if lets and (not manner or _EN_JOINT.search(body)):
        return None  # "Let's keep working together to…", "let's talk again soon": our plan
    if (
        modal
        and not re.search(r"\b(?:you|I)\b", modal.group(0), re.I)
        and not _EN_OWN_OUTPUT.search(modal.group(0))
        and not re.match(r"(?:be|use|include|have|show|come|stay|follow|start|end|look)\b", body)
    ):
        return None  # "The prices should drop soon": a forecast, not how to write them
    manner = manner or bool(modal and _EN_MANNER.search(modal.group(0)))  # "Prices should…"
    generic = bool(_EN_GENERIC.match(body) or _EN_LEAVE_OUT.match(body))
    # "state your assumptions", "cite your sources": an act on the assistant's own output
    generic = generic or bool(
        re.match(r"(?:state|cite|show|list|mention|include|explain|justify)\s+your\b", body, re.I)
    )
    plain = re.sub(
        r"\b(?:keep|make) it\s+(?=(?:\w+\s+)?(?:short|brief|simple|concise|casual|light|"
        r"professional|formal|friendly|tight|clean|readable|snappy)\b)",
        "",
        body,
        flags=re.I,
    )
    # "it" after a part of the replies points back to it: "Show the code before explaining it"
    plain = re.sub(rf"(\b{_EN_REPLY_PART}\b.*?)\b(?:it|them)\b", r"\1", plain, flags=re.I)
    if _EN_ONE_OFF.search(plain) and not scoped:
        return None
    if polite is not None and not _EN_TIME_SCOPE.search(clause):
        return None  # "Could you use tabs?", "Can you log each request?": a request now
    if scoped:
        addressed = addressed or bool(manner or generic or _EN_ACTS.match(body))
        # "keep everything PG", "keep it PG at all times": all the assistant says, kept a way
        addressed = addressed or bool(_KEEP_ALL.match(body))
        if not (addressed or _EN_USER_REF.search(body)):
            return None
    elif kind == "imperative":
        ordered = manner and _EN_ORDER.search(body)  # "Give me the answer first, then…"
        if not (manner or generic) or (_EN_TASK.match(body) and not ordered):
            return None
    elif kind == "modal":  # "…if you told me the risks first": the order of a reply
        if not (manner or generic or (_EN_ACTS.match(body) and _EN_ORDER.search(body))):
            return None
    elif not (manner or generic or _EN_PROHIBITED_ACTS.match(body)):
        return None
    if own and modal is not None:  # the rule is for what the modal's subject names: keep it
        body = f"{modal.group(0).strip()} {body}"
    return tidy_value(body, "en"), polarity


#: All the assistant says, kept a way: "keep everything PG", "keep it PG" (not "keep it up").
_KEEP_ALL = re.compile(
    r"keep (?:everything|it all|all of it|"
    r"it(?!\s+(?:up|going|down|to|in|on|off|away|secret|safe|together|real|quiet|short)\b))\b",
    re.I,
)
#: "Quote prices in euros": the verb, not someone's quoted words.
_EN_QUOTE_VERB = re.compile(  # or "you" saying it: "if you wrote…", "any prices you quote"
    r"^(?:please\s+|always\s+)*quote\b|\b(?:you|u)(?:'d| would)?\s+(?:wrote|quote|told me|said)\b",
    re.I,
)
#: A user's want whose object is the replies' make-up: "I want short answers", "I need
#: distances in kilometres", "I don't want long explanations" (no one-off object).
_EN_WANT = re.compile(
    r"^(?:(?:and|but|so|also)\s+)?(?:that\s+)?I(?:'d|\s+would)?\s+"
    r"(?P<neg>(?:do not|don't|never)\s+)?"
    r"(?:always\s+|really\s+|just\s+|only\s+)*(?:want|need|expect)\s+"
    r"(?P<what>(?:(?:all|any)\s+)?(?:[\w'-]+(?:,?\s+|\s+and\s+)){0,3}?"
    rf"{_EN_REPLY_PART}\b(?:\s+(?:in|as|with|without|under|below|over|to|from|"
    r"that|which|first|only|at)\b.*)?)$",
    re.I,
)
#: A contrast that makes a request a way of doing it: "two options instead of one".
_EN_CONTRAST = re.compile(r"\b(?:instead of|rather than|not|over)\b", re.I)
#: Ordering of the reply's parts: "first", "then", "at the top".
_EN_ORDER = re.compile(
    r"\b(?:first|then|last|at the (?:top|end|start|bottom)|before|after)\b", re.I
)

#: What marks a "let's…" clause as something the speakers will do together, not a way to
#: reply: "together", "we", "us", "soon", "our" before anything but the replies.
_EN_JOINT = re.compile(
    r"\b(?:together|each other|one another|we|us|soon|someday|sometime|one day)\b|"
    r"\bour\s+(?!(?:answers?|replies|responses?|chats?|conversations?|messages?)\b)",
    re.I,
)


def _en_framed(s: str) -> tuple[str, int] | None:
    """An instruction said in a frame of its own: "make sure every reply…", "…, so keep that
    in mind for any advice you give" (see :mod:`.instruction_frames`)."""
    sure = make_sure(_EN_SOFT.sub("", s) if s.lower().startswith("please") else s)
    if sure is not None:
        return tidy_value(sure[0], "en"), sure[1]
    if limit_rule(s, _EN_MANNER):  # "No more than one question per reply"
        return tidy_value(s, "en"), 1
    mind = kept_in_mind(s)
    return None if mind is None else (tidy_value(mind, "en"), 1)


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
    words before it gave it a lasting scope ("Remember, …"). A clause longer than
    :data:`RULE_REACH` characters is no instruction."""
    if not clause.strip() or len(clause) > RULE_REACH:
        return None
    if is_cjk_text(clause):
        text = plain_spelling(clause)
        if spaced(text):  # "讲数学题的时候一步一步来 别跳步": spaces for commas
            got = spaced_instruction(text, scoped, zh_instruction, zh_lasting_scope)
        else:
            got = zh_instruction(text, scoped)
        # one character asks nothing ("填表要用：…" read "用"): what to do was not said
        return got if got is None or len(got[0].strip(" ，,：:")) > 1 else None
    return _en_instruction(clause, scoped)


def said_by_another(sentence: str) -> bool:
    """Whether a Chinese sentence reports someone else's words ("我妈说以后每次…"): a rule
    in it is theirs, not one for the assistant (English: ``False``, its reporting verbs are
    read with each clause).

    Example:
        >>> said_by_another("我妈说以后每次吃饭都要先喝汤。"), said_by_another("以后都用中文。")
        (True, False)
    """
    return is_cjk_text(sentence) and zh_said_by_another(sentence)


def lasting_scope(prefix: str) -> bool:
    """Whether the words before a clause give it a lasting scope ("From now on, …")."""
    if is_cjk_text(prefix):
        return zh_lasting_scope(prefix)
    return bool(_EN_SCOPE.search(prefix) or re.search(r"\bremember\b|heads up", prefix, re.I))


def one_thing(sentence: str) -> bool:
    """Whether a sentence is about one thing only, so no clause of it is a rule: Chinese
    opening on a demonstrative with no lasting scope ("这题直接给答案，不用解释"; English
    says it with "for this …", read by the clause itself).

    Example:
        >>> one_thing("这题直接给答案，不用解释"), one_thing("以后都直接给答案")
        (True, False)
    """
    return is_cjk_text(sentence) and zh_one_thing(sentence)
