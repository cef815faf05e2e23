"""``MemoryStore`` items and the embedder as resources: ``/v1/items`` and ``/v1/embeddings``
(``mm.items``, ``mm.embeddings``), per tenant.

What :class:`~langgraph_memory.MemoryStore` needs of a memory to run over a service
(through :class:`~langgraph_memory.RemoteMemory`): an item's record read, listed by
namespace prefix, written, given a new expiry and deleted; and texts embedded by the
served memory's model, so the client needs none. The store ranks the records it lists
itself (BM25 and the vectors kept in each record).

Namespaces are the tenant's (:func:`~langgraph_memory.integrations.server.tenancy.store_namespace`):
an owned namespace (``("memories", "alice")``) is kept under the tenant's user
``acme:alice``, whose ``DELETE /v1/users/alice`` removes it; one without an owner
(``("shared",)``) under the tenant's own root ``acme:shared``. A listing holds only the
tenant's items (:func:`~langgraph_memory.integrations.server.tenancy.own_namespace`), so
another tenant's namespace reads as empty and its items as missing (404), never as data.
Labels go through the served memory's sensitivity gate before they are mapped.

Example:
    >>> [r.path for r in router.routes][:2]
    ['/v1/items/settings', '/v1/items/item']
"""

from __future__ import annotations

import base64
import json
from datetime import datetime
from typing import Annotated, Any

import numpy as np
from fastapi import APIRouter, Depends, Query

from langgraph_memory.core.records import Record
from langgraph_memory.integrations.server.deps import (
    PROBLEMS,
    Service,
    Svc,
    check_batch,
    tenant_of,
)
from langgraph_memory.integrations.server.models import (
    EmbedIn,
    EmbedOut,
    ItemPutIn,
    ItemRecord,
    ItemRefreshIn,
    ItemsDeleteIn,
    ItemSettings,
)
from langgraph_memory.integrations.server.problems import ProblemError
from langgraph_memory.integrations.server.tenancy import (
    namespace_owner,
    own_namespace,
    own_user_id,
    store_namespace,
)

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["items"], responses=PROBLEMS)
Tenant = Annotated[str, Depends(tenant_of)]
_NAMESPACE = Query(description="The namespace's labels, in order (repeat the parameter).")


def _position(svc: Service) -> int | None:
    return svc.memory.config.write.store_owner_label


def _labels(svc: Service, labels: list[str], *, refuse: bool) -> list[str]:
    """The labels through the served memory's gate (a secret becomes its pseudonym)."""
    return [svc.memory.items.label(x, field="namespace", refuse=refuse) for x in labels]


def _address(
    svc: Service, tenant: str, namespace: list[str], key: str, *, refuse: bool = False
) -> tuple[tuple[str, ...], str]:
    """The store's namespace and key of the caller's item address."""
    if not namespace:
        raise ProblemError(
            422, "namespace cannot be empty", field="namespace", slug="invalid-value"
        )
    labels = _labels(svc, namespace, refuse=refuse)
    key = svc.memory.items.label(key, field="key", refuse=refuse)
    return store_namespace(tenant, labels, _position(svc)), key


def _theirs(svc: Service, tenant: str, rec: Record) -> ItemRecord | None:
    """A record as the caller sees it, or ``None`` when it is not the tenant's."""
    pos = _position(svc)
    stored = list(rec.data.get("namespace") or json.loads(rec.id)[:-1])
    namespace = own_namespace(tenant, stored, pos)
    if namespace is None:
        return None
    owner = namespace_owner(stored, pos)
    data = {**rec.data, "namespace": list(namespace)}
    return ItemRecord(
        namespace=list(namespace),
        key=str(rec.data.get("key", json.loads(rec.id)[-1])),
        user_id=None if owner is None else own_user_id(tenant, owner),
        data=data,
        created_at=rec.created_at,
        updated_at=rec.updated_at,
    )


def _invalid(field: str, why: str) -> ProblemError:
    return ProblemError(422, f"{field} {why}", field=field, slug="invalid-value")


def _check_data(data: dict[str, Any]) -> None:
    """Refuse a record every ``MemoryStore`` could not read back (its own, or one over the
    same memory in process): ``value`` a JSON object, ``index`` texts with float32
    vectors (base64), ``ttl`` minutes, ``expires_at`` an ISO 8601 time."""
    if not isinstance(data.get("value"), dict):
        raise _invalid("data.value", "must be a JSON object")
    index = data.get("index") or {}
    if not isinstance(index, dict):
        raise _invalid("data.index", "must be an object of indexed texts")
    for path, entry in index.items():
        field = f"data.index.{path}"
        if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
            raise _invalid(field, "must hold a text")
        try:
            raw = base64.b64decode(str(entry.get("vector", "")), validate=True)
        except ValueError:
            raise _invalid(field, "must hold a base64 vector") from None
        if len(raw) % 4:
            raise _invalid(field, "must hold a float32 vector")
    ttl = data.get("ttl")
    if ttl is not None and (isinstance(ttl, bool) or not isinstance(ttl, int | float) or ttl < 0):
        raise _invalid("data.ttl", "must be a non-negative number of minutes or null")
    expires = data.get("expires_at")
    if expires is not None:
        try:
            datetime.fromisoformat(str(expires))
        except ValueError:
            raise _invalid("data.expires_at", "must be an ISO 8601 time or null") from None


def _one(svc: Service, tenant: str, namespace: list[str], key: str) -> Record:
    ns, k = _address(svc, tenant, namespace, key)
    rec = svc.memory.items.get(ns, k)
    if rec is None or _theirs(svc, tenant, rec) is None:
        raise ProblemError(404, "no such item", slug="item-not-found")
    return rec


@router.get("/items/settings", response_model=ItemSettings)
def item_settings(svc: Svc, tenant: Tenant) -> ItemSettings:
    """Which namespace label names an item's owner, and the size limits."""
    write = svc.memory.config.write
    return ItemSettings(
        store_owner_label=write.store_owner_label,
        max_item_bytes=svc.memory.items.max_item_bytes,
        max_block_chars=write.max_block_chars,
    )


@router.get("/items/item", response_model=ItemRecord)
def get_item(
    svc: Svc,
    tenant: Tenant,
    namespace: Annotated[list[str], _NAMESPACE],
    key: str,
) -> ItemRecord:
    """One item's record (``mm.items.get``); 404 when there is none."""
    out = _theirs(svc, tenant, _one(svc, tenant, namespace, key))
    assert out is not None
    return out


@router.get("/items", response_model=list[ItemRecord])
def list_items(
    svc: Svc,
    tenant: Tenant,
    prefix: Annotated[list[str] | None, Query(description="A namespace prefix's labels.")] = None,
) -> list[ItemRecord]:
    """The tenant's items whose namespace starts with ``prefix`` (every one without),
    oldest first (``mm.items.list``)."""
    labels = _labels(svc, prefix or [], refuse=False)
    pos = _position(svc)
    scope: tuple[str, ...] = ()
    if namespace_owner(labels, pos) is not None:  # one user's items: read only theirs
        scope = store_namespace(tenant, labels, pos)
    out = []
    for rec in svc.memory.items.list(scope):
        mine = _theirs(svc, tenant, rec)
        if mine is not None and mine.namespace[: len(labels)] == labels:
            out.append(mine)
    return out


@router.put("/items", response_model=ItemRecord)
def put_item(svc: Svc, tenant: Tenant, body: ItemPutIn) -> ItemRecord:
    """Write an item's record (``mm.items.put``: its value and indexed texts through the
    sensitivity gate); a record no store could read back (a value that is no object, a
    vector that is no float32 base64, an expiry that is no time) is refused (422)."""
    _check_data(body.data)
    ns, key = _address(svc, tenant, body.namespace, body.key, refuse=True)
    rec = svc.memory.items.put(
        ns, key, body.data, created_at=body.created_at, updated_at=body.updated_at
    )
    owner = namespace_owner(list(ns), _position(svc))
    if owner is not None:
        svc.users.add(owner)
    out = _theirs(svc, tenant, rec)
    assert out is not None
    return out


@router.patch("/items", status_code=204)
def refresh_item(svc: Svc, tenant: Tenant, body: ItemRefreshIn) -> None:
    """Give an item a new expiry, nothing else changed (``mm.items.refresh``); 404 when
    there is no such item."""
    try:
        datetime.fromisoformat(body.expires_at)
    except ValueError:
        raise _invalid("expires_at", "must be an ISO 8601 time") from None
    svc.memory.items.refresh(_one(svc, tenant, body.namespace, body.key), body.expires_at)


@router.delete("/items", status_code=200)
def delete_item(
    svc: Svc,
    tenant: Tenant,
    namespace: Annotated[list[str], _NAMESPACE],
    key: str,
) -> dict[str, int]:
    """Delete one item (``mm.items.delete``); ``deleted`` is 0 when there was none."""
    ns, k = _address(svc, tenant, namespace, key)
    return {"deleted": svc.memory.items.delete(ns, k)}


@router.post("/items/delete", status_code=200)
def delete_items(svc: Svc, tenant: Tenant, body: ItemsDeleteIn) -> dict[str, int]:
    """Delete several items (``mm.items.delete_many``); ``deleted`` counts those that were."""
    check_batch(len(body.items), svc.settings, "items")
    found = []
    for ref in body.items:
        ns, k = _address(svc, tenant, ref.namespace, ref.key)
        rec = svc.memory.items.get(ns, k)
        if rec is not None:
            found.append(rec)
    return {"deleted": svc.memory.items.delete_many(found)}


@router.post("/embeddings", response_model=EmbedOut)
def embed(svc: Svc, tenant: Tenant, body: EmbedIn) -> EmbedOut:
    """Embed texts with the served memory's embedder (``mm.embeddings.embed_array``), so a
    client ranks by the vectors the store keeps without a model of its own."""
    check_batch(len(body.texts), svc.settings, "texts", "texts")
    if not body.texts:
        return EmbedOut(dims=0, vectors=[])
    vecs = np.asarray(
        svc.memory.embeddings.embed_array(body.texts, persist=body.persist), dtype=np.float32
    )
    return EmbedOut(dims=int(vecs.shape[-1]), vectors=vecs.tolist())
