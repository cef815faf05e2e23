"""langgraph_memory: layered, token-budgeted, explainable memory for LangGraph agents.

The public names load on first use (a module ``__getattr__``), so ``import
langgraph_memory`` stays cheap and the LangGraph/LangChain pieces are imported only
by code that uses them; ``from langgraph_memory import X`` works as usual.

Example:
    >>> from langgraph_memory import MemoryManager, MemoryConfig
    >>> mm = MemoryManager()  # doctest: +SKIP
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each public name and the submodule that defines it (imported on first access).
EXPORTS: dict[str, str] = {
    "MemoryManager": ".manager",
    "AsyncMemoryManager": ".manager",
    "MemoryConfig": ".config",
    "MemoryContext": ".core.context",
    "ContextItem": ".core.context",
    "MemoryHit": ".core.records",
    "Message": ".core.records",
    "MemoryBackend": ".storage",
    "InMemoryBackend": ".storage",
    "SQLiteBackend": ".storage",
    "StoreDamagedError": ".storage",
    "CachedEmbeddings": ".embeddings",
    "HashingEmbeddings": ".embeddings",
    "MiniLMEmbeddings": ".embeddings",
    "count_tokens": ".core.tokens",
    "tokenize": ".core.tokens",
    "MemoryRetriever": ".integrations.retriever",
    "RemoteMemory": ".integrations.remote",
    "AsyncRemoteMemory": ".integrations.remote",
    "recall_node": ".integrations.graph",
    "remember_node": ".integrations.graph",
    "trim_node": ".integrations.graph",
    "memory_maintenance_node": ".integrations.graph",
    "with_memory": ".integrations.graph",
    "MemoryState": ".integrations.graph",
    "MemoryMessagesState": ".integrations.graph",
    "MemoryCheckpointer": ".integrations.graph",
    "MemoryStore": ".integrations.graph",
    "create_memory_tools": ".integrations.graph",
    "core_memory_blocks": ".integrations.graph",
    "Anchor": ".layers.working.tasks",
    "Episode": ".layers.working.tasks",
    "TaskState": ".layers.working.tasks",
    "TaskStep": ".layers.working.tasks",
    "Knowledge": ".layers.knowledge.consolidation",
    "ForgetReport": ".layers.working.forgetting",
    "SensitivityPolicy": ".sensitivity.policy",
    "SensitiveContentError": ".sensitivity.policy",
    # LangChain v1 agents: needs ``pip install "langgraph-memory[agents]"``, not in __all__
    "MemoryMiddleware": ".integrations.graph",
    "MemoryAgentState": ".integrations.graph",
}

if TYPE_CHECKING:
    from langgraph_memory.config import MemoryConfig
    from langgraph_memory.core.context import ContextItem, MemoryContext
    from langgraph_memory.core.records import MemoryHit, Message
    from langgraph_memory.core.tokens import count_tokens, tokenize
    from langgraph_memory.embeddings import CachedEmbeddings, HashingEmbeddings, MiniLMEmbeddings
    from langgraph_memory.integrations.graph import (
        MemoryAgentState as MemoryAgentState,
    )
    from langgraph_memory.integrations.graph import (
        MemoryCheckpointer,
        MemoryMessagesState,
        MemoryState,
        MemoryStore,
        core_memory_blocks,
        create_memory_tools,
        memory_maintenance_node,
        recall_node,
        remember_node,
        trim_node,
        with_memory,
    )
    from langgraph_memory.integrations.graph import (
        MemoryMiddleware as MemoryMiddleware,
    )
    from langgraph_memory.integrations.remote import AsyncRemoteMemory, RemoteMemory
    from langgraph_memory.integrations.retriever import MemoryRetriever
    from langgraph_memory.layers.knowledge.consolidation import Knowledge
    from langgraph_memory.layers.working.forgetting import ForgetReport
    from langgraph_memory.layers.working.tasks import Anchor, Episode, TaskState, TaskStep
    from langgraph_memory.manager import AsyncMemoryManager, MemoryManager
    from langgraph_memory.sensitivity.policy import SensitiveContentError, SensitivityPolicy
    from langgraph_memory.storage import (
        InMemoryBackend,
        MemoryBackend,
        SQLiteBackend,
        StoreDamagedError,
    )


def __getattr__(name: str) -> Any:
    """Import the submodule that defines ``name`` and cache the value here."""
    module = EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(EXPORTS))


__all__ = [
    "MemoryManager",
    "AsyncMemoryManager",
    "MemoryConfig",
    "MemoryContext",
    "ContextItem",
    "MemoryHit",
    "Message",
    "MemoryBackend",
    "InMemoryBackend",
    "SQLiteBackend",
    "CachedEmbeddings",
    "HashingEmbeddings",
    "MiniLMEmbeddings",
    "count_tokens",
    "tokenize",
    "MemoryRetriever",
    "RemoteMemory",
    "AsyncRemoteMemory",
    "recall_node",
    "remember_node",
    "trim_node",
    "memory_maintenance_node",
    "with_memory",
    "MemoryState",
    "MemoryMessagesState",
    "MemoryCheckpointer",
    "MemoryStore",
    "create_memory_tools",
    "core_memory_blocks",
    "Anchor",
    "Episode",
    "TaskState",
    "TaskStep",
    "Knowledge",
    "ForgetReport",
    "SensitivityPolicy",
    "SensitiveContentError",
    "StoreDamagedError",
    "__version__",
]
