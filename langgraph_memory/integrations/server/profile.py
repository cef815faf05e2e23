"""What a user's long-term memory holds, read as resources, and their core blocks:
``/v1/users/{user_id}/preferences``, ``/facts``, ``/entities``,
``/entities/{name}/relations``, ``/insights``, ``/rollups`` (``mm.profile``),
``/blocks/{label}`` (``mm.items.core_block`` / ``set_core_block``) and a document's
``/chunks`` and ``/documents/search`` (``mm.documents``, the user's own only).

These are what the memory tools (``create_memory_tools``: core memory, the knowledge
graph's entity search and relations) and ``MemoryStore``'s documents namespace read
through :class:`~langgraph_memory.RemoteMemory`. Every route is under the caller's
tenant's user (a user it has no memory of, or another tenant's, is the same 404), and
every record shows the caller's id of the user, never the store's. Core blocks are read
for any user of the caller's tenant (``""`` when never written).

Example:
    >>> [r.path for r in router.routes][:1]
    ['/v1/users/{user_id}/preferences']
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from fastapi import APIRouter
from fastapi import Path as PathParam

from langgraph_memory.core.records import MemoryHit
from langgraph_memory.integrations.server.deps import PROBLEMS, Caller, Known, Svc, Who
from langgraph_memory.integrations.server.models import (
    CoreBlock,
    CoreBlockIn,
    DocumentChunk,
    DocumentSearchIn,
    Entity,
    Fact,
    Insight,
    ProfileEntry,
    Rollup,
    SearchOut,
)
from langgraph_memory.integrations.server.problems import ProblemError

__all__ = ["router"]

router = APIRouter(prefix="/v1/users/{user_id}", tags=["profile"], responses=PROBLEMS)


def _theirs(records: list[Any], who: Caller) -> list[Any]:
    """Records with the caller's user id in place of the store's."""
    return [dataclasses.replace(r, user_id=who.user_id) for r in records]


@router.get("/preferences", response_model=list[ProfileEntry])
def preferences(
    svc: Svc, who: Known, key: str | None = None, scope: str | None = None
) -> list[ProfileEntry]:
    """The user's preferences, oldest first; of one ``key``, or that apply in ``scope``
    (``profile.preferences``)."""
    return _theirs(svc.memory.profile.preferences(who.store_uid, key=key, scope=scope), who)


@router.get("/facts", response_model=list[Fact])
def facts(svc: Svc, who: Known, subject: str | None = None, current: bool = False) -> list[Fact]:
    """The user's facts in the order they began, superseded ones too unless ``current``
    (``profile.facts``)."""
    return _theirs(svc.memory.profile.facts(who.store_uid, subject=subject, current=current), who)


@router.get("/entities", response_model=list[Entity])
def entities(svc: Svc, who: Known) -> list[Entity]:
    """Who and what the user talks about, most mentioned first (``profile.entities``)."""
    return _theirs(svc.memory.profile.entities(who.store_uid), who)


@router.get("/entities/{name:path}/relations", response_model=list[Fact])
def relations(svc: Svc, who: Known, name: str) -> list[Fact]:
    """The facts naming ``name``: an entity's edges, oldest first (``profile.relations``)."""
    return _theirs(svc.memory.profile.relations(who.store_uid, name), who)


@router.get("/insights", response_model=list[Insight])
def insights(svc: Svc, who: Known) -> list[Insight]:
    """Insights reflected from the user's facts, oldest first (``profile.insights``)."""
    return _theirs(svc.memory.profile.insights(who.store_uid), who)


@router.get("/rollups", response_model=list[Rollup])
def rollups(svc: Svc, who: Known, level: Literal["day", "week"] | None = None) -> list[Rollup]:
    """The user's day and week summaries, oldest first (``profile.rollups``)."""
    return _theirs(svc.memory.profile.rollups(who.store_uid, level), who)


_LABEL = PathParam(description="The block's label (e.g. human, persona).")


@router.get("/blocks/{label}", response_model=CoreBlock)
def core_block(svc: Svc, who: Who, label: str) -> CoreBlock:
    """A core memory block's text (``""`` when never written; ``items.core_block``).

    Read for any user of the tenant (no 404): a user whose only memory is its blocks
    still reads them after a restart, and another tenant's user is a user of the
    caller's own that never wrote one."""
    return CoreBlock(label=label, value=svc.memory.items.core_block(who.store_uid, label))


@router.put("/blocks/{label}", response_model=CoreBlock)
def set_core_block(svc: Svc, who: Who, label: str, body: CoreBlockIn) -> CoreBlock:
    """Overwrite a core block through the sensitivity gate; the text stored
    (``items.set_core_block``)."""
    text = svc.memory.items.set_core_block(who.store_uid, label, body.value)
    svc.users.add(who.store_uid)
    return CoreBlock(label=label, value=text)


@router.get("/documents/{document_id:path}/chunks", response_model=list[DocumentChunk])
def document_chunks(
    svc: Svc, who: Known, document_id: str, version: str | None = None
) -> list[DocumentChunk]:
    """A document's chunks in order, of its current version or of ``version``
    (``documents.chunks``); 404 when the user has no such document or version."""
    chunks = svc.memory.documents.chunks(who.store_uid, document_id, version=version)
    if not chunks:
        raise ProblemError(404, "no such document", slug="document-not-found")
    return [dataclasses.replace(c, owner=who.user_id) for c in chunks]


@router.post("/documents/search", response_model=SearchOut)
def search_documents(svc: Svc, who: Known, body: DocumentSearchIn) -> SearchOut:
    """Search the user's own documents only (``documents.search``)."""
    if body.k > svc.settings.max_k:
        raise ProblemError(
            422, f"k must be at most {svc.settings.max_k}", field="k", slug="over-limit"
        )
    with svc.heavy_read():
        hits: list[MemoryHit] = svc.memory.documents.search(
            who.store_uid, body.query, body.k, filter=body.filter
        )
    return SearchOut(user_id=who.user_id, hits=hits)
