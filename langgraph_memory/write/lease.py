"""Who may write now: the process's write lock and the store's writer lease.

The memory hierarchy is written by one process at a time, inside the store's writer
lease (a file lock on SQLite, an advisory lock on PostgreSQL; a store one process
owns is always leased). :meth:`Writer.hold` takes the write lock and, in the
outermost hold, the lease, and tells the hierarchy when a hold begins and ends
(it reloads what other processes changed meanwhile, and publishes what this hold
changed).

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> writer = Writer(InMemoryBackend())
    >>> with writer.hold() as mine:
    ...     with writer.hold() as again:  # re-entrant in this process
    ...         mine, again
    (True, True)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Protocol

from langgraph_memory.storage.capabilities import WriterLease

__all__ = ["Writer", "HoldListener", "Lease"]


class HoldListener(Protocol):
    """Told when this process begins and ends holding the writer lease."""

    def begin_hold(self) -> None:
        """The lease was just taken."""

    def end_hold(self) -> None:
        """The lease is about to be released."""


class Lease(Protocol):
    """Anything that says whether this process may write now."""

    def hold(self, wait: float = 0.0) -> AbstractContextManager[bool]:
        """Enter to write; yields whether this process may (see :meth:`Writer.hold`)."""
        ...


class Writer:
    """The write lock of this process and the writer lease of the store.

    Args:
        store: The store; its writer lease is used when it offers one.
        listener: Told when a hold of the lease begins and ends (the hierarchy).
    """

    def __init__(self, store: object, listener: HoldListener | None = None) -> None:
        self._lease = store if isinstance(store, WriterLease) else None
        self.listener = listener
        #: The write lock: held by every write of the worker and of maintenance.
        self.lock = threading.RLock()
        self._depth = 0  # nested holds inside this process

    @contextmanager
    def hold(self, wait: float = 0.0) -> Iterator[bool]:
        """Hold the write lock and the store's writer lease; yields whether this process
        may write the hierarchy now (False: another process holds the lease).

        Re-entrant in this process; only the outermost hold takes the lease.

        Args:
            wait: Seconds to keep trying while another process holds the lease.
        """
        deadline = time.monotonic() + wait
        while True:
            with self.lock:
                if self._depth:
                    self._depth += 1
                    try:
                        yield True
                    finally:
                        self._depth -= 1
                    return
                lease = self._lease.writer_lease() if self._lease is not None else nullcontext(True)
                with lease as held:
                    if held:
                        with self._held():
                            yield True
                        return
                    if time.monotonic() >= deadline:
                        yield False
                        return
            time.sleep(0.05)  # the write lock is free meanwhile

    @contextmanager
    def _held(self) -> Iterator[None]:
        self._depth = 1
        if self.listener is not None:
            self.listener.begin_hold()
        try:
            yield
        finally:
            self._depth = 0
            if self.listener is not None:
                self.listener.end_hold()
