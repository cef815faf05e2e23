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
    "MemoryConfig": ".config",
    "MemoryContext": ".context",
    "ContextItem": ".context",
    "MemoryHit": ".records",
    "Message": ".records",
    "MemoryBackend": ".backends",
    "InMemoryBackend": ".backends",
    "SQLiteBackend": ".backends",
    "StoreDamagedError": ".backends.sqlite_health",
    "CachedEmbeddings": ".embeddings",
    "HashingEmbeddings": ".embeddings",
    "MiniLMEmbeddings": ".embeddings",
    "count_tokens": ".tokens",
    "tokenize": ".tokens",
    "MemoryRetriever": ".retriever",
    "recall_node": ".graph",
    "remember_node": ".graph",
    "trim_node": ".graph",
    "memory_maintenance_node": ".graph",
    "with_memory": ".graph",
    "MemoryState": ".graph",
    "MemoryMessagesState": ".graph",
    "MemoryCheckpointer": ".graph",
    "MemoryStore": ".graph",
    "create_memory_tools": ".graph",
    "core_memory_blocks": ".graph",
    "Anchor": ".working",
    "Episode": ".working",
    "TaskState": ".working",
    "TaskStep": ".working",
    "Knowledge": ".consolidation",
    "ForgetReport": ".forgetting",
    "SensitivityPolicy": ".write.sensitivity",
    "SensitiveContentError": ".write.sensitivity",
    # LangChain v1 agents: needs ``pip install "langgraph-memory[agents]"``, not in __all__
    "MemoryMiddleware": ".graph",
    "MemoryAgentState": ".graph",
}

if TYPE_CHECKING:
    from .backends import InMemoryBackend, MemoryBackend, SQLiteBackend
    from .backends.sqlite_health import StoreDamagedError
    from .config import MemoryConfig
    from .consolidation import Knowledge
    from .context import ContextItem, MemoryContext
    from .embeddings import CachedEmbeddings, HashingEmbeddings, MiniLMEmbeddings
    from .forgetting import ForgetReport
    from .graph import (
        MemoryAgentState as MemoryAgentState,
    )
    from .graph import (
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
    from .graph import (
        MemoryMiddleware as MemoryMiddleware,
    )
    from .manager import MemoryManager
    from .records import MemoryHit, Message
    from .retriever import MemoryRetriever
    from .tokens import count_tokens, tokenize
    from .working import Anchor, Episode, TaskState, TaskStep
    from .write.sensitivity import SensitiveContentError, SensitivityPolicy


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
