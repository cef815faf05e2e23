"""A manager dropped without ``close()`` gives back its threads, connections and files.

The manager's :class:`~langgraph_memory.parts.lifetime.Lifetime` carries a finaliser
that stops the worker and the search pools and closes the store once the manager and
its parts are unreachable; nothing the finaliser or a background thread holds refers
back to them, so dropping is enough. See ``benchmarks/resources.py`` for the numbers.
"""

from __future__ import annotations

import gc
import logging
import os
import subprocess
import sys
import textwrap
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import WORKER_THREAD
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.parts.lifetime import LIBRARY_THREADS, Lifetime
from langgraph_memory.storage import InMemoryBackend

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts /proc fds")

ROOT = Path(__file__).resolve().parent.parent


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def settled(baseline: int, count: Callable[[], int], slack: int, timeout: float = 5.0) -> int:
    """``count()`` once it is within ``slack`` of ``baseline`` (pools' threads end a
    moment after their shutdown), or when ``timeout`` has passed."""
    deadline = time.monotonic() + timeout
    while (now := count()) > baseline + slack and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.02)
    return now


def workers() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == WORKER_THREAD}


def made(before: set[threading.Thread]) -> threading.Thread:
    """The worker thread started since ``before``."""
    (thread,) = workers() - before
    return thread


def ends(thread: threading.Thread, timeout: float = 5.0) -> bool:
    thread.join(timeout)
    return not thread.is_alive()


def use(mm: MemoryManager, i: int, *, flush: bool = True) -> None:
    mm.add_message("ann", "s1", "user", f"message {i}: I moved to Lyon last spring")
    if flush:
        mm.flush()
    assert mm.search("ann", "Lyon", k=1)


def warm_up(make: Callable[[int], MemoryManager]) -> tuple[int, int]:
    """The fds and threads once the process-wide helpers exist (one manager used, closed)."""
    with make(-1) as mm:
        use(mm, -1)
    gc.collect()
    return fds(), threading.active_count()


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_a_hundred_dropped_managers_give_back_threads_and_files(tmp_path: Path, kind: str) -> None:
    def make(i: int) -> MemoryManager:
        if kind == "sqlite":
            return MemoryManager(tmp_path / f"m{i}", embeddings=HashingEmbeddings())
        return MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())

    base_fds, base_threads = warm_up(make)
    refs, peak = [], 0
    for i in range(100):
        mm = make(i)
        use(mm, i, flush=i % 10 != 0)  # every tenth dropped with its worker still busy
        refs.append(weakref.ref(mm))
        del mm  # no close()
        peak = max(peak, threading.active_count() - base_threads)
    gc.collect()
    assert all(r() is None for r in refs)
    assert settled(base_threads, threading.active_count, 1) <= base_threads + 1
    assert settled(base_fds, fds, 2) <= base_fds + 2
    assert peak <= 8  # released as they go: the process stays bounded


def test_dropped_postgres_managers_give_back_pools_and_sockets(
    pg_databases: object,
) -> None:
    url = pg_databases.new_database()  # type: ignore[attr-defined]

    def make(i: int) -> MemoryManager:
        return MemoryManager.from_conn_string(url, embeddings=HashingEmbeddings())

    base_fds, base_threads = warm_up(make)
    refs = []
    for i in range(20):
        mm = make(i)
        use(mm, i)
        refs.append(weakref.ref(mm))
        del mm
    gc.collect()
    assert all(r() is None for r in refs)
    assert settled(base_threads, threading.active_count, 1) <= base_threads + 1
    assert settled(base_fds, fds, 2) <= base_fds + 2


def test_nothing_keeps_a_dropped_manager_alive(tmp_path: Path) -> None:
    """Not the worker thread, the pools, the finaliser, nor the manager's own cycles
    (``mm.aio`` refers back to it): the manager is collected while its worker still
    runs, and only then released."""
    before = workers()
    mm = MemoryManager(tmp_path / "m", embeddings=HashingEmbeddings())
    worker = made(before)
    use(mm, 0)
    assert mm.aio.sync is mm  # a cycle: collected by gc, not by reference counting
    finalizer = mm._life._finalizer
    assert finalizer is not None and finalizer.alive
    held = finalizer.peek()
    assert held is not None and mm not in held[2] and mm._life not in held[2]
    ref, life = weakref.ref(mm), weakref.ref(mm._life)
    del mm, held
    gc.collect()
    assert ref() is None and life() is None
    assert not finalizer.alive and ends(worker)


def test_a_part_keeps_its_memory_open(tmp_path: Path) -> None:
    before = workers()
    mm = MemoryManager(tmp_path / "m", embeddings=HashingEmbeddings())
    worker = made(before)
    tasks, ref = mm.tasks, weakref.ref(mm)
    del mm
    gc.collect()
    assert ref() is None  # the manager is gone, its memory is not: the part still works
    tid = tasks.start("ann", "s1", "restart nginx")
    assert tasks.get("ann", tid) is not None and worker.is_alive()
    del tasks
    assert ends(worker)


def test_a_dropped_manager_loses_no_accepted_message(
    tmp_path: Path, failing_embeddings: type[Embeddings]
) -> None:
    path = tmp_path / "m"
    mm = MemoryManager(path, embeddings=failing_embeddings())  # the worker embeds nothing
    ids = [mm.add_message("ann", "s1", "user", f"note {i} about Lyon") for i in range(30)]
    assert mm.stats("ann")["pending"] == 30
    del mm  # dropped: its worker stopped, its store closed
    gc.collect()
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        mm.flush()
        stats = mm.stats("ann")
        assert stats["messages"] == 30 and stats["pending"] == 0
        assert {h.id for h in mm.search("ann", "note about Lyon", k=30, layers=["message"])} == set(
            ids
        )


def test_closing_twice_and_dropping_after_close_are_no_ops(tmp_path: Path) -> None:
    mm = MemoryManager(tmp_path / "m", embeddings=HashingEmbeddings())
    use(mm, 0)
    finalizer = mm._life._finalizer
    mm.close()
    mm.close()
    assert mm.closed and finalizer is not None and not finalizer.alive
    with pytest.raises(RuntimeError, match="closed"):
        mm.search("ann", "Lyon")
    del mm
    gc.collect()


def test_the_release_runs_once_never_raises_and_leaves_library_threads(
    caplog: pytest.LogCaptureFixture,
) -> None:
    ran: list[str] = []

    def failing() -> None:
        ran.append("failing")
        raise OSError("disk gone")

    life = Lifetime()
    life.release_on_drop(failing, lambda: ran.append(threading.current_thread().name))
    with pytest.raises(RuntimeError, match="already"):
        life.release_on_drop(failing)
    with caplog.at_level(logging.WARNING, "langgraph_memory.parts.lifetime"):
        del life
    assert ran == ["failing", "MainThread"]  # the second ran after the first failed
    assert "disk gone" in caplog.text

    # collected on one of the library's threads (a worker's gc pass): handed to another
    ran.clear()
    done = threading.Event()
    box = [Lifetime()]
    box[0].release_on_drop(lambda: ran.append(threading.current_thread().name), done.set)
    dropper = threading.Thread(target=box.clear, name=f"{LIBRARY_THREADS}-embed")
    dropper.start()
    dropper.join()
    assert done.wait(5)
    assert ran == [f"{LIBRARY_THREADS}-release"]


def test_managers_left_open_at_exit_end_quietly(tmp_path: Path) -> None:
    """At interpreter exit the finaliser does not run (the process's end releases all) and
    nothing is printed; what was accepted is in the store for the next open."""
    script = textwrap.dedent(
        f"""
        import gc, threading
        from langgraph_memory import MemoryManager
        from langgraph_memory.embeddings import HashingEmbeddings
        from langgraph_memory.storage import InMemoryBackend

        kept = MemoryManager({str(tmp_path / "a")!r}, embeddings=HashingEmbeddings())
        kept.add_message("ann", "s1", "user", "left open at exit")
        cycle = MemoryManager({str(tmp_path / "b")!r}, embeddings=HashingEmbeddings())
        cycle.add_message("ann", "s1", "user", "in a cycle at exit")
        _ = cycle.aio
        memory = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
        memory.add_message("ann", "s1", "user", "in memory")
        gc.disable()  # the cycle is still there when the interpreter ends
        del cycle
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-X", "dev", "-c", script],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    for name, text in (("a", "left open at exit"), ("b", "in a cycle at exit")):
        with MemoryManager(tmp_path / name, embeddings=HashingEmbeddings()) as mm:
            mm.flush()
            assert [h.text for h in mm.search("ann", text, k=1)] == [text]
