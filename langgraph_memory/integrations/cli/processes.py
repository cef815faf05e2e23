"""``serve --workers N``: N server processes, each with its own listening socket on one port.

uvicorn's own ``--workers`` shares one listening socket between its processes, and the
process that wakes first accepts every waiting connection at once: with keep-alive
clients one process served 70-96 % of the requests while the other idled, and its queue
(so the p95) grew with the length of a run. Here each process opens its own socket with
``SO_REUSEPORT`` and the kernel spreads new connections across them. The parent only
supervises: a process that dies is started again (at most once a second), and SIGINT or
SIGTERM stops them all (each finishes its requests and closes its manager).

Where ``SO_REUSEPORT`` is missing (not Linux or BSD), ``serve`` keeps uvicorn's workers.

Example:
    >>> reuse_port_supported() in (True, False)
    True
"""

from __future__ import annotations

import signal
import socket
import time
from multiprocessing.context import SpawnProcess
from typing import Any

__all__ = ["reuse_port_supported", "serve_processes"]

#: The app factory every process imports (it reads ``serve``'s options from the environment).
APP_FACTORY = "langgraph_memory.integrations.cli.service:app_from_env"
_RESTART_EVERY_S = 1.0
_STOP_WAIT_S = 30.0


def reuse_port_supported() -> bool:
    """Whether this platform lets several processes listen on one port (``SO_REUSEPORT``)."""
    return hasattr(socket, "SO_REUSEPORT")


def _listening_socket(host: str, port: int, *, listen: bool = True) -> socket.socket:
    family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(addr)
        if listen:
            sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def _serve_one(host: str, port: int, log_level: str) -> None:  # pragma: no cover - a child
    """One server process: its own socket on the shared port, the app from the environment."""
    import uvicorn

    sock = _listening_socket(host, port)
    config = uvicorn.Config(APP_FACTORY, factory=True, log_level=log_level)
    uvicorn.Server(config).run(sockets=[sock])


def serve_processes(host: str, port: int, n: int, log_level: str = "info") -> int:
    """Run ``n`` server processes on ``host:port`` until SIGINT or SIGTERM.

    Args:
        host: The address to listen on.
        port: The port every process listens on.
        n: How many processes (at least 2; ``serve`` runs one in process).
        log_level: uvicorn's log level in each process.

    Returns:
        0 once every process has stopped.

    Raises:
        OSError: When the port cannot be bound (in use by a server without
            ``SO_REUSEPORT``, or not permitted), before any process starts.

    Example:
        >>> serve_processes("127.0.0.1", 8420, 2)  # doctest: +SKIP
    """
    import multiprocessing

    _listening_socket(host, port, listen=False).close()  # a clear error before spawning
    ctx = multiprocessing.get_context("spawn")
    stopping = False

    def start() -> SpawnProcess:
        p = ctx.Process(target=_serve_one, args=(host, port, log_level), daemon=False)
        p.start()
        return p

    def stop(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    procs = [start() for _ in range(n)]
    last_restart = 0.0
    try:
        while not stopping:
            time.sleep(0.2)
            for i, p in enumerate(procs):
                if p.is_alive() or stopping:
                    continue
                if time.monotonic() - last_restart < _RESTART_EVERY_S:
                    continue
                p.join(0)
                procs[i] = start()
                last_restart = time.monotonic()
    finally:
        for p in procs:
            if p.is_alive() and p.pid is not None:
                try:
                    p.terminate()  # SIGTERM: uvicorn finishes its requests and shuts down
                except OSError:  # pragma: no cover - gone in between
                    pass
        deadline = time.monotonic() + _STOP_WAIT_S
        for p in procs:
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():  # pragma: no cover - a hung process
                p.kill()
                p.join(5)
        for s, h in previous.items():
            signal.signal(s, h)
    return 0
