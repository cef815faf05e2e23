"""Working memory in Redis: what it costs a write and what a session read takes, against
the store alone, in the same run.

Usage:
    python benchmarks/working_memory_redis.py [--sessions 20] [--turns 20] [--reads 300]

Starts a real ``redis-server`` (``/usr/bin/redis-server``) on a free loopback port with
no persistence, and two SQLite managers in temporary directories (``HashingEmbeddings``,
so the model's time is left out): one with ``WriteSection.working_memory_url``, one
without. Each writes the same turns (``add_turn``); then each reads the latest 20
messages of random sessions (``session_messages``: the read path's short-term window),
and builds contexts. Prints p50/p95 per operation for both, and the ratios Redis/store.
A second manager process is what Redis is for; here the figures are of one process.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from redis_scratch import RedisServer, redis_binary  # noqa: E402

from langgraph_memory import MemoryConfig, MemoryManager  # noqa: E402
from langgraph_memory.embeddings import HashingEmbeddings  # noqa: E402


def timed(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1e3)
    return out


def pct(xs: list[float], q: float) -> float:
    return statistics.quantiles(xs, n=100)[int(q) - 1] if len(xs) > 1 else xs[0]


def measure(mm: MemoryManager, args: argparse.Namespace) -> dict[str, list[float]]:
    """p50/p95 material of one manager: its writes, window reads and contexts."""
    rng = random.Random(0)
    got: dict[str, list[float]] = {"add_turn": []}
    for t in range(args.turns):
        for s in range(args.sessions):
            ask = f"turn {t} 第{t}轮 about topic {rng.randint(0, 9)}"
            t0 = time.perf_counter()
            mm.add_turn(f"u{s % 5}", f"s{s}", user=ask, assistant="noted, 好的")
            got["add_turn"].append((time.perf_counter() - t0) * 1e3)
    mm.flush()
    window = mm._parts.window
    source: Any = window if window is not None else mm._parts.storage

    def read() -> object:
        s = rng.randrange(args.sessions)
        return source.session_messages(f"u{s % 5}", f"s{s}", last=20)

    def context() -> object:
        s = rng.randrange(args.sessions)
        return mm.build_context(f"u{s % 5}", f"s{s}", "what about topic 3?")

    got["window_read"] = timed(read, args.reads)
    got["build_context"] = timed(context, args.contexts)
    if window is not None:
        print(f"redis reads: {window.counts}")
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--reads", type=int, default=300)
    ap.add_argument("--contexts", type=int, default=40)
    args = ap.parse_args()
    if redis_binary() is None:
        sys.exit("redis-server is not installed (apt-get install redis-server)")
    server = RedisServer.start()
    tmp = Path(tempfile.mkdtemp(prefix="lgm-wm-bench-"))
    cfg = MemoryConfig(write={"working_memory_url": server.url})
    rows: dict[str, dict[str, list[float]]] = {}
    try:
        for name, config in (("store", None), ("redis", cfg)):
            with MemoryManager(tmp / name, embeddings=HashingEmbeddings(), config=config) as mm:
                rows[name] = measure(mm, args)
    finally:
        server.remove()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{'operation':<14} {'store p50':>10} {'store p95':>10} {'redis p50':>10} "
          f"{'redis p95':>10} {'ratio p50':>10}")  # fmt: skip
    for op in rows["store"]:
        a, b = rows["store"][op], rows["redis"][op]
        print(
            f"{op:<14} {pct(a, 50):>10.3f} {pct(a, 95):>10.3f} {pct(b, 50):>10.3f} "
            f"{pct(b, 95):>10.3f} {pct(b, 50) / pct(a, 50):>10.2f}"
        )


if __name__ == "__main__":
    main()
