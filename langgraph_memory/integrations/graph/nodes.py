"""The ``recall`` and ``remember`` nodes: memory around any LangGraph agent.

Both nodes read the user from ``config["configurable"]["user_id"]`` and the
session from ``config["configurable"]["thread_id"]`` (``"default"`` when absent);
``recall`` also reads the session's scope (a project, a topic: its preferences beat
global ones) from ``config["configurable"]["scope"]`` and the agent it recalls for (other
agents' traits stay out) from ``config["configurable"]["agent_id"]``, when given. They
run sync under ``invoke``/``stream`` and async under ``ainvoke``/``astream``.

Example:
    >>> from langgraph.graph import START, END, StateGraph
    >>> from langgraph_memory.integrations.graph import MemoryMessagesState
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

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, convert_to_messages
from langchain_core.runnables import RunnableConfig, RunnableLambda

from langgraph_memory.core.context import MemoryContext
from langgraph_memory.core.records import CONTEXT_LAYERS
from langgraph_memory.core.validation import check_id, check_positive_int
from langgraph_memory.integrations.graph.messages import (
    exchange_writes,
    is_id_conflict,
    latest_human_text,
)
from langgraph_memory.integrations.graph.prompting import (
    MEMORY_MESSAGE_ID,
    context_items,
    drop_visible,
    keep_layers,
    thread_writes,
    visible_ids,
)
from langgraph_memory.integrations.graph.scope import DEFAULT_SESSION, check_memory, run_scope
from langgraph_memory.integrations.graph.thread import OUTLINE_KEY, trim_thread
from langgraph_memory.manager import MemoryManager

__all__ = [
    "recall_node",
    "remember_node",
    "trim_node",
    "remember_exchange",
    "aremember_exchange",
    "MEMORY_MESSAGE_ID",
    "DEFAULT_SESSION",
]


def recall_node(
    memory: MemoryManager,
    *,
    token_budget: int = 1000,
    messages_key: str = "messages",
    as_system_message: bool = True,
    system_message_id: str = MEMORY_MESSAGE_ID,
    explain: bool = False,
    skip_visible: bool = True,
    layers: Sequence[str] | None = None,
    name: str = "recall",
) -> RunnableLambda[Any, dict[str, Any]]:
    """A node that recalls what the memory knows about the latest human message.

    It writes ``memory_context`` (the rendered prompt, ``""`` when nothing was
    found), ``memory_sources`` (the cited message ids), ``memory_items`` (each item
    as ``{"layer", "text", "source_ids", "score"}``, for nodes of your own) and, with
    ``as_system_message``, puts the context into the conversation's **one leading
    system message**: merged into the thread's own first system message when it
    has one (in place; the next recall replaces what this one added), otherwise as
    a ``SystemMessage`` with id ``system_message_id`` at the front of
    ``state[messages_key]`` (replaced in place on later turns, removed when a
    recall finds nothing). Providers that accept only one, leading, system message
    (Anthropic) read it as is. An agent that adds its own system prompt at call
    time (``create_agent(system_prompt=...)``) would then send two: give such an
    agent :class:`~langgraph_memory.integrations.graph.MemoryMiddleware` instead, or turn this
    off and place ``state["memory_context"]`` in your own prompt.

    Args:
        memory: The memory to read.
        token_budget: Most tokens the recalled context may take.
        messages_key: The state key holding the conversation.
        as_system_message: Also put the context into the conversation's leading
            system message. Turn it off to place ``state["memory_context"]`` in
            your own prompt.
        system_message_id: The id of that system message.
        explain: Also write ``memory_explanation``: why each item is there.
        skip_visible: Leave out recalled messages that are already in
            ``state[messages_key]`` (the model sees those anyway).
        layers: Keep only items of these context layers (e.g. ``["profile",
            "anchor"]`` for what is known about the user, ``["task", "lesson"]`` for
            the work in progress, ``["message", "mid_term", "fact"]`` for retrieved
            memories); several such nodes, each with its own ``name`` and
            ``as_system_message=False``, compose per-layer recall. Default: all.
        name: The node's name.

    Returns:
        A runnable node named ``recall``; add it with ``builder.add_node(node)``.

    The run's ``config["configurable"]`` names the user (``user_id``, required), the
    session (``thread_id``), the preference scope (``scope``) and the agent the context
    is for (``agent_id``: the traits of other agents never reach it).

    Raises:
        ValueError: At run time, when ``config["configurable"]["user_id"]`` is missing,
            or ``scope`` or ``agent_id`` there is no valid id.

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
    check_id(name, "name")
    wanted = _check_layers(layers)
    limit = memory.config.write.max_content_chars

    def finish(
        ctx: MemoryContext | None, messages: list[BaseMessage], state: Any
    ) -> dict[str, Any]:
        if ctx is not None:
            ctx = keep_layers(ctx, wanted)
            if skip_visible:
                ctx = drop_visible(ctx, messages, system_message_id)
        prompt = ctx.to_prompt() if ctx is not None else ""
        update: dict[str, Any] = {
            "memory_context": prompt,
            "memory_sources": ctx.source_ids if ctx is not None else [],
            "memory_items": context_items(ctx),
        }
        if explain:
            update["memory_explanation"] = ctx.explanation() if ctx is not None else ""
        if as_system_message:
            outline = _state_get(state, OUTLINE_KEY)
            lead = "\n\n".join(str(p) for p in (outline, prompt) if p)
            writes = thread_writes(messages, lead, system_message_id)
            if writes:
                update[messages_key] = writes
        return update

    def request(
        state: Any, config: RunnableConfig
    ) -> tuple[list[BaseMessage], dict[str, Any] | None]:
        """The thread's messages and this turn's ``build_context`` arguments (``None``:
        no human message to recall for)."""
        user_id, session_id = run_scope(config, "recall_node")
        scope, agent_id = _configured(config, "scope"), _configured(config, "agent_id")
        messages = _messages(state, messages_key)
        query = latest_human_text(messages, limit)
        if not query:
            return messages, None
        return messages, {
            "user_id": user_id,
            "session_id": session_id,
            "query": query,
            "token_budget": token_budget,
            "explain": explain,
            "scope": scope,
            "agent_id": agent_id,
            "shown_ids": visible_ids(messages, system_message_id) if skip_visible else None,
        }

    def recall(state: Any, config: RunnableConfig) -> dict[str, Any]:
        messages, args = request(state, config)
        ctx = memory.build_context(**args) if args is not None else None
        return finish(ctx, messages, state)

    async def arecall(state: Any, config: RunnableConfig) -> dict[str, Any]:
        messages, args = request(state, config)
        ctx = await memory.aio.build_context(**args) if args is not None else None
        return finish(ctx, messages, state)

    return RunnableLambda(recall, afunc=arecall, name=name)


def _check_layers(layers: Sequence[str] | None) -> frozenset[str] | None:
    if layers is None:
        return None
    if isinstance(layers, str) or not all(isinstance(x, str) for x in layers):
        raise TypeError("layers must be a list of layer names")
    unknown = sorted(set(layers) - set(CONTEXT_LAYERS))
    if unknown:
        raise ValueError(f"unknown context layers {unknown}; known: {list(CONTEXT_LAYERS)}")
    return frozenset(layers)


def _configured(config: RunnableConfig | None, key: str) -> str | None:
    """``config["configurable"][key]`` (``"scope"``, ``"agent_id"``), validated, or ``None``."""
    found = ((config or {}).get("configurable") or {}).get(key)
    return None if found is None or found == "" else check_id(found, f"configurable {key}")


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

    def remember(state: Any, config: RunnableConfig) -> dict[str, Any]:
        user_id, session_id = run_scope(config, "remember_node")
        messages = _messages(state, messages_key)
        remember_exchange(memory, user_id, session_id, messages, system_message_id)
        return {}

    async def aremember(state: Any, config: RunnableConfig) -> dict[str, Any]:
        user_id, session_id = run_scope(config, "remember_node")
        messages = _messages(state, messages_key)
        await aremember_exchange(memory, user_id, session_id, messages, system_message_id)
        return {}

    return RunnableLambda(remember, afunc=aremember, name="remember")


def remember_exchange(
    memory: MemoryManager,
    user_id: str,
    session_id: str,
    messages: Sequence[BaseMessage],
    skip_id: str = MEMORY_MESSAGE_ID,
) -> int:
    """Store the latest exchange of ``messages`` (see :func:`remember_node`).

    Returns:
        How many messages were written (a message stored before is not stored twice).
    """
    limit = memory.config.write.max_content_chars
    writes = exchange_writes(list(messages), session_id, skip_id, limit)
    for w in writes:
        try:
            memory.add_message(user_id, session_id, w.role, w.content, **w.kwargs())
        except ValueError as exc:
            if not is_id_conflict(exc):
                raise
            memory.add_message(user_id, session_id, w.role, w.content, **w.kwargs(True))
    return len(writes)


async def aremember_exchange(
    memory: MemoryManager,
    user_id: str,
    session_id: str,
    messages: Sequence[BaseMessage],
    skip_id: str = MEMORY_MESSAGE_ID,
) -> int:
    """Async :func:`remember_exchange`."""
    limit = memory.config.write.max_content_chars
    writes = exchange_writes(list(messages), session_id, skip_id, limit)
    for w in writes:
        try:
            await memory.aio.add_message(user_id, session_id, w.role, w.content, **w.kwargs())
        except ValueError as exc:
            if not is_id_conflict(exc):
                raise
            await memory.aio.add_message(user_id, session_id, w.role, w.content, **w.kwargs(True))
    return len(writes)


def trim_node(
    memory: MemoryManager, *, max_tokens: int = 4000, messages_key: str = "messages"
) -> RunnableLambda[Any, dict[str, Any]]:
    """A node that keeps the thread within ``max_tokens`` (the short-term layer).

    The oldest whole exchanges leave ``state[messages_key]`` (``RemoveMessage``),
    never a tool call without its result, never the current turn or a leading
    system message. Each is stored in memory first (so it stays searchable and is
    recalled when relevant), and a line per exchange, citing its message ids, goes
    to ``state["memory_thread_outline"]``, which :func:`recall_node` puts in the
    leading system message. Place it before ``recall``.

    Args:
        memory: Where the trimmed exchanges are stored.
        max_tokens: The thread's budget.
        messages_key: The state key holding the conversation.

    Returns:
        A runnable node named ``trim``.

    Example:
        >>> builder.add_sequence([trim_node(mm, max_tokens=3000), recall_node(mm),
        ...                       ("agent", agent), remember_node(mm)])  # doctest: +SKIP
    """
    check_memory(memory)
    check_positive_int(max_tokens, "max_tokens")
    check_id(messages_key, "messages_key")

    def update(state: Any, trim: Any) -> dict[str, Any]:
        out = trim.update(str(_state_get(state, OUTLINE_KEY) or ""))
        out[messages_key] = out.pop("messages")
        return out

    def run(state: Any, config: RunnableConfig) -> dict[str, Any]:
        user_id, session_id = run_scope(config, "trim_node")
        trim = trim_thread(_messages(state, messages_key), max_tokens)
        if trim is None:
            return {}
        for chunk in trim.exchanges:
            remember_exchange(memory, user_id, session_id, chunk)
        return update(state, trim)

    async def arun(state: Any, config: RunnableConfig) -> dict[str, Any]:
        user_id, session_id = run_scope(config, "trim_node")
        trim = trim_thread(_messages(state, messages_key), max_tokens)
        if trim is None:
            return {}
        for chunk in trim.exchanges:
            await aremember_exchange(memory, user_id, session_id, chunk)
        return update(state, trim)

    return RunnableLambda(run, afunc=arun, name="trim")


def _state_get(state: Any, key: str) -> Any:
    return state.get(key) if isinstance(state, Mapping) else getattr(state, key, None)


def _messages(state: Any, key: str) -> list[BaseMessage]:
    """The conversation in a state (a dict, or an object such as a pydantic model)."""
    raw = _state_get(state, key)
    if raw is None:
        return []
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise TypeError(f"state[{key!r}] must be a list of messages, got {type(raw).__name__}")
    return convert_to_messages(raw)
