"""Writes and contexts under load through the queue: 1 API process + 1 worker, real Redis.

The same load first runs on one API process with the memory's own queue (the baseline:
its write-ack percentiles are the reference). Then it starts ``redis-server``
(append-only file on) on loopback, ``langgraph-memory serve --broker`` (SQLite,
``--hashing``) and ``langgraph-memory worker`` as child processes, and runs
``--clients`` threads for ``--seconds``: each writes messages (its own ``message_id``s,
the tenant's marker in the text) for users of two tenants and, every fifth request,
asks a context. Mid-run the worker, then Redis, then the API are SIGKILLed and
started again 1 s later (the seconds until a write is acknowledged again are printed;
refused writes are retried by the clients, never counted as acknowledged). At the end
it flushes, reads every stored message id from the SQLite file and compares them with
the acknowledged ones:

- ``ACKED``: writes the API answered 201 to; ``STORED``: those found in the store;
- ``LOST``: acknowledged and not stored; ``DUPLICATED``: an id stored more than once;
- ``LEAKED``: contexts showing another tenant's marker, plus stored messages under a
  user of the other tenant.

A 503 (back-pressure) is retried after its ``Retry-After`` and counted. Ends with
``ACKED=<n> STORED=<n> LOST=<n> DUPLICATED=<n> LEAKED=<n>``.

Usage:
    python benchmarks/cluster_load.py --quick        # 10 s baseline + 20 s queued, 8 clients
    python benchmarks/cluster_load.py --seconds 300 --clients 16
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from redis_server import MISSING, RedisServer, redis_server  # noqa: E402

from langgraph_memory.integrations.server.keys import KeyFile  # noqa: E402

TENANTS = ("acme", "globex")
USERS = ("u0", "u1", "u2", "u3")
PREFIX = "lgm:bench"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "langgraph_memory.integrations.cli.commands", *args]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def start_worker(url: str, root: Path, log: Path) -> subprocess.Popen[bytes]:
    args = cli("worker", "--broker", url, "--path", str(root), "--hashing",
               "--queue-prefix", PREFIX, "--claim-idle", "2")  # fmt: skip
    return subprocess.Popen(args, env=env(), stdout=subprocess.DEVNULL, stderr=log.open("ab"))


def pct(xs: list[float]) -> str:
    if not xs:
        return "n/a"
    a = np.array(xs) * 1000
    return " ".join(f"p{q}={np.percentile(a, q):.1f}ms" for q in (50, 95, 99))


class Load:
    """The clients' shared tallies."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.acked: dict[str, set[str]] = {}  # store uid -> acknowledged ids
        self.write_s: list[float] = []
        self.context_s: list[float] = []
        self.refused = self.errors = self.leaked = 0
        self.totals = (0, 0, 0)  # acknowledged, stored of them, duplicated


def client(url: str, keys: dict[str, str], load: Load, stop: threading.Event, n: int) -> None:
    rng = np.random.default_rng(n)
    with httpx.Client(base_url=url, timeout=30) as c:
        i = 0
        while not stop.is_set():
            tenant = TENANTS[int(rng.integers(len(TENANTS)))]
            other = TENANTS[1 - TENANTS.index(tenant)]
            user = USERS[int(rng.integers(len(USERS)))]
            head = {"Authorization": f"Bearer {keys[tenant]}"}
            i += 1
            if i % 5 == 0:
                t = time.perf_counter()
                q = {"query": "what did I say about tea", "session_id": "s"}
                try:
                    r = c.post(f"/v1/users/{user}/context", headers=head, json=q)
                except httpx.HTTPError:  # the API is down (a fault under test)
                    with load.lock:
                        load.errors += 1
                    stop.wait(0.2)
                    continue
                if r.status_code == 200:
                    with load.lock:
                        load.context_s.append(time.perf_counter() - t)
                        load.leaked += f"[{other}]" in r.json()["text"]
                elif r.status_code != 404:  # 404: the user has nothing stored yet
                    with load.lock:
                        load.errors += 1
                continue
            mid = f"b-{uuid.uuid4().hex}"
            body = {"session_id": "s", "role": "user", "message_id": mid,
                    "content": f"[{tenant}] {user} likes tea number {i} (客户 {n})"}  # fmt: skip
            try:
                t = time.perf_counter()
                r = c.post(f"/v1/users/{user}/messages", headers=head, json=body)
                dt = time.perf_counter() - t
            except httpx.HTTPError:
                with load.lock:
                    load.errors += 1
                stop.wait(0.2)
                continue
            if r.status_code == 201:
                with load.lock:
                    load.write_s.append(dt)
                    load.acked.setdefault(f"{tenant}:{user}", set()).add(mid)
            elif r.status_code == 503:
                with load.lock:
                    load.refused += 1
                stop.wait(float(r.headers.get("retry-after", "1")))
            else:
                with load.lock:
                    load.errors += 1


def wait_ready(url: str, api: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/v1/ready", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or api.poll() is not None:
            raise RuntimeError(f"the API did not start: {log.read_text()[-2000:]}")
        time.sleep(0.1)


def serving_again(url: str, key: str, load: Load, limit: float = 60.0) -> float:
    """Seconds until the API acknowledges a write again (that write is counted as acked)."""
    t0 = time.monotonic()
    with httpx.Client(base_url=url, timeout=5) as c:
        while time.monotonic() - t0 < limit:
            mid = f"probe-{uuid.uuid4().hex}"
            body = {"session_id": "s", "role": "user", "message_id": mid,
                    "content": f"[{TENANTS[0]}] probe"}  # fmt: skip
            try:
                r = c.post("/v1/users/u0/messages", json=body,
                           headers={"Authorization": f"Bearer {key}"})  # fmt: skip
                if r.status_code == 201:
                    with load.lock:
                        load.acked.setdefault(f"{TENANTS[0]}:u0", set()).add(mid)
                    return time.monotonic() - t0
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
    return float("inf")


def run(tmp: Path, redis: RedisServer | None, seconds: float, clients: int) -> tuple[Load, bool]:
    """One load run; with ``redis``, through the queue, with one fault of each kind (a
    worker, Redis and the API SIGKILLed and started again), else on the memory's own
    queue (the baseline). Returns the tallies and whether the acknowledged ids are all
    stored once with no leak (printing the figures)."""
    broker = redis.url if redis is not None else None
    root, logs = tmp / ("queued" if broker else "embedded"), tmp / "logs"
    root.mkdir()
    logs.mkdir(exist_ok=True)
    keyfile = KeyFile(root)
    keys = {t: keyfile.create(t) for t in TENANTS}
    port = free_port()
    queue = ["--broker", broker, "--queue-prefix", PREFIX, "--max-backlog", "5000"]
    api_args = cli("serve", "--path", str(root), "--hashing", "--port", str(port),
                   "--log-level", "warning", *(queue if broker else []))  # fmt: skip
    log = logs / f"api-{root.name}.log"
    api = subprocess.Popen(api_args, env=env(), stdout=subprocess.DEVNULL, stderr=log.open("ab"))
    worker = start_worker(broker, root, logs / "worker.log") if broker else None
    url = f"http://127.0.0.1:{port}"
    faults: list[str] = []
    try:
        wait_ready(url, api, log)
        load, stop = Load(), threading.Event()
        threads = [
            threading.Thread(target=client, args=(url, keys, load, stop, n)) for n in range(clients)
        ]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        if worker is not None and broker is not None and redis is not None:
            stop.wait(seconds * 0.25)
            os.kill(worker.pid, signal.SIGKILL)  # mid-batch, most likely
            worker.wait(30)
            at = time.monotonic() - t0
            stop.wait(1.0)
            worker = start_worker(broker, root, logs / "worker.log")
            faults.append(f"worker SIGKILLed at {at:.1f} s, restarted 1 s later")
            stop.wait(max(0.0, seconds * 0.5 - (time.monotonic() - t0)))
            redis.kill()
            at = time.monotonic() - t0
            stop.wait(1.0)
            redis.start()
            back = serving_again(url, keys[TENANTS[0]], load)
            faults.append(f"Redis SIGKILLed at {at:.1f} s, restarted 1 s later, "
                          f"writes acknowledged again {back:.2f} s after")  # fmt: skip
            stop.wait(max(0.0, seconds * 0.75 - (time.monotonic() - t0)))
            os.kill(api.pid, signal.SIGKILL)
            api.wait(30)
            at = time.monotonic() - t0
            stop.wait(1.0)
            api = subprocess.Popen(
                api_args, env=env(), stdout=subprocess.DEVNULL, stderr=log.open("ab")
            )
            back = serving_again(url, keys[TENANTS[0]], load)
            faults.append(f"API SIGKILLed at {at:.1f} s, restarted 1 s later, "
                          f"writes acknowledged again {back:.2f} s after its start")  # fmt: skip
        stop.wait(max(0.0, seconds - (time.monotonic() - t0)))
        stop.set()
        for t in threads:
            t.join(60)
        elapsed = time.monotonic() - t0
        t = time.monotonic()
        for tenant in TENANTS:
            r = httpx.post(f"{url}/v1/flush", json={"timeout": 300}, timeout=310,
                           headers={"Authorization": f"Bearer {keys[tenant]}"})  # fmt: skip
            assert r.status_code == 200, r.text
        drain_s = time.monotonic() - t
    finally:
        procs = [p for p in (worker, api) if p is not None]
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
    with sqlite3.connect(root / "memory.sqlite3") as db:
        rows = db.execute("SELECT user_id, id, content FROM messages").fetchall()
    stored: dict[str, Counter[str]] = {}
    for uid, mid, content in rows:
        stored.setdefault(uid, Counter())[mid] += 1
        load.leaked += not content.startswith(f"[{uid.split(':', 1)[0]}]")
    acked = sum(len(v) for v in load.acked.values())
    found = sum(len(load.acked[u] & set(stored.get(u, {}))) for u in load.acked)
    dup = sum(n - 1 for c in stored.values() for n in c.values() if n > 1)
    if broker:
        print(f"queued: 1 API + 1 worker, redis-server, {clients} clients, {elapsed:.0f} s")
        for f in faults:
            print(f"  fault: {f}")
    else:
        print(f"baseline: 1 API on the memory's own queue, {clients} clients, {elapsed:.0f} s")
    print(f"  writes: {len(load.write_s) / elapsed:.0f}/s, ack {pct(load.write_s)}")
    print(f"  contexts: {len(load.context_s) / elapsed:.0f}/s, {pct(load.context_s)}")
    print(f"  503 refusals (retried): {load.refused}; connection errors and others (the API "
          f"down): {load.errors}; "
          f"flushed {drain_s:.1f} s after the load stopped")  # fmt: skip
    load.totals = (acked, found, dup)
    return load, acked == found and dup == 0 and load.leaked == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="10 s baseline + 20 s queued, 8 clients")
    ap.add_argument("--seconds", type=float, default=60.0, help="the queued run's length")
    ap.add_argument("--clients", type=int, default=16)
    args = ap.parse_args()
    if args.quick:
        args.seconds, args.clients = 20.0, 8
    if MISSING is not None:
        print(f"skipped: {MISSING}")
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="lgm-cluster-"))
    try:
        base, _ = run(tmp, None, args.seconds / 2, args.clients)
        with redis_server() as rs:
            load, ok = run(tmp, rs, args.seconds, args.clients)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if base.write_s and load.write_s:
        ratio = np.percentile(load.write_s, 95) / np.percentile(base.write_s, 95)
        print(f"write-ack p95, queued / baseline: {ratio:.2f}")
    acked, found, dup = load.totals
    lost = acked - found
    print(f"ACKED={acked} STORED={found} LOST={lost} DUPLICATED={dup} LEAKED={load.leaked}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
