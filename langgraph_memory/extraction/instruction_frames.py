"""The frames a standing instruction is said in, in English (see :mod:`.instructions`).

:mod:`~langgraph_memory.extraction.instructions` reads the instruction itself (its mood,
modality, scope, addressee); this module reads the frame around it, by its grammar:

- a **tag question** after a request is no question: "…from now on, ok?", "…, alright?";
  a remark after a polite question is not part of it: "could you skip…? it bugs me";
- a **past form after "if you"** names the verb asked for: "It would help if you *gave* me
  the answer first" asks to *give* it (:func:`base_form`);
- **"make sure" with a subject** that is what the assistant writes, quantified or its
  own: "Make sure every email draft ends with…", "make sure your replies never…";
- **"keep (that) in mind"** with a scope over what the assistant does: "I'm left-handed,
  so keep that in mind for any advice you give me";
- a **condition without its comma**: "if I ask about money assume I'm in the UK";
- a **topic frame**, "For maths, show the working": a domain, not a time or an occasion;
- a **verbless request** with a lasting scope: "short replies from here on";
- a **negative inversion**, "Never again will I…", is the speaker's resolve, not a rule;
- a **reason, then "so"**: "I live in the eurozone so quote prices in euros"; a reason
  that is a lasting fact of the user's (a verb in the present, not a passing state: "My
  kids use this account too, so…") gives the rule a lasting scope (:func:`reason_so`);
- **what the assistant makes as the subject**: "Any email you draft for me must be
  formal" (:data:`YOURS_MUST`);
- **an earlier request made standing** by a pro-form and a lasting scope: "do that every
  time", "keep doing that for all our chats" (:func:`same_again`; what "that" is, the
  turn before says).

Example:
    >>> untag("Use metric from now on, ok?")
    'Use metric from now on'
    >>> base_form("gave me the answer first")
    'give me the answer first'
    >>> make_sure("Make sure every email draft ends with my name")
    ('every email draft ends with my name', 1)
    >>> make_sure("Make sure the kids are in bed by nine") is None
    True
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.cues import gated

__all__ = [
    "ANY_OF_YOURS",
    "OWN_WRITING",
    "YOURS_MUST",
    "base_form",
    "bare_condition",
    "domain_topic",
    "inverted_resolve",
    "kept_in_mind",
    "limit_rule",
    "make_sure",
    "reason_so",
    "same_again",
    "points_back",
    "untag",
    "verbless_rule",
]

#: A tag after a request, asking for assent: "…, ok?", "…, alright?", "…, yeah?".
_TAG = re.compile(
    r"[\s,]+(?:ok(?:ay)?|alright|all right|yeah|yes|right|k|got it|deal|cool|"
    r"(?:if that's|is that) ok(?:ay)?|would you|will you|can you|could you)\s*\?+\s*$",
    re.I,
)
#: A remark after a question mark, in the same sentence: "could you skip…? it bugs me".
_REMARK = re.compile(r"\?+\s+(?=[a-z])[^?]{1,60}$")


#: What opens a question of its own: "Is it ok?" keeps its "ok".
_ASKS = re.compile(
    r"\s*(?:is|are|am|was|were|do|does|did|can|could|would|will|should|shall|have|has|had|"
    r"may|might|what|why|how|where|when|who|which|isn't|aren't|don't|didn't)\b",
    re.I,
)


def untag(s: str) -> str:
    """``s`` without a tag question or a remark after its question mark: "Use metric from
    now on, ok?" is a request, not a question (a question is left as it is).

    Example:
        >>> untag("could you skip the intro? it bugs me")
        'could you skip the intro?'
        >>> untag("Is it ok?")
        'Is it ok?'
    """
    if "?" not in s:
        return s
    tag = _TAG.search(s) if s.rstrip().endswith("?") else None
    if tag is not None and tag.start() > 0 and not _ASKS.match(s):
        return s[: tag.start()].rstrip(" ,")
    remark = _REMARK.search(s)
    if remark is not None:
        return s[: remark.start() + 1]
    return s


#: Irregular past forms of the verbs a request asks for ("if you gave…", "if you kept…").
_PAST = {
    "gave": "give",
    "wrote": "write",
    "kept": "keep",
    "told": "tell",
    "said": "say",
    "spoke": "speak",
    "sent": "send",
    "left": "leave",
    "chose": "choose",
    "stuck": "stick",
    "made": "make",
    "began": "begin",
    "put": "put",
    "cut": "cut",
    "brought": "bring",
    "took": "take",
    "thought": "think",
    "read": "read",
    "set": "set",
    "led": "lead",
    "broke": "break",
    "drew": "draw",
    "went": "go",
}


def base_form(body: str) -> str:
    """``body`` with an irregular past form first made the verb's base form.

    Example:
        >>> base_form("kept it short")
        'keep it short'
        >>> base_form("use tabs")
        'use tabs'
    """
    word = re.match(r"[a-z]+", body)
    if word is not None and word.group(0).lower() in _PAST:
        return _PAST[word.group(0).lower()] + body[word.end() :]
    return body


#: What the assistant writes for the user (its replies and the texts it drafts).
OWN_WRITING = (
    r"(?:answers?|repl(?:y|ies)|responses?|explanations?|summar(?:y|ies)|examples?|code|"
    r"code samples?|snippets?|output|feedback|distances?|prices?|dates?|times?|temperatures?|"
    r"units?|measurements?|weights?|numbers?|figures?|amounts?|citations?|sources?|links?|"
    r"drafts?|emails?|e-mails?|letters?|messages?|posts?|captions?|titles?|headlines?|tweets?|"
    r"slides?|reports?|translations?|recipes?|suggestions?|recommendations?|lists?|tables?|"
    r"charts?|plans?|itinerar(?:y|ies)|quizz?e?s?|flashcards?|functions?|scripts?|queries|"
    r"commit messages?)"
)
#: What the assistant does for the user, after "you": "any advice you give me".
_YOUR_ACTS = (
    r"(?:give|gave|suggest|recommend|write|draft|describe|use|quote|mention|make|send|show|plan|"
    r"pick|choose|propose|explain|list|share|cite|produce|generate|offer|cook up|come up with|"
    r"put together|find|draw|design|create|translate)"
)
#: A quantified object of the assistant's doing: "any terms you use", "all the code you
#: write", "every plan you make" — the rule holds for each of them.
ANY_OF_YOURS = gated(
    rf"\b(?:any|all|every|each)\b(?:\s+(?!you\b)[\w'/-]+){{1,5}}?\s+(?:that\s+)?"
    rf"(?:you|u)(?:'ll| will)?\s+(?:ever\s+)?{_YOUR_ACTS}\b",
    re.I,
)

_MAKE_SURE = re.compile(
    r"^(?:make sure|be sure|ensure|see to it|"
    # a wish with the same subject: "I'd appreciate it if every email you draft ends with…"
    r"I(?:'d| would) (?:really )?(?:appreciate it|like it|love it|prefer it) if|"
    r"it(?:'d| would) (?:really )?(?:help|be (?:great|nice|better|good|helpful)) if)\s+(?:that\s+)?"
    r"(?P<subj>(?:(?:every|each|all|any|your|all of your|all the|the)\s+)[^,;]{1,40}?)\s+"
    r"(?P<neg>(?:never|don't|do not|doesn't|does not|won't|aren't|isn't)\s+)?"
    rf"(?P<verb>(?!{OWN_WRITING}\b)(?:always\s+)?(?:[a-z]+s|[a-z]+ed|had|were|are|is|have|use|"
    r"include|end|start|"
    r"begin|stay|come|get|"
    r"look|mention|say|show|give|follow|contain|fit|run|cite|read)\b.*)$",
    re.I,
)


def make_sure(s: str) -> tuple[str, int] | None:
    """``(what, polarity)`` when ``s`` asks to make sure of something about what the
    assistant writes, quantified ("every", "all", "any") or its own ("your"), or wishes
    for it ("I'd appreciate it if every email you draft ends with…").

    Example:
        >>> make_sure("Make sure your replies never mention prices in dollars")
        ('your replies mention prices in dollars', -1)
        >>> make_sure("Make sure the door is locked") is None
        True
    """
    m = _MAKE_SURE.match(s)
    if m is None:
        return None
    subj = m["subj"]
    if not re.search(rf"\b{OWN_WRITING}\b", subj, re.I):
        return None
    yours = re.search(rf"\b(?:you|u)\s+{_YOUR_ACTS}\b", subj, re.I)  # "the recipes you suggest"
    if re.match(r"the\b", subj, re.I) and not (yours or ANY_OF_YOURS.search(s)):
        return None  # "make sure the report is sent": that report, once
    return f"{subj} {m['verb']}", -1 if m["neg"] else 1


_MIND = re.compile(
    r"^(?P<pre>.*?)[\s,;—–-]*(?:\b(?:so|and|just|please)\s+)*(?:keep|bear|have)\s+"
    r"(?:(?:that|this|it)\s+)?in mind\b(?P<post>.*)$",
    re.I,
)
#: A scope over what the assistant does: "for any advice you give", "when you suggest…".
_OVER_YOURS = gated(
    rf"\b(?:when(?:ever)?|if|every time|each time)\s+(?:you|u)\s+{_YOUR_ACTS}|"
    r"\b(?:from now on|going forward|in (?:the )?future|from here on|always|every time)\b",
    re.I,
)


def kept_in_mind(s: str) -> str | None:
    """The sentence, when it asks the assistant to keep a fact in mind for what it does
    ("…, so keep that in mind for any recipes you suggest"), else ``None``.

    Example:
        >>> kept_in_mind("Bear in mind I'm vegan when you suggest recipes")
        "Bear in mind I'm vegan when you suggest recipes"
        >>> kept_in_mind("Keep that in mind, it's a tough market") is None
        True
    """
    m = _MIND.match(s) if "in mind" in s.lower() else None
    if m is None:
        return None
    if not (ANY_OF_YOURS.search(m["post"]) or _OVER_YOURS.search(m["post"])):
        return None
    if not (m["pre"].strip() or re.match(r"\s*(?:that\s+)?(?:I|my)\b", m["post"], re.I)):
        return None  # what is to be kept in mind is said: before, or after "that"
    return s


_BARE_COND = re.compile(
    r"^(?P<cond>(?:if|when(?:ever)?|every time|each time|any ?time)\s+(?:i|you|u)\s+"
    r"[a-z']+\b(?:\s+[\w'/.&+-]+){0,10}?)\s+(?P<rest>[a-z].{2,})$",
    re.I,
)
_BARE_COND_HEAD = re.compile(r"^(?:if|when(?:ever)?|every time|each time|any ?time)\s+", re.I)


def bare_condition(s: str) -> list[tuple[str, str]]:
    """The ways to split a condition said without its comma from its rule, shortest
    condition first: "if I ask about money assume I'm in the UK".

    Example:
        >>> bare_condition("if i ask about code assume python")[:2]
        [('if i ask', 'about code assume python'), ('if i ask about code', 'assume python')]
    """
    if _BARE_COND_HEAD.match(s) is None or "," in s or ";" in s:
        return []
    head = re.match(r"^\S+(?:\s+(?:time))?\s+\S+\s+\S+", s)
    if head is None:
        return []
    rest = s[head.end() :].lstrip()
    at = len(s) - len(rest)
    out = [(s[: head.end()], rest)]
    for w in list(re.finditer(r"\s+", rest))[:10]:
        out.append((s[: at + w.start()], s[at + w.end() :]))
    return [
        (c, r)
        for c, r in out
        if len(r) > 2 and not _OPEN_END.search(c) and not _NEW_SUBJECT.search(c, 4)
    ]


#: Another subject inside what would be the condition: its main clause has begun ("if I
#: ask her out | she might say no").
_NEW_SUBJECT = re.compile(r"\b(?:he|she|they|we|it's|there)\b", re.I)
#: A condition cut before its verb or its object: "If you always | use tabs", "when I ask
#: for a | list…".
_OPEN_END = re.compile(
    r"\b(?:always|never|ever|just|really|only|also|still|usually|often|sometimes|don't|do|"
    r"does|can|could|would|will|might|may|must|should|shall|won't|can't|to|a|an|the|my|your|"
    r"for|about|of|in|on|with|and|or)$",
    re.I,
)


#: A domain the rule is for: "For maths,", "For recipes,", "For travel plans,".
_DOMAIN = re.compile(
    r"^for\s+(?!(?:what|now|example|instance|once|real|sure|good|ever|the record|a|an|the|"
    r"my|our|his|her|their|this|that|these|those|me|us|him|them|you|one|two|some|starters|"
    r"today|tonight|tomorrow|dinner|lunch|breakfast|christmas|fun|free|reference|context|"
    r"clarity|the love)\b)(?P<topic>[a-z][\w/+#-]*(?:\s+[a-z][\w/+#-]*){0,2})\s*[,:]\s*"
    r"(?P<rest>.+)$",
    re.I,
)


def domain_topic(s: str) -> tuple[str, str] | None:
    """``(topic, rest)`` when ``s`` opens with a domain its rule is for ("For maths, show
    the working"): a bare noun, not a time, an occasion or someone.

    Example:
        >>> domain_topic("For recipes, list the ingredients in grams")
        ('recipes', 'list the ingredients in grams')
        >>> domain_topic("For dinner, let's get pizza") is None
        True
    """
    m = _DOMAIN.match(s)
    return None if m is None else (m["topic"], m["rest"])


_VERBLESS = re.compile(
    r"^(?!.*\b(?:i|you|u|we|he|she|they|it|me|my|your|when|whenever|if|and|but|or|to|is|are|"
    r"was|were|be|do|does|did)\b)(?:(?:more|less|fewer|much|very|extra|only|just|no)\s+)?(?:[\w;'-]+\s+){0,2}[\w;'-]+$",
    re.I,
)


def verbless_rule(s: str, manner: re.Pattern[str]) -> bool:
    """Whether ``s`` (its lasting scope already taken off) is a short noun phrase naming
    how the replies are to be: "short replies", "bullet points", "detailed answers".

    Example:
        >>> from langgraph_memory.extraction.instructions import instruction_of
        >>> instruction_of("short replies from here on")
        ('short replies', 1)
        >>> instruction_of("short nap from now on") is None  # a nap is no part of a reply
        True
    """
    words = s.split()  # its head, last, names a part or a manner of the replies
    heads = (words[-1], " ".join(words[-2:]))
    return bool(_VERBLESS.match(s)) and any(manner.fullmatch(h) for h in heads)


_INVERTED = re.compile(
    r"^(?:again|ever|before|once|in my life)?\s*(?:will|would|have|had|did|do|does|could|"
    r"shall|can|am|was)\s+(?:I|we)\b",
    re.I,
)


def inverted_resolve(body: str) -> bool:
    """Whether a clause after "never" inverts its subject: the speaker's own resolve or
    experience ("Never again will I…", "Never have I…"), not a rule.

    Example:
        >>> inverted_resolve("again will I eat there")
        True
    """
    return bool(_INVERTED.match(body))


_LIMIT = re.compile(
    r"^(?:no more than|not more than|never more than|at most|max(?:imum)?(?: of)?|fewer than|"
    r"less than|under)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a few|"
    r"a couple(?: of)?)\b.*\b(?:per|each|every|a)\s+(?P<part>[\w-]+)$",
    re.I,
)


def limit_rule(s: str, manner: re.Pattern[str]) -> bool:
    """Whether ``s`` sets a limit on each of the replies: "no more than one follow-up
    question per reply", "at most three bullet points per answer".

    Example:
        >>> from langgraph_memory.extraction.instructions import instruction_of
        >>> instruction_of("At most three bullet points per answer")
        ('At most three bullet points per answer', 1)
        >>> instruction_of("No more than two coffees a day") is None
        True
    """
    m = _LIMIT.match(re.sub(r"[\s,]+(?:please|pls|thanks|thank you|ok(?:ay)?)$", "", s, flags=re.I))
    return m is not None and bool(manner.fullmatch(m["part"]))


#: What the assistant makes, quantified, as the subject of a modal: "Any email you draft
#: for me must", "every plan you make should" (a pattern to embed; "the answer you gave
#: must be wrong" is none).
YOURS_MUST = (
    rf"(?:any|every|each|all(?:\s+(?:of\s+)?the)?)\s+(?:(?!you\b)[\w'/-]+\s+){{1,3}}?"
    rf"(?:that\s+)?(?:you|u)(?:'ll| will)?\s+(?!gave\b){_YOUR_ACTS}"
    r"(?:\s+(?:(?:for|to)\s+)?(?:me|us))?\s+"
    r"(?:should|must|need to|needs to|has to|have to|ought to)"
)

_SO = re.compile(
    r"^(?P<reason>(?:I|I'm|I've|we|we're|my|our)\b.{2,80}?)(?:\s*[,;—–-]\s*|\s+)"
    r"(?:and\s+)?(?:so|that's why|which is why|hence)\s+(?:please\s+)?(?P<rest>[a-z].{2,})$",
    re.I,
)
#: A lasting fact of the user's: a verb in the present ("I live…", "my kids use…", "I
#: can't read…"), not a passing state ("I'm tired", "I need a break", "I have a meeting").
_LASTING_REASON = re.compile(
    r"^(?:I|we|(?:my|our)\s+[\w'-]+(?:\s+[\w'-]+)?)\s+(?:(?:also|really|just|only|always|"
    r"usually|never|often|can't|cannot|don't|do not|hardly)\s+)*"
    r"(?!(?:am|is|are|was|were|need|needs|want|wants|have|has|had|got|feel|feels|think|"
    r"guess|hope|just|went|did|made|took|saw|came|left|bought|ate|spent|lost|found|forgot|"
    r"[a-z]+ed)\b)[a-z]+\b",
    re.I,
)
#: A passing moment in the reason: "I'm off to bed so…", "I have a call now so…".
_NOW = re.compile(
    r"\b(?:now|today|tonight|this (?:morning|afternoon|evening|week|time)|at the moment|"
    r"right now|currently|in a (?:hurry|rush)|about to)\b",
    re.I,
)


def reason_so(s: str) -> tuple[str, bool, str] | None:
    """``(rule, lasting, reason)`` when ``s`` gives a reason of the user's, then "so" and a
    rule: ``lasting`` when the reason is a lasting fact (a verb in the present, no "now").

    Example:
        >>> reason_so("I live in the eurozone so quote prices in euros")[:2]
        ('quote prices in euros', True)
        >>> reason_so("I'm tired so keep it short")[:2]
        ('keep it short', False)
        >>> reason_so("We went to Rome so it was fun") is None
        True
    """
    m = _SO.match(s)
    if m is None or re.match(r"(?:it|that|this|we|they|he|she|i)\b", m["rest"], re.I):
        return None  # "…so it was fun": what followed, not a request
    reason = m["reason"]
    lasting = bool(_LASTING_REASON.match(reason)) and not _NOW.search(reason)
    return m["rest"], lasting, reason


#: A pro-form standing for a request made before: "do that", "keep doing that", "do the same".
_PRO_FORM = re.compile(
    r"^(?:(?:actually|yes|yeah|yep|great|perfect|nice|good|cool|ok(?:ay)?|and|so|then|please|"
    r"just)[\s,!.]+)*"
    r"(?P<what>(?:keep|continue|start)\s+(?:doing|using|writing|answering|replying)\s+(?:that|this|it)"
    r"(?:\s+way)?|do\s+(?:that|this|it|the same|the same thing)(?:\s+(?:again|too))?|"
    r"(?:keep|stick with|stick to)\s+(?:that|this)(?:\s+up)?)\b\s*(?P<scope>.*)$",
    re.I,
)
#: A lasting scope over the talk, not over the user's own doings ("every time I go").
_PRO_SCOPE = re.compile(
    r"^(?:(?:from now on|from here on(?: out)?|going forward|in (?:the )?future|always|by default|"
    r"every time|each time|for good|permanently|"
    r"(?:for|in|with)\s+(?:all|every|each|any)\s+(?:of\s+)?(?:(?:my|our|your|future|the)\s+)*[\w-]+)"
    # not a scope over someone's doings ("every time I go"); one over the talk is ("…I ask")
    r"\b(?!\s+(?:I|we|you|he|she|they)\b(?!\s+(?:ask|want|need|request|say|send|write)\b))"
    r"[\s,]*)+",
    re.I,
)


def same_again(s: str) -> str | None:
    """The words of a request made standing by a pro-form ("do that", "keep doing that")
    and a lasting scope over the talk, else ``None``: "that" is what the user asked for
    in the turn before.

    Example:
        >>> same_again("perfect, actually do that for all my writing from here on")
        'do that for all my writing from here on'
        >>> same_again("I'll do that every time I go") is None, same_again("do that again")
        (True, None)
    """
    m = _PRO_FORM.match(s.strip())
    if m is None:
        return None
    scope = _PRO_SCOPE.match(m["scope"])
    if scope is None:
        return None
    return s.strip()[m.start("what") : m.start("scope") + scope.end()].rstrip(" ,")


#: Chinese words that make what follows last ("以后都这样"), before a pro-form.
_ZH_LASTING = re.compile(r"^(?:以后|今后|往后|之后|从现在起|从今以后|每次|一直)?")
#: A Chinese pro-form for the request before: "(以后)都这样", "就照这个来".
_ZH_PRO_FORM = re.compile(
    r"^(?:也|都|就|还|继续)*(?:这样|照这样|这么办|这么来|照这个来|按这个来|如此|照此|这么写|这么做)"
)


def points_back(words: str) -> bool:
    """Whether a standing instruction's words stand for a request made before ("do that
    for all my writing from here on", "以后都这样"): what "that" is lives in an earlier
    message of the user.

    Example:
        >>> points_back("do that for all my writing from here on"), points_back("以后都这样")
        (True, True)
        >>> points_back("Always answer in French"), points_back("以后回答用中文")
        (False, False)
    """
    w = words.strip()
    if _PRO_FORM.match(w):
        return True
    w = w.lstrip("，,、 ")
    return _ZH_PRO_FORM.match(w[_ZH_LASTING.match(w).end() :]) is not None  # type: ignore[union-attr]
