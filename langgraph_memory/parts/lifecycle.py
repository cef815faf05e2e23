"""The manager's working-memory and maintenance methods (a mixin of :class:`MemoryManager`).

Feedback moves a preference's confidence (seed 002: +0.2 when followed, −0.4 when
corrected; below 0.7 it leaves the context). Anchors ride along in every context of a
session (or of the user); tasks become episodes (``complete_task``); the forget gate
drops unimportant episodes; consolidation turns episodes that share a target into
knowledge. Every text and value of a task or an anchor goes through the sensitivity gate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Literal

from langgraph_memory.config import MemoryConfig
from langgraph_memory.core.validation import check_id
from langgraph_memory.layers.knowledge.consolidation import Consolidator, Knowledge
from langgraph_memory.layers.long_term.entities import Entity
from langgraph_memory.layers.long_term.facts import Fact
from langgraph_memory.layers.long_term.memory import LongTermMemory
from langgraph_memory.layers.long_term.profile import ProfileEntry
from langgraph_memory.layers.long_term.reflection import Insight, Lesson
from langgraph_memory.layers.long_term.rollups import Rollup
from langgraph_memory.layers.working.forgetting import ForgetGate, ForgetReport
from langgraph_memory.layers.working.tasks import (
    Anchor,
    Episode,
    TaskState,
    TaskStep,
    WorkingMemory,
)
from langgraph_memory.write.pipeline import WritePipeline

if TYPE_CHECKING:
    from langgraph_memory.parts.assembly import MemoryParts

__all__ = ["LifecycleMixin"]


class LifecycleMixin:
    """Anchors, tasks, episodes, knowledge, forgetting and consolidation."""

    config: MemoryConfig
    _longterm: LongTermMemory
    _working: WorkingMemory
    _forget: ForgetGate
    _consolidator: Consolidator
    _write: WritePipeline
    _parts: MemoryParts

    def _check_open(self) -> None:
        """Raise when the manager is closed (the manager's own check)."""

    # -- long-term memory: feedback on preferences -----------------------------------------
    def feedback(
        self,
        user_id: str,
        target: str,
        signal: Literal["followed", "corrected"],
        *,
        value: Any = None,
        source_ids: Sequence[str] | None = None,
    ) -> list[ProfileEntry]:
        """Tell the memory that a preference was followed or corrected.

        ``"followed"`` raises its confidence by ``config.long_term.reinforce_step`` (at most 1);
        ``"corrected"`` lowers it by ``config.long_term.correct_step`` (at least 0; below
        ``config.long_term.preference_threshold`` it no longer reaches a context; the entry is
        kept), and with ``value`` stores what the user said instead as the explicit
        preference of that key (replacing an explicit entry's value: the profile keeps
        one entry per key, scope and source).

        Args:
            user_id: Whose preference.
            target: A profile entry id (``ProfileEntry.id``, as cited by a context
                item) or a key: every entry of that key (any scope and source).
            signal: ``"followed"`` or ``"corrected"``.
            value: With ``"corrected"``: the preference the user stated instead.
            source_ids: The messages that show it (added to the entries' citations).

        Returns:
            The entries changed, as they are now (with ``value``, the explicit one last).

        Raises:
            ValueError: When ``signal`` is unknown, or ``value`` comes with
                ``"followed"``.
            KeyError: When the user has no entry with that id or key.

        Example:
            >>> mm.feedback("u1", "pref-3c9e…", "followed")  # doctest: +SKIP
            >>> mm.feedback("u1", "drink", "corrected", value="green tea")  # doctest: +SKIP
        """
        self._check_open()
        check_id(user_id, "user_id")
        check_id(target, "target")
        if signal not in ("followed", "corrected"):
            raise ValueError(f"signal must be 'followed' or 'corrected', got {signal!r}")
        if value is not None and signal != "corrected":
            raise ValueError("value is the correction: it goes with signal='corrected'")
        lt = self._longterm
        try:
            entries = [lt.get_preference(user_id, target)]
        except KeyError:  # not an entry id: a key
            entries = lt.list_preferences(user_id, key=target)
        if not entries:
            raise KeyError(f"user {user_id!r} has no preference with id or key {target!r}")
        if signal == "followed":
            return [lt.reinforce(user_id, e.id, source_ids=source_ids) for e in entries]
        out: list[ProfileEntry] = []
        for e in entries:
            corrected = lt.correct(user_id, e.id, source_ids=source_ids)
            if corrected is not None:
                out.append(corrected)
        if value is not None:
            first = entries[0]
            out = [e for e in out if not (e.source == "explicit" and e.scope == first.scope)]
            out.append(
                lt.upsert_preference(
                    user_id,
                    first.key,
                    value,
                    source="explicit",
                    scope=first.scope,
                    polarity=first.polarity,
                    source_ids=source_ids,
                )  # fmt: skip
            )
        return out

    # -- working memory: session anchors -------------------------------------------------
    def add_anchor(
        self,
        user_id: str,
        text: str,
        *,
        session_id: str | None = None,
        anchor_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Pin an instruction that rides along in every context of a session.

        Args:
            user_id: Whose anchor.
            text: The instruction (at most ``config.write.max_content_chars`` characters); the
                sensitivity gate redacts or refuses it like message content.
            session_id: Its session; ``None`` (default) makes it ride along in every
                session of the user.
            anchor_id: Your id for it (default: generated). Adding an existing id
                replaces that anchor's text, session and metadata; it keeps its place.
            metadata: JSON-serialisable metadata.

        Returns:
            The anchor id.

        Raises:
            TypeError: When an argument has the wrong type.
            ValueError: When an argument is invalid or the sensitivity policy refuses
                the text. Nothing is stored then.

        Example:
            >>> aid = mm.add_anchor("u1", "Always answer in French.")  # doctest: +SKIP
            >>> mm.add_anchor("u1", "Units: metric.", session_id="s1")  # doctest: +SKIP
        """
        self._check_open()
        anchor = self._working.add_anchor(
            user_id,
            text,
            session_id=session_id,
            anchor_id=anchor_id,
            metadata=dict(metadata) if isinstance(metadata, Mapping) else metadata,
            max_chars=self.config.write.max_content_chars,
            max_metadata_bytes=self.config.write.max_metadata_bytes,
        )
        return anchor.id

    def anchors(self, user_id: str, session_id: str | None = None) -> list[Anchor]:
        """The anchors of a session and the user-wide ones, in insertion order (only the
        user-wide ones when ``session_id`` is ``None``)."""
        self._check_open()
        return self._working.anchors(user_id, session_id)

    def remove_anchor(self, user_id: str, anchor_id: str) -> bool:
        """Remove an anchor; returns ``False`` when the user has none with that id."""
        self._check_open()
        return self._working.remove_anchor(user_id, anchor_id)

    def working_items(self, user_id: str, session_id: str) -> tuple[list[Anchor], TaskState | None]:
        """What working memory puts into a session's context: its anchors (see
        :meth:`anchors`) and the session's latest task still in progress."""
        self._check_open()
        anchors = self._working.anchors(user_id, check_id(session_id, "session_id"))
        return anchors, self._working.current_task(user_id, session_id)

    # -- tasks -----------------------------------------------------------------------

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
            >>> i = mm.add_step("u1", tid, "docker restart nginx")  # doctest: +SKIP
            >>> mm.update_step("u1", tid, i, status="completed", result="ok")  # doctest: +SKIP
            >>> ep = mm.complete_task("u1", tid, summary="restarted")  # doctest: +SKIP
        """
        self._check_open()
        return self._working.start_task(user_id, session_id, request, context=context)

    def add_step(
        self,
        user_id: str,
        task_id: str,
        description: str,
        tool_name: str | None = None,
        args: dict[str, Any] | None = None,
    ) -> int:
        """Append a step to a user's task in progress; returns its index.

        Raises:
            KeyError: When the user has no task with that id (task ids are scoped by
                their user: another user's task is not found).
            ValueError: When the task is no longer in progress, or an argument is
                invalid (see :mod:`~langgraph_memory.core.validation`).
        """
        self._check_open()
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
        """Set a step's ``status`` (pending/in_progress/completed/failed) and/or ``result``
        (at most 100,000 characters, through the sensitivity gate).

        Raises:
            KeyError: When the user has no task with that id.
            IndexError: When the task has no such step.
        """
        self._check_open()
        return self._working.update_step(user_id, task_id, index, status=status, result=result)

    def get_task(self, user_id: str, task_id: str) -> TaskState:
        """A user's task by id.

        Raises:
            KeyError: When the user has no task with that id (another user's is not
                found either).
        """
        self._check_open()
        return self._working.get_task(user_id, task_id)

    def complete_task(
        self,
        user_id: str,
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
        """
        self._check_open()
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

    def episodes(self, user_id: str) -> list[Episode]:
        """A user's episodes, oldest first."""
        self._check_open()
        return self._working.episodes(check_id(user_id, "user_id"))

    def knowledge(self, user_id: str) -> list[Knowledge]:
        """A user's consolidated knowledge, oldest first."""
        self._check_open()
        return self._consolidator.knowledge(check_id(user_id, "user_id"))

    def lessons(self, user_id: str) -> list[Lesson]:
        """The lessons of a user's completed tasks, oldest first (written in the
        background, see :mod:`~langgraph_memory.layers.long_term.reflection`; ``flush`` waits for
        them).

        Example:
            >>> tid = mm.start_task("u1", "s1", "restart nginx")  # doctest: +SKIP
            >>> _ = mm.complete_task("u1", tid, outcome="failed", summary="down")  # doctest: +SKIP
            >>> mm.flush(); mm.lessons("u1")[0].lesson  # doctest: +SKIP
            'Failed: restart nginx. Outcome: down.'
        """
        self._check_open()
        return self._parts.reflector.lessons(check_id(user_id, "user_id"))

    def insights(self, user_id: str) -> list[Insight]:
        """Insights reflected from a user's recent facts, oldest first."""
        self._check_open()
        return self._parts.reflector.insights(check_id(user_id, "user_id"))

    def success_rates(self, user_id: str) -> dict[str, dict[str, tuple[int, int]]]:
        """``{"target": {target: (successes, tasks)}, "tool": {tool: (steps completed,
        steps ended)}}`` over a user's episodes."""
        self._check_open()
        return self._parts.reflector.success_rates(check_id(user_id, "user_id"))

    def rollups(self, user_id: str, level: Literal["day", "week"] | None = None) -> list[Rollup]:
        """A user's day and week summaries (of one ``level`` when given), oldest span
        first; a span is summarised once a later one begins (see
        :mod:`~langgraph_memory.layers.long_term.rollups`)."""
        self._check_open()
        if level not in (None, "day", "week"):
            raise ValueError(f"level must be 'day', 'week' or None, got {level!r}")
        return self._parts.rollups.rollups(check_id(user_id, "user_id"), level)

    def entities(self, user_id: str) -> list[Entity]:
        """Who and what the user talks about, most mentioned first (see
        :mod:`~langgraph_memory.layers.long_term.entities`)."""
        self._check_open()
        return self._parts.entities.entities(check_id(user_id, "user_id"))

    def relations(self, user_id: str, name: str) -> list[Fact]:
        """The facts whose subject or object names ``name``: an entity's edges in the
        user's knowledge graph, oldest first (superseded ones with their span)."""
        self._check_open()
        check_id(name, "name")
        return self._parts.entities.relations(check_id(user_id, "user_id"), name)

    def reflect(self, user_id: str) -> tuple[list[Lesson], list[Insight]]:
        """Reflect now on what changed for a user since the last reflection (the
        background does it when the queue is drained); returns what was written."""
        self._check_open()
        user_id = check_id(user_id, "user_id")
        with self._write.writer.lock:
            return self._parts.reflector.run(user_id)

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
        with self._write.writer.lock:  # not beside the worker saving access counts
            return self._forget.run(
                user_id, now=now or datetime.now(timezone.utc), dry_run=bool(dry_run)
            )

    def run_consolidation(self, user_id: str | None = None) -> list[Knowledge]:
        """Consolidate episodes that share a target into knowledge; returns what was made."""
        self._check_open()
        if user_id is not None:
            check_id(user_id, "user_id")
        with self._write.writer.lock:  # not beside the worker saving access counts
            return self._consolidator.run(user_id)
