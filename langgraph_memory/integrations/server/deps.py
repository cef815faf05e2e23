"""What every route depends on: the service, the caller's tenant, the user it names.

Every route but ``/v1/health`` and ``/v1/ready`` declares :func:`tenant_of` (directly or
through :func:`caller`), which reads ``Authorization: Bearer KEY`` and answers 401 for a
missing, wrong or revoked key; routes under ``/v1/users/{user_id}`` declare
:func:`caller` (the user as the tenant's store user id) or :func:`existing` (the same,
404 for a user the tenant has no memory of). Declared once per route, so none can forget.

Example:
    >>> Caller("acme", "alice", "acme:alice").store_uid
    'acme:alice'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi import Path as PathParam
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from langgraph_memory.integrations.queue.publisher import WritePublisher
from langgraph_memory.integrations.server.keys import KeyFile
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
    "tenant_of",
    "caller",
    "existing",
    "service_of",
    "check_budget",
    "check_batch",
    "own_json",
    "Svc",
    "Who",
    "Known",
]

#: The environment variable ``langgraph-memory serve`` reads a PostgreSQL URL from.
POSTGRES_ENV = "LANGGRAPH_MEMORY_POSTGRES_URL"


@dataclass(frozen=True)
class ServiceSettings:
    """The service's limits, each enforced before any work starts.

    Attributes:
        max_body_bytes: Largest request body (413 beyond).
        max_batch: Most messages in one batch (413 beyond).
        max_token_budget: Largest ``token_budget`` of a context (422 beyond).
        max_k: Most hits of one search (422 beyond).
        warm_up: Load the embedding model and jieba when the app is made.
    """

    max_body_bytes: int = 4 * 1024 * 1024
    max_batch: int = 1000
    max_token_budget: int = 32_000
    max_k: int = 200
    warm_up: bool = False


@dataclass
class Service:
    """What every route reaches: the manager, the keys, the users known to exist, and the
    write queue's publisher when writes go through a broker (``None``: the memory's own
    queue)."""

    memory: MemoryManager
    keys: KeyFile
    users: KnownUsers
    settings: ServiceSettings
    owns_memory: bool
    queue: WritePublisher | None = None


@dataclass(frozen=True)
class Caller:
    """An authenticated request about one user.

    Attributes:
        tenant: The key's tenant.
        user_id: The user as the caller names it.
        store_uid: The store's id of that user (``tenant:user_id``).
    """

    tenant: str
    user_id: str
    store_uid: str


_bearer = HTTPBearer(
    auto_error=False,
    description="An API key made by `langgraph-memory keys create --tenant T`.",
)
PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}}
    for code in (401, 404, 413, 422)
}


def service_of(request: Request) -> Service:
    svc: Service = request.app.state.service
    return svc


def tenant_of(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """The tenant of the request's key.

    Raises:
        ProblemError: 401 without a key, or with a wrong or revoked one (the same
            response for both).
    """
    if credentials is None:
        raise ProblemError(
            401, "an API key is needed: send Authorization: Bearer KEY", slug="unauthorized"
        )
    tenant = service_of(request).keys.tenant_of(credentials.credentials)
    if tenant is None:
        raise ProblemError(401, "the API key is not valid", slug="unauthorized")
    request.state.tenant = tenant
    return tenant


def caller(
    request: Request,
    user_id: Annotated[str, PathParam(description="Your id of the user.")],
    tenant: Annotated[str, Depends(tenant_of)],
) -> Caller:
    """The caller and the user its path names (a user of the caller's tenant)."""
    uid = store_user_id(tenant, user_id)
    request.state.store_uid, request.state.user_id = uid, user_id
    return Caller(tenant, user_id, uid)


Svc = Annotated[Service, Depends(service_of)]
Who = Annotated[Caller, Depends(caller)]


def existing(svc: Svc, who: Who) -> Caller:
    """The caller, when its tenant has memory of the user (404 otherwise)."""
    svc.users.require(who.store_uid)
    return who


Known = Annotated[Caller, Depends(existing)]


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
