"""The model's streams: threads that run a network's batches, callers' before the
background worker's.

A call of the encoder cuts its texts into batches and hands them to the streams all at
once. In one first-in, first-out queue a read's batches (the long-term entries it
embeds) waited behind the background worker's windows of 512 texts: ``build_context``
took up to 1.2 s during an ingestion. Here batches queued from the library's background
threads (see :func:`~langgraph_memory.concurrency.mark_background`) run only when no
other caller's batch waits, so a caller waits only for the batches already running.
Within each of the two, first come, first served: the worker's own windows keep their
order (served by size instead, a smaller window overtook the one the worker waited for,
and the streams then idled).

Example:
    >>> streams = Streams(2, "doc-stream")
    >>> [f.result() for f in streams.run([lambda: 1, lambda: 2])]
    [1, 2]
    >>> streams.shutdown()
"""

from __future__ import annotations

import itertools
import queue
import threading
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TypeVar

from ..concurrency import in_background

__all__ = ["Streams"]

_T = TypeVar("_T")
_Job = tuple[int, int, "Callable[[], object] | None", "Future[object] | None"]


class Streams:
    """``workers`` threads running batches: callers' first, then the background's.

    Args:
        workers: Threads (each runs one batch at a time).
        name: Their name prefix (``"<name>_<i>"``).
    """

    def __init__(self, workers: int, name: str) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self._jobs: queue.PriorityQueue[_Job] = queue.PriorityQueue()
        self._order = itertools.count()
        self._threads = [
            threading.Thread(target=_serve, args=(self._jobs,), name=f"{name}_{i}", daemon=True)
            for i in range(workers)
        ]
        for thread in self._threads:
            thread.start()
        # An encoder dropped without shutdown() lets its threads go too.
        self._stop = weakref.finalize(self, _stop, self._jobs, workers)

    def run(self, batches: Sequence[Callable[[], _T]]) -> list[Future[_T]]:
        """Queue one call's ``batches``; their futures, in order. Unless the calling
        thread is a background one, they go ahead of the background's batches."""
        rank = 1 if in_background() else 0
        futures: list[Future[_T]] = []
        for fn in batches:
            future: Future[_T] = Future()
            self._jobs.put((rank, next(self._order), fn, future))  # type: ignore[arg-type]
            futures.append(future)
        return futures

    def shutdown(self) -> None:
        """Stop the threads once the batches queued so far have run."""
        self._stop()


def _stop(jobs: queue.PriorityQueue[_Job], workers: int) -> None:
    # After every batch queued so far: one stop per thread.
    for i in range(workers):
        jobs.put((1 << 62, i, None, None))


def _serve(jobs: queue.PriorityQueue[_Job]) -> None:
    while True:
        _, _, fn, future = jobs.get()
        if fn is None or future is None:
            return
        if not future.set_running_or_notify_cancel():
            continue
        try:
            future.set_result(fn())
        except BaseException as exc:  # handed to the caller through the future
            future.set_exception(exc)
