"""The files of a SQLite store: private (0600 files, 0700 directories) unless the caller
says otherwise, refused when the main file is empty or missing beside its sidecars, and a
read-only store says it is read-only."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import langgraph_memory
from langgraph_memory import MemoryManager, StoreDamagedError
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import SQLiteBackend

ENV = {**os.environ, "PYTHONPATH": str(Path(langgraph_memory.__file__).parents[1])}


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _modes(root: Path) -> dict[str, int]:
    """The mode of everything under ``root`` (``root`` itself included)."""
    found = {".": _mode(root)}
    for p in root.rglob("*"):
        found[str(p.relative_to(root))] = _mode(p)
    return found


def _use(mm: MemoryManager) -> None:
    """Write, so the log, its index and both lock files exist."""
    for i in range(20):
        mm.add_message("ann", "s1", "user", f"note {i} about the lake")
    mm.flush()
    with mm._backend._inner.writer_lease():  # type: ignore[attr-defined]
        pass


@pytest.mark.parametrize("key", [None, "a key"], ids=["plain", "encrypted"])
def test_every_file_of_a_store_and_its_backups_is_private(tmp_path: Path, key: str | None) -> None:
    if key is not None:
        pytest.importorskip("sqlcipher3")
    root = tmp_path / "a" / "b"  # two directories the store makes
    with MemoryManager(root, embeddings=HashingEmbeddings(), encryption_key=key) as mm:
        _use(mm)
        names = {p.name for p in root.iterdir()}
        assert {"memory.sqlite3-wal", "memory.sqlite3-shm"} <= names  # checked while open
        assert {"memory.sqlite3.open", "memory.sqlite3.writer"} <= names
        store = _modes(tmp_path / "a")
        mm.backup(tmp_path / "backups" / "daily")
        mm.backup(tmp_path / "one.sqlite3")
    assert store == {".": 0o700, "b": 0o700, **{f"b/{n}": 0o600 for n in names}}
    assert _modes(tmp_path / "backups") == {
        ".": 0o700,
        "daily": 0o700,
        "daily/memory.sqlite3": 0o600,
    }
    assert _mode(tmp_path / "one.sqlite3") == 0o600


def test_file_mode_lets_the_caller_share_with_a_group(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        backend = SQLiteBackend(tmp_path / "shared" / "memory.sqlite3", file_mode=0o640)
        with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
            _use(mm)
            modes = _modes(tmp_path / "shared")
            mm.backup(tmp_path / "shared-backups")
    finally:
        os.umask(old)
    assert modes.pop(".") == 0o750 and set(modes.values()) == {0o640}, modes
    assert _modes(tmp_path / "shared-backups") == {".": 0o750, "memory.sqlite3": 0o640}
    for wrong in (0o400, 0o1777, "0o600"):
        with pytest.raises((ValueError, TypeError), match="file_mode"):
            SQLiteBackend(tmp_path / "x", file_mode=wrong)  # type: ignore[arg-type]


def test_a_store_made_before_keeps_its_mode(tmp_path: Path) -> None:
    SQLiteBackend(tmp_path).close()
    os.chmod(tmp_path / "memory.sqlite3", 0o644)
    SQLiteBackend(tmp_path).close()
    assert _mode(tmp_path / "memory.sqlite3") == 0o644  # the caller's file, left as it is


def test_chromas_directory_is_private(tmp_path: Path) -> None:
    pytest.importorskip("chromadb")
    from langgraph_memory.storage.chroma.backend import ChromaBackend

    backend = ChromaBackend.persistent(tmp_path / "c" / "chroma")
    try:
        assert _mode(tmp_path / "c") == _mode(tmp_path / "c" / "chroma") == 0o700
    finally:
        backend.close()


@pytest.mark.parametrize("how", ["emptied", "deleted"])
def test_a_main_file_empty_or_missing_beside_its_sidecars_is_refused(
    tmp_path: Path, how: str
) -> None:
    """After a clean close only the lock files stay beside it: before, an emptied file
    opened as a new empty store."""
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        _use(mm)
    assert not (tmp_path / "memory.sqlite3-wal").exists()
    main = tmp_path / "memory.sqlite3"
    if how == "emptied":
        main.write_bytes(b"")
    else:
        main.unlink()
    said = "empty \\(0 bytes\\)" if how == "emptied" else "missing"
    with pytest.raises(StoreDamagedError, match=f"memory.sqlite3: it is {said} while"):
        SQLiteBackend(tmp_path)
    assert main.exists() == (how == "emptied")  # nothing created or changed
    SQLiteBackend(tmp_path / "new").close()  # a new path still makes a store


def test_a_main_file_cut_short_is_refused(tmp_path: Path) -> None:
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        _use(mm)
    main = tmp_path / "memory.sqlite3"
    os.truncate(main, main.stat().st_size // 2)
    with pytest.raises(StoreDamagedError, match="cut short"):
        SQLiteBackend(tmp_path)


READ_ONLY = r"""
import os, sys
from langgraph_memory.storage import SQLiteBackend

if os.geteuid() == 0:  # root writes whatever the mode says: be someone else
    os.setgid(65534)
    os.setuid(65534)
try:
    SQLiteBackend(sys.argv[1]).close()
except Exception as exc:
    print(f"{type(exc).__name__}: {exc}")
else:
    print("opened")
"""


def _open_as_other_user(path: Path) -> str:
    return subprocess.run(
        [sys.executable, "-c", READ_ONLY, str(path)],
        env=ENV,
        cwd=ENV["PYTHONPATH"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX modes")
def test_a_read_only_store_says_so() -> None:
    root = Path(tempfile.mkdtemp())  # not under pytest's 0700 tree: another user reads it
    try:
        os.chmod(root, 0o755)
        store = root / "store"
        SQLiteBackend(store, file_mode=0o644).close()
        os.chmod(store, 0o777)  # the directory writable: the file alone is read-only
        os.chmod(store / "memory.sqlite3", 0o444)
        said = _open_as_other_user(store)
        assert said.startswith("PermissionError: cannot open"), said
        assert "the file is read-only" in said and "encrypted" not in said
        os.chmod(store / "memory.sqlite3", 0o666)  # now the directory alone
        os.chmod(store, 0o555)
        said = _open_as_other_user(store)
        assert "PermissionError" in said and "directory" in said and "read-only" in said
    finally:
        os.chmod(root / "store", 0o755)
        shutil.rmtree(root)
