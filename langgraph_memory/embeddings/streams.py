"""The model's streams: threads that run a network's batches, callers' before the
background worker's.

A call of the encoder cuts its texts into batches and hands them to the streams all at
once. In one first-in, first-out queue a read's batches (the long-term entries it
embeds) waited behind the background worker's windows of 512 texts: ``build_context``
took up to 1.2 s during an ingestion. Here batches queued from the library's background
threads (see :func:`~langgraph_memory.core.concurrency.mark_background`) run only when no
other caller's batch waits, so a caller waits only for the batches already running.
Within each of the two, first come, first served: the worker's own windows keep their
order (served by size instead, a smaller window overtook the one the worker waited for,
and the streams then idled).

The threads are a :class:`~concurrent.futures.ThreadPoolExecutor`'s, so they end as
its threads do (with the interpreter, after the batches queued, or when the streams are
dropped); each task it runs takes the first batch of the queue, whichever it is.

Example:
    >>> streams = Streams(2, "doc-stream")
    >>> [f.result() for f in streams.run([lambda: 1, lambda: 2])]
    [1, 2]
    >>> streams.shutdown()
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from langgraph_memory.core.concurrency import in_background

__all__ = ["Streams"]

_T = TypeVar("_T")


class Streams:
    """``workers`` threads running batches: callers' first, then the background's.

    Args:
        workers: Threads (each runs one batch at a time).
        name: Their name prefix (``"<name>_<i>"``).
    """

    def __init__(self, workers: int, name: str) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix=name)
        self._lock = threading.Lock()
        # (rank, order, batch, future): a heap, callers' (rank 0) first, then in order
        self._jobs: list[tuple[int, int, Callable[[], Any], Future[Any]]] = []
        self._order = itertools.count()

    def run(self, batches: Sequence[Callable[[], _T]]) -> list[Future[_T]]:
        """Queue one call's ``batches``; their futures, in order. Unless the calling
        thread is a background one, they go ahead of the background's batches."""
        rank = 1 if in_background() else 0
        futures: list[Future[_T]] = [Future() for _ in batches]
        with self._lock:
            for fn, future in zip(batches, futures, strict=True):
                heapq.heappush(self._jobs, (rank, next(self._order), fn, future))
        for _ in batches:  # one task per batch: each runs the first batch queued then
            self._pool.submit(self._run_first)
        return futures

    def _run_first(self) -> None:
        while True:
            with self._lock:
                if not self._jobs:  # taken by earlier tasks (after a cancelled batch)
                    return
                _, _, fn, future = heapq.heappop(self._jobs)
            if future.set_running_or_notify_cancel():
                break
        try:
            future.set_result(fn())
        except BaseException as exc:  # handed to the caller through the future
            future.set_exception(exc)

    def shutdown(self) -> None:
        """Stop the threads once the batches queued so far have run."""
        self._pool.shutdown(wait=False)
