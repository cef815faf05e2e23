"""Tenants inside one store: the caller's key names its tenant, the tenant prefixes its users.

The store's user id of a tenant's user is ``"<tenant>:<user_id>"``. A tenant name holds no
``:`` (:data:`~langgraph_memory.integrations.server.keys.TENANT_RE`), so the first ``:``
ends it: no tenant can name a user id another tenant's users map to, whatever its own
user ids hold (``acme`` naming ``"globex:bob"`` reaches ``"acme:globex:bob"``). Responses
show the caller's own user id, never the prefix.

A read of a user the tenant has no memory of is answered 404, as is a read of another
tenant's user (which, seen from the caller, is the same thing): the two responses are
identical, so no response tells whether another tenant has a user of that name.

Example:
    >>> store_user_id("acme", "alice")
    'acme:alice'
    >>> own_user_id("acme", "acme:globex:bob")
    'globex:bob'
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from langgraph_memory.core.validation import MAX_ID_CHARS, check_id
from langgraph_memory.integrations.server.problems import ProblemError

__all__ = ["store_user_id", "own_user_id", "KnownUsers", "SEPARATOR"]

SEPARATOR = ":"


def store_user_id(tenant: str, user_id: str) -> str:
    """The store's id of ``tenant``'s ``user_id``.

    Raises:
        ProblemError: 422 when ``user_id`` is not a valid id, or too long once prefixed.
    """
    try:
        check_id(user_id, "user_id")
    except (TypeError, ValueError) as exc:
        raise ProblemError(422, str(exc), field="user_id", slug="invalid-value") from None
    room = MAX_ID_CHARS - len(tenant) - len(SEPARATOR)
    if len(user_id) > room:
        raise ProblemError(
            422, f"user_id is longer than {room} characters", field="user_id", slug="invalid-value"
        )
    return f"{tenant}{SEPARATOR}{user_id}"


def own_user_id(tenant: str, store_uid: str) -> str:
    """The caller's id of one of its tenant's store user ids."""
    prefix = f"{tenant}{SEPARATOR}"
    if not store_uid.startswith(prefix):
        raise ValueError("not this tenant's user")
    return store_uid[len(prefix) :]


class KnownUsers:
    """Which store user ids have memory: the store's users (those with messages), plus
    those this process wrote anything for, minus those it deleted.

    Args:
        list_users: The store's user ids with messages (``mm.maintenance.users``).
    """

    def __init__(self, list_users: Callable[[], list[str]]) -> None:
        self._list = list_users
        self._lock = threading.Lock()
        self._known: set[str] = set()

    def add(self, store_uid: str) -> None:
        """``store_uid`` has memory now (this process wrote for it)."""
        with self._lock:
            self._known.add(store_uid)

    def remove(self, store_uid: str) -> None:
        """``store_uid`` was deleted."""
        with self._lock:
            self._known.discard(store_uid)

    def exists(self, store_uid: str) -> bool:
        """Whether the store holds memory of ``store_uid`` (asks the store on a miss,
        so another process's writes are seen)."""
        with self._lock:
            if store_uid in self._known:
                return True
        present = set(self._list())
        with self._lock:
            self._known |= present
            return store_uid in self._known

    def of_tenant(self, tenant: str) -> list[str]:
        """The tenant's users with memory (its own ids), sorted."""
        present = set(self._list())
        prefix = f"{tenant}{SEPARATOR}"
        with self._lock:
            self._known |= present
            ids = {u for u in self._known if u.startswith(prefix)}
        return sorted(u[len(prefix) :] for u in ids)

    def require(self, store_uid: str) -> None:
        """Raise the one 404 every unknown user gets.

        Raises:
            ProblemError: 404 when the store holds no memory of ``store_uid``.
        """
        if not self.exists(store_uid):
            raise ProblemError(404, "no such user", slug="user-not-found")
