"""Whether a manager is still open, and what releases it when it is dropped unclosed.

The manager and every part check the :class:`Lifetime` on each call. The manager hands
it the closers of its threads and store (:meth:`Lifetime.release_on_drop`): when the
lifetime is garbage collected (the manager and every part of it, ``mm.tasks`` and its
kin, are unreachable), a :func:`weakref.finalize` runs them, so a manager dropped
without ``close()`` does not keep its worker thread, its thread pools, its
connections and their file descriptors for the rest of the process. Only the
manager and its parts hold the lifetime; the background threads and the closers do
not, so they never keep it (nor the manager) alive.

Example:
    >>> life = Lifetime()
    >>> life.check(); life.close(); life.closed
    True
    >>> released = []
    >>> life = Lifetime()
    >>> life.release_on_drop(lambda: released.append("worker"), lambda: released.append("store"))
    >>> del life  # dropped without close(): the closers run
    >>> released
    ['worker', 'store']
"""

from __future__ import annotations

import logging
import sys
import threading
import weakref
from collections.abc import Callable

__all__ = ["Lifetime", "LIBRARY_THREADS"]

log = logging.getLogger(__name__)

#: The prefix of the names of the library's own threads (the embedding worker, the
#: search pools): closers run there could join the very thread they run on.
LIBRARY_THREADS = "langgraph-memory"

#: What releases a manager: its closers, in order.
Closers = tuple[Callable[[], object], ...]


class Lifetime:
    """Whether a manager is still open: every call of it and of its parts checks.

    Example:
        >>> life = Lifetime()
        >>> life.check(); life.close(); life.closed
        True
    """

    def __init__(self) -> None:
        self.closed = False
        self._finalizer: weakref.finalize[[Closers], Lifetime] | None = None

    def release_on_drop(self, *closers: Callable[[], object]) -> None:
        """Run ``closers``, in order, when this lifetime is collected before :meth:`close`.

        The closers must not refer to this lifetime, nor to anything holding it (the
        manager, its parts): the finaliser keeps them alive, and through them it would
        keep the lifetime alive forever. They are never run at interpreter exit (the
        process's end releases everything; accepted messages are already in the store);
        one that raises is logged and the next still runs.
        """
        if self._finalizer is not None:
            raise RuntimeError("release_on_drop was already called on this lifetime")
        self._finalizer = weakref.finalize(self, _release, closers)
        self._finalizer.atexit = False

    def close(self) -> None:
        """Mark the manager closed; the closers handed to :meth:`release_on_drop` are
        left to the caller (who closes explicitly, in its own order)."""
        self.closed = True
        if self._finalizer is not None:
            self._finalizer.detach()

    def check(self) -> None:
        """Raise when the manager is closed.

        Raises:
            RuntimeError: When it is.
        """
        if self.closed:
            raise RuntimeError("this MemoryManager is closed")


def _release(closers: Closers) -> None:
    """The finaliser: run the closers here, or, on one of the library's own threads
    (a collection can start on any thread), on a thread of their own, since stopping
    the worker or a pool joins its threads. Never raises."""
    try:
        if sys.is_finalizing():
            return
        if threading.current_thread().name.startswith(LIBRARY_THREADS):
            name = f"{LIBRARY_THREADS}-release"
            threading.Thread(target=_run, args=(closers,), name=name, daemon=True).start()
        else:
            _run(closers)
    except Exception:  # a finaliser must not raise (it would be printed and ignored)
        log.debug("releasing a dropped memory failed", exc_info=True)


def _run(closers: Closers) -> None:
    for close in closers:
        try:
            close()
        except Exception:
            log.warning("releasing a dropped memory: %r failed", close, exc_info=True)
