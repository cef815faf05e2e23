"""``mm.tasks``: working memory's tasks, the episodes they become, and what is learnt
from them (lessons, consolidated knowledge, success rates).

A task is opened with the user's request (:meth:`Tasks.start`), gains steps (tool runs,
:meth:`Tasks.step`), and on :meth:`Tasks.complete` becomes an :class:`Episode` in
long-term memory, scored by the forget gate's importance rule. Every completed task
leaves a lesson (written in the background), and episodes that share a target are
consolidated into knowledge (``mm.maintenance.consolidate``). Every text and value of a
task goes through the sensitivity gate. Task ids are scoped by their user: another
user's id is not found.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     tid = mm.tasks.start("ann", "s1", "restart nginx")
    ...     i = mm.tasks.step("ann", tid, "docker restart nginx", tool_name="shell")
    ...     _ = mm.tasks.update_step("ann", tid, i, status="completed", result="ok")
    ...     ep = mm.tasks.complete("ann", tid, summary="restarted", target="nginx")
    ...     mm.flush()
    ...     ep.outcome, [e.target for e in mm.tasks.episodes("ann")], len(mm.tasks.lessons("ann"))
    ('success', ['nginx'], 1)
"""

from __future__ import annotations

import builtins
from typing import Any

from langgraph_memory.core.validation import check_id
from langgraph_memory.layers.knowledge.consolidation import Consolidator, Knowledge
from langgraph_memory.layers.long_term.reflection import Lesson, Reflector
from langgraph_memory.layers.working.tasks import Episode, TaskState, TaskStep, WorkingMemory
from langgraph_memory.parts.aio import AsyncPart, awaitable
from langgraph_memory.parts.lifetime import Lifetime

__all__ = ["Tasks", "AsyncTasks"]


class Tasks:
    """Tasks, their steps, the episodes they become and what is learnt from them.

    Args:
        working: Working memory (tasks and episodes).
        reflector: Writes and lists the lessons of completed tasks.
        consolidator: Lists the knowledge consolidated from episodes.
        lifetime: The manager's open/closed state.
    """

    def __init__(
        self,
        working: WorkingMemory,
        reflector: Reflector,
        consolidator: Consolidator,
        lifetime: Lifetime,
    ) -> None:
        self._working = working
        self._reflector = reflector
        self._consolidator = consolidator
        self._life = lifetime

    def start(
        self,
        user_id: str,
        session_id: str,
        request: str,
        *,
        context: dict[str, Any] | None = None,
        agent_id: str | None = None,
    ) -> str:
        """Open a task in working memory.

        Args:
            user_id: Whose task.
            session_id: The session it runs in.
            request: The user's original request.
            context: Free JSON-serialisable task context.
            agent_id: The agent running it: its episode, its lesson and the knowledge
                consolidated from it reach only that agent's contexts and searches
                (``build_context(..., agent_id=...)``). ``None``: shared with every
                agent of the user.

        Returns:
            The task id.

        Raises:
            TypeError: When an argument has the wrong type.
            ValueError: When an argument is invalid (nothing is stored then).

        Example:
            >>> tid = mm.tasks.start("u1", "s1", "restart nginx")  # doctest: +SKIP
        """
        self._life.check()
        return self._working.start_task(
            user_id, session_id, request, context=context, agent_id=agent_id
        )

    def step(
        self,
        user_id: str,
        task_id: str,
        description: str,
        tool_name: str | None = None,
        args: dict[str, Any] | None = None,
    ) -> int:
        """Append a step to a user's task in progress.

        Args:
            user_id: Whose task.
            task_id: The task.
            description: What the step does.
            tool_name: The tool it runs, if any.
            args: The tool's arguments (JSON-serialisable).

        Returns:
            The step's index.

        Raises:
            KeyError: When the user has no task with that id.
            ValueError: When the task is no longer in progress, or an argument is
                invalid.

        Example:
            >>> i = mm.tasks.step("u1", tid, "docker restart", tool_name="shell")  # doctest: +SKIP
        """
        self._life.check()
        return self._working.add_step(user_id, task_id, description, tool_name, args)

    def update_step(
        self,
        user_id: str,
        task_id: str,
        index: int,
        *,
        status: str | None = None,
        result: str | None = None,
    ) -> TaskStep:
        """Set a step's ``status`` (``pending``, ``in_progress``, ``completed``,
        ``failed``) and/or ``result`` (at most 100,000 characters, through the
        sensitivity gate).

        Returns:
            The step as it is now.

        Raises:
            KeyError: When the user has no task with that id.
            IndexError: When the task has no such step.
        """
        self._life.check()
        return self._working.update_step(user_id, task_id, index, status=status, result=result)

    def get(self, user_id: str, task_id: str) -> TaskState:
        """A user's task by id.

        Raises:
            KeyError: When the user has no task with that id (another user's is not
                found either).
        """
        self._life.check()
        return self._working.get_task(user_id, task_id)

    def current(self, user_id: str, session_id: str) -> TaskState | None:
        """The session's latest task still in progress (what a context carries), if any."""
        self._life.check()
        check_id(user_id, "user_id")
        return self._working.current_task(user_id, check_id(session_id, "session_id"))

    def complete(
        self,
        user_id: str,
        task_id: str,
        *,
        outcome: str = "success",
        summary: str = "",
        trigger_type: str = "user_request",
        target: str = "",
        tags: builtins.list[str] | None = None,
        pinned: bool = False,
    ) -> Episode:
        """Close a task and keep it as an episode in long-term memory.

        Args:
            user_id: Whose task.
            task_id: The task.
            outcome: ``success``, ``partial`` or ``failed``.
            summary: What came of it.
            trigger_type: ``user_request``, ``alert`` or ``scheduled``.
            target: What it acted on (episodes sharing a target are consolidated).
            tags: Free labels.
            pinned: Never forget this episode.

        Returns:
            The stored :class:`Episode` (its importance already scored).

        Raises:
            KeyError: When the user has no task with that id.
            ValueError: When an argument is invalid or the task is not in progress.
        """
        self._life.check()
        return self._working.complete_task(
            user_id,
            task_id,
            outcome=outcome,
            summary=summary,
            trigger_type=trigger_type,
            target=target,
            tags=tags,
            pinned=pinned,
        )

    def episodes(self, user_id: str) -> builtins.list[Episode]:
        """A user's episodes, oldest first."""
        self._life.check()
        return self._working.episodes(check_id(user_id, "user_id"))

    def lessons(self, user_id: str) -> builtins.list[Lesson]:
        """The lessons of a user's completed tasks, oldest first (written in the
        background, see :mod:`~langgraph_memory.layers.long_term.reflection`; ``flush``
        waits for them).

        Example:
            >>> mm.tasks.lessons("u1")[0].lesson  # doctest: +SKIP
            'Failed: restart nginx. Outcome: down.'
        """
        self._life.check()
        return self._reflector.lessons(check_id(user_id, "user_id"))

    def knowledge(self, user_id: str) -> builtins.list[Knowledge]:
        """A user's knowledge consolidated from episodes that share a target, oldest
        first (``mm.maintenance.consolidate`` makes it)."""
        self._life.check()
        return self._consolidator.knowledge(check_id(user_id, "user_id"))

    def success_rates(self, user_id: str) -> dict[str, dict[str, tuple[int, int]]]:
        """``{"target": {target: (successes, tasks)}, "tool": {tool: (steps completed,
        steps ended)}}`` over a user's episodes."""
        self._life.check()
        return self._reflector.success_rates(check_id(user_id, "user_id"))


class AsyncTasks(AsyncPart[Tasks]):
    """Awaitable ``mm.tasks`` (see :class:`~langgraph_memory.parts.tasks.Tasks`)."""

    start = awaitable(Tasks.start)
    step = awaitable(Tasks.step)
    update_step = awaitable(Tasks.update_step)
    get = awaitable(Tasks.get)
    current = awaitable(Tasks.current)
    complete = awaitable(Tasks.complete)
    episodes = awaitable(Tasks.episodes)
    lessons = awaitable(Tasks.lessons)
    knowledge = awaitable(Tasks.knowledge)
    success_rates = awaitable(Tasks.success_rates)
