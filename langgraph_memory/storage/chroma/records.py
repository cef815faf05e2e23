"""Records, store metadata and the embedding cache of the Chroma backend, as store entries.

A part of :class:`~langgraph_memory.storage.chroma.backend.ChromaBackend`, kept apart
to keep each module to one idea: these entries need no counters and no vectors.
Records are ``r`` entries (the data as JSON in the document), metadata ``meta``
entries, cached vectors ``c`` entries (float32 bytes, base64, in the document).
"""

from __future__ import annotations

import base64
import json
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np

from langgraph_memory.core.records import Record
from langgraph_memory.storage.capabilities import RecordValue, check_where, record_matches
from langgraph_memory.storage.chroma.store import Entry, StoreCollection, and_, to_record
from langgraph_memory.storage.chroma.store import key as entry_key

__all__ = ["RecordEntries"]


class RecordEntries:
    """The record, metadata and cache methods of :class:`MemoryBackend`, on a store collection.

    The class using it provides ``_store`` and ``_use`` (the lock on an open backend).
    """

    _store: StoreCollection

    @abstractmethod
    def _use(self, *, sync: bool = False) -> AbstractContextManager[None]:
        """The lock on an open backend (``sync``: persist the index afterwards)."""

    # -- cache ----------------------------------------------------------------------------
    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        with self._use():
            got = self._store.by_id([f"c:{entry_key(model, h)}" for h in hashes])
        out: dict[str, np.ndarray] = {}
        for meta, doc in got.values():
            if meta.get("model") == model:
                out[meta["hash"]] = np.frombuffer(base64.b64decode(doc), dtype=np.float32).copy()
        return out

    def cache_put(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        if not vectors:
            return
        entries: list[Entry] = [
            (
                f"c:{entry_key(model, h)}",
                {"kind": "c", "model": model, "hash": h},
                base64.b64encode(np.asarray(v, dtype=np.float32).tobytes()).decode(),
            )
            for h, v in vectors.items()
        ]
        with self._use():
            self._store.upsert(entries)

    # -- records --------------------------------------------------------------------------
    def put_record(self, record: Record) -> None:
        rkey = f"r:{entry_key(record.kind, record.id)}"
        meta: dict[str, Any] = {
            "kind": "r",
            "rkind": record.kind,
            "rid": record.id,
            "user_id": record.user_id,
            "created": record.created_at.isoformat(),
            "updated": record.updated_at.isoformat(),
        }
        with self._use():
            old = self._store.by_id([rkey])
            if rkey in old and old[rkey][0]["user_id"] != record.user_id:
                raise ValueError(f"{record.kind} {record.id!r} belongs to another user")
            self._store.upsert([(rkey, meta, json.dumps(record.data, ensure_ascii=False))])

    def get_record(self, kind: str, record_id: str, user_id: str | None = None) -> Record | None:
        with self._use():
            got = self._store.by_id([f"r:{entry_key(kind, record_id)}"])
        for meta, doc in got.values():
            if user_id is None or meta["user_id"] == user_id:
                return to_record(meta, doc)
        return None

    @staticmethod
    def _record_where(kind: str, user_id: str | None) -> Any:
        conds: list[Mapping[str, Any]] = [{"kind": "r"}, {"rkind": kind}]
        if user_id is not None:
            conds.append({"user_id": user_id})
        return and_(*conds)

    def query_records(
        self,
        kind: str,
        user_id: str | None = None,
        *,
        where: Mapping[str, RecordValue] | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        cond = check_where(where)  # data is a JSON document here: matched in process
        with self._use():
            rows = self._store.where(self._record_where(kind, user_id))
        found = [r for _, m, d in rows if record_matches(r := to_record(m, d), cond)]
        found.sort(key=lambda r: (r.created_at, r.id), reverse=newest_first)
        return found[:limit]

    def count_records(self, kind: str, user_id: str | None = None) -> int:
        with self._use():
            return len(self._store.ids(self._record_where(kind, user_id)))

    def delete_records(self, kind: str, ids: Sequence[str], user_id: str) -> int:
        with self._use():
            got = self._store.by_id([f"r:{entry_key(kind, rid)}" for rid in ids])
            mine = [rkey for rkey, (meta, _) in got.items() if meta["user_id"] == user_id]
            if mine:
                self._store.collection.delete(ids=mine)
            return len(mine)

    # -- store metadata -------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        with self._use():
            got = self._store.by_id([f"meta:{entry_key(key)}"])
        return str(next(iter(got.values()))[0]["value"]) if got else None

    def set_meta(self, key: str, value: str) -> None:
        with self._use():
            self._store.upsert(
                [(f"meta:{entry_key(key)}", {"kind": "meta", "key": key, "value": value}, "")]
            )
