"""What ``build_context`` returns: cited, scored, token-counted items within a budget.

Example:
    >>> item = ContextItem(layer="message", text="Alice: I moved to Lyon.", tokens=6,
    ...                    score=0.03, score_parts={"rrf": 0.03}, source_ids=["m1"],
    ...                    reason="matched the query")
    >>> ctx = MemoryContext(items=[item], token_budget=100, query="where does Alice live")
    >>> print(ctx.to_prompt())
    Relevant memories:
    - Alice: I moved to Lyon.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from langgraph_memory.core.records import ContextLayer
from langgraph_memory.core.tokens import count_tokens

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

__all__ = ["ContextItem", "MemoryContext", "HEADER"]

#: The first line of a rendered context.
HEADER = "Relevant memories:"


@dataclass(slots=True)
class ContextItem:
    """One piece of context.

    Attributes:
        layer: Where it comes from (``short_term`` for the current session's latest
            messages, ``message`` for retrieved messages, ``neighbor`` for turns
            around a retrieved one, ``segment_page`` for a message found only
            through its mid-term segment, ``mid_term`` for a segment summary, and
            the long-term layers: ``profile``, ``fact``, ``trait``, ``episode``,
            ``knowledge``).
        text: The text as it is put into the prompt.
        tokens: Tokens of its prompt line (text and citation).
        score: The score it was ranked by (comparable within one context only).
        score_parts: The components of that score.
        source_ids: Ids of the messages it came from.
        reason: Why it was included, in words.
        timestamp: When it was said.
        session_id: Where it was said.
        group: The heading it is shown under in the prompt (the date it was said).
        order: Its position in time; the prompt lists items in this order.
        relevance: Its relevance to the query in ``[0, 1]``, the same scale for every
            layer and every query (near 0: unrelated; see
            :mod:`~langgraph_memory.read.relevance`), as ``MemoryHit.score``.
    """

    layer: ContextLayer
    text: str
    tokens: int
    score: float
    score_parts: dict[str, float]
    source_ids: list[str]
    reason: str
    timestamp: datetime | None = None
    session_id: str | None = None
    group: str | None = None
    order: int = 0
    relevance: float = 0.0


def item_line(text: str) -> str:
    """An item's line in the prompt (its citations stay in ``source_ids``)."""
    return f"- {text}"


def group_line(group: str) -> str:
    """The line that opens a group of items (items said on one date)."""
    return f"[{group}]"


def item_tokens(text: str) -> int:
    """Tokens of an item's own line, as shown in explanations."""
    return count_tokens(item_line(text))


@dataclass(slots=True)
class MemoryContext:
    """The context built for one query.

    Attributes:
        items: The items, best first.
        token_budget: The budget it was built for.
        query: The query.
        user_id: Whose memory.
        session_id: The current session.
        explain: Whether ``str(ctx)`` shows the explanation table.
        timings_ms: Time spent per stage.
        notes: What was left out and why, e.g. an attached vector store that failed
            or did not answer in time (the rest of the context is built as usual).
    """

    items: list[ContextItem]
    token_budget: int
    query: str = ""
    user_id: str = ""
    session_id: str = ""
    explain: bool = False
    timings_ms: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        """Tokens of the rendered prompt (never more than the budget)."""
        return count_tokens(self.to_prompt()) if self.items else 0

    @property
    def source_ids(self) -> list[str]:
        """Every cited message id, in item order, without repeats."""
        return list(dict.fromkeys(s for it in self.items for s in it.source_ids))

    def to_prompt(self) -> str:
        """Render as text for a system prompt: items in the order they were said,
        under a line per date."""
        if not self.items:
            return ""
        first: dict[str | None, int] = {}
        for it in self.items:
            first[it.group] = min(first.get(it.group, it.order), it.order)
        ordered = sorted(self.items, key=lambda it: (first[it.group], it.order))
        lines = [HEADER]
        current: str | None = None
        for it in ordered:
            if it.group is not None and it.group != current:
                lines.append(group_line(it.group))
            current = it.group
            lines.append(item_line(it.text))
        return "\n".join(lines)

    def to_messages(self) -> list[BaseMessage]:
        """Render as LangChain messages (one ``SystemMessage``, or none when empty)."""
        from langchain_core.messages import SystemMessage

        prompt = self.to_prompt()
        return [SystemMessage(content=prompt)] if prompt else []

    def explanation(self) -> str:
        """A plain-text table of every item: layer, score, parts, tokens, reason."""
        lines = [
            f"context for {self.query!r}: {len(self.items)} items, "
            f"{self.tokens}/{self.token_budget} tokens",
        ]
        lines += [f"note: {note}" for note in self.notes]
        for i, it in enumerate(self.items, start=1):
            parts = ", ".join(f"{k}={_fmt(v)}" for k, v in it.score_parts.items())
            lines.append(
                f"{i:>3}. [{it.layer}] relevance={it.relevance:.2f} score={it.score:.4f} "
                f"tokens={it.tokens} "
                f"sources={','.join(it.source_ids)}\n     why: {it.reason}\n     parts: {parts}"
                f"\n     text: {it.text[:160]}"
            )
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly view."""
        return {
            "query": self.query,
            "user_id": self.user_id,
            "session_id": self.session_id,
            "timings_ms": dict(self.timings_ms),
            "token_budget": self.token_budget,
            "tokens": self.tokens,
            "notes": list(self.notes),
            "items": [
                {
                    "layer": it.layer,
                    "text": it.text,
                    "tokens": it.tokens,
                    "score": it.score,
                    "relevance": it.relevance,
                    "score_parts": it.score_parts,
                    "source_ids": it.source_ids,
                    "reason": it.reason,
                }
                for it in self.items
            ],
        }

    def __str__(self) -> str:
        return self.explanation() if self.explain else self.to_prompt()


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.4f}"
