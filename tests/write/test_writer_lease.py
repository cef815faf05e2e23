"""Several processes on one store: the writer lease lets one hierarchy writer work at a time,
and every process sees what the others placed.

Two manager processes ingest at once into one SQLite directory and into one PostgreSQL
database, for a shared user and each for its own. Each message must end up embedded once
and placed in exactly one page (short-term or mid-term), with session pages in order: two
unsynchronised writers would place the shared user's messages twice or overwrite each
other's segments.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pg_server
import pytest
from test_hierarchy_replay import placements  # one message-placement count for both

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.hierarchy.coherence import EPOCH_KIND, epoch_record_id
from langgraph_memory.storage import MemoryBackend, SQLiteBackend

CONFIG = {"stm_capacity_pages": 2, "embed_batch_size": 8}  # mid-term within a few turns
N_TURNS = 40


def _open_backend(where: tuple[str, str]) -> MemoryBackend:
    kind, place = where
    if kind == "postgres":
        from langgraph_memory.storage.postgres.backend import PostgresBackend

        return PostgresBackend(place, max_size=3)
    return SQLiteBackend(place)


def ingest_turns(mm: MemoryManager, worker: int, n_turns: int, barrier: object) -> None:
    """In a child process: wait for the others at ``barrier``, then add ``n_turns`` turns
    for the user ``shared`` and as many for ``own-<worker>``, and flush."""
    barrier.wait(timeout=120)  # type: ignore[attr-defined]
    for i in range(n_turns):
        for user in ("shared", f"own-{worker}"):
            mm.add_turn(
                user,
                f"s{i % 3}",
                user=f"Worker {worker} question {i}: which tea goes with rice {i % 5}?",
                assistant=f"Answer {i}: jasmine tea, brewed {i % 4} minutes.",
            )
    mm.flush(timeout=120)


def _ingest(where: tuple[str, str], worker: int, barrier: object) -> int:
    """A child process: a manager that ingests turns for ``shared`` and its own user."""
    backend = _open_backend(where)
    mm = MemoryManager(
        backend=backend, embeddings=HashingEmbeddings(), config=MemoryConfig.flat(**CONFIG)
    )
    try:
        ingest_turns(mm, worker, N_TURNS, barrier)
        return mm._write.worker.processed
    finally:
        mm.close()


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """``(backend kind, SQLite directory or PostgreSQL conninfo)``."""
    if request.param == "sqlite":
        yield ("sqlite", str(tmp_path / "mem"))
        return
    request.applymarker(pytest.mark.server)
    if not pg_server.available():
        pytest.skip("PostgreSQL tests need: pip install 'langgraph-memory[postgres]'")
    yield ("postgres", pg_server.session_databases().new_database())


def test_the_lease_is_exclusive_and_released(store: tuple[str, str]) -> None:
    a, b = _open_backend(store), _open_backend(store)
    assert a.name == store[0]
    try:
        with a.writer_lease() as mine:
            assert mine
            with b.writer_lease() as theirs:
                assert not theirs  # held by the other instance (another process alike)
        with b.writer_lease() as theirs:
            assert theirs  # released on exit
        with a.writer_lease() as mine:
            assert mine
            a.close()  # a closed store (or a dead process) holds nothing
        with b.writer_lease() as theirs:
            assert theirs
    finally:
        a.close()
        b.close()


@pytest.mark.slow
def test_two_processes_place_every_message_once(store: tuple[str, str]) -> None:
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as sync:
        barrier = sync.Barrier(2)
        with ctx.Pool(2) as pool:
            processed = pool.starmap_async(_ingest, [(store, w, barrier) for w in (0, 1)], 1).get(
                timeout=400
            )
    users = ["shared", "own-0", "own-1"]
    with MemoryManager(
        backend=_open_backend(store),
        embeddings=HashingEmbeddings(),
        config=MemoryConfig.flat(**CONFIG),
    ) as mm:
        total = 0
        for user in users:
            msgs = mm._backend.iter_messages(user)
            total += len(msgs)
            assert len(msgs) == (4 if user == "shared" else 2) * N_TURNS
            assert mm.stats(user)["embedded"] == len(msgs)
            assert placements(mm, user) == Counter(m.seq for m in msgs), user
            for session in ("s0", "s1", "s2"):
                seqs = [s for p in mm._parts.hierarchy.state(user, session).pages for s in p.seqs]
                assert seqs == sorted(seqs)
            assert mm._backend.get_record(EPOCH_KIND, epoch_record_id(user), user) is not None
        # every message embedded by exactly one of the two workers
        assert sum(processed) == total


def test_a_process_reloads_what_another_placed(tmp_path: Path) -> None:
    """Manager ``b`` read a user's hierarchy, ``a`` then placed more: ``b`` sees it on its
    next write hold, and its readers within a second."""
    cfg = MemoryConfig.flat(**CONFIG)
    path = tmp_path / "mem"
    a = MemoryManager(path, embeddings=HashingEmbeddings(), config=cfg)
    b = MemoryManager(path, embeddings=HashingEmbeddings(), config=cfg)
    try:

        def placed(mm: MemoryManager) -> int:
            return sum(placements(mm, "ann").values())

        a.add_turn("ann", "s1", user="I like oolong tea.", assistant="Noted.")
        a.flush()
        b.flush()
        assert placed(b) == placed(a) == 2
        with b._write.writer.hold() as mine:  # b holds the lease: a's worker waits
            assert mine
            a.add_turn("ann", "s1", user="And green tea too.", assistant="Noted as well.")
            with pytest.raises(TimeoutError):
                a.flush(timeout=1.5)
        a.flush()  # either worker may have placed it: a's readers see it within a second
        _wait_for(lambda: placed(a) == 4)
        with b._write.writer.hold() as mine:
            assert mine and placed(b) == 4  # reloaded at its first use in the hold
        _wait_for(lambda: placed(a) == placed(b) == 4)
    finally:
        a.close()
        b.close()


def _wait_for(check: Callable[[], bool], timeout: float = 5.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.1)


def _open_fresh(path: str, barrier: object) -> str | None:
    """A child process: open ``path`` together with the others; the error, if any."""
    barrier.wait(timeout=120)  # type: ignore[attr-defined]
    try:
        SQLiteBackend(path).close()
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.mark.slow
def test_processes_opening_a_new_store_together_all_succeed(tmp_path: Path) -> None:
    """Switching a new file to WAL locks it, and SQLite answers a second opener with
    "database is locked" at once, without waiting: each opener must retry, not fail."""
    ctx = multiprocessing.get_context("spawn")
    errors: list[str] = []
    with ctx.Manager() as sync, ctx.Pool(3) as pool:
        for round_ in range(12):
            barrier = sync.Barrier(3)
            where = str(tmp_path / f"store-{round_}")
            results = pool.starmap_async(_open_fresh, [(where, barrier)] * 3, 1).get(timeout=300)
            errors += [r for r in results if r]
    assert errors == []
