"""Summaries of chains and segments: an LLM when given, extractive otherwise.

The extractive summary picks the most central sentences (those sharing the most
content words with the rest of the group), keeps them in the order they were
said, and remembers which message each came from, so a summary cites exactly the
messages whose words it carries. It works the same in English and Chinese.

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.core.records import Message
    >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> msgs = [Message("m1", "u", "s", "user", "I adopted a cat named Miso.", t, name="Ann"),
    ...         Message("m2", "u", "s", "assistant", "Miso is a lovely cat name!", t),
    ...         Message("m3", "u", "s", "user", "Miso sleeps all day.", t, name="Ann")]
    >>> s = extractive_summary(msgs, max_tokens=12)
    >>> s.text, s.source_ids
    ('Ann: I adopted a cat named Miso.', ['m1'])
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from langgraph_memory.core.llm import structured_call
from langgraph_memory.core.records import Message
from langgraph_memory.core.tokens import count_tokens, tokenize

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["Summary", "SummaryDraft", "extractive_summary", "summarize"]

_SENTENCE_RE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")
_SEPARATOR = " / "


@dataclass(slots=True)
class Summary:
    """A summary and the messages it was made from."""

    text: str
    source_ids: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    by_llm: bool = False


class SummaryDraft(BaseModel):
    """What the LLM is asked for."""

    summary: str = Field(
        max_length=16_000, description="Two or three sentences with the concrete facts."
    )
    keywords: list[str] = Field(
        default_factory=list, max_length=32, description="Up to 8 topic keywords."
    )


def _sentences(msg: Message) -> list[str]:
    return [s.strip() for s in _SENTENCE_RE.findall(msg.content) if s.strip()]


def extractive_summary(messages: Sequence[Message], max_tokens: int = 80) -> Summary:
    """The most central sentences of ``messages`` within ``max_tokens``, the user's own
    words first (then the other speakers' sentences, while the budget lasts); a
    "sentence" of fewer than three words (a line of code, a bullet) is left out when
    there are longer ones.

    Args:
        messages: The group, in any order (the summary follows their ``seq``).
        max_tokens: Token budget of the summary text.

    Returns:
        A :class:`Summary` citing the messages its sentences came from.
    """
    cands: list[tuple[bool, float, int, int, str, Message]] = []
    df: Counter[str] = Counter()
    per_sentence: list[tuple[Message, str, set[str]]] = []
    for msg in sorted(messages, key=lambda m: m.seq):
        for sent in _sentences(msg):
            words = {t for t in tokenize(sent) if len(t) > 1}
            per_sentence.append((msg, sent, words))
            df.update(words)
    least = 3 if any(len(w) >= 3 for _, _, w in per_sentence) else 1
    for i, (msg, sent, words) in enumerate(per_sentence):
        if len(words) < least:
            continue
        # Centrality: how many other sentences share each word, per word (length-fair).
        score = sum(df[w] - 1 for w in words) / (len(words) ** 0.5)
        cands.append((msg.role == "user", score, -i, i, sent, msg))
    chosen: list[tuple[int, str, Message]] = []
    used = 0
    for _, _, _, i, sent, msg in sorted(cands, reverse=True):
        line = f"{msg.name or msg.role}: {sent}"
        cost = count_tokens(line) + (count_tokens(_SEPARATOR) if chosen else 0)
        if used + cost > max_tokens:
            continue
        chosen.append((i, line, msg))
        used += cost
    chosen.sort()
    ids = list(dict.fromkeys(m.id for _, _, m in chosen))
    top = [w for w, _ in df.most_common(8)]
    return Summary(_SEPARATOR.join(line for _, line, _ in chosen), ids, top)


def summarize(
    messages: Sequence[Message],
    *,
    llm: BaseChatModel | None = None,
    max_tokens: int = 80,
    what: str = "conversation",
) -> Summary:
    """Summarise a group of messages: by ``llm`` when given, else extractively.

    A missing, failing or malformed LLM answer falls back to
    :func:`extractive_summary`. An LLM summary cites every message it was shown.
    """
    if llm is not None and messages:
        lines = "\n".join(
            f"{m.name or m.role}: {m.content}" for m in sorted(messages, key=lambda m: m.seq)
        )
        prompt = (
            f"Summarise this {what} for an assistant's memory in the language it is written "
            f"in, keeping names, dates and concrete facts:\n{lines}"
        )
        draft = structured_call(llm, SummaryDraft, prompt)
        if draft is not None and draft.summary.strip():
            return Summary(
                draft.summary.strip(),
                list(dict.fromkeys(m.id for m in messages)),
                [k.strip().lower() for k in draft.keywords if k.strip()][:8],
                by_llm=True,
            )
    return extractive_summary(messages, max_tokens)
