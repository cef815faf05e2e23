"""Chroma for the tests: a real ``chroma run`` server on loopback (one per session), scratch dirs.

The server is started on first use (so sessions that run no Chroma HTTP test
start nothing), keeps its data in a temporary directory, and is stopped, with
its directory removed, by :func:`cleanup` (called at session end by
``conftest.py``, and at interpreter exit as a fallback).

Chroma syncs every write to disk (a one-entry write took 7-8 ms on this
machine's disk against 5 ms in tmpfs when last measured, and far more on a busy
disk), so the server's data and the persistent-client stores of the shared
backend tests live in tmpfs (``/dev/shm``) when there is one;
:func:`scratch_dir` links them from the test's ``tmp_path``. ``test_chroma.py``
checks persistence on the real disk too.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ChromaServer", "get_server", "cleanup", "chroma_cli", "scratch_dir"]

_lock = threading.Lock()
_server: ChromaServer | None = None
_scratch: list[Path] = []
_TMPFS = Path("/dev/shm")


def _fast_tmp(prefix: str) -> Path:
    """A new temporary directory, in tmpfs when there is a writable one."""
    fast = _TMPFS.is_dir() and os.access(_TMPFS, os.W_OK)
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=str(_TMPFS) if fast else None))
    _scratch.append(path)
    return path


def scratch_dir(tmp_path: Path, name: str) -> Path:
    """``tmp_path / name``, a link to a tmpfs directory (the same one when called again)."""
    link = tmp_path / name
    if not link.exists():
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(_fast_tmp("lgm-chroma-"), target_is_directory=True)
    return link


def chroma_cli() -> str:
    """The ``chroma`` command installed with the chromadb wheel (beside this Python first)."""
    beside = Path(sys.executable).parent / "chroma"
    if beside.exists():
        return str(beside)
    found = shutil.which("chroma")
    if found is None:
        raise RuntimeError(
            "the `chroma` command is missing: pip install 'langgraph-memory[chroma]'"
        )
    return found


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ChromaServer:
    """A running ``chroma run`` process."""

    host: str
    port: int
    path: Path
    process: subprocess.Popen[bytes]
    log: Path

    @classmethod
    def start(cls, timeout: float = 60.0) -> ChromaServer:
        """Start a server on a free loopback port and wait for its heartbeat.

        Raises:
            RuntimeError: When it exits or does not answer within ``timeout`` seconds.
        """
        path = _fast_tmp("lgm-chroma-server-")
        port = _free_port()
        log = path / "server.log"
        with open(log, "wb") as out:
            process = subprocess.Popen(
                [chroma_cli(), "run", "--path", str(path / "data"), "--host", "127.0.0.1"]
                + ["--port", str(port)],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
            )
        server = cls("127.0.0.1", port, path, process, log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                server.stop()
                raise RuntimeError(f"chroma run exited with {process.returncode}: {server.tail()}")
            if server.alive():
                return server
            time.sleep(0.1)
        server.stop()
        raise RuntimeError(f"chroma run did not answer within {timeout}s: {server.tail()}")

    def alive(self) -> bool:
        """Whether the server answers its heartbeat."""
        url = f"http://{self.host}:{self.port}/api/v2/heartbeat"
        try:
            with urllib.request.urlopen(url, timeout=1) as resp:
                return bool(resp.status == 200)
        except OSError:
            return False

    def tail(self) -> str:
        """The end of the server's log."""
        try:
            return self.log.read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    def stop(self) -> None:
        """Stop the process (TERM, then KILL) and remove its directory."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.path, ignore_errors=True)


def get_server() -> ChromaServer:
    """The session's server, started on first call."""
    global _server
    with _lock:
        if _server is None or _server.process.poll() is not None:
            _server = ChromaServer.start()
        return _server


def cleanup() -> None:
    """Stop the session's server if one was started and remove every scratch directory."""
    global _server
    with _lock:
        if _server is not None:
            _server.stop()
            _server = None
        while _scratch:
            shutil.rmtree(_scratch.pop(), ignore_errors=True)


atexit.register(cleanup)
