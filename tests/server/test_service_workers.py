"""``serve --workers N``: N processes on one port and one SQLite store; and the bound on the
heavy reads each process computes at once (``--concurrent-reads``).

The service runs as ``langgraph-memory serve --workers 2`` in a subprocess on loopback;
which process answered a connection is read from ``/proc`` (the process holding the
server end of the socket), so the test sees both processes answer health and a context,
then stops them with SIGTERM. Every wait is bounded.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pg_server
import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import KeyFile
from langgraph_memory.integrations.server.deps import ServiceSettings

pytestmark = pytest.mark.timeout(90)
CLI = [sys.executable, "-m", "langgraph_memory.integrations.cli.commands"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _socket_inode(server_port: int, client_port: int) -> str | None:
    """The inode of the server end of the loopback connection from ``client_port``."""
    want_local, want_remote = f"0100007F:{server_port:04X}", f"0100007F:{client_port:04X}"
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        f = line.split()
        if f[1] == want_local and f[2] == want_remote:
            return f[9]
    return None


def _owner(pids: list[int], inode: str) -> int | None:
    """Which of ``pids`` holds the socket ``inode``."""
    target = f"socket:[{inode}]"
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    return pid
            except OSError:
                continue
    return None


def _workers(pid: int) -> list[int]:
    """The server processes uvicorn spawned (not multiprocessing's resource tracker)."""
    out: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split():
            try:
                cmd = Path(f"/proc/{c}/cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in cmd and b"resource_tracker" not in cmd:
                out.append(int(c))
    return out


LINUX = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads /proc (Linux)")


@LINUX
def test_serve_with_two_workers_answers_from_both_processes(tmp_path: Path) -> None:
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        mm.add_message("acme:ann", "s", "user", "I keep bees in Lyon.")
        mm.flush(timeout=30)
    _serve_two(tmp_path, KeyFile(tmp_path).create("acme"), ["--path", str(tmp_path)])


@LINUX
def test_serve_with_two_workers_on_postgres(
    tmp_path: Path, pg_databases: pg_server.TestDatabases
) -> None:
    from langgraph_memory.integrations.server.keys_pg import KeyTable

    url = pg_databases.new_database()
    with MemoryManager.from_conn_string(url, embeddings=HashingEmbeddings()) as mm:
        mm.add_message("acme:ann", "s", "user", "I keep bees in Lyon.")
        mm.flush(timeout=30)
    keys = KeyTable(url)
    try:
        key = keys.create("acme")
    finally:
        keys.close()
    _serve_two(tmp_path, key, ["--postgres", url])


def _serve_two(tmp_path: Path, key: str, store: list[str]) -> None:
    """``serve --workers 2`` on ``store``: both processes answer health and a context
    about the bees, and both stop on SIGTERM."""
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")  # a file: a full pipe would stall the server
    proc = subprocess.Popen(
        [*CLI, "serve", *store, "--port", str(port), "--hashing",
         "--workers", "2", "--log-level", "info"],
        stdout=log, stderr=log, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60  # spawned processes import it all
        workers: list[int] = []
        while len(workers) < 2:  # both processes started (uvicorn spawns them)
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "the two processes did not start"
            workers = _workers(proc.pid)
            time.sleep(0.1)
        answered: dict[int, set[str]] = {pid: set() for pid in workers}
        body = json.dumps({"query": "where are the bees?", "session_id": "q"})
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        while not all(len(v) == 2 for v in answered.values()):
            assert time.monotonic() < deadline, f"not every process answered: {answered}"
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                conn.connect()
            except OSError:  # not listening yet
                time.sleep(0.1)
                continue
            try:
                conn.request("GET", "/v1/health")  # answered: a process accepted it
                r = conn.getresponse()
                assert r.status == 200 and json.loads(r.read())["status"] == "ok"
                inode = _socket_inode(port, conn.sock.getsockname()[1])
                pid = _owner(workers, inode) if inode else None
                if pid is None:
                    continue
                answered[pid].add("health")
                conn.request("POST", "/v1/users/ann/context", body=body, headers=headers)
                r = conn.getresponse()
                ctx = json.loads(r.read())
                assert r.status == 200, ctx
                assert "bees" in ctx["text"]
                answered[pid].add("context")
            finally:
                conn.close()
        if hasattr(socket, "SO_REUSEPORT"):
            _connections_spread(port, workers)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # pragma: no cover - a hung stop fails the test
            proc.kill()
            proc.wait(timeout=10)
            raise
        finally:
            log.close()
    err = (tmp_path / "serve.log").read_text()
    assert proc.returncode in (0, -signal.SIGTERM), err[-2000:]
    # each process shut its app down (closing its manager) before the parent exited
    assert err.count("Application shutdown complete") == 2, err[-2000:]
    assert all(not Path(f"/proc/{pid}").exists() for pid in workers)


def _connections_spread(port: int, workers: list[int]) -> None:
    """16 keep-alive connections opened at once land on both processes (each listens on
    its own SO_REUSEPORT socket; uvicorn's shared socket let the first process awake take
    every waiting connection): all 16 on one process has probability 2 / 2**16."""
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(16)]
    try:
        for c in conns:
            c.connect()
        owners: dict[int, int] = {}
        for c in conns:
            c.request("GET", "/v1/health")
            r = c.getresponse()
            assert r.status == 200
            r.read()
            inode = _socket_inode(port, c.sock.getsockname()[1])
            pid = _owner(workers, inode) if inode else None
            assert pid is not None
            owners[pid] = owners.get(pid, 0) + 1
        assert len(owners) == 2, owners
    finally:
        for c in conns:
            c.close()


def test_serve_refuses_a_bad_worker_count(tmp_path: Path) -> None:
    done = subprocess.run(
        [*CLI, "serve", "--path", str(tmp_path), "--hashing", "--workers", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0
    assert "--workers must be at least 1" in done.stderr


def test_heavy_reads_never_exceed_the_bound(tmp_path: Path) -> None:
    """16 threads asking at once: at most ``max_concurrent_reads`` hold a slot."""
    from langgraph_memory.integrations.server import create_app

    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        app = create_app(mm, keys=tmp_path, settings=ServiceSettings(max_concurrent_reads=3))
        svc = app.state.service
        inside = most = 0
        lock = threading.Lock()

        def read() -> None:
            nonlocal inside, most
            with svc.heavy_read():
                with lock:
                    inside += 1
                    most = max(most, inside)
                mm.build_context("acme:ann", "s", "bees?")
                time.sleep(0.02)
                with lock:
                    inside -= 1

        threads = [threading.Thread(target=read) for _ in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert most == 3


def test_the_read_bound_is_checked() -> None:
    assert ServiceSettings().read_slots() == max(1, os.cpu_count() or 1)
    assert ServiceSettings(max_concurrent_reads=0).read_slots() == 0
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="max_concurrent_reads"):
            ServiceSettings(max_concurrent_reads=bad)  # type: ignore[arg-type]


def test_the_app_freezes_the_collector_only_when_asked(tmp_path: Path) -> None:
    """``freeze_gc``: what is loaded when the app starts leaves the collector's passes
    (a full pass over the model and the libraries paused every request of the process)."""
    import gc

    from fastapi.testclient import TestClient

    from langgraph_memory.integrations.server import create_app

    gc.unfreeze()
    try:
        with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
            with TestClient(create_app(mm, keys=tmp_path)) as client:
                assert client.get("/v1/health").status_code == 200
                assert gc.get_freeze_count() == 0  # the default: the host's collector alone
            app = create_app(mm, keys=tmp_path, settings=ServiceSettings(freeze_gc=True))
            with TestClient(app) as client:
                assert client.get("/v1/health").status_code == 200
                assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()


def test_serve_freezes_the_collector_unless_told_not_to() -> None:
    from langgraph_memory.integrations.cli.commands import build_parser

    parser = build_parser()
    assert parser.parse_args(["serve"]).freeze_gc is True
    assert parser.parse_args(["serve", "--no-freeze-gc"]).freeze_gc is False
