"""The API side of the queue: validate a write, publish it, answer with its id.

:class:`WritePublisher` does what ``add_message`` does before storing (every argument
validated, the content and metadata through the sensitivity gate,
``mm.maintenance.prepare_message``), fixes the message id and the timestamp when the
caller gave none, and publishes the result: the caller's answer waits for the broker,
never for embedding. A refused write (422) is never published; what is published is
already redacted, so what the gate removes never reaches the broker.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> pub = WritePublisher(WriteQueue.from_url("redis://127.0.0.1:6379/0"),  # doctest: +SKIP
    ...                      MemoryManager("/tmp/mem"))
    >>> pub.message("acme", "acme:alice", "s1", "user", "I like tea")  # doctest: +SKIP
    'm-...'
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from langgraph_memory.integrations.queue.broker import WriteQueue
from langgraph_memory.manager import MemoryManager

__all__ = ["WritePublisher"]


class WritePublisher:
    """Publishes validated writes to the queue.

    Args:
        queue: The write queue.
        memory: The manager whose validation and sensitivity gate the writes pass
            (the workers' managers must share its config).
    """

    def __init__(self, queue: WriteQueue, memory: MemoryManager) -> None:
        self.queue = queue
        self.memory = memory

    def message(
        self,
        tenant: str,
        user_id: str,
        session_id: str,
        role: str,
        content: str,
        *,
        name: str | None = None,
        timestamp: Any = None,
        message_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Validate and publish one message (``add_message``'s arguments); returns its id.

        Raises:
            TypeError, ValueError: As ``add_message`` (nothing published).
            QueueFull: When the workers are behind (back-pressure).
            QueueUnavailable: When the broker does not answer.
        """
        m = self.memory.maintenance.prepare_message(
            user_id,
            session_id,
            role,
            content,
            name=name,
            timestamp=timestamp,
            message_id=message_id,
            metadata=dict(metadata) if metadata is not None else None,
        )
        self.queue.publish(tenant, [(user_id, m)])
        return str(m["message_id"])

    def turn(
        self,
        tenant: str,
        user_id: str,
        session_id: str,
        *,
        user: str,
        assistant: str | None = None,
        timestamp: Any = None,
        user_name: str | None = None,
        assistant_name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[str]:
        """Validate both messages of a turn, then publish them together (``add_turn``'s
        arguments); returns their ids.

        Raises:
            TypeError, ValueError: As ``add_turn`` (nothing published).
            QueueFull: When the workers are behind (back-pressure).
            QueueUnavailable: When the broker does not answer.
        """
        said = [("user", user, user_name)]
        if assistant is not None:
            said.append(("assistant", assistant, assistant_name))
        meta = dict(metadata) if metadata is not None else None
        msgs = [
            self.memory.maintenance.prepare_message(
                user_id,
                session_id,
                role,
                text,
                name=name,
                timestamp=timestamp,
                metadata=meta,
                field=role,
            )
            for role, text, name in said
        ]
        self.queue.publish(tenant, [(user_id, m) for m in msgs])
        return [str(m["message_id"]) for m in msgs]

    def flush(self, tenant: str | None = None, timeout: float = 60.0) -> None:
        """Wait until the tenant's (or everyone's) published writes are stored, then
        until the memory has embedded and placed them (``mm.flush``).

        Raises:
            TimeoutError: When ``timeout`` seconds pass first.
        """
        t0 = time.monotonic()
        self.queue.wait_drained(tenant, timeout)
        self.memory.flush(max(0.01, timeout - (time.monotonic() - t0)))
