"""The plumbing of :class:`~langgraph_memory.storage.chroma.backend.ChromaBackend`.

:class:`StoreCollection` wraps the Chroma collection that holds every
non-vector entry (typed reads and chunked writes); :class:`Counters` keeps the
store-wide seq, per-user BM25 totals and per-session positions.

Counters are the only state that every insert would otherwise rewrite, and in
Chroma rewriting an entry costs several times an insert. So they live in
memory and are written as a checkpoint every ``every`` inserts, on
``delete_user`` and on close. Each message entry carries everything needed to
redo its counter changes (``seq``, ``pos``, ``n_terms``), so :meth:`Counters.reload`
rebuilds exact counters from the last checkpoint plus the messages written
after it (seq above the checkpoint's). Before using its counters a backend
calls :meth:`Counters.sync`, one cheap read that reloads when another
instance wrote a newer message or deleted a user (the ``epoch``) meanwhile.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from langgraph_memory.core.records import Message, Record

if TYPE_CHECKING:
    from chromadb.api.models.Collection import Collection

__all__ = [
    "Counters",
    "Entry",
    "StoreCollection",
    "and_",
    "or_",
    "key",
    "message_key",
    "to_message",
    "to_record",
]

Meta = dict[str, Any]
#: A store entry: ``(chroma id, metadata, document)``.
Entry = tuple[str, Meta, str]

CHUNK = 500  # ids or values per read request
SEQ_ID = "ctr:seq"


def key(*parts: str) -> str:
    """A fixed-length id part for arbitrary strings (ASCII JSON, so any text hashes)."""
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:40]


def message_key(user_id: str, message_id: str) -> str:
    """The chroma id of a message entry."""
    return f"m:{key(user_id, message_id)}"


def user_key(user_id: str) -> str:
    """The chroma id of a user's counter entry."""
    return f"u:{key(user_id)}"


def session_key(user_id: str, session_id: str) -> str:
    """The chroma id of a session's counter entry."""
    return f"s:{key(user_id, session_id)}"


def and_(*conds: Mapping[str, Any]) -> Any:
    """A Chroma ``where`` clause AND-ing the conditions."""
    return dict(conds[0]) if len(conds) == 1 else {"$and": [dict(c) for c in conds]}


def or_(*conds: Mapping[str, Any]) -> Any:
    """A Chroma ``where`` clause OR-ing the conditions."""
    return dict(conds[0]) if len(conds) == 1 else {"$or": [dict(c) for c in conds]}


def to_message(meta: Mapping[str, Any], content: str) -> Message:
    """The message a store entry holds."""
    return Message(
        id=meta["mid"],
        user_id=meta["user_id"],
        session_id=meta["session_id"],
        role=meta["role"],
        content=content,
        timestamp=datetime.fromisoformat(meta["ts"]),
        name=meta.get("name"),
        metadata=json.loads(meta["meta"]),
        seq=int(meta["seq"]),
    )


def to_record(meta: Mapping[str, Any], data: str) -> Record:
    """The record a store entry holds."""
    return Record(
        kind=meta["rkind"],
        id=meta["rid"],
        user_id=meta["user_id"],
        data=json.loads(data),
        created_at=datetime.fromisoformat(meta["created"]),
        updated_at=datetime.fromisoformat(meta["updated"]),
    )


class StoreCollection:
    """Typed, chunked access to the store collection (entries carry a constant vector).

    Args:
        collection: The Chroma collection.
        batch: The most entries Chroma takes in one write.
    """

    def __init__(self, collection: Collection, batch: int) -> None:
        self.collection = collection
        self.batch = max(1, batch)

    def by_id(self, ids: Sequence[str], *, docs: bool = True) -> dict[str, tuple[Meta, str]]:
        """Entries by id: ``{id: (metadata, document)}`` (missing ids are absent; the
        documents are ``""`` unless ``docs``)."""
        out: dict[str, tuple[Meta, str]] = {}
        ids = list(dict.fromkeys(ids))
        include: Any = ["metadatas", "documents"] if docs else ["metadatas"]
        for i in range(0, len(ids), CHUNK):
            res = self.collection.get(ids=ids[i : i + CHUNK], include=include)
            documents = res["documents"] if docs and res["documents"] else [""] * len(res["ids"])
            for rid, meta, doc in zip(res["ids"], res["metadatas"] or [], documents, strict=True):
                out[rid] = (dict(meta), doc or "")
        return out

    def where(self, where: Any, *, docs: bool = True, limit: int | None = None) -> list[Entry]:
        """Entries matching a where clause, in the order they were first written."""
        include: Any = ["metadatas", "documents"] if docs else ["metadatas"]
        res = self.collection.get(where=where, include=include, limit=limit)
        documents = res["documents"] if docs and res["documents"] else [""] * len(res["ids"])
        return [
            (rid, dict(meta), doc or "")
            for rid, meta, doc in zip(res["ids"], res["metadatas"] or [], documents, strict=True)
        ]

    def where_in(
        self, conds: Sequence[Mapping[str, Any]], field: str, values: Sequence[Any], **kw: Any
    ) -> list[Entry]:
        """:meth:`where` AND ``field`` in ``values`` (chunked; nothing for no values)."""
        values = list(dict.fromkeys(values))
        out: list[Entry] = []
        for i in range(0, len(values), CHUNK):
            out += self.where(and_(*conds, {field: {"$in": values[i : i + CHUNK]}}), **kw)
        return out

    def ids(self, where: Any, limit: int | None = None) -> list[str]:
        """Ids of the entries matching a where clause."""
        return list(self.collection.get(where=where, include=[], limit=limit)["ids"])

    def upsert(self, entries: Sequence[Entry]) -> None:
        """Write entries in as few calls as Chroma allows, in order."""
        for i in range(0, len(entries), self.batch):
            part = entries[i : i + self.batch]
            self.collection.upsert(
                ids=[e[0] for e in part],
                embeddings=np.ones((len(part), 1), dtype=np.float32),
                metadatas=[e[1] for e in part],  # type: ignore[misc]
                documents=[e[2] for e in part],
            )

    def update_meta(self, items: Sequence[tuple[str, Meta]]) -> None:
        """Set metadata fields of existing entries (other fields and documents stay)."""
        for i in range(0, len(items), self.batch):
            part = items[i : i + self.batch]
            self.collection.update(
                ids=[rid for rid, _ in part],
                metadatas=[meta for _, meta in part],  # type: ignore[misc]
            )


class Counters:
    """The store-wide seq, per-user ``[n_docs, total_len]`` and per-session next position.

    Args:
        store: The store collection.
        every: Inserts between two checkpoints.
    """

    def __init__(self, store: StoreCollection, every: int = 64) -> None:
        self.store = store
        self.every = every
        self.seq = 0
        self.epoch = 0
        self.users: dict[str, list[int]] = {}
        self.sessions: dict[tuple[str, str], int] = {}
        self._dirty_users: set[str] = set()
        self._dirty_sessions: set[tuple[str, str]] = set()
        self._since = 0
        self.reload()

    def reload(self) -> None:
        """Rebuild the counters: the last checkpoint plus the messages written after it."""
        ctr = self.store.by_id([SEQ_ID]).get(SEQ_ID)
        seq, epoch = (int(ctr[0]["n"]), int(ctr[0]["epoch"])) if ctr else (0, 0)
        users: dict[str, list[int]] = {}
        sessions: dict[tuple[str, str], int] = {}
        for _, m, _ in self.store.where({"kind": {"$in": ["u", "s"]}}, docs=False):
            if m["kind"] == "u":
                users[m["user_id"]] = [int(m["n_docs"]), int(m["total_len"])]
            else:
                sessions[(m["user_id"], m["session_id"])] = int(m["next_pos"])
        after = self.store.where(and_({"kind": "m"}, {"seq": {"$gt": seq}}), docs=False)
        for _, m, _ in sorted(after, key=lambda e: int(e[1]["seq"])):
            u, s = m["user_id"], (m["user_id"], m["session_id"])
            totals = users.setdefault(u, [0, 0])
            totals[0] += 1
            totals[1] += int(m["n_terms"])
            sessions[s] = max(sessions.get(s, 0), int(m["pos"]) + 1)
            seq = max(seq, int(m["seq"]))
            self._dirty_users.add(u)
            self._dirty_sessions.add(s)
        self.seq, self.epoch, self.users, self.sessions = seq, epoch, users, sessions
        self._since = len(after)

    def sync(self) -> None:
        """Reload when another instance wrote a newer message or deleted a user."""
        newer = or_(
            and_({"kind": "m"}, {"seq": {"$gt": self.seq}}),
            and_({"kind": "ctr"}, {"epoch": {"$gt": self.epoch}}),
        )
        if self.store.ids(newer, limit=1):
            self.reload()

    def added(self, user_id: str, session_id: str, seq: int, n_terms: int) -> None:
        """Count a message that was just written (checkpointing every ``every`` inserts)."""
        totals = self.users.setdefault(user_id, [0, 0])
        totals[0] += 1
        totals[1] += n_terms
        self.sessions[(user_id, session_id)] = self.sessions.get((user_id, session_id), 0) + 1
        self.seq = max(self.seq, seq)
        self._dirty_users.add(user_id)
        self._dirty_sessions.add((user_id, session_id))
        self._since += 1
        if self._since >= self.every:
            self.checkpoint()

    def touch(self, user_id: str, session_id: str) -> None:
        """Mark a user's and a session's counters as changed (written at the checkpoint)."""
        self._dirty_users.add(user_id)
        self._dirty_sessions.add((user_id, session_id))

    def checkpoint(self) -> None:
        """Write the changed counters and the seq (the seq last, so a crash redoes the rest)."""
        entries: list[Entry] = []
        for u in self._dirty_users:
            if u in self.users:
                n_docs, total = self.users[u]
                meta = {"kind": "u", "user_id": u, "n_docs": n_docs, "total_len": total}
                entries.append((user_key(u), meta, ""))
        for u, s in self._dirty_sessions:
            if (u, s) in self.sessions:
                meta = {"kind": "s", "user_id": u, "session_id": s, "next_pos": self.sessions[u, s]}
                entries.append((session_key(u, s), meta, ""))
        entries.append((SEQ_ID, {"kind": "ctr", "n": self.seq, "epoch": self.epoch}, ""))
        self.store.upsert(entries)
        self._dirty_users.clear()
        self._dirty_sessions.clear()
        self._since = 0

    def forget(self, user_id: str) -> int:
        """Drop a deleted user's counters and start a new epoch; returns their message count."""
        n = self.users.pop(user_id, [0, 0])[0]
        for s in [s for s in self.sessions if s[0] == user_id]:
            del self.sessions[s]
        self._dirty_users.discard(user_id)
        self._dirty_sessions = {s for s in self._dirty_sessions if s[0] != user_id}
        self.epoch += 1
        self.checkpoint()
        return n
