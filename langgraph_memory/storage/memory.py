"""In-memory backend: dicts and numpy, for tests and notebooks. Nothing persists."""

from __future__ import annotations

import copy
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from langgraph_memory.core.records import Message, Record
from langgraph_memory.retrieval.vectors import VectorMatrix
from langgraph_memory.storage.base import (
    NO_SEQ,
    BackendStats,
    MemoryBackend,
    MessageCounts,
    Postings,
    SessionRow,
)
from langgraph_memory.storage.capabilities import RecordValue, check_where, record_matches
from langgraph_memory.storage.entries_memory import InMemoryEntryIndex

__all__ = ["InMemoryBackend"]


def _copy(msg: Message) -> Message:
    """A copy that shares nothing mutable with the stored message."""
    return replace(msg, metadata=copy.deepcopy(msg.metadata))


class _UserData:
    __slots__ = ("by_seq", "by_id", "sessions", "postings", "doc_len", "total_len", "vectors")

    def __init__(self) -> None:
        self.by_seq: dict[int, Message] = {}
        self.by_id: dict[str, int] = {}
        self.sessions: dict[str, list[int]] = {}
        self.postings: dict[str, dict[int, int]] = {}
        self.doc_len: dict[int, int] = {}
        self.total_len = 0
        self.vectors: VectorMatrix | None = None


class InMemoryBackend(InMemoryEntryIndex, MemoryBackend):
    """Keeps everything in process memory.

    Example:
        >>> from langgraph_memory import MemoryManager
        >>> from langgraph_memory.storage import InMemoryBackend
        >>> from langgraph_memory.embeddings import HashingEmbeddings
        >>> mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
        >>> mm.close()
    """

    name = "memory"

    def __init__(self) -> None:
        self._users: dict[str, _UserData] = {}
        self._seq = 0
        self._pending: dict[int, Message] = {}
        self._failed: dict[int, Message] = {}  # quarantined: see set_failed
        self._cache: dict[tuple[str, str], np.ndarray] = {}
        self._meta: dict[str, str] = {}
        self._records: dict[tuple[str, str], Record] = {}
        #: The same records by kind and user: a query reads only those of its kind.
        self._owned: dict[tuple[str, str], dict[str, Record]] = {}
        self._lock = threading.RLock()
        self._init_entries()  # the long-term entry index (see entries_memory)

    def _user(self, user_id: str) -> _UserData:
        data = self._users.get(user_id)
        if data is None:
            data = self._users[user_id] = _UserData()
        return data

    def insert_message(self, msg: Message, terms: Sequence[str]) -> tuple[Message, bool]:
        with self._lock:
            u = self._user(msg.user_id)
            old = u.by_id.get(msg.id)
            if old is not None:
                existing = u.by_seq[old]
                if existing.content != msg.content or existing.session_id != msg.session_id:
                    raise ValueError(
                        f"message_id {msg.id!r} already exists for this user with other content"
                    )
                return _copy(existing), False
            self._seq += 1
            stored = replace(msg, seq=self._seq, metadata=copy.deepcopy(msg.metadata))
            u.by_seq[stored.seq] = stored
            u.by_id[stored.id] = stored.seq
            u.sessions.setdefault(stored.session_id, []).append(stored.seq)
            for term, tf in Counter(terms).items():
                u.postings.setdefault(term, {})[stored.seq] = tf
            u.doc_len[stored.seq] = len(terms)
            u.total_len += len(terms)
            self._pending[stored.seq] = stored
            return _copy(stored), True

    def speaker_names(self, user_id: str, after: int = 0) -> tuple[set[str], int]:
        with self._lock:
            u = self._users.get(user_id)
            names: set[str] = set()
            top = after
            for seq in reversed(u.by_seq if u is not None else {}):  # in insertion order
                if seq <= after:
                    break
                top = max(top, seq)
                if name := u.by_seq[seq].name if u is not None else None:
                    names.add(name)
            return names, top

    def get_messages(self, user_id: str, seqs: Sequence[int]) -> dict[int, Message]:
        with self._lock:
            u = self._users.get(user_id)
            if u is None:
                return {}
            return {s: _copy(u.by_seq[s]) for s in seqs if s in u.by_seq}

    def get_message(self, user_id: str, message_id: str) -> Message | None:
        with self._lock:
            u = self._users.get(user_id)
            if u is None or message_id not in u.by_id:
                return None
            return _copy(u.by_seq[u.by_id[message_id]])

    def session_messages(
        self, user_id: str, session_id: str, *, last: int | None = None
    ) -> list[Message]:
        with self._lock:
            u = self._users.get(user_id)
            if u is None:
                return []
            seqs = u.sessions.get(session_id, [])
            if last is not None:
                seqs = seqs[-last:] if last > 0 else []
            return [_copy(u.by_seq[s]) for s in seqs]

    def message_page(
        self,
        user_id: str,
        *,
        session_id: str | None = None,
        terms: Sequence[str] = (),
        before: int | None = None,
        limit: int = 50,
    ) -> list[Message]:
        top = NO_SEQ if before is None else before
        with self._lock:
            u = self._users.get(user_id)
            if u is None:
                return []
            if session_id is not None:
                pool: Sequence[int] = u.sessions.get(session_id, [])
            else:
                pool = list(u.by_seq)  # in seq order (inserted so)
            lists = [u.postings.get(t, {}) for t in terms]
            out: list[Message] = []
            for seq in reversed(pool):
                if len(out) >= limit:
                    break
                if seq < top and all(seq in plist for plist in lists):
                    out.append(_copy(u.by_seq[seq]))
            return out

    def message_counts(self, user_id: str) -> MessageCounts:
        with self._lock:
            u = self._users.get(user_id)
            if u is None:
                return MessageCounts(0, 0, 0)
            pending = sum(1 for m in self._pending.values() if m.user_id == user_id)
            return MessageCounts(len(u.by_seq), pending, len(u.sessions))

    def session_page(
        self, user_id: str, *, before: int | None = None, limit: int = 20
    ) -> list[SessionRow]:
        top = NO_SEQ if before is None else before
        with self._lock:
            u = self._users.get(user_id)
            if u is None:
                return []
            last = sorted(
                ((seqs[-1], sid) for sid, seqs in u.sessions.items() if seqs and seqs[-1] < top),
                reverse=True,
            )[: max(limit, 0)]
            return [
                SessionRow(
                    sid,
                    len(u.sessions[sid]),
                    u.by_seq[u.sessions[sid][0]].timestamp,
                    u.by_seq[seq].timestamp,
                    seq,
                )
                for seq, sid in last
            ]

    def neighbors_many(
        self, user_id: str, seqs: Sequence[int], window: int
    ) -> dict[int, list[Message]]:
        with self._lock:
            return {seq: self._around(user_id, seq, window) for seq in seqs}

    def _around(self, user_id: str, seq: int, window: int) -> list[Message]:
        u = self._users.get(user_id)
        if u is None or seq not in u.by_seq or window <= 0:
            return []
        seqs = u.sessions[u.by_seq[seq].session_id]
        i = seqs.index(seq)
        around = seqs[max(0, i - window) : i] + seqs[i + 1 : i + 1 + window]
        return [_copy(u.by_seq[s]) for s in around]

    def iter_messages(self, user_id: str) -> list[Message]:
        with self._lock:
            u = self._users.get(user_id)
            return [] if u is None else [_copy(u.by_seq[s]) for s in sorted(u.by_seq)]

    def pending_embeddings(self, limit: int) -> list[Message]:
        with self._lock:
            return [_copy(self._pending[s]) for s in sorted(self._pending)[:limit]]

    def set_failed(self, user_id: str, ids: Sequence[str], failed: bool = True) -> int:
        with self._lock:
            u = self._users.get(user_id)
            if u is None:
                return 0
            src, dst = (self._pending, self._failed) if failed else (self._failed, self._pending)
            n = 0
            for mid in dict.fromkeys(ids):
                seq = u.by_id.get(mid)
                if seq is not None and seq in src:
                    dst[seq] = src.pop(seq)
                    n += 1
            return n

    def store_vectors(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        with self._lock:
            for msg, vec in items:
                u = self._users.get(msg.user_id)
                if u is None or msg.seq not in u.by_seq or msg.seq not in self._pending:
                    continue
                if u.vectors is None:
                    u.vectors = VectorMatrix(int(np.asarray(vec).shape[-1]), int8=True)
                u.vectors.append([msg.seq], np.asarray(vec, dtype=np.float32)[None, :])
                del self._pending[msg.seq]

    def vector_search(
        self, user_id: str, vector: np.ndarray, k: int, allowed: set[int] | None = None
    ) -> list[tuple[int, float]]:
        with self._lock:
            u = self._users.get(user_id)
            if u is None or u.vectors is None:
                return []
            return u.vectors.search(vector, k, allowed)

    def vector_search_many(
        self, user_id: str, vectors: Sequence[np.ndarray], k: int
    ) -> list[list[tuple[int, float]]]:
        with self._lock:
            u = self._users.get(user_id)
            if u is None or u.vectors is None:
                return [[] for _ in vectors]
            return u.vectors.search_many(vectors, k)

    def postings(self, user_id: str, terms: Sequence[str]) -> Postings:
        with self._lock:
            u = self._users.get(user_id)
            if u is None:
                return Postings({}, 0, 0, {})
            lists = {t: sorted(u.postings.get(t, {}).items()) for t in terms}
            docs = {d for plist in lists.values() for d, _ in plist}
            return Postings(lists, len(u.by_seq), u.total_len, {d: u.doc_len[d] for d in docs})

    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        with self._lock:
            return {h: self._cache[(model, h)] for h in hashes if (model, h) in self._cache}

    def cache_put(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        with self._lock:
            for h, v in vectors.items():
                self._cache[(model, h)] = np.asarray(v, dtype=np.float32)

    def put_record(self, record: Record) -> None:
        with self._lock:
            old = self._records.get((record.kind, record.id))
            if old is not None and old.user_id != record.user_id:
                raise ValueError(f"{record.kind} {record.id!r} belongs to another user")
            stored = replace(record, data=copy.deepcopy(record.data))
            self._records[(record.kind, record.id)] = stored
            self._owned.setdefault((record.kind, record.user_id), {})[record.id] = stored

    def get_record(self, kind: str, record_id: str, user_id: str | None = None) -> Record | None:
        with self._lock:
            rec = self._records.get((kind, record_id))
            if rec is None or (user_id is not None and rec.user_id != user_id):
                return None
            return replace(rec, data=copy.deepcopy(rec.data))

    def query_records(
        self,
        kind: str,
        user_id: str | None = None,
        *,
        where: Mapping[str, RecordValue] | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        cond = check_where(where)
        with self._lock:
            pools = (
                [self._owned.get((kind, user_id), {})]
                if user_id is not None
                else [owned for (k, _), owned in self._owned.items() if k == kind]
            )
            found = [r for owned in pools for r in owned.values() if record_matches(r, cond)]
        found.sort(key=lambda r: (r.created_at, r.id), reverse=newest_first)
        return [replace(r, data=copy.deepcopy(r.data)) for r in found[:limit]]

    def delete_records(self, kind: str, ids: Sequence[str], user_id: str) -> int:
        with self._lock:
            n = 0
            for rid in ids:
                rec = self._records.get((kind, rid))
                if rec is not None and rec.user_id == user_id:
                    del self._records[(kind, rid)]
                    owned = self._owned[(kind, user_id)]
                    del owned[rid]
                    if not owned:
                        del self._owned[(kind, user_id)]
                    n += 1
            return n

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            return self._meta.get(key)

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._meta[key] = value

    def delete_messages(
        self, user_id: str, ids: Sequence[str], cache_hashes: Sequence[str] = ()
    ) -> list[Message]:
        with self._lock:
            u = self._users.get(user_id)
            gone: list[Message] = []
            for mid in dict.fromkeys(ids):
                seq = None if u is None else u.by_id.pop(mid, None)
                if u is None or seq is None:
                    continue
                msg = u.by_seq.pop(seq)
                u.sessions[msg.session_id].remove(seq)
                if not u.sessions[msg.session_id]:
                    del u.sessions[msg.session_id]
                for term in [t for t, docs in u.postings.items() if seq in docs]:
                    del u.postings[term][seq]
                    if not u.postings[term]:
                        del u.postings[term]
                u.total_len -= u.doc_len.pop(seq)
                if u.vectors is not None:
                    u.vectors.remove({seq})
                self._pending.pop(seq, None)
                self._failed.pop(seq, None)
                gone.append(_copy(msg))
            if u is not None and not u.by_seq:
                del self._users[user_id]
            drop = set(cache_hashes)
            for key in [k for k in self._cache if k[1] in drop]:
                del self._cache[key]
            return gone

    def delete_user(self, user_id: str, cache_hashes: Sequence[str] = ()) -> int:
        with self._lock:
            u = self._users.pop(user_id, None)
            for key in [k for k, r in self._records.items() if r.user_id == user_id]:
                del self._records[key]
            for owner in [k for k in self._owned if k[1] == user_id]:
                del self._owned[owner]
            self._forget_entries(user_id)
            drop = set(cache_hashes)
            for key in [k for k in self._cache if k[1] in drop]:
                del self._cache[key]
            if u is None:
                return 0
            for s in u.by_seq:
                self._pending.pop(s, None)
                self._failed.pop(s, None)
            return len(u.by_seq)

    def stats(self, user_id: str | None = None) -> BackendStats:
        with self._lock:
            users = (
                [self._users[user_id]]
                if user_id in self._users
                else ([] if user_id is not None else list(self._users.values()))
            )
            n = sum(len(u.by_seq) for u in users)
            emb = sum(len(u.vectors) if u.vectors else 0 for u in users)
            sess = sum(len(u.sessions) for u in users)
            return BackendStats(n, emb, sess, len(users))

    def users(self) -> list[str]:
        with self._lock:
            return sorted(self._users)
