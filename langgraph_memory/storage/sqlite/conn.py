"""The connection of :class:`~langgraph_memory.storage.sqlite.backend.SQLiteBackend`: the file,
its pragmas, transactions, migrations and the writer lease."""

from __future__ import annotations

import functools
import os
import sqlite3
import threading
import time
import weakref
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from langgraph_memory.core.files import PRIVATE, check_file_mode, make_dirs, open_file
from langgraph_memory.storage.sqlite.backup import message_count, write_backup
from langgraph_memory.storage.sqlite.health import (
    Integrity,
    check_files,
    check_open_mark,
    check_wal,
    connect,
    damaged,
    quick_check,
)
from langgraph_memory.storage.sqlite.openmark import OpenMark
from langgraph_memory.storage.sqlite.sql import MIGRATIONS

__all__ = ["SQLiteConnection"]

_OPEN_TIMEOUT_S = 30.0


def _retry_locked(step: Callable[[], object], timeout: float = _OPEN_TIMEOUT_S) -> None:
    """Run ``step`` again while SQLite says "database is locked", up to ``timeout``.

    Switching a new file to WAL takes an exclusive lock, and SQLite answers a second
    process opening the same fresh file at that moment with ``SQLITE_BUSY`` at once,
    without calling the busy handler (processes starting together on one new store).
    """
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        try:
            step()
            return
        except Exception as exc:  # the driver's OperationalError (SQLite's or SQLCipher's)
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.2)


class _OpenHere:
    """The stores this process has open, by their main file's device and inode.

    The checks before connecting read the store's files with plain reads, and closing a
    file drops every POSIX lock the process holds on it, SQLite's included (its shared
    lock on the main file, its locks on the ``-shm``): another process could then take
    the store for closed and fold and delete its log under us. So only a process's first
    connection to a store checks its files (under :attr:`lock`, until it is connected);
    later ones open what it checked.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._count: Counter[tuple[int, int]] = Counter()

    @staticmethod
    def _key(file: Path) -> tuple[int, int] | None:
        try:
            st = file.stat()
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def has(self, file: Path) -> bool:
        """Whether a connection of this process has ``file`` open (hold :attr:`lock`)."""
        key = self._key(file)
        return key is not None and self._count[key] > 0

    def add(self, file: Path) -> tuple[int, int] | None:
        """Count a connection to ``file`` (hold :attr:`lock`); returns its key."""
        key = self._key(file)
        if key is not None:
            self._count[key] += 1
        return key

    def remove(self, key: tuple[int, int] | None) -> None:
        with self.lock:
            if key is not None:
                self._count[key] -= 1
                if self._count[key] <= 0:
                    del self._count[key]


_HERE = _OpenHere()


#: ``"normal"``: a commit survives the process dying; ``"full"``: also power loss.
Synchronous = Literal["normal", "full"]


class SQLiteConnection:
    """One connection to ``<path>/memory.sqlite3`` (or an explicit ``.sqlite3``/``.db``
    file) in WAL mode, shared by the threads of a process under a lock.

    Durability of a commit (``add_message`` has returned, the message is accepted):

    - the process is killed or crashes: nothing committed is lost, with either
      ``synchronous`` setting (SQLite has written the commit to the write-ahead log
      before it returns; the operating system keeps it);
    - the machine loses power or the OS crashes: with ``synchronous="full"`` nothing
      committed is lost (the log is synced at every commit, if the disk honours
      ``fsync``). With ``"normal"`` (default, faster commits) the log is synced only
      when it is checkpointed, so the commits since the last checkpoint can be lost.
      That window is bounded: a checkpoint runs once the log holds
      ``checkpoint_pages`` pages, and the memory's worker runs one when
      ``checkpoint_seconds`` have passed since the last (:meth:`checkpoint`).

    Args:
        path: A directory (created if needed) or a database file path.
        integrity: When the file's pages are checked on open (``PRAGMA quick_check``):
            ``"auto"`` when the last process did not close it cleanly or the file is opened
            here for the first time (a copy, a restored backup: no ``.open`` lock file beside
            it yet), ``"always"``, ``"never"``.
            Its files are checked first whatever this says, by a process's first connection to
            the store (see :mod:`.health`), except that ``"never"`` also accepts a
            main file whose header says a process had it open with no log beside it (a whole copy
            made by another tool; see :mod:`~langgraph_memory.storage.sqlite.openmark`), and a
            write-ahead log damaged before its last commit (read as SQLite reads it: up to the
            damage).
        encryption_key: Encrypt the file with SQLCipher under this passphrase
            (``pip install 'langgraph-memory[encrypt]'``); the write-ahead log and the
            backups are encrypted too.
        synchronous: ``"normal"`` (default) or ``"full"`` (see above).
        checkpoint_pages: Pages of write-ahead log after which a commit checkpoints it
            (SQLite's ``wal_autocheckpoint``; 4 KiB pages: 10,000 is ~40 MB). The log
            file stays near this size: a checkpoint lets the next commit write it again
            from its start, and ``journal_size_limit`` (64 MiB) truncates a larger one.
        checkpoint_seconds: Longest time between checkpoints while commits arrive
            (run by :meth:`checkpoint`, which the memory's worker calls when idle).
        file_mode: The mode of the files it creates: the store, its ``-wal`` and ``-shm``,
            its lock files, its backups (default ``0o600``, the owner only; ``0o640`` lets
            the group read), and of the directories it creates (the same bits plus search
            where they read: ``0o700``, ``0o750``). Files that exist keep their mode.

    Raises:
        StoreDamagedError: When the store's files are damaged or incomplete (it is not
            opened and nothing changes).
        PermissionError: When the store's file or directory is read-only.
        ValueError: When the file cannot be read with the key given (or without one).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        integrity: Integrity = "auto",
        encryption_key: str | None = None,
        synchronous: Synchronous = "normal",
        checkpoint_pages: int = 10_000,
        checkpoint_seconds: float = 30.0,
        file_mode: int = PRIVATE,
    ) -> None:
        self._mode = check_file_mode(file_mode)
        if integrity not in ("auto", "always", "never"):
            raise ValueError(f"integrity must be 'auto', 'always' or 'never', got {integrity!r}")
        if synchronous not in ("normal", "full"):
            raise ValueError(f"synchronous must be 'normal' or 'full', got {synchronous!r}")
        if isinstance(checkpoint_pages, bool) or not isinstance(checkpoint_pages, int):
            raise TypeError("checkpoint_pages must be an int")
        if checkpoint_pages < 1:
            raise ValueError("checkpoint_pages must be >= 1")
        if not isinstance(checkpoint_seconds, (int, float)) or not checkpoint_seconds > 0:
            raise ValueError("checkpoint_seconds must be a number > 0")
        if encryption_key is not None and not (isinstance(encryption_key, str) and encryption_key):
            raise ValueError("encryption_key must be a non-empty str")
        p = Path(path).expanduser()
        if p.suffix in (".sqlite3", ".sqlite", ".db"):
            make_dirs(p.parent, self._mode)
            self.file = p
        else:
            if p.exists() and not p.is_dir():
                raise ValueError(f"memory path {p} exists and is not a directory")
            make_dirs(p, self._mode)
            self.file = p / "memory.sqlite3"
        self._lock = threading.RLock()
        self._lease_file = self.file.with_name(self.file.name + ".writer")
        self._lease_fd: int | None = None
        unclean = arrived = False
        self._key = encryption_key
        with _HERE.lock:  # files read by a process's first connection only (see _OpenHere)
            if not _HERE.has(self.file):
                unclean = check_files(self.file)
                # a file arriving here (a copy, a restored backup) has no open mark's lock
                # file beside it yet: checked once, like a store not closed cleanly
                arrived = self.file.exists() and not OpenMark(self.file).lock_file.exists()
                if integrity != "never":
                    check_wal(self.file)
                    check_open_mark(self.file, encryption_key)
            self._conn = connect(self.file, encryption_key, file_mode=self._mode)
            self._forget = weakref.finalize(self, _HERE.remove, _HERE.add(self.file))
        self._release_mark: Callable[[], object] = lambda: None
        try:
            if integrity == "always" or (integrity == "auto" and (unclean or arrived)):
                quick_check(self._conn, self.file)
            self._configure(synchronous, checkpoint_pages)
        except BaseException as exc:
            self._release_mark()
            self._conn.close()  # now, not when collected: closing deletes the log by name
            self._forget()
            error = damaged(self.file, exc)
            if error is None:
                raise
            raise error from exc
        # This connection's count of write transactions touching messages or vectors
        # (see _file_version).
        self._writes = 0
        self._closed = False
        self._checkpoint_s = float(checkpoint_seconds)
        self._commits = 0  # commits since the last checkpoint this connection ran
        self._grouped = 0  # depth of grouped_writes scopes (held by the thread in them)
        self._seen_version = 0  # PRAGMA data_version then (moves on others' commits)
        self._checkpointed = time.monotonic()

    def _configure(self, synchronous: Synchronous, checkpoint_pages: int) -> None:
        """Set the connection's pragmas and the store's open mark."""
        for pragma in (
            "journal_mode=WAL",
            f"synchronous={synchronous.upper()}",
            "busy_timeout=30000",
            "secure_delete=ON",
            "temp_store=MEMORY",
            # Default: a checkpoint every ~40 MB of WAL, not every 4 MB: each checkpoint
            # syncs the file, and pages rewritten by many commits (index leaves,
            # user_stats) are copied once. add_message's commit cost fell by ~40 % at
            # 6,000 messages.
            f"wal_autocheckpoint={checkpoint_pages}",
            "journal_size_limit=67108864",
        ):
            _retry_locked(functools.partial(self._conn.execute, f"PRAGMA {pragma}"))
        mark = OpenMark(self.file, self._mode)
        mark.hold()
        # close() runs it; so does the collector, or the exit, for a store left open
        self._release_mark = weakref.finalize(self, mark.release, self._conn, self._lock)
        _retry_locked(functools.partial(mark.set, self._conn))

    # -- plumbing -------------------------------------------------------------------------
    @contextmanager
    def _tx(self, *, messages: bool = True) -> Iterator[sqlite3.Connection]:
        """A write transaction; ``messages=False`` for one that leaves messages, postings
        and vectors alone (records, meta, the embedding cache): it does not make the
        cached vector matrices and posting lists check the file again. Within
        :meth:`grouped_writes` it is a savepoint of the group's transaction."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the memory backend is closed")
            if self._grouped:
                with self._savepoint(messages) as c:
                    yield c
                return
            self._conn.execute("BEGIN IMMEDIATE")
            if messages:
                self._writes += 1
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            self._commits += 1

    @contextmanager
    def _savepoint(self, messages: bool) -> Iterator[sqlite3.Connection]:
        """One write of a group: undone alone when it fails (caller holds the lock)."""
        if not self._conn.in_transaction:
            self._conn.execute("BEGIN IMMEDIATE")
        if messages:
            self._writes += 1
        self._conn.execute("SAVEPOINT lgm_write")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK TO lgm_write")
            self._conn.execute("RELEASE lgm_write")
            raise
        self._conn.execute("RELEASE lgm_write")

    @contextmanager
    def grouped_writes(self) -> Iterator[None]:
        """Commit the writes of this thread within the scope once, when it ends (see
        :class:`~langgraph_memory.storage.capabilities.GroupedWrites`); each write is a savepoint,
        undone alone when it fails. The scope holds the connection: other threads wait for it.

        Example:
            >>> import tempfile
            >>> from langgraph_memory.storage import SQLiteBackend
            >>> b = SQLiteBackend(tempfile.mkdtemp())
            >>> with b.grouped_writes():
            ...     b.set_meta("a", "1")
            ...     b.set_meta("b", "2")
            >>> b.get_meta("a"), b.get_meta("b")
            ('1', '2')
            >>> b.close()
        """
        with self._lock:
            self._grouped += 1
            try:
                yield
            finally:
                self._grouped -= 1
                if not self._grouped and self._conn.in_transaction:
                    self._conn.execute("COMMIT")
                    self._commits += 1

    @contextmanager
    def _snapshot(self) -> Iterator[sqlite3.Connection]:
        """One read snapshot for several statements, under the lock (within
        :meth:`grouped_writes`, the group's own transaction)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the memory backend is closed")
            if self._conn.in_transaction:
                yield self._conn
                return
            self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                self._conn.execute("COMMIT")

    def checkpoint(self, *, force: bool = False) -> bool:
        """Checkpoint the write-ahead log (``PASSIVE``: it waits for no reader) when
        ``checkpoint_seconds`` have passed since the last one and something was
        committed since (by this process or another), or when ``force``. A checkpoint
        syncs the log first, so every commit before it survives a power loss too.
        Returns whether one ran.

        Example:
            >>> import tempfile
            >>> from langgraph_memory.storage import SQLiteBackend
            >>> b = SQLiteBackend(tempfile.mkdtemp(), checkpoint_seconds=60)
            >>> b.checkpoint(), b.checkpoint(force=True)
            (False, True)
            >>> b.close()
        """
        with self._lock:
            if self._closed:
                return False
            if not force and time.monotonic() - self._checkpointed < self._checkpoint_s:
                return False
            version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            if not (force or self._commits or version != self._seen_version):
                return False
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self._commits, self._seen_version = 0, version
            self._checkpointed = time.monotonic()
            return True

    def _read(self, sql: str, params: Sequence[object] = ()) -> list[tuple]:
        with self._lock:
            if self._closed:
                raise RuntimeError("the memory backend is closed")
            return self._conn.execute(sql, params).fetchall()

    def setup(self) -> None:
        """Run pending migrations (idempotent; safe with concurrent processes)."""
        with self._tx() as c:
            c.execute("CREATE TABLE IF NOT EXISTS lgm_migrations (v INTEGER PRIMARY KEY)")
            row = c.execute("SELECT MAX(v) FROM lgm_migrations").fetchone()
            current = -1 if row[0] is None else int(row[0])
            for version in range(current + 1, len(MIGRATIONS)):
                for stmt in MIGRATIONS[version].split(";"):
                    if stmt.strip():
                        c.execute(stmt)
                c.execute("INSERT INTO lgm_migrations (v) VALUES (?)", (version,))

    def _file_version(self) -> tuple[int, int]:
        """Moves whenever the file may have changed: its ``data_version`` (another
        connection committed) and this connection's count of write transactions."""
        return self._read("PRAGMA data_version")[0][0], self._writes

    @contextmanager
    def writer_lease(self) -> Iterator[bool]:
        """An exclusive ``flock`` on ``<database>.writer`` (see
        :meth:`~langgraph_memory.storage.WriterLease.writer_lease`); where ``fcntl`` is missing
        (Windows), always
        leased: one writing process per store there."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            yield True
            return
        with self._lock:
            if self._closed:
                raise RuntimeError("the memory backend is closed")
            if self._lease_fd is None:
                self._lease_fd = open_file(self._lease_file, self._mode)
            fd = self._lease_fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            with self._lock:
                if self._lease_fd == fd:  # close() meanwhile released it with the file
                    fcntl.flock(fd, fcntl.LOCK_UN)

    def verify(self) -> None:
        """``PRAGMA quick_check`` of the store now (see :mod:`.health`)."""
        with self._lock:
            quick_check(self._conn, self.file)

    def backup(self, dest: str | os.PathLike[str]) -> Path:
        """Copy the store with SQLite's online backup API (a consistent snapshot, taken
        while others read and write) into a temporary file beside the destination,
        check the copy, sync it and move it into place (see
        :mod:`~langgraph_memory.storage.sqlite.backup`), and return its path.

        Args:
            dest: The copy's file, or a directory to write ``memory.sqlite3`` into.

        Raises:
            FileExistsError: When the destination file exists.
            StoreDamagedError: When the copy fails its checks (nothing is left at ``dest``).
        """
        target = Path(dest).expanduser()
        if target.is_dir() or target.suffix not in (".sqlite3", ".sqlite", ".db"):
            target = target / self.file.name
        return write_backup(target, self._copy_into, self._key, self._mode)

    def _copy_into(self, copy: sqlite3.Connection) -> int | None:
        """Copy the store into ``copy`` and return its messages at that snapshot (``None``
        for a store without the table)."""
        with self._snapshot() as conn:  # one snapshot for the count and the copy
            count = message_count(conn)
            conn.backup(copy)
        return count

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._release_mark()  # the open mark, cleared by the last to close
                self._conn.close()
                self._forget()
                if self._lease_fd is not None:
                    os.close(self._lease_fd)
                    self._lease_fd = None
