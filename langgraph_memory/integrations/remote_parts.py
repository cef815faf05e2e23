"""The parts of :class:`~langgraph_memory.RemoteMemory` that mirror the manager's
``anchors``, ``tasks``, ``profile`` and ``items`` over HTTP (and their awaitable twins).

A user the service has no memory of reads as the manager reads one: nothing.

Example:
    >>> with RemoteMemory(url, api_key=key) as mem:  # doctest: +SKIP
    ...     mem.anchors.add("alice", "Answer in French.")
    ...     mem.profile.preferences("alice")
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from langgraph_memory.core.records import Record
from langgraph_memory.integrations.remote_asks import Asks, asend_ask, send_ask
from langgraph_memory.integrations.remote_calls import (
    AsyncSender,
    Calls,
    Labels,
    Problem,
    Sender,
    drop_none,
    quote_part,
    type_adapter,
)
from langgraph_memory.parts.items import (
    namespace_owner,
)
from langgraph_memory.parts.profile import Entity, Fact, Insight, ProfileEntry, Rollup
from langgraph_memory.parts.tasks import Episode, TaskState, TaskStep


class RemoteAnchors:
    """``mm.anchors`` over HTTP: ``add``, ``list``, ``remove``."""

    def __init__(self, memory: Sender) -> None:
        self._m = memory

    def add(
        self,
        user_id: str,
        text: str,
        *,
        session_id: str | None = None,
        anchor_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Pin an instruction (``mm.anchors.add``); returns its id."""
        body = drop_none(
            {"text": text, "session_id": session_id, "anchor_id": anchor_id, "metadata": metadata}
        )
        out = self._m.request("POST", f"{Calls.user(user_id)}/anchors", body)
        return str(out["id"])

    def list(self, user_id: str, session_id: str | None = None) -> list[dict[str, Any]]:
        """The anchors of a session and the user-wide ones, as JSON objects."""
        params = {"session_id": session_id} if session_id is not None else None
        try:
            out = self._m.request("GET", f"{Calls.user(user_id)}/anchors", params=params)
        except Problem as exc:
            if exc.no_user:
                return []
            raise
        return list(out)

    def remove(self, user_id: str, anchor_id: str) -> bool:
        """Remove an anchor; ``False`` when the user has none with that id."""
        try:
            self._m.request("DELETE", f"{Calls.user(user_id)}/anchors/{quote_part(anchor_id)}")
        except Problem:
            return False
        return True


class RemoteTasks:
    """``mm.tasks`` over HTTP: ``start``, ``step``, ``update_step``, ``get``, ``complete``
    (what ``MemoryMiddleware`` records tool runs with) and ``episodes``, returning the
    manager's types."""

    def __init__(self, memory: Sender) -> None:
        self._m = memory

    def _path(self, user_id: str, task_id: str) -> str:
        return f"{Calls.user(user_id)}/tasks/{quote_part(task_id)}"

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        try:
            return self._m.request(method, path, body)
        except Problem as exc:  # no such user, or no such task of this user
            raise KeyError(f"no task of this user: {exc}") from None

    def start(
        self,
        user_id: str,
        session_id: str,
        request: str,
        *,
        context: dict[str, Any] | None = None,
        agent_id: str | None = None,
    ) -> str:
        """Start a task (``mm.tasks.start``); returns its id."""
        body = drop_none(
            {"session_id": session_id, "request": request, "context": context,
             "agent_id": agent_id}
        )  # fmt: skip
        return str(self._m.request("POST", f"{Calls.user(user_id)}/tasks", body)["id"])

    def step(
        self,
        user_id: str,
        task_id: str,
        description: str,
        tool_name: str | None = None,
        args: dict[str, Any] | None = None,
    ) -> int:
        """Add a step (``mm.tasks.step``); returns its index."""
        body = drop_none({"description": description, "tool_name": tool_name, "args": args})
        return int(self._call("POST", f"{self._path(user_id, task_id)}/steps", body)["index"])

    def update_step(
        self,
        user_id: str,
        task_id: str,
        index: int,
        *,
        status: str | None = None,
        result: str | None = None,
    ) -> TaskStep:
        """Set a step's status and/or result (``mm.tasks.update_step``)."""
        body = drop_none({"status": status, "result": result})
        out = self._call("PATCH", f"{self._path(user_id, task_id)}/steps/{int(index)}", body)
        step: TaskStep = type_adapter(TaskStep).validate_python(out)
        return step

    def get(self, user_id: str, task_id: str) -> TaskState:
        """A task by id (``mm.tasks.get``).

        Raises:
            KeyError: When the user has no task with that id.
        """
        task: TaskState = type_adapter(TaskState).validate_python(
            self._call("GET", self._path(user_id, task_id))
        )
        return task

    def complete(
        self,
        user_id: str,
        task_id: str,
        *,
        outcome: str = "success",
        summary: str = "",
        trigger_type: str = "user_request",
        target: str = "",
        tags: list[str] | None = None,
        pinned: bool = False,
    ) -> Episode:
        """Close a task into an episode (``mm.tasks.complete``)."""
        body = drop_none(
            {"outcome": outcome, "summary": summary, "trigger_type": trigger_type,
             "target": target, "tags": tags, "pinned": pinned}
        )  # fmt: skip
        out = self._call("POST", f"{self._path(user_id, task_id)}/complete", body)
        episode: Episode = type_adapter(Episode).validate_python(out)
        return episode

    def episodes(self, user_id: str) -> list[Episode]:
        """A user's episodes, oldest first (``mm.tasks.episodes``)."""
        try:
            out = self._m.request("GET", f"{Calls.user(user_id)}/episodes")
        except Problem as exc:
            if exc.no_user:
                return []
            raise
        episodes: list[Episode] = type_adapter(list[Episode]).validate_python(out)
        return episodes


# -- the profile, MemoryStore items, the embedder, core blocks, documents ------------------
class RemoteProfile:
    """``mm.profile`` over HTTP: ``feedback`` and the reads (``preferences``, ``facts``,
    ``entities``, ``relations``, ``insights``, ``rollups``), returning the manager's
    records. A user the service has no memory of reads as empty, as in process."""

    def __init__(self, memory: Sender) -> None:
        self._m = memory

    def feedback(
        self,
        user_id: str,
        target: str,
        signal: str,
        *,
        value: Any = None,
        source_ids: Sequence[str] | None = None,
    ) -> list[ProfileEntry]:
        """A preference followed or corrected (``mm.profile.feedback``); the entries changed.

        Raises:
            KeyError: When the user has no entry with that id or key.
        """
        out: list[ProfileEntry] = send_ask(
            self._m, Asks.feedback(user_id, target, signal, value, source_ids)
        )
        return out

    def preferences(
        self, user_id: str, *, key: str | None = None, scope: str | None = None
    ) -> list[ProfileEntry]:
        """The user's preferences, oldest first (``mm.profile.preferences``)."""
        out: list[ProfileEntry] = send_ask(self._m, Asks.preferences(user_id, key, scope))
        return out

    def facts(
        self, user_id: str, *, subject: str | None = None, current: bool = False
    ) -> list[Fact]:
        """The user's facts, superseded ones too unless ``current`` (``mm.profile.facts``)."""
        out: list[Fact] = send_ask(self._m, Asks.facts(user_id, subject, current))
        return out

    def entities(self, user_id: str) -> list[Entity]:
        """Who and what the user talks about, most mentioned first (``mm.profile.entities``)."""
        out: list[Entity] = send_ask(self._m, Asks.profile(user_id, "/entities", list[Entity]))
        return out

    def relations(self, user_id: str, name: str) -> list[Fact]:
        """The facts naming ``name``: an entity's edges (``mm.profile.relations``)."""
        out: list[Fact] = send_ask(self._m, Asks.relations(user_id, name))
        return out

    def insights(self, user_id: str) -> list[Insight]:
        """Insights reflected from the user's facts (``mm.profile.insights``)."""
        out: list[Insight] = send_ask(self._m, Asks.profile(user_id, "/insights", list[Insight]))
        return out

    def rollups(self, user_id: str, level: Literal["day", "week"] | None = None) -> list[Rollup]:
        """The user's day and week summaries (``mm.profile.rollups``)."""
        out: list[Rollup] = send_ask(self._m, Asks.rollups(user_id, level))
        return out


class AsyncRemoteProfile:
    """:class:`RemoteProfile`, awaited (the same parameters)."""

    def __init__(self, memory: AsyncSender) -> None:
        self._m = memory

    async def feedback(
        self,
        user_id: str,
        target: str,
        signal: str,
        *,
        value: Any = None,
        source_ids: Sequence[str] | None = None,
    ) -> list[ProfileEntry]:
        """:meth:`RemoteProfile.feedback`, awaited."""
        out: list[ProfileEntry] = await asend_ask(
            self._m, Asks.feedback(user_id, target, signal, value, source_ids)
        )
        return out

    async def preferences(
        self, user_id: str, *, key: str | None = None, scope: str | None = None
    ) -> list[ProfileEntry]:
        """:meth:`RemoteProfile.preferences`, awaited."""
        out: list[ProfileEntry] = await asend_ask(self._m, Asks.preferences(user_id, key, scope))
        return out

    async def facts(
        self, user_id: str, *, subject: str | None = None, current: bool = False
    ) -> list[Fact]:
        """:meth:`RemoteProfile.facts`, awaited."""
        out: list[Fact] = await asend_ask(self._m, Asks.facts(user_id, subject, current))
        return out

    async def entities(self, user_id: str) -> list[Entity]:
        """:meth:`RemoteProfile.entities`, awaited."""
        out: list[Entity] = await asend_ask(
            self._m, Asks.profile(user_id, "/entities", list[Entity])
        )
        return out

    async def relations(self, user_id: str, name: str) -> list[Fact]:
        """:meth:`RemoteProfile.relations`, awaited."""
        out: list[Fact] = await asend_ask(self._m, Asks.relations(user_id, name))
        return out

    async def insights(self, user_id: str) -> list[Insight]:
        """:meth:`RemoteProfile.insights`, awaited."""
        out: list[Insight] = await asend_ask(
            self._m, Asks.profile(user_id, "/insights", list[Insight])
        )
        return out

    async def rollups(
        self, user_id: str, level: Literal["day", "week"] | None = None
    ) -> list[Rollup]:
        """:meth:`RemoteProfile.rollups`, awaited."""
        out: list[Rollup] = await asend_ask(self._m, Asks.rollups(user_id, level))
        return out


class RemoteItems(Labels):
    """``mm.items`` over HTTP: the store items :class:`~langgraph_memory.MemoryStore`
    keeps (``get``, ``list``, ``put``, ``refresh``, ``delete``, ``delete_many``,
    ``owner``, ``label``) and core blocks (``core_block``, ``set_core_block``), as the
    manager's :class:`~langgraph_memory.core.records.Record` s.

    Namespaces are the tenant's own (the service keeps them apart from every other
    tenant's). Labels and keys go through the client's sensitivity gate before they are
    sent, and through the service's again; the owner label's position and the size
    limits are the service's (asked once).
    """

    def __init__(self, memory: Sender) -> None:
        super().__init__(memory.config)
        self._m = memory
        self._settings: dict[str, Any] | None = None

    def settings(self) -> dict[str, Any]:
        """The service's ``store_owner_label``, ``max_item_bytes`` and ``max_block_chars``."""
        if self._settings is None:
            self._settings = dict(send_ask(self._m, Asks.SETTINGS))
        return self._settings

    @property
    def max_item_bytes(self) -> int:
        """The service's largest item value, JSON-encoded, in bytes."""
        return int(self.settings()["max_item_bytes"])

    def owner(self, namespace: Sequence[str]) -> str | None:
        """The user owning the items of ``namespace`` (``mm.items.owner``)."""
        return namespace_owner(namespace, self.settings()["store_owner_label"])

    def get(self, namespace: Sequence[str], key: str) -> Record | None:
        """The record of a store item, or ``None`` (``mm.items.get``)."""
        out: Record | None = send_ask(self._m, Asks.get(namespace, key)) if namespace else None
        return out

    def list(self, prefix: Sequence[str] = ()) -> builtins.list[Record]:
        """The tenant's items whose namespace starts with ``prefix``, oldest first."""
        out: builtins.list[Record] = send_ask(self._m, Asks.list(prefix))
        return out

    def put(
        self,
        namespace: Sequence[str],
        key: str,
        data: Mapping[str, Any],
        *,
        created_at: datetime | None = None,
        updated_at: datetime | None = None,
    ) -> Record:
        """Write a store item's record (``mm.items.put``); the record written.

        Raises:
            ValueError: When the service refuses the value (naming the field).
        """
        out: Record = send_ask(self._m, Asks.put(namespace, key, data, created_at, updated_at))
        return out

    def refresh(self, record: Record, expires_at: str) -> None:
        """Give a store item a new expiry (``mm.items.refresh``); gone meanwhile: nothing."""
        if send_ask(self._m, Asks.refresh(record, expires_at)):
            record.data["expires_at"] = expires_at

    def delete_many(self, records: Sequence[Record]) -> int:
        """Delete the items of these records; how many went (``mm.items.delete_many``)."""
        return sum(int(send_ask(self._m, ask)) for ask in Asks.delete_many(records))

    def delete(self, namespace: Sequence[str], key: str) -> int:
        """Delete one store item; 1 when it existed, else 0 (``mm.items.delete``)."""
        return int(send_ask(self._m, Asks.delete(namespace, key)))

    def core_block(self, user_id: str, label: str) -> str:
        """The text of one of a user's core blocks (``""`` when never written)."""
        return str(send_ask(self._m, Asks.block(user_id, label)))

    def set_core_block(self, user_id: str, label: str, value: str) -> str:
        """Overwrite a user's core block through the service's gate; the text stored."""
        if not isinstance(value, str):
            raise TypeError(f"value must be a str, got {type(value).__name__}")
        return str(send_ask(self._m, Asks.block(user_id, label, value)))


class AsyncRemoteItems(Labels):
    """:class:`RemoteItems`, awaited (``label`` runs here, as it asks nothing)."""

    def __init__(self, memory: AsyncSender) -> None:
        super().__init__(memory.config)
        self._m = memory
        self._settings: dict[str, Any] | None = None

    async def settings(self) -> dict[str, Any]:
        """:meth:`RemoteItems.settings`, awaited."""
        if self._settings is None:
            self._settings = dict(await asend_ask(self._m, Asks.SETTINGS))
        return self._settings

    async def owner(self, namespace: Sequence[str]) -> str | None:
        """:meth:`RemoteItems.owner`, awaited."""
        return namespace_owner(namespace, (await self.settings())["store_owner_label"])

    async def get(self, namespace: Sequence[str], key: str) -> Record | None:
        """:meth:`RemoteItems.get`, awaited."""
        out: Record | None = (
            await asend_ask(self._m, Asks.get(namespace, key)) if namespace else None
        )
        return out

    async def list(self, prefix: Sequence[str] = ()) -> builtins.list[Record]:
        """:meth:`RemoteItems.list`, awaited."""
        out: builtins.list[Record] = await asend_ask(self._m, Asks.list(prefix))
        return out

    async def put(
        self,
        namespace: Sequence[str],
        key: str,
        data: Mapping[str, Any],
        *,
        created_at: datetime | None = None,
        updated_at: datetime | None = None,
    ) -> Record:
        """:meth:`RemoteItems.put`, awaited."""
        ask = Asks.put(namespace, key, data, created_at, updated_at)
        out: Record = await asend_ask(self._m, ask)
        return out

    async def refresh(self, record: Record, expires_at: str) -> None:
        """:meth:`RemoteItems.refresh`, awaited."""
        if await asend_ask(self._m, Asks.refresh(record, expires_at)):
            record.data["expires_at"] = expires_at

    async def delete_many(self, records: Sequence[Record]) -> int:
        """:meth:`RemoteItems.delete_many`, awaited."""
        return sum([int(await asend_ask(self._m, ask)) for ask in Asks.delete_many(records)])

    async def delete(self, namespace: Sequence[str], key: str) -> int:
        """:meth:`RemoteItems.delete`, awaited."""
        return int(await asend_ask(self._m, Asks.delete(namespace, key)))

    async def core_block(self, user_id: str, label: str) -> str:
        """:meth:`RemoteItems.core_block`, awaited."""
        return str(await asend_ask(self._m, Asks.block(user_id, label)))

    async def set_core_block(self, user_id: str, label: str, value: str) -> str:
        """:meth:`RemoteItems.set_core_block`, awaited."""
        if not isinstance(value, str):
            raise TypeError(f"value must be a str, got {type(value).__name__}")
        return str(await asend_ask(self._m, Asks.block(user_id, label, value)))
