"""Where a graph run's memory lives: its user and session, from the run's config.

Example:
    >>> run_scope({"configurable": {"user_id": "alice"}}, "recall_node")
    ('alice', 'default')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig

from langgraph_memory.manager import MemoryManager

__all__ = ["DEFAULT_SESSION", "run_scope", "check_memory"]

#: The session id used when the config has no ``thread_id``.
DEFAULT_SESSION = "default"


def run_scope(config: RunnableConfig | None, node: str) -> tuple[str, str]:
    """The user id and session id of a run, from ``config["configurable"]``."""
    configurable: Mapping[str, Any] = (config or {}).get("configurable") or {}
    user_id = configurable.get("user_id")
    if user_id is None or user_id == "":
        raise ValueError(
            f'{node} needs a user id in config["configurable"]["user_id"]; run the graph '
            'with e.g. graph.invoke(inputs, {"configurable": {"user_id": "alice", '
            '"thread_id": "1"}}). Memory is always scoped to one user.'
        )
    thread_id = configurable.get("thread_id")
    return user_id, DEFAULT_SESSION if thread_id in (None, "") else str(thread_id)


def check_memory(memory: Any, *, remote: bool = True) -> None:
    """Refuse anything but a :class:`~langgraph_memory.MemoryManager` or (unless not
    ``remote``) a :class:`~langgraph_memory.RemoteMemory` (its surface over HTTP)."""
    from langgraph_memory.integrations.remote import RemoteMemory

    if isinstance(memory, MemoryManager) or (remote and isinstance(memory, RemoteMemory)):
        return
    wanted = "a MemoryManager or a RemoteMemory" if remote else "a MemoryManager"
    raise TypeError(f"memory must be {wanted}, got {type(memory).__name__}")
