"""The write-ahead log read as SQLite's recovery reads it: every frame's checksum computed
at once equals SQLite's own, and a log is refused exactly when SQLite would drop
committed transactions from it (damage before the last commit, a damaged header over
pages the main file lacks), while what a crash leaves (a torn last frame, an unfinished
transaction, frames of an earlier generation after the current ones) opens."""

from __future__ import annotations

import os
import random
import sqlite3
import struct
from pathlib import Path

import pytest

from langgraph_memory import StoreDamagedError
from langgraph_memory.storage.sqlite.health import check_wal
from langgraph_memory.storage.sqlite.wal import (
    FRAME_HEADER,
    HEADER,
    checksum,
    frame_bytes,
    frame_table,
    new_header,
    wal_header,
)

PAGE = 1024
STEP = FRAME_HEADER + PAGE


def _log(
    commits: list[int], *, salts: tuple[int, int] = (5, 77), big_endian: bool = False
) -> tuple[bytes, list[bytes]]:
    """A log of one generation: frame ``i`` writes page ``i % 7 + 2`` with random bytes,
    ending a transaction where ``i`` is in ``commits``; returns it and the pages."""
    rng = random.Random(len(commits) * 31 + salts[0])
    header = new_header(PAGE, *salts, big_endian=big_endian)
    out, pages, previous = [header.raw], [], header.checksum
    for i in range(max(commits) + 1):
        page = rng.randbytes(PAGE)
        frame = frame_bytes(header, i % 7 + 2, 9 if i in commits else 0, page, previous)
        previous = struct.unpack(">II", frame[16:24])
        out.append(frame)
        pages.append(page)
    return b"".join(out), pages


def _store(tmp_path: Path, log: bytes, main: bytes = b"") -> Path:
    file = tmp_path / "memory.sqlite3"
    file.write_bytes(main or bytes(10 * PAGE))
    file.with_name(file.name + "-wal").write_bytes(log)
    return file


def _damage(log: bytes, frame: int, where: str) -> bytes:
    """Change a frame's page bytes, or its salts."""
    data = bytearray(log)
    at = HEADER + frame * STEP + (FRAME_HEADER + PAGE // 2 if where == "page" else 8)
    data[at : at + 4] = bytes(b ^ 0x5A for b in data[at : at + 4])
    return bytes(data)


@pytest.mark.parametrize("big_endian", [False, True])
def test_every_frames_checksum_at_once_equals_sqlites(big_endian: bool) -> None:
    log, _ = _log([3, 8, 12], big_endian=big_endian)
    header = wal_header(log)
    table = frame_table(log, PAGE, header.order, header.checksum)
    assert header.valid and table.chained.all() and table.salts_of(header.salts).all()
    assert table.commit.nonzero()[0].tolist() == [3, 8, 12]
    s0, s1 = header.checksum  # the same chain one word pair at a time
    for i in range(len(table.page)):
        at = HEADER + i * STEP
        s0, s1 = checksum(
            log[at : at + 8] + log[at + FRAME_HEADER : at + STEP], s0, s1, header.order
        )
        assert (s0, s1) == struct.unpack(">II", log[at + 16 : at + 24])


def test_a_real_log_reads_whole(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE t (x)")
    for _ in range(50):
        conn.execute("INSERT INTO t VALUES (?)", (os.urandom(300),))
    log = (tmp_path / "db.sqlite3-wal").read_bytes()
    header = wal_header(log)
    table = frame_table(log, header.page_size, header.order, header.checksum)
    assert table.chained.all() and table.commit.sum() == 51
    check_wal(tmp_path / "db.sqlite3")
    conn.close()


@pytest.mark.parametrize("where", ["page", "salts"])
@pytest.mark.parametrize("frame", [0, 5, 11])
def test_damage_before_the_last_commit_is_refused(tmp_path: Path, frame: int, where: str) -> None:
    """Frame 12 commits last; damage at or before frame 11 (its page, or the salts of its
    header, which SQLite took for the end of the log) would drop it."""
    log, _ = _log([3, 8, 12])
    file = _store(tmp_path, _damage(log, frame, where))
    with pytest.raises(StoreDamagedError, match=f"frame {frame + 1} of its write-ahead log"):
        check_wal(file)


def test_a_frame_lost_whole_just_before_the_last_commit_is_refused(tmp_path: Path) -> None:
    """The frame before the last commit overwritten whole: the commit's own checksum
    cannot be checked (it continues the lost one), its salts still say it is committed."""
    log, _ = _log([3, 8, 12])
    data = bytearray(log)
    at = HEADER + 11 * STEP
    data[at : at + STEP] = os.urandom(STEP)
    with pytest.raises(StoreDamagedError, match="frame 12 .* 1 committed transactions"):
        check_wal(_store(tmp_path, bytes(data)))


@pytest.mark.parametrize(
    "case", ["torn last commit", "unfinished tail", "cut mid-frame", "earlier generation"]
)
def test_what_a_crash_leaves_opens(tmp_path: Path, case: str) -> None:
    log, _ = _log([3, 8, 12])
    if case == "torn last commit":
        log = _damage(log, 12, "page")
    elif case == "unfinished tail":  # frames after the last commit, one of them damaged
        tail, _ = _log([3, 8, 12, 15])
        log = _damage(tail[: HEADER + 15 * STEP], 14, "page")  # frames 13, 14 uncommitted
    elif case == "cut mid-frame":
        log = log[: HEADER + 12 * STEP + 100]
    else:  # a new generation of 4 frames over an older one that has commits further on
        newer, _ = _log([3], salts=(6, 1234))
        log = newer + log[len(newer) :]
    check_wal(_store(tmp_path, log))


def test_a_damaged_header_is_refused_unless_the_main_file_holds_the_log(tmp_path: Path) -> None:
    """SQLite ignores a log whose header fails its checksum: refused when its committed
    pages are not in the main file, opened when a checkpoint already copied them."""
    log, pages = _log([3, 8, 12])
    damaged = b"\x00" * 32 + log[32:]
    file = _store(tmp_path, damaged)
    with pytest.raises(StoreDamagedError, match="header is damaged"):
        check_wal(file)
    main = bytearray(10 * PAGE)
    for i, page in enumerate(pages):  # every page as the log's last commit leaves it
        at = (i % 7 + 1) * PAGE
        main[at : at + PAGE] = page
    file.write_bytes(bytes(main))
    check_wal(file)


def test_a_store_with_a_damaged_log_is_not_changed_and_opens_with_never(tmp_path: Path) -> None:
    from langgraph_memory.storage import SQLiteBackend

    path = tmp_path / "s"
    conn = sqlite3.connect(path.with_suffix(".sqlite3"), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE t (x)")
    for _ in range(30):
        conn.execute("INSERT INTO t VALUES (?)", (os.urandom(2000),))
    files = [path.with_suffix(s) for s in (".sqlite3", ".sqlite3-wal")]
    copies = [tmp_path / f"copy{f.suffix}" for f in files]
    for src, dst in zip(files, copies, strict=True):
        dst.write_bytes(src.read_bytes())
    conn.close()
    log = bytearray(copies[1].read_bytes())
    log[HEADER + 5 * (24 + 4096) + 8] ^= 1  # frame 6's salts
    copies[1].write_bytes(bytes(log))
    before = {f.name: f.read_bytes() for f in tmp_path.iterdir() if f.name.startswith("copy")}
    with pytest.raises(StoreDamagedError, match='integrity="never"'):
        SQLiteBackend(copies[0])
    after = {f.name: f.read_bytes() for f in tmp_path.iterdir() if f.name.startswith("copy")}
    assert after == before  # nothing changed
    SQLiteBackend(copies[0], integrity="never").close()  # as SQLite reads it
