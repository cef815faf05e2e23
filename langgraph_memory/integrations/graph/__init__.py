"""LangGraph integration: memory state fields, recall/remember nodes and a wrapper.

Example:
    >>> from langgraph_memory.integrations.graph import with_memory
    >>> graph = with_memory(agent, mm)  # doctest: +SKIP
    >>> graph.invoke({"messages": [("user", "hi")]},  # doctest: +SKIP
    ...              {"configurable": {"user_id": "alice", "thread_id": "1"}})
"""

from typing import Any

from langgraph_memory.integrations.graph.checkpointer import MemoryCheckpointer
from langgraph_memory.integrations.graph.maintenance import memory_maintenance_node
from langgraph_memory.integrations.graph.nodes import (
    DEFAULT_SESSION,
    MEMORY_MESSAGE_ID,
    recall_node,
    remember_node,
    trim_node,
)
from langgraph_memory.integrations.graph.prompting import lead_with_memory, merge_system
from langgraph_memory.integrations.graph.state import MemoryMessagesState, MemoryState
from langgraph_memory.integrations.graph.store import MemoryStore
from langgraph_memory.integrations.graph.store_tools import (
    create_manage_memory_tool,
    create_search_memory_tool,
)
from langgraph_memory.integrations.graph.thread import trim_thread
from langgraph_memory.integrations.graph.tools import core_memory_blocks, create_memory_tools
from langgraph_memory.integrations.graph.wrap import with_memory

__all__ = [
    "recall_node",
    "remember_node",
    "trim_node",
    "trim_thread",
    "merge_system",
    "lead_with_memory",
    "memory_maintenance_node",
    "with_memory",
    "MemoryState",
    "MemoryMessagesState",
    "MEMORY_MESSAGE_ID",
    "DEFAULT_SESSION",
    "MemoryCheckpointer",
    "MemoryStore",
    "create_manage_memory_tool",
    "create_search_memory_tool",
    "create_memory_tools",
    "core_memory_blocks",
]


def __getattr__(name: str) -> Any:
    """``MemoryMiddleware`` and ``MemoryAgentState`` load ``langchain`` on first use (they
    need the ``agents`` extra, so they are not in ``__all__``)."""
    if name in ("MemoryMiddleware", "MemoryAgentState"):
        try:
            from langgraph_memory.integrations.graph import middleware as middleware
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError(
                f"{name} needs LangChain v1 agents: pip install 'langgraph-memory[agents]'"
            ) from exc
        return getattr(middleware, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
