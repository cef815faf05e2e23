"""The ASGI application: the manager's surface as ``/v1`` resources, per tenant.

Every route but ``/v1/health`` and ``/v1/ready`` declares one dependency that reads the
``Authorization: Bearer KEY`` header and returns the key's tenant (401 otherwise); routes
under ``/v1/users/{user_id}`` declare the one that turns the path's ``user_id`` into the
tenant's store user id (:mod:`~langgraph_memory.integrations.server.tenancy`), so no
route can forget either. Bodies are the manager's parameters
(:mod:`~langgraph_memory.integrations.server.models`); responses carry the library's
own dataclasses; errors are RFC 9457 problem details
(:mod:`~langgraph_memory.integrations.server.problems`).

Example:
    >>> from langgraph_memory import MemoryManager
    >>> app = create_app(MemoryManager("/tmp/mem"), keys="/tmp/mem")  # doctest: +SKIP
    >>> import uvicorn; uvicorn.run(app, port=8420)  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, FastAPI

from langgraph_memory import __version__
from langgraph_memory.integrations.queue import WritePublisher, WriteQueue
from langgraph_memory.integrations.server.admin import router as admin_routes
from langgraph_memory.integrations.server.deps import (
    FORBIDDEN,
    POSTGRES_ENV,
    PROBLEMS,
    Caller,
    Known,
    Service,
    ServiceSettings,
    Svc,
    Who,
    act_as,
    check_budget,
    own_json,
    tenant_of,
)
from langgraph_memory.integrations.server.items import router as item_routes
from langgraph_memory.integrations.server.keys import KeyFile, KeyStore
from langgraph_memory.integrations.server.limits import BodyLimit
from langgraph_memory.integrations.server.mcp_route import mount_mcp
from langgraph_memory.integrations.server.models import (
    Anchor,
    AnchorIn,
    ContextIn,
    ContextOut,
    Deleted,
    FlushIn,
    Health,
    MessageAccepted,
    MessageBatchIn,
    MessageIn,
    MessagesAccepted,
    Problem,
    SearchIn,
    SearchOut,
    TurnIn,
    UserList,
)
from langgraph_memory.integrations.server.problems import ProblemError, install_handlers
from langgraph_memory.integrations.server.profile import router as profile_routes
from langgraph_memory.integrations.server.tasks import router as task_routes
from langgraph_memory.integrations.server.tenancy import SEPARATOR, KnownUsers
from langgraph_memory.integrations.server.ui import create_ui
from langgraph_memory.manager import DEFAULT_PATH, MemoryManager

__all__ = ["create_app", "ServiceSettings", "POSTGRES_ENV"]


# -- routes ---------------------------------------------------------------------------------
meta = APIRouter(prefix="/v1", tags=["service"])
users = APIRouter(prefix="/v1/users/{user_id}", tags=["users"], responses=PROBLEMS)
tenant_routes = APIRouter(prefix="/v1", tags=["tenant"], responses=PROBLEMS)


@meta.get("/health", response_model=Health)
def health() -> Health:
    """Liveness: the process answers (no key needed)."""
    return Health(status="ok", version=__version__)


@meta.get("/ready", response_model=Health, responses={503: {"model": Problem}})
def ready(svc: Svc) -> Health:
    """Readiness: the memory is open and its store answers (no key needed)."""
    if svc.memory.closed:
        raise ProblemError(503, "the memory is closed", slug="not-ready")
    svc.memory.maintenance.users()
    return Health(status="ready", version=__version__)


@users.post("/messages", status_code=201, response_model=MessageAccepted)
def add_message(svc: Svc, who: Who, body: MessageIn) -> MessageAccepted:
    """Store one message (``add_message``); searchable once ``POST /v1/flush`` returns."""
    mid = _store(svc, who, body)
    svc.users.add(who.store_uid)
    return MessageAccepted(user_id=who.user_id, message_id=mid)


def _store(svc: Service, who: Caller, m: MessageIn) -> str:
    """``add_message`` of one message of the request, in the caller's namespace (or, with
    a broker, the message validated and published for a worker to store)."""
    add = svc.memory.add_message
    if svc.queue is not None:
        add = functools.partial(svc.queue.message, who.tenant)
    return add(
        who.store_uid,
        m.session_id,
        m.role,
        m.content,
        name=m.name,
        timestamp=m.timestamp,
        message_id=m.message_id,
        metadata=m.metadata,
    )


@users.post("/messages/batch", status_code=201, response_model=MessagesAccepted)
def add_messages(svc: Svc, who: Who, body: MessageBatchIn) -> MessagesAccepted:
    """Store several messages in order, each idempotent by its ``message_id`` (send the
    batch again after a failure: those stored already are no-ops)."""
    if len(body.messages) > svc.settings.max_batch:
        raise ProblemError(
            413,
            f"a batch holds at most {svc.settings.max_batch} messages",
            field="messages",
            slug="batch-too-large",
        )
    ids: list[str] = []
    for i, m in enumerate(body.messages):
        try:
            mid = _store(svc, who, m)
        except (TypeError, ValueError) as exc:
            if ids:
                svc.users.add(who.store_uid)
            detail = who.own(str(exc))
            raise ProblemError(
                422,
                f"messages[{i}]: {detail} ({i} stored before it)",
                field=f"messages[{i}]",
                slug="invalid-value",
            ) from None
        ids.append(mid)
    if ids:
        svc.users.add(who.store_uid)
    return MessagesAccepted(user_id=who.user_id, message_ids=ids)


@users.post("/turns", status_code=201, response_model=MessagesAccepted)
def add_turn(svc: Svc, who: Who, body: TurnIn) -> MessagesAccepted:
    """Store a user message and the reply (``add_turn``)."""
    add = svc.memory.add_turn
    if svc.queue is not None:
        add = functools.partial(svc.queue.turn, who.tenant)
    ids = add(
        who.store_uid,
        body.session_id,
        user=body.user,
        assistant=body.assistant,
        timestamp=body.timestamp,
        user_name=body.user_name,
        assistant_name=body.assistant_name,
        metadata=body.metadata,
    )
    svc.users.add(who.store_uid)
    return MessagesAccepted(user_id=who.user_id, message_ids=ids)


@users.post("/context", response_model=ContextOut, responses=FORBIDDEN)
def build_context(svc: Svc, who: Known, body: ContextIn) -> ContextOut:
    """The token-budgeted, cited context for a query (``build_context``)."""
    check_budget(body.token_budget, svc.settings)
    agent_id = act_as(who, body.agent_id)
    with svc.heavy_read():
        ctx = svc.memory.build_context(
            who.store_uid,
            body.session_id,
            body.query,
            body.token_budget,
            explain=body.explain,
            filter=body.filter,
            scope=body.scope,
            agent_id=agent_id,
            shown_ids=body.shown_ids,
        )
    return ContextOut(
        user_id=who.user_id,
        session_id=ctx.session_id,
        query=ctx.query,
        token_budget=ctx.token_budget,
        tokens=ctx.tokens,
        text=ctx.to_prompt(),
        items=ctx.items,
        source_ids=ctx.source_ids,
        notes=ctx.notes,
        timings_ms=ctx.timings_ms,
        explain=ctx.explain,
        explanation=str(ctx) if body.explain else None,
    )


@users.post("/search", response_model=SearchOut, responses=FORBIDDEN)
def search(svc: Svc, who: Known, body: SearchIn) -> SearchOut:
    """Hybrid search over the user's memory (``search``)."""
    if body.k > svc.settings.max_k:
        raise ProblemError(
            422, f"k must be at most {svc.settings.max_k}", field="k", slug="over-limit"
        )
    agent_id = act_as(who, body.agent_id)
    with svc.heavy_read():
        hits = svc.memory.search(
            who.store_uid,
            body.query,
            body.k,
            layers=body.layers,  # type: ignore[arg-type]  # checked by the manager
            filter=body.filter,
            agent_id=agent_id,
        )
    return SearchOut(user_id=who.user_id, hits=hits)


@users.get("/stats")
def stats(svc: Svc, who: Known) -> dict[str, Any]:
    """Counts of the user's memory (``stats``)."""
    out = dict(own_json(svc.memory.stats(who.store_uid), who))
    out.pop("path", None)  # the server's file system is not the caller's business
    if svc.queue is not None:
        out["queue"] = svc.queue.queue.stats(user=who.store_uid)
    return out


@users.delete("/messages/{message_id}", response_model=Deleted)
def delete_message(svc: Svc, who: Known, message_id: str) -> Deleted:
    """Delete one message and everything derived from it (``delete``); 404 when the user
    has no message with that id."""
    n = svc.memory.delete(who.store_uid, message_id)
    if n == 0:
        raise ProblemError(404, "no such message", slug="message-not-found")
    return Deleted(user_id=who.user_id, deleted=n)


@users.delete("", response_model=Deleted)
def delete_user(svc: Svc, who: Known) -> Deleted:
    """Delete every trace of the user (``delete_user``)."""
    n = svc.memory.delete_user(who.store_uid)
    svc.users.remove(who.store_uid)
    return Deleted(user_id=who.user_id, deleted=n)


@users.post("/anchors", status_code=201, response_model=Anchor)
def add_anchor(svc: Svc, who: Who, body: AnchorIn) -> Anchor:
    """Pin an instruction to a session, or user-wide (``anchors.add``)."""
    aid = svc.memory.anchors.add(
        who.store_uid,
        body.text,
        session_id=body.session_id,
        anchor_id=body.anchor_id,
        metadata=body.metadata,
    )
    svc.users.add(who.store_uid)
    for a in svc.memory.anchors.list(who.store_uid, body.session_id):
        if a.id == aid:
            return dataclasses.replace(a, user_id=who.user_id)
    raise ProblemError(500, "the anchor was not stored", slug="internal")  # pragma: no cover


@users.get("/anchors", response_model=list[Anchor])
def list_anchors(svc: Svc, who: Known, session_id: str | None = None) -> list[Anchor]:
    """The session's anchors and the user-wide ones (``anchors.list``)."""
    return [
        dataclasses.replace(a, user_id=who.user_id)
        for a in svc.memory.anchors.list(who.store_uid, session_id)
    ]


@users.delete("/anchors/{anchor_id}", status_code=204)
def remove_anchor(svc: Svc, who: Known, anchor_id: str) -> None:
    """Remove an anchor (``anchors.remove``); 404 when the user has none with that id."""
    if not svc.memory.anchors.remove(who.store_uid, anchor_id):
        raise ProblemError(404, "no such anchor", slug="anchor-not-found")


@tenant_routes.post("/flush", status_code=200)
def flush(
    svc: Svc,
    tenant: Annotated[str, Depends(tenant_of)],
    body: Annotated[FlushIn | None, Body()] = None,
) -> dict[str, bool]:
    """Wait until every write of the caller's tenant accepted before the call is
    searchable (504 when ``timeout`` passes first); with a broker, first until the
    workers have stored the tenant's queued writes (then the memory's whole queue).

    Without a broker, other tenants' writes do not hold it up (``flush(user_ids=...)``
    over the tenant's users), unless more than 512 messages are pending, when it waits
    for them all."""
    timeout = body.timeout if body is not None else FlushIn.model_fields["timeout"].default
    if svc.queue is not None:
        svc.queue.flush(tenant, timeout)
        return {"flushed": True}
    users = [f"{tenant}{SEPARATOR}{u}" for u in svc.users.of_tenant(tenant)]
    svc.memory.flush(timeout, user_ids=users)
    return {"flushed": True}


@tenant_routes.get("/users", response_model=UserList)
def list_users(svc: Svc, tenant: Annotated[str, Depends(tenant_of)]) -> UserList:
    """The caller's tenant's users that have memory."""
    return UserList(users=svc.users.of_tenant(tenant))


# -- the application ---------------------------------------------------------------------
def create_app(
    manager_or_path: MemoryManager | str | os.PathLike[str] | None = None,
    *,
    keys: KeyStore | str | os.PathLike[str] | None = None,
    postgres: str | None = None,
    settings: ServiceSettings | None = None,
    broker: WriteQueue | None = None,
    **manager_kw: Any,
) -> FastAPI:
    """The service as an ASGI application (serve it with uvicorn).

    Args:
        manager_or_path: A manager to serve (left open when the app stops), or the
            memory directory of a SQLite store to open (default
            ``$LANGGRAPH_MEMORY_PATH`` or ``./.langgraph_memory``; closed when the app
            stops).
        keys: The keys: a :class:`KeyFile` or
            :class:`~langgraph_memory.integrations.server.keys_pg.KeyTable`, or a keys
            file (or its directory). Default: ``service_keys.json`` in the memory
            directory; with ``postgres``, the table ``lgm_service_keys`` of that database
            (shared by every service process on it).
        postgres: A PostgreSQL URL to open instead of a SQLite directory.
        settings: The limits (:class:`ServiceSettings`).
        broker: A write queue (``WriteQueue.from_url(URL)``): writes are published to
            it and stored by ``langgraph-memory worker`` processes; default: the
            memory's own queue.
        **manager_kw: Passed to the manager it opens (``embeddings=``, ``config=``...).

    Returns:
        A FastAPI application with OpenAPI at ``/openapi.json`` and docs at ``/docs``.

    Raises:
        ValueError: When no keys can be placed (a manager whose store is not a
            directory, without ``keys``).

    Example:
        >>> app = create_app("./.langgraph_memory")  # doctest: +SKIP
    """
    settings = settings or ServiceSettings()
    owns = not isinstance(manager_or_path, MemoryManager)
    root: Path | None = None
    if isinstance(manager_or_path, MemoryManager):
        mm = manager_or_path
        root = mm.path.parent if mm.path is not None else None
    elif postgres is not None:
        mm = MemoryManager.from_conn_string(postgres, **manager_kw)
    else:
        root = Path(manager_or_path or os.environ.get("LANGGRAPH_MEMORY_PATH") or DEFAULT_PATH)
        mm = MemoryManager(root, **manager_kw)
    key_store: KeyStore
    owns_keys = False
    if keys is not None and not isinstance(keys, (str, os.PathLike)):
        key_store = keys
    elif keys is not None:
        key_store = KeyFile(keys)
    elif postgres is not None:
        from langgraph_memory.integrations.server.keys_pg import KeyTable

        try:
            key_store, owns_keys = KeyTable(postgres), True
        except BaseException:
            if owns:
                mm.close()
            raise
    elif root is not None:
        key_store = KeyFile(root)
    else:
        if owns:
            mm.close()
        raise ValueError("keys must be given (a keys file) when the store is not a directory")
    if settings.backups_dir is not None:
        backups: Path | None = Path(settings.backups_dir)
    else:
        backups = mm.path.parent / "backups" if mm.path is not None else None
    if settings.warm_up:
        mm.maintenance.warm_up()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.freeze_gc:  # everything loaded by now stays out of later passes
            gc.collect()
            gc.freeze()
        yield
        if owns:
            mm.close()
        if owns_keys:
            key_store.close()

    app = FastAPI(
        title="langgraph-memory",
        version=__version__,
        description="Layered, token-budgeted, explainable memory for agents, per tenant.",
        lifespan=lifespan,
    )

    def holds(store_uid: str) -> bool:  # memory beside messages: items, blocks, documents
        return mm.items.holds(store_uid) or bool(mm.documents.list(store_uid))

    known = KnownUsers(mm.maintenance.users, holds)
    queue = WritePublisher(broker, mm) if broker is not None else None
    app.state.service = Service(mm, key_store, known, settings, owns, queue, backups)
    install_handlers(app)
    routers = (meta, users, task_routes, profile_routes, item_routes, tenant_routes)
    for router in (*routers, admin_routes):
        app.include_router(router)
    mount_mcp(app)  # the MCP tools at /mcp, behind the same keys (with the `mcp` SDK)
    app.mount("/ui", create_ui(app.state.service))  # the inspector's pages (not in OpenAPI)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    return app
