"""API keys kept in PostgreSQL, so every service process on one database shares them.

``langgraph-memory serve --postgres URL`` and ``langgraph-memory keys create --postgres
URL --tenant T`` keep the keys in the table ``lgm_service_keys`` of that database (made
on first use, ``CREATE TABLE IF NOT EXISTS``), beside the store's own tables: no keys
file to copy to each machine. The rows are what a keys file holds (the key id, the
tenant, the SHA-256 of the key, the agents, admin, when made and revoked), never a key.

A check reads the key's row (one primary-key lookup) and keeps it for ``cache_s``
seconds (1 by default), so most requests ask the database nothing: a key revoked by
another process, or by ``keys revoke --postgres URL``, is refused by every process within
``cache_s`` seconds (by the revoking process at once). Rows are kept, never keys: each use
compares the key's SHA-256 with the row's again, and an unknown key id is never kept. The
table belongs to the service, not to the memory: the library's store never
reads it, and ``delete_user`` and the store's migrations leave it alone.

Example:
    >>> keys = KeyTable("postgresql://u:p@db/mem")  # doctest: +SKIP
    >>> key = keys.create("acme", admin=True)  # doctest: +SKIP
    >>> keys.check(key).admin  # doctest: +SKIP
    True
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import threading
import time
from collections.abc import Sequence
from typing import Any

from langgraph_memory.integrations.server.keys import (
    KeyInfo,
    check_agents,
    check_tenant,
    key_matches,
    new_key,
    now_iso,
    parse_key,
)

__all__ = ["KeyTable", "TABLE"]

#: The table the keys live in.
TABLE = "lgm_service_keys"

_COLUMNS = "key_id, tenant, sha256, created_at, revoked_at, agents, admin"
_CREATE = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    key_id     TEXT PRIMARY KEY,
    tenant     TEXT NOT NULL,
    sha256     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    agents     TEXT NOT NULL DEFAULT '[]',
    admin      BOOLEAN NOT NULL DEFAULT FALSE
)"""


def _info(row: tuple[Any, ...]) -> KeyInfo:
    kid, tenant, digest, created, revoked, agents, admin = row
    return KeyInfo(kid, tenant, digest, created, revoked, tuple(json.loads(agents)), bool(admin))


class KeyTable:
    """The keys of a service, in a table of a PostgreSQL database.

    Args:
        url: The database's libpq URL (the store's ``--postgres`` URL).
        max_size: Most connections it opens (each check holds one for one query).
        timeout: Seconds to wait for a connection.
        cache_s: Seconds a key's row read from the table answers checks before it is
            read again (``0``: every check reads it): the longest a revocation made
            elsewhere takes to reach this process.

    Raises:
        ImportError: Without psycopg (``pip install 'langgraph-memory[postgres]'``).
        ConnectionError: When the database cannot be reached (the password is never shown).
    """

    #: Most rows kept (the oldest go first).
    MAX_CACHED = 10_000

    def __init__(
        self, url: str, *, max_size: int = 4, timeout: float = 10.0, cache_s: float = 1.0
    ) -> None:
        if not cache_s >= 0:
            raise ValueError(f"cache_s must be a number of seconds >= 0, got {cache_s!r}")
        self.cache_s = float(cache_s)
        self._cache: dict[str, tuple[float, KeyInfo]] = {}  # key id -> (read at, row)
        self._cache_lock = threading.Lock()
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(
                f"keys in PostgreSQL need psycopg ({exc}): pip install 'langgraph-memory[postgres]'"
            ) from None
        info = psycopg.conninfo.conninfo_to_dict(url)
        self._host = f"{info.get('host') or 'localhost'}:{info.get('port') or 5432}"
        self._db = str(info.get("dbname") or "")
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            timeout=timeout,
            kwargs={"autocommit": True},
            open=False,
            name="lgm-service-keys",
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
            with self._pool.connection() as c:
                c.execute(_CREATE)
        except Exception as exc:
            self._pool.close()
            raise ConnectionError(
                f"cannot reach the keys' PostgreSQL database {self._db!r} at {self._host} "
                f"({type(exc).__name__})"
            ) from None

    @property
    def where(self) -> str:
        """The table and database (never the URL, which may hold a password)."""
        return f"table {TABLE} of database {self._db!r} at {self._host}"

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._pool.connection() as c:
            return list(c.execute(sql, params).fetchall())

    # -- reading --------------------------------------------------------------------------
    def check(self, key: str) -> KeyInfo | None:
        """The entry of a valid, unrevoked key; ``None`` for anything else (the key's row
        as read within the last ``cache_s`` seconds, else read from the table)."""
        kid = parse_key(key)
        if kid is None:
            return None
        known, info = self._kept(kid, key)
        if known:
            return info
        rows = self._rows(f"SELECT {_COLUMNS} FROM {TABLE} WHERE key_id = %s", (kid,))
        row = _info(rows[0]) if rows else None
        if row is not None and self.cache_s > 0:
            with self._cache_lock:
                if len(self._cache) >= self.MAX_CACHED:
                    del self._cache[next(iter(self._cache))]
                self._cache[kid] = (time.monotonic(), row)
        return row if key_matches(key, row) else None

    def check_cached(self, key: str) -> tuple[bool, KeyInfo | None]:
        """``(True, entry or None)`` when the answer needs no query (a malformed key, or
        the key's row read within ``cache_s`` seconds); ``(False, None)`` otherwise."""
        kid = parse_key(key)
        return (True, None) if kid is None else self._kept(kid, key)

    def _kept(self, kid: str, key: str) -> tuple[bool, KeyInfo | None]:
        """What the kept row of ``kid`` answers for ``key``, when it is fresh."""
        with self._cache_lock:
            hit = self._cache.get(kid)
        if hit is None or time.monotonic() - hit[0] >= self.cache_s:
            return False, None
        return True, hit[1] if key_matches(key, hit[1]) else None

    def tenant_of(self, key: str) -> str | None:
        """The tenant of a valid, unrevoked key; ``None`` for anything else."""
        info = self.check(key)
        return info.tenant if info is not None else None

    def list(self) -> list[KeyInfo]:
        """Every key (revoked ones too), oldest first."""
        rows = self._rows(f"SELECT {_COLUMNS} FROM {TABLE} ORDER BY created_at, key_id")
        return [_info(r) for r in rows]

    # -- writing --------------------------------------------------------------------------
    def create(
        self, tenant: str, *, agents: Sequence[str] | None = None, admin: bool = False
    ) -> str:
        """Make a key for ``tenant`` and return it (the only time it is ever shown).

        Raises:
            ValueError: When ``tenant`` is not a valid tenant name, or an agent id is
                not a valid id.
        """
        check_tenant(tenant)
        bound = check_agents(agents)
        for _ in range(16):  # 4 random bytes: a clash is rare, and never reused
            kid = secrets.token_hex(4)
            key, digest = new_key(kid)
            info = KeyInfo(kid, tenant, digest, now_iso(), None, bound, bool(admin))
            row = dataclasses.astuple(info)[:5] + (json.dumps(list(bound)), bool(admin))
            made = self._rows(
                f"INSERT INTO {TABLE} ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (key_id) DO NOTHING RETURNING key_id",
                row,
            )
            if made:
                return key
        raise RuntimeError("no free key id after 16 tries")  # pragma: no cover

    def revoke(self, key_id: str) -> bool:
        """Revoke a key by its id (or by the key itself); ``False`` when there is none
        (or it was revoked already)."""
        kid = parse_key(key_id) or key_id
        rows = self._rows(
            f"UPDATE {TABLE} SET revoked_at = %s WHERE key_id = %s AND revoked_at IS NULL "
            "RETURNING key_id",
            (now_iso(), kid),
        )
        with self._cache_lock:
            self._cache.pop(kid, None)
        return bool(rows)

    def close(self) -> None:
        """Close its connections."""
        self._pool.close()
