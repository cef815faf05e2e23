"""What a pronoun at the end of a clause stands for, from the clause before it.

"Cilantro tastes like soap to me, I avoid it": the "it" of the second clause is what the
first one is about, so the second reads as "I avoid Cilantro".

Example:
    >>> with_referent("I avoid it", "Cilantro tastes like soap to me")
    'I avoid Cilantro'
    >>> with_referent("I avoid it", "It was a long day") is None
    True
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text

__all__ = ["with_referent"]

#: An English clause ending on a pronoun object: "…, I avoid it", "…, so I skip them".
_PRONOUN_END = re.compile(r"\b(?:it|them)\s*[.!]?\s*$", re.I)
#: What the clause before is about: its subject ("Cilantro tastes…"), or, when that is
#: the user, what follows its last preposition ("I'm allergic to shellfish").
_SUBJECT = re.compile(
    r"^\s*(?P<np>(?!(?:I|I'm|we|he|she|they|you|it|this|that|my|our)\b)[A-Za-z][\w'-]*"
    r"(?:\s+[a-z][\w'-]*){0,2}?)\s+(?:is|are|was|were|tastes?|smells?|feels?|looks?|sounds?|"
    r"makes?|gives?|has|have|gets?|keeps?|seems?)\b",
    re.I,
)
_OBJECT = re.compile(
    r"^\s*I(?:'m| am)?\b.*\b(?:to|of|with|about|on|from)\s+(?P<np>[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)"
    r"\s*$",
    re.I,
)


def with_referent(clause: str, before: str) -> str | None:
    """``clause`` with its final "it"/"them" replaced by what the clause ``before`` it is
    about, when that is plain (English only); else ``None``."""
    if is_cjk_text(clause) or not _PRONOUN_END.search(clause):
        return None
    m = _SUBJECT.match(before) or _OBJECT.match(before)
    if m is None:
        return None
    return _PRONOUN_END.sub(m["np"], clause).strip()
