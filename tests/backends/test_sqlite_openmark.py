"""The open mark: the main file of a SQLite store in use, copied alone (without its
write-ahead log), is refused instead of opening with 0 of its N messages; a crash, a
clean close, a backup and several connections on one store open as before."""

from __future__ import annotations

import gc
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from langgraph_memory import MemoryManager, StoreDamagedError
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import SQLiteBackend
from langgraph_memory.storage.sqlite.health import CLOSED, main_mark, mark_of

N = 300
ROOT = Path(__file__).resolve().parents[2]
MISSING = "memory.sqlite3-wal is missing beside it"

#: A process that writes n messages to a store, flushes, says READY and waits, open,
#: for its stdin to close (or is killed in there); "exit" ends it without close().
CHILD = r"""
import sys
from langgraph_memory import MemoryManager
from langgraph_memory.storage import SQLiteBackend
from langgraph_memory.embeddings import HashingEmbeddings

path, n, how = sys.argv[1], int(sys.argv[2]), sys.argv[3]
mm = MemoryManager(backend=SQLiteBackend(path, checkpoint_seconds=1e9),
                   embeddings=HashingEmbeddings())
for i in range(n):
    mm.add_message("ann", "s1", "user", f"note {i} about the lake")
mm.flush()
print("READY", flush=True)
if how == "wait":
    sys.stdin.read()
"""


def _open(path: Path, **kw: object) -> MemoryManager:
    """A manager whose worker runs no timed checkpoint: its writes stay in the log."""
    backend = SQLiteBackend(path, checkpoint_seconds=1e9, **kw)  # type: ignore[arg-type]
    return MemoryManager(backend=backend, embeddings=HashingEmbeddings())


def _fill(mm: MemoryManager, n: int = N, user: str = "ann") -> None:
    for i in range(n):
        mm.add_message(user, "s1", "user", f"note {i} about the lake")
    mm.flush()


def _main_alone(src: Path, dest: Path) -> Path:
    """A copy of the store's main file alone, as `cp memory.sqlite3` makes it."""
    dest.mkdir()
    shutil.copy(src / "memory.sqlite3", dest / "memory.sqlite3")
    return dest


def _messages(path: Path, user: str = "ann", **kw: object) -> int:
    with _open(path, **kw) as mm:
        return int(mm.stats(user)["messages"])


def _files(path: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in path.iterdir()}


@contextmanager
def _child(path: Path, how: str = "wait") -> Iterator[subprocess.Popen[str]]:
    """Another process with N messages written to the store at ``path``, open."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(N), how],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.strip() == "READY", (line, proc.stderr.read() if proc.stderr else "")
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=60)


def test_a_main_file_copied_alone_from_a_store_in_use_is_refused(tmp_path: Path) -> None:
    live = tmp_path / "live"
    with _open(live) as mm:
        _fill(mm)
        assert (live / "memory.sqlite3-wal").stat().st_size > 0  # the writes: in the log
        copy = _main_alone(live, tmp_path / "copy")
    before = _files(copy)
    with pytest.raises(StoreDamagedError, match=MISSING) as err:
        _messages(copy)
    assert "mm.backup(dest)" in str(err.value) and 'integrity="never"' in str(err.value)
    assert _files(copy) == before  # nothing changed, nothing created
    # what the refusal prevents: accepted as it is, the copy opens with 0 of N messages
    assert _messages(copy, integrity="never") == 0
    assert _messages(copy) == 0  # accepted once, it opens from then on
    assert _messages(live) == N


def test_after_a_clean_close_the_main_file_alone_is_whole(tmp_path: Path) -> None:
    live = tmp_path / "live"
    with _open(live) as mm:
        _fill(mm)
    assert not (live / "memory.sqlite3-wal").exists()
    assert main_mark(live / "memory.sqlite3", None) == CLOSED
    assert _messages(_main_alone(live, tmp_path / "copy")) == N
    assert _messages(live) == N


def test_delete_user_keeps_the_mark_through_its_rebuild(tmp_path: Path) -> None:
    """``delete_user`` vacuums the file and empties the log: the mark stays set."""
    live = tmp_path / "live"
    with _open(live) as mm:
        _fill(mm, 20, user="bob")
        mm.delete_user("bob")
        assert main_mark(live / "memory.sqlite3", None) == mark_of(live / "memory.sqlite3")
        _fill(mm)
        copy = _main_alone(live, tmp_path / "copy")
    with pytest.raises(StoreDamagedError, match=MISSING):
        _messages(copy)


def test_a_backup_of_a_store_in_use_opens(tmp_path: Path) -> None:
    with _open(tmp_path / "live") as mm:
        _fill(mm)
        copy = mm.backup(tmp_path / "backups")
        with sqlite3.connect(copy) as conn:  # the copy carries no open mark
            assert conn.execute("PRAGMA user_version").fetchone()[0] == CLOSED
        conn.close()
        assert _messages(copy.parent) == N  # while the store is still in use
    assert _messages(_main_alone(copy.parent, tmp_path / "again")) == N


def test_a_close_while_another_manager_is_open_keeps_the_mark(tmp_path: Path) -> None:
    live = tmp_path / "live"
    first, second = _open(live), _open(live)
    try:
        _fill(second)
        first.close()  # not the last: the second has the store open
        assert (live / "memory.sqlite3-wal").exists()
        copy = _main_alone(live, tmp_path / "copy")
    finally:
        second.close()  # the last: clears the mark, the log is folded in
    with pytest.raises(StoreDamagedError, match=MISSING):
        _messages(copy)
    assert _messages(_main_alone(live, tmp_path / "after")) == N


@pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL and flock")
def test_a_crash_leaves_the_log_and_the_store_opens_whole(tmp_path: Path) -> None:
    """Another process has the store open; this one opens and closes it (not the last),
    then the other is killed with SIGKILL: its log stays, so the store opens with every
    message, while a main file copied alone, before or after the kill, is refused."""
    live = tmp_path / "live"
    with _child(live) as proc:
        with _open(live) as mm:
            _fill(mm, 10, user="bob")
            assert mm.stats("ann")["messages"] == N
        before = _main_alone(live, tmp_path / "before")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    assert (live / "memory.sqlite3-wal").exists()
    after = _main_alone(live, tmp_path / "after")
    for copy in (before, after):
        with pytest.raises(StoreDamagedError, match=MISSING):
            _messages(copy)
    assert _messages(live) == N and _messages(live, user="bob") == 10
    assert _messages(_main_alone(live, tmp_path / "closed")) == N  # closed cleanly now


@pytest.mark.skipif(os.name != "posix", reason="runs a child process")
def test_a_process_ending_without_close_leaves_its_log_like_a_crash(tmp_path: Path) -> None:
    """Its worker thread keeps the connection open to the end: the log stays on disk,
    the store opens with every message, and the main file alone is refused."""
    live = tmp_path / "live"
    with _child(live, how="exit") as proc:
        proc.wait(timeout=60)
    assert proc.returncode == 0
    assert (live / "memory.sqlite3-wal").exists()
    with pytest.raises(StoreDamagedError, match=MISSING):
        _messages(_main_alone(live, tmp_path / "copy"))
    assert _messages(live) == N


def test_a_backend_collected_without_close_clears_the_mark(tmp_path: Path) -> None:
    """The finalizer clears the mark before the collected connection folds its log in."""
    live = tmp_path / "live"
    backend = SQLiteBackend(live, checkpoint_seconds=1e9)
    backend.set_meta("note", "written before the backend was dropped")
    del backend
    gc.collect()
    assert not (live / "memory.sqlite3-wal").exists()
    assert main_mark(live / "memory.sqlite3", None) == CLOSED
    copy = _main_alone(live, tmp_path / "copy")
    again = SQLiteBackend(copy)
    assert again.get_meta("note") == "written before the backend was dropped"
    again.close()


def test_a_file_whose_last_connection_left_the_mark_opens(tmp_path: Path) -> None:
    """Another program closing last (or an older release) leaves the mark: the very
    file opens, SQLite folded its log in; a copy of it is refused until accepted."""
    live = tmp_path / "live"
    with _open(live) as mm:
        _fill(mm)
    file = live / "memory.sqlite3"
    conn = sqlite3.connect(file, isolation_level=None)
    conn.execute(f"PRAGMA user_version = {mark_of(file)}")
    conn.close()
    assert not (live / "memory.sqlite3-wal").exists()
    copy = _main_alone(live, tmp_path / "copy")
    assert _messages(live) == N
    with pytest.raises(StoreDamagedError, match=MISSING):
        _messages(copy)
    assert _messages(copy, integrity="never") == N


def test_an_encrypted_main_file_copied_alone_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("sqlcipher3")
    key = "correct horse battery staple"
    live = tmp_path / "live"
    with _open(live, encryption_key=key) as mm:
        _fill(mm, 50)
        copy = _main_alone(live, tmp_path / "copy")
        backup = mm.backup(tmp_path / "backups")
    with pytest.raises(StoreDamagedError, match=MISSING):
        _messages(copy, encryption_key=key)
    with pytest.raises(ValueError, match="cannot read"):  # without its key: not checked
        _messages(copy)
    assert _messages(backup.parent, encryption_key=key) == 50
    assert _messages(_main_alone(live, tmp_path / "closed"), encryption_key=key) == 50
