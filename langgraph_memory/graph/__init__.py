"""LangGraph integration: memory state fields, recall/remember nodes and a wrapper.

Example:
    >>> from langgraph_memory.graph import with_memory
    >>> graph = with_memory(agent, mm)  # doctest: +SKIP
    >>> graph.invoke({"messages": [("user", "hi")]},  # doctest: +SKIP
    ...              {"configurable": {"user_id": "alice", "thread_id": "1"}})
"""

from .maintenance import memory_maintenance_node
from .nodes import DEFAULT_SESSION, MEMORY_MESSAGE_ID, recall_node, remember_node
from .state import MemoryMessagesState, MemoryState
from .wrap import with_memory

__all__ = [
    "recall_node",
    "remember_node",
    "memory_maintenance_node",
    "with_memory",
    "MemoryState",
    "MemoryMessagesState",
    "MEMORY_MESSAGE_ID",
    "DEFAULT_SESSION",
]
