"""The requests of :class:`~langgraph_memory.RemoteMemory`'s profile, items,
embeddings, blocks and documents parts: each an :class:`Ask` built once by :class:`Asks`
(its request and how its answer is read, no I/O), sent by :func:`send_ask` (the sync
parts) or :func:`asend_ask` (the awaitable ones).

Example:
    >>> Asks.SETTINGS.method, Asks.SETTINGS.path
    ('GET', '/v1/items/settings')
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from langgraph_memory.core.records import Record
from langgraph_memory.integrations.remote_calls import (
    AsyncSender,
    Calls,
    Problem,
    Sender,
    drop_none,
    iso_time,
    quote_part,
    type_adapter,
)
from langgraph_memory.parts.documents import DocumentChunk, DocumentInfo
from langgraph_memory.parts.items import (
    STORE_KIND,
    item_id,
    store_scope,
)
from langgraph_memory.parts.profile import Fact, ProfileEntry, Rollup


# What the graph pieces (MemoryStore, the memory tools) read. Each call is an Ask built
# once (its request and how its answer is read, no I/O); the sync parts send it with
# send_ask, the async ones with asend_ask.
def as_is(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Ask:
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
    decode: Callable[[Any], Any] = as_is
    missing: Callable[[], Any] | None = None
    any_404: bool = False
    key_error: str | None = None

    def on_404(self, exc: Problem) -> Any:
        if self.key_error is not None:
            raise KeyError(f"{self.key_error}: {exc}") from None
        if self.missing is None or not (self.any_404 or exc.no_user):
            raise exc
        return self.missing()


def send_ask(memory: Sender, ask: Ask) -> Any:
    try:
        out = memory.request(ask.method, ask.path, ask.body, params=ask.params)
    except Problem as exc:
        return ask.on_404(exc)
    return ask.decode(out)


async def asend_ask(memory: AsyncSender, ask: Ask) -> Any:
    try:
        out = await memory.request(ask.method, ask.path, ask.body, params=ask.params)
    except Problem as exc:
        return ask.on_404(exc)
    return ask.decode(out)


def records_of(tp: Any) -> Callable[[Any], Any]:
    adapter = type_adapter(tp)
    return adapter.validate_python  # type: ignore[no-any-return]


def name_part(text: str, field: str) -> str:
    if not isinstance(text, str) or not text:
        raise ValueError(f"{field} must be a non-empty str")
    return quote_part(text)


def item_record(body: Mapping[str, Any]) -> Record:
    """A store item's record as the manager's ``mm.items`` returns it."""
    namespace = [str(x) for x in body["namespace"]]
    owner = body.get("user_id")
    when = type_adapter(datetime)
    return Record(
        STORE_KIND,
        item_id(namespace, body["key"]),
        owner if owner is not None else store_scope(namespace[0]),
        dict(body["data"]),
        when.validate_python(body["created_at"]),
        when.validate_python(body["updated_at"]),
    )


def item_records(body: Any) -> list[Record]:
    return [item_record(b) for b in body]


def address(namespace: Sequence[str], key: str) -> dict[str, Any]:
    return {"namespace": list(namespace), "key": str(key)}


def deleted_count(body: Any) -> int:
    return int(body["deleted"])


def vectors_of(n: int) -> Callable[[Any], np.ndarray]:
    def decode(body: Mapping[str, Any]) -> np.ndarray:
        if not body["vectors"]:
            return np.zeros((n, int(body.get("dims") or 0)), dtype=np.float32)
        return np.asarray(body["vectors"], dtype=np.float32)

    return decode


class Asks:
    """The requests of the profile, items, embeddings, blocks and documents parts."""

    #: Most items or texts in one request (the service's default batch limit is 1000).
    STEP = 500

    # profile
    @staticmethod
    def feedback(
        user_id: str, target: str, signal: str, value: Any, source_ids: Sequence[str] | None
    ) -> Ask:
        body = drop_none(
            {"target": target, "signal": signal, "value": value,
             "source_ids": list(source_ids) if source_ids is not None else None}
        )  # fmt: skip
        return Ask(
            "POST",
            f"{Calls.user(user_id)}/feedback",
            body,
            decode=records_of(list[ProfileEntry]),
            key_error="no such profile entry",
        )

    @staticmethod
    def profile(user_id: str, path: str, tp: Any, params: Mapping[str, Any] | None = None) -> Ask:
        return Ask(
            "GET",
            f"{Calls.user(user_id)}{path}",
            params=params or None,
            decode=records_of(tp),
            missing=list,
        )

    @staticmethod
    def preferences(user_id: str, key: str | None, scope: str | None) -> Ask:
        params = drop_none({"key": key, "scope": scope})
        return Asks.profile(user_id, "/preferences", list[ProfileEntry], params)

    @staticmethod
    def facts(user_id: str, subject: str | None, current: bool) -> Ask:
        params = drop_none({"subject": subject, "current": "true" if current else None})
        return Asks.profile(user_id, "/facts", list[Fact], params)

    @staticmethod
    def relations(user_id: str, name: str) -> Ask:
        return Asks.profile(user_id, f"/entities/{name_part(name, 'name')}/relations", list[Fact])

    @staticmethod
    def rollups(user_id: str, level: str | None) -> Ask:
        return Asks.profile(user_id, "/rollups", list[Rollup], drop_none({"level": level}))

    # items
    SETTINGS = Ask("GET", "/v1/items/settings", decode=dict)

    @staticmethod
    def get(namespace: Sequence[str], key: str) -> Ask:
        return Ask(
            "GET",
            "/v1/items/item",
            params=address(namespace, key),
            decode=item_record,
            missing=lambda: None,
            any_404=True,
        )

    @staticmethod
    def list(prefix: Sequence[str]) -> Ask:
        params = {"prefix": [*prefix]} if prefix else None
        return Ask("GET", "/v1/items", params=params, decode=item_records)

    @staticmethod
    def put(
        namespace: Sequence[str],
        key: str,
        data: Mapping[str, Any],
        created_at: datetime | None,
        updated_at: datetime | None,
    ) -> Ask:
        body = drop_none(
            {**address(namespace, key), "data": dict(data),
             "created_at": iso_time(created_at), "updated_at": iso_time(updated_at)}
        )  # fmt: skip
        return Ask("PUT", "/v1/items", body, decode=item_record)

    @staticmethod
    def refresh(record: Record, expires_at: str) -> Ask:
        body = {**address(record.data["namespace"], record.data["key"]), "expires_at": expires_at}
        return Ask(
            "PATCH", "/v1/items", body, decode=lambda _: True, missing=lambda: False, any_404=True
        )

    @staticmethod
    def delete_many(records: Sequence[Record]) -> builtins.list[Ask]:
        refs = [address(r.data["namespace"], r.data["key"]) for r in records]
        step = Asks.STEP
        return [
            Ask("POST", "/v1/items/delete", {"items": refs[i : i + step]}, decode=deleted_count)
            for i in range(0, len(refs), step)
        ]

    @staticmethod
    def delete(namespace: Sequence[str], key: str) -> Ask:
        return Ask("DELETE", "/v1/items", params=address(namespace, key), decode=deleted_count)

    @staticmethod
    def block(user_id: str, label: str, value: str | None = None) -> Ask:
        path = f"{Calls.user(user_id)}/blocks/{name_part(label, 'label')}"
        if value is not None:
            return Ask("PUT", path, {"value": value}, decode=lambda b: str(b["value"]))
        return Ask("GET", path, decode=lambda b: str(b["value"]), missing=str)

    @staticmethod
    def embed(texts: Sequence[str], persist: bool) -> builtins.list[Ask]:
        texts, step = [*texts], Asks.STEP
        return [
            Ask(
                "POST",
                "/v1/embeddings",
                {"texts": texts[i : i + step], "persist": persist},
                decode=vectors_of(len(texts[i : i + step])),
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
        return Calls.user(user_id)

    @staticmethod
    def add_document(
        user_id: str,
        text: str,
        document_id: str | None,
        version: str | None,
        metadata: Mapping[str, Any] | None,
    ) -> Ask:
        body = drop_none(
            {"text": text, "document_id": document_id, "version": version,
             "metadata": dict(metadata) if metadata is not None else None}
        )  # fmt: skip
        return Ask(
            "POST", f"{Asks.own(user_id, 'add')}/documents", body, decode=records_of(DocumentInfo)
        )

    @staticmethod
    def remove_document(user_id: str, document_id: str) -> Ask:
        path = f"{Asks.own(user_id, 'remove')}/documents/{quote_part(document_id)}"
        return Ask("DELETE", path, decode=lambda b: int(b["removed"]), missing=int, any_404=True)

    @staticmethod
    def documents(user_id: str) -> Ask:
        return Ask(
            "GET",
            f"{Calls.user(user_id)}/documents",
            decode=records_of(builtins.list[DocumentInfo]),
            missing=list,
        )

    @staticmethod
    def chunks(user_id: str, document_id: str, version: str | None) -> Ask:
        path = f"{Calls.user(user_id)}/documents/{name_part(document_id, 'document_id')}/chunks"
        return Ask(
            "GET",
            path,
            params=drop_none({"version": version}) or None,
            decode=records_of(builtins.list[DocumentChunk]),
            missing=list,
            any_404=True,
        )

    @staticmethod
    def search_documents(
        user_id: str,
        query: str,
        k: int,
        filter: Mapping[str, Any] | None,  # noqa: A002
    ) -> Ask:
        body = drop_none({"query": query, "k": k, "filter": dict(filter) if filter else None})
        return Ask(
            "POST",
            f"{Calls.user(user_id)}/documents/search",
            body,
            decode=Calls.hits,
            missing=list,
        )
