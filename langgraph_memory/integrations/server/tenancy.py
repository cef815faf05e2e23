"""Tenants inside one store: the caller's key names its tenant, the tenant prefixes its users.

The store's user id of a tenant's user is ``"<tenant>:<user_id>"``. A tenant name holds no
``:`` (:data:`~langgraph_memory.integrations.server.keys.TENANT_RE`), so the first ``:``
ends it: no tenant can name a user id another tenant's users map to, whatever its own
user ids hold (``acme`` naming ``"globex:bob"`` reaches ``"acme:globex:bob"``). Responses
show the caller's own user id, never the prefix.

A read of a user the tenant has no memory of is answered 404, as is a read of another
tenant's user (which, seen from the caller, is the same thing): the two responses are
identical, so no response tells whether another tenant has a user of that name.

Store items (``MemoryStore``'s) are addressed by namespace, not by user. A namespace
with an owner (its label at ``WriteSection.store_owner_label`` is a user id: LangMem's
``("memories", "{user_id}")``) has that label mapped like a path's user id, so the item
is the tenant's user's (``delete_user`` removes it); a namespace without one (shorter, or
a label that is no user id) is kept per tenant: its first label gets the tenant's prefix.
No namespace a tenant sends maps to one of another tenant's (:func:`store_namespace`),
and every namespace read back is checked to be the caller's (:func:`own_namespace`).

Example:
    >>> store_user_id("acme", "alice")
    'acme:alice'
    >>> own_user_id("acme", "acme:globex:bob")
    'globex:bob'
    >>> store_namespace("acme", ("memories", "alice"), 1)
    ('memories', 'acme:alice')
    >>> store_namespace("acme", ("shared",), 1)
    ('acme:shared',)
    >>> own_namespace("acme", ("acme:shared",), 1), own_namespace("globex", ("acme:shared",), 1)
    (('shared',), None)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from langgraph_memory.core.validation import MAX_ID_CHARS, check_id
from langgraph_memory.integrations.server.problems import ProblemError
from langgraph_memory.parts.items import namespace_owner

__all__ = [
    "store_user_id",
    "own_user_id",
    "store_namespace",
    "own_namespace",
    "namespace_owner",
    "KnownUsers",
    "SEPARATOR",
]

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


def store_namespace(tenant: str, namespace: Sequence[str], position: int | None) -> tuple[str, ...]:
    """The store's namespace of ``tenant``'s ``namespace``: its owner label as the
    tenant's store user id, or (no owner) its first label prefixed with the tenant.

    Args:
        tenant: The caller's tenant.
        namespace: The namespace as the caller names it (at least one label).
        position: ``WriteSection.store_owner_label`` of the served memory.

    Raises:
        ProblemError: 422 when the namespace is empty or its owner label too long once
            prefixed.
    """
    if not namespace:
        raise ProblemError(
            422, "namespace cannot be empty", field="namespace", slug="invalid-value"
        )
    ns = list(namespace)
    if namespace_owner(ns, position) is not None:
        assert position is not None
        try:
            ns[position] = store_user_id(tenant, ns[position])
        except ProblemError:
            raise ProblemError(
                422,
                f"namespace label {position} (the owner's user id) is too long",
                field="namespace",
                slug="invalid-value",
            ) from None
    else:
        ns[0] = f"{tenant}{SEPARATOR}{ns[0]}"
    return tuple(ns)


def own_namespace(
    tenant: str, namespace: Sequence[str], position: int | None
) -> tuple[str, ...] | None:
    """The caller's view of a store namespace, or ``None`` when it is not ``tenant``'s
    (the inverse of :func:`store_namespace`)."""
    if not namespace:
        return None
    prefix = f"{tenant}{SEPARATOR}"
    ns = list(namespace)
    at = position if namespace_owner(ns, position) is not None else 0
    assert at is not None
    if not ns[at].startswith(prefix):
        return None
    ns[at] = ns[at][len(prefix) :]
    try:  # only what the tenant could have written (never a namespace made in process)
        back = store_namespace(tenant, ns, position)
    except ProblemError:
        return None
    return tuple(ns) if back == tuple(namespace) else None


class KnownUsers:
    """Which store user ids have memory: the store's users (those with messages), plus
    those this process wrote anything for, minus those it deleted.

    Args:
        list_users: The store's user ids with messages (``mm.maintenance.users``).
        holds: Whether a user id holds memory beside messages (store items, core blocks,
            documents), asked for one user when the listing does not name it, so a user
            with no messages is found after a restart too.
    """

    def __init__(
        self, list_users: Callable[[], list[str]], holds: Callable[[str], bool] | None = None
    ) -> None:
        self._list = list_users
        self._holds = holds
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

    def knows(self, store_uid: str) -> bool:
        """Whether this process knows ``store_uid`` has memory (never asks the store)."""
        with self._lock:
            return store_uid in self._known

    def exists(self, store_uid: str) -> bool:
        """Whether the store holds memory of ``store_uid`` (asks the store on a miss,
        so another process's writes are seen)."""
        with self._lock:
            if store_uid in self._known:
                return True
        present = set(self._list())
        if store_uid not in present and self._holds is not None and self._holds(store_uid):
            present.add(store_uid)
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
