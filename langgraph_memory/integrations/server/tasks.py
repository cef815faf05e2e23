"""Working memory, feedback and documents as resources: ``/v1/users/{user_id}/tasks``,
``/feedback`` and ``/documents`` (``mm.tasks``, ``mm.profile.feedback``, ``mm.documents``).

Documents are always the user's own: a route never adds shared knowledge (which every
user of the store would read) and takes text only, never a path on the server.

A task id is found only under its own user (the manager scopes task ids by user, and the
user by the caller's tenant): another tenant's task is a 404 like one never made.

Example:
    >>> [r.path for r in router.routes][:1]
    ['/v1/users/{user_id}/tasks']
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fastapi import APIRouter

from langgraph_memory.integrations.server.deps import (
    FORBIDDEN,
    PROBLEMS,
    Caller,
    Known,
    Svc,
    Who,
    act_as,
)
from langgraph_memory.integrations.server.models import (
    CompleteIn,
    DocumentIn,
    DocumentInfo,
    Episode,
    FeedbackIn,
    ProfileEntry,
    StepAdded,
    StepIn,
    StepUpdateIn,
    TaskIn,
    TaskState,
    TaskStep,
)
from langgraph_memory.integrations.server.problems import ProblemError

__all__ = ["router"]

router = APIRouter(prefix="/v1/users/{user_id}", tags=["tasks"], responses=PROBLEMS)


def _theirs(value: Any, who: Caller) -> Any:
    """A record with the caller's user id in place of the store's."""
    return dataclasses.replace(value, user_id=who.user_id)


def _task(svc: Svc, who: Caller, task_id: str) -> TaskState:
    try:
        return svc.memory.tasks.get(who.store_uid, task_id)
    except KeyError:
        raise ProblemError(404, "no such task", slug="task-not-found") from None


def _own_task(svc: Svc, who: Caller, task_id: str) -> TaskState:
    """The task, when the caller's key may act as its agent (403 for another agent's
    task under a key bound to agents; a task of no agent is shared)."""
    task = _task(svc, who, task_id)
    if who.agents and task.agent_id is not None and task.agent_id not in who.agents:
        raise ProblemError(
            403,
            f"agent_id: the task is another agent's (this key acts only as "
            f"{', '.join(who.agents)})",
            field="agent_id",
            slug="agent-forbidden",
        )
    return task


@router.post("/tasks", status_code=201, response_model=TaskState, responses=FORBIDDEN)
def start_task(svc: Svc, who: Who, body: TaskIn) -> TaskState:
    """Start a task in a session (``tasks.start``)."""
    agent = act_as(who, body.agent_id)
    tid = svc.memory.tasks.start(
        who.store_uid, body.session_id, body.request, context=body.context, agent_id=agent
    )
    svc.users.add(who.store_uid)
    return _theirs(_task(svc, who, tid), who)


@router.get("/tasks/{task_id}", response_model=TaskState)
def get_task(svc: Svc, who: Known, task_id: str) -> TaskState:
    """A task with its steps (``tasks.get``)."""
    return _theirs(_task(svc, who, task_id), who)


@router.post(
    "/tasks/{task_id}/steps", status_code=201, response_model=StepAdded, responses=FORBIDDEN
)
def add_step(svc: Svc, who: Known, task_id: str, body: StepIn) -> StepAdded:
    """Add a step to a task (``tasks.step``); returns its index."""
    _own_task(svc, who, task_id)
    i = svc.memory.tasks.step(
        who.store_uid, task_id, body.description, tool_name=body.tool_name, args=body.args
    )
    return StepAdded(index=i)


@router.patch("/tasks/{task_id}/steps/{index}", response_model=TaskStep, responses=FORBIDDEN)
def update_step(svc: Svc, who: Known, task_id: str, index: int, body: StepUpdateIn) -> TaskStep:
    """Set a step's status and/or result (``tasks.update_step``)."""
    _own_task(svc, who, task_id)
    return svc.memory.tasks.update_step(
        who.store_uid, task_id, index, status=body.status, result=body.result
    )


@router.post("/tasks/{task_id}/complete", response_model=Episode, responses=FORBIDDEN)
def complete_task(svc: Svc, who: Known, task_id: str, body: CompleteIn) -> Episode:
    """Close a task into an episode (``tasks.complete``)."""
    _own_task(svc, who, task_id)
    ep = svc.memory.tasks.complete(
        who.store_uid,
        task_id,
        outcome=body.outcome,
        summary=body.summary,
        trigger_type=body.trigger_type,
        target=body.target,
        tags=body.tags,
        pinned=body.pinned,
    )
    return _theirs(ep, who)


@router.get("/episodes", response_model=list[Episode])
def episodes(svc: Svc, who: Known) -> list[Episode]:
    """The user's episodes, oldest first (``tasks.episodes``)."""
    return [_theirs(e, who) for e in svc.memory.tasks.episodes(who.store_uid)]


@router.post("/feedback", response_model=list[ProfileEntry])
def feedback(svc: Svc, who: Known, body: FeedbackIn) -> list[ProfileEntry]:
    """A preference followed or corrected (``profile.feedback``); 404 when the user has
    no entry with that id or key."""
    try:
        entries = svc.memory.profile.feedback(
            who.store_uid, body.target, body.signal, value=body.value, source_ids=body.source_ids
        )
    except KeyError:
        raise ProblemError(404, "no such profile entry", slug="entry-not-found") from None
    return [_theirs(e, who) for e in entries]


@router.post("/documents", status_code=201, response_model=DocumentInfo)
def add_document(svc: Svc, who: Who, body: DocumentIn) -> DocumentInfo:
    """Add a document (or a new version) to the user's semantic memory (``documents.add``)."""
    info = svc.memory.documents.add(
        who.store_uid,
        body.text,
        document_id=body.document_id,
        version=body.version,
        metadata=body.metadata,
    )
    svc.users.add(who.store_uid)
    return info


@router.get("/documents", response_model=list[DocumentInfo])
def list_documents(svc: Svc, who: Known) -> list[DocumentInfo]:
    """The user's own documents (``documents.list``)."""
    return svc.memory.documents.list(who.store_uid)


@router.delete("/documents/{document_id}", status_code=200)
def remove_document(svc: Svc, who: Known, document_id: str) -> dict[str, int]:
    """Remove a document, every version (``documents.remove``); 404 when there is none."""
    n = svc.memory.documents.remove(who.store_uid, document_id)
    if n == 0:
        raise ProblemError(404, "no such document", slug="document-not-found")
    return {"removed": n}
