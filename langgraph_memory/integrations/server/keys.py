"""API keys bound to tenants, kept hashed in a keys file beside the store.

A key is ``lgm_<key id>_<secret>``: the key id (8 hex characters) is public and names
the entry, the secret (32 random bytes, URL-safe base64) is shown once, when the key is
made, and only its SHA-256 is kept (a high-entropy secret needs no slow hash: nothing
short enough to guess hides behind it). Checking a key compares digests in constant time
(:func:`hmac.compare_digest`). The file (``service_keys.json`` in the memory directory
by default) is written 0600 through a temporary file renamed into place, and read again
whenever it changes, so a key revoked by ``langgraph-memory keys revoke`` is refused by
a running server at its next request.

Example:
    >>> import tempfile, pathlib
    >>> keys = KeyFile(pathlib.Path(tempfile.mkdtemp()) / "keys.json")
    >>> secret = keys.create("acme")
    >>> keys.tenant_of(secret)
    'acme'
    >>> keys.tenant_of(secret + "x") is None
    True
    >>> keys.revoke(keys.list()[0].key_id)
    True
    >>> keys.tenant_of(secret) is None
    True
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
import threading
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

__all__ = ["KeyFile", "KeyInfo", "KEYS_FILE", "TENANT_RE", "check_tenant"]

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


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """One key as the file keeps it (never the key itself).

    Attributes:
        key_id: The public part of the key (``lgm_<key_id>_...``).
        tenant: The tenant whose users the key reaches.
        sha256: The SHA-256 of the whole key, hex.
        created_at: When it was made (ISO 8601, UTC).
        revoked_at: When it was revoked, or ``None``.
    """

    key_id: str
    tenant: str
    sha256: str
    created_at: str
    revoked_at: str | None = None


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
            self._by_id = {k["key_id"]: KeyInfo(**k) for k in data.get("keys", [])}
            self._stamp = stamp
        return self._by_id

    def list(self) -> list[KeyInfo]:
        """Every key (revoked ones too), oldest first."""
        with self._lock:
            return sorted(self._load().values(), key=lambda k: k.created_at)

    def tenant_of(self, key: str) -> str | None:
        """The tenant of a valid, unrevoked key; ``None`` for anything else."""
        m = _KEY_RE.fullmatch(key) if isinstance(key, str) else None
        if m is None:
            return None
        with self._lock:
            info = self._load().get(m.group(1))
        expected = info.sha256 if info is not None else "0" * 64
        ok = hmac.compare_digest(_digest(key), expected)
        if info is None or not ok or info.revoked_at is not None:
            return None
        return info.tenant

    # -- writing ------------------------------------------------------------------------
    def create(self, tenant: str) -> str:
        """Make a key for ``tenant`` and return it (the only time it is ever shown).

        Raises:
            ValueError: When ``tenant`` is not a valid tenant name.
        """
        check_tenant(tenant)
        with self._lock:
            keys = dict(self._load())
            key_id = secrets.token_hex(4)
            while key_id in keys:  # 4 bytes: a clash is rare, never reused
                key_id = secrets.token_hex(4)
            key = f"lgm_{key_id}_{secrets.token_urlsafe(32)}"
            now = datetime.now(timezone.utc).isoformat(timespec="seconds")
            keys[key_id] = KeyInfo(key_id, tenant, _digest(key), now)
            self._write(keys)
        return key

    def revoke(self, key_id: str) -> bool:
        """Revoke a key by its id (or by the key itself); ``False`` when there is none
        (or it was revoked already)."""
        m = _KEY_RE.fullmatch(key_id)
        kid = m.group(1) if m else key_id
        with self._lock:
            keys = dict(self._load())
            info = keys.get(kid)
            if info is None or info.revoked_at is not None:
                return False
            now = datetime.now(timezone.utc).isoformat(timespec="seconds")
            keys[kid] = KeyInfo(info.key_id, info.tenant, info.sha256, info.created_at, now)
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
