"""The consuming side: ``langgraph-memory worker`` takes writes and stores them.

A :class:`QueueWorker` takes up to ``batch`` writes (first those a dead worker left
unacknowledged, then new ones), stores each with ``add_message`` (the gate, the store's
commit; the same message id with the same content again is a no-op, so a redelivered
write is stored once), waits for the memory to embed and place them (``mm.flush`` of
the batch's users, so other workers' writes never hold it up), and only then
acknowledges them. A write that raises is left unacknowledged and retried
after the queue's ``claim_idle_s``; after ``max_attempts`` deliveries it goes to the
dead-letter stream with its error. A store that does not answer (``ConnectionError``:
PostgreSQL restarting) is not the write's fault: the rest of the batch is given back
without spending a delivery, and the worker waits and tries again, so a database outage
never dead-letters a good write. A worker killed mid-batch loses nothing: its
unacknowledged writes are taken over by a live worker after ``claim_idle_s``.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> with MemoryManager("/tmp/mem") as mm:  # doctest: +SKIP
    ...     QueueWorker(WriteQueue.from_url("redis://127.0.0.1:6379/0"), mm).run()
"""

from __future__ import annotations

import logging
import os
import socket
import threading

from langgraph_memory.integrations.queue.broker import Delivery, QueueUnavailable, WriteQueue
from langgraph_memory.manager import MemoryManager

__all__ = ["QueueWorker"]

log = logging.getLogger("langgraph_memory.queue")


class QueueWorker:
    """Consumes the write queue into a memory.

    Args:
        queue: The write queue.
        memory: The memory to store into (SQLite or PostgreSQL).
        consumer: This worker's name in the consumer group (default ``host-pid``).
        batch: Most writes taken at once.
        block_s: How long one wait for new writes lasts (bounds how late a stop is seen).
        flush_timeout_s: How long the memory may take to embed a batch before it is
            acknowledged anyway (it is stored: the memory's own queue finishes it).
    """

    #: The longest wait between two tries while the broker does not answer.
    MAX_PAUSE_S = 5.0

    def __init__(
        self,
        queue: WriteQueue,
        memory: MemoryManager,
        *,
        consumer: str | None = None,
        batch: int = 64,
        block_s: float = 1.0,
        flush_timeout_s: float = 60.0,
    ) -> None:
        self.queue, self.memory = queue, memory
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}"
        self.batch, self.block_s, self.flush_timeout_s = batch, block_s, flush_timeout_s
        self.stop_event = threading.Event()
        #: Writes stored and acknowledged, and dead-lettered, by this worker.
        self.stored = self.dead = 0

    def run(self, *, until_idle: bool = False) -> None:
        """Consume until :meth:`stop` (or, with ``until_idle``, until a wait finds
        nothing). While the broker does not answer it waits (1 s, doubling up to
        :attr:`MAX_PAUSE_S`) and tries again: what it stored and could not acknowledge
        is redelivered and stored once."""
        pause = 1.0
        while not self.stop_event.is_set():
            try:
                n = self.run_once()
            except (QueueUnavailable, ConnectionError) as exc:
                log.warning("%s; trying again in %.0f s", exc, pause)
                self.stop_event.wait(pause)
                pause = min(pause * 2, self.MAX_PAUSE_S)
                continue
            pause = 1.0
            if n == 0 and until_idle:
                return

    def stop(self) -> None:
        """Stop after the batch in hand (its writes are acknowledged first)."""
        self.stop_event.set()

    def run_once(self) -> int:
        """Take one batch and settle it; returns how many writes it held."""
        got = self.queue.take(self.consumer, self.batch, self.block_s)
        if not got:
            return 0
        stored: list[Delivery] = []
        unreachable: ConnectionError | None = None
        for i, d in enumerate(got):
            if d.attempts > self.queue.max_attempts:  # it stopped workers before
                self.queue.dead_letter(d)
                self.dead += 1
                continue
            try:
                self._store(d)
            except ConnectionError as exc:  # the store's fault, not the write's
                unreachable = exc
                for rest in got[i:]:
                    self.queue.release(rest, self.consumer)
                break
            except Exception as exc:
                if self.queue.fail(d, f"{type(exc).__name__}: {exc}"):
                    self.dead += 1
                continue
            stored.append(d)
        if stored:
            try:  # only the batch's users, accepted until now: other workers' writes,
                # however many keep coming, do not hold this batch's acknowledgement up
                users = sorted({d.user for d in stored})
                self.memory.flush(self.flush_timeout_s, user_ids=users)
            except (TimeoutError, RuntimeError, ConnectionError):  # stored and committed:
                log.warning("the memory had not embedded a batch yet", exc_info=True)
            for d in stored:  # the memory's own queue finishes them
                if self.queue.ack(d):
                    self.stored += 1
        if unreachable is not None:
            raise unreachable
        return len(got)

    def _store(self, d: Delivery) -> None:
        body = d.body
        if body is None:
            raise ValueError("the write is not a JSON object")
        if not d.user or body.get("user_id") not in (None, d.user):
            raise ValueError("the write's user is not the one it was published for")
        missing = [k for k in ("session_id", "role", "content") if k not in body]
        if missing:
            raise ValueError(f"the write lacks {', '.join(missing)}")
        self.memory.add_message(
            d.user,
            body["session_id"],
            body["role"],
            body["content"],
            name=body.get("name"),
            timestamp=body.get("timestamp"),
            message_id=body.get("message_id"),
            metadata=body.get("metadata"),
        )
