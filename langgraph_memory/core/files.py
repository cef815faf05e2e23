"""Private files: what the library writes for a user's memory (a store, its log, its
sidecars, its backups) is readable by that user only, unless the caller says otherwise.

A file is created with ``file_mode`` (default :data:`PRIVATE`, ``0o600``) and a
directory with the same bits plus the search bit wherever the file mode may read
(:func:`directory_mode`: ``0o700`` for ``0o600``, ``0o750`` for ``0o640``), both masked
by the process's umask as usual. Files and directories that already exist keep their
mode: a store made by an earlier release stays as it was (``chmod 600`` it).

Example:
    >>> import tempfile, pathlib, stat
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> made = make_dirs(root / "a" / "b")
    >>> oct(stat.S_IMODE((root / "a").stat().st_mode)), oct(directory_mode(0o640))
    ('0o700', '0o750')
    >>> create_file(made / "memory.sqlite3"), create_file(made / "memory.sqlite3")
    (True, False)
    >>> oct(stat.S_IMODE((made / "memory.sqlite3").stat().st_mode))
    '0o600'
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "PRIVATE",
    "check_file_mode",
    "directory_mode",
    "make_dirs",
    "create_file",
    "open_file",
    "sync_file",
    "sync_dir",
]

#: The mode of the files the library creates unless told otherwise: the owner reads
#: and writes, no one else.
PRIVATE = 0o600


def check_file_mode(file_mode: int) -> int:
    """``file_mode`` if it is a mode the library can keep a store with (permission bits
    only, the owner reading and writing).

    Raises:
        TypeError: When it is not an int.
        ValueError: When it has bits beyond ``0o777`` or lacks ``0o600``.
    """
    if isinstance(file_mode, bool) or not isinstance(file_mode, int):
        raise TypeError(f"file_mode must be an int such as 0o600, got {file_mode!r}")
    if file_mode & ~0o777 or file_mode & PRIVATE != PRIVATE:
        raise ValueError(
            f"file_mode must be permission bits that let the owner read and write "
            f"(0o600 to 0o666, e.g. 0o640 to let the group read), got {oct(file_mode)}"
        )
    return file_mode


def directory_mode(file_mode: int = PRIVATE) -> int:
    """The mode of a directory holding files of ``file_mode``: the same bits, plus
    search (``x``) wherever they read."""
    return file_mode | ((file_mode & 0o444) >> 2)


def make_dirs(path: str | os.PathLike[str], file_mode: int = PRIVATE) -> Path:
    """Create ``path`` and its missing parents with :func:`directory_mode` of
    ``file_mode`` (``mkdir -p``; existing ones are left as they are) and return it."""
    target = Path(path)
    missing: list[Path] = []
    for p in (target, *target.parents):
        if p.exists():
            break
        missing.append(p)
    for p in reversed(missing):
        try:
            p.mkdir(mode=directory_mode(file_mode))
        except FileExistsError:  # another process made it meanwhile
            pass
    if not target.is_dir():
        raise NotADirectoryError(f"{target} exists and is not a directory")
    return target


def create_file(path: str | os.PathLike[str], file_mode: int = PRIVATE) -> bool:
    """Create ``path`` empty with ``file_mode`` unless it exists; return whether it was
    created (a file another process creates at the same moment is left to it)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, file_mode)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def open_file(path: str | os.PathLike[str], file_mode: int = PRIVATE) -> int:
    """A read-write descriptor of ``path``, created with ``file_mode`` if missing (a lock
    file, a lease)."""
    return os.open(path, os.O_RDWR | os.O_CREAT, file_mode)


def sync_file(path: str | os.PathLike[str]) -> None:
    """Flush a file's data to the disk (``fsync``)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_dir(path: str | os.PathLike[str]) -> None:
    """Flush a directory's entries to the disk, so a file created, renamed or removed in
    it stays so after a power loss; nothing where directories cannot be opened
    (Windows)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - a file system that cannot sync a directory
        pass
    finally:
        os.close(fd)
