"""Connections of :class:`~.backend.PostgresBackend`: pool, migrations, errors, retries.

A dropped connection is retried once for reads, and for writes when it is found
before the transaction did anything (its ``BEGIN`` failed); a write cut later is
reported. The pool hands out connections without a test round trip each: a
connection found dropped makes the pool test its idle ones (after a server restart
every one is) before the retry. A server that cannot be reached, and a server
without pgvector, raise errors that say what to do and name the host but never the
password.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeVar

from langgraph_memory.storage.postgres import sql as q

if TYPE_CHECKING:
    from psycopg import Connection

__all__ = ["PostgresConnection"]

T = TypeVar("T")
_INSTALL = "pip install 'langgraph-memory[postgres]'"


def _import_driver() -> Any:
    try:
        import psycopg
        import psycopg_pool  # noqa: F401
        from pgvector.psycopg import register_vector  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            f"the PostgreSQL backend needs psycopg, psycopg_pool and pgvector: {_INSTALL}"
        ) from exc
    return psycopg


def _is_disconnect(exc: BaseException) -> bool:
    """Whether a psycopg error means the connection is gone (not a failed statement)."""
    state = getattr(exc, "sqlstate", None)
    return state is None or state.startswith("08") or state in ("57P01", "57P02", "57P03")


class PostgresConnection:
    """A pool of connections to one database, with its schema set up.

    Args:
        conninfo: A libpq URL or key/value string.
        min_size: Connections the pool keeps open.
        max_size: Most connections the pool opens.
        connect_timeout: Seconds to wait for the server when connecting.
        wait_timeout: Seconds a call waits for a connection while the server cannot be
            reached (it is down, restarting, or every connection is busy); then it raises
            ``ConnectionError`` and a write has stored nothing.
        pool_kwargs: Extra arguments for ``psycopg_pool.ConnectionPool``.
    """

    def __init__(
        self,
        conninfo: str,
        *,
        min_size: int = 1,
        max_size: int = 8,
        connect_timeout: float = 10.0,
        wait_timeout: float = 10.0,
        pool_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        if not (isinstance(wait_timeout, int | float) and 0 < wait_timeout < float("inf")):
            raise ValueError(
                f"wait_timeout must be a positive number of seconds, got {wait_timeout!r}"
            )
        psycopg = _import_driver()
        from psycopg.conninfo import conninfo_to_dict

        self._pg = psycopg
        try:
            params = conninfo_to_dict(conninfo)
        except psycopg.ProgrammingError:
            raise ValueError(
                "not a valid PostgreSQL connection string (expected postgresql://user@host/db)"
            ) from None
        self._password = str(params.get("password") or "")
        host = params.get("host") or params.get("hostaddr") or "localhost"
        self.target = f"{host}:{params.get('port') or 5432}/{params.get('dbname') or ''}"
        self.conninfo = conninfo
        self._timeout = connect_timeout
        self._lock = threading.Lock()
        self._closed = False
        self._lease_conn: Connection | None = None
        self._group = threading.local()  # this thread's atomic-writes transaction
        self.pgvector_version = self.setup()
        from psycopg_pool import ConnectionPool

        self._pool = ConnectionPool(
            conninfo,
            min_size=min_size,
            max_size=max(max_size, min_size),
            kwargs={"autocommit": True, "connect_timeout": max(1, int(connect_timeout))},
            configure=self._configure,
            open=False,
            name="langgraph-memory",
            timeout=float(wait_timeout),
            **dict(pool_kwargs or {}),
        )
        try:
            self._pool.open(wait=True, timeout=connect_timeout)
        except Exception as exc:
            self._pool.close()
            raise self._connection_error("cannot connect to", exc) from None

    # -- plumbing -------------------------------------------------------------------------
    def _scrub(self, text: str) -> str:
        return text.replace(self._password, "***") if self._password else text

    def _connection_error(self, what: str, exc: BaseException) -> ConnectionError:
        reason = self._scrub(str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc))
        return ConnectionError(
            f"{what} PostgreSQL at {self.target}: {reason}. Check the URL, the credentials "
            "and that the server is running and reachable."
        )

    def _connect(self) -> Connection:
        try:
            conn: Connection = self._pg.connect(
                self.conninfo, autocommit=True, connect_timeout=max(1, int(self._timeout))
            )
        except self._pg.OperationalError as exc:
            raise self._connection_error("cannot connect to", exc) from None
        return conn

    @staticmethod
    def _configure(conn: Connection) -> None:
        from pgvector.psycopg import register_vector

        register_vector(conn)
        _register_clamped_timestamps(conn)

    def setup(self) -> str:
        """Run pending migrations (idempotent; safe from several processes at once).

        Returns:
            The version of the pgvector extension.

        Raises:
            RuntimeError: When pgvector is missing on the server or may not be created.
        """
        with self._connect() as conn:
            try:
                with conn.transaction():
                    conn.execute(
                        "SELECT pg_advisory_xact_lock(%s)", (q.lock_key(q.MIGRATION_LOCK),)
                    )
                    conn.execute(
                        "CREATE TABLE IF NOT EXISTS lgm_migrations (v integer PRIMARY KEY, "
                        "applied_at timestamptz NOT NULL DEFAULT now())"
                    )
                    row = conn.execute("SELECT MAX(v) FROM lgm_migrations").fetchone()
                    current = -1 if row is None or row[0] is None else int(row[0])
                    for version in range(current + 1, len(q.MIGRATIONS)):
                        conn.execute(q.MIGRATIONS[version].encode())
                        conn.execute("INSERT INTO lgm_migrations (v) VALUES (%s)", (version,))
            except (self._pg.errors.FeatureNotSupported, self._pg.errors.UndefinedFile) as exc:
                raise RuntimeError(
                    f"the PostgreSQL server at {self.target} has no pgvector extension "
                    f"({self._scrub(str(exc).strip())}). Install pgvector on the server "
                    "(e.g. `apt install postgresql-NN-pgvector`, the pgvector/pgvector Docker "
                    "image, or https://github.com/pgvector/pgvector#installation), then retry."
                ) from None
            except self._pg.errors.InsufficientPrivilege as exc:
                raise RuntimeError(
                    f"cannot create the pgvector extension in {self.target} "
                    f"({self._scrub(str(exc).strip())}): ask a superuser to run "
                    "`CREATE EXTENSION vector;` in that database once, then retry."
                ) from None
            row = conn.execute(
                "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
            ).fetchone()
        return str(row[0]) if row else "0"

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the memory backend is closed")

    def _read(self, fn: Callable[[Connection], T]) -> T:
        """Run a read; a dropped connection is retried once on a fresh one. Within
        :meth:`atomic_writes` it reads on the group's transaction (its own writes)."""
        self._check_open()
        group = getattr(self._group, "conn", None)
        if group is not None:
            return fn(group)
        for attempt in (1, 2):
            try:
                with self._pool.connection() as conn:
                    return fn(conn)
            except self._pg.OperationalError as exc:
                if attempt == 2 or not _is_disconnect(exc):
                    raise self._connection_error("lost the connection to", exc) from exc
                self._pool.check()  # the others may be dropped too (a server restart)
            except self._pool_timeout() as exc:
                raise self._connection_error("no connection to", exc) from exc
        raise AssertionError("unreachable")  # pragma: no cover

    def _begin(self, held: ExitStack, keys: list[int]) -> Connection:
        """A pooled connection in a transaction holding the advisory locks ``keys``, kept
        open by ``held``; one found dropped before anything was done is replaced once."""
        for attempt in (1, 2):
            stack = ExitStack()
            try:
                conn = stack.enter_context(self._pool.connection())
                stack.enter_context(conn.transaction())
                for key in keys:
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (key,))
            except BaseException as exc:
                with suppress(self._pg.Error):  # released with the error: rolled back, and
                    stack.__exit__(type(exc), exc, exc.__traceback__)  # a broken one dropped
                dropped = isinstance(exc, self._pg.OperationalError) and _is_disconnect(exc)
                if attempt == 2 or not dropped:
                    raise
                self._pool.check()  # the others may be dropped too (a server restart)
                continue
            held.enter_context(stack.pop_all())
            return conn
        raise AssertionError("unreachable")  # pragma: no cover

    def _pool_timeout(self) -> type[Exception]:
        from psycopg_pool import PoolTimeout

        return PoolTimeout

    @contextmanager
    def atomic_writes(self) -> Iterator[None]:
        """Commit the writes of this thread within the scope in one transaction, when it
        ends (see :class:`~langgraph_memory.storage.capabilities.AtomicWrites`): a crash
        or an error leaving the scope keeps none of them; each write is a savepoint,
        undone alone when it fails and the error is caught. Reads in the scope see its
        writes. Keep it to a few writes: the users' locks are held until it ends.

        Example:
            >>> with backend.atomic_writes():  # doctest: +SKIP
            ...     backend.put_record(record)
            ...     backend.put_entries(user_id, [entry])
        """
        if getattr(self._group, "conn", None) is not None:
            yield  # nested: the outer scope commits
            return
        with self._tx() as conn:
            self._group.conn, self._group.keys = conn, set()
            try:
                yield
            finally:
                self._group.conn = None

    @contextmanager
    def _tx(self, *users: str) -> Iterator[Connection]:
        """One write transaction holding the advisory locks of ``users`` (within
        :meth:`atomic_writes`, a savepoint of the group's transaction)."""
        self._check_open()
        group = getattr(self._group, "conn", None)
        if group is not None:
            with group.transaction():
                for key in sorted({q.lock_key("user", u) for u in users} - self._group.keys):
                    group.execute("SELECT pg_advisory_xact_lock(%s)", (key,))
                    self._group.keys.add(key)
                yield group
            return
        try:
            with ExitStack() as held:
                yield self._begin(held, sorted({q.lock_key("user", u) for u in users}))
        except self._pg.OperationalError as exc:
            if not _is_disconnect(exc):
                raise
            raise ConnectionError(
                f"lost the connection to PostgreSQL at {self.target} during a write: the "
                "server rolled the transaction back or its outcome is unknown. Nothing was "
                "stored silently; retry the call (writes are idempotent)."
            ) from exc
        except self._pool_timeout() as exc:
            raise self._connection_error("no connection to", exc) from exc
        except self._pg.DataError as exc:
            raise ValueError(f"PostgreSQL refused the value: {self._scrub(str(exc))}") from exc

    @contextmanager
    def writer_lease(self) -> Iterator[bool]:
        """A session advisory lock on a connection of its own (see
        ``WriterLease.writer_lease``): a process that dies or loses its connection
        releases it at once. A lost connection yields False (retried on the next call)."""
        self._check_open()
        key = q.lock_key(q.WRITER_LOCK)
        with self._lock:
            conn, self._lease_conn = self._lease_conn, None  # this thread's while held
        try:
            if conn is None or conn.closed:
                conn = self._connect()
            row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
        except (self._pg.OperationalError, ConnectionError):
            if conn is not None:
                conn.close()
            yield False
            return
        held = bool(row and row[0])
        try:
            yield held
        finally:
            try:
                if held:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
            except self._pg.OperationalError:
                conn.close()  # the server dropped the lock with the connection
            with self._lock:
                if self._closed or self._lease_conn is not None:
                    conn.close()
                else:
                    self._lease_conn = conn

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            lease, self._lease_conn = self._lease_conn, None
        if lease is not None:
            lease.close()
        self._pool.close()


@contextmanager
def snapshot(conn: Connection, level: str) -> Iterator[Connection]:
    """One snapshot for several statements: a transaction at isolation ``level`` (e.g.
    ``"REPEATABLE READ, READ ONLY"``), or, on the transaction of a
    :meth:`PostgresConnection.atomic_writes` scope, a savepoint of it (which sees the
    group's own writes)."""
    outer = conn.info.transaction_status.name != "IDLE"
    with conn.transaction():
        if not outer:
            conn.execute(f"SET TRANSACTION ISOLATION LEVEL {level}")
        yield conn


def _register_clamped_timestamps(conn: Connection) -> None:
    """Read a ``timestamptz`` outside Python's range (years 1-9999) as the nearest end of
    it instead of failing the whole read.

    New timestamps are checked on the way in (see :mod:`langgraph_memory.core.validation`);
    a store written before that may hold one (``9999-12-31T23:59:59-05:00`` is year
    10000 in UTC), and one such row made every read of its user, and the embedding
    queue of every user, raise ``DataError``.
    """
    from psycopg import DataError
    from psycopg.types.datetime import TimestamptzBinaryLoader, TimestamptzLoader

    low = datetime(1, 1, 1, tzinfo=timezone.utc)
    high = datetime(9999, 12, 31, 23, 59, 59, tzinfo=timezone.utc)

    class Clamped(TimestamptzLoader):
        def load(self, data: Any) -> datetime:
            try:
                return super().load(data)
            except DataError:
                return low if bytes(data).rstrip().endswith(b"BC") else high

    class ClampedBinary(TimestamptzBinaryLoader):
        def load(self, data: Any) -> datetime:
            try:
                return super().load(data)
            except DataError:
                micros = int.from_bytes(bytes(data), "big", signed=True)
                return low if micros < 0 else high

    conn.adapters.register_loader("timestamptz", Clamped)
    conn.adapters.register_loader("timestamptz", ClampedBinary)
