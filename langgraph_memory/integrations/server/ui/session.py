"""Who is looking: the API key of a request (header) or of its login (a signed cookie).

The inspector's pages take the API's ``Authorization: Bearer KEY`` header, or the
session cookie the login form sets. The cookie never holds the key: it holds the key's
public id, an expiry and a random nonce, signed with HMAC-SHA256 under a secret kept
beside the keys file (``service_ui_secret``, made 0600 on first use) and bound to the
key's stored digest, so a revoked key's sessions end at their next request and a forged
or edited cookie is refused. Every mutation carries a CSRF token: the HMAC of the
session's nonce (or, for a header request, of the key's digest), checked in constant
time.

Example:
    >>> import tempfile, pathlib
    >>> from langgraph_memory.integrations.server.keys import KeyFile
    >>> keys = KeyFile(pathlib.Path(tempfile.mkdtemp()))
    >>> key = keys.create("acme")
    >>> signer = Signer(keys)
    >>> cookie = signer.login(key)
    >>> signer.viewer(None, cookie).tenant
    'acme'
    >>> signer.viewer(None, cookie[:-1] + ("A" if cookie[-1] != "A" else "B")) is None
    True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from langgraph_memory.integrations.server.keys import KeyStore

__all__ = ["Signer", "Viewer", "COOKIE", "SECRET_FILE", "SESSION_SECONDS"]

#: The session cookie's name.
COOKIE = "lgm_ui"
#: The signing secret's file name, beside the keys file.
SECRET_FILE = "service_ui_secret"
#: How long a login lasts.
SESSION_SECONDS = 12 * 3600


@dataclass(frozen=True)
class Viewer:
    """An authenticated page request.

    Attributes:
        tenant: The key's tenant (whose users the pages show).
        key_id: The key's public id (named in the audit list).
        csrf: The token every form of this viewer carries.
        by_cookie: Whether it came through the login cookie (else the header).
    """

    tenant: str
    key_id: str
    csrf: str
    by_cookie: bool


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Signer:
    """Signs and checks session cookies and CSRF tokens for one keys file.

    Args:
        keys: The service's keys.
        secret: The signing secret; default read from (or made in) ``service_ui_secret``
            in ``directory`` (default: beside the keys file), or a per-process one when
            that directory is read-only.
        directory: Where the secret file is kept (needed for keys kept in a database).
    """

    def __init__(
        self, keys: KeyStore, secret: bytes | None = None, *, directory: Path | None = None
    ) -> None:
        self.keys = keys
        if secret is None:
            where = directory if directory is not None else getattr(keys, "path", None)
            if where is None:
                raise ValueError("the login secret needs a directory (keys kept in a database)")
            secret = _load_secret(where if directory is not None else Path(where).parent)
        self._secret = secret

    def _mac(self, *parts: str) -> str:
        msg = "\x1f".join(parts).encode()
        return _b64(hmac.new(self._secret, msg, hashlib.sha256).digest())

    def _active(self, key_id: str) -> tuple[str, str] | None:
        """(tenant, digest) of an unrevoked key id."""
        for info in self.keys.list():
            if info.key_id == key_id and info.revoked_at is None:
                return info.tenant, info.sha256
        return None

    # -- sessions -----------------------------------------------------------------------
    def login(self, key: str, *, now: float | None = None) -> str | None:
        """The cookie value of a login with ``key``, or ``None`` when the key is not valid."""
        if not isinstance(key, str) or self.keys.tenant_of(key) is None:
            return None
        key_id = key.split("_")[1]
        found = self._active(key_id)
        if found is None:  # pragma: no cover - revoked between the two reads
            return None
        expires = str(int((time.time() if now is None else now) + SESSION_SECONDS))
        nonce = secrets.token_urlsafe(16)
        sig = self._mac("session", key_id, found[1], expires, nonce)
        return ".".join((key_id, expires, nonce, sig))

    def viewer(self, bearer: str | None, cookie: str | None) -> Viewer | None:
        """The viewer of a request's header key or cookie (the header first); ``None``
        when neither is valid."""
        if bearer:
            tenant = self.keys.tenant_of(bearer)
            if tenant is None:
                return None
            digest = hashlib.sha256(bearer.encode()).hexdigest()
            return Viewer(tenant, bearer.split("_")[1], self._mac("csrf-key", digest), False)
        if not cookie:
            return None
        parts = cookie.split(".")
        if len(parts) != 4:
            return None
        key_id, expires, nonce, sig = parts
        found = self._active(key_id)
        digest = found[1] if found is not None else "0" * 64
        good = hmac.compare_digest(sig, self._mac("session", key_id, digest, expires, nonce))
        if found is None or not good or not expires.isdigit() or int(expires) < time.time():
            return None
        return Viewer(found[0], key_id, self._mac("csrf", nonce), True)

    # -- CSRF ---------------------------------------------------------------------------
    @staticmethod
    def check_csrf(viewer: Viewer, token: str | None) -> bool:
        """Whether a form's token is the viewer's."""
        return isinstance(token, str) and hmac.compare_digest(token, viewer.csrf)

    def login_token(self, nonce: str) -> str:
        """The token of the login form, for the pre-login cookie's ``nonce``."""
        return self._mac("login", nonce)


def _load_secret(directory: Path) -> bytes:
    """The secret in ``directory/service_ui_secret`` (made 0600 when missing), or a
    per-process one when it cannot be written."""
    path = directory / SECRET_FILE
    try:
        raw = path.read_bytes()
        if len(raw) >= 32:
            return raw
    except FileNotFoundError:
        pass
    except OSError:
        return secrets.token_bytes(32)
    fresh = secrets.token_bytes(32)
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=".ui-", dir=directory)  # 0600
        with os.fdopen(fd, "wb") as f:
            f.write(fresh)
        try:
            os.link(tmp, path)  # never replaces a secret another process made first
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
        return path.read_bytes()
    except OSError:
        return fresh
