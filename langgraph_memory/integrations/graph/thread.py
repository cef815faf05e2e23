"""The short-term layer over a LangGraph thread: keep ``messages`` within a token budget.

The oldest whole exchanges (a human message and everything up to the next one) leave
the thread first, so a tool call never loses its result; the current turn and a
leading system message always stay. What leaves is stored in memory first (still
searchable, recalled when relevant) and a one-line outline of each exchange, citing its
message ids, takes its place: in the state (:func:`trim_thread`, for ``trim_node`` and
the middleware) or in the thread's one leading system message (:func:`fit_thread`, for
``MemoryCheckpointer(thread_token_budget=...)``).

Example:
    >>> from langchain_core.messages import AIMessage, HumanMessage
    >>> thread = []
    >>> for i in range(30):
    ...     thread += [HumanMessage(f"question {i} " + "word " * 40, id=f"h{i}"),
    ...                AIMessage(f"answer {i} " + "word " * 40, id=f"a{i}")]
    >>> trim = trim_thread(thread, 400)
    >>> trim.removed[:2], trim.kept_tokens <= 400
    (['h0', 'a0'], True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage, RemoveMessage, SystemMessage

from langgraph_memory.core.tokens import count_tokens
from langgraph_memory.integrations.graph.messages import memory_role, render_message
from langgraph_memory.integrations.graph.prompting import outline_of, with_outline

__all__ = [
    "ThreadTrim",
    "ThreadFit",
    "trim_thread",
    "fit_thread",
    "message_tokens",
    "OUTLINE_KEY",
    "OUTLINE_HEADER",
    "OUTLINE_SHARE",
    "fit_outline",
    "outline_tokens",
]

#: The state key holding the outline of exchanges trimmed from the thread.
OUTLINE_KEY = "memory_thread_outline"
#: The first line of the outline as the model reads it.
OUTLINE_HEADER = (
    "Earlier in this conversation (moved to memory; ask or search for details), oldest first:"
)
#: The share of a thread's budget that :func:`fit_thread` keeps for the outline.
OUTLINE_SHARE = 0.25
_PER_MESSAGE = 4  # role and framing tokens a provider adds per message
_OUTLINE_LINES = 40
_QUOTE_WORDS = 24
_COMPACT_WORDS = 8
#: An outline line: what was said (up to the reply), and the ids it cites.
_LINE = re.compile(r"^- (.*?)(?: → .*)? \[ids: (.*)\]$")


def message_tokens(msg: BaseMessage) -> int:
    """The tokens a message takes in a prompt (its rendered text plus framing)."""
    return count_tokens(render_message(msg)) + _PER_MESSAGE


@dataclass
class ThreadTrim:
    """What :func:`trim_thread` takes out of a thread."""

    removed: list[str]
    """Ids of the messages that leave the thread, oldest first."""
    exchanges: list[list[BaseMessage]]
    """The removed messages grouped by exchange (each starts with its human message)."""
    outline: list[str]
    """One line per removed exchange."""
    kept_tokens: int
    """Tokens of what stays."""

    def update(self, previous_outline: str = "", max_tokens: int | None = None) -> dict[str, Any]:
        """The state update: a ``RemoveMessage`` per removed message, the grown outline
        (within ``max_tokens``, see :func:`fit_outline`; ``None``: its newest 40 lines)."""
        lines = [ln for ln in previous_outline.splitlines() if ln.startswith("- ")]
        lines = (lines + self.outline)[-_OUTLINE_LINES:]
        if max_tokens is not None:
            lines = fit_outline(lines, max_tokens)
        return {
            "messages": [RemoveMessage(id=i) for i in self.removed],
            OUTLINE_KEY: "\n".join([OUTLINE_HEADER, *lines]) if lines else "",
        }


def outline_tokens(outline: str) -> int:
    """The tokens an outline takes in a prompt (0 for none)."""
    return count_tokens(outline) + 2 if outline else 0


def fit_outline(lines: Sequence[str], max_tokens: int) -> list[str]:
    """The outline's lines (oldest first) such that the outline, its header included,
    takes at most ``max_tokens`` tokens.

    The newest lines stay whole while they take at most half of it; older ones are
    compacted to the opening of the user's words and the exchange's first id; the
    oldest go when not even that fits. An outline that cannot hold one line is empty.

    Example:
        >>> lines = [f"- user: question {i} {'word ' * 30}→ assistant: answer {i} "
        ...          f"{'word ' * 30}[ids: h{i}, a{i}]" for i in range(30)]
        >>> kept = fit_outline(lines, 200)
        >>> outline_tokens("\\n".join([OUTLINE_HEADER, *kept])) <= 200
        True
        >>> kept[-1].startswith("- user: question 29"), kept[0]
        (True, '- user: question 19 word word word word word … [ids: h19]')
    """
    room = max_tokens - outline_tokens(OUTLINE_HEADER)
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        cost = count_tokens(line) + 1
        if used + cost > room // 2 or used + cost > room:
            line = _compact(line)
            cost = count_tokens(line) + 1
        if used + cost > room:
            break
        kept.append(line)
        used += cost
    return kept[::-1]


def _compact(line: str) -> str:
    """An outline line cut to the opening of the user's words and its first id."""
    m = _LINE.match(line)
    if m is None:
        return line
    words = m.group(1).split()
    ids = m.group(2).split(", ")
    text = " ".join(words[:_COMPACT_WORDS])
    more = " …" if len(words) > _COMPACT_WORDS or m.group(0).count(" → ") else ""
    return f"- {text}{more} [ids: {ids[0]}]"


def trim_thread(messages: Sequence[BaseMessage], max_tokens: int) -> ThreadTrim | None:
    """The oldest exchanges to remove so the thread fits ``max_tokens``, or ``None``.

    Leading system messages and the current turn (the latest human message and all
    after it) are never removed, so the result may stay above the budget when the
    current turn alone exceeds it. Messages without an id cannot be removed; trimming
    stops before the first exchange holding one.
    """
    msgs = list(messages)
    sizes = [message_tokens(m) for m in msgs]
    total = sum(sizes)
    if total <= max_tokens:
        return None
    start = 0
    while start < len(msgs) and isinstance(msgs[start], SystemMessage):
        start += 1
    humans = [i for i in range(start, len(msgs)) if memory_role(msgs[i]) == "user"]
    if len(humans) < 2:
        return None
    # exchange boundaries: the prefix before the first human joins the first exchange
    bounds = [start, *humans[1:]]
    removed: list[str] = []
    exchanges: list[list[BaseMessage]] = []
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        if total <= max_tokens:
            break
        chunk = msgs[lo:hi]
        if any(not m.id for m in chunk):
            break
        exchanges.append(chunk)
        removed.extend(str(m.id) for m in chunk)
        total -= sum(sizes[lo:hi])
    if not removed:
        return None
    return ThreadTrim(removed, exchanges, [_outline(c) for c in exchanges], total)


@dataclass
class ThreadFit:
    """What :func:`fit_thread` makes of a thread."""

    messages: list[BaseMessage]
    """The thread that stays: its one leading system message (carrying the outline), then
    the kept messages."""
    exchanges: list[list[BaseMessage]]
    """The removed messages grouped by exchange (each starts with its human message)."""
    tokens: int
    """Tokens of :attr:`messages`."""


def fit_thread(messages: Sequence[BaseMessage], max_tokens: int) -> ThreadFit | None:
    """The thread cut to ``max_tokens``, its outline in its leading system message; ``None``
    when it fits already.

    Once the thread is over ``max_tokens``, its oldest whole exchanges go (as
    :func:`trim_thread` removes them) until the rest fits ``max_tokens`` less
    :data:`OUTLINE_SHARE` of it; that share holds the outline, in tokens: the lines the
    leading system message carried already, then one per removed exchange (the newest
    whole, older ones compacted, the oldest left out when not all fit; see
    :func:`fit_outline`). The outline goes into the thread's own leading system message
    (same id, after its content, before a recall's context; see
    :func:`~langgraph_memory.integrations.graph.prompting.with_outline`), or into a memory system
    message put first: the thread keeps one system message, first. As with
    :func:`trim_thread`, the current turn stays even when it alone is over the budget.

    Example:
        >>> from langchain_core.messages import AIMessage, HumanMessage
        >>> thread = [SystemMessage("Be brief.", id="sys")]
        >>> for i in range(30):
        ...     thread += [HumanMessage(f"question {i} " + "word " * 40, id=f"h{i}"),
        ...                AIMessage(f"answer {i} " + "word " * 40, id=f"a{i}")]
        >>> fit = fit_thread(thread, 600)
        >>> fit.tokens <= 600, [m.id for m in fit.messages][:2], fit.exchanges[0][0].id
        (True, ['sys', 'h27'], 'h0')
        >>> lines = fit.messages[0].content.splitlines()[3:]  # what fits: older lines compacted
        >>> len(lines), lines[0]
        (7, '- user: question 20 word word word word word … [ids: h20]')
    """
    msgs = list(messages)
    if sum(message_tokens(m) for m in msgs) <= max_tokens:
        return None
    lead = msgs[0] if msgs and isinstance(msgs[0], SystemMessage) else None
    body = msgs[1:] if lead is not None else msgs
    bare = with_outline(lead, "") if lead is not None else None  # the lead, no outline
    head = [bare] if bare is not None else []
    reserve = int(max_tokens * OUTLINE_SHARE)
    trim = trim_thread([*head, *body], max_tokens - reserve)
    if trim is None:
        return None
    gone = {id(m) for chunk in trim.exchanges for m in chunk}
    kept = [m for m in body if id(m) not in gone]
    earlier = [ln for ln in outline_of(lead).splitlines() if ln.startswith("- ")]
    # within the reserve in tokens: the newest lines whole, older ones compacted
    lines = fit_outline((earlier + trim.outline)[-_OUTLINE_LINES:], reserve - 2)
    bare_tokens = message_tokens(bare) if bare is not None else 0
    while True:  # the newest lines that fit the reserve
        new_lead = with_outline(bare, "\n".join([OUTLINE_HEADER, *lines])) if lines else bare
        lead_tokens = message_tokens(new_lead) if new_lead is not None else 0
        if not lines or lead_tokens - bare_tokens <= reserve:
            break
        lines = lines[1:]
    thread = [new_lead, *kept] if new_lead is not None else kept
    return ThreadFit(thread, trim.exchanges, trim.kept_tokens - bare_tokens + lead_tokens)


def _outline(chunk: list[BaseMessage]) -> str:
    """One line for an exchange: the user's words, then the reply's opening, with ids."""
    parts: list[str] = []
    for role in ("user", "assistant"):
        first = next((m for m in chunk if memory_role(m) == role and render_message(m)), None)
        if first is not None:
            words = render_message(first).split()
            text = " ".join(words[:_QUOTE_WORDS]) + (" …" if len(words) > _QUOTE_WORDS else "")
            parts.append(f"{role}: {text}")
    ids = ", ".join(str(m.id) for m in chunk if memory_role(m) is not None)
    return f"- {' → '.join(parts) or '(tool output)'} [ids: {ids}]"
