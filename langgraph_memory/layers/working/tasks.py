"""Working memory: tasks with steps, which become episodes when they complete.

Field names follow the design documents (``TaskState``, ``TaskStep``, ``Episode``).

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> wm = WorkingMemory(InMemoryBackend())
    >>> tid = wm.start_task("u1", "s1", "restart the nginx container")
    >>> i = wm.add_step("u1", tid, "docker restart nginx", tool_name="shell")
    >>> _ = wm.update_step("u1", tid, i, status="completed", result="nginx up")
    >>> ep = wm.complete_task("u1", tid, outcome="success", summary="restarted", target="nginx")
    >>> (ep.outcome, ep.target, len(ep.steps))
    ('success', 'nginx', 1)
    >>> _ = wm.add_anchor("u1", "Answer in French.")          # every session of u1
    >>> _ = wm.add_anchor("u1", "Use metric units.", session_id="s1")
    >>> [a.text for a in wm.anchors("u1", "s1")], [a.text for a in wm.anchors("u1", "s2")]
    (['Answer in French.', 'Use metric units.'], ['Answer in French.'])
"""

from __future__ import annotations

import hashlib
import threading
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from langgraph_memory.core.records import Record, from_data, to_data
from langgraph_memory.core.validation import (
    MAX_ID_CHARS,
    check_content,
    check_id,
    check_metadata,
    check_text,
)
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.storage.capabilities import RecordStore

if TYPE_CHECKING:
    from langgraph_memory.sensitivity.policy import SensitivityFilter

__all__ = [
    "TaskStep",
    "TaskState",
    "Episode",
    "Anchor",
    "WorkingMemory",
    "STEP_STATUSES",
    "OUTCOMES",
    "ANCHOR_KIND",
]

STEP_STATUSES = ("pending", "in_progress", "completed", "failed")
TASK_STATUSES = ("in_progress", "completed", "failed")
OUTCOMES = ("success", "partial", "failed")
TRIGGERS = ("user_request", "alert", "scheduled")
#: Record kind of session anchors.
ANCHOR_KIND = "anchor"
#: The longest request, step description, result, summary or target (characters).
MAX_TEXT_CHARS = 100_000
#: The largest task context or step args (bytes of JSON).
MAX_JSON_BYTES = 65_536


def _now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(slots=True)
class TaskStep:
    """One step of a task (a tool call or an action)."""

    description: str
    tool_name: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    result: str | None = None
    status: str = "pending"
    started_at: datetime | None = None
    completed_at: datetime | None = None

    @classmethod
    def load(cls, data: dict[str, Any]) -> TaskStep:
        return from_data(cls, data)


#: How the ``steps`` of a stored task or episode are rebuilt.
_STEPS = {"steps": lambda steps: [TaskStep.load(s) for s in steps]}


@dataclass(slots=True)
class TaskState:
    """A task in progress: the request, its steps and where it stands."""

    id: str
    session_id: str
    user_id: str
    original_request: str
    summary: str = ""
    steps: list[TaskStep] = field(default_factory=list)
    current_step: int = 0
    context: dict[str, Any] = field(default_factory=dict)
    status: str = "in_progress"
    started_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    #: The agent running it (``None``: the user's, for every agent).
    agent_id: str | None = None

    @classmethod
    def load(cls, data: dict[str, Any]) -> TaskState:
        return from_data(cls, data, _STEPS)


@dataclass(slots=True)
class Episode:
    """A completed task, kept in long-term memory.

    ``agent_id`` is the agent that ran it: its episode (and the lesson learned from it)
    reaches only that agent's contexts and searches (``build_context(...,
    agent_id=...)``); ``None`` shares it with every agent of the user.
    """

    id: str
    session_id: str
    user_id: str
    trigger_type: str
    trigger_summary: str
    steps: list[TaskStep]
    outcome: str
    outcome_summary: str
    importance: float = 0.5
    access_count: int = 0
    last_accessed_at: datetime | None = None
    pinned: bool = False
    target: str = ""
    tags: list[str] = field(default_factory=list)
    created_at: datetime = field(default_factory=_now)
    consolidated: bool = False
    source_ids: list[str] = field(default_factory=list)
    agent_id: str | None = None

    #: Its record kind.
    KIND: ClassVar[str] = "episode"

    @classmethod
    def load(cls, data: dict[str, Any]) -> Episode:
        return from_data(cls, data, _STEPS)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        extra: dict[str, Any] = {
            "importance": self.importance,
            "target": self.target,
            "outcome": self.outcome,
        }
        if self.agent_id:  # the agent that ran it: other agents' contexts leave it out
            extra["agent"] = self.agent_id
        return EntryView(self.text(), self.source_ids, self.created_at, extra)

    def text(self) -> str:
        """A one-line rendering for prompts and search."""
        steps = " → ".join(s.description for s in self.steps)
        target = f" [{self.target}]" if self.target else ""
        return f"[{self.outcome}]{target} {self.trigger_summary} → {self.outcome_summary}" + (
            f" (steps: {steps})" if steps else ""
        )


@dataclass(slots=True)
class Anchor:
    """An instruction that always rides along: in every context of its session, or of every
    session of the user when ``session_id`` is ``None``.

    Attributes:
        id: The caller's anchor id, or a generated one (unique per user).
        user_id: Whose anchor.
        text: The instruction (after the sensitivity gate).
        session_id: Its session, or ``None`` for a user-wide anchor.
        metadata: Free JSON-serialisable metadata.
        order: Insertion order among the user's anchors (kept when it is replaced).
        created_at: When it was first added.
        updated_at: When it last changed.
    """

    id: str
    user_id: str
    text: str
    session_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    order: int = 0
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)

    @classmethod
    def load(cls, data: dict[str, Any]) -> Anchor:
        return from_data(cls, data)


class AnchorListener(Protocol):
    """Told when a user's anchors changed in the store (e.g. a cache of them)."""

    def anchors_changed(self, user_id: str) -> None:
        """``user_id``'s anchors were added, replaced or removed."""


def anchor_record_id(user_id: str, anchor_id: str) -> str:
    """Record ids are unique per kind across users: an anchor's is derived from both ids."""
    digest = hashlib.sha1(f"{user_id}\x00{anchor_id}".encode()).hexdigest()[:24]
    return f"anchor-{digest}"


class WorkingMemory:
    """Task states persisted as records, and their turn into episodes.

    Args:
        records: Where tasks, episodes and anchors are stored.
        importance: Scores a new episode (the forget gate's formula by default).
        gate: The sensitivity gate every text and value of a task goes through
            (anchors take theirs per call).
    """

    def __init__(
        self,
        records: RecordStore,
        importance: Any = None,
        gate: SensitivityFilter | None = None,
    ) -> None:
        self.records = records
        self._importance = importance
        self._gate = gate
        self._anchor_lock = threading.Lock()
        #: Told after each anchor change is stored (the working-memory cache), or None.
        self.listener: AnchorListener | None = None

    # -- tasks ---------------------------------------------------------------------------
    def start_task(
        self,
        user_id: str,
        session_id: str,
        request: str,
        *,
        context: dict[str, Any] | None = None,
        agent_id: str | None = None,
    ) -> str:
        """Open a task (run by ``agent_id``, when given); returns its id."""
        task = TaskState(
            agent_id=None if agent_id is None else check_id(agent_id, "agent_id"),
            id=uuid.uuid4().hex,
            session_id=check_id(session_id, "session_id"),
            user_id=check_id(user_id, "user_id"),
            original_request=self._clean(
                check_content(request, MAX_TEXT_CHARS, "request", None), "request"
            ),
            context=self._clean(check_metadata(context, MAX_JSON_BYTES, "context"), "context"),
        )
        self._save(task)
        return task.id

    def get_task(self, user_id: str, task_id: str) -> TaskState:
        """A user's task by id (task ids are scoped by their user).

        Raises:
            KeyError: When the user has no task with that id (another user's task is
                not found either).
        """
        user_id = check_id(user_id, "user_id")
        rec = self.records.get_record("task", check_id(task_id, "task_id"), user_id)
        if rec is None:
            raise KeyError(f"user {user_id!r} has no task with id {task_id!r}")
        return TaskState.load(rec.data)

    def current_task(self, user_id: str, session_id: str) -> TaskState | None:
        """The latest task still in progress in a session."""
        latest = self.records.query_records(
            "task",
            user_id,
            where={"session_id": session_id, "status": "in_progress"},
            limit=1,
            newest_first=True,
        )
        return TaskState.load(latest[0].data) if latest else None

    def add_step(
        self,
        user_id: str,
        task_id: str,
        description: str,
        tool_name: str | None = None,
        args: dict[str, Any] | None = None,
    ) -> int:
        """Append a step to a user's task; returns its index."""
        task = self._open(user_id, task_id)
        task.steps.append(
            TaskStep(
                description=self._clean(
                    check_content(description, MAX_TEXT_CHARS, "description", None), "description"
                ),
                tool_name=None if tool_name is None else check_id(tool_name, "tool_name"),
                args=self._clean(check_metadata(args, MAX_JSON_BYTES, "args"), "args"),
            )
        )
        task.current_step = len(task.steps) - 1
        self._save(task)
        return task.current_step

    def update_step(
        self,
        user_id: str,
        task_id: str,
        index: int,
        *,
        status: str | None = None,
        result: str | None = None,
    ) -> TaskStep:
        """Change a step's status and/or result."""
        task = self._open(user_id, task_id)
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("index must be an int")
        if not 0 <= index < len(task.steps):
            raise IndexError(f"task {task_id!r} has no step {index}")
        step = task.steps[index]
        if status is not None:
            if status not in STEP_STATUSES:
                raise ValueError(f"status {status!r} is unknown; use one of {STEP_STATUSES}")
            now = _now()
            if status == "in_progress" and step.started_at is None:
                step.started_at = now
            if status in ("completed", "failed"):
                step.started_at = step.started_at or now
                step.completed_at = now
            step.status = status
        if result is not None:
            step.result = self._clean(
                check_text(result, MAX_TEXT_CHARS, "result", allow_empty=True), "result"
            )
        task.current_step = index
        self._save(task)
        return step

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
        """Close a task and store it as an episode."""
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome {outcome!r} is unknown; use one of {OUTCOMES}")
        if trigger_type not in TRIGGERS:
            raise ValueError(f"trigger_type {trigger_type!r} is unknown; use one of {TRIGGERS}")
        summary = check_text(summary, MAX_TEXT_CHARS, "summary", allow_empty=True)
        target = check_text(target, MAX_TEXT_CHARS, "target", allow_empty=True)
        if tags is not None and (isinstance(tags, str) or not isinstance(tags, (list, tuple))):
            raise TypeError(f"tags must be a list of str, got {type(tags).__name__}")
        tags = [check_text(t, MAX_ID_CHARS, f"tags[{i}]") for i, t in enumerate(tags or [])]
        summary, target = self._clean(summary, "summary"), self._clean(target, "target")
        tags = self._clean(tags, "tags")
        task = self._open(user_id, task_id)
        task.status = "failed" if outcome == "failed" else "completed"
        task.summary = summary
        episode = Episode(
            id=uuid.uuid4().hex,
            session_id=task.session_id,
            user_id=task.user_id,
            trigger_type=trigger_type,
            trigger_summary=task.original_request,
            steps=task.steps,
            outcome=outcome,
            outcome_summary=summary,
            pinned=bool(pinned),
            target=target,
            tags=tags,
            source_ids=[f"task:{task.id}"],
            agent_id=task.agent_id,
        )
        if self._importance is not None:
            episode.importance = self._importance(episode, episode.created_at)
        self.save_episode(episode)
        self._save(task)
        return episode

    # -- episodes ------------------------------------------------------------------------
    def save_episode(self, episode: Episode) -> None:
        """Store (or update) an episode."""
        self.records.put_record(
            Record(
                "episode", episode.id, episode.user_id, to_data(episode), episode.created_at, _now()
            )
        )

    def touch_episode(self, user_id: str, episode_id: str, n: int, when: datetime) -> bool:
        """Count ``n`` retrievals of an episode; False when it is gone."""
        rec = self.records.get_record("episode", episode_id, user_id)
        if rec is None:
            return False
        ep = Episode.load(rec.data)
        ep.access_count += n
        ep.last_accessed_at = when
        self.save_episode(ep)
        return True

    def episodes(self, user_id: str | None = None) -> list[Episode]:
        """A user's episodes (or everyone's), oldest first."""
        return [Episode.load(r.data) for r in self.records.list_records("episode", user_id)]

    # -- session anchors -----------------------------------------------------------------
    def add_anchor(
        self,
        user_id: str,
        text: str,
        *,
        session_id: str | None = None,
        anchor_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        gate: SensitivityFilter | None = None,
        max_chars: int = 100_000,
        max_metadata_bytes: int = 65_536,
    ) -> Anchor:
        """Add an anchor, or replace the one with the same ``anchor_id`` (it keeps its place).

        Args:
            user_id: Whose anchor.
            text: The instruction.
            session_id: Its session; ``None`` makes it ride along in every session.
            anchor_id: Your id for it (default: generated).
            metadata: JSON-serialisable metadata.
            gate: The sensitivity gate, applied to ``text`` and ``metadata`` after validation
                (default: the working memory's own).
            max_chars: Longest ``text`` accepted.
            max_metadata_bytes: Largest JSON-encoded ``metadata`` accepted.

        Raises:
            TypeError: When an argument has the wrong type.
            ValueError: When an argument is invalid, or the gate refuses its content.
        """
        user_id = check_id(user_id, "user_id")
        text = check_content(text, max_chars, "text")
        session = None if session_id is None else check_id(session_id, "session_id")
        aid = uuid.uuid4().hex if anchor_id is None else check_id(anchor_id, "anchor_id")
        meta = check_metadata(metadata, max_metadata_bytes, "metadata")
        gate = gate if gate is not None else self._gate
        if gate is not None:
            text, meta = gate.clean(text, field="text"), gate.clean(meta, field="metadata")
        rid = anchor_record_id(user_id, aid)
        with self._anchor_lock:
            old = self.records.get_record(ANCHOR_KIND, rid, user_id)
            if old is not None:
                anchor = Anchor.load(old.data)
                anchor.text, anchor.session_id, anchor.metadata = text, session, meta
                anchor.updated_at = _now()
            else:
                last = max((a.order for a in self._anchors(user_id)), default=0)
                anchor = Anchor(aid, user_id, text, session, meta, order=last + 1)
            self.records.put_record(
                Record(
                    ANCHOR_KIND, rid, user_id, to_data(anchor), anchor.created_at, anchor.updated_at
                )
            )
        if self.listener is not None:
            self.listener.anchors_changed(user_id)
        return anchor

    def anchors(self, user_id: str, session_id: str | None = None) -> list[Anchor]:
        """The anchors that ride along in ``session_id`` (its own and the user-wide ones), in
        insertion order; only the user-wide ones when ``session_id`` is ``None``."""
        user_id = check_id(user_id, "user_id")
        if session_id is not None:
            check_id(session_id, "session_id")
        return [a for a in self._anchors(user_id) if a.session_id in (None, session_id)]

    def remove_anchor(self, user_id: str, anchor_id: str) -> bool:
        """Remove an anchor; ``False`` when the user has no anchor with that id."""
        rid = anchor_record_id(check_id(user_id, "user_id"), check_id(anchor_id, "anchor_id"))
        with self._anchor_lock:
            gone = self.records.delete_records(ANCHOR_KIND, [rid], user_id) > 0
        if gone and self.listener is not None:
            self.listener.anchors_changed(user_id)
        return gone

    def _anchors(self, user_id: str) -> list[Anchor]:
        found = [Anchor.load(r.data) for r in self.records.list_records(ANCHOR_KIND, user_id)]
        return sorted(found, key=lambda a: (a.order, a.created_at, a.id))

    # -- plumbing ------------------------------------------------------------------------
    def _clean(self, value: Any, field: str) -> Any:
        """``value`` through the sensitivity gate (as it is without one)."""
        return value if self._gate is None else self._gate.clean(value, field=field)

    def _open(self, user_id: str, task_id: str) -> TaskState:
        task = self.get_task(user_id, task_id)
        if task.status != "in_progress":
            raise ValueError(f"task {task_id!r} is already {task.status}")
        return task

    def _save(self, task: TaskState) -> None:
        task.updated_at = _now()
        self.records.put_record(
            Record("task", task.id, task.user_id, to_data(task), task.started_at, task.updated_at)
        )
