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
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, RemoveMessage, SystemMessage
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from langgraph_memory.core.context import MemoryContext
from langgraph_memory.integrations.graph.messages import content_text

__all__ = [
    "merge_system",
    "unmerge_system",
    "with_outline",
    "outline_of",
    "lead_with_memory",
    "thread_writes",
    "drop_visible",
    "keep_layers",
    "context_items",
    "MEMORY_MESSAGE_ID",
    "MERGED_KEY",
    "OUTLINE_META",
]

#: The id of the system message that carries recalled memory when the conversation
#: has no system message of its own to merge it into.
MEMORY_MESSAGE_ID = "langgraph-memory-context"

#: The ``response_metadata`` key under which a merged system message keeps the content it
#: had before the memory context was appended (so the next recall replaces, not stacks).
MERGED_KEY = "langgraph_memory_base"

#: The ``response_metadata`` key under which the leading system message keeps the outline
#: of the exchanges moved out of the thread (``MemoryCheckpointer(thread_token_budget=...)``)
#: and the content it had before: ``{"base": ..., "outline": ...}``.
OUTLINE_META = "langgraph_memory_outline"


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
    meta = {**system.response_metadata, MERGED_KEY: content}
    return system.model_copy(
        update={"content": _append(content, prompt), "response_metadata": meta}
    )


def _append(content: str | list[Any], text: str) -> str | list[Any]:
    """``content`` with ``text`` after it: a paragraph of a string, a text block of a list
    (so cache-control blocks stay as they are)."""
    if isinstance(content, str):
        return f"{content}\n\n{text}" if content.strip() else text
    return [*content, {"type": "text", "text": text}]


def unmerge_system(system: SystemMessage) -> SystemMessage:
    """``system`` as it was before :func:`merge_system` appended memory to it."""
    if MERGED_KEY not in system.response_metadata:
        return system
    meta = {k: v for k, v in system.response_metadata.items() if k != MERGED_KEY}
    base = system.response_metadata[MERGED_KEY]
    return system.model_copy(update={"content": base, "response_metadata": meta})


def outline_of(message: BaseMessage | None) -> str:
    """The outline of trimmed exchanges a leading system message carries (``""``: none).

    Example:
        >>> outline_of(with_outline(SystemMessage("Be brief.", id="s"), "- user: hi [ids: h1]"))
        '- user: hi [ids: h1]'
    """
    held = message.response_metadata.get(OUTLINE_META) if message is not None else None
    return str(held.get("outline") or "") if isinstance(held, Mapping) else ""


def with_outline(system: SystemMessage | None, outline: str) -> SystemMessage | None:
    """The thread's leading system message carrying ``outline`` instead of any earlier one.

    The outline follows the message's own content and precedes the memory context a
    recall merged into it (which the next recall replaces, as before), so the thread keeps
    one leading system message. Without a system message of its own the thread gets one
    with id :data:`MEMORY_MESSAGE_ID` (recall's memory message takes the outline in front of
    its context). An empty ``outline`` takes it out (and a memory message left empty).

    Example:
        >>> lead = with_outline(SystemMessage("Be brief.", id="s"), "- user: hi [ids: h1]")
        >>> print(lead.content)
        Be brief.
        <BLANKLINE>
        - user: hi [ids: h1]
        >>> lead.id, with_outline(lead, "").content
        ('s', 'Be brief.')
        >>> with_outline(None, "- user: hi [ids: h1]").id
        'langgraph-memory-context'
    """
    base, memory = _split(system) if system is not None else (None, "")
    if outline:
        if base is None:
            base = SystemMessage(content="", id=MEMORY_MESSAGE_ID)
        held = {"base": base.content, "outline": outline}
        meta = {**base.response_metadata, OUTLINE_META: held}
        base = base.model_copy(
            update={"content": _append(base.content, outline), "response_metadata": meta}
        )
    if base is None:
        return SystemMessage(content=memory, id=MEMORY_MESSAGE_ID) if memory else None
    return merge_system(base, memory) if memory else base


def _split(system: SystemMessage) -> tuple[SystemMessage | None, str]:
    """A leading system message as its own part (``None``: it has none) and the memory
    context a recall put into it (``""``: none)."""
    meta = system.response_metadata
    if system.id == MEMORY_MESSAGE_ID and MERGED_KEY not in meta and OUTLINE_META not in meta:
        return None, content_text(system.content)  # recall's own message: all context
    memory = ""
    if MERGED_KEY in meta:
        before, content = meta[MERGED_KEY], system.content
        if isinstance(content, str):
            merged = isinstance(before, str) and before.strip()
            memory = content[len(before) :].removeprefix("\n\n") if merged else content
        elif content and isinstance(content[-1], dict):
            memory = str(content[-1].get("text", ""))
    base = unmerge_system(system)
    held = base.response_metadata.get(OUTLINE_META)
    if isinstance(held, Mapping):
        rest = {k: v for k, v in base.response_metadata.items() if k != OUTLINE_META}
        base = base.model_copy(update={"content": held.get("base", ""), "response_metadata": rest})
    if base.id == MEMORY_MESSAGE_ID and not content_text(base.content).strip():
        return None, memory
    return base, memory


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
    message removed. A leading memory message that carries the outline of trimmed
    exchanges (:func:`with_outline`) is merged into, so the outline stays.

    Example:
        >>> from langchain_core.messages import HumanMessage
        >>> writes = thread_writes([HumanMessage("hi", id="h1")], "Memory: likes tea")
        >>> [type(w).__name__ for w in writes]
        ['RemoveMessage', 'SystemMessage', 'HumanMessage']
    """
    first = messages[0] if messages else None
    # a memory message carrying the thread's outline is merged into, like a thread's own
    kept = first is not None and first.id == memory_id and bool(outline_of(first))
    stale: list[BaseMessage] = (
        [RemoveMessage(id=memory_id)]
        if not kept and any(m.id == memory_id for m in messages)
        else []
    )
    if isinstance(first, SystemMessage) and first.id and (first.id != memory_id or kept):
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


def visible_ids(
    messages: Sequence[BaseMessage], memory_id: str = MEMORY_MESSAGE_ID
) -> frozenset[str]:
    """Ids of the thread's messages (the memory's own system message aside): what
    ``build_context(..., shown_ids=...)`` need not recall."""
    return frozenset(m.id for m in messages if m.id and m.id != memory_id)


def drop_visible(
    ctx: MemoryContext, messages: Sequence[BaseMessage], memory_id: str = MEMORY_MESSAGE_ID
) -> MemoryContext:
    """``ctx`` without the items whose every source is already in ``messages``.

    The model reads those messages anyway; recalling them again only spends tokens.
    ``build_context(..., shown_ids=visible_ids(messages))`` leaves them out while
    packing (their budget goes to other memories); this catches what still cites only
    them (a statement drawn from a visible message).
    """
    visible = visible_ids(messages, memory_id)
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
