"""What managers dropped without ``close()`` leave behind: file descriptors and threads.

Usage:
    python benchmarks/resources.py [--managers 100] [--postgres URL|embedded]

For each store (a SQLite file store per manager, an in-memory store, and with
``--postgres`` a PostgreSQL database: a URL, or ``embedded`` to start the test suite's
embedded server) this makes ``--managers`` managers with the hashing embedder, uses
each (``add_message``, ``flush``, ``search``; every tenth is dropped without ``flush``,
its worker still lingering over the message) and drops it without ``close()``, two ways:

- ``dropped``: each manager is dropped right after use (``del mm``);
- ``held``: every manager is kept in a list until all are made and used, then the
  list is dropped (the peak is then what that many open managers hold; on PostgreSQL
  ``--held-postgres`` of them, 20 by default, as each holds a pool of connections).

Printed per run: open file descriptors (``/proc/self/fd``), Python threads
(``threading.active_count()``) and OS threads (``/proc/self/task``) before (after one
manager was made, used and closed, so that the process-wide helpers exist), at the peak
while the managers live, and after the drop and a ``gc.collect()`` (threads of the
search pools end a moment after their pool's shutdown: up to 5 s are allowed); the
managers still alive after the collection; and the wall time. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from langgraph_memory import MemoryManager  # noqa: E402
from langgraph_memory.embeddings import HashingEmbeddings  # noqa: E402
from langgraph_memory.storage import InMemoryBackend  # noqa: E402

Make = Callable[[int], MemoryManager]


def counts() -> tuple[int, int, int]:
    """Open fds, Python threads, OS threads."""
    return (
        len(os.listdir("/proc/self/fd")),
        threading.active_count(),
        len(os.listdir("/proc/self/task")),
    )


def use(mm: MemoryManager, i: int) -> None:
    mm.add_message("ann", "s1", "user", f"message {i}: I moved to Lyon last spring")
    if i % 10:
        mm.flush()
    mm.search("ann", "Lyon", k=1)


def settle(before: tuple[int, int, int], timeout: float = 5.0) -> tuple[int, int, int]:
    deadline = time.monotonic() + timeout
    while True:
        gc.collect()
        now = counts()
        if all(n <= b for n, b in zip(now, before, strict=True)) or time.monotonic() > deadline:
            return now
        time.sleep(0.02)


def run(make: Make, n: int, held: bool) -> dict[str, object]:
    with make(-1) as mm:  # the process-wide helpers (the matvec thread...) exist after this
        use(mm, 1)
    gc.collect()
    before = counts()
    peak = before
    refs: list[weakref.ref[MemoryManager]] = []
    keep: list[MemoryManager] = []
    t0 = time.perf_counter()
    for i in range(n):
        mm = make(i)
        use(mm, i)
        refs.append(weakref.ref(mm))
        peak = tuple(max(p, c) for p, c in zip(peak, counts(), strict=True))  # type: ignore[assignment]
        if held:
            keep.append(mm)
        del mm  # never closed
    keep.clear()
    after = settle(before)
    seconds = time.perf_counter() - t0
    alive = sum(r() is not None for r in refs)
    return {"before": before, "peak": peak, "after": after, "alive": alive, "s": seconds}


def stores(tmp: Path, postgres: str | None) -> dict[str, Make]:
    made: dict[str, Make] = {
        "sqlite (file)": lambda i: MemoryManager(tmp / f"m{i}", embeddings=HashingEmbeddings()),
        "memory": lambda i: MemoryManager(
            backend=InMemoryBackend(), embeddings=HashingEmbeddings()
        ),
    }
    if postgres is not None:
        url = postgres
        made["postgres"] = lambda i: MemoryManager.from_conn_string(
            url, embeddings=HashingEmbeddings()
        )
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--managers", type=int, default=100)
    parser.add_argument(
        "--held-postgres",
        type=int,
        default=20,
        help="PostgreSQL managers held open at once (each holds a pool of connections; "
        "the embedded server allows 300)",
    )
    parser.add_argument("--postgres", help="a database URL, or 'embedded'")
    args = parser.parse_args(argv)
    server = None
    url = args.postgres
    if url == "embedded":
        sys.path.insert(0, str(ROOT / "tests"))
        import pg_server

        server = pg_server.start_server()
        url = pg_server.TestDatabases(server.url("postgres")).new_database()
    try:
        with tempfile.TemporaryDirectory(prefix="lgm-resources-") as tmp:
            print(
                "managers made, used and dropped without close(): "
                "open fds / Python threads / OS threads"
            )
            head = f"{'store':<14} {'how':<8} {'n':>4} {'before':>12} {'peak':>12} {'after':>12}"
            print(head + f" {'alive':>6} {'time':>7}")
            for name, make in stores(Path(tmp), url).items():
                for held in (False, True):
                    n = args.held_postgres if held and name == "postgres" else args.managers
                    r = run(make, n, held)
                    cells = ["/".join(map(str, r[k])) for k in ("before", "peak", "after")]  # type: ignore[call-overload]
                    print(
                        f"{name:<14} {'held' if held else 'dropped':<8} {n:>4} "
                        + " ".join(f"{c:>12}" for c in cells)
                        + f" {r['alive']:>6} {r['s']:>6.1f}s"
                    )
    finally:
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
