"""The ``recall`` and ``remember`` nodes: memory around any LangGraph agent.

Both nodes read the user from ``config["configurable"]["user_id"]`` and the
session from ``config["configurable"]["thread_id"]`` (``"default"`` when absent);
``recall`` also reads the session's scope (a project, a topic: its preferences beat
global ones) from ``config["configurable"]["scope"]`` when given. They run sync under
``invoke``/``stream`` and async under ``ainvoke``/``astream``.

Example:
    >>> from langgraph.graph import START, END, StateGraph
    >>> from langgraph_memory.graph import MemoryMessagesState
    >>> def agent(state):  # your model call
    ...     return {"messages": [model.invoke(state["messages"])]}
    >>> builder = StateGraph(MemoryMessagesState)
    >>> builder.add_sequence(  # doctest: +SKIP
    ...     [recall_node(mm), ("agent", agent), remember_node(mm)])
    >>> builder.add_edge(START, "recall")  # doctest: +SKIP
    >>> builder.add_edge("remember", END)  # doctest: +SKIP
    >>> graph = builder.compile()  # doctest: +SKIP
    >>> graph.invoke({"messages": [("user", "I'm allergic to peanuts")]},  # doctest: +SKIP
    ...              {"configurable": {"user_id": "alice", "thread_id": "t1"}})
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import (
    BaseMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
    convert_to_messages,
)
from langchain_core.runnables import RunnableConfig, RunnableLambda

from ..context import MemoryContext
from ..manager import MemoryManager
from ..validation import check_id, check_positive_int
from .messages import (
    MessageWrite,
    is_id_conflict,
    last_human_index,
    memory_role,
    render_message,
    stable_message_id,
    tool_name,
)
from .scope import DEFAULT_SESSION, check_memory, run_scope

__all__ = ["recall_node", "remember_node", "MEMORY_MESSAGE_ID", "DEFAULT_SESSION"]

#: The id of the system message ``recall_node`` writes; a fixed id makes
#: ``add_messages`` replace last turn's memory message instead of adding another.
MEMORY_MESSAGE_ID = "langgraph-memory-context"


def recall_node(
    memory: MemoryManager,
    *,
    token_budget: int = 1000,
    messages_key: str = "messages",
    as_system_message: bool = True,
    system_message_id: str = MEMORY_MESSAGE_ID,
    explain: bool = False,
    skip_visible: bool = True,
) -> RunnableLambda[Any, dict[str, Any]]:
    """A node that recalls what the memory knows about the latest human message.

    It writes ``memory_context`` (the rendered prompt, ``""`` when nothing was
    found) and ``memory_sources`` (the cited message ids) and, with
    ``as_system_message``, one ``SystemMessage`` with id ``system_message_id`` to
    ``state[messages_key]``. Because the id is fixed, LangGraph's ``add_messages``
    replaces the previous turn's memory message in place (it keeps the position
    it was first added at); when a later recall finds nothing, it is removed.
    Under ``stream_mode="messages"`` that message is streamed like any message a
    node writes; a chat UI can drop it by its id.

    Args:
        memory: The memory to read.
        token_budget: Most tokens the recalled context may take.
        messages_key: The state key holding the conversation.
        as_system_message: Also add the context to the conversation as a system
            message. Turn it off to place ``state["memory_context"]`` in your own
            prompt (e.g. for models that want the system message first).
        system_message_id: The id of that system message.
        explain: Also write ``memory_explanation``: why each item is there.
        skip_visible: Leave out recalled messages that are already in
            ``state[messages_key]`` (the model sees those anyway).

    Returns:
        A runnable node named ``recall``; add it with ``builder.add_node(node)``.

    Raises:
        ValueError: At run time, when ``config["configurable"]["user_id"]`` is missing.

    Example:
        >>> builder.add_node(recall_node(mm, token_budget=800))  # doctest: +SKIP
        >>> state = graph.invoke({"messages": [("user", "What am I allergic to?")]},
        ...     {"configurable": {"user_id": "alice", "thread_id": "t2"}})  # doctest: +SKIP
        >>> state["memory_sources"]  # doctest: +SKIP
        ['3f2a…']
    """
    check_memory(memory)
    check_positive_int(token_budget, "token_budget")
    check_id(messages_key, "messages_key")
    check_id(system_message_id, "system_message_id")
    limit = memory.config.max_content_chars

    def finish(ctx: MemoryContext | None, messages: list[BaseMessage]) -> dict[str, Any]:
        if ctx is not None and skip_visible:
            visible = {m.id for m in messages if m.id and m.id != system_message_id}
            kept = [it for it in ctx.items if not set(it.source_ids) <= visible]
            if len(kept) < len(ctx.items):
                ctx = dataclasses.replace(ctx, items=kept)
        prompt = ctx.to_prompt() if ctx is not None else ""
        update: dict[str, Any] = {
            "memory_context": prompt,
            "memory_sources": ctx.source_ids if ctx is not None else [],
        }
        if explain:
            update["memory_explanation"] = ctx.explanation() if ctx is not None else ""
        if as_system_message:
            if prompt:
                update[messages_key] = [SystemMessage(content=prompt, id=system_message_id)]
            elif any(m.id == system_message_id for m in messages):
                update[messages_key] = [RemoveMessage(id=system_message_id)]
        return update

    def recall(state: Any, config: RunnableConfig) -> dict[str, Any]:
        user_id, session_id = run_scope(config, "recall_node")
        scope = _scope(config)
        messages = _messages(state, messages_key)
        query = _query(messages, limit)
        ctx = (
            memory.build_context(
                user_id, session_id, query, token_budget, explain=explain, scope=scope
            )
            if query
            else None
        )
        return finish(ctx, messages)

    async def arecall(state: Any, config: RunnableConfig) -> dict[str, Any]:
        user_id, session_id = run_scope(config, "recall_node")
        scope = _scope(config)
        messages = _messages(state, messages_key)
        query = _query(messages, limit)
        ctx = (
            await memory.abuild_context(
                user_id, session_id, query, token_budget, explain=explain, scope=scope
            )
            if query
            else None
        )
        return finish(ctx, messages)

    return RunnableLambda(recall, afunc=arecall, name="recall")


def _scope(config: RunnableConfig | None) -> str | None:
    """``config["configurable"]["scope"]``, validated, or ``None``."""
    found = ((config or {}).get("configurable") or {}).get("scope")
    return None if found is None or found == "" else check_id(found, "configurable scope")


def remember_node(
    memory: MemoryManager,
    *,
    messages_key: str = "messages",
    system_message_id: str = MEMORY_MESSAGE_ID,
) -> RunnableLambda[Any, dict[str, Any]]:
    """A node that stores the latest exchange: the last human message and all after it.

    AI messages are stored as ``assistant`` (their tool calls written out as
    ``called tool NAME with {args}``), tool results as ``tool`` named after the
    tool. System messages (the memory message among them) and messages with
    nothing to say are skipped. Each message is stored under its LangChain id —
    or, without one, an id made from the thread, its position and its content —
    so running the node again, or replaying a thread, stores nothing twice. A
    message edited in place (same id, new content) is stored as a new memory.

    Args:
        memory: The memory to write.
        messages_key: The state key holding the conversation.
        system_message_id: The id of ``recall_node``'s system message (skipped).

    Returns:
        A runnable node named ``remember`` that leaves the state unchanged.

    Raises:
        ValueError: At run time, when ``config["configurable"]["user_id"]`` is missing.

    Example:
        >>> builder.add_node(remember_node(mm))  # doctest: +SKIP
        >>> builder.add_edge("agent", "remember")  # doctest: +SKIP
    """
    check_memory(memory)
    check_id(messages_key, "messages_key")
    limit = memory.config.max_content_chars

    def remember(state: Any, config: RunnableConfig) -> dict[str, Any]:
        user_id, session_id = run_scope(config, "remember_node")
        for w in _writes(_messages(state, messages_key), session_id, system_message_id, limit):
            try:
                memory.add_message(user_id, session_id, w.role, w.content, **w.kwargs())
            except ValueError as exc:
                if not is_id_conflict(exc):
                    raise
                memory.add_message(user_id, session_id, w.role, w.content, **w.kwargs(True))
        return {}

    async def aremember(state: Any, config: RunnableConfig) -> dict[str, Any]:
        user_id, session_id = run_scope(config, "remember_node")
        for w in _writes(_messages(state, messages_key), session_id, system_message_id, limit):
            try:
                await memory.aadd_message(user_id, session_id, w.role, w.content, **w.kwargs())
            except ValueError as exc:
                if not is_id_conflict(exc):
                    raise
                await memory.aadd_message(user_id, session_id, w.role, w.content, **w.kwargs(True))
        return {}

    return RunnableLambda(remember, afunc=aremember, name="remember")


def _writes(
    messages: list[BaseMessage], session_id: str, skip_id: str, limit: int
) -> list[MessageWrite]:
    """What ``remember`` stores for the latest exchange, in order."""
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


def _messages(state: Any, key: str) -> list[BaseMessage]:
    """The conversation in a state (a dict, or an object such as a pydantic model)."""
    raw = state.get(key) if isinstance(state, Mapping) else getattr(state, key, None)
    if raw is None:
        return []
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise TypeError(f"state[{key!r}] must be a list of messages, got {type(raw).__name__}")
    return convert_to_messages(raw)


def _query(messages: list[BaseMessage], limit: int) -> str:
    """The latest human message's text (``""`` when there is none)."""
    i = last_human_index(messages)
    return "" if i is None else render_message(messages[i], limit)
