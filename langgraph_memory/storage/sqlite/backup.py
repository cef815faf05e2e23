"""A backup of a SQLite store that exists whole or not at all.

SQLite's online backup API writes the destination page by page through a rollback
journal: a process killed meanwhile leaves ``dest`` and ``dest-journal``, and opening
``dest`` rolls the journal back to the empty file it was, so a cut backup opened as an
empty store. Here the copy is written to a temporary file beside the destination
(``.<name>.<pid>-<random>.partial``, hidden, in the same directory so the last step is a
rename on one file system), with no journal at all (a failed copy is thrown away whole),
then:

1. given no open mark (:data:`~langgraph_memory.storage.sqlite.health.CLOSED`) and
   switched to a self-contained file in rollback mode (the copied header says WAL; the
   switch runs with ``journal_mode=MEMORY``, so it writes no ``-journal`` either: a
   process killed then leaves only hidden temporaries);
2. checked: ``PRAGMA quick_check`` and its messages counted, which must be the number the
   store held at the snapshot copied;
3. synced (``fsync``), moved to its name (a hard link, which never replaces a file that
   appeared meanwhile, then the temporary name removed; a rename where links are not
   supported), and the directory synced.

A backup killed at any point leaves the destination absent, or whole and synced. Its
temporary files (hidden, never opened as a store) are removed by the next backup to the
same destination, once the process that wrote them is gone.

Example:
    >>> import sqlite3, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> src = sqlite3.connect(d / "src.sqlite3", isolation_level=None)
    >>> _ = src.execute("CREATE TABLE messages (x)")
    >>> _ = src.execute("INSERT INTO messages VALUES (1), (2)")
    >>> def copy_into(copy):
    ...     src.backup(copy)
    ...     return 2
    >>> write_backup(d / "b" / "copy.sqlite3", copy_into, None).name
    'copy.sqlite3'
    >>> sorted(p.name for p in (d / "b").iterdir())
    ['copy.sqlite3']
"""

from __future__ import annotations

import glob
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph_memory.core.files import PRIVATE, create_file, make_dirs, sync_dir, sync_file
from langgraph_memory.storage.sqlite.health import CLOSED, StoreDamagedError, connect, quick_check

__all__ = ["PARTIAL", "write_backup", "message_count", "clean_partials"]

#: The suffix of a backup's temporary file.
PARTIAL = ".partial"
#: What SQLite may leave beside a file it writes.
_BESIDE = ("", "-journal", "-wal", "-shm")


def message_count(conn: Any) -> int | None:
    """The messages a store holds (``None`` when it has no ``messages`` table)."""
    has = conn.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages'"
    ).fetchone()[0]
    return int(conn.execute("SELECT count(*) FROM messages").fetchone()[0]) if has else None


def _partial_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}{PARTIAL}")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # a backup of this process at work (another thread)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or no signals here: leave its files
        return True
    return True


def clean_partials(target: Path) -> list[Path]:
    """Remove the temporary files that backups to ``target`` killed before their end
    left beside it (those of a process still running are left alone); return them."""
    removed = []
    for path in target.parent.glob(f".{glob.escape(target.name)}.*{PARTIAL}*"):
        stem = path.name[len(target.name) + 2 :]
        pid = stem.split("-", 1)[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            path.unlink()
            removed.append(path)
        except FileNotFoundError:
            pass
    if removed:
        sync_dir(target.parent)
    return removed


def _remove(tmp: Path) -> None:
    for suffix in _BESIDE:
        try:
            tmp.with_name(tmp.name + suffix).unlink()
        except FileNotFoundError:
            pass


def _place(tmp: Path, target: Path) -> None:
    """Give the synced copy its name, never replacing a file already there."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise FileExistsError(f"{target} exists; give a new file or an empty directory") from None
    except OSError:  # no hard links on this file system: a rename, after a last look
        if target.exists():
            raise FileExistsError(
                f"{target} exists; give a new file or an empty directory"
            ) from None
        os.replace(tmp, target)


def write_backup(
    target: Path,
    copy_into: Callable[[Any], int | None],
    key: str | None,
    file_mode: int = PRIVATE,
) -> Path:
    """Write a checked backup to ``target`` (see the module docs).

    Args:
        target: The backup's file (its directory is created with ``file_mode``'s
            directory mode if missing).
        copy_into: Copies the store into the connection it is given (SQLite's backup
            API) and returns the messages the store held at that snapshot (``None``: no
            messages table).
        key: The SQLCipher key of the store (the backup is encrypted with it), or ``None``.
        file_mode: The backup's mode (default ``0o600``).

    Returns:
        ``target``.

    Raises:
        FileExistsError: When ``target`` exists.
        StoreDamagedError: When the copy fails its checks (nothing is left behind).
    """
    make_dirs(target.parent, file_mode)
    clean_partials(target)
    if target.exists():
        raise FileExistsError(f"{target} exists; give a new file or an empty directory")
    tmp = _partial_name(target)
    create_file(tmp, file_mode)
    try:
        copy = connect(tmp, key, file_mode=file_mode)
        try:
            copy.execute("PRAGMA journal_mode=OFF")  # a failed copy is thrown away whole
            expected = copy_into(copy)
            copy.execute(f"PRAGMA user_version = {CLOSED}")  # no process has it open
            copy.execute("PRAGMA journal_mode=MEMORY")  # one self-contained file, no journal
            quick_check(copy, target)
            try:
                count = message_count(copy)
            except Exception as exc:  # the driver's DatabaseError
                count, expected = None, -1
                reason = str(exc)
            else:
                reason = f"{count} messages, the store held {expected}"
            if count != expected:
                raise StoreDamagedError(
                    f"{target}: the copy does not read back whole ({reason}); nothing was "
                    "written at its name. Run `langgraph-memory verify` on the store."
                )
        finally:
            copy.close()
        sync_file(tmp)
        _place(tmp, target)
        sync_dir(target.parent)
    finally:
        _remove(tmp)
    sync_dir(target.parent)
    return target
