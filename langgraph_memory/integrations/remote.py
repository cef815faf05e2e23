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
import builtins
import os
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np
from langchain_core.embeddings import Embeddings

from langgraph_memory.config import MemoryConfig
from langgraph_memory.core.context import ContextItem, MemoryContext
from langgraph_memory.core.records import MemoryHit, Record
from langgraph_memory.core.validation import check_text
from langgraph_memory.integrations.remote_admin import AsyncRemoteAdmin, RemoteAdmin
from langgraph_memory.integrations.remote_admin import RemoteMaintenance as AdminMaintenance
from langgraph_memory.parts.documents import DocumentChunk, DocumentInfo
from langgraph_memory.parts.items import (
    MAX_LABEL_CHARS,
    STORE_KIND,
    item_id,
    namespace_owner,
    store_scope,
)
from langgraph_memory.parts.profile import Entity, Fact, Insight, ProfileEntry, Rollup
from langgraph_memory.parts.tasks import Episode, TaskState, TaskStep
from langgraph_memory.sensitivity.policy import SensitivityFilter

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


# -- the profile, MemoryStore items, the embedder, core blocks, documents ------------------
# What the graph pieces (MemoryStore, the memory tools) read. Each call is an _Ask built
# once (its request and how its answer is read, no I/O); the sync parts send it with
# _send, the async ones with _asend.
def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class _Ask:
    """One request and how its answer is read.

    Attributes:
        method, path, body, params: The request.
        decode: The answer's JSON to the manager's type.
        missing: What a 404 stands for (made fresh each time), ``None``: raise it.
        any_404: Whether every 404 is ``missing`` (a record not there), or only the one
            of a user the service has no memory of.
        key_error: Raise ``KeyError`` with this text on a 404 (as the manager does).
    """

    method: str
    path: str
    body: Any = None
    params: Mapping[str, Any] | None = None
    decode: Callable[[Any], Any] = _same
    missing: Callable[[], Any] | None = None
    any_404: bool = False
    key_error: str | None = None

    def on_404(self, exc: _Problem) -> Any:
        if self.key_error is not None:
            raise KeyError(f"{self.key_error}: {exc}") from None
        if self.missing is None or not (self.any_404 or exc.no_user):
            raise exc
        return self.missing()


def _send(memory: RemoteMemory, ask: _Ask) -> Any:
    try:
        out = memory.request(ask.method, ask.path, ask.body, params=ask.params)
    except _Problem as exc:
        return ask.on_404(exc)
    return ask.decode(out)


async def _asend(memory: AsyncRemoteMemory, ask: _Ask) -> Any:
    try:
        out = await memory.request(ask.method, ask.path, ask.body, params=ask.params)
    except _Problem as exc:
        return ask.on_404(exc)
    return ask.decode(out)


def _records(tp: Any) -> Callable[[Any], Any]:
    adapter = _adapter(tp)
    return adapter.validate_python  # type: ignore[no-any-return]


def _name(text: str, field: str) -> str:
    if not isinstance(text, str) or not text:
        raise ValueError(f"{field} must be a non-empty str")
    return _quote(text)


def _item_record(body: Mapping[str, Any]) -> Record:
    """A store item's record as the manager's ``mm.items`` returns it."""
    namespace = [str(x) for x in body["namespace"]]
    owner = body.get("user_id")
    when = _adapter(datetime)
    return Record(
        STORE_KIND,
        item_id(namespace, body["key"]),
        owner if owner is not None else store_scope(namespace[0]),
        dict(body["data"]),
        when.validate_python(body["created_at"]),
        when.validate_python(body["updated_at"]),
    )


def _item_records(body: Any) -> list[Record]:
    return [_item_record(b) for b in body]


def _address(namespace: Sequence[str], key: str) -> dict[str, Any]:
    return {"namespace": list(namespace), "key": str(key)}


def _deleted(body: Any) -> int:
    return int(body["deleted"])


def _vectors(n: int) -> Callable[[Any], np.ndarray]:
    def decode(body: Mapping[str, Any]) -> np.ndarray:
        if not body["vectors"]:
            return np.zeros((n, int(body.get("dims") or 0)), dtype=np.float32)
        return np.asarray(body["vectors"], dtype=np.float32)

    return decode


class _Asks:
    """The requests of the profile, items, embeddings, blocks and documents parts."""

    #: Most items or texts in one request (the service's default batch limit is 1000).
    STEP = 500

    # profile
    @staticmethod
    def feedback(
        user_id: str, target: str, signal: str, value: Any, source_ids: Sequence[str] | None
    ) -> _Ask:
        body = _drop_none(
            {"target": target, "signal": signal, "value": value,
             "source_ids": list(source_ids) if source_ids is not None else None}
        )  # fmt: skip
        return _Ask(
            "POST",
            f"{_Calls.user(user_id)}/feedback",
            body,
            decode=_records(list[ProfileEntry]),
            key_error="no such profile entry",
        )

    @staticmethod
    def profile(user_id: str, path: str, tp: Any, params: Mapping[str, Any] | None = None) -> _Ask:
        return _Ask(
            "GET",
            f"{_Calls.user(user_id)}{path}",
            params=params or None,
            decode=_records(tp),
            missing=list,
        )

    @staticmethod
    def preferences(user_id: str, key: str | None, scope: str | None) -> _Ask:
        params = _drop_none({"key": key, "scope": scope})
        return _Asks.profile(user_id, "/preferences", list[ProfileEntry], params)

    @staticmethod
    def facts(user_id: str, subject: str | None, current: bool) -> _Ask:
        params = _drop_none({"subject": subject, "current": "true" if current else None})
        return _Asks.profile(user_id, "/facts", list[Fact], params)

    @staticmethod
    def relations(user_id: str, name: str) -> _Ask:
        return _Asks.profile(user_id, f"/entities/{_name(name, 'name')}/relations", list[Fact])

    @staticmethod
    def rollups(user_id: str, level: str | None) -> _Ask:
        return _Asks.profile(user_id, "/rollups", list[Rollup], _drop_none({"level": level}))

    # items
    SETTINGS = _Ask("GET", "/v1/items/settings", decode=dict)

    @staticmethod
    def get(namespace: Sequence[str], key: str) -> _Ask:
        return _Ask(
            "GET",
            "/v1/items/item",
            params=_address(namespace, key),
            decode=_item_record,
            missing=lambda: None,
            any_404=True,
        )

    @staticmethod
    def list(prefix: Sequence[str]) -> _Ask:
        params = {"prefix": [*prefix]} if prefix else None
        return _Ask("GET", "/v1/items", params=params, decode=_item_records)

    @staticmethod
    def put(
        namespace: Sequence[str],
        key: str,
        data: Mapping[str, Any],
        created_at: datetime | None,
        updated_at: datetime | None,
    ) -> _Ask:
        body = _drop_none(
            {**_address(namespace, key), "data": dict(data),
             "created_at": _when(created_at), "updated_at": _when(updated_at)}
        )  # fmt: skip
        return _Ask("PUT", "/v1/items", body, decode=_item_record)

    @staticmethod
    def refresh(record: Record, expires_at: str) -> _Ask:
        body = {**_address(record.data["namespace"], record.data["key"]), "expires_at": expires_at}
        return _Ask(
            "PATCH", "/v1/items", body, decode=lambda _: True, missing=lambda: False, any_404=True
        )

    @staticmethod
    def delete_many(records: Sequence[Record]) -> builtins.list[_Ask]:
        refs = [_address(r.data["namespace"], r.data["key"]) for r in records]
        step = _Asks.STEP
        return [
            _Ask("POST", "/v1/items/delete", {"items": refs[i : i + step]}, decode=_deleted)
            for i in range(0, len(refs), step)
        ]

    @staticmethod
    def delete(namespace: Sequence[str], key: str) -> _Ask:
        return _Ask("DELETE", "/v1/items", params=_address(namespace, key), decode=_deleted)

    @staticmethod
    def block(user_id: str, label: str, value: str | None = None) -> _Ask:
        path = f"{_Calls.user(user_id)}/blocks/{_name(label, 'label')}"
        if value is not None:
            return _Ask("PUT", path, {"value": value}, decode=lambda b: str(b["value"]))
        return _Ask("GET", path, decode=lambda b: str(b["value"]), missing=str)

    @staticmethod
    def embed(texts: Sequence[str], persist: bool) -> builtins.list[_Ask]:
        texts, step = [*texts], _Asks.STEP
        return [
            _Ask(
                "POST",
                "/v1/embeddings",
                {"texts": texts[i : i + step], "persist": persist},
                decode=_vectors(len(texts[i : i + step])),
            )  # fmt: skip
            for i in range(0, len(texts), step)
        ]

    # documents
    @staticmethod
    def own(user_id: str | None, what: str) -> str:
        if user_id is None:
            raise ValueError(
                f"{what}: the memory service keeps no shared knowledge; give a user_id"
            )
        return _Calls.user(user_id)

    @staticmethod
    def add_document(
        user_id: str,
        text: str,
        document_id: str | None,
        version: str | None,
        metadata: Mapping[str, Any] | None,
    ) -> _Ask:
        body = _drop_none(
            {"text": text, "document_id": document_id, "version": version,
             "metadata": dict(metadata) if metadata is not None else None}
        )  # fmt: skip
        return _Ask(
            "POST", f"{_Asks.own(user_id, 'add')}/documents", body, decode=_records(DocumentInfo)
        )

    @staticmethod
    def remove_document(user_id: str, document_id: str) -> _Ask:
        path = f"{_Asks.own(user_id, 'remove')}/documents/{_quote(document_id)}"
        return _Ask("DELETE", path, decode=lambda b: int(b["removed"]), missing=int, any_404=True)

    @staticmethod
    def documents(user_id: str) -> _Ask:
        return _Ask(
            "GET",
            f"{_Calls.user(user_id)}/documents",
            decode=_records(builtins.list[DocumentInfo]),
            missing=list,
        )

    @staticmethod
    def chunks(user_id: str, document_id: str, version: str | None) -> _Ask:
        path = f"{_Calls.user(user_id)}/documents/{_name(document_id, 'document_id')}/chunks"
        return _Ask(
            "GET",
            path,
            params=_drop_none({"version": version}) or None,
            decode=_records(builtins.list[DocumentChunk]),
            missing=list,
            any_404=True,
        )

    @staticmethod
    def search_documents(
        user_id: str,
        query: str,
        k: int,
        filter: Mapping[str, Any] | None,  # noqa: A002
    ) -> _Ask:
        body = _drop_none({"query": query, "k": k, "filter": dict(filter) if filter else None})
        return _Ask(
            "POST",
            f"{_Calls.user(user_id)}/documents/search",
            body,
            decode=_Calls.hits,
            missing=list,
        )


class RemoteProfile:
    """``mm.profile`` over HTTP: ``feedback`` and the reads (``preferences``, ``facts``,
    ``entities``, ``relations``, ``insights``, ``rollups``), returning the manager's
    records. A user the service has no memory of reads as empty, as in process."""

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
    ) -> list[ProfileEntry]:
        """A preference followed or corrected (``mm.profile.feedback``); the entries changed.

        Raises:
            KeyError: When the user has no entry with that id or key.
        """
        out: list[ProfileEntry] = _send(
            self._m, _Asks.feedback(user_id, target, signal, value, source_ids)
        )
        return out

    def preferences(
        self, user_id: str, *, key: str | None = None, scope: str | None = None
    ) -> list[ProfileEntry]:
        """The user's preferences, oldest first (``mm.profile.preferences``)."""
        out: list[ProfileEntry] = _send(self._m, _Asks.preferences(user_id, key, scope))
        return out

    def facts(
        self, user_id: str, *, subject: str | None = None, current: bool = False
    ) -> list[Fact]:
        """The user's facts, superseded ones too unless ``current`` (``mm.profile.facts``)."""
        out: list[Fact] = _send(self._m, _Asks.facts(user_id, subject, current))
        return out

    def entities(self, user_id: str) -> list[Entity]:
        """Who and what the user talks about, most mentioned first (``mm.profile.entities``)."""
        out: list[Entity] = _send(self._m, _Asks.profile(user_id, "/entities", list[Entity]))
        return out

    def relations(self, user_id: str, name: str) -> list[Fact]:
        """The facts naming ``name``: an entity's edges (``mm.profile.relations``)."""
        out: list[Fact] = _send(self._m, _Asks.relations(user_id, name))
        return out

    def insights(self, user_id: str) -> list[Insight]:
        """Insights reflected from the user's facts (``mm.profile.insights``)."""
        out: list[Insight] = _send(self._m, _Asks.profile(user_id, "/insights", list[Insight]))
        return out

    def rollups(self, user_id: str, level: Literal["day", "week"] | None = None) -> list[Rollup]:
        """The user's day and week summaries (``mm.profile.rollups``)."""
        out: list[Rollup] = _send(self._m, _Asks.rollups(user_id, level))
        return out


class AsyncRemoteProfile:
    """:class:`RemoteProfile`, awaited (the same parameters)."""

    def __init__(self, memory: AsyncRemoteMemory) -> None:
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
        out: list[ProfileEntry] = await _asend(
            self._m, _Asks.feedback(user_id, target, signal, value, source_ids)
        )
        return out

    async def preferences(
        self, user_id: str, *, key: str | None = None, scope: str | None = None
    ) -> list[ProfileEntry]:
        """:meth:`RemoteProfile.preferences`, awaited."""
        out: list[ProfileEntry] = await _asend(self._m, _Asks.preferences(user_id, key, scope))
        return out

    async def facts(
        self, user_id: str, *, subject: str | None = None, current: bool = False
    ) -> list[Fact]:
        """:meth:`RemoteProfile.facts`, awaited."""
        out: list[Fact] = await _asend(self._m, _Asks.facts(user_id, subject, current))
        return out

    async def entities(self, user_id: str) -> list[Entity]:
        """:meth:`RemoteProfile.entities`, awaited."""
        out: list[Entity] = await _asend(self._m, _Asks.profile(user_id, "/entities", list[Entity]))
        return out

    async def relations(self, user_id: str, name: str) -> list[Fact]:
        """:meth:`RemoteProfile.relations`, awaited."""
        out: list[Fact] = await _asend(self._m, _Asks.relations(user_id, name))
        return out

    async def insights(self, user_id: str) -> list[Insight]:
        """:meth:`RemoteProfile.insights`, awaited."""
        out: list[Insight] = await _asend(
            self._m, _Asks.profile(user_id, "/insights", list[Insight])
        )
        return out

    async def rollups(
        self, user_id: str, level: Literal["day", "week"] | None = None
    ) -> list[Rollup]:
        """:meth:`RemoteProfile.rollups`, awaited."""
        out: list[Rollup] = await _asend(self._m, _Asks.rollups(user_id, level))
        return out


class _Labels:
    """What a client decides of an item without asking: labels through its own
    sensitivity gate (``config.write.sensitivity``), and owners by the service's rule."""

    def __init__(self, config: MemoryConfig) -> None:
        self._gate = SensitivityFilter(config.write.policy)

    def label(self, text: str, *, field: str = "key", refuse: bool = True) -> str:
        """A store key or namespace label through the sensitivity gate (``mm.items.label``):
        a secret in it becomes its pseudonym, or is refused (``refuse=False`` for lookups).

        Raises:
            SensitiveContentError: When the policy refuses what it found (and ``refuse``).
        """
        check_text(text, MAX_LABEL_CHARS, field, allow_empty=True)
        return self._gate.clean_label(text, field=field, refuse=refuse)

    def redact(self, value: Any, *, field: str = "value") -> Any:
        """``value`` through the sensitivity gate (``mm.maintenance.redact``).

        Raises:
            SensitiveContentError: When the policy refuses what it found.
        """
        return self._gate.clean(value, field=field)


class RemoteItems(_Labels):
    """``mm.items`` over HTTP: the store items :class:`~langgraph_memory.MemoryStore`
    keeps (``get``, ``list``, ``put``, ``refresh``, ``delete``, ``delete_many``,
    ``owner``, ``label``) and core blocks (``core_block``, ``set_core_block``), as the
    manager's :class:`~langgraph_memory.core.records.Record` s.

    Namespaces are the tenant's own (the service keeps them apart from every other
    tenant's). Labels and keys go through the client's sensitivity gate before they are
    sent, and through the service's again; the owner label's position and the size
    limits are the service's (asked once).
    """

    def __init__(self, memory: RemoteMemory) -> None:
        super().__init__(memory.config)
        self._m = memory
        self._settings: dict[str, Any] | None = None

    def settings(self) -> dict[str, Any]:
        """The service's ``store_owner_label``, ``max_item_bytes`` and ``max_block_chars``."""
        if self._settings is None:
            self._settings = dict(_send(self._m, _Asks.SETTINGS))
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
        out: Record | None = _send(self._m, _Asks.get(namespace, key)) if namespace else None
        return out

    def list(self, prefix: Sequence[str] = ()) -> builtins.list[Record]:
        """The tenant's items whose namespace starts with ``prefix``, oldest first."""
        out: builtins.list[Record] = _send(self._m, _Asks.list(prefix))
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
        out: Record = _send(self._m, _Asks.put(namespace, key, data, created_at, updated_at))
        return out

    def refresh(self, record: Record, expires_at: str) -> None:
        """Give a store item a new expiry (``mm.items.refresh``); gone meanwhile: nothing."""
        if _send(self._m, _Asks.refresh(record, expires_at)):
            record.data["expires_at"] = expires_at

    def delete_many(self, records: Sequence[Record]) -> int:
        """Delete the items of these records; how many went (``mm.items.delete_many``)."""
        return sum(int(_send(self._m, ask)) for ask in _Asks.delete_many(records))

    def delete(self, namespace: Sequence[str], key: str) -> int:
        """Delete one store item; 1 when it existed, else 0 (``mm.items.delete``)."""
        return int(_send(self._m, _Asks.delete(namespace, key)))

    def core_block(self, user_id: str, label: str) -> str:
        """The text of one of a user's core blocks (``""`` when never written)."""
        return str(_send(self._m, _Asks.block(user_id, label)))

    def set_core_block(self, user_id: str, label: str, value: str) -> str:
        """Overwrite a user's core block through the service's gate; the text stored."""
        if not isinstance(value, str):
            raise TypeError(f"value must be a str, got {type(value).__name__}")
        return str(_send(self._m, _Asks.block(user_id, label, value)))


class AsyncRemoteItems(_Labels):
    """:class:`RemoteItems`, awaited (``label`` runs here, as it asks nothing)."""

    def __init__(self, memory: AsyncRemoteMemory) -> None:
        super().__init__(memory.config)
        self._m = memory
        self._settings: dict[str, Any] | None = None

    async def settings(self) -> dict[str, Any]:
        """:meth:`RemoteItems.settings`, awaited."""
        if self._settings is None:
            self._settings = dict(await _asend(self._m, _Asks.SETTINGS))
        return self._settings

    async def owner(self, namespace: Sequence[str]) -> str | None:
        """:meth:`RemoteItems.owner`, awaited."""
        return namespace_owner(namespace, (await self.settings())["store_owner_label"])

    async def get(self, namespace: Sequence[str], key: str) -> Record | None:
        """:meth:`RemoteItems.get`, awaited."""
        out: Record | None = await _asend(self._m, _Asks.get(namespace, key)) if namespace else None
        return out

    async def list(self, prefix: Sequence[str] = ()) -> builtins.list[Record]:
        """:meth:`RemoteItems.list`, awaited."""
        out: builtins.list[Record] = await _asend(self._m, _Asks.list(prefix))
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
        ask = _Asks.put(namespace, key, data, created_at, updated_at)
        out: Record = await _asend(self._m, ask)
        return out

    async def refresh(self, record: Record, expires_at: str) -> None:
        """:meth:`RemoteItems.refresh`, awaited."""
        if await _asend(self._m, _Asks.refresh(record, expires_at)):
            record.data["expires_at"] = expires_at

    async def delete_many(self, records: Sequence[Record]) -> int:
        """:meth:`RemoteItems.delete_many`, awaited."""
        return sum([int(await _asend(self._m, ask)) for ask in _Asks.delete_many(records)])

    async def delete(self, namespace: Sequence[str], key: str) -> int:
        """:meth:`RemoteItems.delete`, awaited."""
        return int(await _asend(self._m, _Asks.delete(namespace, key)))

    async def core_block(self, user_id: str, label: str) -> str:
        """:meth:`RemoteItems.core_block`, awaited."""
        return str(await _asend(self._m, _Asks.block(user_id, label)))

    async def set_core_block(self, user_id: str, label: str, value: str) -> str:
        """:meth:`RemoteItems.set_core_block`, awaited."""
        if not isinstance(value, str):
            raise TypeError(f"value must be a str, got {type(value).__name__}")
        return str(await _asend(self._m, _Asks.block(user_id, label, value)))


class RemoteEmbeddings(Embeddings):
    """``mm.embeddings`` over HTTP: the service's model embeds (the client loads none).

    Example:
        >>> mem.embeddings.embed_query("tea")[:2]  # doctest: +SKIP
        [0.013, -0.094]
    """

    def __init__(self, memory: RemoteMemory) -> None:
        self._m = memory

    def embed_array(self, texts: Sequence[str], *, persist: bool = True) -> np.ndarray:
        """Embed texts into a float32 matrix, one row each (``CachedEmbeddings.embed_array``)."""
        rows = [_send(self._m, ask) for ask in _Asks.embed(texts, persist)]
        return np.concatenate(rows) if rows else np.zeros((0, 0), dtype=np.float32)

    def embed_documents(self, texts: builtins.list[str]) -> builtins.list[builtins.list[float]]:
        """LangChain's ``embed_documents``."""
        return [row.tolist() for row in self.embed_array(texts)]

    def embed_query(self, text: str) -> builtins.list[float]:
        """LangChain's ``embed_query`` (not kept in the service's cache)."""
        return [float(x) for x in self.embed_array([text], persist=False)[0]]

    async def aembed_documents(
        self, texts: builtins.list[str]
    ) -> builtins.list[builtins.list[float]]:
        """LangChain's ``aembed_documents`` (the sync client's requests, on a thread)."""
        return await asyncio.to_thread(self.embed_documents, texts)

    async def aembed_query(self, text: str) -> builtins.list[float]:
        """LangChain's ``aembed_query`` (on a thread)."""
        return await asyncio.to_thread(self.embed_query, text)


class RemoteMaintenance(AdminMaintenance):
    """``mm.maintenance`` over HTTP: ``redact`` (the client's sensitivity gate, run
    locally), ``users`` (the tenant's users), and the admin key's calls (``verify``,
    ``failed``, ``retry_failed``, ``forget``, ``consolidate``, ``reflect``)."""

    def __init__(self, memory: RemoteMemory) -> None:
        super().__init__(memory.request)
        self._labels = _Labels(memory.config)

    def redact(self, value: Any, *, field: str = "value") -> Any:
        """``value`` through the sensitivity gate (``mm.maintenance.redact``).

        Raises:
            SensitiveContentError: When the policy refuses what it found.
        """
        return self._labels.redact(value, field=field)


class RemoteDocuments:
    """``mm.documents`` over HTTP, the user's own documents only: the service keeps no
    shared knowledge for a tenant, so ``user_id=None`` reads as empty and cannot write."""

    def __init__(self, memory: RemoteMemory) -> None:
        self._m = memory

    def add(
        self,
        user_id: str,
        text: str,
        *,
        document_id: str | None = None,
        version: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> DocumentInfo:
        """Add a document (or a new version) of the user's (``mm.documents.add``)."""
        ask = _Asks.add_document(user_id, text, document_id, version, metadata)
        out: DocumentInfo = _send(self._m, ask)
        return out

    def remove(self, user_id: str, document_id: str) -> int:
        """Remove a document, every version; chunks removed (0: none)."""
        return int(_send(self._m, _Asks.remove_document(user_id, document_id)))

    def list(self, user_id: str | None) -> builtins.list[DocumentInfo]:
        """The user's documents, oldest first (``None``: none)."""
        out: builtins.list[DocumentInfo] = (
            [] if user_id is None else _send(self._m, _Asks.documents(user_id))
        )
        return out

    def chunks(
        self, user_id: str | None, document_id: str, *, version: str | None = None
    ) -> builtins.list[DocumentChunk]:
        """A document's chunks in order (empty for an unknown document or version)."""
        if user_id is None:
            return []
        out: builtins.list[DocumentChunk] = _send(
            self._m, _Asks.chunks(user_id, document_id, version)
        )
        return out

    def search(
        self,
        user_id: str | None,
        query: str,
        k: int = 10,
        *,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - the manager's name
    ) -> builtins.list[MemoryHit]:
        """Search the user's own documents (``mm.documents.search``)."""
        if user_id is None:
            return []
        out: builtins.list[MemoryHit] = _send(
            self._m, _Asks.search_documents(user_id, query, k, filter)
        )
        return out


class AsyncRemoteDocuments:
    """:class:`RemoteDocuments`, awaited."""

    def __init__(self, memory: AsyncRemoteMemory) -> None:
        self._m = memory

    async def add(
        self,
        user_id: str,
        text: str,
        *,
        document_id: str | None = None,
        version: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> DocumentInfo:
        """:meth:`RemoteDocuments.add`, awaited."""
        ask = _Asks.add_document(user_id, text, document_id, version, metadata)
        out: DocumentInfo = await _asend(self._m, ask)
        return out

    async def remove(self, user_id: str, document_id: str) -> int:
        """:meth:`RemoteDocuments.remove`, awaited."""
        return int(await _asend(self._m, _Asks.remove_document(user_id, document_id)))

    async def list(self, user_id: str | None) -> builtins.list[DocumentInfo]:
        """:meth:`RemoteDocuments.list`, awaited."""
        if user_id is None:
            return []
        out: builtins.list[DocumentInfo] = await _asend(self._m, _Asks.documents(user_id))
        return out

    async def chunks(
        self, user_id: str | None, document_id: str, *, version: str | None = None
    ) -> builtins.list[DocumentChunk]:
        """:meth:`RemoteDocuments.chunks`, awaited."""
        if user_id is None:
            return []
        out: builtins.list[DocumentChunk] = await _asend(
            self._m, _Asks.chunks(user_id, document_id, version)
        )
        return out

    async def search(
        self,
        user_id: str | None,
        query: str,
        k: int = 10,
        *,
        filter: Mapping[str, Any] | None = None,  # noqa: A002
    ) -> builtins.list[MemoryHit]:
        """:meth:`RemoteDocuments.search`, awaited."""
        if user_id is None:
            return []
        out: builtins.list[MemoryHit] = await _asend(
            self._m, _Asks.search_documents(user_id, query, k, filter)
        )
        return out


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
