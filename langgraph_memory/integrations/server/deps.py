"""What every route depends on: the service, the caller's tenant, the user it names.

Every route but ``/v1/health`` and ``/v1/ready`` declares :func:`tenant_of` (directly or
through :func:`caller`), which reads ``Authorization: Bearer KEY`` and answers 401 for a
missing, wrong or revoked key; routes under ``/v1/users/{user_id}`` declare
:func:`caller` (the user as the tenant's store user id) or :func:`existing` (the same,
404 for a user the tenant has no memory of). Declared once per route, so none can forget.

**Keys bound to agents.** A key made with ``--agent A`` (one or more) acts only as those
agents. Every ``agent_id`` a request carries (``search``, ``context``, ``tasks``) must be
one of them, else 403 naming the field; a request that leaves ``agent_id`` out acts as
the key's agent when it has exactly one, and is refused (403) when it has several (a
bound key never acts as "no agent", which would read or write every agent's share). A
task's steps, update and completion act as the task's agent: 403 for a task another agent
started (a task started without an agent is shared, and any of the tenant's keys may
work on it). Reads stay the tenant's: a bound key reads every user of its tenant, as an
unbound one does. Messages carry no agent (the manager takes none for them), so the
binding does not touch them.

**Admin keys.** A key made with ``--admin`` also reaches ``/v1/admin`` (backup, verify,
maintenance of the tenant's users); any other key gets 403 there, after the 401 checks.

**Where they run.** The dependencies are ``async``: they run in the event loop, not in
the thread pool (a sync dependency is one hop into a thread and back per request, and
under load each hop waits for the interpreter lock while another request's context is
computed in the process). What may wait on a database (a key checked in PostgreSQL, a
user this process has not seen yet) still goes to the thread pool.

Example:
    >>> Caller("acme", "alice", "acme:alice").store_uid
    'acme:alice'
    >>> act_as(Caller("acme", "alice", "acme:alice", agents=("planner",)), None)
    'planner'
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi import Path as PathParam
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from langgraph_memory.integrations.queue.publisher import WritePublisher
from langgraph_memory.integrations.server.keys import POSTGRES_ENV, KeyInfo, KeyStore
from langgraph_memory.integrations.server.models import Problem
from langgraph_memory.integrations.server.problems import ProblemError
from langgraph_memory.integrations.server.tenancy import KnownUsers, store_user_id
from langgraph_memory.manager import MemoryManager

__all__ = [
    "ServiceSettings",
    "Service",
    "Caller",
    "POSTGRES_ENV",
    "PROBLEMS",
    "FORBIDDEN",
    "tenant_of",
    "key_of",
    "admin_existing",
    "admin_key",
    "act_as",
    "caller",
    "existing",
    "service_of",
    "check_budget",
    "check_batch",
    "own_json",
    "Svc",
    "Who",
    "Known",
    "Admin",
    "AdminKnown",
]


@dataclass(frozen=True)
class ServiceSettings:
    """The service's limits, each enforced before any work starts.

    Attributes:
        max_body_bytes: Largest request body (413 beyond).
        max_batch: Most messages in one batch (413 beyond).
        max_token_budget: Largest ``token_budget`` of a context (422 beyond).
        max_k: Most hits of one search (422 beyond).
        warm_up: Load the embedding model and jieba when the app is made.
        backups_dir: Where ``POST /v1/admin/backup`` writes (each tenant's backups in a
            directory of its own); ``None``: the ``backups`` directory beside a SQLite
            store.
        max_backups: Most backups a tenant keeps there (409 beyond: remove old ones).
        max_concurrent_reads: Most contexts and searches this process computes at once
            (more wait their turn): ``None`` is the CPU count, ``0`` no bound. Python
            runs one thread at a time, so more processes (``serve --workers N``), not
            more threads, compute more contexts at once.
        freeze_gc: When the app starts, collect once and then leave every object made
            so far (the model, the tokenizers, the libraries' modules) out of the
            garbage collector's later passes (``gc.freeze()``; the process's collector
            is changed, so ``serve`` sets it, ``create_app`` alone does not). A full
            pass otherwise walks them all, 70-180 ms during which no request of the
            process moves, every few seconds under load: the tail of the latencies.
    """

    max_body_bytes: int = 4 * 1024 * 1024
    max_batch: int = 1000
    max_token_budget: int = 32_000
    max_k: int = 200
    warm_up: bool = False
    backups_dir: str | None = None
    max_backups: int = 10
    max_concurrent_reads: int | None = None
    freeze_gc: bool = False

    def __post_init__(self) -> None:
        n = self.max_concurrent_reads
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
            raise ValueError(f"max_concurrent_reads must be an int >= 0 or None, got {n!r}")

    def read_slots(self) -> int:
        """How many heavy reads run at once (``0``: unbounded).

        Example:
            >>> ServiceSettings(max_concurrent_reads=2).read_slots()
            2
        """
        if self.max_concurrent_reads is None:
            return max(1, os.cpu_count() or 1)
        return self.max_concurrent_reads


@dataclass
class Service:
    """What every route reaches: the manager, the keys, the users known to exist, the
    write queue's publisher when writes go through a broker (``None``: the memory's own
    queue), and where admin backups go (``None``: nowhere, the store has no backup of
    its own)."""

    memory: MemoryManager
    keys: KeyStore
    users: KnownUsers
    settings: ServiceSettings
    owns_memory: bool
    queue: WritePublisher | None = None
    backups: Path | None = None
    _reads: threading.Semaphore | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        slots = self.settings.read_slots()
        self._reads = threading.Semaphore(slots) if slots else None

    @contextlib.contextmanager
    def heavy_read(self) -> Iterator[None]:
        """Hold one of the process's read slots (``max_concurrent_reads``) while a
        context or a search is computed; waits for one when all are taken.

        Example:
            >>> with svc.heavy_read():  # doctest: +SKIP
            ...     svc.memory.build_context("alice", "s1", "tea?")
        """
        if self._reads is None:
            yield
            return
        with self._reads:
            yield


@dataclass(frozen=True)
class Caller:
    """An authenticated request about one user.

    Attributes:
        tenant: The key's tenant.
        user_id: The user as the caller names it.
        store_uid: The store's id of that user (``tenant:user_id``).
        agents: The agents the key acts as (empty: any).
        admin: Whether the key is an admin key.
    """

    tenant: str
    user_id: str
    store_uid: str
    agents: tuple[str, ...] = ()
    admin: bool = False

    def own(self, text: str) -> str:
        """``text`` (an error's message) with the store's user id shown as the caller's."""
        return text.replace(self.store_uid, self.user_id)


_bearer = HTTPBearer(
    auto_error=False,
    description="An API key made by `langgraph-memory keys create --tenant T`.",
)
PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}}
    for code in (401, 404, 413, 422)
}
#: The 403 of the routes a key may be refused (admin routes, an ``agent_id`` of a bound key).
FORBIDDEN: dict[int | str, dict[str, Any]] = {
    403: {"model": Problem, "content": {"application/problem+json": {}}}
}


def _service(request: Request) -> Service:
    svc: Service = request.app.state.service
    return svc


async def service_of(request: Request) -> Service:
    """The app's :class:`Service`."""
    return _service(request)


async def key_of(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> KeyInfo:
    """The entry of the request's key (its tenant, agents, admin).

    Raises:
        ProblemError: 401 without a key, or with a wrong or revoked one (the same
            response for both).
    """
    if credentials is None:
        raise ProblemError(
            401, "an API key is needed: send Authorization: Bearer KEY", slug="unauthorized"
        )
    keys = _service(request).keys
    known, info = keys.check_cached(credentials.credentials)  # no I/O: in the event loop
    if not known:  # a query to the database, in a thread
        info = await run_in_threadpool(keys.check, credentials.credentials)
    if info is None:
        raise ProblemError(401, "the API key is not valid", slug="unauthorized")
    request.state.tenant = info.tenant
    return info


async def tenant_of(key: Annotated[KeyInfo, Depends(key_of)]) -> str:
    """The tenant of the request's key (401 as :func:`key_of`)."""
    return key.tenant


async def admin_key(key: Annotated[KeyInfo, Depends(key_of)]) -> KeyInfo:
    """The request's key, when it is an admin key.

    Raises:
        ProblemError: 401 as :func:`key_of`; 403 for a key that is not an admin key.
    """
    if not key.admin:
        raise ProblemError(
            403,
            "this route needs an admin key (langgraph-memory keys create --admin)",
            slug="forbidden",
        )
    return key


async def caller(
    request: Request,
    user_id: Annotated[str, PathParam(description="Your id of the user.")],
    key: Annotated[KeyInfo, Depends(key_of)],
) -> Caller:
    """The caller and the user its path names (a user of the caller's tenant)."""
    uid = store_user_id(key.tenant, user_id)
    request.state.store_uid, request.state.user_id = uid, user_id
    return Caller(key.tenant, user_id, uid, key.agents, key.admin)


Svc = Annotated[Service, Depends(service_of)]
Who = Annotated[Caller, Depends(caller)]


async def _require(svc: Service, store_uid: str) -> None:
    """404 unless the store has memory of ``store_uid`` (the store is asked, in a
    thread, only for a user this process does not know yet)."""
    if not svc.users.knows(store_uid):
        await run_in_threadpool(svc.users.require, store_uid)


async def existing(svc: Svc, who: Who) -> Caller:
    """The caller, when its tenant has memory of the user (404 otherwise)."""
    await _require(svc, who.store_uid)
    return who


Known = Annotated[Caller, Depends(existing)]
Admin = Annotated[KeyInfo, Depends(admin_key)]


async def admin_existing(svc: Svc, key: Admin, who: Who) -> Caller:
    """The caller with an admin key, when its tenant has memory of the user (403 for a
    key that is not an admin key, then 404 for a user the tenant does not have)."""
    await _require(svc, who.store_uid)
    return who


AdminKnown = Annotated[Caller, Depends(admin_existing)]


def act_as(who: Caller, agent_id: str | None, field: str = "agent_id") -> str | None:
    """The agent a request acts as, under the key's binding (see the module's rule).

    Args:
        who: The caller (its key's agents).
        agent_id: The agent the request names, or ``None``.
        field: The request field it came in (named by a refusal).

    Returns:
        ``agent_id``; for a key bound to one agent, that agent when ``agent_id`` is
        ``None``.

    Raises:
        ProblemError: 403 naming ``field`` when the key is bound to agents and
            ``agent_id`` is not one of them (or is left out with several to choose from).
    """
    if not who.agents:
        return agent_id
    if agent_id is None:
        if len(who.agents) == 1:
            return who.agents[0]
        raise ProblemError(
            403,
            f"{field} is needed: this key acts only as the agents {', '.join(who.agents)}",
            field=field,
            slug="agent-forbidden",
        )
    if agent_id not in who.agents:
        raise ProblemError(
            403,
            f"{field}: this key may not act as that agent (it acts only as "
            f"{', '.join(who.agents)})",
            field=field,
            slug="agent-forbidden",
        )
    return agent_id


def check_budget(budget: int | None, settings: ServiceSettings) -> None:
    if isinstance(budget, int) and budget > settings.max_token_budget:
        raise ProblemError(
            422,
            f"token_budget must be at most {settings.max_token_budget}",
            field="token_budget",
            slug="over-limit",
        )


def check_batch(count: int, settings: ServiceSettings, field: str, what: str = "items") -> None:
    """Refuse a request of more than ``settings.max_batch`` of ``what`` (413)."""
    if count > settings.max_batch:
        raise ProblemError(
            413, f"at most {settings.max_batch} {what} at once", field=field, slug="batch-too-large"
        )


def own_json(value: Any, who: Caller) -> Any:
    """A JSON value with the store's user id shown as the caller's."""
    raw = json.dumps(value, default=str)
    return json.loads(raw.replace(json.dumps(who.store_uid)[1:-1], json.dumps(who.user_id)[1:-1]))
