"""The SQLite write-ahead log is bounded in size and in time.

Size: during a long ingestion the log file stays near ``checkpoint_pages`` (plus the
largest transaction, a worker batch), where without checkpoints it grows with every
message. Time: once the worker is idle, a checkpoint copies every commit into the
main file within ``checkpoint_seconds`` (after which, with ``synchronous="normal"``, a
power loss can no longer take them): the main file copied alone holds every message.
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import SQLiteBackend

PAGE = 4096
FILLER = "lorem ipsum dolor sit amet " * 15


def _largest_wal(directory: Path, checkpoint_pages: int, n: int) -> int:
    backend = SQLiteBackend(directory, checkpoint_pages=checkpoint_pages, checkpoint_seconds=1e9)
    wal = directory / "memory.sqlite3-wal"
    largest = 0
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
        for i in range(n):
            mm.add_message("u", f"s{i // 50}", "user", f"message {i} on topic {i % 37} {FILLER}")
            largest = max(largest, wal.stat().st_size if wal.exists() else 0)
        mm.flush(timeout=120)
        largest = max(largest, wal.stat().st_size)
    return largest


def test_the_log_stays_near_its_checkpoint_size_during_a_long_ingestion(tmp_path: Path) -> None:
    bound = (64 + 1024) * PAGE  # checkpoint_pages + room for the largest transaction
    assert _largest_wal(tmp_path / "bounded", 64, 800) <= bound
    # the control: without checkpoints the same ingestion leaves a log several times that
    assert _largest_wal(tmp_path / "unbounded", 10**9, 800) > 4 * bound


def _messages_in_main_file_alone(directory: Path, scratch: Path) -> int:
    copy = scratch / f"main-{time.monotonic_ns()}.sqlite3"
    shutil.copyfile(directory / "memory.sqlite3", copy)  # without its -wal
    conn = sqlite3.connect(copy)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0])
    except sqlite3.OperationalError:  # not even the schema has reached the main file
        return 0
    finally:
        conn.close()


@pytest.mark.parametrize("seconds", [0.2, 1e9])
def test_an_idle_worker_checkpoints_within_the_interval(tmp_path: Path, seconds: float) -> None:
    directory, scratch = tmp_path / "mem", tmp_path / "scratch"
    scratch.mkdir()
    backend = SQLiteBackend(directory, checkpoint_seconds=seconds)
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
        for i in range(40):
            mm.add_message("u", "s1", "user", f"note {i}: {FILLER}")
        mm.flush(timeout=60)
        deadline = time.monotonic() + 4.0
        found = _messages_in_main_file_alone(directory, scratch)
        while found < 40 and time.monotonic() < deadline:
            time.sleep(0.1)
            found = _messages_in_main_file_alone(directory, scratch)
        if seconds < 1:
            assert found == 40  # every commit is in the main file: synced
        else:  # the control: no time-based checkpoint, the commits are still in the log
            assert found < 40


def test_synchronous_full_and_arguments_are_checked(tmp_path: Path) -> None:
    backend = SQLiteBackend(tmp_path / "full", synchronous="full", checkpoint_pages=500)
    try:
        assert backend._read("PRAGMA synchronous") == [(2,)]  # FULL
        assert backend._read("PRAGMA wal_autocheckpoint") == [(500,)]
    finally:
        backend.close()
    default = SQLiteBackend(tmp_path / "normal")
    try:
        assert default._read("PRAGMA synchronous") == [(1,)]  # NORMAL
    finally:
        default.close()
    with pytest.raises(ValueError, match="synchronous"):
        SQLiteBackend(tmp_path / "x", synchronous="off")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="checkpoint_pages"):
        SQLiteBackend(tmp_path / "y", checkpoint_pages=0)
    with pytest.raises(ValueError, match="checkpoint_seconds"):
        SQLiteBackend(tmp_path / "z", checkpoint_seconds=0)
