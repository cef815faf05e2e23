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
import os
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from langgraph_memory.config import MemoryConfig
from langgraph_memory.core.context import ContextItem, MemoryContext
from langgraph_memory.core.records import MemoryHit
from langgraph_memory.integrations.remote_admin import AsyncRemoteAdmin, RemoteAdmin
from langgraph_memory.parts.tasks import Episode, TaskState, TaskStep

if TYPE_CHECKING:
    import httpx

__all__ = [
    "RemoteMemory",
    "AsyncRemoteMemory",
    "API_KEY_ENV",
    "RemoteAnchors",
    "RemoteTasks",
    "RemoteProfile",
]

#: The environment variable an API key is read from when none is passed.
API_KEY_ENV = "LANGGRAPH_MEMORY_API_KEY"
_NO_USER = "/problems/user-not-found"


def _quote(part: str) -> str:
    from urllib.parse import quote

    return quote(part, safe="")


def _when(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _drop_none(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


def _adapter(tp: Any) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(tp)


class _Problem(Exception):
    """A problem document the service answered with."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("detail") or body.get("title") or f"HTTP {status}")
        self.status, self.body = status, body

    @property
    def no_user(self) -> bool:
        return self.status == 404 and self.body.get("type") == _NO_USER


def _raise_for(response: httpx.Response) -> None:
    """Raise what the manager would for a problem response."""
    if response.status_code < 400:
        return
    try:
        body = response.json()
    except ValueError:
        body = {"detail": response.text[:200]}
    if not isinstance(body, dict):
        body = {"detail": str(body)[:200]}
    detail = str(body.get("detail") or body.get("title") or f"HTTP {response.status_code}")
    status = response.status_code
    if status == 401:
        raise PermissionError(f"the memory service refused the API key: {detail}")
    if status == 403:
        raise PermissionError(f"the memory service does not allow this to the API key: {detail}")
    if status == 501:
        raise NotImplementedError(detail)
    if status == 404:
        raise _Problem(status, body)
    if status in (400, 413, 422):
        raise ValueError(detail)
    if status == 504:
        raise TimeoutError(detail)
    raise RuntimeError(f"the memory service answered {status}: {detail}")


class _Calls:
    """What both clients send and how they read the answers (no I/O here)."""

    def __init__(self, url: str, api_key: str | None, config: MemoryConfig | None) -> None:
        key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        if not key:
            raise ValueError(f"api_key is needed (pass api_key= or set ${API_KEY_ENV})")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError("url must be an http:// or https:// URL of a langgraph-memory service")
        self.url = url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {key}"}
        #: The client's view of the limits (the service enforces its own).
        self.config = config or MemoryConfig()

    @staticmethod
    def user(user_id: str) -> str:
        if not isinstance(user_id, str) or not user_id:
            raise ValueError("user_id must be a non-empty str")
        return f"/v1/users/{_quote(user_id)}"

    @staticmethod
    def message(
        session_id: str,
        role: str,
        content: str,
        name: str | None,
        timestamp: Any,
        message_id: str | None,
        metadata: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        return _drop_none(
            {
                "session_id": session_id,
                "role": role,
                "content": content,
                "name": name,
                "timestamp": _when(timestamp),
                "message_id": message_id,
                "metadata": dict(metadata) if metadata is not None else None,
            }
        )

    @staticmethod
    def batch(messages: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return {
            "messages": [
                _Calls.message(
                    m["session_id"],
                    m["role"],
                    m["content"],
                    m.get("name"),
                    m.get("timestamp"),
                    m.get("message_id"),
                    m.get("metadata"),
                )  # fmt: skip
                for m in messages
            ]
        }

    @staticmethod
    def turn(
        session_id: str,
        user: str,
        assistant: str | None,
        timestamp: Any,
        user_name: str | None,
        assistant_name: str | None,
        metadata: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        return _drop_none(
            {
                "session_id": session_id, "user": user, "assistant": assistant,
                "timestamp": _when(timestamp), "user_name": user_name,
                "assistant_name": assistant_name,
                "metadata": dict(metadata) if metadata is not None else None,
            }
        )  # fmt: skip

    @staticmethod
    def search(
        query: str,
        k: int,
        layers: Sequence[str] | None,
        filter: Mapping[str, Any] | None,  # noqa: A002 - the manager's name
        agent_id: str | None,
    ) -> dict[str, Any]:
        return _drop_none(
            {"query": query, "k": k, "layers": list(layers) if layers is not None else None,
             "filter": dict(filter) if filter is not None else None, "agent_id": agent_id}
        )  # fmt: skip

    @staticmethod
    def context_request(
        session_id: str,
        query: str,
        token_budget: int | None,
        explain: bool,
        filter: Mapping[str, Any] | None,  # noqa: A002
        scope: str | None,
        agent_id: str | None,
        shown_ids: Collection[str] | None,
    ) -> dict[str, Any]:
        return _drop_none(
            {"query": query, "session_id": session_id, "token_budget": token_budget,
             "explain": explain, "filter": dict(filter) if filter is not None else None,
             "scope": scope, "agent_id": agent_id,
             "shown_ids": sorted(shown_ids) if shown_ids else None}
        )  # fmt: skip

    #: The stats of a user the service has no memory of.
    NO_STATS: ClassVar[dict[str, int]] = {"messages": 0, "embedded": 0, "pending": 0, "sessions": 0}

    def failed(self, exc: Exception) -> Exception:
        """What a failed request raises (a timeout, or the service out of reach)."""
        import httpx

        if isinstance(exc, httpx.TimeoutException):
            return TimeoutError(f"the memory service did not answer in time ({exc})")
        return ConnectionError(f"cannot reach the memory service at {self.url}: {exc}")

    @staticmethod
    def answer(response: httpx.Response) -> Any:
        """The decoded JSON answer (``None`` for 204), or what a problem raises."""
        _raise_for(response)
        return None if response.status_code == 204 or not response.content else response.json()

    def empty_context(
        self, user_id: str, session_id: str, query: str, token_budget: int | None, explain: bool
    ) -> MemoryContext:
        budget = self.config.packing.default_token_budget if token_budget is None else token_budget
        return MemoryContext(
            items=[], token_budget=budget, query=query, user_id=user_id,
            session_id=session_id, explain=explain,
        )  # fmt: skip

    @staticmethod
    def context(body: dict[str, Any]) -> MemoryContext:
        items = _adapter(list[ContextItem]).validate_python(body["items"])
        return MemoryContext(
            items=items,
            token_budget=body["token_budget"],
            query=body["query"],
            user_id=body["user_id"],
            session_id=body["session_id"],
            explain=body.get("explain", False),
            timings_ms=body.get("timings_ms", {}),
            notes=body.get("notes", []),
        )

    @staticmethod
    def hits(body: dict[str, Any]) -> list[MemoryHit]:
        hits: list[MemoryHit] = _adapter(list[MemoryHit]).validate_python(body["hits"])
        return hits

    @staticmethod
    def delete_ids(message_id: str | Sequence[str]) -> list[str]:
        if isinstance(message_id, str):
            return [message_id]
        if isinstance(message_id, Sequence):
            return list(message_id)
        raise TypeError(
            f"message_id must be a str or a list of str, got {type(message_id).__name__}"
        )


class RemoteAnchors:
    """``mm.anchors`` over HTTP: ``add``, ``list``, ``remove``."""

    def __init__(self, memory: RemoteMemory) -> None:
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
        body = _drop_none(
            {"text": text, "session_id": session_id, "anchor_id": anchor_id, "metadata": metadata}
        )
        out = self._m.request("POST", f"{_Calls.user(user_id)}/anchors", body)
        return str(out["id"])

    def list(self, user_id: str, session_id: str | None = None) -> list[dict[str, Any]]:
        """The anchors of a session and the user-wide ones, as JSON objects."""
        params = {"session_id": session_id} if session_id is not None else None
        try:
            out = self._m.request("GET", f"{_Calls.user(user_id)}/anchors", params=params)
        except _Problem as exc:
            if exc.no_user:
                return []
            raise
        return list(out)

    def remove(self, user_id: str, anchor_id: str) -> bool:
        """Remove an anchor; ``False`` when the user has none with that id."""
        try:
            self._m.request("DELETE", f"{_Calls.user(user_id)}/anchors/{_quote(anchor_id)}")
        except _Problem:
            return False
        return True


class RemoteTasks:
    """``mm.tasks`` over HTTP: ``start``, ``step``, ``update_step``, ``get``, ``complete``
    (what ``MemoryMiddleware`` records tool runs with) and ``episodes``, returning the
    manager's types."""

    def __init__(self, memory: RemoteMemory) -> None:
        self._m = memory

    def _path(self, user_id: str, task_id: str) -> str:
        return f"{_Calls.user(user_id)}/tasks/{_quote(task_id)}"

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        try:
            return self._m.request(method, path, body)
        except _Problem as exc:  # no such user, or no such task of this user
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
        body = _drop_none(
            {"session_id": session_id, "request": request, "context": context,
             "agent_id": agent_id}
        )  # fmt: skip
        return str(self._m.request("POST", f"{_Calls.user(user_id)}/tasks", body)["id"])

    def step(
        self,
        user_id: str,
        task_id: str,
        description: str,
        tool_name: str | None = None,
        args: dict[str, Any] | None = None,
    ) -> int:
        """Add a step (``mm.tasks.step``); returns its index."""
        body = _drop_none({"description": description, "tool_name": tool_name, "args": args})
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
        body = _drop_none({"status": status, "result": result})
        out = self._call("PATCH", f"{self._path(user_id, task_id)}/steps/{int(index)}", body)
        step: TaskStep = _adapter(TaskStep).validate_python(out)
        return step

    def get(self, user_id: str, task_id: str) -> TaskState:
        """A task by id (``mm.tasks.get``).

        Raises:
            KeyError: When the user has no task with that id.
        """
        task: TaskState = _adapter(TaskState).validate_python(
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
        body = _drop_none(
            {"outcome": outcome, "summary": summary, "trigger_type": trigger_type,
             "target": target, "tags": tags, "pinned": pinned}
        )  # fmt: skip
        out = self._call("POST", f"{self._path(user_id, task_id)}/complete", body)
        episode: Episode = _adapter(Episode).validate_python(out)
        return episode

    def episodes(self, user_id: str) -> list[Episode]:
        """A user's episodes, oldest first (``mm.tasks.episodes``)."""
        try:
            out = self._m.request("GET", f"{_Calls.user(user_id)}/episodes")
        except _Problem as exc:
            if exc.no_user:
                return []
            raise
        episodes: list[Episode] = _adapter(list[Episode]).validate_python(out)
        return episodes


class RemoteProfile:
    """``mm.profile.feedback`` over HTTP."""

    def __init__(self, memory: RemoteMemory) -> None:
        self._m = memory

    def feedback(
        self,
        user_id: str,
        target: str,
        signal: str,
        *,
        value: Any = None,
        source_ids: Sequence[str] | None = None,
    ) -> list[dict[str, Any]]:
        """A preference followed or corrected (``mm.profile.feedback``); the entries
        changed, as JSON objects.

        Raises:
            KeyError: When the user has no entry with that id or key.
        """
        body = _drop_none(
            {"target": target, "signal": signal, "value": value,
             "source_ids": list(source_ids) if source_ids is not None else None}
        )  # fmt: skip
        try:
            return list(self._m.request("POST", f"{_Calls.user(user_id)}/feedback", body))
        except _Problem as exc:
            raise KeyError(f"no such profile entry: {exc}") from None


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
        profile: :class:`RemoteProfile` (``feedback``).

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

        self._calls = _Calls(url, api_key, config)
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
        return _Calls.answer(r)

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
        body = _Calls.message(session_id, role, content, name, timestamp, message_id, metadata)
        return str(self.request("POST", f"{_Calls.user(user_id)}/messages", body)["message_id"])

    def add_messages(self, user_id: str, messages: Sequence[Mapping[str, Any]]) -> list[str]:
        """Store several messages in one request (each a mapping of ``add_message``'s
        parameters: ``session_id``, ``role``, ``content`` and the optional ones), in
        order; idempotent by ``message_id``, so a failed batch can be sent again."""
        body = _Calls.batch(messages)
        out = self.request("POST", f"{_Calls.user(user_id)}/messages/batch", body)
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
        body = _Calls.turn(
            session_id, user, assistant, timestamp, user_name, assistant_name, metadata
        )
        out = self.request("POST", f"{_Calls.user(user_id)}/turns", body)
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
        body = _Calls.search(query, k, layers, filter, agent_id)
        try:
            return _Calls.hits(self.request("POST", f"{_Calls.user(user_id)}/search", body))
        except _Problem as exc:
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
        body = _Calls.context_request(
            session_id, query, token_budget, explain, filter, scope, agent_id, shown_ids
        )
        try:
            out = self.request("POST", f"{_Calls.user(user_id)}/context", body)
        except _Problem as exc:
            if exc.no_user:
                return self._calls.empty_context(user_id, session_id, query, token_budget, explain)
            raise
        return _Calls.context(out)

    # -- housekeeping -----------------------------------------------------------------------
    def delete(self, user_id: str, message_id: str | Sequence[str]) -> int:
        """Delete messages and what was made of them (``MemoryManager.delete``)."""
        n = 0
        for mid in _Calls.delete_ids(message_id):
            try:
                out = self.request("DELETE", f"{_Calls.user(user_id)}/messages/{_quote(mid)}")
            except _Problem:
                continue
            n += int(out["deleted"])
        return n

    def delete_user(self, user_id: str) -> int:
        """Delete every trace of a user (``MemoryManager.delete_user``); messages deleted."""
        try:
            return int(self.request("DELETE", _Calls.user(user_id))["deleted"])
        except _Problem as exc:
            if exc.no_user:
                return 0
            raise

    def stats(self, user_id: str) -> dict[str, Any]:
        """Counts of one user's memory (``MemoryManager.stats``; ``{"messages": 0}`` for
        a user with none)."""
        try:
            return dict(self.request("GET", f"{_Calls.user(user_id)}/stats"))
        except _Problem as exc:
            if exc.no_user:
                return dict(_Calls.NO_STATS)
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
        self._calls = _Calls(url, api_key, config)
        self._timeout = timeout
        self._transport = transport
        # a connection pool belongs to the event loop that opened its connections: one per
        # loop (a graph run with asyncio.run, then another, each gets its own)
        self._client: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

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
        return _Calls.answer(r)

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
        body = _Calls.message(session_id, role, content, name, timestamp, message_id, metadata)
        out = await self.request("POST", f"{_Calls.user(user_id)}/messages", body)
        return str(out["message_id"])

    async def add_messages(self, user_id: str, messages: Sequence[Mapping[str, Any]]) -> list[str]:
        """:meth:`RemoteMemory.add_messages`, awaited."""
        body = _Calls.batch(messages)
        out = await self.request("POST", f"{_Calls.user(user_id)}/messages/batch", body)
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
        body = _Calls.turn(
            session_id, user, assistant, timestamp, user_name, assistant_name, metadata
        )
        out = await self.request("POST", f"{_Calls.user(user_id)}/turns", body)
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
        body = _Calls.search(query, k, layers, filter, agent_id)
        try:
            return _Calls.hits(await self.request("POST", f"{_Calls.user(user_id)}/search", body))
        except _Problem as exc:
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
        body = _Calls.context_request(
            session_id, query, token_budget, explain, filter, scope, agent_id, shown_ids
        )
        try:
            out = await self.request("POST", f"{_Calls.user(user_id)}/context", body)
        except _Problem as exc:
            if exc.no_user:
                return self._calls.empty_context(user_id, session_id, query, token_budget, explain)
            raise
        return _Calls.context(out)

    async def delete(self, user_id: str, message_id: str | Sequence[str]) -> int:
        """:meth:`RemoteMemory.delete`, awaited."""
        n = 0
        for mid in _Calls.delete_ids(message_id):
            try:
                out = await self.request("DELETE", f"{_Calls.user(user_id)}/messages/{_quote(mid)}")
            except _Problem:
                continue
            n += int(out["deleted"])
        return n

    async def delete_user(self, user_id: str) -> int:
        """:meth:`RemoteMemory.delete_user`, awaited."""
        try:
            return int((await self.request("DELETE", _Calls.user(user_id)))["deleted"])
        except _Problem as exc:
            if exc.no_user:
                return 0
            raise

    async def stats(self, user_id: str) -> dict[str, Any]:
        """:meth:`RemoteMemory.stats`, awaited."""
        try:
            return dict(await self.request("GET", f"{_Calls.user(user_id)}/stats"))
        except _Problem as exc:
            if exc.no_user:
                return dict(_Calls.NO_STATS)
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
