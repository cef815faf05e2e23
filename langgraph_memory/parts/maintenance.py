"""``mm.maintenance``: what keeps a memory healthy, run on demand or by a scheduled job.

The forget gate drops unimportant old episodes, consolidation turns episodes that share
a target into knowledge, reflection writes lessons and insights now (the background
does it when the queue is drained); ``verify`` checks every page of the store, the
quarantined messages (the embedder failed on them) can be listed and retried, and
``warm_up`` loads at startup what the first calls would load.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.add_message("ann", "s1", "user", "Mail me at ann@example.com")
    ...     mm.flush()
    ...     mm.maintenance.users(), mm.maintenance.failed("ann"), mm.maintenance.redact("a@b.io")
    (['ann'], [], '[EMAIL]')
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from langgraph_memory.core.validation import check_id
from langgraph_memory.extraction.entities import load_chinese
from langgraph_memory.extraction.extractor import load_rules
from langgraph_memory.layers.knowledge.consolidation import Consolidator, Knowledge
from langgraph_memory.layers.long_term.reflection import Insight, Lesson, Reflector
from langgraph_memory.layers.working.forgetting import ForgetGate, ForgetReport
from langgraph_memory.parts.aio import AsyncPart, awaitable
from langgraph_memory.parts.lifetime import Lifetime
from langgraph_memory.sensitivity.policy import SensitivityFilter
from langgraph_memory.storage import StoreDamagedError
from langgraph_memory.storage.base import MemoryBackend
from langgraph_memory.storage.capabilities import Backup
from langgraph_memory.write.pipeline import WritePipeline
from langgraph_memory.write.quarantine import FailedMessage

__all__ = [
    "Maintenance",
    "AsyncMaintenance",
    # what its calls return and raise, importable where the storage and the layers are not
    "StoreDamagedError",
    "ForgetReport",
    "Knowledge",
    "Lesson",
    "Insight",
    "FailedMessage",
]


class Maintenance:
    """Forgetting, consolidation, reflection, checks and quarantined messages.

    Args:
        storage: The store (checked by :meth:`verify`, listed by :meth:`users`).
        write: The write path (the writer's lock, quarantined messages, the embedder).
        forget: The forget gate.
        consolidator: Consolidation of episodes into knowledge.
        reflector: Lessons and insights.
        gate: The sensitivity gate.
        lifetime: The manager's open/closed state.
    """

    def __init__(
        self,
        storage: MemoryBackend,
        write: WritePipeline,
        forget: ForgetGate,
        consolidator: Consolidator,
        reflector: Reflector,
        gate: SensitivityFilter,
        lifetime: Lifetime,
    ) -> None:
        self._storage = storage
        self._write = write
        self._forget = forget
        self._consolidator = consolidator
        self._reflector = reflector
        self._gate = gate
        self._life = lifetime

    def forget(
        self, dry_run: bool = False, *, user_id: str | None = None, now: datetime | None = None
    ) -> ForgetReport:
        """Re-score episodes and forget the unimportant ones (the forget gate).

        Args:
            dry_run: Only report what would go.
            user_id: Limit to one user (default: everyone).
            now: The time to score at (default: now).

        Returns:
            A :class:`ForgetReport` naming each forgotten episode and why.

        Example:
            >>> mm.maintenance.forget(dry_run=True).forgotten  # doctest: +SKIP
            []
        """
        self._life.check()
        if user_id is not None:
            check_id(user_id, "user_id")
        with self._write.writer.lock:  # not beside the worker saving access counts
            return self._forget.run(
                user_id, now=now or datetime.now(timezone.utc), dry_run=bool(dry_run)
            )

    def consolidate(self, user_id: str | None = None) -> builtins.list[Knowledge]:
        """Consolidate episodes that share a target into knowledge (with the ``llm=`` of
        the manager, or by rules); returns what was made."""
        self._life.check()
        if user_id is not None:
            check_id(user_id, "user_id")
        with self._write.writer.lock:  # not beside the worker saving access counts
            return self._consolidator.run(user_id)

    def reflect(self, user_id: str) -> tuple[builtins.list[Lesson], builtins.list[Insight]]:
        """Reflect now on what changed for a user since the last reflection (the
        background does it when the queue is drained); returns what was written."""
        self._life.check()
        user_id = check_id(user_id, "user_id")
        with self._write.writer.lock:
            return self._reflector.run(user_id)

    def verify(self) -> None:
        """Check every page of the store now (SQLite: ``PRAGMA quick_check``; a server
        store checks its own). A store is also checked when opened after a process did
        not close it cleanly, and its files before that.

        Raises:
            StoreDamagedError: Naming the first problems found.
        """
        self._life.check()
        if isinstance(self._storage, Backup):
            self._storage.verify()

    def failed(self, user_id: str | None = None) -> builtins.list[FailedMessage]:
        """The messages the background worker could not embed (of one user, or of
        everyone), oldest first, each with its error.

        Such a message is quarantined instead of stopping the queue: it stays stored
        and is found by its words, not by its meaning. Put it back with
        :meth:`retry_failed` (after fixing the embedder), or remove it with
        ``mm.delete``. ``stats()["failed"]`` counts them.

        Example:
            >>> for f in mm.maintenance.failed("u1"):  # doctest: +SKIP
            ...     print(f.message_id, f.error)
        """
        self._life.check()
        if user_id is not None:
            check_id(user_id, "user_id")
        return self._write.failed_messages(user_id)

    def retry_failed(self, user_id: str, message_ids: Sequence[str] | None = None) -> int:
        """Put a user's quarantined messages (all, or those of ``message_ids``) back in the
        embedding queue; returns how many. One that fails again is quarantined again."""
        self._life.check()
        check_id(user_id, "user_id")
        if message_ids is not None:
            if isinstance(message_ids, str) or not isinstance(message_ids, Sequence):
                raise TypeError("message_ids must be a list of message ids")
            message_ids = [check_id(m, "message_ids[]") for m in message_ids]
        return self._write.retry_failed(user_id, message_ids)

    def users(self) -> builtins.list[str]:
        """Every user id with stored messages, sorted."""
        self._life.check()
        return self._storage.users()

    def warm_up(self, *, chinese: bool = True) -> None:
        """Load now what the first calls would load: the embedding model, the extraction
        rules and, with ``chinese``, jieba's dictionaries (about 1.5 s together for
        Chinese text).

        Call it at startup (a server before taking requests) so the first
        ``add_message`` or ``build_context`` does not pay for the loading.

        Example:
            >>> mm.maintenance.warm_up(chinese=False)  # doctest: +SKIP
        """
        self._life.check()
        self._write.embedder.get().embed_query("warm up")
        load_rules()
        if chinese:
            load_chinese()

    def prepare_message(
        self,
        user_id: str,
        session_id: str,
        role: str,
        content: str,
        *,
        name: str | None = None,
        timestamp: Any = None,
        message_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        field: str = "content",
    ) -> dict[str, Any]:
        """Validate a message as ``add_message`` would and pass it through the
        sensitivity gate, storing nothing: what a queue carries to the process that
        stores it (``add_message(**prepared)`` stores it, idempotently by its id).

        The id is generated when none is given and the timestamp is fixed to now when
        none is given, so storing the result twice stores one message.

        Args:
            user_id, session_id, role, content, name, timestamp, message_id, metadata:
                As ``add_message`` takes them.
            field: The field a refusal of the content names.

        Returns:
            ``add_message``'s keyword arguments, JSON-serialisable (the timestamp as
            ISO 8601, the content and metadata redacted).

        Raises:
            TypeError: When an argument has the wrong type.
            ValueError: When an argument is invalid or the gate refuses the content.

        Example:
            >>> from langgraph_memory import MemoryManager
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> from langgraph_memory.embeddings import HashingEmbeddings
            >>> mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
            >>> m = mm.maintenance.prepare_message("u1", "s1", "user", "mail a@b.io")
            >>> m["content"], mm.stats("u1")["messages"]
            ('mail [EMAIL]', 0)
            >>> mm.add_message(**m) == mm.add_message(**m) == m["message_id"]
            True
            >>> mm.stats("u1")["messages"]
            1
            >>> mm.close()
        """
        self._life.check()
        msg = self._write.message(
            user_id, session_id, role, content, name, timestamp, message_id, metadata, field
        )
        return {
            "user_id": msg.user_id,
            "session_id": msg.session_id,
            "role": msg.role,
            "content": msg.content,
            "name": msg.name,
            "timestamp": msg.timestamp.isoformat(),
            "message_id": msg.id,
            "metadata": msg.metadata or None,
        }

    def redact(self, value: Any, *, field: str = "value") -> Any:
        """``value`` through the memory's sensitivity gate, as every write path applies
        it: each string in it (a str, or a JSON-like value's strings) redacted, or
        refused, per ``write.sensitivity``.

        Args:
            value: A str, or a dict/list of JSON values.
            field: The field named in a refusal.

        Raises:
            SensitiveContentError: When the policy refuses what it found.

        Example:
            >>> mm.maintenance.redact({"note": "mail a@b.io"})  # doctest: +SKIP
            {'note': 'mail [EMAIL]'}
        """
        self._life.check()
        return self._gate.clean(value, field=field)


class AsyncMaintenance(AsyncPart[Maintenance]):
    """Awaitable ``mm.maintenance`` (see
    :class:`~langgraph_memory.parts.maintenance.Maintenance`)."""

    forget = awaitable(Maintenance.forget)
    consolidate = awaitable(Maintenance.consolidate)
    reflect = awaitable(Maintenance.reflect)
    verify = awaitable(Maintenance.verify)
    failed = awaitable(Maintenance.failed)
    retry_failed = awaitable(Maintenance.retry_failed)
    users = awaitable(Maintenance.users)
    warm_up = awaitable(Maintenance.warm_up)
    redact = awaitable(Maintenance.redact)
    prepare_message = awaitable(Maintenance.prepare_message)
