"""The records the memory system stores and returns.

Records are slotted dataclasses: cheap to create, typed, and printable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = ["Message", "MemoryHit", "Record", "ROLES"]

#: Roles a message may have (LangChain's message types plus common aliases).
ROLES = frozenset({"user", "assistant", "system", "tool", "human", "ai"})
ROLE_ALIASES = {"human": "user", "ai": "assistant"}


@dataclass(slots=True)
class Message:
    """One stored conversation message (the raw material of every memory).

    Attributes:
        id: The caller's message id, or a generated one.
        user_id: Whose memory this is.
        session_id: The conversation (thread) it was said in.
        role: ``user``, ``assistant``, ``system`` or ``tool``.
        content: The text.
        timestamp: When it was said (timezone-aware, UTC when none was given).
        name: The speaker's name, if any.
        metadata: Free JSON-serialisable metadata.
        seq: Insertion order within the store (assigned by the backend).
    """

    id: str
    user_id: str
    session_id: str
    role: str
    content: str
    timestamp: datetime
    name: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    seq: int = 0


@dataclass(slots=True)
class MemoryHit:
    """One search result.

    Attributes:
        id: Id of the memory (for raw messages, the message id).
        layer: The memory layer it comes from (``"message"`` for raw messages).
        text: The memory's text.
        score: The fused relevance score (higher is better).
        score_parts: The components the score was made of (e.g. ``bm25_rank``,
            ``dense_rank``, ``cosine``, ``rrf``).
        source_ids: Ids of the messages this memory came from (citations).
        session_id: The session the memory was made in.
        timestamp: When it was made.
        metadata: The memory's metadata.
    """

    id: str
    layer: str
    text: str
    score: float
    score_parts: dict[str, float]
    source_ids: list[str]
    session_id: str | None = None
    timestamp: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    name: str | None = None
    role: str | None = None


@dataclass(slots=True)
class Record:
    """A structured memory kept beside the messages (a task, an episode, knowledge...).

    Attributes:
        kind: What it is (``task``, ``episode``, ``knowledge``...).
        id: Its id, unique within its kind.
        user_id: Whose memory it is.
        data: Its fields, JSON-serialisable.
        created_at: When it was made.
        updated_at: When it last changed.
    """

    kind: str
    id: str
    user_id: str
    data: dict[str, Any]
    created_at: datetime
    updated_at: datetime
