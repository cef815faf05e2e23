"""The deployment's store and checkpointer: this memory behind LangGraph Platform.

``langgraph.json`` names the two factories, so the server's own long-term store
(``/store/items``, ``get_store()`` inside a node, ``runtime.store``) and its thread
checkpoints both go through the memory that the example graphs use::

    "store": {"path": "./graphs/deployment.py:store"},
    "checkpointer": {"path": "./graphs/deployment.py:checkpointer"}

Every process shares one :class:`~langgraph_memory.MemoryManager`
(:func:`_graph_support.shared_memory`): the graphs recall from it, the store's items
live in it (hybrid search over them), and the checkpointer captures every message the
threads checkpoint into it. Checkpoints themselves are kept by LangGraph's SQLite saver
in ``$LANGGRAPH_MEMORY_PATH/checkpoints.sqlite`` (or in process memory when that
variable is unset), wrapped by :class:`~langgraph_memory.MemoryCheckpointer`.

Pointed at a memory service (``langgraph-memory serve``) instead: set
``LANGGRAPH_MEMORY_URL`` (e.g. ``http://127.0.0.1:8420``) and ``LANGGRAPH_MEMORY_API_KEY``
(a key from ``langgraph-memory keys create --tenant T``). The store's items and the
captured messages then go through one :class:`~langgraph_memory.RemoteMemory` per
process to the service, in the key's tenant (the service's model embeds: this process
loads none); the checkpoints themselves stay with LangGraph's saver as above. Several
deployments, in several processes or machines, so share one memory.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_memory import MemoryCheckpointer, MemoryManager, MemoryStore, RemoteMemory

sys.path.insert(0, str(Path(__file__).resolve().parent))  # langgraph dev loads files by path
from _graph_support import PATH_ENV, shared_memory  # noqa: E402

__all__ = ["store", "checkpointer", "URL_ENV", "memory"]

#: The memory service's base URL; unset: the process's own memory.
URL_ENV = "LANGGRAPH_MEMORY_URL"
_REMOTE: dict[tuple[str, str | None], RemoteMemory] = {}


def memory() -> MemoryManager | RemoteMemory:
    """What the store and the checkpointer keep their memory in: the service at
    ``$LANGGRAPH_MEMORY_URL`` (with ``$LANGGRAPH_MEMORY_API_KEY``), one client per
    process, or else the process's shared memory."""
    url = os.environ.get(URL_ENV)
    if not url:
        return shared_memory()
    key = os.environ.get("LANGGRAPH_MEMORY_API_KEY")
    if (url, key) not in _REMOTE:
        _REMOTE[(url, key)] = RemoteMemory(url, api_key=key)
    return _REMOTE[(url, key)]


@contextlib.asynccontextmanager
async def store() -> AsyncIterator[MemoryStore]:
    """The platform's long-term store: a ``MemoryStore`` over the shared memory (or the
    service's)."""
    yield MemoryStore(memory())


@contextlib.asynccontextmanager
async def checkpointer() -> AsyncIterator[BaseCheckpointSaver]:
    """The platform's checkpointer: checkpoints kept by LangGraph's saver, messages
    captured into the shared memory (or the service's)."""
    path = os.environ.get(PATH_ENV)
    if not path:
        yield MemoryCheckpointer(InMemorySaver(), memory())
        return
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    Path(path).mkdir(parents=True, exist_ok=True)
    async with AsyncSqliteSaver.from_conn_string(str(Path(path) / "checkpoints.sqlite")) as saver:
        yield MemoryCheckpointer(saver, memory())
