"""Messages the background worker could not embed, kept aside with their error.

A message whose text makes the embedder raise (a remote API refusing it, a model
failing on it) or return NaN would otherwise stop the queue for every user: the
worker retried the same batch on every pass. The worker isolates it instead: when a
batch fails, it embeds a probe text and each message alone; when the probe works,
the messages that still fail are **quarantined** (the backend's
:meth:`~langgraph_memory.storage.base.StorageCore.set_failed`) and the others go on.
When the probe fails too the embedder itself is down: nothing is quarantined, the
error is reported by ``flush()`` and the batch is retried later.

A quarantined message stays stored, found by its words (not by meaning), in its
session's history, and deleted with its user or by ``mm.delete``. Its error is kept
as a record of kind :data:`FAILED_KIND`; ``mm.maintenance.failed()`` lists them,
``mm.maintenance.retry_failed()`` puts them back in the queue, and ``stats()`` counts them.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> class Picky(HashingEmbeddings):
    ...     def embed_documents(self, texts):
    ...         if any("\\u2603" in t for t in texts):
    ...             raise ValueError("the model refuses snowmen")
    ...         return super().embed_documents(texts)
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=Picky()) as mm:
    ...     _ = mm.add_message("ann", "s1", "user", "I like tea")
    ...     _ = mm.add_message("ann", "s1", "user", "a \\u2603 in July")
    ...     mm.flush()
    ...     [(f.message_id == m.id, f.error) for f, m in zip(mm.maintenance.failed("ann"),
    ...      [mm._backend.iter_messages("ann")[1]])]
    [(True, 'ValueError: the model refuses snowmen')]
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from langgraph_memory.core.records import Message, Record
from langgraph_memory.storage.base import MemoryBackend

__all__ = ["FailedMessage", "PoisonMessages", "FAILED_KIND", "Quarantine"]

#: The record kind of a quarantined message's error.
FAILED_KIND = "failed_message"
#: The longest error text kept.
MAX_ERROR_CHARS = 500


@dataclass(frozen=True, slots=True)
class FailedMessage:
    """A message the worker could not embed.

    Attributes:
        user_id: Whose message.
        message_id: Its id.
        session_id: Its session.
        error: The embedder's error (type and message, at most 500 characters).
        failed_at: When it was quarantined.
    """

    user_id: str
    message_id: str
    session_id: str
    error: str
    failed_at: datetime


class PoisonMessages(Exception):  # noqa: N818 - a signal, not an error the caller sees
    """Raised by the worker's embedding step: these messages fail on their own while the
    embedder works; the rest of their batch is fine."""

    def __init__(self, failures: Sequence[tuple[Message, str]]) -> None:
        super().__init__(f"{len(failures)} message(s) cannot be embedded")
        self.failures = list(failures)


def _record_id(user_id: str, message_id: str) -> str:
    digest = hashlib.sha1(f"{user_id}\x00{message_id}".encode()).hexdigest()[:24]
    return f"failed-{digest}"


def describe(exc: BaseException) -> str:
    """``Type: message``, cut to :data:`MAX_ERROR_CHARS`."""
    return f"{type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS]


class Quarantine:
    """Quarantined messages of a store: their queue state and their error records.

    Args:
        backend: The store.
    """

    def __init__(self, backend: MemoryBackend) -> None:
        self._backend = backend

    def add(self, failures: Sequence[tuple[Message, str]]) -> int:
        """Take messages out of the queue and keep their errors; returns how many."""
        now = datetime.now(timezone.utc)
        n = 0
        by_user: dict[str, list[tuple[Message, str]]] = {}
        for msg, error in failures:
            by_user.setdefault(msg.user_id, []).append((msg, error))
        for user_id, items in sorted(by_user.items()):
            n += self._backend.set_failed(user_id, [m.id for m, _ in items], True)
            for msg, error in items:
                self._backend.put_record(
                    Record(
                        FAILED_KIND,
                        _record_id(user_id, msg.id),
                        user_id,
                        {
                            "message_id": msg.id,
                            "session_id": msg.session_id,
                            "error": error[:MAX_ERROR_CHARS],
                        },
                        now,
                        now,
                    )
                )
        return n

    def list(self, user_id: str | None = None) -> list[FailedMessage]:
        """The quarantined messages (of one user), oldest first."""
        return [
            FailedMessage(
                r.user_id,
                str(r.data["message_id"]),
                str(r.data.get("session_id", "")),
                str(r.data.get("error", "")),
                r.created_at,
            )
            for r in self._backend.list_records(FAILED_KIND, user_id)
        ]

    def release(self, user_id: str, message_ids: Sequence[str] | None = None) -> int:
        """Put a user's quarantined messages (all, or those of ``message_ids``) back in the
        queue; returns how many."""
        ids = [f.message_id for f in self.list(user_id)] if message_ids is None else message_ids
        n = self._backend.set_failed(user_id, ids, False)
        self.forget(user_id, ids)
        return n

    def forget(self, user_id: str, message_ids: Sequence[str]) -> None:
        """Drop the error records of messages (released or deleted)."""
        self._backend.delete_records(
            FAILED_KIND, [_record_id(user_id, m) for m in message_ids], user_id
        )
