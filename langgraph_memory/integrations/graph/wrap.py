"""``with_memory``: wrap any agent between a recall and a remember node.

Example:
    >>> from langgraph.checkpoint.memory import InMemorySaver
    >>> from langgraph.prebuilt import create_react_agent  # doctest: +SKIP
    >>> graph = with_memory(create_react_agent(model, tools), mm,  # doctest: +SKIP
    ...                     checkpointer=InMemorySaver())
    >>> graph.invoke({"messages": [("user", "What am I allergic to?")]},  # doctest: +SKIP
    ...              {"configurable": {"user_id": "alice", "thread_id": "t2"}})
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast, get_type_hints

from langchain_core.runnables import Runnable
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore
from langgraph.types import Checkpointer

from langgraph_memory.integrations.graph.nodes import recall_node, remember_node
from langgraph_memory.integrations.graph.state import MemoryMessagesState
from langgraph_memory.manager import MemoryManager

__all__ = ["with_memory", "AGENT_NODE"]

#: The name of the wrapped agent's node in the graph ``with_memory`` builds.
AGENT_NODE = "agent"
_MESSAGES_KEY = "messages"
_REQUIRED_KEYS = (_MESSAGES_KEY, "memory_context", "memory_sources")


def with_memory(
    agent: Runnable[Any, Any] | Callable[..., Any],
    memory: MemoryManager,
    *,
    token_budget: int = 1000,
    state_schema: type[Any] | None = None,
    checkpointer: Checkpointer = None,
    store: BaseStore | None = None,
    name: str | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile ``START → recall → agent → remember → END`` around an agent.

    ``agent`` is anything ``StateGraph.add_node`` takes: a node function
    (``state -> update``, sync or async), a runnable, or a compiled graph whose
    state has a ``messages`` list with the ``add_messages`` reducer — e.g. an
    agent from ``langgraph.prebuilt.create_react_agent``. (LangGraph 1.x marks
    ``create_react_agent`` deprecated in favour of ``langchain.agents.create_agent``,
    which returns a compiled graph of the same shape; either can be wrapped.)

    The recall node adds the recalled memories to ``messages`` as a system
    message (see :func:`~langgraph_memory.integrations.graph.recall_node`), so the agent sees
    them without any change; the remember node stores the exchange afterwards.
    Run it with ``config={"configurable": {"user_id": ..., "thread_id": ...}}``; the
    recall node also reads ``"scope"`` and ``"agent_id"`` there (the traits of agents
    other than ``agent_id`` then stay out of the recalled memory).

    Args:
        agent: The agent node, runnable or compiled graph.
        memory: The memory to read and write.
        token_budget: Most tokens recalled memories may take per turn.
        state_schema: The graph's state; default
            :class:`~langgraph_memory.integrations.graph.MemoryMessagesState`. It must have
            ``messages`` (with ``add_messages``) and :class:`MemoryState`'s fields.
        checkpointer: Passed to ``compile`` (e.g. ``InMemorySaver()``).
        store: Passed to ``compile``.
        name: The compiled graph's name.

    Returns:
        The compiled graph, with nodes ``recall``, ``agent`` and ``remember``.

    Raises:
        ValueError: When ``state_schema`` lacks ``messages`` or the memory fields.

    Example:
        >>> def agent(state):
        ...     return {"messages": [model.invoke(state["messages"])]}
        >>> graph = with_memory(agent, mm, token_budget=800)  # doctest: +SKIP
        >>> list(graph.nodes)  # doctest: +SKIP
        ['__start__', 'recall', 'agent', 'remember']
    """
    schema = MemoryMessagesState if state_schema is None else state_schema
    _check_schema(schema)
    recall = recall_node(memory, token_budget=token_budget, messages_key=_MESSAGES_KEY)
    remember = remember_node(memory, messages_key=_MESSAGES_KEY)
    builder: StateGraph[Any, Any, Any, Any] = StateGraph(schema)
    builder.add_node(recall)
    builder.add_node(AGENT_NODE, cast(Any, agent))
    builder.add_node(remember)
    builder.add_edge(START, "recall")
    builder.add_edge("recall", AGENT_NODE)
    builder.add_edge(AGENT_NODE, "remember")
    builder.add_edge("remember", END)
    return builder.compile(checkpointer=checkpointer, store=store, name=name)


def _check_schema(schema: type[Any]) -> None:
    """Fail early on a state the memory nodes cannot write to (LangGraph drops unknown keys)."""
    if not isinstance(schema, type):
        raise TypeError(f"state_schema must be a class, got {type(schema).__name__}")
    try:
        fields = set(get_type_hints(schema))
    except Exception:  # unresolvable annotations: let StateGraph report them
        return
    missing = [k for k in _REQUIRED_KEYS if k not in fields]
    if missing:
        raise ValueError(
            f"state_schema {schema.__name__} lacks {missing}; base it on the memory state, "
            "e.g. class State(MessagesState, MemoryState): ... "
            "(from langgraph_memory.integrations.graph import MemoryState)"
        )
