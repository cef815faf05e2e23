"""SQLite backend (the default): one file under the memory path, WAL mode.

Messages, posting lists, vectors and the embedding cache live in one database
file. Vector search keeps an in-process numpy matrix per user, refreshed
incrementally from the file, so other processes' writes are seen.
``secure_delete`` is on, and ``delete_user`` vacuums the file and truncates the
WAL, so a deleted user leaves no bytes in the file.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from langgraph_memory.core.records import Message, Record, index_text
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.retrieval.postings_cache import PostingCache
from langgraph_memory.retrieval.vectors import VectorMatrix
from langgraph_memory.storage.base import BackendStats, MemoryBackend
from langgraph_memory.storage.capabilities import (
    Checkpoint,
    GroupedWrites,
    RecordValue,
    WriterLease,
    check_where,
)
from langgraph_memory.storage.sqlite import sql as q
from langgraph_memory.storage.sqlite.conn import Synchronous
from langgraph_memory.storage.sqlite.entries import SQLiteEntryIndex
from langgraph_memory.storage.sqlite.health import Integrity, damaged
from langgraph_memory.storage.sqlite.pages import SQLitePages
from langgraph_memory.storage.sqlite.sql import MIGRATIONS

__all__ = ["SQLiteBackend", "MIGRATIONS"]


class SQLiteBackend(
    SQLiteEntryIndex, SQLitePages, MemoryBackend, WriterLease, Checkpoint, GroupedWrites
):
    """SQLite storage in ``<path>/memory.sqlite3`` (or an explicit ``.sqlite3``/``.db`` file).

    Args:
        path: A directory (created if needed) or a database file path.
        posting_cache: Posting lists held in process for BM25, in postings (16 bytes
            each; least recently used lists go first). Lists are topped up with new
            messages rather than re-read per query; ``0`` reads them every time.
        integrity: When the file's pages are checked on open: ``"auto"`` (default) when
            the last process did not close it cleanly or the file is opened here for the
            first time (a copy, a restored backup), ``"always"`` or ``"never"``. A damaged or
            half-copied store raises ``StoreDamagedError`` instead of opening empty or short (see
            :mod:`~langgraph_memory.storage.sqlite.health`); ``"never"`` also accepts a main file
            copied alone while the store was open (see
            :mod:`~langgraph_memory.storage.sqlite.openmark`) and a write-ahead log damaged
            before its last commit (opened as SQLite reads it, up to the damage).
        encryption_key: Encrypt the store with SQLCipher under this passphrase (the
            ``encrypt`` extra); opening it needs the same key.
        synchronous: ``"normal"`` (default): an accepted write survives the process
            being killed; ``"full"``: also a power loss (a sync at every commit).
        checkpoint_pages: Write-ahead log pages after which it is checkpointed (bounds
            its size; default 10,000, ~40 MB).
        checkpoint_seconds: Longest time between checkpoints while writes arrive (the
            worker runs one when idle); with ``"normal"`` this bounds what a power loss
            can take. See :class:`~langgraph_memory.storage.sqlite.conn.SQLiteConnection`.
        file_mode: The mode of every file it creates (the store, its ``-wal`` and
            ``-shm``, its lock files, its backups): ``0o600`` (default, the owner only) or,
            e.g., ``0o640``; the directories it creates get ``0o700`` (``0o750``).

    Example:
        >>> import tempfile
        >>> backend = SQLiteBackend(tempfile.mkdtemp())
        >>> backend.stats().messages
        0
        >>> backend.close()
    """

    name = "sqlite"

    def __init__(
        self,
        path: str | Path,
        *,
        posting_cache: int = 4_000_000,
        integrity: Integrity = "auto",
        encryption_key: str | None = None,
        synchronous: Synchronous = "normal",
        checkpoint_pages: int = 10_000,
        checkpoint_seconds: float = 30.0,
        file_mode: int = 0o600,
    ) -> None:
        super().__init__(
            path,
            integrity=integrity,
            encryption_key=encryption_key,
            synchronous=synchronous,
            checkpoint_pages=checkpoint_pages,
            checkpoint_seconds=checkpoint_seconds,
            file_mode=file_mode,
        )
        self._vectors: dict[str, tuple[VectorMatrix, int]] = {}
        # When each user's cached matrix was last checked against the file: the
        # file's data_version (moves when another connection commits) and this
        # connection's count of write transactions touching messages or vectors. Both
        # unchanged: nothing to check.
        self._checked: dict[str, tuple[int, int]] = {}
        self._postings = PostingCache(posting_cache) if posting_cache > 0 else None
        try:
            self.setup()
        except BaseException as exc:
            self.close()  # now, not when collected: closing deletes the log by name
            error = damaged(self.file, exc)
            if error is None:
                raise
            raise error from exc

    # -- messages -------------------------------------------------------------------------
    def insert_message(self, msg: Message, terms: Sequence[str]) -> tuple[Message, bool]:
        """Store a message; its terms wait with it for :meth:`index_pending`.

        Writing ~10 posting rows per message dirtied ~10 more index pages per commit
        (each copied to the WAL): a third of ``add_message``'s time. The worker writes
        a batch's postings in one sorted pass instead, and searches read the terms of
        messages not indexed yet, so they rank exactly as if the postings were there.
        """
        counts = Counter(terms)
        with self._tx() as c:
            row = c.execute(
                f"SELECT {q.MSG_COLS} FROM messages WHERE user_id = ? AND id = ?",
                (msg.user_id, msg.id),
            ).fetchone()
            if row is not None:
                existing = q.row_to_message(row)
                if existing.content != msg.content or existing.session_id != msg.session_id:
                    raise ValueError(
                        f"message_id {msg.id!r} already exists for this user with other content"
                    )
                return existing, False
            pos = c.execute(
                "SELECT COALESCE(MAX(pos), -1) + 1 FROM messages "
                "WHERE user_id = ? AND session_id = ?",
                (msg.user_id, msg.session_id),
            ).fetchone()[0]
            cur = c.execute(
                "INSERT INTO messages (user_id, id, session_id, role, name, content, ts, metadata,"
                " n_terms, pos, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    msg.user_id,
                    msg.id,
                    msg.session_id,
                    msg.role,
                    msg.name,
                    msg.content,
                    msg.timestamp.isoformat(),
                    json.dumps(msg.metadata, ensure_ascii=False) if msg.metadata else "{}",
                    len(terms),
                    pos,
                    json.dumps(counts, ensure_ascii=False),
                ),
            )
            seq = int(cur.lastrowid or 0)
            c.execute(
                "INSERT INTO user_stats (user_id, n_docs, total_len) VALUES (?, 1, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET n_docs = n_docs + 1, "
                "total_len = total_len + excluded.total_len",
                (msg.user_id, len(terms)),
            )
        stored = Message(
            id=msg.id,
            user_id=msg.user_id,
            session_id=msg.session_id,
            role=msg.role,
            content=msg.content,
            timestamp=msg.timestamp,
            name=msg.name,
            metadata=dict(msg.metadata),
            seq=seq,
        )
        return stored, True

    def get_messages(self, user_id: str, seqs: Sequence[int]) -> dict[int, Message]:
        out: dict[int, Message] = {}
        seqs = list(seqs)
        for i in range(0, len(seqs), 500):
            chunk = seqs[i : i + 500]
            marks = ",".join("?" * len(chunk))
            # "+user_id": look the seqs up by primary key. Left to itself the planner
            # picks the (user_id, ...) index and walks all of the user's messages
            # (15 ms for 100 seqs of one user holding 77k, against 0.3 ms).
            for row in self._read(
                f"SELECT {q.MSG_COLS} FROM messages WHERE +user_id = ? AND seq IN ({marks})",
                (user_id, *chunk),
            ):
                out[row[0]] = q.row_to_message(row)
        return out

    def get_message(self, user_id: str, message_id: str) -> Message | None:
        rows = self._read(
            f"SELECT {q.MSG_COLS} FROM messages WHERE user_id = ? AND id = ?", (user_id, message_id)
        )
        return q.row_to_message(rows[0]) if rows else None

    def session_messages(
        self, user_id: str, session_id: str, *, last: int | None = None
    ) -> list[Message]:
        if last is None:
            rows = self._read(
                f"SELECT {q.MSG_COLS} FROM messages WHERE user_id = ? AND session_id = ? "
                "ORDER BY seq",
                (user_id, session_id),
            )
        else:
            rows = self._read(
                f"SELECT {q.MSG_COLS} FROM messages WHERE user_id = ? AND session_id = ? "
                "ORDER BY seq DESC LIMIT ?",
                (user_id, session_id, max(last, 0)),
            )[::-1]
        return [q.row_to_message(r) for r in rows]

    def neighbors_many(
        self, user_id: str, seqs: Sequence[int], window: int
    ) -> dict[int, list[Message]]:
        seqs = list(dict.fromkeys(seqs))
        if window <= 0 or not seqs:
            return {s: [] for s in seqs}
        out: dict[int, list[Message]] = {s: [] for s in seqs}
        for i in range(0, len(seqs), 200):  # SQLite limits expression depth
            out.update(self._neighbors_chunk(user_id, seqs[i : i + 200], window))
        return out

    def _neighbors_chunk(
        self, user_id: str, seqs: list[int], window: int
    ) -> dict[int, list[Message]]:
        # One join: each anchor row, then an indexed range of its session around it
        # (an OR or a UNION of ranges is several times slower).
        vals = ",".join("(?)" * 1 for _ in seqs)
        cols = ", ".join(f"m.{c.strip()}" for c in q.MSG_COLS.split(","))
        rows = self._read(
            f"WITH a(seq) AS (VALUES {vals}) "
            f"SELECT h.seq, {cols} FROM a "
            "JOIN messages h ON h.seq = a.seq AND h.user_id = ? "
            "JOIN messages m ON m.user_id = h.user_id AND m.session_id = h.session_id "
            "AND m.pos BETWEEN h.pos - ? AND h.pos + ? AND m.seq != h.seq "
            "ORDER BY h.seq, m.seq",
            (*seqs, user_id, window, window),
        )
        out: dict[int, list[Message]] = {s: [] for s in seqs}
        seen: dict[int, Message] = {}
        for row in rows:
            msg = seen.get(row[1])
            if msg is None:
                msg = seen[row[1]] = q.row_to_message(row[1:])
            out[row[0]].append(msg)
        return out

    def iter_messages(self, user_id: str) -> list[Message]:
        rows = self._read(
            f"SELECT {q.MSG_COLS} FROM messages WHERE user_id = ? ORDER BY seq", (user_id,)
        )
        return [q.row_to_message(r) for r in rows]

    def speaker_names(self, user_id: str, after: int = 0) -> tuple[set[str], int]:
        rows = self._read(
            "SELECT name, MAX(seq) FROM messages WHERE seq > ? AND user_id = ? GROUP BY name",
            (after, user_id),
        )
        return {r[0] for r in rows if r[0]}, max((r[1] for r in rows), default=after)

    # -- vectors --------------------------------------------------------------------------
    def pending_embeddings(self, limit: int) -> list[Message]:
        rows = self._read(
            f"SELECT {q.MSG_COLS} FROM messages WHERE embedded = 0 ORDER BY seq LIMIT ?", (limit,)
        )
        return [q.row_to_message(r) for r in rows]

    def set_failed(self, user_id: str, ids: Sequence[str], failed: bool = True) -> int:
        # embedded: 0 pending, 1 embedded, -1 quarantined (outside the pending index)
        old, new = (0, -1) if failed else (-1, 0)
        with self._tx() as c:
            return sum(
                c.execute(
                    "UPDATE messages SET embedded = ? WHERE user_id = ? AND id = ? "
                    "AND embedded = ?",
                    (new, user_id, mid, old),
                ).rowcount
                for mid in dict.fromkeys(ids)
            )

    def store_vectors(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        if not items:
            return
        with self._tx() as c:
            for msg, vec in items:
                cur = c.execute(
                    "UPDATE messages SET embedded = 1 WHERE seq = ? AND user_id = ? "
                    "AND embedded = 0",
                    (msg.seq, msg.user_id),
                )
                if cur.rowcount:
                    c.execute(
                        "INSERT OR REPLACE INTO vectors (seq, user_id, vec) VALUES (?, ?, ?)",
                        (msg.seq, msg.user_id, np.asarray(vec, dtype=np.float32).tobytes()),
                    )

    def _matrix(self, user_id: str) -> VectorMatrix | None:
        """The user's vector matrix, brought up to date with the file."""
        with self._lock:
            version = self._file_version()
            cached = self._vectors.get(user_id)
            if cached is not None and self._checked.get(user_id) == version:
                return cached[0]  # the file has not changed since the last check
            self._checked[user_id] = version
            count, max_seq = self._read(
                "SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM vectors WHERE user_id = ?",
                (user_id,),
            )[0]
            if count == 0:
                self._vectors.pop(user_id, None)
                return None
            if cached is not None:
                matrix, n = cached
                if n == count and matrix.max_key == max_seq:
                    return matrix
                rows = self._read(
                    "SELECT seq, vec FROM vectors WHERE user_id = ? AND seq > ? ORDER BY seq",
                    (user_id, matrix.max_key),
                )
                if n + len(rows) == count:
                    self._append(matrix, rows)
                    self._vectors[user_id] = (matrix, count)
                    return matrix
            rows = self._read(
                "SELECT seq, vec FROM vectors WHERE user_id = ? ORDER BY seq", (user_id,)
            )
            matrix = VectorMatrix(len(rows[0][1]) // 4, int8=True)
            self._append(matrix, rows)
            self._vectors[user_id] = (matrix, len(rows))
            return matrix

    @staticmethod
    def _append(matrix: VectorMatrix, rows: list[tuple]) -> None:
        if rows:
            vecs = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
            matrix.append([r[0] for r in rows], vecs.reshape(len(rows), -1))

    def vector_search(
        self, user_id: str, vector: np.ndarray, k: int, allowed: set[int] | None = None
    ) -> list[tuple[int, float]]:
        matrix = self._matrix(user_id)
        return [] if matrix is None else matrix.search(vector, k, allowed)

    def vector_search_many(
        self, user_id: str, vectors: Sequence[np.ndarray], k: int
    ) -> list[list[tuple[int, float]]]:
        matrix = self._matrix(user_id)
        return [[] for _ in vectors] if matrix is None else matrix.search_many(vectors, k)

    # -- lexical --------------------------------------------------------------------------
    # -- cache ----------------------------------------------------------------------------
    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        hashes = list(hashes)
        for i in range(0, len(hashes), 500):
            chunk = hashes[i : i + 500]
            marks = ",".join("?" * len(chunk))
            for h, blob in self._read(
                f"SELECT hash, vec FROM embedding_cache WHERE model = ? AND hash IN ({marks})",
                (model, *chunk),
            ):
                out[h] = np.frombuffer(blob, dtype=np.float32).copy()
        return out

    def cache_put(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        if not vectors:
            return
        with self._tx(messages=False) as c:
            c.executemany(  # in key order: each index page is visited once per batch
                "INSERT OR REPLACE INTO embedding_cache (model, hash, vec) VALUES (?, ?, ?)",
                [
                    (model, h, np.asarray(vectors[h], dtype=np.float32).tobytes())
                    for h in sorted(vectors)
                ],
            )

    # -- records --------------------------------------------------------------------------
    def put_record(self, record: Record) -> None:
        # serialised before the write lock: readers wait for the write alone (a segment
        # record saved for its visits is ~100 KB of JSON, ~2 ms to encode)
        data = json.dumps(record.data, ensure_ascii=False)
        with self._tx(messages=False) as c:
            row = c.execute(
                "SELECT user_id FROM records WHERE kind = ? AND id = ?", (record.kind, record.id)
            ).fetchone()
            if row is not None and row[0] != record.user_id:
                raise ValueError(f"{record.kind} {record.id!r} belongs to another user")
            c.execute(
                "INSERT OR REPLACE INTO records (kind, id, user_id, data, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    record.kind,
                    record.id,
                    record.user_id,
                    data,
                    record.created_at.isoformat(),
                    record.updated_at.isoformat(),
                ),
            )

    def get_record(self, kind: str, record_id: str, user_id: str | None = None) -> Record | None:
        rows = self._read(
            "SELECT kind, id, user_id, data, created_at, updated_at FROM records "
            "WHERE kind = ? AND id = ?",
            (kind, record_id),
        )
        if not rows or (user_id is not None and rows[0][2] != user_id):
            return None
        return q.row_to_record(rows[0])

    def query_records(
        self,
        kind: str,
        user_id: str | None = None,
        *,
        where: Mapping[str, RecordValue] | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        sql, params = q.record_query(kind, user_id, check_where(where), limit, newest_first)
        return [q.row_to_record(r) for r in self._read(sql, params)]

    def record_page(
        self,
        kind: str,
        user_id: str,
        *,
        before: tuple[str, str] | None = None,
        limit: int = 50,
    ) -> list[Record]:
        # one range of records_user (user_id, kind, created_at), the id breaking ties
        sql = (
            f"SELECT {q.REC_COLS} FROM records INDEXED BY records_user "
            "WHERE user_id = ? AND kind = ?"
        )
        params: list[object] = [user_id, kind]
        if before is not None:
            sql += " AND (created_at, id) < (?, ?)"
            params += [before[0], before[1]]
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
        params.append(max(int(limit), 0))
        return [q.row_to_record(r) for r in self._read(sql, params)]

    def count_records(self, kind: str, user_id: str | None = None) -> int:
        if user_id is None:
            return int(self._read("SELECT COUNT(*) FROM records WHERE kind = ?", (kind,))[0][0])
        rows = self._read(
            "SELECT COUNT(*) FROM records WHERE kind = ? AND user_id = ?", (kind, user_id)
        )
        return int(rows[0][0])

    def delete_records(self, kind: str, ids: Sequence[str], user_id: str) -> int:
        with self._tx(messages=False) as c:
            return sum(
                c.execute(
                    "DELETE FROM records WHERE kind = ? AND id = ? AND user_id = ?",
                    (kind, rid, user_id),
                ).rowcount
                for rid in ids
            )

    # -- store metadata -------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM lgm_meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._tx(messages=False) as c:
            c.execute(q.SET_META, (key, value))

    # -- lifecycle ------------------------------------------------------------------------
    def delete_messages(
        self, user_id: str, ids: Sequence[str], cache_hashes: Sequence[str] = ()
    ) -> list[Message]:
        gone: list[Message] = []
        with self._tx() as c:
            for mid in dict.fromkeys(ids):
                row = c.execute(
                    f"SELECT {q.MSG_COLS}, pos, n_terms, terms FROM messages "
                    "WHERE user_id = ? AND id = ?",
                    (user_id, mid),
                ).fetchone()
                if row is None:
                    continue
                msg = q.row_to_message(row[:-3])
                pos, n_terms, waiting = row[-3:]
                if waiting is None:  # its postings are written: deleted by key
                    terms = set(tokenize(index_text(msg)))
                    removed = sum(
                        c.execute(
                            "DELETE FROM postings WHERE user_id = ? AND term = ? AND seq = ?",
                            (user_id, term, msg.seq),
                        ).rowcount
                        for term in terms
                    )
                    if removed != len(terms):
                        c.execute(
                            "DELETE FROM postings WHERE user_id = ? AND seq = ?", (user_id, msg.seq)
                        )
                c.execute(
                    "UPDATE user_stats SET n_docs = n_docs - 1, total_len = total_len - ? "
                    "WHERE user_id = ?",
                    (n_terms, user_id),
                )
                c.execute("DELETE FROM vectors WHERE seq = ?", (msg.seq,))
                c.execute("DELETE FROM messages WHERE seq = ?", (msg.seq,))
                c.execute(  # the session's later messages close the gap (neighbours)
                    "UPDATE messages SET pos = pos - 1 "
                    "WHERE user_id = ? AND session_id = ? AND pos > ?",
                    (user_id, msg.session_id, pos),
                )
                gone.append(msg)
            c.execute("DELETE FROM user_stats WHERE user_id = ? AND n_docs <= 0", (user_id,))
            c.executemany(
                "DELETE FROM embedding_cache WHERE hash = ?", [(h,) for h in cache_hashes]
            )
        if gone:
            with self._lock:
                self._vectors.pop(user_id, None)
                if self._postings is not None:
                    self._postings.drop(user_id)
        return gone

    def compact(self) -> None:
        """Rebuild the file and empty the WAL, so no stale copy of a deleted cell remains
        (``secure_delete`` zeroes deleted cells, but b-tree rebalancing can leave copies
        of index keys in free space)."""
        with self._lock:
            self._conn.execute("VACUUM")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def delete_user(self, user_id: str, cache_hashes: Sequence[str] = ()) -> int:
        with self._tx() as c:
            n = c.execute("DELETE FROM messages WHERE user_id = ?", (user_id,)).rowcount
            rows = n + sum(
                c.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,)).rowcount
                for table in ("postings", "vectors", "user_stats", "records", "entry_index")
            )
            c.executemany(
                "DELETE FROM embedding_cache WHERE hash = ?", [(h,) for h in cache_hashes]
            )
        with self._lock:
            self._vectors.pop(user_id, None)
        if rows:  # nothing deleted: nothing rewritten
            self.compact()
        return int(n)

    def stats(self, user_id: str | None = None) -> BackendStats:
        where, params = ("WHERE user_id = ?", (user_id,)) if user_id is not None else ("", ())
        n, emb, users = self._read(
            "SELECT COUNT(*), COALESCE(SUM(embedded = 1), 0), COUNT(DISTINCT user_id) "
            f"FROM messages "
            f"{where}",
            params,
        )[0]
        sessions = self._read(
            f"SELECT COUNT(*) FROM (SELECT DISTINCT user_id, session_id FROM messages {where})",
            params,
        )[0][0]
        return BackendStats(int(n), int(emb), int(sessions), int(users))

    def users(self) -> list[str]:
        return [r[0] for r in self._read("SELECT DISTINCT user_id FROM messages ORDER BY 1")]
