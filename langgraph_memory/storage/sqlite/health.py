"""A SQLite store's files checked before it is used, so a damaged or half-copied store
raises a clear error instead of opening empty or short.

SQLite itself opens such files without a word: a main file truncated to 0 bytes is a
new empty database, a main file copied without its ``-wal`` is the store as it was at its
last checkpoint, and a log damaged in its middle is read up to the damage (every
transaction after it is gone). Checked here:

- **before connecting** (:func:`check_files`): a main file empty (0 bytes) or missing
  beside the store's sidecars (``-wal``, ``-shm``, or the ``.open`` and ``.writer`` lock
  files every connection of this library leaves): truncated, emptied or deleted, not a
  new store (SQLite writes a new store's header before any sidecar exists); a ``-shm``
  whose header counts frames the ``-wal`` beside it does not hold (the log is missing or
  cut: a copy without it); with no log, a main file shorter than its header says (cut
  short: SQLite would read the missing pages as empty). These reads happen in a process's
  first connection to a store only (closing a file drops the process's POSIX locks on
  it, SQLite's included; see :class:`~langgraph_memory.storage.sqlite.conn.SQLiteConnection`);
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
- **the log's frames** (:func:`check_wal`, encrypted stores too: SQLCipher encrypts the
  pages, not the log's headers): SQLite reads a write-ahead log up to its first frame
  whose salts differ from the log's or whose checksum fails, and takes the rest for an
  unfinished write. Every frame is checked on its own (its checksum continued from the
  stored checksum of the frame before it, see :mod:`~langgraph_memory.storage.sqlite.wal`):
  a frame of the log's generation (its salts) that ends a transaction after that point
  means committed transactions would be dropped, and the store is refused. A log whose
  header is damaged is ignored whole by SQLite: refused when its committed frames hold
  pages the main file does not. What a crash leaves opens as SQLite opens it: a torn
  last frame, an unfinished transaction after the last commit, frames of an earlier
  generation after the current ones. Not detected: damage to the last transaction itself
  (nothing committed follows it: it cannot be told from a crash mid-write, and opens
  without that transaction). ``integrity="never"`` skips this check and opens the log
  as SQLite reads it;
- **after connecting** (:func:`quick_check`): SQLite's ``PRAGMA quick_check``, run when
  asked (``integrity="always"``), or (``"auto"``) when the last process did not close it
  cleanly (a write-ahead log was there at open) or the file is opened here for the first
  time (a copy, a restored backup: no ``.open`` lock file beside it yet), which finds a
  damaged page. Not detected: bytes changed inside a record (SQLite keeps no checksum of
  its pages): the message reads back changed, or fails to decode.

A store that cannot be written (a read-only file or directory) is refused by
:func:`connect` with a :class:`PermissionError` saying so.

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

from langgraph_memory.core.files import PRIVATE, create_file
from langgraph_memory.storage.sqlite.wal import (
    FRAME_HEADER,
    HEADER,
    MAGIC,
    frame_table,
    valid_page_size,
    wal_header,
)

__all__ = [
    "StoreDamagedError",
    "Integrity",
    "SIDECARS",
    "check_files",
    "quick_check",
    "wal_frames",
    "check_wal",
    "CLOSED",
    "mark_of",
    "main_mark",
    "check_open_mark",
    "check_writable",
    "damaged",
    "connect",
]

#: When the file's pages are checked on open (see the module docs).
Integrity = Literal["auto", "always", "never"]
#: What a store keeps beside its main file: SQLite's write-ahead log and its index, the
#: open mark's and the writer lease's lock files (suffixes of the main file's name).
SIDECARS = ("-wal", "-shm", ".open", ".writer")


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
            head, size = f.read(HEADER), os.fstat(f.fileno()).st_size
    except OSError:
        return None
    if len(head) < HEADER:
        return None
    magic, _, page_size = struct.unpack(">III", head[:12])
    if magic not in MAGIC or page_size < 512:
        return None
    return (size - HEADER) // (FRAME_HEADER + page_size)


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
    the log before it counts them there; the sidecars are looked for before the main
    file: a new store's main file holds its header before any sidecar is made.

    Returns:
        Whether a write-ahead log holding more than its header is there (the last
        process to use the store did not close it cleanly, or one still has it open).

    Raises:
        StoreDamagedError: When the main file is empty or missing beside the store's
            sidecars, or the ``-shm`` counts frames its log does not hold.
    """
    for wait in _SETTLE_S:
        problem, unclean = _mismatch(file)
        if problem is None:
            return unclean
        time.sleep(wait)
    raise StoreDamagedError(f"{file}: {problem}; {_restore_hint(file)}")


#: Pauses before a mismatch of a store's files is read again (see :func:`check_files`).
_SETTLE_S = (0.01, 0.05, 0.1, 0.2, 0.4, 0.0)


def _size(file: Path) -> int | None:
    try:
        return file.stat().st_size
    except FileNotFoundError:
        return None


def _mismatch(file: Path) -> tuple[str | None, bool]:
    """What is wrong with the store's files (``None``: nothing), and whether a log
    holding more than its header is there."""
    wal, shm = file.with_name(file.name + "-wal"), file.with_name(file.name + "-shm")
    beside = [file.with_name(file.name + s) for s in SIDECARS]
    beside = [f for f in beside if f.exists()]
    counted = _shm_frames(shm) if shm.exists() else None
    frames = wal_frames(wal) if wal.exists() else None
    unclean = (_size(wal) or 0) > HEADER
    size = _size(file)
    if size == 0 and frames:
        return (
            f"it is empty but its write-ahead log holds {frames} frames (the file was truncated)"
        ), unclean
    if not size and beside:
        names = ", ".join(f.name for f in beside)
        how = "empty (0 bytes)" if size == 0 else "missing"
        return (
            f"it is {how} while {names} {'is' if len(beside) == 1 else 'are'} beside it: a "
            "store was kept here and its file was truncated, emptied or deleted (opening "
            "would start an empty store)"
        ), unclean
    if counted and (frames or 0) < counted:
        log = "is missing" if not wal.exists() else f"holds {frames or 0}"
        return (
            f"its -shm counts {counted} write-ahead log frames but {wal.name} {log} (a "
            "copy without its log, or a cut log; the data written since the last "
            "checkpoint would be lost)"
        ), unclean
    whole = _pages_held(file)
    if whole is not None and not unclean and size is not None and size < whole:
        return (
            f"it holds {size} bytes but its header counts {whole} (the file was cut short; "
            "SQLite would read the pages past its end as empty)"
        ), unclean
    return None, unclean


def _pages_held(file: Path) -> int | None:
    """The bytes a plain SQLite file's header says it holds (its page count, when the
    header vouches for it, times its page size), or ``None``."""
    try:
        with file.open("rb") as f:
            head = f.read(100)
    except OSError:
        return None
    if len(head) < 100 or not head.startswith(b"SQLite format 3\0"):
        return None
    page_size = struct.unpack(">H", head[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    pages = struct.unpack(">I", head[28:32])[0]
    if not valid_page_size(page_size) or not pages or head[92:96] != head[24:28]:
        return None  # the count is valid while the change counter matches its own copy
    return pages * page_size


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


def check_wal(file: Path) -> None:
    """Check a write-ahead log's frames before SQLite reads it (see the module docs).

    A damaged log is read again after a pause, and refused only when it reads the same:
    another process resetting the log at that moment shows new frames before old ones
    for an instant.

    Raises:
        StoreDamagedError: When committed transactions of the log would be dropped: a
            frame of the log fails its checksum or salts while frames ending
            transactions of the same log follow it, or the log's header is damaged
            while its committed frames hold pages the main file does not.
    """
    wal = file.with_name(file.name + "-wal")
    seen: tuple[bytes, str] | None = None
    for wait in _SETTLE_S:
        try:
            data = wal.read_bytes()
        except OSError:
            return
        problem = _log_damage(file, data) if len(data) > HEADER else None
        if problem is None:
            return
        if seen == (data, problem):
            break
        seen = (data, problem)
        time.sleep(wait)
    raise StoreDamagedError(
        f"{file}: {problem}; {_restore_hint(file)} To open it as SQLite reads it (without "
        "the transactions after the damage), open it once with SQLiteBackend(path, "
        'integrity="never") and run verify().'
    )


def _log_damage(file: Path, data: bytes) -> str | None:
    """Why SQLite would open this log short (``None``: it reads every committed frame)."""
    header = wal_header(data)
    if not header.valid:
        return _unread_log(file, data, header.magic, header.page_size)
    table = frame_table(data, header.page_size, header.order, header.checksum)
    ours = table.salts_of(header.salts)
    read = ours & table.chained & (table.page > 0)
    if read.all():
        return None
    end = int(read.argmin())  # the first frame SQLite does not read: its log ends there
    dropped = int((ours[end + 1 :] & table.commit[end + 1 :]).sum())
    if not dropped:
        return None  # an unfinished write, or frames of an earlier generation
    what = "fails its checksum" if ours[end] else "has a damaged header (wrong salts)"
    return (
        f"frame {end + 1} of its write-ahead log {what} while {dropped} committed "
        "transactions of the same log follow it (SQLite would drop them and open the "
        "store short)"
    )


#: Page sizes tried, after the main file's, for a log whose header is damaged.
_PAGE_SIZES = (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)


def _unread_log(file: Path, data: bytes, magic: int, page_size: int) -> str | None:
    """Why a log whose header is damaged (SQLite ignores all of it) would lose data:
    committed frames whose pages the main file does not hold. Its page size and byte
    order are those the frames agree with."""
    try:
        with file.open("rb") as f:
            main_head = f.read(100)
    except OSError:
        main_head = b""
    sizes = [page_size] if valid_page_size(page_size) else []
    if main_head.startswith(b"SQLite format 3\0"):
        sizes.append(struct.unpack(">H", main_head[16:18])[0] or 65536)  # 1 means 65536
    sizes += _PAGE_SIZES
    orders = [">" if magic & 1 else "<"] if magic in MAGIC else [">", "<"]
    for size in dict.fromkeys(s for s in sizes if valid_page_size(s)):
        if not _frames_agree(data, size):
            continue
        for order in orders:
            table = frame_table(data, size, order, None)
            committed = table.chained & table.commit & (table.page > 0)
            if not committed.any():
                continue
            # the log's newest generation comes first in the file
            first = int(table.chained.argmax())
            ours = table.salts_of(bytes(table.salts[first]))
            last = int(max(i for i in committed.nonzero()[0] if ours[i]))
            missing = _pages_not_in(file, data, size, table, ours & table.chained, last)
            if not missing:
                return None  # every committed page is in the main file already
            return (
                f"its write-ahead log's header is damaged while the log holds committed "
                f"transactions ({missing} pages) not yet in the main file (SQLite would "
                "ignore the whole log and open the store short)"
            )
    return None


def _frames_agree(data: bytes, size: int) -> bool:
    """Whether two neighbouring frames read with this page size carry the same salts
    (a cheap test before checksums are computed)."""
    step = FRAME_HEADER + size
    count = (len(data) - HEADER) // step
    salts = [data[HEADER + i * step + 8 : HEADER + i * step + 16] for i in range(count)]
    return any(a == b and a != bytes(8) for a, b in zip(salts, salts[1:], strict=False))


def _pages_not_in(file: Path, data: bytes, size: int, table: Any, whole: Any, last: int) -> int:
    """Pages whose latest whole frame up to frame ``last`` differs from the main file's."""
    latest: dict[int, int] = {}
    for i in whole[: last + 1].nonzero()[0]:
        latest[int(table.page[i])] = int(i)
    missing = 0
    try:
        with file.open("rb") as f:
            for page, i in latest.items():
                f.seek((page - 1) * size)
                at = HEADER + i * (FRAME_HEADER + size) + FRAME_HEADER
                missing += f.read(size) != data[at : at + size]
    except OSError:
        return len(latest)
    return missing


def damaged(file: Path, exc: BaseException) -> StoreDamagedError | None:
    """The :class:`StoreDamagedError` to raise for a driver error that says the file is
    damaged (``database disk image is malformed``), or ``None`` for any other error."""
    said = str(exc)
    name = str(getattr(exc, "sqlite_errorname", ""))
    if "malformed" not in said and not name.startswith("SQLITE_CORRUPT"):
        return None
    return StoreDamagedError(f"{file}: SQLite reads it as damaged ({said}); {_restore_hint(file)}")


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


def check_writable(file: Path) -> None:
    """Refuse a store this process cannot write: its file read-only, or its directory
    when SQLite has to make its ``-wal`` and ``-shm`` there (SQLite opens such a file
    read-only without a word, then fails on the first write with a message that does
    not say why).

    Raises:
        PermissionError: Naming what is read-only and what to do.
    """
    wal, shm = file.with_name(file.name + "-wal"), file.with_name(file.name + "-shm")
    if file.exists() and not os.access(file, os.W_OK):
        mode = oct(file.stat().st_mode & 0o777)
        why = f"the file is read-only (mode {mode}, or a read-only mount)"
    elif not os.access(file.parent, os.W_OK | os.X_OK) and not (wal.exists() and shm.exists()):
        why = (
            f"its directory {file.parent} is read-only (a store makes its -wal and -shm "
            "beside its file)"
        )
    else:
        return
    raise PermissionError(
        f"cannot open {file} for writing: {why}. A memory store is opened to read and "
        "write; make it writable (chmod u+w, or mount it read-write), or copy the store "
        "(its file with its -wal and -shm) to a writable place and open the copy."
    )


def connect(
    file: Path, key: str | None, *, immutable: bool = False, file_mode: int = PRIVATE
) -> Any:
    """A connection to the store's file: SQLite, or SQLCipher with ``key`` (the key is
    given to SQLCipher and never shown); ``immutable`` reads the main file alone as it
    is (no lock, no write-ahead log, nothing created). A new file is created with
    ``file_mode`` (its ``-wal``, ``-shm`` and ``-journal`` take the main file's mode).

    Raises:
        ImportError: When a key is given without the SQLCipher driver installed.
        PermissionError: When the store cannot be written (see :func:`check_writable`).
        StoreDamagedError: When SQLite reads the file as damaged.
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
    if not immutable:
        check_writable(file)
        create_file(file, file_mode)
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
        raise _unreadable(file, key, exc) from exc
    return conn


def _unreadable(file: Path, key: str | None, exc: Exception) -> Exception:
    """The error to raise for a file the driver could not read."""
    said = str(exc)
    name = str(getattr(exc, "sqlite_errorname", ""))
    if "readonly" in said or name.startswith(("SQLITE_READONLY", "SQLITE_PERM")):
        return PermissionError(f"cannot open {file} for writing: {said} (the file is read-only)")
    error = damaged(file, exc)
    if error is not None:
        return error
    if "not a database" not in said and not name.startswith("SQLITE_NOTADB"):
        return ValueError(f"cannot read {file}: {said}")
    why = (
        "it is encrypted, or not a SQLite file: pass encryption_key= (or set LANGGRAPH_MEMORY_KEY)"
        if key is None
        else "the encryption key does not open it (a wrong key, or a store written "
        "without encryption)"
    )
    return ValueError(f"cannot read {file}: {why}")
