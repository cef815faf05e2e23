"""API keys bound to tenants (optionally to agents, or admin), kept hashed in a keys file.

A key is ``lgm_<key id>_<secret>``: the key id (8 hex characters) is public and names
the entry, the secret (32 random bytes, URL-safe base64) is shown once, when the key is
made, and only its SHA-256 is kept (a high-entropy secret needs no slow hash: nothing
short enough to guess hides behind it). Checking a key compares digests in constant time
(:func:`hmac.compare_digest`). The file (``service_keys.json`` in the memory directory
by default) is written 0600 through a temporary file renamed into place, and read again
whenever it changes, so a key revoked by ``langgraph-memory keys revoke`` is refused by
a running server at its next request.

A key may be bound to agents (``agents``: it acts only as those agents, see
:mod:`~langgraph_memory.integrations.server.deps`) and may be an admin key (``admin``:
it also reaches the tenant's ``/v1/admin`` routes). Keys kept in PostgreSQL instead of a
file are :class:`~langgraph_memory.integrations.server.keys_pg.KeyTable`; both are a
:class:`KeyStore`.

Example:
    >>> import tempfile, pathlib
    >>> keys = KeyFile(pathlib.Path(tempfile.mkdtemp()) / "keys.json")
    >>> secret = keys.create("acme")
    >>> keys.tenant_of(secret)
    'acme'
    >>> keys.tenant_of(secret + "x") is None
    True
    >>> bot = keys.check(keys.create("acme", agents=["planner"], admin=True))
    >>> bot.agents, bot.admin
    (('planner',), True)
    >>> keys.revoke(keys.list()[0].key_id)
    True
    >>> keys.tenant_of(secret) is None
    True
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol

from langgraph_memory.core.validation import check_id

__all__ = [
    "KeyFile",
    "KeyInfo",
    "KeyStore",
    "KEYS_FILE",
    "POSTGRES_ENV",
    "TENANT_RE",
    "check_tenant",
    "check_agents",
    "new_key",
    "parse_key",
    "key_matches",
    "now_iso",
]

#: The environment variable ``serve`` and ``keys`` read a PostgreSQL URL from.
POSTGRES_ENV = "LANGGRAPH_MEMORY_POSTGRES_URL"
#: The keys file's name inside a memory directory.
KEYS_FILE = "service_keys.json"
#: What a tenant name may be: it prefixes the store's user ids (``tenant:user``), so it
#: holds no ``:``.
TENANT_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_KEY_RE = re.compile(r"lgm_([0-9a-f]{8})_([A-Za-z0-9_-]{43})")


def check_tenant(tenant: object) -> str:
    """``tenant`` when it is a valid tenant name.

    Raises:
        ValueError: When it is not 1-64 letters, digits, ``_``, ``.`` or ``-``
            (starting with a letter or digit).
    """
    if not isinstance(tenant, str) or not TENANT_RE.fullmatch(tenant):
        raise ValueError(
            "tenant must be 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    return tenant


def check_agents(agents: object) -> tuple[str, ...]:
    """``agents`` as a sorted tuple of distinct agent ids (``None``: no binding, ``()``).

    Raises:
        TypeError: When it is a str or not a list of str.
        ValueError: When an agent id is not a valid id.
    """
    if agents is None:
        return ()
    if isinstance(agents, str) or not isinstance(agents, (list, tuple, set, frozenset)):
        raise TypeError("agents must be a list of agent ids")
    return tuple(sorted({check_id(a, "agents[]") for a in agents}))


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_key(key_id: str) -> tuple[str, str]:
    """A new key with the id ``key_id`` and its SHA-256 (hex)."""
    key = f"lgm_{key_id}_{secrets.token_urlsafe(32)}"
    return key, _digest(key)


def parse_key(key: object) -> str | None:
    """The key id of a well-formed key (``lgm_<8 hex>_<43 chars>``), else ``None``."""
    m = _KEY_RE.fullmatch(key) if isinstance(key, str) else None
    return m.group(1) if m else None


def key_matches(key: str, info: KeyInfo | None) -> bool:
    """Whether ``key`` is ``info``'s and ``info`` is not revoked (one constant-time
    comparison of digests, made even when there is no ``info``)."""
    expected = info.sha256 if info is not None else "0" * 64
    ok = hmac.compare_digest(_digest(key), expected)
    return info is not None and ok and info.revoked_at is None


def now_iso() -> str:
    """Now, as ISO 8601 in UTC to the second (when a key was made or revoked)."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """One key as the file keeps it (never the key itself).

    Attributes:
        key_id: The public part of the key (``lgm_<key_id>_...``).
        tenant: The tenant whose users the key reaches.
        sha256: The SHA-256 of the whole key, hex.
        created_at: When it was made (ISO 8601, UTC).
        revoked_at: When it was revoked, or ``None``.
        agents: The agents the key acts as (empty: any agent).
        admin: Whether it reaches the tenant's ``/v1/admin`` routes.
    """

    key_id: str
    tenant: str
    sha256: str
    created_at: str
    revoked_at: str | None = None
    agents: tuple[str, ...] = ()
    admin: bool = False

    @classmethod
    def load(cls, data: dict[str, Any]) -> KeyInfo:
        """An entry as stored (a file from before agents and admin reads as neither)."""
        data = dict(data)
        data["agents"] = tuple(data.get("agents") or ())
        data["admin"] = bool(data.get("admin", False))
        return cls(**data)


class KeyStore(Protocol):
    """Where a service's keys live: :class:`KeyFile` (SQLite default) or
    :class:`~langgraph_memory.integrations.server.keys_pg.KeyTable` (PostgreSQL)."""

    def check(self, key: str) -> KeyInfo | None:
        """The entry of a valid, unrevoked key; ``None`` for anything else."""

    def check_cached(self, key: str) -> tuple[bool, KeyInfo | None]:
        """``(True, what check would answer)`` when that needs no I/O that may wait (a
        query to a database); ``(False, None)`` otherwise (then ``check`` it, in a thread)."""
        ...

    def tenant_of(self, key: str) -> str | None:
        """The tenant of a valid, unrevoked key; ``None`` for anything else."""

    def create(
        self, tenant: str, *, agents: Sequence[str] | None = None, admin: bool = False
    ) -> str:
        """Make a key and return it (the only time it is shown)."""
        ...

    def revoke(self, key_id: str) -> bool:
        """Revoke a key by its id (or the key); ``False`` when there is none left to."""
        ...

    def list(self) -> list[KeyInfo]:
        """Every key (revoked ones too), oldest first."""
        ...

    @property
    def where(self) -> str:
        """Where the keys are kept, for a human (a path, or the database's host)."""
        ...

    def close(self) -> None:
        """Release what it holds (a keys file holds nothing)."""


class KeyFile:
    """The keys of a service, in one JSON file (created 0600 on first write).

    Args:
        path: The file (a ``.json`` path), or a memory directory (then
            ``service_keys.json`` in it; made on the first key).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        p = Path(path)
        self.path = p if p.suffix == ".json" else p / KEYS_FILE
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._by_id: dict[str, KeyInfo] = {}

    # -- reading ------------------------------------------------------------------------
    def _load(self) -> dict[str, KeyInfo]:
        """The keys, read again when the file changed (size or modification time)."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._stamp, self._by_id = None, {}
            return self._by_id
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            data = json.loads(self.path.read_text(encoding="utf-8") or "{}")
            self._by_id = {k["key_id"]: KeyInfo.load(k) for k in data.get("keys", [])}
            self._stamp = stamp
        return self._by_id

    def list(self) -> list[KeyInfo]:
        """Every key (revoked ones too), oldest first."""
        with self._lock:
            return sorted(self._load().values(), key=lambda k: k.created_at)

    @property
    def where(self) -> str:
        """The file's path."""
        return str(self.path)

    def close(self) -> None:
        """Nothing to release (the file is read when it changes, never held open)."""

    def check(self, key: str) -> KeyInfo | None:
        """The entry of a valid, unrevoked key; ``None`` for anything else."""
        kid = parse_key(key)
        if kid is None:
            return None
        with self._lock:
            info = self._load().get(kid)
        return info if key_matches(key, info) else None

    def check_cached(self, key: str) -> tuple[bool, KeyInfo | None]:
        """Always ``(True, check(key))``: the file is in memory (a ``stat`` tells whether
        it changed)."""
        return True, self.check(key)

    def tenant_of(self, key: str) -> str | None:
        """The tenant of a valid, unrevoked key; ``None`` for anything else."""
        info = self.check(key)
        return info.tenant if info is not None else None

    # -- writing ------------------------------------------------------------------------
    def create(
        self, tenant: str, *, agents: Sequence[str] | None = None, admin: bool = False
    ) -> str:
        """Make a key for ``tenant`` and return it (the only time it is ever shown).

        Args:
            tenant: The tenant whose users it reaches.
            agents: The agents it may act as (default: any).
            admin: Whether it reaches the tenant's ``/v1/admin`` routes.

        Raises:
            ValueError: When ``tenant`` is not a valid tenant name, or an agent id is
                not a valid id.
        """
        check_tenant(tenant)
        bound = check_agents(agents)
        with self._lock:
            keys = dict(self._load())
            key_id = secrets.token_hex(4)
            while key_id in keys:  # 4 bytes: a clash is rare, never reused
                key_id = secrets.token_hex(4)
            key, digest = new_key(key_id)
            keys[key_id] = KeyInfo(key_id, tenant, digest, now_iso(), None, bound, bool(admin))
            self._write(keys)
        return key

    def revoke(self, key_id: str) -> bool:
        """Revoke a key by its id (or by the key itself); ``False`` when there is none
        (or it was revoked already)."""
        kid = parse_key(key_id) or key_id
        with self._lock:
            keys = dict(self._load())
            info = keys.get(kid)
            if info is None or info.revoked_at is not None:
                return False
            keys[kid] = dataclasses.replace(info, revoked_at=now_iso())
            self._write(keys)
        return True

    def _write(self, keys: dict[str, KeyInfo]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        body = json.dumps({"keys": [asdict(k) for k in keys.values()]}, indent=1)
        fd, tmp = tempfile.mkstemp(prefix=".keys-", dir=self.path.parent)  # 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(body)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._stamp = None
        self._load()
