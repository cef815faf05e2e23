"""LangGraph integration: memory state fields, recall/remember nodes and a wrapper.

Example:
    >>> from langgraph_memory.graph import with_memory
    >>> graph = with_memory(agent, mm)  # doctest: +SKIP
    >>> graph.invoke({"messages": [("user", "hi")]},  # doctest: +SKIP
    ...              {"configurable": {"user_id": "alice", "thread_id": "1"}})
"""

from .checkpointer import MemoryCheckpointer
from .maintenance import memory_maintenance_node
from .nodes import DEFAULT_SESSION, MEMORY_MESSAGE_ID, recall_node, remember_node
from .state import MemoryMessagesState, MemoryState
from .store import MemoryStore
from .store_tools import create_manage_memory_tool, create_search_memory_tool
from .tools import core_memory_blocks, create_memory_tools
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
    "MemoryCheckpointer",
    "MemoryStore",
    "create_manage_memory_tool",
    "create_search_memory_tool",
    "create_memory_tools",
    "core_memory_blocks",
]
