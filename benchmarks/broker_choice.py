"""Which broker for the queue-fed write path: RabbitMQ or Redis Streams, measured here.

Starts each broker on a free loopback port in a temporary directory (Debian's
``redis-server`` with the append-only file on, ``rabbitmq-server`` with a durable queue),
then, with the same small message (a write as the API publishes it, ~300 bytes):

- **publish-ack**: one publisher sends ``--n`` messages one at a time and waits for the
  broker to have each durably (``XADD`` on an AOF-enabled Redis; a persistent message on a
  durable queue with publisher confirms on RabbitMQ): p50/p95/p99 in milliseconds;
- **consume**: one consumer reads them back in batches of 100 and acknowledges each
  (``XREADGROUP`` + ``XACK``; ``basic_qos(prefetch=100)`` + ``basic_ack``): messages per
  second;
- **start**: seconds from the process start until the broker answers.

Redis is measured twice: ``appendfsync everysec`` (its default: an acknowledged write can
be lost with the last second on a power loss, not on a process crash) and ``always``
(fsync before the answer, RabbitMQ's confirm semantics).

Usage:
    python benchmarks/broker_choice.py [--n 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

BODY = json.dumps(
    {
        "tenant": "acme",
        "user_id": "acme:alice",
        "session_id": "s1",
        "role": "user",
        "content": "我下周三要去上海出差，帮我记住订高铁票。" * 3,
        "message_id": "m-0000000000000000",
        "timestamp": "2026-12-06T07:00:00+00:00",
    },
    ensure_ascii=False,
).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check, limit: float) -> float:  # type: ignore[no-untyped-def]
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        try:
            check()
            return time.monotonic() - t0
        except Exception:
            time.sleep(0.05)
    raise TimeoutError("the broker did not answer in time")


def pct(xs: list[float]) -> str:
    a = np.array(xs) * 1000
    return " ".join(f"p{q}={np.percentile(a, q):.3f}ms" for q in (50, 95, 99))


def bench_redis(n: int, fsync: str) -> None:
    import redis

    tmp = tempfile.mkdtemp(prefix="lgm-bench-redis-")
    port = free_port()
    t0 = time.monotonic()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", tmp,
         "--appendonly", "yes", "--appendfsync", fsync, "--save", ""],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        r = redis.Redis(port=port, socket_timeout=5)
        wait_for(r.ping, 10)
        start = time.monotonic() - t0
        r.xgroup_create("bench", "workers", id="0", mkstream=True)
        lat = []
        for _ in range(n):
            t = time.perf_counter()
            r.xadd("bench", {"b": BODY})
            lat.append(time.perf_counter() - t)
        got, t = 0, time.perf_counter()
        while got < n:
            resp = r.xreadgroup("workers", "w1", {"bench": ">"}, count=100, block=1000)
            ids = [mid for _, entries in resp for mid, _ in entries]
            r.xack("bench", "workers", *ids)
            got += len(ids)
        rate = n / (time.perf_counter() - t)
        print(f"redis-streams (appendfsync {fsync}): start {start:.2f}s; "
              f"publish-ack {pct(lat)}; consume+ack {rate:,.0f} msg/s")  # fmt: skip
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


def bench_rabbit(n: int) -> None:
    import pika

    tmp = Path(tempfile.mkdtemp(prefix="lgm-bench-rabbit-"))
    port, dist, epmd = free_port(), free_port(), free_port()
    env = dict(
        os.environ,
        RABBITMQ_NODE_PORT=str(port),
        RABBITMQ_NODE_IP_ADDRESS="127.0.0.1",
        RABBITMQ_DIST_PORT=str(dist),
        ERL_EPMD_PORT=str(epmd),
        ERL_EPMD_ADDRESS="127.0.0.1",
        RABBITMQ_NODENAME=f"lgmbench{port}@localhost",
        RABBITMQ_MNESIA_BASE=str(tmp / "mnesia"),
        RABBITMQ_LOG_BASE=str(tmp / "log"),
        RABBITMQ_ENABLED_PLUGINS_FILE=str(tmp / "plugins"),
        RABBITMQ_FEATURE_FLAGS_FILE=str(tmp / "feature_flags"),
        RABBITMQ_PID_FILE=str(tmp / "beam.pid"),
        HOME=str(tmp),
    )
    (tmp / "plugins").write_text("[].\n")
    for d in ("mnesia", "log"):
        (tmp / d).mkdir()
    # run as root, rabbitmq-server drops to the rabbitmq user: it must write there
    for d in (tmp, tmp / "mnesia", tmp / "log", tmp / "plugins"):
        d.chmod(0o777)
    # our own epmd in the foreground (so it is stopped by its id, not left as a daemon)
    epmd_proc = subprocess.Popen(
        ["epmd", "-port", str(epmd), "-address", "127.0.0.1"], stdout=subprocess.DEVNULL
    )
    t0 = time.monotonic()
    proc = subprocess.Popen(
        ["rabbitmq-server"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    params = pika.ConnectionParameters("127.0.0.1", port, socket_timeout=5)

    def ping() -> None:
        pika.BlockingConnection(params).close()

    try:
        wait_for(ping, 90)
        start = time.monotonic() - t0
        conn = pika.BlockingConnection(params)
        ch = conn.channel()
        ch.queue_declare("bench", durable=True)
        ch.confirm_delivery()
        props = pika.BasicProperties(delivery_mode=2)
        lat = []
        for _ in range(n):
            t = time.perf_counter()
            ch.basic_publish("", "bench", BODY, props, mandatory=True)
            lat.append(time.perf_counter() - t)
        ch.basic_qos(prefetch_count=100)
        got, t = 0, time.perf_counter()
        for method, _, _ in ch.consume("bench", inactivity_timeout=5):
            if method is None:
                break
            ch.basic_ack(method.delivery_tag)
            got += 1
            if got >= n:
                break
        rate = got / (time.perf_counter() - t)
        conn.close()
        print(f"rabbitmq (durable queue, confirms): start {start:.2f}s; "
              f"publish-ack {pct(lat)}; consume+ack {rate:,.0f} msg/s")  # fmt: skip
    finally:
        # the node runs as the rabbitmq user in its own session: stopped by its pid file
        beam = (tmp / "beam.pid").read_text().strip() if (tmp / "beam.pid").exists() else ""
        if beam.isdigit():
            os.kill(int(beam), signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        epmd_proc.terminate()
        epmd_proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=10_000, help="messages per broker (default 10000)")
    args = ap.parse_args()
    print(f"{args.n} messages of {len(BODY)} bytes, one publisher, one consumer, loopback")
    for fsync in ("everysec", "always"):
        if shutil.which("redis-server"):
            bench_redis(args.n, fsync)
        else:
            print("redis-server is not installed: skipped")
    if shutil.which("rabbitmq-server"):
        bench_rabbit(args.n)
    else:
        print("rabbitmq-server is not installed: skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
