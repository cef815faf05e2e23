"""The background writer: embeds stored messages off the caller's path.

The queue is durable by construction: it is the set of stored messages without
a vector, so messages accepted before a crash are embedded after a restart.

Two ways to drain it, chosen by the backend. Usually one process at a time embeds
and places: each batch is embedded, stored and placed in the hierarchy under the
writer lease. On a backend with a claim queue (PostgreSQL) embedding leaves the lease:
every process claims batches of its own (``ClaimQueue.embed_pending``) and embeds them
at once with the others, and only the hierarchy placement of what is embedded runs
under the lease, in one process at a time.

The worker meets the rest of the write path through two protocols: the
:class:`Placement` of what it embedded (the hierarchy) and the :class:`Housekeeping`
it runs when the queue is drained.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Protocol

import numpy as np

from langgraph_memory.core.concurrency import mark_background, yield_gil
from langgraph_memory.core.records import Message, index_text
from langgraph_memory.embeddings import EmbedderSource
from langgraph_memory.embeddings.cache import InvalidVectorsError
from langgraph_memory.storage.base import MemoryBackend
from langgraph_memory.storage.capabilities import ClaimQueue
from langgraph_memory.write.lease import Lease
from langgraph_memory.write.quarantine import PoisonMessages, Quarantine, describe

__all__ = ["EmbeddingWorker", "Placement", "Housekeeping"]

log = logging.getLogger(__name__)

#: Batches the worker keeps embedding ahead of the one it stores and places.
AHEAD_BATCHES = 2
#: Messages whose postings one pass writes at most (the rest: later passes, or idle).
INDEX_PER_PASS = 4096
#: Pending messages a flush for some users reads to find theirs (more pending than
#: this: it waits for the whole queue, as a plain flush does).
PEEK = 512


class Placement(Protocol):
    """Where the worker puts what it embedded: the memory hierarchy.

    Its errors are logged, never lost messages: a batch whose placement fails is
    embedded and stays searchable, and is placed again by the next replay.
    """

    def begin_batch(self, batch: Sequence[Message]) -> None:
        """Right before a batch's vectors are stored (under the lease)."""

    def on_embedded(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        """Place a batch just embedded and stored (under the lease)."""

    def replay(self, embed: Callable[[list[Message]], np.ndarray]) -> int:
        """Place what a crash or a failure left embedded but unplaced; cheap when there
        is nothing to do. Called before each batch, the first time on start."""
        ...

    def place_embedded(self, embed: Callable[[list[Message]], np.ndarray]) -> int:
        """With a claim queue: place whatever any process embedded; returns how many."""
        ...


class Housekeeping(Protocol):
    """Work the worker does when the queue is drained, under the lease."""

    def housekeeping(self) -> None:
        """Persist visits and accesses, run due promotions, expire sessions; never raises."""


class EmbeddingWorker:
    """A daemon thread that drains the store's pending messages in batches.

    Args:
        backend: Where messages and vectors live.
        embedder: Hands out the (cached) embedder; asked in the thread, so a slow model
            load happens off the caller's path.
        lease: Entered around each batch and housekeeping pass; yields whether this
            process may write now (the write lock and the store's writer lease). When it
            yields False, another process is draining the shared queue: the pass is
            skipped and retried at the next wake-up.
        batch_size: Messages per batch.
        placement: Where embedded batches go (see :class:`Placement`; errors are
            logged). Without a claim queue, its ``replay`` runs before each batch (the
            first time on start, and ``flush()`` waits for it), ``begin_batch`` right
            before a batch's vectors are stored and ``on_embedded`` after. With a claim
            queue (several processes embed at once) ``place_embedded`` runs after each
            claimed batch instead, and ``flush()`` waits for placement only while it
            succeeds.
        housekeeping: Run when the queue is drained (see :class:`Housekeeping`).
        linger_s: How long a short batch waits for more messages.
    """

    def __init__(
        self,
        backend: MemoryBackend,
        embedder: EmbedderSource,
        lease: Lease,
        *,
        batch_size: int,
        placement: Placement | None = None,
        housekeeping: Housekeeping | None = None,
        linger_s: float = 0.05,
    ) -> None:
        self._backend = backend
        self._embedder = embedder
        self._batch_size = batch_size
        self._lease = lease
        self._linger_s = linger_s
        self._placement = placement
        self._housekeeping = housekeeping
        self._claims = backend if isinstance(backend, ClaimQueue) else None
        self.quarantine = Quarantine(backend)
        self._place_failed = False  # the latest placement raised (flush stops waiting for it)
        self._flushing = threading.Event()
        self._wake = threading.Event()
        self._idle = threading.Condition()
        # until the first pass has replayed (or placed)
        self._busy = placement is not None
        self._ready = False  # a first pass has ended (what a crash left is replayed)
        #: Users of the batch whose vectors are being stored and placed (no longer
        #: pending, not placed yet: a flush for them waits).
        self._placing: frozenset[str] = frozenset()
        self._stop = False
        # The next batches and their vectors in the making, in order (see _embed_ahead).
        self._ahead: list[tuple[list[Message], Future[np.ndarray]]] = []
        self._ahead_thread: ThreadPoolExecutor | None = None
        self.error: BaseException | None = None
        self._passes = 0  # passes begun
        self._error_pass = 0  # the pass that set ``error``
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
        try:
            if self._claims is not None:
                return self._claim_and_place(self._claims)
            return self._embed_and_place()
        except PoisonMessages as poison:
            n = self.quarantine.add(poison.failures)
            log.warning(
                "quarantined %d message(s) the embedder fails on (see failed_messages())", n
            )
            return max(n, 1)

    def _embed_and_place(self) -> int:
        """One pass without a claim queue: under the lease, replay, embed a batch (or take
        the one embedded ahead), store its vectors and place it."""
        with self._lease.hold() as mine:
            if not mine:
                self.skipped += 1
                return 0
            # postings of what was stored before this pass, in the backend's bounded
            # transactions (add_message gets in between); the idle pass does the rest
            self._backend.index_pending(INDEX_PER_PASS)
            placement = self._placement
            if placement is not None:
                self._guarded(
                    partial(placement.replay, self._embed), "replaying hierarchy placement failed"
                )
            batch = self._backend.pending_embeddings(self._batch_size)
            if not batch:
                self._drop_ahead()
                return 0
            batch, vectors = self._take_ahead(batch)
            pairs = list(zip(batch, np.asarray(vectors), strict=True))
            if placement is not None:
                self._guarded(partial(placement.begin_batch, batch), "marking a batch failed")
            self._placing = frozenset(m.user_id for m in batch)  # before they leave the queue
            try:
                self._backend.store_vectors(pairs)
                self._cache(pairs)
                if placement is not None:
                    self._embed_ahead()
                    self._guarded(
                        partial(placement.on_embedded, pairs),
                        "placing embedded messages in the hierarchy failed",
                    )
            finally:
                self._placing = frozenset()
        self.processed += len(batch)
        return len(batch)

    def _embed(self, batch: list[Message], persist: bool = True) -> np.ndarray:
        """The batch's vectors; ``persist`` also reads and fills the store's embedding
        cache (the worker's own batches do not: :meth:`_cache` keeps them once stored).

        Raises:
            PoisonMessages: When some messages fail on their own (the embedder raises on
                them, or gives NaN) while a probe text embeds fine.
        """
        embedder = self._embedder.get()
        try:
            vectors = np.asarray(
                embedder.embed_array([index_text(m) for m in batch], persist=persist)
            )
        except InvalidVectorsError as exc:  # these texts fail, unless the model is down
            if len(exc.errors) == len(batch) and not self._model_up():
                raise
            raise PoisonMessages(
                [(batch[i], f"InvalidVectorsError: {why}") for i, why in exc.errors.items()]
            ) from exc
        except Exception as exc:
            failures = self._isolate(batch, persist)
            if failures:
                raise PoisonMessages(failures) from exc
            raise
        return vectors

    def _model_up(self) -> bool:
        """Whether the model itself (past the cache) gives a usable vector of a probe
        text: when it does not, the model is down, not the messages."""
        return not isinstance(self._embedder.get().probe(), str)

    def _isolate(self, batch: list[Message], persist: bool) -> list[tuple[Message, str]]:
        """The messages of a failed batch that fail alone, with their errors; none when
        the embedder fails on a probe text too (it is down, not the messages)."""
        if not self._model_up():
            return []
        embedder = self._embedder.get()
        failures: list[tuple[Message, str]] = []
        for msg in batch:
            try:
                embedder.embed_array([index_text(msg)], persist=persist)
            except Exception as exc:
                failures.append((msg, describe(exc)))
        return failures

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
                AHEAD_BATCHES,
                thread_name_prefix="langgraph-memory-embed-ahead",
                initializer=mark_background,  # the model serves callers first
            )
        for start in range(0, step * (AHEAD_BATCHES - len(self._ahead)), step):
            part = rows[start : start + step]
            # a short batch only when nothing else is in the making (the messages still
            # to come join a later, fuller one) or a flush waits for the last of them
            if not part or (len(part) < step and self._ahead and not self._flushing.is_set()):
                break
            future = self._ahead_thread.submit(self._embed, part, False)
            self._ahead.append((part, future))

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
        return batch, self._embed(batch, False)

    def _cache(self, pairs: list[tuple[Message, np.ndarray]]) -> None:
        """Keep the vectors of a stored batch in the store's embedding cache. Written here,
        by the pass that stores them under the writer lease, not where they were embedded
        (ahead, outside it): a user deleted meanwhile leaves no cache rows."""
        embedder = self._embedder.get()
        if embedder.store_put is not None:
            embedder.store_put(
                embedder.model_id,
                {embedder.content_hash(index_text(m)): vec for m, vec in pairs},
            )

    def _claim_and_place(self, claims: ClaimQueue) -> int:
        """One pass on a backend with a claim queue: embed a claimed batch
        outside the writer lease (other processes claim theirs meanwhile), then, holding
        the lease, place whatever is embedded. Returns messages embedded plus placed."""
        embedded = claims.embed_pending(self._batch_size, self._embed)
        self.processed += len(embedded)
        placed = 0
        with self._lease.hold() as mine:
            if not mine:  # the lease holder places them
                self.skipped += 1
                return len(embedded)
            self._backend.index_pending()
            if self._placement is not None:
                try:
                    placed = self._placement.place_embedded(self._embed)
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
        claims = self._claims
        if claims is not None and self._placement is not None and not self._place_failed:
            return not claims.unplaced_messages(1)
        return True

    @staticmethod
    def _guarded(hook: Callable[[], object], what: str) -> None:
        try:
            hook()
        except Exception:  # a hierarchy error never stops embedding
            log.exception(what)

    def _run(self) -> None:
        mark_background()  # the model's streams serve callers' batches first
        while not self._stop:
            self._wake.wait(timeout=1.0)
            self._wake.clear()
            with self._idle:
                self._busy = True
                self._passes += 1
            try:
                while not self._stop and self.run_once():
                    pass
                if not self._stop:
                    with self._lease.hold() as mine:
                        if mine:
                            while self._backend.index_pending() and not self._stop:
                                yield_gil()
                            if self._housekeeping is not None:
                                self._housekeeping.housekeeping()
                self.error = None  # a pass that works: an earlier failure is over
            except Exception as exc:  # keep the thread alive; flush() reports it
                if self.error is None or str(exc) != str(self.error):
                    log.exception("embedding worker failed")
                self.error, self._error_pass = exc, self._passes
                time.sleep(0.5)
            finally:
                with self._idle:
                    self._busy = False
                    self._ready = True
                    self._idle.notify_all()

    def flush(self, timeout: float | None = None, user_ids: frozenset[str] | None = None) -> None:
        """Block until no message is pending (and, with concurrent embedding, every
        embedded message is placed, by whichever process holds the writer lease).

        With ``user_ids``, only until the messages of those users pending now are
        embedded and placed: messages of other users, and any accepted later, are not
        waited for. When more than :data:`PEEK` messages are pending, theirs cannot be
        told apart cheaply, and it waits for the whole queue.

        Raises:
            TimeoutError: When ``timeout`` seconds pass first.
            RuntimeError: When the worker failed (its error is the cause).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        self._flushing.set()
        try:
            done = None if user_ids is None else self._users_done(user_ids)
            self._wait_idle(deadline, self._passes, done)
        finally:
            self._flushing.clear()

    def _users_done(self, user_ids: frozenset[str]) -> Callable[[], bool] | None:
        """Whether the messages of ``user_ids`` pending now are embedded and placed, as a
        check to call again; ``None`` when the queue is too long to tell (wait for all).

        The queue is drained oldest first, so their messages pending now stay among the
        first :data:`PEEK` pending until they leave it. A batch leaves it only after its
        users are in ``_placing``, and leaves that once placed: the queue is read first,
        then ``_placing``, so no message of theirs is missed between the two. With a
        claim queue, placement follows in whichever process holds the writer lease:
        their embedded messages not yet placed are waited for as well (all of them,
        while this process's placement works, as :meth:`_drained` does).
        """
        pending = self._backend.pending_embeddings(PEEK)
        if len(pending) >= PEEK:
            return None
        last = max((m.seq for m in pending if m.user_id in user_ids), default=0)
        claims = self._claims if self._placement is not None else None

        def done() -> bool:
            if not self._ready:  # the first pass replays what a crash left unplaced
                return False
            queue = self._backend.pending_embeddings(PEEK)
            if any(m.user_id in user_ids and m.seq <= last for m in queue):
                return False
            if self._placing & user_ids:
                return False
            if claims is not None and not self._place_failed:
                unplaced = claims.unplaced_messages(PEEK)
                if len(unplaced) >= PEEK or any(m.user_id in user_ids for m in unplaced):
                    return False
            return True

        return done

    def _wait_idle(
        self, deadline: float | None, since: int, done: Callable[[], bool] | None = None
    ) -> None:
        """Wait until drained (or until ``done()``); raise the error of a pass that began
        after pass ``since`` (an older one may be over: a new pass is asked for, and its
        error, if any, is raised)."""
        while True:
            err = self.error
            if err is not None and self._error_pass > since:
                self.error = None
                raise RuntimeError(f"background embedding failed: {err}") from err
            if done is not None and done():
                return
            with self._idle:
                busy = self._busy
                if done is None and not busy and self._drained():
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
