"""The open mark: a SQLite store's main file says whether a process has the store open,
so a main file copied without its write-ahead log is refused instead of opening at its
last checkpoint.

While a process has the store open, its latest writes may be in the log only; SQLite folds them into
the main file at checkpoints, and on the last connection's close before it deletes the log. So on
open, the header's ``user_version`` is set to the file's mark
(:func:`~langgraph_memory.storage.sqlite.health.mark_of`, from its inode number) and checkpointed
into the main file; the last connection to close sets it back to 0
(:data:`~langgraph_memory.storage.sqlite.health.CLOSED`).
:func:`~langgraph_memory.storage.sqlite.health.check_open_mark` refuses a main file carrying another
file's mark with neither ``-wal`` nor ``-shm`` beside it.

Which connection is the last: each holds a shared ``flock`` on ``<database>.open``
while it is open; closing, one that then gets the lock exclusively is the only
connection of this library left (in this process or another) and clears the mark.
Outcomes:

- a crash (``kill -9``, power loss): the log stays on disk, so nothing is refused;
- a connection closed while another is open leaves the mark: a main file copied alone
  from the one still open is refused;
- a store left open at exit (no ``close()``) is closed through a finalizer, which clears
  the mark when it is the last;
- another program's connection (the ``sqlite3`` shell, an older release) does not count:
  the mark can be cleared while it has the store open (a copy of the main file alone made
  then opens short, as before), and when such a program is the last to close, the mark
  stays. The file itself still opens (it carries its own mark), but a copy of it made
  later is refused until opened once with ``integrity="never"``;
- where ``flock`` is missing (Windows), every close clears the mark: a copy made while
  another connection still has the store open is not detected.

Example:
    >>> import sqlite3, tempfile, pathlib, threading
    >>> from langgraph_memory.storage.sqlite.health import main_mark, mark_of
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "memory.sqlite3"
    >>> conn = sqlite3.connect(f, isolation_level=None)
    >>> conn.execute("PRAGMA journal_mode=WAL").fetchone()
    ('wal',)
    >>> mark = OpenMark(f)
    >>> mark.hold()
    >>> mark.set(conn)
    >>> main_mark(f, None) == mark_of(f)  # in the main file, not only in the log
    True
    >>> mark.release(conn, threading.RLock())
    >>> conn.close()
    >>> main_mark(f, None)
    0
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from langgraph_memory.core.files import PRIVATE, open_file
from langgraph_memory.storage.sqlite.health import CLOSED, mark_of

__all__ = ["OpenMark"]

log = logging.getLogger(__name__)

#: Longest wait for a closing connection's exclusive lock, and for the connection.
_WAIT_S = 30.0


class OpenMark:
    """The open mark kept by one connection to ``file`` (see the module docs).

    Args:
        file: The store's main file.
        file_mode: The mode of the lock file if it is created.
    """

    def __init__(self, file: Path, file_mode: int = PRIVATE) -> None:
        self.file = file
        self.file_mode = file_mode
        self.lock_file = file.with_name(file.name + ".open")
        self._fd: int | None = None

    def hold(self) -> None:
        """Take the shared lock that counts this connection as open (waiting while a
        closing connection holds it exclusively). Without ``flock`` (Windows, or a file
        system without it), or when the lock file cannot be written, nothing is held and
        every close clears the mark."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            return
        try:
            fd = open_file(self.lock_file, self.file_mode)
        except OSError:
            return
        deadline = time.monotonic() + _WAIT_S
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() < deadline:
                    time.sleep(0.01)
                    continue
            except OSError:  # a file system without flock
                pass
            os.close(fd)
            return
        self._fd = fd

    def set(self, conn: Any) -> None:
        """Record in the main file that the store is open: the mark in the header, then a
        ``PASSIVE`` checkpoint (it waits for no reader; a reader of another process on an
        older snapshot leaves the mark in the log until the next checkpoint)."""
        value = mark_of(self.file)
        if conn.execute("PRAGMA user_version").fetchone()[0] != value:
            conn.execute(f"PRAGMA user_version = {value}")
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def _alone(self) -> bool:
        """Whether no other connection of this library holds the store open: the shared
        lock is given up, then taken exclusively if no one else holds it. Of two
        connections closing at once, at least one finds itself alone (each lets go of
        its own lock before it asks)."""
        if self._fd is None:
            return True
        import fcntl

        fcntl.flock(self._fd, fcntl.LOCK_UN)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def release(self, conn: Any, lock: threading.RLock) -> None:
        """Clear the mark when this is the last connection of this library to the store,
        then let go of the lock file; the caller closes ``conn`` afterwards. Never
        raises: a mark left set only makes a later copy of the main file alone refuse.

        Args:
            conn: The connection (open; not in a transaction, else the mark stays).
            lock: The lock its users hold while they use it.
        """
        if not lock.acquire(timeout=_WAIT_S):
            self._drop()
            return
        try:
            if self._alone() and not conn.in_transaction:
                conn.execute(f"PRAGMA user_version = {CLOSED}")
        except Exception as exc:  # the driver's errors: the mark stays, as after a crash
            log.warning("could not clear the open mark of %s: %s", self.file, exc)
        finally:
            lock.release()
            self._drop()

    def _drop(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)
