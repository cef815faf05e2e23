"""langgraph_memory: layered, token-budgeted, explainable memory for LangGraph agents.

Example:
    >>> from langgraph_memory import MemoryManager, MemoryConfig
    >>> mm = MemoryManager()  # doctest: +SKIP
"""

from .backends import InMemoryBackend, MemoryBackend, SQLiteBackend
from .config import MemoryConfig
from .context import ContextItem, MemoryContext
from .embeddings import CachedEmbeddings, HashingEmbeddings, MiniLMEmbeddings
from .manager import MemoryManager
from .records import MemoryHit, Message
from .tokens import count_tokens, tokenize

__version__ = "0.1.0"

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
    "__version__",
]
