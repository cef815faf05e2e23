"""The memory atom: one fact, preference, standing instruction, decision, task, entity or
relation.

Example:
    >>> a = MemoryAtom("relation", "user", "sister", "Anna", text="Anna is my sister")
    >>> a.predicate, a.object, a.confidence
    ('sister', 'Anna', 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["MemoryAtom", "KINDS", "CONFIDENCE"]

#: The kinds of memory atoms.
KINDS = ("fact", "preference", "instruction", "decision", "task", "entity", "relation")
#: Initial confidence by source (design documents: explicit 1.0, inferred 0.6).
CONFIDENCE = {"explicit": 1.0, "inferred": 0.6}


@dataclass(frozen=True, slots=True)
class MemoryAtom:
    """One piece of memory extracted from a message.

    Attributes:
        kind: One of :data:`KINDS`.
        subject: Who or what it is about: ``"user"`` for the speaker of a user
            message, ``"assistant"`` for an assistant's, else a name.
        key: The attribute or predicate: a fact key (``name``, ``location``,
            ``allergy``...), the normalised topic of a preference, a relation
            (``sister``, ``works_at``), or the entity type (``person``,
            ``place``, ``org``, ``other``).
        value: The value or object, as written.
        polarity: +1 (likes, does, is) or −1 (dislikes, must not).
        scope: The context it holds in ("for coffee", "at work", "工作的时候"), or ``None``.
        source: ``explicit`` or ``inferred``.
        confidence: 1.0 for explicit, 0.6 for inferred.
        text: The span of the input it was read from (a substring of it).
        language: ``en`` or ``zh``.
        timestamp: When it was said, when known.
    """

    kind: str
    subject: str
    key: str
    value: str
    polarity: int = 1
    scope: str | None = None
    source: str = "explicit"
    confidence: float = 1.0
    text: str = ""
    language: str = "en"
    timestamp: datetime | None = None

    @property
    def predicate(self) -> str:
        """The key, read as a relation's predicate."""
        return self.key

    @property
    def object(self) -> str:
        """The value, read as a relation's object."""
        return self.value
