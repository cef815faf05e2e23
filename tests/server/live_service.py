"""A real service on loopback for the server tests: uvicorn in a thread, keys per tenant.

:func:`serving` starts ``create_app(...)`` on a port the OS picks and yields its URL;
:class:`Tenants` makes a keys file with a key for each tenant and a revoked one. Every
wait is bounded.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn

from langgraph_memory.integrations.server.keys import KeyFile


@contextmanager
def serving(app: Any, *, log_level: str = "debug", start_timeout: float = 30.0) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1 (a free port) in a thread; yields its URL."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_config=None, log_level=log_level, lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)


@contextmanager
def served_memory(root: Path, **settings: Any) -> Iterator[dict[str, Any]]:
    """A SQLite manager under ``root`` (``HashingEmbeddings``), served on loopback with a
    keys file of its own; yields ``{"url", "keys", "mm"}`` (the test holds the manager, so
    it can read what the service stored)."""
    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import HashingEmbeddings
    from langgraph_memory.integrations.server import create_app

    keys = KeyFile(root / "keys.json")
    with MemoryManager(root / "mem", embeddings=HashingEmbeddings()) as mm:
        with serving(create_app(mm, keys=keys, **settings), log_level="warning") as url:
            yield {"url": url, "keys": keys, "mm": mm}


@dataclass
class Tenants:
    """A keys file with one key for ``acme``, one for ``globex`` and a revoked ``acme`` one."""

    root: Path
    keys: KeyFile = field(init=False)
    acme: str = field(init=False)
    globex: str = field(init=False)
    revoked: str = field(init=False)

    def __post_init__(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.keys = KeyFile(self.root)
        self.acme = self.keys.create("acme")
        self.globex = self.keys.create("globex")
        self.revoked = self.keys.create("acme")
        self.keys.revoke(self.revoked)

    def all(self) -> list[str]:
        """Every key made (revoked included)."""
        return [self.acme, self.globex, self.revoked]


def auth(key: str) -> dict[str, str]:
    """The header a key is sent in."""
    return {"Authorization": f"Bearer {key}"}


class LogCapture(logging.Handler):
    """Every log record of every logger, at DEBUG, formatted with its arguments."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self._lock2 = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
        except Exception:  # a record that cannot format is kept raw
            text = f"{record.msg!r} {record.args!r}"
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        with self._lock2:
            self.lines.append(f"{record.name}: {text}")

    @contextmanager
    def everywhere(self) -> Iterator[LogCapture]:
        """Attach to the root logger at DEBUG (and uvicorn's, which may not propagate)."""
        root = logging.getLogger()
        names = ("uvicorn", "uvicorn.error", "uvicorn.access", "fastapi", "httpx", "httpcore")
        saved = [(root, root.level)] + [
            (logging.getLogger(n), logging.getLogger(n).level) for n in names
        ]
        root.addHandler(self)
        for logger, _ in saved:
            logger.setLevel(logging.DEBUG)
        try:
            yield self
        finally:
            root.removeHandler(self)
            for logger, level in saved:
                logger.setLevel(level)
