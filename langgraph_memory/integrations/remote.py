"""The manager's surface over HTTP: :class:`RemoteMemory` and :class:`AsyncRemoteMemory`.

A client of ``langgraph-memory serve`` (on httpx, ``pip install
"langgraph-memory[server]"``) with the verbs an agent calls every turn, under the
manager's names and parameters, returning the manager's types: ``build_context`` a
:class:`~langgraph_memory.MemoryContext` of :class:`~langgraph_memory.ContextItem`,
``search`` :class:`~langgraph_memory.MemoryHit` s. So ``recall_node``,
``remember_node``, ``MemoryMiddleware`` and ``MemoryRetriever`` take one where they take a
manager.

The service answers 404 for a user its tenant has no memory of; where the manager
answers such a read with nothing (an empty context, no hits, 0 deleted), so does the
client. Other errors are raised as the manager raises them: a refused value as
``ValueError`` (its message naming the field), a timeout as ``TimeoutError``; a key the
service refuses (401), or one that may not do what it asks (403: a key bound to other
agents, a non-admin key on the admin calls), as ``PermissionError``, a service that
cannot be reached as ``ConnectionError``. An admin key also has ``backup()`` and
``maintenance`` (:mod:`~langgraph_memory.integrations.remote_admin`).

Example:
    >>> with RemoteMemory("http://127.0.0.1:8420", api_key="lgm_...") as mem:  # doctest: +SKIP
    ...     mem.add_message("alice", "s1", "user", "I moved to Lyon")
    ...     mem.flush()
    ...     print(mem.build_context("alice", "s2", "Where do I live?").to_prompt())
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from langgraph_memory.config import MemoryConfig
from langgraph_memory.core.context import MemoryContext
from langgraph_memory.core.records import MemoryHit
from langgraph_memory.integrations.remote_admin import AsyncRemoteAdmin, RemoteAdmin
from langgraph_memory.integrations.remote_calls import API_KEY_ENV, Calls, Problem, quote_part
from langgraph_memory.integrations.remote_documents import (
    AsyncRemoteDocuments,
    RemoteDocuments,
    RemoteEmbeddings,
    RemoteMaintenance,
)
from langgraph_memory.integrations.remote_parts import (
    AsyncRemoteItems,
    AsyncRemoteProfile,
    RemoteAnchors,
    RemoteItems,
    RemoteProfile,
    RemoteTasks,
)

if TYPE_CHECKING:
    import httpx

__all__ = [
    "RemoteMemory",
    "AsyncRemoteMemory",
    "API_KEY_ENV",
    "RemoteAnchors",
    "RemoteTasks",
    "RemoteProfile",
    "RemoteItems",
    "RemoteEmbeddings",
    "RemoteMaintenance",
    "RemoteDocuments",
    "AsyncRemoteProfile",
    "AsyncRemoteItems",
    "AsyncRemoteDocuments",
]


class RemoteMemory(RemoteAdmin):
    """A :class:`~langgraph_memory.MemoryManager`'s every-turn surface, served by
    ``langgraph-memory serve``.

    Args:
        url: The service's base URL, e.g. ``http://127.0.0.1:8420``.
        api_key: A key from ``langgraph-memory keys create`` (default
            ``$LANGGRAPH_MEMORY_API_KEY``). Its tenant's users are the ones reached.
        timeout: Seconds per request (``flush`` waits longer: its own timeout plus this).
        config: The limits the graph pieces read (``config.write.max_content_chars``);
            default :class:`~langgraph_memory.MemoryConfig` 's.
        transport: An httpx transport (e.g. ``httpx.ASGITransport(app)`` in tests).

    Attributes:
        anchors: :class:`RemoteAnchors`.
        tasks: :class:`RemoteTasks`.
        profile: :class:`RemoteProfile` (``feedback`` and the reads).
        items: :class:`RemoteItems` (``MemoryStore`` items, core blocks).
        embeddings: :class:`RemoteEmbeddings` (the service's model embeds).
        maintenance: :class:`RemoteMaintenance` (``redact``, ``users``; with an admin key
            ``verify``, ``failed``, ``retry_failed``, ``forget``, ``consolidate``,
            ``reflect``).
        documents: :class:`RemoteDocuments` (the user's own documents).

    Raises:
        ValueError: Without a key, or when ``url`` is not an http(s) URL.

    Example:
        >>> mem = RemoteMemory("http://127.0.0.1:8420", api_key="lgm_...")  # doctest: +SKIP
        >>> mem.search("alice", "Lyon", k=3)  # doctest: +SKIP
    """

    def __init__(
        self,
        url: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        config: MemoryConfig | None = None,
        transport: Any = None,
    ) -> None:
        import httpx

        self._calls = Calls(url, api_key, config)
        self._timeout = timeout
        self._client = httpx.Client(
            base_url=self._calls.url,
            headers=self._calls.headers,
            timeout=timeout,
            transport=transport,
        )
        self._transport = transport
        self._aio: AsyncRemoteMemory | None = None
        self._api_key = api_key
        self.anchors = RemoteAnchors(self)
        self.tasks = RemoteTasks(self)
        self.profile = RemoteProfile(self)
        self.items = RemoteItems(self)
        self.embeddings = RemoteEmbeddings(self)
        self._maintenance = RemoteMaintenance(self)
        self.documents = RemoteDocuments(self)

    @property
    def maintenance(self) -> RemoteMaintenance:  # type: ignore[override]
        """:class:`RemoteMaintenance`: ``redact`` and ``users``, and an admin key's calls."""
        assert isinstance(self._maintenance, RemoteMaintenance)
        return self._maintenance

    @property
    def url(self) -> str:
        """The service's base URL."""
        return self._calls.url

    @property
    def config(self) -> MemoryConfig:
        """The client's config (limits the graph pieces read)."""
        return self._calls.config

    @property
    def aio(self) -> AsyncRemoteMemory:
        """The awaitable twin on the same service and key (made on first access)."""
        if self._aio is None:
            self._aio = AsyncRemoteMemory(
                self._calls.url,
                self._api_key,
                timeout=self._timeout,
                config=self._calls.config,
            )
        return self._aio

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        params: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> Any:
        """Send one request; the decoded JSON answer (``None`` for 204).

        Raises:
            ConnectionError: When the service cannot be reached.
            PermissionError, ValueError, TimeoutError, RuntimeError: As its answer says.
        """
        import httpx

        try:
            r = self._client.request(
                method, path, json=body, params=params, timeout=timeout or self._timeout
            )
        except httpx.TransportError as exc:  # timeouts included
            raise self._calls.failed(exc) from None
        return Calls.answer(r)

    # -- writing ------------------------------------------------------------------------
    def add_message(
        self,
        user_id: str,
        session_id: str,
        role: str,
        content: str,
        *,
        name: str | None = None,
        timestamp: Any = None,
        message_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Store one message (``MemoryManager.add_message``); returns its id."""
        body = Calls.message(session_id, role, content, name, timestamp, message_id, metadata)
        return str(self.request("POST", f"{Calls.user(user_id)}/messages", body)["message_id"])

    def add_messages(self, user_id: str, messages: Sequence[Mapping[str, Any]]) -> list[str]:
        """Store several messages in one request (each a mapping of ``add_message``'s
        parameters: ``session_id``, ``role``, ``content`` and the optional ones), in
        order; idempotent by ``message_id``, so a failed batch can be sent again."""
        body = Calls.batch(messages)
        out = self.request("POST", f"{Calls.user(user_id)}/messages/batch", body)
        return [str(i) for i in out["message_ids"]]

    def add_turn(
        self,
        user_id: str,
        session_id: str,
        *,
        user: str,
        assistant: str | None = None,
        timestamp: Any = None,
        user_name: str | None = None,
        assistant_name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[str]:
        """Store a user message and the reply (``MemoryManager.add_turn``)."""
        body = Calls.turn(
            session_id, user, assistant, timestamp, user_name, assistant_name, metadata
        )
        out = self.request("POST", f"{Calls.user(user_id)}/turns", body)
        return [str(i) for i in out["message_ids"]]

    def flush(self, timeout: float | None = None) -> None:
        """Wait until every accepted write is searchable (``MemoryManager.flush``).

        Raises:
            TimeoutError: When ``timeout`` seconds (default 60) pass first.
        """
        wait = 60.0 if timeout is None else float(timeout)
        self.request("POST", "/v1/flush", {"timeout": wait}, timeout=wait + self._timeout)

    # -- reading ------------------------------------------------------------------------
    def search(
        self,
        user_id: str,
        query: str,
        k: int = 10,
        layers: Sequence[str] | None = None,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - the manager's name
        agent_id: str | None = None,
    ) -> list[MemoryHit]:
        """Hybrid search over one user's memory (``MemoryManager.search``)."""
        body = Calls.search(query, k, layers, filter, agent_id)
        try:
            return Calls.hits(self.request("POST", f"{Calls.user(user_id)}/search", body))
        except Problem as exc:
            if exc.no_user:
                return []
            raise

    def build_context(
        self,
        user_id: str,
        session_id: str,
        query: str,
        token_budget: int | None = None,
        *,
        explain: bool = False,
        filter: Mapping[str, Any] | None = None,  # noqa: A002
        scope: str | None = None,
        agent_id: str | None = None,
        shown_ids: Collection[str] | None = None,
    ) -> MemoryContext:
        """The budgeted, cited context for a query (``MemoryManager.build_context``)."""
        body = Calls.context_request(
            session_id, query, token_budget, explain, filter, scope, agent_id, shown_ids
        )
        try:
            out = self.request("POST", f"{Calls.user(user_id)}/context", body)
        except Problem as exc:
            if exc.no_user:
                return self._calls.empty_context(user_id, session_id, query, token_budget, explain)
            raise
        return Calls.context(out)

    # -- housekeeping -----------------------------------------------------------------------
    def delete(self, user_id: str, message_id: str | Sequence[str]) -> int:
        """Delete messages and what was made of them (``MemoryManager.delete``)."""
        n = 0
        for mid in Calls.delete_ids(message_id):
            try:
                out = self.request("DELETE", f"{Calls.user(user_id)}/messages/{quote_part(mid)}")
            except Problem:
                continue
            n += int(out["deleted"])
        return n

    def delete_user(self, user_id: str) -> int:
        """Delete every trace of a user (``MemoryManager.delete_user``); messages deleted."""
        try:
            return int(self.request("DELETE", Calls.user(user_id))["deleted"])
        except Problem as exc:
            if exc.no_user:
                return 0
            raise

    def stats(self, user_id: str) -> dict[str, Any]:
        """Counts of one user's memory (``MemoryManager.stats``; ``{"messages": 0}`` for
        a user with none)."""
        try:
            return dict(self.request("GET", f"{Calls.user(user_id)}/stats"))
        except Problem as exc:
            if exc.no_user:
                return dict(Calls.NO_STATS)
            raise

    def users(self) -> list[str]:
        """The tenant's users that have memory."""
        return list(self.request("GET", "/v1/users")["users"])

    def close(self) -> None:
        """Close the connection pool (and the async twin's, if one was made)."""
        self._client.close()
        if self._aio is not None:
            self._aio.close_sync()

    def __enter__(self) -> RemoteMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncRemoteMemory(AsyncRemoteAdmin):
    """:class:`RemoteMemory`, awaitable (on ``httpx.AsyncClient``); the same parameters.

    Example:
        >>> async with AsyncRemoteMemory(url, api_key=key) as mem:  # doctest: +SKIP
        ...     await mem.add_message("alice", "s1", "user", "I moved to Lyon")
        ...     ctx = await mem.build_context("alice", "s2", "Where do I live?")
    """

    def __init__(
        self,
        url: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        config: MemoryConfig | None = None,
        transport: Any = None,
    ) -> None:
        self._calls = Calls(url, api_key, config)
        self._timeout = timeout
        self._transport = transport
        # a connection pool belongs to the event loop that opened its connections: one per
        # loop (a graph run with asyncio.run, then another, each gets its own)
        self._client: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.profile = AsyncRemoteProfile(self)
        self.items = AsyncRemoteItems(self)
        self.documents = AsyncRemoteDocuments(self)

    def _client_here(self) -> httpx.AsyncClient:
        import httpx

        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client = httpx.AsyncClient(
                base_url=self._calls.url,
                headers=self._calls.headers,
                timeout=self._timeout,
                transport=self._transport,
            )
            self._loop = loop
        return self._client

    @property
    def url(self) -> str:
        """The service's base URL."""
        return self._calls.url

    @property
    def config(self) -> MemoryConfig:
        """The client's config."""
        return self._calls.config

    @property
    def aio(self) -> AsyncRemoteMemory:
        """Itself (so code written for ``mm.aio`` takes it)."""
        return self

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        params: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> Any:
        """:meth:`RemoteMemory.request`, awaited."""
        import httpx

        try:
            r = await self._client_here().request(
                method, path, json=body, params=params, timeout=timeout or self._timeout
            )
        except httpx.TransportError as exc:  # timeouts included
            raise self._calls.failed(exc) from None
        return Calls.answer(r)

    async def add_message(
        self,
        user_id: str,
        session_id: str,
        role: str,
        content: str,
        *,
        name: str | None = None,
        timestamp: Any = None,
        message_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """:meth:`RemoteMemory.add_message`, awaited."""
        body = Calls.message(session_id, role, content, name, timestamp, message_id, metadata)
        out = await self.request("POST", f"{Calls.user(user_id)}/messages", body)
        return str(out["message_id"])

    async def add_messages(self, user_id: str, messages: Sequence[Mapping[str, Any]]) -> list[str]:
        """:meth:`RemoteMemory.add_messages`, awaited."""
        body = Calls.batch(messages)
        out = await self.request("POST", f"{Calls.user(user_id)}/messages/batch", body)
        return [str(i) for i in out["message_ids"]]

    async def add_turn(
        self,
        user_id: str,
        session_id: str,
        *,
        user: str,
        assistant: str | None = None,
        timestamp: Any = None,
        user_name: str | None = None,
        assistant_name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[str]:
        """:meth:`RemoteMemory.add_turn`, awaited."""
        body = Calls.turn(
            session_id, user, assistant, timestamp, user_name, assistant_name, metadata
        )
        out = await self.request("POST", f"{Calls.user(user_id)}/turns", body)
        return [str(i) for i in out["message_ids"]]

    async def flush(self, timeout: float | None = None) -> None:
        """:meth:`RemoteMemory.flush`, awaited."""
        wait = 60.0 if timeout is None else float(timeout)
        await self.request("POST", "/v1/flush", {"timeout": wait}, timeout=wait + self._timeout)

    async def search(
        self,
        user_id: str,
        query: str,
        k: int = 10,
        layers: Sequence[str] | None = None,
        filter: Mapping[str, Any] | None = None,  # noqa: A002
        agent_id: str | None = None,
    ) -> list[MemoryHit]:
        """:meth:`RemoteMemory.search`, awaited."""
        body = Calls.search(query, k, layers, filter, agent_id)
        try:
            return Calls.hits(await self.request("POST", f"{Calls.user(user_id)}/search", body))
        except Problem as exc:
            if exc.no_user:
                return []
            raise

    async def build_context(
        self,
        user_id: str,
        session_id: str,
        query: str,
        token_budget: int | None = None,
        *,
        explain: bool = False,
        filter: Mapping[str, Any] | None = None,  # noqa: A002
        scope: str | None = None,
        agent_id: str | None = None,
        shown_ids: Collection[str] | None = None,
    ) -> MemoryContext:
        """:meth:`RemoteMemory.build_context`, awaited."""
        body = Calls.context_request(
            session_id, query, token_budget, explain, filter, scope, agent_id, shown_ids
        )
        try:
            out = await self.request("POST", f"{Calls.user(user_id)}/context", body)
        except Problem as exc:
            if exc.no_user:
                return self._calls.empty_context(user_id, session_id, query, token_budget, explain)
            raise
        return Calls.context(out)

    async def delete(self, user_id: str, message_id: str | Sequence[str]) -> int:
        """:meth:`RemoteMemory.delete`, awaited."""
        n = 0
        for mid in Calls.delete_ids(message_id):
            try:
                out = await self.request(
                    "DELETE", f"{Calls.user(user_id)}/messages/{quote_part(mid)}"
                )
            except Problem:
                continue
            n += int(out["deleted"])
        return n

    async def delete_user(self, user_id: str) -> int:
        """:meth:`RemoteMemory.delete_user`, awaited."""
        try:
            return int((await self.request("DELETE", Calls.user(user_id)))["deleted"])
        except Problem as exc:
            if exc.no_user:
                return 0
            raise

    async def stats(self, user_id: str) -> dict[str, Any]:
        """:meth:`RemoteMemory.stats`, awaited."""
        try:
            return dict(await self.request("GET", f"{Calls.user(user_id)}/stats"))
        except Problem as exc:
            if exc.no_user:
                return dict(Calls.NO_STATS)
            raise

    async def users(self) -> list[str]:
        """:meth:`RemoteMemory.users`, awaited."""
        return list((await self.request("GET", "/v1/users"))["users"])

    async def close(self) -> None:
        """Close the connection pool."""
        client, self._client = self._client, None
        if client is not None and self._loop is asyncio.get_running_loop():
            await client.aclose()

    def close_sync(self) -> None:
        """Forget the pool from sync code (its loop closes its connections with it)."""
        self._client = None

    async def __aenter__(self) -> AsyncRemoteMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
