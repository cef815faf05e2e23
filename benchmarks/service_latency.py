"""The service over loopback against the same store in process (issue 41's targets).

Usage:
    python benchmarks/service_latency.py [--n 10000] [--queries 200] [--clients 16]
                                         [--duration 60] [--batch 1000] [--workers N]
                                         [--concurrent-reads N] [--rate R] [--compare]
                                         [--no-writes]

One SQLite store of ``--n`` synthetic messages (``latency.py``'s generator) for one user,
embedded by the default model; then ``langgraph-memory serve`` on it as its own process
(127.0.0.1, a free port, the in-process worker) and, in this process, a manager on the
same directory. Printed, all measured in this run:

- ``POST /v1/users/{u}/context`` at 1 client (``httpx``, keep-alive) against in-process
  ``build_context``, p50/p95/p99 ms, on the same queries in alternating order (every query
  is new to each process: no embedding cache helps either side), and the p95 difference;
- ``--clients`` concurrent clients (asyncio + ``httpx.AsyncClient``) sending contexts for
  ``--duration`` seconds: contexts/s, p50/p95/p99 ms, errors;
- with ``--rate R`` (open loop): the same ``--clients`` together offering ``R`` contexts/s
  on a fixed schedule for ``--duration`` s: achieved contexts/s, p50/p95/p99 ms counted
  from each request's scheduled time (so waiting for a free client counts), errors, and
  how many requests started over 10 ms late (no client was free);
- with ``--compare``: those concurrent figures again for the service as 1 process with
  unbounded reads (the old behaviour), 1 process with reads bounded to the CPU count, and
  ``--workers`` processes (default 2 here) bounded, each started in turn on the same store;
- batch writes: ``--batch`` messages through ``POST .../messages/batch`` (100 a request)
  then ``POST /v1/flush``, against the same number through ``add_message`` then
  ``flush()`` in process, messages/s and their ratio (alternating, each twice).

Messages are synthetic, so the figures do not depend on a data set. The machine may be
shared: compare the ratios of one run, not absolute figures across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from latency import OBJECTS, SUBJECTS, TIMES, pct, synth

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import KeyFile

TENANT, USER = "bench", "bench-user"
STORE_UID = f"{TENANT}:{USER}"
ZH_Q = ["我对什么过敏？", "我们明年去哪里旅游？", "我上周去哪里出差了？", "我喜欢喝什么茶？"]


def question(rng: random.Random) -> str:
    """A new question about the synthetic conversation (English or Chinese)."""
    if rng.random() < 0.15:
        return rng.choice(ZH_Q) + f"（{rng.randint(0, 10**6)}）"
    return (
        f"What did {rng.choice(SUBJECTS)} say about {rng.choice(OBJECTS)} "
        f"{rng.choice(TIMES)}? (#{rng.randint(0, 10**6)})"
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    root: Path, port: int, hashing: bool, workers: int = 1, reads: int | None = None
) -> subprocess.Popen[str]:
    cli = [sys.executable, "-m", "langgraph_memory.integrations.cli.commands"]
    args = ["serve", "--path", str(root), "--port", str(port), "--log-level", "warning"]
    args += ["--hashing"] if hashing else []
    args += ["--workers", str(workers)]
    args += ["--concurrent-reads", str(reads)] if reads is not None else []
    proc = subprocess.Popen([*cli, *args], stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 180
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"serve exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/ready", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("serve did not become ready in 180 s")
        time.sleep(0.2)


def fill(root: Path, n: int, rng: random.Random, kw: dict) -> None:
    with MemoryManager(root, **kw) as mm:
        for i in range(n):
            role = "user" if i % 2 == 0 else "assistant"
            mm.add_message(STORE_UID, f"s{i // 50}", role, synth(rng, i))
        mm.flush(timeout=3600)


def one_client(
    mm: MemoryManager, client: httpx.Client, queries: list[str], budget: int
) -> tuple[list[float], list[float]]:
    local, remote = [], []
    path = f"/v1/users/{USER}/context"
    for i, q in enumerate(queries):
        order = ("local", "remote") if i % 2 == 0 else ("remote", "local")
        for side in order:
            t0 = time.perf_counter()
            if side == "local":
                mm.build_context(STORE_UID, "bench-q", q, token_budget=budget)
                local.append((time.perf_counter() - t0) * 1000)
            else:
                body = {"query": q, "session_id": "bench-q", "token_budget": budget}
                r = client.post(path, json=body)
                r.raise_for_status()
                remote.append((time.perf_counter() - t0) * 1000)
    return local, remote


async def concurrent(
    url: str, key: str, clients: int, duration: float, budget: int, seed: int
) -> tuple[list[float], int, float]:
    lat: list[float] = []
    errors = 0
    stop = time.monotonic() + duration
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    headers = {"Authorization": f"Bearer {key}"}

    async with httpx.AsyncClient(
        base_url=url, headers=headers, timeout=60, limits=limits
    ) as client:

        async def worker(w: int) -> None:
            nonlocal errors
            rng = random.Random(seed * 1000 + w)
            while time.monotonic() < stop:
                body = {"query": question(rng), "session_id": f"c{w}", "token_budget": budget}
                t0 = time.perf_counter()
                try:
                    r = await client.post(f"/v1/users/{USER}/context", json=body)
                    ok = r.status_code == 200
                except httpx.HTTPError:
                    ok = False
                if ok:
                    lat.append((time.perf_counter() - t0) * 1000)
                else:
                    errors += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(worker(w) for w in range(clients)))
        elapsed = time.perf_counter() - t0
    return lat, errors, elapsed


async def open_loop(
    url: str, key: str, clients: int, rate: float, duration: float, budget: int, seed: int
) -> tuple[list[float], int, int, float]:
    """``clients`` connections offering ``rate`` contexts/s on a fixed schedule: request
    ``i`` is due at ``i / rate`` s; a client takes the next due request when free. Returns
    latencies (ms, from the due time), errors, requests started > 10 ms late, seconds."""
    lat: list[float] = []
    errors = late = 0
    total = int(rate * duration)
    nxt = 0
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(
        base_url=url, headers=headers, timeout=60, limits=limits
    ) as client:
        t0 = time.perf_counter()

        async def worker(w: int) -> None:
            nonlocal errors, late, nxt
            rng = random.Random(seed * 7919 + w)
            while nxt < total:
                i, nxt = nxt, nxt + 1
                due = t0 + i / rate
                wait = due - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                elif wait < -0.010:
                    late += 1
                body = {"query": question(rng), "session_id": f"o{w}", "token_budget": budget}
                try:
                    r = await client.post(f"/v1/users/{USER}/context", json=body)
                    ok = r.status_code == 200
                except httpx.HTTPError:
                    ok = False
                if ok:
                    lat.append((time.perf_counter() - due) * 1000)
                else:
                    errors += 1

        await asyncio.gather(*(worker(w) for w in range(clients)))
        elapsed = time.perf_counter() - t0
    return lat, errors, late, elapsed


def load(url: str, key: str, args: argparse.Namespace, label: str) -> None:
    """The closed-loop figure, and the open-loop one with ``--rate``."""
    lat, errors, elapsed = asyncio.run(
        concurrent(url, key, args.clients, args.duration, args.budget, args.seed)
    )
    print(f"\n{label}: {args.clients} closed-loop clients for {elapsed:.1f} s:")
    print(
        f"  {len(lat) / elapsed:.1f} contexts/s, p50 {pct(lat, 50):.1f}  "
        f"p95 {pct(lat, 95):.1f}  p99 {pct(lat, 99):.1f} ms, {errors} errors"
        "  (target >= 50/s, p95 <= 150 ms, 0 errors)"
    )
    if args.rate:
        lat, errors, late, elapsed = asyncio.run(
            open_loop(url, key, args.clients, args.rate, args.duration, args.budget, args.seed)
        )
        print(f"{label}: {args.clients} clients offering {args.rate:g} contexts/s (open loop):")
        print(
            f"  achieved {len(lat) / elapsed:.1f} contexts/s, p50 {pct(lat, 50):.1f}  "
            f"p95 {pct(lat, 95):.1f}  p99 {pct(lat, 99):.1f} ms (from the due time), "
            f"{errors} errors, {late} of {int(args.rate * args.duration)} started late"
        )


def compare(root: Path, key: str, args: argparse.Namespace) -> None:
    """The concurrent figures for each service shape, one after another on one store."""
    n = args.workers if args.workers > 1 else 2
    for label, workers, reads in (
        ("1 process, reads unbounded", 1, 0),
        ("1 process, reads bounded", 1, None),
        (f"{n} processes, reads bounded", n, None),
    ):
        port = free_port()
        proc = start_server(root, port, args.hashing, workers, reads)
        try:
            url = f"http://127.0.0.1:{port}"
            with httpx.Client(
                base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60
            ) as client:  # every process's first contexts (model, jieba) before timing
                for _ in range(4 * workers):
                    body = {"query": question(random.Random()), "session_id": "warm"}
                    client.post(f"/v1/users/{USER}/context", json=body).raise_for_status()
            load(url, key, args, label)
        finally:
            stop(proc)


def stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def writes(
    client: httpx.Client, m: int, rng: random.Random, tmp: Path, kw: dict, rounds: int = 2
) -> tuple[float, float]:
    """Messages/s until flushed: ``add_message`` + ``flush()`` by a manager alone on a
    fresh store, and HTTP batches of 100 + ``POST /v1/flush`` to the service (no other
    manager open on its store meanwhile)."""
    local_s = remote_s = 0.0
    # an untimed round first: both sides' one-time loads (rules, jieba) happen there
    for r in range(-1, rounds):
        for side in ("local", "remote") if r % 2 == 0 else ("remote", "local"):
            texts = [synth(rng, i) + f" ({side} {r} {i})" for i in range(m if r >= 0 else 100)]
            if side == "local":
                with MemoryManager(tmp / f"writes-{r}", **kw) as mm:
                    mm.maintenance.warm_up()
                    t0 = time.perf_counter()
                    for i, t in enumerate(texts):
                        mm.add_message("writer", "w", "user", t, message_id=f"l{i}")
                    mm.flush(timeout=3600)
                    local_s += (time.perf_counter() - t0) if r >= 0 else 0.0
            else:
                t0 = time.perf_counter()
                for start in range(0, m, 100):
                    batch = [
                        {"session_id": "w", "role": "user", "content": t, "message_id": f"r{j}"}
                        for j, t in enumerate(texts[start : start + 100], start)
                    ]
                    path = f"/v1/users/writer-r{r}/messages/batch"
                    client.post(path, json={"messages": batch}).raise_for_status()
                client.post("/v1/flush", json={"timeout": 600}, timeout=700).raise_for_status()
                remote_s += (time.perf_counter() - t0) if r >= 0 else 0.0
    return rounds * m / local_s, rounds * m / remote_s


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000, help="messages in the store")
    ap.add_argument("--queries", type=int, default=200, help="1-client queries per side")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of concurrent load")
    ap.add_argument("--batch", type=int, default=1000, help="messages per write round")
    ap.add_argument("--budget", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--hashing", action="store_true", help="HashingEmbeddings (a smoke run)")
    ap.add_argument("--workers", type=int, default=1, help="serve --workers N")
    ap.add_argument("--concurrent-reads", type=int, default=None, help="serve --concurrent-reads N")
    ap.add_argument("--rate", type=float, default=0.0, help="also offer R contexts/s (open loop)")
    ap.add_argument(
        "--compare", action="store_true", help="the load against 3 service shapes in turn"
    )
    ap.add_argument("--no-writes", action="store_true", help="skip the batch-write figures")
    args = ap.parse_args(argv)
    kw = {"embeddings": HashingEmbeddings()} if args.hashing else {}
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="lgm-service-bench-") as tmp:
        root = Path(tmp) / "store"
        t0 = time.perf_counter()
        fill(root, args.n, rng, kw)
        print(
            f"store: {args.n} messages for one user, embedded in {time.perf_counter() - t0:.1f} s"
        )
        key = KeyFile(root).create(TENANT)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        proc = start_server(root, port, args.hashing, args.workers, args.concurrent_reads)
        try:
            with (
                MemoryManager(root, **kw) as mm,
                httpx.Client(
                    base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60
                ) as client,
            ):
                mm.maintenance.warm_up()
                warm = [question(rng) for _ in range(10)]
                one_client(mm, client, warm, args.budget)  # both sides' first calls
                queries = [question(rng) for _ in range(args.queries)]
                local, remote = one_client(mm, client, queries, args.budget)
                print(f"\n1 client, {args.queries} contexts each side (budget {args.budget}):")
                for name, v in (
                    ("in-process build_context", local),
                    ("HTTP POST .../context", remote),
                ):
                    print(
                        f"  {name:26s} p50 {pct(v, 50):7.2f}  p95 {pct(v, 95):7.2f}  "
                        f"p99 {pct(v, 99):7.2f} ms"
                    )
                print(
                    "  p95 difference (HTTP - in-process): "
                    f"{pct(remote, 95) - pct(local, 95):+.2f} ms"
                    f"  (target <= +5 ms); p50 ratio {pct(remote, 50) / pct(local, 50):.2f}"
                )
                reads = args.concurrent_reads
                shape = f"{args.workers} process(es), reads " + (
                    "bounded" if reads is None else ("unbounded" if reads == 0 else str(reads))
                )
                if not args.compare:
                    load(url, key, args, shape)
            if args.compare:
                stop(proc)
                compare(root, key, args)
                port = free_port()
                url = f"http://127.0.0.1:{port}"
                proc = start_server(root, port, args.hashing, args.workers, reads)
            if args.no_writes:
                return 0
            with httpx.Client(
                base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60
            ) as client:
                local_w, remote_w = writes(client, args.batch, rng, Path(tmp), kw)
            print(f"\nwrites, {args.batch} messages x 2 rounds each, until flushed:")
            print(f"  in-process add_message + flush  {local_w:8.1f} msg/s")
            print(f"  HTTP batches of 100 + flush     {remote_w:8.1f} msg/s")
            print(f"  ratio HTTP / in-process: {remote_w / local_w:.2f}  (target >= 0.8)")
        finally:
            stop(proc)
    print(f"\n(cpu count {os.cpu_count()}; a shared machine: compare ratios within one run)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
