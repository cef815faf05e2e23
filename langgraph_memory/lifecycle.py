"""The manager's task, episode and maintenance methods (a mixin of :class:`MemoryManager`).

Tasks become episodes (``complete_task``); the forget gate drops unimportant
episodes; consolidation turns episodes that share a target into knowledge.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import fields
from datetime import datetime, timedelta, timezone
from typing import Any

from .consolidation import Consolidator, Knowledge
from .forgetting import ForgetGate, ForgetReport
from .validation import check_id
from .working import Episode, TaskState, TaskStep, WorkingMemory

__all__ = ["LifecycleMixin"]


class LifecycleMixin:
    """Working memory, episodes, knowledge, forgetting and consolidation."""

    working: WorkingMemory
    _forget: ForgetGate
    _consolidator: Consolidator
    _write_lock: threading.RLock

    def _check_open(self) -> None:  # pragma: no cover - provided by MemoryManager
        raise NotImplementedError

    def start_task(
        self, user_id: str, session_id: str, request: str, *, context: dict[str, Any] | None = None
    ) -> str:
        """Open a task in working memory.

        Args:
            user_id: Whose task.
            session_id: The session it runs in.
            request: The user's original request.
            context: Free JSON-serialisable task context.

        Returns:
            The task id.

        Example:
            >>> tid = mm.start_task("u1", "s1", "restart nginx")  # doctest: +SKIP
            >>> i = mm.add_step(tid, "docker restart nginx", tool_name="shell")  # doctest: +SKIP
            >>> mm.update_step(tid, i, status="completed", result="ok")  # doctest: +SKIP
            >>> ep = mm.complete_task(tid, outcome="success", summary="restarted")  # doctest: +SKIP
        """
        self._check_open()
        return self.working.start_task(user_id, session_id, request, context=context)

    def add_step(
        self,
        task_id: str,
        description: str,
        tool_name: str | None = None,
        args: dict[str, Any] | None = None,
    ) -> int:
        """Append a step to a task in progress; returns its index."""
        self._check_open()
        return self.working.add_step(task_id, description, tool_name, args)

    def update_step(
        self, task_id: str, index: int, *, status: str | None = None, result: str | None = None
    ) -> TaskStep:
        """Set a step's ``status`` (pending/in_progress/completed/failed) and/or ``result``."""
        self._check_open()
        return self.working.update_step(task_id, index, status=status, result=result)

    def get_task(self, task_id: str) -> TaskState:
        """A task by id (raises ``KeyError`` when unknown)."""
        self._check_open()
        return self.working.get_task(task_id)

    def complete_task(
        self,
        task_id: str,
        *,
        outcome: str = "success",
        summary: str = "",
        trigger_type: str = "user_request",
        target: str = "",
        tags: list[str] | None = None,
        pinned: bool = False,
    ) -> Episode:
        """Close a task and keep it as an episode in long-term memory.

        Args:
            task_id: The task.
            outcome: ``success``, ``partial`` or ``failed``.
            summary: What came of it.
            trigger_type: ``user_request``, ``alert`` or ``scheduled``.
            target: What it acted on (episodes sharing a target are consolidated).
            tags: Free labels.
            pinned: Never forget this episode.

        Returns:
            The stored :class:`Episode` (its importance already scored).
        """
        self._check_open()
        return self.working.complete_task(
            task_id,
            outcome=outcome,
            summary=summary,
            trigger_type=trigger_type,
            target=target,
            tags=tags,
            pinned=pinned,
        )

    def episodes(self, user_id: str) -> list[Episode]:
        """A user's episodes, oldest first."""
        self._check_open()
        return self.working.episodes(check_id(user_id, "user_id"))

    def knowledge(self, user_id: str) -> list[Knowledge]:
        """A user's consolidated knowledge, oldest first."""
        self._check_open()
        return self._consolidator.knowledge(check_id(user_id, "user_id"))

    def run_forget_gate(
        self, dry_run: bool = False, *, user_id: str | None = None, now: datetime | None = None
    ) -> ForgetReport:
        """Re-score episodes and forget the unimportant ones.

        Args:
            dry_run: Only report what would go.
            user_id: Limit to one user (default: everyone).
            now: The time to score at (default: now).

        Returns:
            A :class:`ForgetReport` naming each forgotten episode and why.
        """
        self._check_open()
        if user_id is not None:
            check_id(user_id, "user_id")
        with self._write_lock:  # not beside the worker saving access counts
            return self._forget.run(
                user_id, now=now or datetime.now(timezone.utc), dry_run=bool(dry_run)
            )

    def run_consolidation(self, user_id: str | None = None) -> list[Knowledge]:
        """Consolidate episodes that share a target into knowledge; returns what was made."""
        self._check_open()
        if user_id is not None:
            check_id(user_id, "user_id")
        with self._write_lock:  # not beside the worker saving access counts
            return self._consolidator.run(user_id)

    # -- async twins -------------------------------------------------------------------
    async def astart_task(self, user_id: str, session_id: str, request: str, **kw: Any) -> str:
        """Async :meth:`start_task`."""
        return await asyncio.to_thread(self.start_task, user_id, session_id, request, **kw)

    async def aadd_step(self, task_id: str, description: str, **kw: Any) -> int:
        """Async :meth:`add_step`."""
        return await asyncio.to_thread(self.add_step, task_id, description, **kw)

    async def aupdate_step(self, task_id: str, index: int, **kw: Any) -> TaskStep:
        """Async :meth:`update_step`."""
        return await asyncio.to_thread(self.update_step, task_id, index, **kw)

    async def acomplete_task(self, task_id: str, **kw: Any) -> Episode:
        """Async :meth:`complete_task`."""
        return await asyncio.to_thread(self.complete_task, task_id, **kw)

    async def arun_forget_gate(self, dry_run: bool = False, **kw: Any) -> ForgetReport:
        """Async :meth:`run_forget_gate`."""
        return await asyncio.to_thread(self.run_forget_gate, dry_run, **kw)

    async def arun_consolidation(self, user_id: str | None = None) -> list[Knowledge]:
        """Async :meth:`run_consolidation`."""
        return await asyncio.to_thread(self.run_consolidation, user_id)


def make_lifecycle(
    backend: Any, llm: Any, config: Any
) -> tuple[WorkingMemory, ForgetGate, Consolidator]:
    """The working memory, forget gate and consolidator of a manager."""
    from .forgetting import ImportanceRule, importance

    # Every constant of the rule is a MemoryConfig field named importance_<constant>.
    rule = ImportanceRule(
        **{f.name: getattr(config, f"importance_{f.name}") for f in fields(ImportanceRule)}
    )
    working = WorkingMemory(backend, importance=lambda ep, now: importance(ep, now, rule))
    gate = ForgetGate(
        working,
        threshold=config.forget_threshold,
        min_age=timedelta(days=config.forget_min_age_days),
        max_episodes=config.max_episodes,
        rule=rule,
    )
    return working, gate, Consolidator(working, llm, min_episodes=config.consolidation_min_episodes)
