"""The entry index kept as records: for backends without tables of their own for it.

:class:`RecordEntryIndex` implements
:class:`~.capabilities.EntryIndex` with the backend's own
records (kind :data:`ENTRY_KIND`, one per entry, the vector base64-encoded) and a
store-wide revision counter in its metadata. Each user's head record (key
:data:`HEAD_KEY`) holds the user's last revision and the index generation: reading what
changed since a revision the reader has seen costs that one record, and lists the
user's entry records only when something changed (a store written before the head
record was kept is listed on every read until its next write). The Chroma backend uses
it (SQLite, PostgreSQL and the in-memory backend keep an index by revision instead).
Revisions are given under a process lock: one process writes a store of these
backends at a time, as they require anyway.

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.storage.capabilities import IndexedEntry
    >>> b = InMemoryBackend()
    >>> b.put_entries("ann", [IndexedEntry("fact/f1", "Ann lives in Lyon", hash="h1")])
    1
    >>> gen, rows = b.entries_since("ann", 0)
    >>> gen, [(e.key, e.text) for e in rows]
    (0, [('fact/f1', 'Ann lives in Lyon')])
"""

from __future__ import annotations

import base64
import hashlib
import threading
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

import numpy as np

from langgraph_memory.core.records import Record
from langgraph_memory.storage.capabilities import EntryIndex, IndexedEntry, RecordStore

__all__ = ["RecordEntryIndex", "ENTRY_KIND", "encode_vector", "decode_vector"]

#: Record kind of an indexed entry.
ENTRY_KIND = "lgm_entry"
#: Key of the marker entry whose revision is the index generation.
BUILT_KEY = ""
#: Key of a user's head record: the user's last revision and the index generation (entry
#: keys are ``<layer>/<id>``: none is this).
HEAD_KEY = "head"
_REV_META = "entry_index_rev"
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
#: Revisions are read and written under it (one lock for every such backend: writes
#: are few and short).
_REV_LOCK = threading.RLock()


def encode_vector(vector: np.ndarray | None) -> str | None:
    """float32 bytes, base64-encoded (``None`` stays ``None``)."""
    if vector is None:
        return None
    return base64.b64encode(np.asarray(vector, dtype=np.float32).tobytes()).decode("ascii")


def decode_vector(data: str | None) -> np.ndarray | None:
    """The inverse of :func:`encode_vector`."""
    if data is None:
        return None
    return np.frombuffer(base64.b64decode(data), dtype=np.float32).copy()


def _record_id(user_id: str, key: str) -> str:
    """Record ids are store-wide: the user's hash keeps two users' keys apart."""
    return hashlib.sha256(user_id.encode()).hexdigest()[:16] + ":" + key


class RecordEntryIndex(RecordStore, EntryIndex):
    """:class:`~.capabilities.EntryIndex` over the backend's records and metadata."""

    if TYPE_CHECKING:  # the backend's store metadata

        def get_meta(self, key: str) -> str | None: ...

        def set_meta(self, key: str, value: str) -> None: ...

    def _next_rev(self) -> int:
        rev = int(self.get_meta(_REV_META) or 0) + 1
        self.set_meta(_REV_META, str(rev))
        return rev

    def _stored(self, user_id: str, key: str) -> dict[str, Any] | None:
        rec = self.get_record(ENTRY_KIND, _record_id(user_id, key), user_id)
        return None if rec is None else rec.data

    def _write(self, user_id: str, data: dict[str, Any]) -> None:
        rid = _record_id(user_id, data["key"])
        self.put_record(Record(ENTRY_KIND, rid, user_id, data, _EPOCH, _EPOCH))

    def _head(self, user_id: str) -> tuple[int, int] | None:
        """The user's last revision and index generation, from the head record (``None``
        without one)."""
        data = self._stored(user_id, HEAD_KEY)
        return None if data is None else (int(data["rev"]), int(data["generation"]))

    def _set_head(self, user_id: str, rev: int, generation: int | None = None) -> None:
        """Record the user's last revision (and a new generation; else the current one)."""
        if generation is None:
            head = self._head(user_id)
            if head is not None:
                generation = head[1]
            else:  # the first head of a store written without one
                marker = self._stored(user_id, BUILT_KEY)
                generation = 0 if marker is None else int(marker["rev"])
        self._write(user_id, {"key": HEAD_KEY, "rev": rev, "generation": generation})

    def put_entries(self, user_id: str, entries: Sequence[IndexedEntry]) -> int:
        n = 0
        rev = 0
        with _REV_LOCK:
            for e in entries:
                old = self._stored(user_id, e.key)
                if old is None and e.text is None:
                    continue
                if old is not None and old["hash"] == e.hash and old["text"] == e.text:
                    continue
                keep = old is not None and e.text is not None and old["text"] == e.text
                vector = old["vector"] if keep and old else encode_vector(e.vector)
                rev = self._next_rev()
                self._write(
                    user_id,
                    {
                        "key": e.key,
                        "rev": rev,
                        "text": e.text,
                        "terms": dict(e.terms) if e.text is not None else {},
                        "doc": dict(e.doc) if e.text is not None else {},
                        "hash": e.hash if e.text is not None else "",
                        "vector": vector if e.text is not None else None,
                    },
                )
                n += 1
            if n:
                self._set_head(user_id, rev)
        return n

    def entries_since(self, user_id: str, rev: int) -> tuple[int, list[IndexedEntry]]:
        head = self._head(user_id)
        if head is not None and head[0] <= rev:  # nothing changed since
            return head[1], []
        gen = 0
        out: list[IndexedEntry] = []
        for rec in self.list_records(ENTRY_KIND, user_id):
            d = rec.data
            if d["key"] == HEAD_KEY:
                continue
            if d["key"] == BUILT_KEY:
                gen = int(d["rev"])
            elif int(d["rev"]) > rev:
                out.append(
                    IndexedEntry(
                        d["key"],
                        d["text"],
                        d["terms"],
                        d["doc"],
                        d["hash"],
                        decode_vector(d["vector"]),
                        int(d["rev"]),
                    )
                )
        out.sort(key=lambda e: e.rev)
        return gen, out

    def mark_entries_built(self, user_id: str) -> int:
        with _REV_LOCK:
            rev = self._next_rev()
            self._write(
                user_id,
                {"key": BUILT_KEY, "rev": rev, "text": None, "terms": {}, "doc": {}, "hash": ""},
            )
            self._set_head(user_id, rev, rev)
        return rev

    def pending_entries(self, limit: int) -> list[tuple[str, IndexedEntry]]:
        found = [
            (rec.user_id, rec.data)
            for rec in self.list_records(ENTRY_KIND)
            if rec.data.get("text") is not None and rec.data.get("vector") is None
        ]
        found.sort(key=lambda x: int(x[1]["rev"]))
        return [
            (
                uid,
                IndexedEntry(d["key"], d["text"], d["terms"], d["doc"], d["hash"], None, d["rev"]),
            )
            for uid, d in found[:limit]
        ]

    def store_entry_vectors(self, items: Sequence[tuple[str, str, str, np.ndarray]]) -> int:
        n = 0
        last: dict[str, int] = {}  # each user's last revision given here
        with _REV_LOCK:
            for user_id, key, digest, vector in items:
                old = self._stored(user_id, key)
                if old is None or old["text"] is None or old["hash"] != digest:
                    continue
                old["vector"] = encode_vector(vector)
                old["rev"] = self._next_rev()
                self._write(user_id, old)
                last[user_id] = old["rev"]
                n += 1
            for user_id, rev in last.items():
                self._set_head(user_id, rev)
        return n
