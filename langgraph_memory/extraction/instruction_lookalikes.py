"""What looks like an English standing instruction and is none (see :mod:`.instructions`).

Advice between people (:data:`ADVICE`: "Don't worry", "no rush"), a taste said as a pick
(:data:`PICK`: "give me mountains any time", "give me Civ over CoD"), a condition contrary
to what happened (:data:`COUNTERFACTUAL`: "If the offer had come through I'd have gone"), a
past form where an imperative would be (:data:`PAST_FORM`: "(Never) thought I'd…") and
social acts between friends (:data:`SOCIAL`: "Call me when you land").

Example:
    >>> bool(PICK.match("give me Civ over CoD")), bool(ADVICE.match("no rush"))
    (True, False)
    >>> bool(ADVICE.match("rush")), bool(COUNTERFACTUAL.match("if it had rained I'd have stayed"))
    (True, True)
"""

from __future__ import annotations

import re

__all__ = ["ADVICE", "COUNTERFACTUAL", "PAST_FORM", "PICK", "SOCIAL"]

#: Advice between people that only looks like an instruction.
ADVICE = re.compile(
    r"^(?:(?:do not|don't|never)\s+)?(?:give up|be yourself|worry|panic|mind|hesitate|stress|"
    r"bother(?!\s+with)|"
    r"forget (?:it|that|about)|look back|stop believing|settle|quit|lose|let (?:go|it)|"
    r"be (?:afraid|scared|sad|shy|sorry|late)|judge|get me wrong|"
    r"take (?:it|this) personally|say never|stay safe|take care|keep (?:going|it up|up)|"
    r"let me know|reach out|hesitate|keep (?:on|believing|trying|inspiring|pushing|shining|"
    r"smiling|rocking|dreaming|at it)|believe in yourself|be proud|stay strong|hang in there|"
    r"have fun|enjoy (?:it|yourself|the)|take it easy|chill|"
    r"(?:rush|hurry|pressure|worries|problem|biggie|big deal|offen[cs]e|sweat|stress)\b"
    r"(?=\s*(?:[,.;!—–-]|$)))",
    re.I,
)


#: A pick said as an imperative ("give me mountains and hiking any time", "gimme a window
#: seat every time", "give me Civ over CoD"): what the user likes, not what the replies
#: must do (a thing of the replies picked is a rule: "give me metric over imperial").
PICK = re.compile(
    r"^(?:just\s+|oh\s+)?(?:give me|gimme)\b(?P<what>.{2,60}?)(?:\b(?:any day|any ?time|every time|"
    r"over anything|all day(?: long)?|every day)|\s+over\s+(?P<other>[^,;]{1,40}?))"
    r"(?=\s*(?:[,;.!—–-]|$))",
    re.I,
)


#: A condition contrary to what happened: "If the offer had come through I'd have gone".
COUNTERFACTUAL = re.compile(
    r"^(?:\w+\s+)?if\b[^,;]{1,80}?\b(?:had(?:n't| not)?|'d)\s+(?:\w+(?:ed|en|wn|ne|ght|me)|been|"
    r"got|gone|come|done|known|seen|said|told|left|met|won|lost|made)\b",
    re.I,
)
#: A past form opening a clause: "(Never) thought I'd…", "(Never) knew…".
PAST_FORM = re.compile(
    r"(?:\w+ed|thought|knew|saw|felt|got|went|had|did|was|were|said|told|made|took|found|"
    r"heard|met|ate|drank|wrote|read|left|came|gave|lost|won|spent|seen|been|done)\b",
    re.I,
)
#: Social acts between friends, not acts on the replies: "Call me when you land", "Give
#: me a call", "Text me", "Come visit".
SOCIAL = re.compile(
    r"^(?:(?i:call me) (?!by\b|[A-Z])|(?i:give me a (?:call|ring|shout|hug|buzz)|text me|ping me|"
    r"hit me up|drop me a line|come (?:over|visit|by|see)|visit|meet|hug|say hi))",
)
