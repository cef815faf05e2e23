"""The service over loopback against the same store in process (issue 41's targets).

Usage:
    python benchmarks/service_latency.py [--n 10000] [--queries 200] [--clients 16]
                                         [--duration 60] [--batch 1000] [--workers N]
                                         [--concurrent-reads N] [--rate R] [--compare]
                                         [--no-writes] [--skip-closed] [--soak]
                                         [--window S] [--store DIR] [--no-freeze-gc]

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

Each load phase also prints p50/p95 per ``--window`` seconds (default 10) with the
server's own time beside them (the context's ``timings_ms``; the rest is queueing,
thread hops and HTTP), then per server process (the connection's client port mapped to
the server's pid with psutil): a latency that grows within one run shows there, whatever
the machine's load. ``--soak`` runs ``build_context`` in process back to back for
``--duration`` s first (does the read path itself drift?); ``--store DIR`` fills the
store once and reuses it; ``--no-freeze-gc`` serves the old way (every object loaded at
start left in the collector's passes).

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
from typing import NamedTuple

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
    root: Path,
    port: int,
    hashing: bool,
    workers: int = 1,
    reads: int | None = None,
    extra: tuple[str, ...] = (),
) -> subprocess.Popen[str]:
    cli = [sys.executable, "-m", "langgraph_memory.integrations.cli.commands"]
    args = ["serve", "--path", str(root), "--port", str(port), "--log-level", "warning"]
    args += ["--hashing"] if hashing else []
    args += ["--workers", str(workers)]
    args += ["--concurrent-reads", str(reads)] if reads is not None else []
    args += list(extra)
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


class Done(NamedTuple):
    """One answered context: when it ended (s from the phase's start), its latency and
    the server's own time for it (``timings_ms`` summed, ms), and the client's port of
    the connection it went over (which tells the server process that answered)."""

    at: float
    ms: float
    server_ms: float
    port: int


def answered(r: httpx.Response, at: float, ms: float) -> Done:
    stream = r.extensions.get("network_stream")
    addr = stream.get_extra_info("client_addr") if stream is not None else None
    server = sum(r.json().get("timings_ms", {}).values())
    return Done(at, ms, server, int(addr[1]) if addr else 0)


def server_pids(port: int) -> dict[int, int]:
    """The pid of the server process holding each open loopback connection to ``port``,
    by the client's port (empty without psutil or the right to see other processes)."""
    try:
        import psutil

        conns = psutil.net_connections(kind="tcp")
    except (ImportError, OSError, RuntimeError):
        return {}
    return {
        c.raddr.port: c.pid
        for c in conns
        if c.laddr and c.laddr.port == port and c.raddr and c.pid is not None
    }


async def concurrent(
    url: str, key: str, clients: int, duration: float, budget: int, seed: int
) -> tuple[list[Done], int, float, dict[int, int]]:
    done: list[Done] = []
    errors = 0
    stop = time.monotonic() + duration
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    headers = {"Authorization": f"Bearer {key}"}

    async with httpx.AsyncClient(
        base_url=url, headers=headers, timeout=60, limits=limits
    ) as client:
        start = time.perf_counter()

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
                    t1 = time.perf_counter()
                    done.append(answered(r, t1 - start, (t1 - t0) * 1000))
                else:
                    errors += 1

        await asyncio.gather(*(worker(w) for w in range(clients)))
        elapsed = time.perf_counter() - start
        pids = server_pids(int(url.rsplit(":", 1)[1]))
    return done, errors, elapsed, pids


async def open_loop(
    url: str, key: str, clients: int, rate: float, duration: float, budget: int, seed: int
) -> tuple[list[Done], int, int, float, dict[int, int]]:
    """``clients`` connections offering ``rate`` contexts/s on a fixed schedule: request
    ``i`` is due at ``i / rate`` s; a client takes the next due request when free. Returns
    the answers (latency from the due time), errors, requests started > 10 ms late,
    seconds, and the server process of each connection."""
    done: list[Done] = []
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
                    t1 = time.perf_counter()
                    done.append(answered(r, t1 - t0, (t1 - due) * 1000))
                else:
                    errors += 1

        await asyncio.gather(*(worker(w) for w in range(clients)))
        elapsed = time.perf_counter() - t0
        pids = server_pids(int(url.rsplit(":", 1)[1]))
    return done, errors, late, elapsed, pids


def windows(done: list[Done], pids: dict[int, int], window: float) -> None:
    """p50/p95 of each ``window`` seconds of a run (by when each answer came), the
    server's own time beside it, then the same per server process: a latency that grows
    within one run shows here, whatever the machine's load."""
    if not done or window <= 0:
        return
    print(
        f"  per {window:g} s:  answers  p50  p95 ms  | server's own time p50  p95 ms"
        "  (the rest: queueing, HTTP)"
    )
    last = int(max(d.at for d in done) // window)
    for w in range(last + 1):
        part = [d for d in done if w * window <= d.at < (w + 1) * window]
        if not part:
            continue
        ms, own = [d.ms for d in part], [d.server_ms for d in part]
        print(
            f"    {w * window:4.0f}-{(w + 1) * window:3.0f} s  {len(part):5d}  "
            f"{pct(ms, 50):6.1f} {pct(ms, 95):6.1f}  | {pct(own, 50):6.1f} {pct(own, 95):6.1f}"
        )
    by_pid: dict[int, list[Done]] = {}
    for d in done:
        by_pid.setdefault(pids.get(d.port, 0), []).append(d)
    if len(by_pid) > 1 or 0 not in by_pid:
        for pid, part in sorted(by_pid.items()):
            ms, own = [d.ms for d in part], [d.server_ms for d in part]
            conns = len({d.port for d in part})
            print(
                f"    process {pid or '?'} ({conns} connections): {len(part)} answers, "
                f"p50 {pct(ms, 50):.1f}  p95 {pct(ms, 95):.1f} ms | own p50 "
                f"{pct(own, 50):.1f}  p95 {pct(own, 95):.1f} ms"
            )


def load(url: str, key: str, args: argparse.Namespace, label: str) -> None:
    """The closed-loop figure, and the open-loop one with ``--rate``."""
    if not args.skip_closed:
        done, errors, elapsed, pids = asyncio.run(
            concurrent(url, key, args.clients, args.duration, args.budget, args.seed)
        )
        lat = [d.ms for d in done]
        print(f"\n{label}: {args.clients} closed-loop clients for {elapsed:.1f} s:")
        print(
            f"  {len(lat) / elapsed:.1f} contexts/s, p50 {pct(lat, 50):.1f}  "
            f"p95 {pct(lat, 95):.1f}  p99 {pct(lat, 99):.1f} ms, {errors} errors"
            "  (target >= 50/s, p95 <= 150 ms, 0 errors)"
        )
        windows(done, pids, args.window)
    if args.rate:
        done, errors, late, elapsed, pids = asyncio.run(
            open_loop(url, key, args.clients, args.rate, args.duration, args.budget, args.seed)
        )
        lat = [d.ms for d in done]
        print(f"{label}: {args.clients} clients offering {args.rate:g} contexts/s (open loop):")
        print(
            f"  achieved {len(lat) / elapsed:.1f} contexts/s, p50 {pct(lat, 50):.1f}  "
            f"p95 {pct(lat, 95):.1f}  p99 {pct(lat, 99):.1f} ms (from the due time), "
            f"{errors} errors, {late} of {int(args.rate * args.duration)} started late"
        )
        windows(done, pids, args.window)


def soak(mm: MemoryManager, args: argparse.Namespace, rng: random.Random) -> None:
    """``build_context`` back to back in this process for ``--duration`` s, one thread:
    does the read path itself slow down over time?"""
    done: list[Done] = []
    start = time.perf_counter()
    while (t0 := time.perf_counter()) - start < args.duration:
        ctx = mm.build_context(STORE_UID, "soak", question(rng), token_budget=args.budget)
        t1 = time.perf_counter()
        done.append(Done(t1 - start, (t1 - t0) * 1000, sum(ctx.timings_ms.values()), 0))
    ms = [d.ms for d in done]
    print(f"\nin process, build_context back to back for {args.duration:g} s (1 thread):")
    print(
        f"  {len(ms) / (time.perf_counter() - start):.1f} contexts/s, p50 {pct(ms, 50):.1f}  "
        f"p95 {pct(ms, 95):.1f}  p99 {pct(ms, 99):.1f} ms"
    )
    windows(done, {}, args.window)


def compare(root: Path, key: str, args: argparse.Namespace) -> None:
    """The concurrent figures for each service shape, one after another on one store."""
    n = args.workers if args.workers > 1 else 2
    for label, workers, reads in (
        ("1 process, reads unbounded", 1, 0),
        ("1 process, reads bounded", 1, None),
        (f"{n} processes, reads bounded", n, None),
    ):
        port = free_port()
        extra = ("--no-freeze-gc",) if args.no_freeze_gc else ()
        proc = start_server(root, port, args.hashing, workers, reads, extra)
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
    ap.add_argument(
        "--no-freeze-gc", action="store_true", help="serve --no-freeze-gc (the old behaviour)"
    )
    ap.add_argument("--window", type=float, default=10.0, help="seconds per window of figures")
    ap.add_argument(
        "--skip-closed", action="store_true", help="with --rate: only the open-loop figure"
    )
    ap.add_argument(
        "--soak", action="store_true", help="also build_context in process for --duration s"
    )
    ap.add_argument(
        "--store", default=None, help="keep the store in DIR (filled when missing, reused after)"
    )
    args = ap.parse_args(argv)
    kw = {"embeddings": HashingEmbeddings()} if args.hashing else {}
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="lgm-service-bench-") as tmp:
        root = Path(args.store) if args.store else Path(tmp) / "store"
        if args.store and (root / "ready").exists():
            print(f"store: {root} (kept from an earlier run)")
        else:
            t0 = time.perf_counter()
            fill(root, args.n, rng, kw)
            (root / "ready").write_text(f"{args.n}\n")
            elapsed = time.perf_counter() - t0
            print(f"store: {args.n} messages for one user, embedded in {elapsed:.1f} s")
        key = KeyFile(root).create(TENANT)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        extra = ("--no-freeze-gc",) if args.no_freeze_gc else ()
        proc = start_server(root, port, args.hashing, args.workers, args.concurrent_reads, extra)
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
                if args.soak:
                    soak(mm, args, rng)
                if not args.compare:
                    load(url, key, args, shape)
            if args.compare:
                stop(proc)
                compare(root, key, args)
                port = free_port()
                url = f"http://127.0.0.1:{port}"
                proc = start_server(root, port, args.hashing, args.workers, reads, extra)
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
