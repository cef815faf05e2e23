"""``memory_maintenance_node``: run the forget gate and consolidation from a graph.

Put it on a schedule (a cron graph) or after an agent's last step. It works on the
run's user (``config["configurable"]["user_id"]``) and changes no graph state
except ``memory_maintenance``, a summary of what it did.

Example:
    >>> builder.add_node("maintenance", memory_maintenance_node(mm))  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig, RunnableLambda

from langgraph_memory.integrations.graph.scope import check_memory, run_scope
from langgraph_memory.manager import MemoryManager

__all__ = ["memory_maintenance_node"]


def memory_maintenance_node(
    memory: MemoryManager,
    *,
    forget: bool = True,
    consolidate: bool = True,
    dry_run: bool = False,
) -> RunnableLambda:
    """A node that forgets unimportant episodes and consolidates the rest into knowledge.

    Args:
        memory: The memory manager.
        forget: Run the forget gate.
        consolidate: Run consolidation (after forgetting).
        dry_run: Only report what the forget gate would delete.

    Returns:
        A runnable node (sync and async) returning ``{"memory_maintenance": {...}}`` with
        the ids of forgotten episodes and of new knowledge.

    Raises:
        ValueError: At run time, when ``config["configurable"]["user_id"]`` is missing.
    """
    check_memory(memory, remote=False)  # maintenance is not served over HTTP (yet)

    def run(state: Any, config: RunnableConfig) -> dict[str, Any]:
        user_id, _ = run_scope(config, "memory_maintenance_node")
        summary: dict[str, Any] = {"forgotten": [], "knowledge": [], "dry_run": dry_run}
        if forget:
            report = memory.maintenance.forget(dry_run, user_id=user_id)
            summary["forgotten"] = [eid for eid, _, _ in report.forgotten]
        if consolidate and not dry_run:
            summary["knowledge"] = [k.id for k in memory.maintenance.consolidate(user_id)]
        return {"memory_maintenance": summary}

    async def arun(state: Any, config: RunnableConfig) -> dict[str, Any]:
        import asyncio

        return await asyncio.to_thread(run, state, config)

    return RunnableLambda(run, afunc=arun, name="memory_maintenance")
