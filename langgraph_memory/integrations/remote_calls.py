"""What :class:`~langgraph_memory.RemoteMemory` and its parts send and how they read the
answers, with no I/O: the problem documents of the service raised as the manager raises
(:func:`raise_for`), the paths and bodies of the every-turn calls (:class:`Calls`), and
what a client decides of an item without asking (:class:`Labels`), and what a part
sends its requests through (:class:`Sender`, :class:`AsyncSender`; the requests of the
parts are in :mod:`~langgraph_memory.integrations.remote_asks`).

Example:
    >>> Calls.user("alice/bob")
    '/v1/users/alice%2Fbob'
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from langgraph_memory.config import MemoryConfig
from langgraph_memory.core.context import ContextItem, MemoryContext
from langgraph_memory.core.records import MemoryHit
from langgraph_memory.core.validation import check_text
from langgraph_memory.parts.items import (
    MAX_LABEL_CHARS,
)
from langgraph_memory.sensitivity.policy import SensitivityFilter

if TYPE_CHECKING:
    import httpx


API_KEY_ENV = "LANGGRAPH_MEMORY_API_KEY"
_NO_USER = "/problems/user-not-found"


def quote_part(part: str) -> str:
    from urllib.parse import quote

    return quote(part, safe="")


def iso_time(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def drop_none(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


def type_adapter(tp: Any) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(tp)


class Problem(Exception):
    """A problem document the service answered with."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("detail") or body.get("title") or f"HTTP {status}")
        self.status, self.body = status, body

    @property
    def no_user(self) -> bool:
        return self.status == 404 and self.body.get("type") == _NO_USER


def raise_for(response: httpx.Response) -> None:
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
        raise Problem(status, body)
    if status in (400, 413, 422):
        raise ValueError(detail)
    if status == 504:
        raise TimeoutError(detail)
    raise RuntimeError(f"the memory service answered {status}: {detail}")


class Calls:
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
        return f"/v1/users/{quote_part(user_id)}"

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
        return drop_none(
            {
                "session_id": session_id,
                "role": role,
                "content": content,
                "name": name,
                "timestamp": iso_time(timestamp),
                "message_id": message_id,
                "metadata": dict(metadata) if metadata is not None else None,
            }
        )

    @staticmethod
    def batch(messages: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return {
            "messages": [
                Calls.message(
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
        return drop_none(
            {
                "session_id": session_id, "user": user, "assistant": assistant,
                "timestamp": iso_time(timestamp), "user_name": user_name,
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
        return drop_none(
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
        return drop_none(
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
        raise_for(response)
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
        items = type_adapter(list[ContextItem]).validate_python(body["items"])
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
        hits: list[MemoryHit] = type_adapter(list[MemoryHit]).validate_python(body["hits"])
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


class Sender(Protocol):
    """What a part of :class:`~langgraph_memory.RemoteMemory` sends its requests through."""

    @property
    def config(self) -> MemoryConfig: ...

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        params: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> Any: ...


class AsyncSender(Protocol):
    """What a part of :class:`~langgraph_memory.AsyncRemoteMemory` sends its requests
    through."""

    @property
    def config(self) -> MemoryConfig: ...

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        params: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> Any: ...


class Labels:
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
