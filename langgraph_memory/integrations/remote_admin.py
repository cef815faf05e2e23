"""The service's admin routes from the client: ``mem.backup()`` and ``mem.maintenance``.

:class:`~langgraph_memory.RemoteMemory` and its async twin take these from
:class:`RemoteAdmin` / :class:`AsyncRemoteAdmin`; they need an admin key (``langgraph-memory
keys create --tenant T --admin``): any other key raises ``PermissionError``. Each call
is the manager's, under its name, for one of the key's tenant's users:

========================================== ===========================================
``mem.backup()``                           ``POST /v1/admin/backup``
``mem.maintenance.verify()``               ``POST /v1/admin/verify``
``mem.maintenance.failed(user_id=None)``   ``GET /v1/admin[/users/{user_id}]/failed``
``mem.maintenance.retry_failed(user_id)``  ``POST /v1/admin/users/{user_id}/retry``
``mem.maintenance.forget(user_id=...)``    ``POST /v1/admin/users/{user_id}/forget``
``mem.maintenance.consolidate(user_id)``   ``POST /v1/admin/users/{user_id}/consolidate``
``mem.maintenance.reflect(user_id)``       ``POST /v1/admin/users/{user_id}/reflect``
``mem.maintenance.users()``                ``GET /v1/users``
========================================== ===========================================

What differs from the manager, because the store is the service's: ``backup()`` takes no
destination (the service writes into its backups directory, under a name it picks, and
answers with a :class:`ServiceBackup` naming the file; on PostgreSQL it raises
``NotImplementedError`` as the manager does), and ``forget``/``consolidate`` need a user
(the service runs them for one of the key's users, never for every tenant's). A user the
tenant has no memory of gets what the manager gives one: nothing (an empty report, no
knowledge, no failed messages, 0 retried).

Example:
    >>> with RemoteMemory(url, api_key=admin_key) as mem:  # doctest: +SKIP
    ...     mem.maintenance.verify()
    ...     print(mem.backup().file)
    ...     for f in mem.maintenance.failed():
    ...         print(f.user_id, f.message_id, f.error)
"""

from __future__ import annotations

import builtins
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langgraph_memory.parts.maintenance import (
        FailedMessage,
        ForgetReport,
        Insight,
        Knowledge,
        Lesson,
    )

__all__ = [
    "RemoteAdmin",
    "AsyncRemoteAdmin",
    "RemoteMaintenance",
    "AsyncRemoteMaintenance",
    "ServiceBackup",
]


@dataclass(frozen=True)
class ServiceBackup:
    """A backup the service made of its store.

    Attributes:
        file: The backup, relative to the service's backups directory
            (``<tenant>/memory-<UTC time>-<random>.sqlite3``).
        bytes: Its size.
        created_at: When it was made (ISO 8601, UTC).
    """

    file: str
    bytes: int
    created_at: str


def _user(user_id: str) -> str:
    from urllib.parse import quote

    if not isinstance(user_id, str) or not user_id:
        raise ValueError("user_id must be a non-empty str")
    return f"/v1/admin/users/{quote(user_id, safe='')}"


def _no_user(exc: Exception) -> bool:
    """Whether ``exc`` is the service's 404 for a user its tenant has no memory of (the
    client's problem error says so in its ``no_user``)."""
    return getattr(exc, "no_user", False) is True


def _read(tp: Any, value: Any) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(tp).validate_python(value)


def _retry_body(message_ids: Sequence[str] | None) -> dict[str, Any]:
    if message_ids is None:
        return {}
    if isinstance(message_ids, str) or not isinstance(message_ids, Sequence):
        raise TypeError("message_ids must be a list of message ids")
    return {"message_ids": list(message_ids)}


def _verified(out: Any) -> None:
    if not out.get("ok"):
        from langgraph_memory.parts.maintenance import StoreDamagedError

        raise StoreDamagedError(out.get("detail") or "the service's store is damaged")


def _backup(out: Any) -> ServiceBackup:
    return ServiceBackup(file=out["file"], bytes=int(out["bytes"]), created_at=out["created_at"])


def _reflected(out: Any) -> tuple[builtins.list[Lesson], builtins.list[Insight]]:
    from langgraph_memory.parts.maintenance import Insight, Lesson

    return _read(list[Lesson], out["lessons"]), _read(list[Insight], out["insights"])


class RemoteMaintenance:
    """``mm.maintenance`` over HTTP (an admin key): verify, quarantined messages, the
    forget gate, consolidation and reflection of the key's tenant's users.

    Args:
        request: The client's ``request(method, path, body)``.
    """

    def __init__(self, request: Callable[..., Any]) -> None:
        self._request = request

    def _or_empty(self, empty: Any, method: str, path: str, body: Any = None) -> Any:
        try:
            return self._request(method, path, body)
        except Exception as exc:
            if _no_user(exc):
                return empty
            raise

    def verify(self) -> None:
        """Check every page of the service's store now.

        Raises:
            StoreDamagedError: Naming what is damaged.
            PermissionError: For a key that is not an admin key.
        """
        _verified(self._request("POST", "/v1/admin/verify"))

    def failed(self, user_id: str | None = None) -> builtins.list[FailedMessage]:
        """The messages the service's embedder failed on: of one user, or of every user
        of the key's tenant; oldest first."""
        from langgraph_memory.parts.maintenance import FailedMessage

        path = "/v1/admin/failed" if user_id is None else f"{_user(user_id)}/failed"
        out: list[FailedMessage] = _read(list[FailedMessage], self._or_empty([], "GET", path))
        return out

    def retry_failed(self, user_id: str, message_ids: Sequence[str] | None = None) -> int:
        """Put a user's quarantined messages (all, or ``message_ids``) back in the
        embedding queue; returns how many."""
        body = _retry_body(message_ids)
        out = self._or_empty(None, "POST", f"{_user(user_id)}/retry", body)
        return 0 if out is None else int(out["requeued"])

    def forget(self, dry_run: bool = False, *, user_id: str) -> ForgetReport:
        """Run the forget gate over one user's episodes (``dry_run``: only report)."""
        from langgraph_memory.parts.maintenance import ForgetReport

        path = f"{_user(user_id)}/forget"
        out = self._or_empty(None, "POST", path, {"dry_run": bool(dry_run)})
        report: ForgetReport = (
            ForgetReport(dry_run=bool(dry_run)) if out is None else _read(ForgetReport, out)
        )
        return report

    def consolidate(self, user_id: str) -> builtins.list[Knowledge]:
        """Consolidate one user's episodes into knowledge; returns what was made."""
        from langgraph_memory.parts.maintenance import Knowledge

        out = self._or_empty([], "POST", f"{_user(user_id)}/consolidate")
        made: list[Knowledge] = _read(list[Knowledge], out)
        return made

    def reflect(self, user_id: str) -> tuple[builtins.list[Lesson], builtins.list[Insight]]:
        """Reflect now on what changed for a user; returns the lessons and insights."""
        out = self._or_empty(None, "POST", f"{_user(user_id)}/reflect")
        return ([], []) if out is None else _reflected(out)

    def users(self) -> builtins.list[str]:
        """The key's tenant's users with memory, sorted."""
        return list(self._request("GET", "/v1/users")["users"])


class AsyncRemoteMaintenance:
    """:class:`RemoteMaintenance`, awaitable.

    Args:
        request: The async client's ``request(method, path, body)``.
    """

    def __init__(self, request: Callable[..., Awaitable[Any]]) -> None:
        self._request = request

    async def _or_empty(self, empty: Any, method: str, path: str, body: Any = None) -> Any:
        try:
            return await self._request(method, path, body)
        except Exception as exc:
            if _no_user(exc):
                return empty
            raise

    async def verify(self) -> None:
        """:meth:`RemoteMaintenance.verify`, awaited."""
        _verified(await self._request("POST", "/v1/admin/verify"))

    async def failed(self, user_id: str | None = None) -> builtins.list[FailedMessage]:
        """:meth:`RemoteMaintenance.failed`, awaited."""
        from langgraph_memory.parts.maintenance import FailedMessage

        path = "/v1/admin/failed" if user_id is None else f"{_user(user_id)}/failed"
        out = await self._or_empty([], "GET", path)
        failed: list[FailedMessage] = _read(list[FailedMessage], out)
        return failed

    async def retry_failed(self, user_id: str, message_ids: Sequence[str] | None = None) -> int:
        """:meth:`RemoteMaintenance.retry_failed`, awaited."""
        body = _retry_body(message_ids)
        out = await self._or_empty(None, "POST", f"{_user(user_id)}/retry", body)
        return 0 if out is None else int(out["requeued"])

    async def forget(self, dry_run: bool = False, *, user_id: str) -> ForgetReport:
        """:meth:`RemoteMaintenance.forget`, awaited."""
        from langgraph_memory.parts.maintenance import ForgetReport

        path = f"{_user(user_id)}/forget"
        out = await self._or_empty(None, "POST", path, {"dry_run": bool(dry_run)})
        report: ForgetReport = (
            ForgetReport(dry_run=bool(dry_run)) if out is None else _read(ForgetReport, out)
        )
        return report

    async def consolidate(self, user_id: str) -> builtins.list[Knowledge]:
        """:meth:`RemoteMaintenance.consolidate`, awaited."""
        from langgraph_memory.parts.maintenance import Knowledge

        out = await self._or_empty([], "POST", f"{_user(user_id)}/consolidate")
        made: list[Knowledge] = _read(list[Knowledge], out)
        return made

    async def reflect(self, user_id: str) -> tuple[builtins.list[Lesson], builtins.list[Insight]]:
        """:meth:`RemoteMaintenance.reflect`, awaited."""
        out = await self._or_empty(None, "POST", f"{_user(user_id)}/reflect")
        return ([], []) if out is None else _reflected(out)

    async def users(self) -> builtins.list[str]:
        """:meth:`RemoteMaintenance.users`, awaited."""
        return list((await self._request("GET", "/v1/users"))["users"])


class RemoteAdmin:
    """What :class:`~langgraph_memory.RemoteMemory` takes from here: ``backup()`` and
    ``maintenance`` (an admin key's calls)."""

    _maintenance: RemoteMaintenance | None = None

    @property
    def maintenance(self) -> RemoteMaintenance:
        """:class:`RemoteMaintenance` (made on first access)."""
        if self._maintenance is None:
            self._maintenance = RemoteMaintenance(self.request)  # type: ignore[attr-defined]
        return self._maintenance

    def backup(self) -> ServiceBackup:
        """Have the service back its store up into its backups directory.

        Returns:
            The backup the service made (its file, relative to that directory).

        Raises:
            NotImplementedError: When the store has no backup of its own (PostgreSQL:
                the message says what to run).
            PermissionError: For a key that is not an admin key.
            RuntimeError: When the tenant keeps as many backups as the service allows.
        """
        out = self.request("POST", "/v1/admin/backup")  # type: ignore[attr-defined]
        return _backup(out)


class AsyncRemoteAdmin:
    """:class:`RemoteAdmin`, awaitable (for :class:`~langgraph_memory.AsyncRemoteMemory`)."""

    _maintenance: AsyncRemoteMaintenance | None = None

    @property
    def maintenance(self) -> AsyncRemoteMaintenance:
        """:class:`AsyncRemoteMaintenance` (made on first access)."""
        if self._maintenance is None:
            self._maintenance = AsyncRemoteMaintenance(self.request)  # type: ignore[attr-defined]
        return self._maintenance

    async def backup(self) -> ServiceBackup:
        """:meth:`RemoteAdmin.backup`, awaited."""
        out = await self.request("POST", "/v1/admin/backup")  # type: ignore[attr-defined]
        return _backup(out)
