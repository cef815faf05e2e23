"""The LLM side of extraction: the schema the model answers in, and its checks.

The model's atoms are trusted for content only where the message says it: an atom
whose value is not in the message's words (an invention, or something the assistant
said elsewhere in the conversation) is dropped; a span that is not in the message is
replaced by the value (or the whole message), the confidence comes from the source
(explicit 1.0, inferred 0.6), and "user"/"我" subjects become the speaker.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from pydantic import BaseModel, Field

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.atoms import CONFIDENCE, MemoryAtom
from langgraph_memory.extraction.provenance import is_grounded

__all__ = ["AtomDraft", "ExtractionDraft", "PROMPT", "from_draft"]


class AtomDraft(BaseModel):
    """One atom as the LLM writes it."""

    kind: Literal["fact", "preference", "instruction", "decision", "task", "entity", "relation"]
    subject: str = Field(
        default="user", max_length=500, description="'user' for the speaker, else a name"
    )
    key: str = Field(
        max_length=500, description="attribute, preference topic, relation or entity type"
    )
    value: str = Field(max_length=16_000, description="the value or object")
    polarity: int = Field(default=1, ge=-1, le=1, description="1 like/does, -1 dislike/must not")
    scope: str | None = Field(
        default=None, max_length=500, description="context it holds in, if any"
    )
    source: Literal["explicit", "inferred"] = "explicit"
    text: str = Field(
        default="", max_length=16_000, description="the exact span of the message it comes from"
    )


class ExtractionDraft(BaseModel):
    """What the LLM is asked to answer."""

    atoms: list[AtomDraft] = Field(max_length=500)


PROMPT = """Extract the key facts, decisions, tasks, entities and relations, newly learned
user preferences, and standing instructions (kind "instruction": what the user asks you
to do or avoid from now on, always or whenever something comes up) from this {role}
message. Use "explicit" for direct first-person statements,
"inferred" otherwise; ignore questions and hypotheticals; polarity -1 for dislikes and things
to avoid; copy the exact span of the message into "text".
从以下对话中，提取关键事实、决策、任务、实体关系和新学到的用户偏好。以 JSON 格式输出。

Message: {text}"""


def from_draft(draft: ExtractionDraft, text: str, subject: str) -> list[MemoryAtom]:
    """Turn the model's answer into atoms: values grounded in ``text`` (the others are
    dropped), spans checked, confidences set by source.

    Example:
        >>> d = ExtractionDraft(atoms=[AtomDraft(kind="fact", key="city", value="Paris",
        ...                                      text="not in the input")])
        >>> [(a.key, a.text, a.confidence) for a in from_draft(d, "I live in Paris", "user")]
        [('city', 'Paris', 1.0)]
        >>> from_draft(d, "Yes, that's right.", "user")  # Paris is not in these words
        []
    """
    atoms = []
    for d in draft.atoms:
        value = d.value.strip()
        if not value or not d.key.strip():
            continue
        span = said = d.text.strip()
        if not span or span not in text:
            said = ""  # the model's span counts as evidence only when it is verbatim
            span = value if value in text else text.strip()
        subj = d.subject.strip() or "user"
        atom = MemoryAtom(
            kind=d.kind,
            subject=subject if subj.lower() in ("user", "i", "me", "我") else subj,
            key=d.key.strip(),
            value=value,
            polarity=-1 if d.polarity < 0 else 1,
            scope=(d.scope or "").strip() or None,
            source=d.source,
            confidence=CONFIDENCE[d.source],
            text=span,
            language="zh" if is_cjk_text(span or value) else "en",
        )
        if is_grounded(replace(atom, text=said), text):
            atoms.append(atom)
    return atoms
