"""One leading system message: how recalled memory joins the prompt a model reads.

Chat providers want at most one system message, first (Anthropic's formatter refuses
a second, non-leading one; others warn and hoist it). The helpers here put the memory
context *into* the leading system message instead of beside it.

Example:
    >>> from langchain_core.messages import HumanMessage, SystemMessage
    >>> merged = merge_system(SystemMessage("You are terse."), "Memory: likes tea")
    >>> print(merged.content)
    You are terse.
    <BLANKLINE>
    Memory: likes tea
    >>> [m.type for m in lead_with_memory([HumanMessage("hi")], "Memory: likes tea")]
    ['system', 'human']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from langchain_core.messages import BaseMessage, RemoveMessage, SystemMessage
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from ..context import MemoryContext

__all__ = [
    "merge_system",
    "unmerge_system",
    "lead_with_memory",
    "thread_writes",
    "drop_visible",
    "keep_layers",
    "context_items",
    "MEMORY_MESSAGE_ID",
    "MERGED_KEY",
]

#: The id of the system message that carries recalled memory when the conversation
#: has no system message of its own to merge it into.
MEMORY_MESSAGE_ID = "langgraph-memory-context"

#: The ``response_metadata`` key under which a merged system message keeps the content it
#: had before the memory context was appended (so the next recall replaces, not stacks).
MERGED_KEY = "langgraph_memory_base"


def merge_system(system: SystemMessage | None, prompt: str) -> SystemMessage | None:
    """The leading system message with the memory context appended.

    Args:
        system: The agent's own system message, or ``None``.
        prompt: The rendered memory context (``""`` leaves ``system`` unchanged).

    Returns:
        ``system`` (as it was before any earlier merge) when there is nothing to
        add; a new ``SystemMessage`` with id
        :data:`MEMORY_MESSAGE_ID` when there was none; otherwise a copy of
        ``system`` (same id) whose content ends with the memory context (a text
        block is appended to list content, so cache-control blocks stay as they are).
    """
    if not prompt:
        return None if system is None else unmerge_system(system)
    if system is None:
        return SystemMessage(content=prompt, id=MEMORY_MESSAGE_ID)
    system = unmerge_system(system)
    content = system.content
    if isinstance(content, str):
        merged: str | list[str | dict] = f"{content}\n\n{prompt}" if content.strip() else prompt
    else:
        merged = [*content, {"type": "text", "text": prompt}]
    meta = {**system.response_metadata, MERGED_KEY: content}
    return system.model_copy(update={"content": merged, "response_metadata": meta})


def unmerge_system(system: SystemMessage) -> SystemMessage:
    """``system`` as it was before :func:`merge_system` appended memory to it."""
    if MERGED_KEY not in system.response_metadata:
        return system
    meta = {k: v for k, v in system.response_metadata.items() if k != MERGED_KEY}
    base = system.response_metadata[MERGED_KEY]
    return system.model_copy(update={"content": base, "response_metadata": meta})


def lead_with_memory(
    messages: Sequence[BaseMessage], prompt: str, memory_id: str = MEMORY_MESSAGE_ID
) -> list[BaseMessage]:
    """The conversation as the model should read it, memory in its one system message.

    Earlier memory messages (id ``memory_id``, anywhere) are dropped; a leading
    system message gets the context appended; without one, a memory system message
    goes first. Other system messages stay where they are.

    Example:
        >>> from langchain_core.messages import HumanMessage, SystemMessage
        >>> msgs = [SystemMessage("Be brief."), HumanMessage("hi")]
        >>> out = lead_with_memory(msgs, "Memory: likes tea")
        >>> [m.type for m in out], out[0].content.endswith("likes tea")
        (['system', 'human'], True)
    """
    rest = [m for m in messages if m.id != memory_id]
    if rest and isinstance(rest[0], SystemMessage):
        first = merge_system(rest[0], prompt)
        return [first, *rest[1:]] if first is not None else rest[1:]
    lead = merge_system(None, prompt)
    return [lead, *rest] if lead is not None else rest


def thread_writes(
    messages: Sequence[BaseMessage], prompt: str, memory_id: str = MEMORY_MESSAGE_ID
) -> list[BaseMessage]:
    """The ``add_messages`` writes that leave memory in a thread's one leading system message.

    A thread that starts with a system message of its own gets the context merged
    into it in place (same id; the next recall replaces what this one added). A
    thread without one gets a memory system message with id ``memory_id`` at its
    front: replaced in place once it is there, moved there (the thread rewritten
    once) when it is not. With nothing recalled, the merge is undone or the memory
    message removed.

    Example:
        >>> from langchain_core.messages import HumanMessage
        >>> writes = thread_writes([HumanMessage("hi", id="h1")], "Memory: likes tea")
        >>> [type(w).__name__ for w in writes]
        ['RemoveMessage', 'SystemMessage', 'HumanMessage']
    """
    first = messages[0] if messages else None
    stale: list[BaseMessage] = (
        [RemoveMessage(id=memory_id)] if any(m.id == memory_id for m in messages) else []
    )
    if isinstance(first, SystemMessage) and first.id and first.id != memory_id:
        merged = merge_system(first, prompt)
        assert merged is not None
        changed = merged.content != first.content or merged.response_metadata != (
            first.response_metadata
        )
        return [merged, *stale] if changed else stale
    if not prompt:
        return stale
    lead = SystemMessage(content=prompt, id=memory_id)
    if first is not None and first.id == memory_id:
        return [lead]
    rest = [m for m in messages if m.id != memory_id]
    return [RemoveMessage(id=REMOVE_ALL_MESSAGES), lead, *rest]


def drop_visible(
    ctx: MemoryContext, messages: Sequence[BaseMessage], memory_id: str = MEMORY_MESSAGE_ID
) -> MemoryContext:
    """``ctx`` without the items whose every source is already in ``messages``.

    The model reads those messages anyway; recalling them again only spends tokens.
    """
    visible = {m.id for m in messages if m.id and m.id != memory_id}
    kept = [it for it in ctx.items if not it.source_ids or not set(it.source_ids) <= visible]
    return ctx if len(kept) == len(ctx.items) else dataclasses.replace(ctx, items=kept)


def keep_layers(ctx: MemoryContext, layers: frozenset[str] | None) -> MemoryContext:
    """``ctx`` with only the items of ``layers`` (``None``: all of them)."""
    if layers is None:
        return ctx
    kept = [it for it in ctx.items if it.layer in layers]
    return ctx if len(kept) == len(ctx.items) else dataclasses.replace(ctx, items=kept)


def context_items(ctx: MemoryContext | None) -> list[dict[str, object]]:
    """A context's items as plain data for a graph state's ``memory_items``: layer, text,
    cited message ids and score, in the order the prompt shows them.

    Example:
        >>> context_items(None)
        []
    """
    if ctx is None:
        return []
    return [
        {"layer": it.layer, "text": it.text, "source_ids": list(it.source_ids), "score": it.score}
        for it in ctx.items
    ]
