"""A SQLite store's files checked before it is used, so a damaged or half-copied store
raises a clear error instead of opening empty or short.

SQLite itself opens such files without a word: a main file truncated to 0 bytes is a
new empty database, and a main file copied without its ``-wal`` is the store as it was
at its last checkpoint (everything written since is gone). Checked here:

- **before connecting** (:func:`check_files`): a main file of 0 bytes beside a
  write-ahead log holding frames (truncated); a ``-shm`` whose header counts frames the
  ``-wal`` beside it does not hold (the log is missing or cut: a copy without it);
- **the main file alone** (:func:`check_open_mark`): a main file whose header says a
  process had the store open, with neither ``-wal`` nor ``-shm`` beside it: copied alone while the
  store was in use (``cp memory.sqlite3``), or its log deleted. While a process has the store open,
  its header's ``user_version`` holds the file's open mark (:func:`mark_of`, from its inode number),
  checkpointed into the main file at open; the last connection to close sets it back to
  :data:`CLOSED` before SQLite folds the log in and deletes it
  (:mod:`~langgraph_memory.storage.sqlite.openmark`). A crash leaves the log on disk, and
  :meth:`~langgraph_memory.storage.sqlite.conn.SQLiteConnection.backup` copies carry no mark: both
  open. ``integrity="never"`` accepts such a file as it is (a whole copy made by another tool while
  the store was open, such as the ``sqlite3`` shell's ``.backup``, carries the mark too, and so does
  a main file copied alone just after a checkpoint folded every write into it: nothing tells it is
  whole). Not detected: a log deleted beside the very file it belongs to (the file carries its own
  mark, as it does when another program closed the store last, and opens); a copy made while only
  another program (the ``sqlite3`` shell) had the store open; where ``flock`` is missing (Windows),
  a copy made after one of several connections closed;
- **after connecting** (:func:`quick_check`): SQLite's ``PRAGMA quick_check``, run when
  asked (``integrity="always"``) or when the last process did not close it cleanly
  (``"auto"``: a write-ahead log with frames was there at open), which finds a damaged
  page;
- **the log's frames** (:func:`check_wal`, unencrypted stores): SQLite reads a
  write-ahead log up to its first frame whose checksum fails and silently drops the
  rest as an unfinished transaction. A frame that fails its checksum while committed
  transactions of the same log generation (the same salts, a valid chain from the bad
  frame's stored checksum) follow it is damage, not a crash mid-write or a rolled-back
  transaction (those end in no commit): the store would open short, so it raises
  instead. A damaged last transaction cannot be told from a crash and opens as
  SQLite opens it (without that transaction).

Example:
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "memory.sqlite3").write_bytes(b"")
    0
    >>> header = struct.pack(">III", 0x377F0682, 3007000, 4096) + bytes(20)
    >>> (d / "memory.sqlite3-wal").write_bytes(header + bytes(2 * (24 + 4096)))
    8272
    >>> try:
    ...     check_files(d / "memory.sqlite3")
    ... except StoreDamagedError as exc:
    ...     print(str(exc).split(": ", 1)[1][:60])
    it is empty but its write-ahead log holds 2 frames...
"""

from __future__ import annotations

import os
import struct
import time
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "StoreDamagedError",
    "Integrity",
    "check_files",
    "quick_check",
    "wal_frames",
    "check_wal",
    "CLOSED",
    "mark_of",
    "main_mark",
    "check_open_mark",
    "connect",
]

#: When the file's pages are checked on open (see the module docs).
Integrity = Literal["auto", "always", "never"]
#: Bytes of a WAL header, and of a frame header before its page.
_WAL_HEADER, _FRAME_HEADER = 32, 24
_WAL_MAGIC = (0x377F0682, 0x377F0683)


class StoreDamagedError(RuntimeError):
    """A store's files are damaged or incomplete: it was not opened (nothing changed)."""


def _restore_hint(file: Path) -> str:
    return (
        f"nothing was opened or changed. Restore {file.name} from a backup "
        "(`mm.backup(dest)` or `langgraph-memory backup` make one; `langgraph-memory "
        "verify` checks one), or move the damaged files aside to start an empty store."
    )


def wal_frames(wal: Path) -> int | None:
    """Frames a write-ahead log file holds whole (by its size and page size), or ``None``
    when it holds no valid header."""
    try:
        with wal.open("rb") as f:
            head, size = f.read(_WAL_HEADER), os.fstat(f.fileno()).st_size
    except OSError:
        return None
    if len(head) < _WAL_HEADER:
        return None
    magic, _, page_size = struct.unpack(">III", head[:12])
    if magic not in _WAL_MAGIC or page_size < 512:
        return None
    return (size - _WAL_HEADER) // (_FRAME_HEADER + page_size)


def _shm_frames(shm: Path) -> int | None:
    """The frames the ``-shm`` header says the log holds (``mxFrame``), or ``None`` when
    it holds no initialised header."""
    try:
        with shm.open("rb") as f:
            head = f.read(48)
    except OSError:
        return None
    if len(head) < 48:
        return None
    version, _, _, is_init = struct.unpack("=IIIB", head[:13])
    if version != 3007000 or not is_init:
        return None
    return int(struct.unpack("=I", head[16:20])[0])


def check_files(file: Path) -> bool:
    """Check a store's files before connecting to it.

    A mismatch is read again a few times before it is reported: another process at work
    on the store shows one for an instant (its last close deletes the log before the
    ``-shm``; a truncating checkpoint empties the log), a damaged or half-copied store
    for good. The ``-shm`` is read before the log: SQLite writes a commit's frames to
    the log before it counts them there.

    Returns:
        Whether a write-ahead log with frames is there (the last process to use the
        store did not close it cleanly, or one still has it open).

    Raises:
        StoreDamagedError: When the main file is empty beside a log with frames, or the
            ``-shm`` counts frames its log does not hold.
    """
    for wait in _SETTLE_S:
        problem, frames = _mismatch(file)
        if problem is None:
            return bool(frames)
        time.sleep(wait)
    raise StoreDamagedError(f"{file}: {problem}; {_restore_hint(file)}")


#: Pauses before a mismatch of a store's files is read again (see :func:`check_files`).
_SETTLE_S = (0.01, 0.05, 0.1, 0.2, 0.4, 0.0)


def _mismatch(file: Path) -> tuple[str | None, int | None]:
    """What is wrong with the store's files (``None``: nothing), and its log's frames."""
    wal, shm = file.with_name(file.name + "-wal"), file.with_name(file.name + "-shm")
    counted = _shm_frames(shm) if shm.exists() else None
    frames = wal_frames(wal) if wal.exists() else None
    try:
        empty = file.stat().st_size == 0
    except OSError:
        empty = False
    if empty and frames:
        return (
            f"it is empty but its write-ahead log holds {frames} frames (the file was truncated)"
        ), frames
    if counted and (frames or 0) < counted:
        held = "is missing" if not wal.exists() else f"holds {frames or 0}"
        return (
            f"its -shm counts {counted} write-ahead log frames but {wal.name} {held} (a "
            "copy without its log, or a cut log; the data written since the last "
            "checkpoint would be lost)"
        ), frames
    return None, frames


# : The open mark of a main file no process has open (see
# :mod:`~langgraph_memory.storage.sqlite.openmark`).
CLOSED = 0


def mark_of(file: Path) -> int:
    """The open mark of this file (1 to 2**31 - 1): the header's ``user_version`` while a
    process has it open. It comes from the file's inode number, so a copy (a new file)
    does not carry its own mark."""
    return os.stat(file).st_ino % 2_147_483_647 + 1


def main_mark(file: Path, key: str | None) -> int | None:
    """The open mark the main file itself holds (not its write-ahead log), or ``None``
    when it cannot be read, or (unencrypted) the file is not in WAL mode: a file in
    rollback mode is whole by itself. An encrypted file is read through SQLCipher with
    ``immutable=1`` (no lock, no log, nothing created)."""
    if key is None:
        try:
            with file.open("rb") as f:
                head = f.read(100)
        except OSError:
            return None
        if len(head) < 100 or not head.startswith(b"SQLite format 3\0") or head[18] != 2:
            return None
        return int(struct.unpack(">i", head[60:64])[0])
    try:
        conn = connect(file, key, immutable=True)
    except Exception:  # unreadable with this key, or no driver: connecting will say so
        return None
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    except Exception:  # the driver's DatabaseError
        return None
    finally:
        conn.close()


def check_open_mark(file: Path, key: str | None) -> None:
    """Refuse a main file whose header says a process had it open (another file's open
    mark) with neither ``-wal`` nor ``-shm`` beside it: it was copied alone while the
    store was in use, or its log was deleted, and would open as it was at its last
    checkpoint. A file closed by its last process (mark 0), or the very file whose last
    process did not record its close (its own mark: SQLite folded the log in before
    deleting it), opens.

    Raises:
        StoreDamagedError: Naming the missing log and how to copy or accept the file.
    """
    wal, shm = file.with_name(file.name + "-wal"), file.with_name(file.name + "-shm")
    if wal.exists() or shm.exists() or not file.exists() or file.stat().st_size == 0:
        return
    mark = main_mark(file, key)
    if mark is None or mark in (CLOSED, mark_of(file)):
        return
    raise StoreDamagedError(
        f"{file}: {wal.name} is missing beside it while its header says a process had the "
        "store open: the main file was copied alone while the store was in use (copy a "
        "store in use with `mm.backup(dest)` or `langgraph-memory backup`, or its three "
        "files together), or its log was deleted; the writes since its last checkpoint are "
        f"not in it; {_restore_hint(file)} To accept this file as it is (a whole copy made "
        "by another tool, or a log lost for good), open it once with SQLiteBackend(path, "
        'integrity="never").'
    )


def _wal_checksum(data: bytes, s0: int, s1: int, order: str) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continued from ``s0, s1``."""
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def check_wal(file: Path) -> None:
    """Check a write-ahead log's frames before SQLite reads it (see the module docs).

    Raises:
        StoreDamagedError: When a frame fails its checksum and committed transactions
            of the same log generation follow it (they would be dropped).
    """
    wal = file.with_name(file.name + "-wal")
    try:
        data = wal.read_bytes()
    except OSError:
        return
    if len(data) < _WAL_HEADER:
        return
    magic, _, page_size = struct.unpack(">III", data[:12])
    if magic not in _WAL_MAGIC or page_size < 512 or page_size & (page_size - 1):
        return
    order = ">" if magic & 1 else "<"
    salts = data[16:24]
    s0, s1 = _wal_checksum(data[:24], 0, 0, order)
    if (s0, s1) != struct.unpack(">II", data[24:32]):
        return  # no valid header: SQLite ignores the whole log (a new or reset one)
    size = _FRAME_HEADER + page_size
    frames = (len(data) - _WAL_HEADER) // size
    for n in range(frames):
        at = _WAL_HEADER + n * size
        head = data[at : at + _FRAME_HEADER]
        if head[8:16] != salts:
            return  # frames of an earlier generation: the log ends here
        s0, s1 = _wal_checksum(head[:8], s0, s1, order)
        s0, s1 = _wal_checksum(data[at + _FRAME_HEADER : at + size], s0, s1, order)
        if (s0, s1) == struct.unpack(">II", head[16:24]):
            continue
        dropped = _committed_after(data, n, size, salts, order)
        if dropped:
            raise StoreDamagedError(
                f"{file}: frame {n + 1} of its write-ahead log fails its checksum while "
                f"{dropped} committed transactions of the same log follow it (SQLite would "
                f"drop them); {_restore_hint(file)}"
            )
        return


def _committed_after(data: bytes, bad: int, size: int, salts: bytes, order: str) -> int:
    """Commits (frames marking a transaction's end) that follow frame ``bad`` in a valid
    chain continued from its stored checksum. Frames of a transaction that was rolled
    back, left behind a shorter one, also fail their checksum but end in no commit."""
    head = data[_WAL_HEADER + bad * size : _WAL_HEADER + bad * size + _FRAME_HEADER]
    s0, s1 = struct.unpack(">II", head[16:24])
    commits = 0
    for m in range(bad + 1, (len(data) - _WAL_HEADER) // size):
        at = _WAL_HEADER + m * size
        head = data[at : at + _FRAME_HEADER]
        if head[8:16] != salts:
            break
        s0, s1 = _wal_checksum(head[:8], s0, s1, order)
        s0, s1 = _wal_checksum(data[at + _FRAME_HEADER : at + size], s0, s1, order)
        if (s0, s1) != struct.unpack(">II", head[16:24]):
            break
        commits += struct.unpack(">I", head[4:8])[0] != 0
    return commits


def quick_check(conn: Any, file: Path) -> None:
    """``PRAGMA quick_check`` of an open store.

    Raises:
        StoreDamagedError: Naming the first problems SQLite reports.
    """
    try:
        rows = [r[0] for r in conn.execute("PRAGMA quick_check(5)").fetchall()]
    except Exception as exc:  # the driver's DatabaseError (sqlite3's or SQLCipher's)
        rows = [str(exc)]
    if rows != ["ok"]:
        raise StoreDamagedError(
            f"{file} failed its integrity check ({'; '.join(rows)}); {_restore_hint(file)}"
        )


def connect(file: Path, key: str | None, *, immutable: bool = False) -> Any:
    """A connection to the store's file: SQLite, or SQLCipher with ``key`` (the key is
    given to SQLCipher and never shown); ``immutable`` reads the main file alone as it
    is (no lock, no write-ahead log, nothing created).

    Raises:
        ImportError: When a key is given without the SQLCipher driver installed.
        ValueError: When the file cannot be read: encrypted and no key given, a wrong
            key, or a plain store opened with a key.
    """
    if key is None:
        import sqlite3 as driver
    else:
        try:
            import sqlcipher3 as driver  # type: ignore[no-redef]
        except ImportError as exc:
            raise ImportError(
                "an encrypted store needs SQLCipher: pip install 'langgraph-memory[encrypt]'"
            ) from exc
    target = f"{file.absolute().as_uri()}?immutable=1" if immutable else str(file)
    conn = driver.connect(
        target, check_same_thread=False, isolation_level=None, timeout=30.0, uri=immutable
    )
    if key is not None:
        conn.execute("PRAGMA cipher_log_level = NONE")  # a wrong key is our error to raise
        conn.execute("PRAGMA key = '" + key.replace("'", "''") + "'")
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except driver.DatabaseError as exc:
        conn.close()
        why = (
            "it is encrypted, or not a SQLite file: pass encryption_key= (or set "
            "LANGGRAPH_MEMORY_KEY)"
            if key is None
            else "the encryption key does not open it (a wrong key, or a store written "
            "without encryption)"
        )
        raise ValueError(f"cannot read {file}: {why}") from exc
    return conn
