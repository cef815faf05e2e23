"""The service's request bodies and the envelopes around the library's own types.

What the library returns is sent as it is: a context's items are
:class:`~langgraph_memory.ContextItem`, search hits :class:`~langgraph_memory.MemoryHit`,
anchors :class:`~langgraph_memory.Anchor` (the dataclasses themselves are the response
schemas, so the API cannot drift from them). Request bodies mirror the manager's
parameters one to one (same names, same defaults); the manager validates their values
(lengths, NUL, timestamps...) and its ``ValueError`` becomes a 422 problem naming the
field.

Example:
    >>> MessageIn(session_id="s1", role="user", content="I like tea").role
    'user'
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from langgraph_memory.core.context import ContextItem
from langgraph_memory.core.records import MemoryHit
from langgraph_memory.parts.anchors import Anchor
from langgraph_memory.parts.documents import DocumentChunk, DocumentInfo
from langgraph_memory.parts.maintenance import (
    FailedMessage,
    ForgetReport,
    Knowledge,
    Lesson,
)
from langgraph_memory.parts.profile import Entity, Fact, Insight, ProfileEntry, Rollup
from langgraph_memory.parts.tasks import Episode, TaskState, TaskStep

__all__ = [
    "MessageIn",
    "MessageBatchIn",
    "TurnIn",
    "ContextIn",
    "SearchIn",
    "FlushIn",
    "AnchorIn",
    "FeedbackIn",
    "MessageAccepted",
    "MessagesAccepted",
    "ContextOut",
    "SearchOut",
    "Deleted",
    "UserList",
    "Health",
    "Problem",
    "Anchor",
    "TaskIn",
    "StepIn",
    "StepUpdateIn",
    "CompleteIn",
    "StepAdded",
    "TaskState",
    "TaskStep",
    "Episode",
    "ProfileEntry",
    "DocumentIn",
    "DocumentInfo",
    "ItemRecord",
    "ItemPutIn",
    "ItemRef",
    "ItemsDeleteIn",
    "ItemRefreshIn",
    "ItemSettings",
    "EmbedIn",
    "EmbedOut",
    "CoreBlock",
    "CoreBlockIn",
    "DocumentSearchIn",
    "Fact",
    "Entity",
    "Insight",
    "Rollup",
    "DocumentChunk",
    "BackupOut",
    "VerifyOut",
    "ForgetIn",
    "RetryIn",
    "Requeued",
    "Reflected",
    "FailedMessage",
    "ForgetReport",
    "Knowledge",
    "Lesson",
]

_STRICT = ConfigDict(extra="forbid")
#: Scalars and JSON a timestamp may be sent as (ISO 8601 string or epoch seconds).
Timestamp = str | float | int | None


class MessageIn(BaseModel):
    """One message, as ``MemoryManager.add_message`` takes it."""

    model_config = _STRICT
    session_id: str = Field(description="The conversation (a LangGraph thread id).")
    role: str = Field(description="user/human, assistant/ai, system or tool.")
    content: str = Field(description="The text.")
    message_id: str | None = Field(
        None, description="Your id; sending the same id and content again is a no-op."
    )
    timestamp: Timestamp = Field(None, description="ISO 8601 or epoch seconds (default: now).")
    name: str | None = Field(None, description="The speaker's name.")
    metadata: dict[str, Any] | None = Field(None, description="JSON metadata (filterable).")


class MessageBatchIn(BaseModel):
    """Several messages, stored in order (each idempotent by its ``message_id``)."""

    model_config = _STRICT
    messages: list[MessageIn] = Field(description="The messages, at most the batch limit.")


class TurnIn(BaseModel):
    """A user message and the assistant's reply, as ``MemoryManager.add_turn`` takes them."""

    model_config = _STRICT
    session_id: str
    user: str
    assistant: str | None = None
    timestamp: Timestamp = None
    user_name: str | None = None
    assistant_name: str | None = None
    metadata: dict[str, Any] | None = None


class ContextIn(BaseModel):
    """``MemoryManager.build_context``'s parameters."""

    model_config = _STRICT
    query: str
    session_id: str = Field(
        "default", description="The current session: its latest messages ride along."
    )
    token_budget: int | None = Field(None, description="Default: the server's config.")
    explain: bool = False
    filter: dict[str, Any] | None = None
    scope: str | None = None
    agent_id: str | None = None
    shown_ids: list[str] | None = None


class SearchIn(BaseModel):
    """``MemoryManager.search``'s parameters."""

    model_config = _STRICT
    query: str
    k: int = 10
    layers: list[str] | None = None
    filter: dict[str, Any] | None = None
    agent_id: str | None = None


class FlushIn(BaseModel):
    """How long ``POST /v1/flush`` may wait."""

    model_config = _STRICT
    timeout: float = Field(60.0, gt=0, le=600, description="Seconds (at most 600).")


class AnchorIn(BaseModel):
    """``mm.anchors.add``'s parameters."""

    model_config = _STRICT
    text: str
    session_id: str | None = None
    anchor_id: str | None = None
    metadata: dict[str, Any] | None = None


class FeedbackIn(BaseModel):
    """``mm.profile.feedback``'s parameters."""

    model_config = _STRICT
    target: str = Field(description="A profile entry id, or a preference key.")
    signal: Literal["followed", "corrected"]
    value: Any = None
    source_ids: list[str] | None = None


class MessageAccepted(BaseModel):
    """A stored message: searchable after ``POST /v1/flush``."""

    user_id: str
    message_id: str


class MessagesAccepted(BaseModel):
    """Stored messages, in the order sent."""

    user_id: str
    message_ids: list[str]


class ContextOut(BaseModel):
    """A built context: its prompt ``text`` and its cited ``items``."""

    user_id: str
    session_id: str
    query: str
    token_budget: int
    tokens: int = Field(description="Tokens of text (never more than the budget).")
    text: str = Field(description="The rendered prompt (MemoryContext.to_prompt()).")
    items: list[ContextItem]
    source_ids: list[str]
    notes: list[str]
    timings_ms: dict[str, float]
    explain: bool = False
    explanation: str | None = Field(None, description="Why each item is there (explain).")


class SearchOut(BaseModel):
    """Search hits, best first."""

    user_id: str
    hits: list[MemoryHit]


class Deleted(BaseModel):
    """How many messages a delete removed."""

    user_id: str
    deleted: int


class UserList(BaseModel):
    """The caller's users that have memory."""

    users: list[str]


class Health(BaseModel):
    """Liveness or readiness."""

    status: str
    version: str


class Problem(BaseModel):
    """An RFC 9457 problem (``application/problem+json``)."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None
    field: str | None = Field(None, description="The request field at fault, when one is.")
    errors: list[dict[str, Any]] | None = None


class TaskIn(BaseModel):
    """``mm.tasks.start``'s parameters."""

    model_config = _STRICT
    session_id: str
    request: str = Field(description="What the user asked for.")
    context: dict[str, Any] | None = None
    agent_id: str | None = None


class StepIn(BaseModel):
    """``mm.tasks.step``'s parameters."""

    model_config = _STRICT
    description: str
    tool_name: str | None = None
    args: dict[str, Any] | None = None


class StepUpdateIn(BaseModel):
    """``mm.tasks.update_step``'s parameters."""

    model_config = _STRICT
    status: str | None = None
    result: str | None = None


class CompleteIn(BaseModel):
    """``mm.tasks.complete``'s parameters."""

    model_config = _STRICT
    outcome: str = "success"
    summary: str = ""
    trigger_type: str = "user_request"
    target: str = ""
    tags: list[str] | None = None
    pinned: bool = False


class StepAdded(BaseModel):
    """The index of a step just added."""

    index: int


class DocumentIn(BaseModel):
    """``mm.documents.add`` of a text (Markdown is split by its headings), the user's own."""

    model_config = _STRICT
    text: str = Field(description="The document's text or Markdown (never a path).")
    document_id: str | None = None
    version: str | None = None
    metadata: dict[str, Any] | None = None


# -- store items, embeddings, core blocks -----------------------------------------------------
Namespace = list[str]


class ItemRecord(BaseModel):
    """A ``MemoryStore`` item's record, in the caller's namespace: what
    ``mm.items.get``/``list`` return (``data`` holds ``value``, the indexed texts with
    their vectors and the TTL)."""

    namespace: Namespace
    key: str
    user_id: str | None = Field(
        description="The namespace's owner (your id of the user), or null for a namespace "
        "without one (kept per tenant)."
    )
    data: dict[str, Any]
    created_at: datetime
    updated_at: datetime


class ItemPutIn(BaseModel):
    """``mm.items.put``'s parameters."""

    model_config = _STRICT
    namespace: Namespace = Field(min_length=1)
    key: str
    data: dict[str, Any] = Field(description="value, index (texts and vectors), ttl...")
    created_at: datetime | None = None
    updated_at: datetime | None = None


class ItemRef(BaseModel):
    """One item by its address."""

    model_config = _STRICT
    namespace: Namespace = Field(min_length=1)
    key: str


class ItemsDeleteIn(BaseModel):
    """Items to delete (``mm.items.delete_many``), at most the batch limit."""

    model_config = _STRICT
    items: list[ItemRef]


class ItemRefreshIn(ItemRef):
    """A new expiry for an item (``mm.items.refresh``)."""

    expires_at: str = Field(description="ISO 8601.")


class ItemSettings(BaseModel):
    """The served memory's store rules (``WriteSection``)."""

    store_owner_label: int | None = Field(
        description="Which namespace label names the items' owner (null: none does)."
    )
    max_item_bytes: int
    max_block_chars: int


class EmbedIn(BaseModel):
    """Texts to embed with the served memory's embedder, at most the batch limit."""

    model_config = _STRICT
    texts: list[str]
    persist: bool = Field(True, description="Keep the vectors in the embedding cache.")


class EmbedOut(BaseModel):
    """One vector per text, in order."""

    dims: int
    vectors: list[list[float]]


class CoreBlock(BaseModel):
    """A core memory block's text (``mm.items.core_block``)."""

    label: str
    value: str


class CoreBlockIn(BaseModel):
    """A core block's new text (``mm.items.set_core_block``)."""

    model_config = _STRICT
    value: str


class DocumentSearchIn(BaseModel):
    """``mm.documents.search`` over the user's own documents."""

    model_config = _STRICT
    query: str
    k: int = 10
    filter: dict[str, Any] | None = None


# -- /v1/admin ------------------------------------------------------------------------------
class BackupOut(BaseModel):
    """A backup made on the server (never sent: the operator collects it)."""

    file: str = Field(description="The backup, relative to the server's backups directory.")
    bytes: int
    created_at: str


class VerifyOut(BaseModel):
    """The store's check: ``ok``, or what is damaged."""

    ok: bool
    detail: str | None = None


class ForgetIn(BaseModel):
    """``mm.maintenance.forget``'s parameters (for one user)."""

    model_config = _STRICT
    dry_run: bool = Field(False, description="Only report what would go.")


class RetryIn(BaseModel):
    """``mm.maintenance.retry_failed``'s parameters."""

    model_config = _STRICT
    message_ids: list[str] | None = Field(None, description="Default: every failed message.")


class Requeued(BaseModel):
    """How many quarantined messages went back into the embedding queue."""

    user_id: str
    requeued: int


class Reflected(BaseModel):
    """What a reflection wrote."""

    user_id: str
    lessons: list[Lesson]
    insights: list[Insight]
