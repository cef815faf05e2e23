"""Turning LangChain messages into the text, role and id a memory stores.

Example:
    >>> from langchain_core.messages import AIMessage
    >>> msg = AIMessage(content="", tool_calls=[
    ...     {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"}])
    >>> render_message(msg)
    'called tool get_weather with {"city": "Paris"}'
    >>> memory_role(msg)
    'assistant'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    ToolMessage,
)

__all__ = [
    "MessageWrite",
    "is_id_conflict",
    "content_text",
    "render_message",
    "memory_role",
    "tool_name",
    "stable_message_id",
    "last_human_index",
    "latest_human_text",
    "exchange_writes",
]

_CHAT_ROLES = {"user": "user", "human": "user", "assistant": "assistant", "ai": "assistant"}
_TRUNCATED = " …[truncated]"


def content_text(content: str | Sequence[Any]) -> str:
    """The text of a message's content: the string, or its text blocks joined by newlines.

    Non-text blocks (images, reasoning, tool-use blocks) are left out.

    Example:
        >>> content_text([{"type": "text", "text": "Look:"}, {"type": "image_url"}, "ok"])
        'Look:\\nok'
    """
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            text = block.get("text")
            if isinstance(text, str):
                parts.append(text)
    return "\n".join(p for p in parts if p.strip())


def render_message(msg: BaseMessage, limit: int | None = None) -> str:
    """The text stored for a message; ``""`` when there is nothing to store.

    An AI message's tool calls are written out, one line each, after its text.

    Args:
        msg: The message.
        limit: Longest text to return, in characters; longer text is cut and
            marked ``…[truncated]``.

    Example:
        >>> render_message(AIMessage(content="Let me check.", tool_calls=[
        ...     {"name": "search", "args": {"q": "tea"}, "id": "c1"}]))
        'Let me check.\\ncalled tool search with {"q": "tea"}'
    """
    text = content_text(msg.content).strip()
    if isinstance(msg, AIMessage) and msg.tool_calls:
        calls = [
            f"called tool {call['name']} with "
            f"{json.dumps(call['args'], ensure_ascii=False, default=str)}"
            for call in msg.tool_calls
        ]
        text = "\n".join([text, *calls] if text else calls)
    if limit is not None and len(text) > limit:
        text = text[: max(limit - len(_TRUNCATED), 0)] + _TRUNCATED
    return text


def memory_role(msg: BaseMessage) -> str | None:
    """The memory role of a message, or ``None`` for messages that are not stored.

    Human → ``user``; AI → ``assistant``; tool and function results → ``tool``;
    a ``ChatMessage`` keeps a user/assistant role. System messages return ``None``.
    """
    if isinstance(msg, HumanMessage):
        return "user"
    if isinstance(msg, AIMessage):
        return "assistant"
    if isinstance(msg, (ToolMessage, FunctionMessage)):
        return "tool"
    if isinstance(msg, ChatMessage):
        return _CHAT_ROLES.get(msg.role.strip().lower())
    return None


def tool_name(msg: BaseMessage, history: Sequence[BaseMessage]) -> str | None:
    """The name of the tool that produced a tool message.

    Uses ``msg.name`` (set by LangGraph's ``ToolNode``), else finds the AI tool
    call with the message's ``tool_call_id`` in ``history``.
    """
    if msg.name:
        return msg.name
    call_id = getattr(msg, "tool_call_id", None)
    for earlier in reversed(history):
        if isinstance(earlier, AIMessage):
            for call in earlier.tool_calls:
                if call.get("id") == call_id:
                    return call["name"]
    return None


def stable_message_id(*parts: object) -> str:
    """A deterministic id from its parts (e.g. thread id, position and content).

    Example:
        >>> stable_message_id("thread-1", 3, "hello") == stable_message_id("thread-1", 3, "hello")
        True
    """
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()
    return f"lgm-{digest[:32]}"


def last_human_index(messages: Sequence[BaseMessage]) -> int | None:
    """Position of the latest human message (``ChatMessage`` with a user role included)."""
    for i in range(len(messages) - 1, -1, -1):
        if memory_role(messages[i]) == "user":
            return i
    return None


def latest_human_text(messages: Sequence[BaseMessage], limit: int | None = None) -> str:
    """The latest human message's text, rendered as stored (``""`` when there is none):
    what a recall asks the memory about.

    Example:
        >>> from langchain_core.messages import HumanMessage
        >>> latest_human_text([HumanMessage("hi"), AIMessage("hello"), HumanMessage("tea?")])
        'tea?'
    """
    i = last_human_index(messages)
    return "" if i is None else render_message(messages[i], limit)


class MessageWrite(NamedTuple):
    """One message to store."""

    role: str
    content: str
    name: str | None
    message_id: str
    fallback_id: str
    metadata: dict[str, Any] | None

    def kwargs(self, fallback: bool = False) -> dict[str, Any]:
        return {
            "name": self.name,
            "message_id": self.fallback_id if fallback else self.message_id,
            "metadata": self.metadata,
        }


def is_id_conflict(exc: ValueError) -> bool:
    """Whether ``add_message`` refused an id already stored with other content."""
    return "already exists" in str(exc)


def exchange_writes(
    messages: list[BaseMessage], session_id: str, skip_id: str, limit: int
) -> list[MessageWrite]:
    """What is stored for the latest exchange (the last human message and all after
    it), in order; ``skip_id`` (the memory's own system message) is left out.

    Args:
        messages: The conversation.
        session_id: Its session (part of the id of a message without one).
        skip_id: A message id never stored.
        limit: Longest text stored per message, in characters.
    """
    start = last_human_index(messages)
    if start is None:
        return []
    out: list[MessageWrite] = []
    for pos in range(start, len(messages)):
        msg = messages[pos]
        role = memory_role(msg)
        if role is None or msg.id == skip_id:
            continue
        text = render_message(msg, limit)
        if not text:
            continue
        name = tool_name(msg, messages[:pos]) if role == "tool" else msg.name
        derived = stable_message_id(session_id, pos, role, text)
        mid = msg.id if isinstance(msg.id, str) and msg.id.strip() and len(msg.id) <= 200 else None
        out.append(
            MessageWrite(
                role=role,
                content=text,
                name=name or None,
                message_id=mid or derived,
                fallback_id=stable_message_id(mid, session_id, text) if mid else derived,
                metadata=(
                    {"tool_call_id": msg.tool_call_id} if isinstance(msg, ToolMessage) else None
                ),
            )
        )
    return out
