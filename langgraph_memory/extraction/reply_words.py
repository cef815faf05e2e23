"""The words of the replies, as standing instructions name them (see :mod:`.instructions`).

What the assistant does (its verbs: "use", "answer", "cite"), what its replies are made of
(their language, length, format, tone, units, parts), how it is to be ("concise",
"formal"), and the acts it does on them ("when you explain…", "if I ask…").

Example:
    >>> bool(EN_MANNER.search("short replies")), bool(EN_IMPERATIVE.match("cite sources"))
    (True, True)
"""

from __future__ import annotations

import re

__all__ = [
    "EN_ACTS",
    "EN_ADJ",
    "EN_IMPERATIVE",
    "EN_MANNER",
    "EN_OWN_OUTPUT",
    "EN_PROHIBITED_ACTS",
    "EN_REPLY_ACT",
    "EN_REPLY_PART",
    "EN_VERBS",
]

#: Verbs of what the assistant does or makes, opening an imperative.
EN_VERBS = (
    "use|answer|reply|respond|write|keep|be|give|show|include|add|put|format|start|begin|end|"
    "avoid|call|address|refer|explain|tell|list|mention|cite|quote|summari[sz]e|translate|spell|"
    "speak|talk|switch|stick|default|make|assume|treat|ask|check|remind|skip|leave|drop|limit|"
    "cap|provide|offer|suggest|recommend|follow|mark|label|sign|greet|double-check|present|"
    "break|split|wrap|number|bold|highlight|comment|document|type|name|indent|convert|round|"
    "express|measure|report|lead|open|close|finish|conclude|focus|stay|confirm|clarify|flag|"
    "warn|point out|lay out|spell out|write out|err|lean|prioriti[sz]e|favou?r|emphasi[sz]e|"
    "simplify|shorten|expand|elaborate|reference|link|attach|append|prefix|capitali[sz]e|"
    "lowercase|uppercase|separate|group|sort|order|rank|display|render|output|return|print|"
    "define|adopt|apply|maintain|match|mirror|omit|exclude|remove|hide|cut|trim|reduce|minimi[sz]e|"
    "tone down|go easy on|send|pick|choose|go with|opt for|try|stop|prefer|reference|sprinkle|"
    "overexplain|over-explain|apologi[sz]e|repeat|restate|pad|hedge|lecture|moralise|moralize|"
    "sugarcoat|guess|invent|make up|bring up|share|insert|assume|state|note|respond|say|"
    "admit|tell me|double check|nudge|hold off on|spare me|leave out|cut out|ease up on|go light on"
)
EN_IMPERATIVE = re.compile(rf"^(?:{EN_VERBS})\b", re.I)
#: Verbs whose object is the assistant's own output (an instruction without a manner word).
EN_ACTS = re.compile(
    r"^(?:use|answer|reply|respond|write|cite|format|include|add|explain|define|list|show me|"
    r"give me|"
    r"tell me|call me|address me|refer to me|remind me|nudge me|ask me|summari[sz]e|translate|"
    r"suggest|"
    r"recommend|mention|say|double-check|double check|check|confirm|flag|warn|spell|quote|round|"
    r"convert|label|number|structure|put|start|begin|end|sign|greet|apologi[sz]e|assume|"
    r"lecture|moralis|moraliz|sugarcoat|hedge|pad|guess|invent|make up|bring up|over-?explain|"
    r"repeat|restate|talk|speak|default|stick|switch|avoid|skip|omit|leave out|drop|state|"
    r"hold off on|spare me|cut out|ease up on|go light on)\b",
    re.I,
)
#: What the replies are made of: their language, length, format, tone, units, parts.
EN_MANNER = re.compile(
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
    r"first names?|my name|me as|call me|address me|opinion|numbers|numerals|digits|commas?|"
    r"punctuation|spelling|grammar|capitali[sz]ation|bold|italics?|formalities|pleasantries|"
    r"background|history lessons?|paragraphs?|headings?|sarcas\w*|irony|clich\w*|buzzwords?|"
    r"superlatives|adverbs|adjectives|passive voice|rhetorical questions?|metaphors?|analog\w+|"
    r"recommendations?|suggestions?|"
    r"options?|alternatives?|questions?|follow-up|pleasantries|small talk|filler|fluff|"
    r"preamble|intro|introductions?|conclusions?|outline|"
    r"(?:like|as if|as though) I(?:'m| am| was| were)\b|"
    r"like an? (?:friend|teacher|professor|"
    r"colleague|peer|expert|beginner|child|kid|five-year-old|human|person|coach|mentor)|"
    r"python|javascript|typescript|rust|java|golang|sql|bash|shell|vegetarian|vegan|spicy)\b",
    re.I,
)
#: How the assistant should be: its manner.
EN_ADJ = (
    r"(?:concise|brief|short|succinct|terse|direct|blunt|honest|clear|precise|formal|"
    r"informal|casual|polite|friendly|gentle|patient|thorough|detailed|specific|"
    r"explicit|candid|frank|straightforward|objective|neutral|critical|skeptical|sceptical|"
    r"encouraging|professional|exact|consistent|realistic|technical|verbose|wordy|chatty|"
    r"funny|playful|warm|harsh|brutal|sarcastic|upbeat)"
)
#: What the assistant itself writes: "Your replies should never exceed a screen".
EN_OWN_OUTPUT = re.compile(
    r"\b(?:answers?|repl(?:y|ies)|responses?|explanations?|summar(?:y|ies)|messages?|output|"
    r"code|examples?)\b",
    re.I,
)
#: What the replies are made of, named as the thing a user wants.
EN_REPLY_PART = (
    r"(?:answers?|repl(?:y|ies)|responses?|explanations?|summar(?:y|ies)|examples?|code|"
    r"snippets?|output|feedback|distances?|prices?|dates?|times?|temperatures?|units?|"
    r"measurements?|weights?|numbers?|figures?|amounts?|citations?|sources?|links?)"
)
#: An act the assistant does on its replies (in a condition: "when you explain…", "if I
#: ask about…").
EN_REPLY_ACT = re.compile(
    r"\b(?:explain\w*|writ\w+|write|answer\w*|repl\w+|respond\w*|suggest\w*|recommend\w*|"
    r"giv\w+|give|show\w*|list\w*|mention\w*|translat\w+|summari[sz]\w+|cod(?:e|ing)|cit\w+|"
    r"talk\w* (?:to|with) me|describ\w+|teach\w*|review\w*|help\w* me|I ask|I'm asking|"
    r"I request|quot\w+|convert\w*|calculat\w+|compar\w+|format\w*|draft\w*)\b",
    re.I,
)
#: What a prohibition forbids the assistant to do: "Don't apologise".
EN_PROHIBITED_ACTS = re.compile(
    r"(?:use|add|include|give|show|put|start|end|call|address|mention|recommend|suggest|apologi|"
    r"repeat|explain|ask|assume|remind|lecture|moralis|moraliz|sugarcoat|hedge|pad|guess|invent|"
    r"make up|bring up|over-?explain|send|write|reply|respond|answer|say|tell|talk|speak|overdo|"
    r"sign|greet|spoil|share|post|book|schedule|order|buy|pick|choose|offer|propose|list|cite|"
    r"quote|translate|correct|change|rewrite|shorten|summari)",
    re.I,
)
