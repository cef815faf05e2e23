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
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_memory import MemoryCheckpointer, MemoryStore

sys.path.insert(0, str(Path(__file__).resolve().parent))  # langgraph dev loads files by path
from _graph_support import PATH_ENV, shared_memory  # noqa: E402

__all__ = ["store", "checkpointer"]


@contextlib.asynccontextmanager
async def store() -> AsyncIterator[MemoryStore]:
    """The platform's long-term store: a ``MemoryStore`` over the shared memory."""
    yield MemoryStore(shared_memory())


@contextlib.asynccontextmanager
async def checkpointer() -> AsyncIterator[BaseCheckpointSaver]:
    """The platform's checkpointer: checkpoints kept by LangGraph's saver, messages
    captured into the shared memory."""
    path = os.environ.get(PATH_ENV)
    if not path:
        yield MemoryCheckpointer(InMemorySaver(), shared_memory())
        return
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    Path(path).mkdir(parents=True, exist_ok=True)
    async with AsyncSqliteSaver.from_conn_string(str(Path(path) / "checkpoints.sqlite")) as saver:
        yield MemoryCheckpointer(saver, shared_memory())
