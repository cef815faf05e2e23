"""Redis for the working-memory tests: a real ``redis-server`` on a free loopback port,
in a scratch dir.

No persistence (``--save '' --appendonly no``): a restart starts empty, like a Redis
that lost its memory. :func:`redis_binary` is ``None`` when the server is not installed
(Debian: ``apt-get install redis-server``), and the tests that need one skip, naming it.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["RedisServer", "redis_binary", "free_port"]


def redis_binary() -> str | None:
    """The ``redis-server`` command, or ``None`` when it is not installed."""
    for candidate in ("/usr/bin/redis-server", shutil.which("redis-server")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def free_port() -> int:
    """A loopback port nobody listens on (right now)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class RedisServer:
    """A running ``redis-server`` process on loopback."""

    port: int
    path: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its URL (database 0)."""
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls, timeout: float = 10.0) -> RedisServer:
        """Start a server in a new temporary directory (raises when it does not answer)."""
        server = cls(free_port(), Path(tempfile.mkdtemp(prefix="lgm-redis-")))
        server.run(timeout)
        return server

    def run(self, timeout: float = 10.0) -> None:
        """Start (again) on its port; wait until it answers ``PING``."""
        binary = redis_binary()
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        log = self.path / "redis.log"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.path)]
            + ["--save", "", "--appendonly", "no", "--logfile", str(log)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}")
            if self.ping():
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer within {timeout}s")

    def ping(self) -> bool:
        """Whether it answers ``PING``."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """Stop the process (its data is gone: nothing is saved)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def restart(self) -> None:
        """Stop and start again on the same port, empty."""
        self.stop()
        self.run()

    def remove(self) -> None:
        """Stop and delete its directory."""
        self.stop()
        shutil.rmtree(self.path, ignore_errors=True)
