"""A real Redis for the tests and benchmarks: Debian's ``redis-server`` on loopback.

Started on a free port in a temporary directory with the append-only file on (the write
queue refuses a Redis without it), stopped by its process id, restartable on the same
port and data (to check that what was acknowledged survives a restart).

Example:
    >>> with redis_server() as r:  # doctest: +SKIP
    ...     print(r.url)
    redis://127.0.0.1:41234/0
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["RedisServer", "redis_server", "available", "MISSING"]

#: Why the Redis tests are skipped, or ``None`` when they can run.
MISSING: str | None = (
    None
    if shutil.which("redis-server")
    else "redis-server is not installed (apt-get install redis-server)"
)
if MISSING is None:
    try:
        import redis  # noqa: F401
    except ImportError:
        MISSING = "the redis client is not installed (pip install 'langgraph-memory[queue]')"


def available() -> bool:
    return MISSING is None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """One ``redis-server`` process (``appendonly yes``, ``appendfsync everysec``)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> None:
        """Start it and wait until it answers (its data dir is kept between starts)."""
        import redis

        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.root), "--appendonly", "yes", "--save", "",
             "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                break
            except redis.RedisError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.02)
        client.close()

    def stop(self) -> None:
        """Stop it (SIGTERM, then SIGKILL after 10 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def kill(self) -> None:
        """SIGKILL it (a crash: only what its append-only file has survives)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    """A started Redis in a fresh temporary directory, stopped and removed after."""
    root = Path(tempfile.mkdtemp(prefix="lgm-redis-"))
    server = RedisServer(root)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
