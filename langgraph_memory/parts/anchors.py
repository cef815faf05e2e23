"""``mm.anchors``: instructions pinned to a session (or to every session of a user) that
ride along in every context, first.

Standing instructions the user states ("from now on, answer in French", "以后都用中文")
are read into anchors by the background worker; these are the ones you pin yourself.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.anchors.add("ann", "Answer in French.")              # every session
    ...     _ = mm.anchors.add("ann", "Use metric units.", session_id="s1")
    ...     [a.text for a in mm.anchors.list("ann", "s1")], len(mm.anchors.list("ann"))
    (['Answer in French.', 'Use metric units.'], 1)
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from typing import Any

from langgraph_memory.config import WriteSection
from langgraph_memory.layers.working.tasks import Anchor, WorkingMemory
from langgraph_memory.parts.aio import AsyncPart, awaitable
from langgraph_memory.parts.lifetime import Lifetime

__all__ = ["Anchors", "AsyncAnchors"]


class Anchors:
    """Session and user anchors.

    Args:
        working: Working memory, which keeps them.
        limits: The content and metadata limits they are checked against.
        lifetime: The manager's open/closed state.
    """

    def __init__(self, working: WorkingMemory, limits: WriteSection, lifetime: Lifetime) -> None:
        self._working = working
        self._limits = limits
        self._life = lifetime

    def add(
        self,
        user_id: str,
        text: str,
        *,
        session_id: str | None = None,
        anchor_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Pin an instruction that rides along in every context of a session.

        Args:
            user_id: Whose anchor.
            text: The instruction (at most ``write.max_content_chars`` characters); the
                sensitivity gate redacts or refuses it like message content.
            session_id: Its session; ``None`` (default) makes it ride along in every
                session of the user.
            anchor_id: Your id for it (default: generated). Adding an existing id
                replaces that anchor's text, session and metadata; it keeps its place.
            metadata: JSON-serialisable metadata.

        Returns:
            The anchor id.

        Raises:
            TypeError: When an argument has the wrong type.
            ValueError: When an argument is invalid or the sensitivity policy refuses
                the text. Nothing is stored then.

        Example:
            >>> aid = mm.anchors.add("u1", "Always answer in French.")  # doctest: +SKIP
        """
        self._life.check()
        anchor = self._working.add_anchor(
            user_id,
            text,
            session_id=session_id,
            anchor_id=anchor_id,
            metadata=dict(metadata) if isinstance(metadata, Mapping) else metadata,
            max_chars=self._limits.max_content_chars,
            max_metadata_bytes=self._limits.max_metadata_bytes,
        )
        return anchor.id

    def list(self, user_id: str, session_id: str | None = None) -> builtins.list[Anchor]:
        """The anchors of a session and the user-wide ones, in insertion order (only the
        user-wide ones when ``session_id`` is ``None``)."""
        self._life.check()
        return self._working.anchors(user_id, session_id)

    def remove(self, user_id: str, anchor_id: str) -> bool:
        """Remove an anchor; returns ``False`` when the user has none with that id."""
        self._life.check()
        return self._working.remove_anchor(user_id, anchor_id)


class AsyncAnchors(AsyncPart[Anchors]):
    """Awaitable ``mm.anchors`` (see :class:`~langgraph_memory.parts.anchors.Anchors`)."""

    add = awaitable(Anchors.add)
    list = awaitable(Anchors.list)
    remove = awaitable(Anchors.remove)
