"""The tenant's admin routes under ``/v1/admin``: backup, verify, and maintenance of its users.

Every route needs an admin key (``langgraph-memory keys create --tenant T --admin``): no
key, a wrong or a revoked one get 401, any other key of any tenant 403. The maintenance
routes name one of the tenant's users (``/v1/admin/users/{user_id}/...``): another
tenant's user is the same 404 as a user never written, and nothing runs for it.

``POST /v1/admin/backup`` copies the store (SQLite's online backup, checked) into the
server's backups directory (``serve --backups DIR``; default ``backups`` beside the
store), in a directory of the tenant's own, under a name the server picks: the client
never names a path. The copy is the whole store (one SQLite file holds every tenant), so
it is never sent back: the response names the file for the operator who collects it. A
tenant keeps at most ``ServiceSettings.max_backups`` there (409 beyond). PostgreSQL has
no backup of the memory's own: 501, with what to run instead (``pg_dump``).
``POST /v1/admin/verify`` checks every page of the store.

With a broker (``serve --broker URL``), ``GET /v1/admin/queue`` counts the tenant's
queued and dead-lettered writes, ``GET /v1/admin/queue/dead`` lists its dead letters
(writes a worker failed ``--max-attempts`` times, with their last error) and ``POST
/v1/admin/queue/dead/retry`` publishes them (all, or ``entry_ids``) again for the
workers; without a broker these answer 501 (the memory's own queue has ``/failed``).

Example:
    >>> [r.path for r in router.routes][:2]
    ['/v1/admin/backup', '/v1/admin/verify']
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import datetime, timezone
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Body
from pydantic import BaseModel, ConfigDict, Field

from langgraph_memory.integrations.server.deps import (
    FORBIDDEN,
    PROBLEMS,
    Admin,
    AdminKnown,
    Caller,
    Svc,
)
from langgraph_memory.integrations.server.models import (
    BackupOut,
    FailedMessage,
    ForgetIn,
    ForgetReport,
    Knowledge,
    Problem,
    Reflected,
    Requeued,
    RetryIn,
    VerifyOut,
)
from langgraph_memory.integrations.server.problems import ProblemError
from langgraph_memory.integrations.server.tenancy import SEPARATOR
from langgraph_memory.parts.maintenance import StoreDamagedError

__all__ = ["router", "BACKUP_GLOB", "QueueCounts", "DeadWrite", "DeadRetryIn", "DeadRequeued"]

#: The names of the backups ``POST /v1/admin/backup`` writes.
BACKUP_GLOB = "memory-*.sqlite3"

_MORE: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}} for code in (409, 501)
}
router = APIRouter(prefix="/v1/admin", tags=["admin"], responses={**PROBLEMS, **FORBIDDEN})
T = TypeVar("T")


def _theirs(value: T, who: Caller) -> T:
    """A record with the caller's user id in place of the store's."""
    return dataclasses.replace(value, user_id=who.user_id)  # type: ignore[type-var]


@router.post("/backup", status_code=201, response_model=BackupOut, responses=_MORE)
def backup(svc: Svc, key: Admin) -> BackupOut:
    """Back the store up into the server's backups directory (a name the server picks)."""
    base = svc.backups
    if base is None:
        raise ProblemError(
            501,
            "this store has no backup of its own here: back a PostgreSQL store up with "
            "pg_dump (see the README), or serve SQLite with --backups DIR",
            slug="not-supported",
        )
    folder = base / key.tenant
    if folder.is_dir() and len(list(folder.glob(BACKUP_GLOB))) >= svc.settings.max_backups:
        raise ProblemError(
            409,
            f"the tenant keeps {svc.settings.max_backups} backups already: the operator "
            "removes old ones first",
            slug="too-many-backups",
        )
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    now = datetime.now(timezone.utc)
    name = f"memory-{now:%Y%m%dT%H%M%SZ}-{secrets.token_hex(3)}.sqlite3"
    try:
        made = svc.memory.backup(folder / name)
    except NotImplementedError as exc:
        raise ProblemError(501, str(exc), slug="not-supported") from None
    return BackupOut(
        file=f"{key.tenant}/{made.name}",
        bytes=made.stat().st_size,
        created_at=now.isoformat(timespec="seconds"),
    )


@router.post("/verify", response_model=VerifyOut)
def verify(svc: Svc, key: Admin) -> VerifyOut:
    """Check every page of the store now (``maintenance.verify``); ``ok`` false names
    what is damaged."""
    try:
        svc.memory.maintenance.verify()
    except StoreDamagedError as exc:
        detail = str(exc)
        if svc.memory.path is not None:  # the server's file system is not the caller's
            detail = detail.replace(str(svc.memory.path.parent), "<store>")
        return VerifyOut(ok=False, detail=detail)
    return VerifyOut(ok=True)


@router.get("/failed", response_model=list[FailedMessage])
def failed_of_tenant(svc: Svc, key: Admin) -> list[FailedMessage]:
    """The tenant's messages the embedder failed on, every user, oldest first."""
    prefix = f"{key.tenant}{SEPARATOR}"
    return [
        dataclasses.replace(f, user_id=f.user_id[len(prefix) :])
        for f in svc.memory.maintenance.failed()
        if f.user_id.startswith(prefix)
    ]


@router.get("/users/{user_id}/failed", response_model=list[FailedMessage])
def failed(svc: Svc, who: AdminKnown) -> list[FailedMessage]:
    """The user's messages the embedder failed on, oldest first (``maintenance.failed``)."""
    return [_theirs(f, who) for f in svc.memory.maintenance.failed(who.store_uid)]


@router.post("/users/{user_id}/retry", response_model=Requeued)
def retry(svc: Svc, who: AdminKnown, body: Annotated[RetryIn | None, Body()] = None) -> Requeued:
    """Put the user's failed messages (all, or ``message_ids``) back in the embedding
    queue (``maintenance.retry_failed``)."""
    ids = body.message_ids if body is not None else None
    n = svc.memory.maintenance.retry_failed(who.store_uid, ids)
    return Requeued(user_id=who.user_id, requeued=n)


@router.post("/users/{user_id}/forget", response_model=ForgetReport)
def forget(
    svc: Svc, who: AdminKnown, body: Annotated[ForgetIn | None, Body()] = None
) -> ForgetReport:
    """Run the forget gate over the user's episodes (``maintenance.forget``)."""
    dry = body.dry_run if body is not None else False
    return svc.memory.maintenance.forget(dry, user_id=who.store_uid)


@router.post("/users/{user_id}/consolidate", response_model=list[Knowledge])
def consolidate(svc: Svc, who: AdminKnown) -> list[Knowledge]:
    """Consolidate the user's episodes into knowledge (``maintenance.consolidate``)."""
    return [_theirs(k, who) for k in svc.memory.maintenance.consolidate(who.store_uid)]


@router.post("/users/{user_id}/reflect", response_model=Reflected)
def reflect(svc: Svc, who: AdminKnown) -> Reflected:
    """Reflect now on the user's changes (``maintenance.reflect``)."""
    lessons, insights = svc.memory.maintenance.reflect(who.store_uid)
    return Reflected(
        user_id=who.user_id,
        lessons=[_theirs(x, who) for x in lessons],
        insights=[_theirs(x, who) for x in insights],
    )


class QueueCounts(BaseModel):
    """The tenant's writes in the broker."""

    queued: int = Field(description="Published and not yet stored nor dead-lettered.")
    dead_letters: int = Field(description="Failed --max-attempts times, kept for a retry.")


class DeadWrite(BaseModel):
    """A write the workers failed on ``--max-attempts`` times (a dead letter)."""

    entry_id: str = Field(description="Its id in the dead-letter stream (to retry it).")
    user_id: str
    message_id: str | None
    error: str = Field(description="The last error (``ValueError: ...``).")
    attempts: int
    dead_at: str
    body: str = Field(description="The write as published (JSON, already redacted).")


class DeadRetryIn(BaseModel):
    """Which dead letters to publish again."""

    model_config = ConfigDict(extra="forbid")
    entry_ids: list[str] | None = Field(None, description="Default: all the tenant's.")


class DeadRequeued(BaseModel):
    """How many dead letters went back to the queue."""

    requeued: int


def _broker(svc: Any) -> Any:
    if svc.queue is None:
        raise ProblemError(
            501,
            "this service has no broker (serve --broker URL): its writes use the memory's "
            "own queue, whose failures are under /v1/admin/failed",
            slug="not-supported",
        )
    return svc.queue.queue


@router.get("/queue", response_model=QueueCounts, responses=_MORE)
def queue_counts(svc: Svc, key: Admin) -> QueueCounts:
    """The tenant's queued and dead-lettered writes (with a broker)."""
    return QueueCounts(**_broker(svc).stats(tenant=key.tenant))


@router.get("/queue/dead", response_model=list[DeadWrite], responses=_MORE)
def dead_letters(svc: Svc, key: Admin) -> list[DeadWrite]:
    """The tenant's dead-lettered writes, oldest first (with a broker)."""
    prefix = f"{key.tenant}{SEPARATOR}"
    return [
        DeadWrite(
            entry_id=d.entry_id,
            user_id=d.user_id[len(prefix) :],
            message_id=d.message_id,
            error=d.error,
            attempts=d.attempts,
            dead_at=d.dead_at,
            body=d.body,
        )
        for d in _broker(svc).failed_messages(tenant=key.tenant)
        if d.user_id.startswith(prefix)
    ]


@router.post("/queue/dead/retry", response_model=DeadRequeued, responses=_MORE)
def retry_dead_letters(
    svc: Svc, key: Admin, body: Annotated[DeadRetryIn | None, Body()] = None
) -> DeadRequeued:
    """Publish the tenant's dead letters (all, or ``entry_ids``) again for the workers;
    another tenant's entry ids are ignored (503 + Retry-After when the queue is full)."""
    ids = body.entry_ids if body is not None else None
    return DeadRequeued(requeued=_broker(svc).retry_dead(key.tenant, ids))
