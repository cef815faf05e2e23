"""langgraph_memory: layered, token-budgeted, explainable memory for LangGraph agents.

Example:
    >>> from langgraph_memory import MemoryManager, MemoryConfig
    >>> mm = MemoryManager()  # doctest: +SKIP
"""

from typing import Any

from .backends import InMemoryBackend, MemoryBackend, SQLiteBackend
from .backends.sqlite_health import StoreDamagedError
from .config import MemoryConfig
from .consolidation import Knowledge
from .context import ContextItem, MemoryContext
from .embeddings import CachedEmbeddings, HashingEmbeddings, MiniLMEmbeddings
from .forgetting import ForgetReport
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
from .manager import MemoryManager
from .records import MemoryHit, Message
from .retriever import MemoryRetriever
from .tokens import count_tokens, tokenize
from .working import Anchor, Episode, TaskState, TaskStep
from .write.sensitivity import SensitiveContentError, SensitivityPolicy

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """``MemoryMiddleware`` (LangChain v1 agents) loads ``langchain`` on first use; it
    needs ``pip install "langgraph-memory[agents]"`` and so is not in ``__all__``."""
    if name in ("MemoryMiddleware", "MemoryAgentState"):
        from . import graph

        return getattr(graph, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
