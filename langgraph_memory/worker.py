"""The background writer: embeds stored messages off the caller's path.

The queue is durable by construction: it is the set of stored messages without
a vector, so messages accepted before a crash are embedded after a restart.

Two ways to drain it, chosen by the backend. Usually one process at a time embeds
and places: each batch is embedded, stored and placed in the hierarchy under the
writer lease. On a backend with ``concurrent_embedding`` (PostgreSQL) embedding leaves
the lease: every process claims batches of its own (``MemoryBackend.embed_pending``)
and embeds them at once with the others, and only the hierarchy placement of what is
embedded runs under the lease, in one process at a time.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from functools import partial, wraps
from typing import ParamSpec, TypeVar

import numpy as np

from .backends.base import MemoryBackend
from .embeddings import CachedEmbeddings
from .records import Message

__all__ = ["EmbeddingWorker", "foreground", "in_foreground", "yield_gil"]

log = logging.getLogger(__name__)

#: Batches the worker keeps embedding ahead of the one it stores and places.
AHEAD_BATCHES = 2


class _Foreground:
    """Counts the library's calls running on callers' threads in this process.

    Background loops yield the GIL (see :func:`yield_gil`) only while such a call
    is running: yielding costs about 0.1 ms per ``time.sleep(0)`` even when no
    thread waits, which was a fifth of the worker's own time while ingesting alone.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = 0

    @property
    def active(self) -> bool:
        """Whether a foreground call is running now."""
        return self._active > 0

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            self._active += 1
        try:
            yield
        finally:
            with self._lock:
                self._active -= 1


#: Entered by ``add_message``, ``search``, ``build_context`` and their kin.
foreground = _Foreground()

_P = ParamSpec("_P")
_R = TypeVar("_R")


def in_foreground(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` as a foreground call (background loops yield the GIL meanwhile)."""

    @wraps(fn)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with foreground():
            return fn(*args, **kwargs)

    return call


def yield_gil() -> None:
    """Let a waiting caller's thread run now, when a foreground call is running.

    A thread running pure Python keeps the GIL until another thread has waited
    ``sys.getswitchinterval()`` (5 ms) for it. Threads that release the GIL often
    (a reader between SQLite and numpy calls, ``add_message`` between statements)
    then wait up to 5 ms at every step: ``build_context`` took 1 s instead of
    5 ms next to a thread extracting memories, and 35 ms when that thread yielded
    after each message. Long loops of background work call this once per item;
    ``time.sleep(0)`` releases the GIL, and is skipped (it costs ~0.1 ms) when no
    call of the library's API is running in this process (see :data:`foreground`).

    Example:
        >>> with foreground():
        ...     foreground.active
        True
        >>> foreground.active
        False
    """
    if foreground.active:
        time.sleep(0)


class EmbeddingWorker:
    """A daemon thread that drains the backend's pending messages in batches.

    Args:
        backend: Where messages and vectors live.
        embedder: Returns the (cached) embedder; called in the thread, so a slow
            model load happens off the caller's path.
        text_of: The text embedded for a message.
        batch_size: Messages per batch.
        writer: Entered around each batch and housekeeping pass; yields whether this
            process may write now (the manager's write lock and the store's writer
            lease). When it yields False, another process is draining the shared
            queue: the pass is skipped and retried at the next wake-up.
        linger_s: How long a short batch waits for more messages.
        after_batch: Called with each embedded batch ``[(message, vector), ...]``
            under the lock (the hierarchy places pages here); its errors are logged,
            never lost messages: the batch is embedded and stays searchable.
        on_idle: Called when the queue is drained (housekeeping such as promotions).
        before_store: Called with each batch under the lock right before its vectors are
            stored (the hierarchy marks how far embedding goes); errors are logged.
        replay: Called under the lock before each batch, the first time on start (the
            hierarchy places what a crash left embedded but unplaced; cheap when there is
            nothing to do); errors are logged. ``flush()`` waits for the first call.
        place: On a backend with ``concurrent_embedding``, called under the lock after
            each claimed batch instead of the hooks above: places every embedded but
            unplaced message (whoever embedded it) and returns how many; errors are
            logged, and ``flush()`` waits for placement only while it succeeds.
    """

    def __init__(
        self,
        backend: MemoryBackend,
        embedder: Callable[[], CachedEmbeddings],
        text_of: Callable[[Message], str],
        *,
        batch_size: int,
        writer: Callable[[], AbstractContextManager[bool]],
        linger_s: float = 0.05,
        after_batch: Callable[[list[tuple[Message, np.ndarray]]], None] | None = None,
        on_idle: Callable[[], None] | None = None,
        before_store: Callable[[list[Message]], None] | None = None,
        replay: Callable[[], object] | None = None,
        place: Callable[[], int] | None = None,
    ) -> None:
        self._backend = backend
        self._embedder = embedder
        self._text_of = text_of
        self._batch_size = batch_size
        self._writer = writer
        self._linger_s = linger_s
        self._after_batch = after_batch
        self._on_idle = on_idle
        self._before_store = before_store
        self._replay = replay
        self._place = place
        self._concurrent = backend.concurrent_embedding
        self._place_failed = False  # the latest placement raised (flush stops waiting for it)
        self._flushing = threading.Event()
        self._wake = threading.Event()
        self._idle = threading.Condition()
        # until the first pass has replayed (or placed)
        self._busy = (place if self._concurrent else replay) is not None
        self._stop = False
        # The next batches and their vectors in the making, in order (see _embed_ahead).
        self._ahead: list[tuple[list[Message], Future[np.ndarray]]] = []
        self._ahead_thread: ThreadPoolExecutor | None = None
        self.error: BaseException | None = None
        self.processed = 0
        #: Passes skipped because another process held the writer lease.
        self.skipped = 0
        self._thread = threading.Thread(
            target=self._run, name="langgraph-memory-embed", daemon=True
        )
        self._thread.start()

    def notify(self) -> None:
        """Tell the worker there is new work."""
        self._wake.set()

    def run_once(self) -> int:
        """Embed one batch; returns how many messages were embedded (with concurrent
        embedding: embedded plus placed, see :meth:`_claim_and_place`).

        A short batch waits up to ``linger_s`` for more messages first (unless a
        flush is waiting), since embedding one text at a time is several times
        slower per text than embedding a full batch.
        """
        # A full batch in the making needs no look at the queue.
        if not (self._ahead and len(self._ahead[0][0]) >= self._batch_size):
            batch = self._backend.pending_embeddings(self._batch_size)
            if 0 < len(batch) < self._batch_size and not self._flushing.is_set():
                time.sleep(self._linger_s)
        if self._concurrent:
            return self._claim_and_place()
        with self._writer() as mine:
            if not mine:
                self.skipped += 1
                return 0
            self._backend.index_pending()  # what came since the last pass, in one go
            if self._replay is not None:
                self._guarded(self._replay, "replaying hierarchy placement failed")
            batch = self._backend.pending_embeddings(self._batch_size)
            if not batch:
                self._drop_ahead()
                return 0
            batch, vectors = self._take_ahead(batch)
            pairs = list(zip(batch, np.asarray(vectors), strict=True))
            if self._before_store is not None:
                self._guarded(partial(self._before_store, batch), "marking a batch failed")
            self._backend.store_vectors(pairs)
            if self._after_batch is not None:
                self._embed_ahead()
                self._guarded(
                    partial(self._after_batch, pairs),
                    "placing embedded messages in the hierarchy failed",
                )
        self.processed += len(batch)
        return len(batch)

    def _embed(self, batch: list[Message]) -> np.ndarray:
        return self._embedder().embed_array([self._text_of(m) for m in batch])

    def _embed_ahead(self) -> None:
        """Keep the next pending batches embedding while this one is placed.

        The model runs on threads of its own and a traced forward pass holds the GIL
        once, so placement (Python) and embedding overlap instead of taking turns. Two
        batches are kept in the making (the second only when full): with one, the model
        idled from the end of each batch until the worker had stored its vectors and
        queued the next, 5-12 % of an ingestion's time. Only vectors are made ahead;
        they are stored by a later pass, which checks that the same messages are still
        pending (see :meth:`_take_ahead`).
        """
        if len(self._ahead) >= AHEAD_BATCHES:
            return
        queued = {m.seq for early, _ in self._ahead for m in early}
        step = self._batch_size
        rows = [
            m for m in self._backend.pending_embeddings(step * AHEAD_BATCHES) if m.seq not in queued
        ]
        if self._ahead_thread is None:
            self._ahead_thread = ThreadPoolExecutor(
                AHEAD_BATCHES, thread_name_prefix="langgraph-memory-embed-ahead"
            )
        for start in range(0, step * (AHEAD_BATCHES - len(self._ahead)), step):
            part = rows[start : start + step]
            # a short batch only when nothing else is in the making: the messages still
            # to come join a later, fuller one
            if not part or (len(part) < step and self._ahead):
                break
            self._ahead.append((part, self._ahead_thread.submit(self._embed, part)))

    def _drop_ahead(self) -> None:
        for _, future in self._ahead:
            future.cancel()
        self._ahead = []

    def _take_ahead(self, batch: list[Message]) -> tuple[list[Message], np.ndarray]:
        """``batch`` and its vectors: the ones embedded ahead when they are the first of
        ``batch`` (a batch still pending as it was; messages that came since wait for
        the next pass), else ``batch`` embedded now (and whatever was in the making is
        dropped)."""
        if self._ahead:
            early, future = self._ahead[0]
            if [(m.seq, m.id) for m in batch[: len(early)]] == [(m.seq, m.id) for m in early]:
                del self._ahead[0]
                try:
                    return early, future.result()
                except Exception:  # embedded again below, where an error is reported
                    pass
            self._drop_ahead()
        return batch, self._embed(batch)

    def _claim_and_place(self) -> int:
        """One pass on a backend with ``concurrent_embedding``: embed a claimed batch
        outside the writer lease (other processes claim theirs meanwhile), then, holding
        the lease, place whatever is embedded. Returns messages embedded plus placed."""
        embedded = self._backend.embed_pending(self._batch_size, self._embed)
        self.processed += len(embedded)
        placed = 0
        with self._writer() as mine:
            if not mine:  # the lease holder places them
                self.skipped += 1
                return len(embedded)
            self._backend.index_pending()
            if self._place is not None:
                try:
                    placed = self._place()
                    self._place_failed = False
                except Exception:  # a hierarchy error never stops embedding
                    self._place_failed = True
                    log.exception("placing embedded messages in the hierarchy failed")
        return len(embedded) + placed

    def _drained(self) -> bool:
        """Nothing pending; with concurrent embedding, nothing unplaced either (unless
        this process's latest placement failed: it is retried, but not waited for)."""
        if self._backend.pending_embeddings(1):
            return False
        if self._concurrent and self._place is not None and not self._place_failed:
            return not self._backend.unplaced_messages(1)
        return True

    @staticmethod
    def _guarded(hook: Callable[[], object], what: str) -> None:
        try:
            hook()
        except Exception:  # a hierarchy error never stops embedding
            log.exception(what)

    def _run(self) -> None:
        while not self._stop:
            self._wake.wait(timeout=1.0)
            self._wake.clear()
            with self._idle:
                self._busy = True
            try:
                while not self._stop and self.run_once():
                    pass
                if not self._stop:
                    with self._writer() as mine:
                        if mine:
                            while self._backend.index_pending() and not self._stop:
                                yield_gil()
                            if self._on_idle is not None:
                                self._on_idle()
            except Exception as exc:  # keep the thread alive; flush() reports it
                if self.error is None or str(exc) != str(self.error):
                    log.exception("embedding worker failed")
                self.error = exc
                time.sleep(0.5)
            finally:
                with self._idle:
                    self._busy = False
                    self._idle.notify_all()

    def flush(self, timeout: float | None = None) -> None:
        """Block until no message is pending (and, with concurrent embedding, every
        embedded message is placed, by whichever process holds the writer lease).

        Raises:
            TimeoutError: When ``timeout`` seconds pass first.
            RuntimeError: When the worker failed (its error is the cause).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        self._flushing.set()
        try:
            self._wait_idle(deadline)
        finally:
            self._flushing.clear()

    def _wait_idle(self, deadline: float | None) -> None:
        while True:
            if self.error is not None:
                err, self.error = self.error, None
                raise RuntimeError(f"background embedding failed: {err}") from err
            with self._idle:
                busy = self._busy
                if not busy and self._drained():
                    return
                if busy:  # its pass ends with notify_all; waking it again would only
                    self._idle.wait(timeout=0.05)  # start another pass (a livelock)
            if not busy:
                self._wake.set()
                with self._idle:
                    self._idle.wait(timeout=0.05)
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError("flush() timed out with messages still pending")

    def stop(self) -> None:
        """Stop the thread (pending messages stay pending, for the next start)."""
        self._stop = True
        self._wake.set()
        self._thread.join(timeout=10)
        if self._ahead_thread is not None:
            self._ahead_thread.shutdown(wait=False, cancel_futures=True)
