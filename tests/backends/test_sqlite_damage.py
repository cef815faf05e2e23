"""Damage detected: a SQLite store whose files are damaged or half-copied raises a clear
error on open instead of opening empty or short, and nothing is changed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from langgraph_memory import MemoryManager, StoreDamagedError
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import SQLiteBackend
from langgraph_memory.storage.sqlite.health import (
    CLOSED,
    check_files,
    check_wal,
    main_mark,
    wal_frames,
)

N = 300
FILES = ("memory.sqlite3", "memory.sqlite3-wal", "memory.sqlite3-shm")


@pytest.fixture(scope="module")
def hot_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three files of a store of N messages, copied while it was open (its writes
    are in the write-ahead log, not yet in the main file)."""
    src = tmp_path_factory.mktemp("live")
    out = tmp_path_factory.mktemp("copy")
    with MemoryManager(src, embeddings=HashingEmbeddings()) as mm:
        for i in range(N):
            mm.add_message("ann", "s1", "user", f"note {i} about the lake")
        mm.flush()
        assert wal_frames(src / "memory.sqlite3-wal")
        for name in FILES:
            shutil.copy(src / name, out / name)
    return out


def _copy(hot: Path, dest: Path, names: tuple[str, ...] = FILES) -> Path:
    dest.mkdir()
    for name in names:
        shutil.copy(hot / name, dest / name)
    return dest


def _messages(path: Path, **kw: object) -> int:
    with MemoryManager(
        backend=SQLiteBackend(path, **kw),
        embeddings=HashingEmbeddings(),  # type: ignore[arg-type]
    ) as mm:
        return int(mm.stats("ann")["messages"])


def test_a_whole_hot_copy_opens_with_every_message(hot_copy: Path, tmp_path: Path) -> None:
    assert _messages(_copy(hot_copy, tmp_path / "ok")) == N


def test_a_copy_without_its_log_is_refused(hot_copy: Path, tmp_path: Path) -> None:
    """Its -shm counts frames the missing -wal held: 0 of N messages would open."""
    path = _copy(hot_copy, tmp_path / "nowal", ("memory.sqlite3", "memory.sqlite3-shm"))
    before = {f.name: f.read_bytes() for f in path.iterdir()}
    with pytest.raises(StoreDamagedError, match="memory.sqlite3-wal is missing"):
        _messages(path)
    assert {f.name: f.read_bytes() for f in path.iterdir()} == before  # nothing changed


def test_a_cut_log_is_refused(hot_copy: Path, tmp_path: Path) -> None:
    path = _copy(hot_copy, tmp_path / "cut")
    wal = path / "memory.sqlite3-wal"
    wal.write_bytes(wal.read_bytes()[: wal.stat().st_size // 2])
    with pytest.raises(StoreDamagedError, match="counts .* frames"):
        _messages(path)


def _flip(wal: Path, frame: int) -> None:
    """Change a byte in the page of a log frame (0-based), as a bad disk or copy would."""
    data = bytearray(wal.read_bytes())
    page_size = int.from_bytes(data[8:12], "big")
    at = 32 + frame * (24 + page_size) + 24 + page_size // 2
    data[at] ^= 0xFF
    wal.write_bytes(bytes(data))


def test_a_log_damaged_before_its_end_is_refused(hot_copy: Path, tmp_path: Path) -> None:
    """SQLite would read the log up to the bad frame and drop every transaction after it."""
    path = _copy(hot_copy, tmp_path / "badframe")
    wal = path / "memory.sqlite3-wal"
    frames = wal_frames(wal)
    assert frames and frames > 4
    _flip(wal, frames // 2)
    before = {f.name: f.read_bytes() for f in path.iterdir()}
    damaged = "fails its checksum while .* committed transactions"
    with pytest.raises(StoreDamagedError, match=damaged):
        _messages(path)
    assert {f.name: f.read_bytes() for f in path.iterdir()} == before  # nothing changed
    # the same log without the check opens short: what the check prevents
    with pytest.raises(StoreDamagedError):
        check_wal(path / "memory.sqlite3")


def test_a_damaged_last_frame_reads_as_a_crash_mid_write(hot_copy: Path, tmp_path: Path) -> None:
    """A bad last frame cannot be told from a write cut by a crash: the store opens as
    SQLite opens it (that last transaction dropped), as documented."""
    path = _copy(hot_copy, tmp_path / "badlast")
    wal = path / "memory.sqlite3-wal"
    frames = wal_frames(wal)
    assert frames
    _flip(wal, frames - 1)
    check_wal(path / "memory.sqlite3")  # no error
    assert _messages(path) <= N


def test_a_main_file_truncated_to_zero_is_refused(hot_copy: Path, tmp_path: Path) -> None:
    path = _copy(hot_copy, tmp_path / "zero")
    (path / "memory.sqlite3").write_bytes(b"")
    with pytest.raises(StoreDamagedError, match="empty but its write-ahead log holds"):
        _messages(path)
    assert (path / "memory.sqlite3").stat().st_size == 0


def _damage_a_page(file: Path) -> None:
    data = bytearray(file.read_bytes())
    page = 4096
    assert len(data) >= 4 * page
    data[2 * page : 2 * page + 200] = b"\xff" * 200  # a b-tree page's header and cells
    file.write_bytes(bytes(data))


def test_a_damaged_page_fails_the_check_after_an_unclean_close(
    hot_copy: Path, tmp_path: Path
) -> None:
    path = _copy(hot_copy, tmp_path / "page")
    # fold the log into the main file first, so the damage is in pages SQLite reads
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        mm._backend._inner._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for i in range(5):
            mm.add_message("ann", "s2", "user", f"late note {i}")
        mm.flush()
        hot = _copy(path, tmp_path / "page-hot")  # open again: frames in the log
    _damage_a_page(hot / "memory.sqlite3")
    with pytest.raises(StoreDamagedError, match="failed its integrity check"):
        _messages(hot)


def test_a_damaged_page_of_a_cleanly_closed_store_is_found_on_request(
    hot_copy: Path, tmp_path: Path
) -> None:
    path = _copy(hot_copy, tmp_path / "clean")
    assert _messages(path) == N  # a clean close folds the log in and removes it
    assert not (path / "memory.sqlite3-wal").exists()
    _damage_a_page(path / "memory.sqlite3")
    with pytest.raises(StoreDamagedError, match="failed its integrity check"):
        _messages(path, integrity="always")
    with pytest.raises(ValueError, match="integrity"):
        SQLiteBackend(path, integrity="sometimes")  # type: ignore[arg-type]


def test_backup_of_a_store_in_use_is_whole_and_checked(tmp_path: Path) -> None:
    with MemoryManager(tmp_path / "live", embeddings=HashingEmbeddings()) as mm:
        for i in range(N):
            mm.add_message("ann", "s1", "user", f"note {i} about the lake")
        mm.flush()
        copy = mm.backup(tmp_path / "backups")
        assert copy == tmp_path / "backups" / "memory.sqlite3"
        with pytest.raises(FileExistsError, match="exists"):
            mm.backup(copy)
        mm.maintenance.verify()
        mm.add_message("ann", "s1", "user", "written after the backup")
    assert not copy.with_name(copy.name + "-wal").exists()  # one self-contained file
    assert _messages(copy.parent, integrity="always") == N


def test_cli_backup_and_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from langgraph_memory.integrations.cli.commands import main

    with MemoryManager(tmp_path / "m", embeddings=HashingEmbeddings()) as mm:
        for i in range(20):
            mm.add_message("ann", "s1", "user", f"note {i}")
        mm.flush()
    args = ["--path", str(tmp_path / "m"), "--hashing"]
    assert main([*args, "backup", str(tmp_path / "b" / "copy.sqlite3")]) == 0
    assert "backed up 20 messages" in capsys.readouterr().out
    assert main(["--path", str(tmp_path / "b" / "copy.sqlite3"), "--hashing", "verify"]) == 0
    assert "ok: 20 messages of 1 users" in capsys.readouterr().out
    _damage_a_page(tmp_path / "b" / "copy.sqlite3")
    assert main(["--path", str(tmp_path / "b" / "copy.sqlite3"), "--hashing", "verify"]) == 1
    assert "integrity check" in capsys.readouterr().err


def test_backup_elsewhere_says_what_to_use(mm: MemoryManager, tmp_path: Path) -> None:
    name = mm._backend.name
    if name == "sqlite":
        assert mm.backup(tmp_path / "x.sqlite3").exists()
        return
    with pytest.raises(NotImplementedError, match="pg_dump" if name == "postgres" else "."):
        mm.backup(tmp_path / "x.sqlite3")
    mm.maintenance.verify()  # nothing of its own to check, and no error


def test_a_mismatch_that_settles_is_not_damage(hot_copy: Path, tmp_path: Path) -> None:
    """Another process at work shows a mismatch for an instant (its last close deletes
    the log before the -shm): the files are read again before anything is refused."""
    path = _copy(hot_copy, tmp_path / "settling", ("memory.sqlite3", "memory.sqlite3-shm"))
    late = threading.Timer(0.03, shutil.copy, (hot_copy / FILES[1], path / FILES[1]))
    late.start()
    try:
        assert check_files(path / "memory.sqlite3")  # the log arrived: frames, no error
    finally:
        late.join()
    assert _messages(path) == N


CHURN = r"""
import random, sys, time
from langgraph_memory.storage import SQLiteBackend
start = float(sys.argv[3])
while time.time() < start:
    pass
for j in range(40):
    b = SQLiteBackend(sys.argv[1])
    for k in range(random.randint(1, 20)):
        b.set_meta(f"k{sys.argv[2]}-{j}-{k}", "v" * 500)
    time.sleep(random.random() * 0.02)
    if j % 5 == 4:
        b.compact()  # a truncating checkpoint
    b.close()
"""


@pytest.mark.parametrize("run", range(3))
def test_processes_opening_and_closing_one_store_are_never_refused(
    tmp_path: Path, run: int
) -> None:
    """Four processes open, write, compact and close one store 40 times each at once:
    no open is refused (before the files were read again, 2 runs of 3 had one refused)."""
    start = time.time() + 1.0
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CHURN, str(tmp_path), str(i), str(start)],
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        )
        for i in range(4)
    ]
    errors = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, errors
    assert not (tmp_path / "memory.sqlite3-wal").exists()
    assert main_mark(tmp_path / "memory.sqlite3", None) == CLOSED
