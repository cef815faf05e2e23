"""The moods an English standing instruction is said in (see :mod:`.instructions`).

What opens the clause before the rule itself (:data:`LEAD`: "ok, from now on", "one more
thing —", "do me a favour and"), the softeners of an imperative (:data:`SOFT`: "please",
"make sure to"), a prohibition (:data:`PROHIBIT`: "don't", "never", "no more"), a modal
addressed to the assistant or said of its replies (:data:`MODAL`: "you should", "I'd
appreciate it if you", "your answers must", "any email you draft for me must"), and a
condition before its comma (:data:`COND`: "when you explain…,", "for any code reviews,") or
after its rule (:data:`LATE_COND`), and the scope that makes it last (:data:`SCOPE` anywhere,
:data:`TAIL` after the rule, :data:`TIME_SCOPE` in time: "always", "from now on").

Example:
    >>> MODAL.match("Any email you draft for me must be formal").group(0)
    'Any email you draft for me must '
    >>> PROHIBIT.match("Don't ever use emojis").group(0)
    "Don't ever "
    >>> LEAD.match("do me a favour and never use emojis").group(0)
    'do me a favour and '
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.cues import gated
from langgraph_memory.extraction.instruction_frames import YOURS_MUST

__all__ = [
    "COND",
    "LATE_COND",
    "LEAD",
    "MODAL",
    "PROHIBIT",
    "SCOPE",
    "SOFT",
    "TAIL",
    "TIME_SCOPE",
]

#: Words before a rule: assent, a lead-in, a lasting scope, a kind of request it is for.
LEAD = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|alright|all right|also|and|oh|btw|by the way|one more thing|"
    r"another thing|(?:quick|small|little|tiny|minor|one|last) (?:thing|note|request|ask|point)|"
    r"note|fyi|hey|so|well|right|hi|hello|one request|do me a (?:favou?r|solid)(?: and)?|"
    r"a request|small request|last thing|finally|general rule|rule|house rule|for the record|"
    r"going forward|from now on|from here on(?: out)?|in (?:the )?future|henceforth|"
    r"in general|generally|as a rule|by default|for everything|"
    r"heads up|whatever you do|no matter what|under no circumstances|in any case|"
    r"remember(?!\s+to\b)|keep in mind|for future reference|note to self|important|"
    r"for the rest of (?:this|the|our) \w+|until I say otherwise|"
    r"for all (?:future )?\w+(?!\s+(?:[\w/;.+#-]+\s+){0,2}?(?:questions?|queries|requests?|tasks?|"
    r"emails?|problems?|reviews?|answers?|prompts?)\b)|"
    # a kind of request the rule is for: "for all my SQL questions", "for any code reviews"
    r"for (?:all|any|every|each)\s+(?:(?:of\s+)?(?:my|your|future|the)\s+)*(?:[\w/;.+#-]+\s+){0,2}?"
    r"(?:questions?|queries|requests?|tasks?|emails?|problems?|reviews?|answers?|prompts?))"
    r"\b[\s,:;—–-]*)+",
    re.I,
)
#: Softeners of an imperative: "please", "just", "make sure to", "let's".
SOFT = re.compile(
    r"^(?:(?:please|pls|plz|kindly|just|simply|really|also|always|only|do|try to|make sure to|"
    r"let's|let us|"
    r"make sure you|be sure to|remember to|don't forget to|be careful to|take care to)\s+)+",
    re.I,
)
#: A prohibition: "don't", "never", "stop", "avoid", "no more".
PROHIBIT = re.compile(
    r"^(?:(?:please\s+|just\s+|also\s+|and\s+)*(?:never ever|don't ever|do not ever|dont ever|"
    r"do not|don't|dont|never|stop|quit|avoid|refrain from|try not to|make sure (?:you )?"
    r"(?:don't|do not|never)|no more(?!\s+than)|no(?!\s+more\s+than|\s+matter\b))\s+)",
    re.I,
)
#: A modal addressed to the assistant, or said of what it writes.
MODAL = re.compile(  # "you'd better", "I'd appreciate it if you'd", "your answers must"
    r"^(?:you\s+(?:should|must|need to|have to|ought to|'ve got to|have got to|gotta|will|'ll|"
    r"are to|shall)(?P<neg>\s+(?:not|never))?|you(?:'d| had) better(?P<neg2>\s+not)?|"
    r"I(?:\s+|(?='))(?:want|need|'d like|would like|expect|prefer|'d prefer|would prefer)"
    r"\s+you\s+to"
    r"(?P<neg3>\s+(?:not|never))?|"
    r"you (?:don't|do not) (?:need|have) to|(?:there's |there is )?no need (?:for you )?to|"
    r"(?:it(?:'d| would) (?:(?:really|so|just|honestly|genuinely|also)\s+)?"
    r"(?:be (?:(?:really|so|super|very)\s+)?(?:great|nice|better|good|helpful)|"
    r"help(?:\s+(?:a lot|so much|a ton|loads|heaps))?)|it helps|"
    r"I(?:'d| would) appreciate it)"
    r"\s+if you(?:'d| would| could)?(?P<neg4>\s+(?:didn't|did not|never|don't|not))?|"
    r"I(?:'d| would) (?:rather|prefer(?: it)?(?: that| if)?) you(?:'d| would)?"
    r"(?P<neg5>\s+(?:didn't|did not|not|never|don't))?|"
    r"I don't want you to|I do not want you to|I never want you to|"
    rf"{YOURS_MUST}(?P<neg7>\s+(?:not|never))?|"
    r"(?:your |all |the |any )?(?:answers?|repl(?:y|ies)|responses?|explanations?|code|examples?|"
    r"summar(?:y|ies)|messages?|output|prices?|dates?|times?|temperatures?|numbers?|amounts?|"
    r"units?|measurements?|distances?|weights?|figures?|currenc(?:y|ies))\s+(?:should|must|"
    r"need to|have to|ought to|(?:always\s+)?(?:needs?|has|"
    r"have) to)"
    r"(?P<neg6>\s+(?:not|never))?)\s+",
    re.I,
)
#: A condition before its comma or colon, and the rule after it.
COND = re.compile(
    r"^(?P<cond>(?:when(?:ever)?|if|every time|each time|any ?time|once|in case|as long as|"
    r"unless|for (?:any|every|each|all)|with (?:any|every|each|all)|in (?:any|every|each|all)|"
    r"for(?=\s+(?:(?:my|your|the)\s+)?[\w/;.+#-]+(?:\s+[\w/;.+#-]+)?\s+(?:questions|queries|"
    r"requests|tasks|emails|problems|reviews|prompts)\b))"
    r"\b[^,;:]{2,90}?)\s*[,:]\s*(?:then\s+)?(?P<rest>.+)$",
    re.I,
)
#: A condition said after its rule: "Assume I'm a beginner when explaining finance".
LATE_COND = re.compile(
    r"^(?P<body>.{2,}?\S)(?:\s*,\s*|\s+)(?<!\beven\s)"
    r"(?P<cond>(?:when(?:ever)?|if|every time|each time|any ?time)\s+"
    r".{3,80})$",
    re.I,
)

# -- scope: what makes a rule last -----------------------------------------------------------
#: A scope word: the instruction lasts.
SCOPE = gated(
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
#: A lasting scope or a courtesy said after the rule: "…from now on, please".
TAIL = gated(
    r"[\s,]+(?:from now on|from here on(?: out)?|going forward|in (?:the )?future|always|"
    r"every time|each time|at all times|all the time|by default|until I say otherwise|please|"
    r"pls|thanks|thank you|for me|ok(?:ay)?|if you can|if possible|unless I say otherwise|"
    r"for the rest of (?:this|the|our) \w+|"
    r"that's how I like it|that's what I prefer|that's my preference|it's getting old|"
    r"it's annoying)\s*$",
    re.I,
)

#: A scope that lasts in time, as a polite question asks for it ("…from now on?", "Could you
#: default to…?": a default lasts by its meaning).
TIME_SCOPE = re.compile(
    r"\b(?:always|never|from now on|going forward|in (?:the )?future|anymore|any more|"
    r"all the time|every time|each time|again|constantly|ever|from here on|by default|default to|"
    r"for the rest of (?:this|the|our) \w+|until I say otherwise|unless I say otherwise)\b",
    re.I,
)
