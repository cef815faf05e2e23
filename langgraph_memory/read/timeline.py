"""Topic timelines: for "how did it go", "in what order", "summarise the project", the
user's own words on the topic, dated, oldest first, instead of a few best matches.

A question about how something evolved needs many statements spread over weeks, each
short; the best-matching messages of a hybrid search are a few of them, packed with
the long replies around them. :func:`wants_timeline` reads such a question (English
and Chinese cues) and :func:`timeline_item` turns the user messages among the
retrieved ones into one dated outline, one line per message, each an excerpt within
``line_tokens``. The outline cites every message it holds, so those messages are not
packed again.

Example:
    >>> wants_timeline("Summarize how the database migration went"), wants_timeline("hi")
    (True, False)
    >>> wants_timeline("数据库迁移的进展是怎样的？")
    True
"""

from __future__ import annotations

import re
from collections.abc import Sequence, Set

from langgraph_memory.core.context import ContextItem, item_tokens
from langgraph_memory.core.records import Message
from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.read.excerpts import excerpt

__all__ = ["wants_timeline", "timeline_item", "TIMELINE_CUES"]

#: What asks for a topic's story rather than one fact.
TIMELINE_CUES = re.compile(
    r"\b(?:summar(?:y|ies|i[sz]e)|overview|recap|run-?down|history|timeline|chronolog\w*|"
    r"evolv\w*|evolution|progress(?:ed)?|so far|over time|"
    r"how (?:did|does|has|is|are|have) .{1,60}? (?:go|going|gone|come along|coming along|"
    r"turn(?:ed)? out|work(?:ed)? out|unfold(?:ed)?|develop(?:ed)?)|"
    r"what happened (?:with|to|on)|in (?:what|which) order|sequence|step by step|"
    r"what (?:came|happened) (?:first|next|after|before)|first,? then|all the (?:changes|"
    r"steps|decisions|things))\b"
    r"|总结|概括|概述|回顾|梳理|进展|经过|过程|历程|来龙去脉|先后|顺序|时间线|演变|变化|怎么发展|"
    r"推进|进行得|怎么样了|做到哪|"
    r"发生了什么|都做了(?:什么|哪些)|哪些(?:步骤|变化|决定)",
    re.I,
)


def wants_timeline(query: str) -> bool:
    """Whether ``query`` asks how something went, in what order, or for a summary."""
    return TIMELINE_CUES.search(query) is not None


def timeline_item(
    messages: Sequence[Message],
    terms: Set[str],
    *,
    line_tokens: int,
    score: float,
) -> ContextItem | None:
    """The outline of ``messages`` (the user's, retrieved for the query), oldest first.

    Args:
        messages: The messages to outline, best match first (at least two kept).
        terms: The query's terms (each line is an excerpt for them).
        line_tokens: A line's cap, in tokens.
        score: The item's score.

    Returns:
        One context item citing every message, or ``None`` with fewer than two.
    """
    if len(messages) < 2:
        return None
    ordered = sorted(messages, key=lambda m: (m.timestamp, m.seq))
    lines = [
        f"{m.timestamp.strftime('%Y-%m-%d')}: {excerpt(m.content, terms, line_tokens)}"
        for m in ordered
    ]
    zh = sum(1 for m in ordered if is_cjk_text(m.content)) > len(ordered) / 2
    head = (
        "时间线（用户原话，按时间先后）："
        if zh
        else "Timeline (the user's own words, oldest first):"
    )
    text = head + "\n  " + "\n  ".join(lines)
    return ContextItem(
        layer="timeline",
        text=text,
        tokens=item_tokens(text),
        score=score,
        score_parts={"timeline": float(len(ordered))},
        source_ids=[m.id for m in ordered],
        reason=(
            f"topic timeline: the {len(ordered)} user messages among the retrieved ones, "
            "dated, oldest first (the query asks how something went or in what order)"
        ),
        timestamp=ordered[-1].timestamp,
        session_id=None,
        order=-1,
        group=None,
    )
