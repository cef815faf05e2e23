"""SQLite backend (the default): one file under the memory path, WAL mode.

Messages, posting lists, vectors and the embedding cache live in one database
file. Vector search keeps an in-process numpy matrix per user, refreshed
incrementally from the file, so other processes' writes are seen.
``secure_delete`` is on, and ``delete_user`` vacuums the file and truncates the
WAL, so a deleted user leaves no bytes in the file.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import numpy as np

from ..records import Message, Record
from ..retrieval.bm25 import bm25_arrays
from ..retrieval.postings_cache import PostingCache
from ..retrieval.vectors import VectorMatrix
from .base import BackendStats, MemoryBackend, Postings

__all__ = ["SQLiteBackend", "MIGRATIONS"]

#: Schema migrations; a migration's position in this list is its version.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id TEXT NOT NULL,
        id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        role TEXT NOT NULL,
        name TEXT,
        content TEXT NOT NULL,
        ts TEXT NOT NULL,
        metadata TEXT NOT NULL,
        n_terms INTEGER NOT NULL,
        pos INTEGER NOT NULL,
        embedded INTEGER NOT NULL DEFAULT 0,
        UNIQUE (user_id, id)
    );
    CREATE INDEX messages_session ON messages (user_id, session_id, pos);
    CREATE INDEX messages_pending ON messages (seq) WHERE embedded = 0;
    CREATE TABLE postings (
        user_id TEXT NOT NULL,
        term TEXT NOT NULL,
        seq INTEGER NOT NULL,
        tf INTEGER NOT NULL,
        dl INTEGER NOT NULL,
        PRIMARY KEY (user_id, term, seq)
    ) WITHOUT ROWID;
    CREATE TABLE user_stats (
        user_id TEXT PRIMARY KEY,
        n_docs INTEGER NOT NULL,
        total_len INTEGER NOT NULL
    );
    CREATE TABLE vectors (
        seq INTEGER PRIMARY KEY,
        user_id TEXT NOT NULL,
        vec BLOB NOT NULL
    );
    CREATE INDEX vectors_user ON vectors (user_id, seq);
    CREATE TABLE lgm_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE embedding_cache (
        model TEXT NOT NULL,
        hash TEXT NOT NULL,
        vec BLOB NOT NULL,
        PRIMARY KEY (model, hash)
    ) WITHOUT ROWID;
    """,
    """
    CREATE TABLE records (
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (kind, id)
    );
    CREATE INDEX records_user ON records (user_id, kind, created_at);
    """,
    # A message's terms wait in messages.terms until the worker writes its postings;
    # every message up to the lgm_meta mark has them (all of them in an older store).
    """
    ALTER TABLE messages ADD COLUMN terms TEXT;
    INSERT OR IGNORE INTO lgm_meta (key, value)
        SELECT 'postings_upto', CAST(COALESCE(MAX(seq), 0) AS TEXT) FROM messages;
    """,
]

#: lgm_meta key: every message with a seq up to this one has its postings written.
INDEXED_UPTO = "postings_upto"

_COLS = "seq, user_id, id, session_id, role, name, content, ts, metadata"
_SET_META = (
    "INSERT INTO lgm_meta (key, value) VALUES (?, ?) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


def _row_to_message(row: sqlite3.Row | tuple) -> Message:
    seq, user_id, mid, session_id, role, name, content, ts, meta = row
    return Message(
        id=mid,
        user_id=user_id,
        session_id=session_id,
        role=role,
        content=content,
        timestamp=datetime.fromisoformat(ts),
        name=name,
        metadata={} if meta == "{}" else json.loads(meta),
        seq=seq,
    )


def _row_to_record(row: tuple) -> Record:
    kind, rid, user_id, data, created, updated = row
    return Record(
        kind=kind,
        id=rid,
        user_id=user_id,
        data=json.loads(data),
        created_at=datetime.fromisoformat(created),
        updated_at=datetime.fromisoformat(updated),
    )


class SQLiteBackend(MemoryBackend):
    """SQLite storage in ``<path>/memory.sqlite3`` (or an explicit ``.sqlite3``/``.db`` file).

    Args:
        path: A directory (created if needed) or a database file path.
        posting_cache: Posting lists held in process for BM25, in postings (16 bytes
            each; least recently used lists go first). Lists are topped up with new
            messages rather than re-read per query; ``0`` reads them every time.

    Example:
        >>> import tempfile
        >>> backend = SQLiteBackend(tempfile.mkdtemp())
        >>> backend.stats().messages
        0
        >>> backend.close()
    """

    name = "sqlite"

    def __init__(self, path: str | Path, *, posting_cache: int = 4_000_000) -> None:
        p = Path(path).expanduser()
        if p.suffix in (".sqlite3", ".sqlite", ".db"):
            p.parent.mkdir(parents=True, exist_ok=True)
            self.file = p
        else:
            if p.exists() and not p.is_dir():
                raise ValueError(f"memory path {p} exists and is not a directory")
            p.mkdir(parents=True, exist_ok=True)
            self.file = p / "memory.sqlite3"
        self._lock = threading.RLock()
        self._lease_file = self.file.with_name(self.file.name + ".writer")
        self._lease_fd: int | None = None
        self._conn = sqlite3.connect(
            str(self.file), check_same_thread=False, isolation_level=None, timeout=30.0
        )
        for pragma in (
            "journal_mode=WAL",
            "synchronous=NORMAL",
            "busy_timeout=30000",
            "secure_delete=ON",
            "temp_store=MEMORY",
            # Checkpoint every ~40 MB of WAL, not every 4 MB: each checkpoint syncs the
            # file, and pages rewritten by many commits (index leaves, user_stats) are
            # copied once. add_message's commit cost fell by ~40 % at 6,000 messages.
            "wal_autocheckpoint=10000",
            "journal_size_limit=67108864",
        ):
            self._conn.execute(f"PRAGMA {pragma}")
        self._vectors: dict[str, tuple[VectorMatrix, int]] = {}
        # When each user's cached matrix was last checked against the file: the
        # file's data_version (moves when another connection commits) and this
        # connection's count of write transactions touching messages or vectors. Both
        # unchanged: nothing to check.
        self._checked: dict[str, tuple[int, int]] = {}
        self._writes = 0
        self._postings = PostingCache(posting_cache) if posting_cache > 0 else None
        self._closed = False
        self.setup()

    # -- plumbing -------------------------------------------------------------------------
    @contextmanager
    def _tx(self, *, messages: bool = True) -> Iterator[sqlite3.Connection]:
        """A write transaction; ``messages=False`` for one that leaves messages, postings
        and vectors alone (records, meta, the embedding cache): it does not make the
        cached vector matrices and posting lists check the file again."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the memory backend is closed")
            self._conn.execute("BEGIN IMMEDIATE")
            if messages:
                self._writes += 1
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _read(self, sql: str, params: Sequence[object] = ()) -> list[tuple]:
        with self._lock:
            if self._closed:
                raise RuntimeError("the memory backend is closed")
            return self._conn.execute(sql, params).fetchall()

    def setup(self) -> None:
        """Run pending migrations (idempotent; safe with concurrent processes)."""
        with self._tx() as c:
            c.execute("CREATE TABLE IF NOT EXISTS lgm_migrations (v INTEGER PRIMARY KEY)")
            row = c.execute("SELECT MAX(v) FROM lgm_migrations").fetchone()
            current = -1 if row[0] is None else int(row[0])
            for version in range(current + 1, len(MIGRATIONS)):
                for stmt in MIGRATIONS[version].split(";"):
                    if stmt.strip():
                        c.execute(stmt)
                c.execute("INSERT INTO lgm_migrations (v) VALUES (?)", (version,))

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
                f"SELECT {_COLS} FROM messages WHERE user_id = ? AND id = ?",
                (msg.user_id, msg.id),
            ).fetchone()
            if row is not None:
                existing = _row_to_message(row)
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

    def index_pending(self, limit: int = 4096) -> int:
        """Write the postings of up to ``limit`` messages waiting for them, oldest first,
        in one transaction (see :meth:`insert_message`)."""
        upto, top = self._read(
            "SELECT (SELECT value FROM lgm_meta WHERE key = ?), (SELECT MAX(seq) FROM messages)",
            (INDEXED_UPTO,),
        )[0]
        if top is None or int(top) <= int(upto or 0):
            return 0
        with self._tx() as c:
            upto = self._indexed_upto(c)
            rows = c.execute(
                "SELECT seq, user_id, terms, n_terms FROM messages WHERE seq > ? "
                "ORDER BY seq LIMIT ?",
                (upto, max(int(limit), 1)),
            ).fetchall()
            if not rows:
                return 0
            postings = [
                (user_id, term, seq, tf, n_terms)
                for seq, user_id, terms, n_terms in rows
                if terms is not None  # None: written with its postings (an older version)
                for term, tf in json.loads(terms).items()
            ]
            postings.sort()  # b-tree order: each index page is written once
            c.executemany(
                "INSERT INTO postings (user_id, term, seq, tf, dl) VALUES (?, ?, ?, ?, ?)",
                postings,
            )
            last = int(rows[-1][0])
            c.execute(
                "UPDATE messages SET terms = NULL WHERE seq > ? AND seq <= ? AND terms IS NOT NULL",
                (upto, last),
            )
            c.execute(_SET_META, (INDEXED_UPTO, str(last)))
        return len(rows)

    @staticmethod
    def _indexed_upto(c: sqlite3.Connection) -> int:
        row = c.execute("SELECT value FROM lgm_meta WHERE key = ?", (INDEXED_UPTO,)).fetchone()
        return int(row[0]) if row else 0

    @classmethod
    def _unindexed(
        cls, c: sqlite3.Connection, user_id: str
    ) -> tuple[int, list[tuple[int, dict[str, int], int]]]:
        """The postings mark, and the user's messages past it that still hold their terms
        as ``(seq, {term: tf}, length)`` in seq order (caller holds a transaction)."""
        upto = cls._indexed_upto(c)
        rows = c.execute(
            "SELECT seq, terms, n_terms FROM messages WHERE seq > ? AND +user_id = ? "
            "AND terms IS NOT NULL ORDER BY seq",
            (upto, user_id),
        ).fetchall()
        return upto, [(int(seq), json.loads(terms), int(n)) for seq, terms, n in rows]

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
                f"SELECT {_COLS} FROM messages WHERE +user_id = ? AND seq IN ({marks})",
                (user_id, *chunk),
            ):
                out[row[0]] = _row_to_message(row)
        return out

    def get_message(self, user_id: str, message_id: str) -> Message | None:
        rows = self._read(
            f"SELECT {_COLS} FROM messages WHERE user_id = ? AND id = ?", (user_id, message_id)
        )
        return _row_to_message(rows[0]) if rows else None

    def session_messages(
        self, user_id: str, session_id: str, *, last: int | None = None
    ) -> list[Message]:
        if last is None:
            rows = self._read(
                f"SELECT {_COLS} FROM messages WHERE user_id = ? AND session_id = ? ORDER BY seq",
                (user_id, session_id),
            )
        else:
            rows = self._read(
                f"SELECT {_COLS} FROM messages WHERE user_id = ? AND session_id = ? "
                "ORDER BY seq DESC LIMIT ?",
                (user_id, session_id, max(last, 0)),
            )[::-1]
        return [_row_to_message(r) for r in rows]

    def neighbors(self, user_id: str, seq: int, window: int) -> list[Message]:
        return self.neighbors_many(user_id, [seq], window).get(seq, [])

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
        cols = ", ".join(f"m.{c.strip()}" for c in _COLS.split(","))
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
                msg = seen[row[1]] = _row_to_message(row[1:])
            out[row[0]].append(msg)
        return out

    def iter_messages(self, user_id: str) -> list[Message]:
        rows = self._read(
            f"SELECT {_COLS} FROM messages WHERE user_id = ? ORDER BY seq", (user_id,)
        )
        return [_row_to_message(r) for r in rows]

    # -- vectors --------------------------------------------------------------------------
    def pending_embeddings(self, limit: int) -> list[Message]:
        rows = self._read(
            f"SELECT {_COLS} FROM messages WHERE embedded = 0 ORDER BY seq LIMIT ?", (limit,)
        )
        return [_row_to_message(r) for r in rows]

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

    def _file_version(self) -> tuple[int, int]:
        """Moves whenever the file may have changed: its ``data_version`` (another
        connection committed) and this connection's count of write transactions."""
        return self._read("PRAGMA data_version")[0][0], self._writes

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
            matrix = VectorMatrix(len(rows[0][1]) // 4)
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

    # -- lexical --------------------------------------------------------------------------
    def postings(self, user_id: str, terms: Sequence[str]) -> Postings:
        if not terms:
            return Postings({}, 0, 0, {})
        marks = ",".join("?" * len(terms))
        with self._lock:  # one snapshot: counts and posting lists must agree
            if self._closed:
                raise RuntimeError("the memory backend is closed")
            self._conn.execute("BEGIN")
            try:
                stats = self._conn.execute(
                    "SELECT n_docs, total_len FROM user_stats WHERE user_id = ?", (user_id,)
                ).fetchall()
                rows = self._conn.execute(
                    "SELECT term, seq, tf, dl FROM postings "
                    f"WHERE user_id = ? AND term IN ({marks})",
                    (user_id, *terms),
                ).fetchall()
                _, waiting = self._unindexed(self._conn, user_id)
            finally:
                self._conn.execute("COMMIT")
        if not stats:
            return Postings({}, 0, 0, {})
        lists: dict[str, list[tuple[int, int]]] = {t: [] for t in terms}
        doc_len: dict[int, int] = {}
        for term, seq, tf, dl in rows:
            lists[term].append((seq, tf))
            doc_len[seq] = dl
        for seq, counts, dl in waiting:  # stored, postings not written yet
            for term in terms:
                if term in counts:
                    lists[term].append((seq, counts[term]))
                    doc_len[seq] = dl
        return Postings(lists, int(stats[0][0]), int(stats[0][1]), doc_len)

    def lexical_search(
        self,
        user_id: str,
        terms: Sequence[str],
        k: int,
        allowed: set[int] | None = None,
        *,
        k1: float = 1.2,
        b: float = 0.75,
    ) -> list[tuple[int, float]]:
        """Exact BM25 over posting lists cached in process (topped up, not re-read).

        Same results as reading every list (``postings``): the lists are whole, and the
        scores come from the same arithmetic (:func:`~.bm25.bm25_arrays`).
        """
        if self._postings is None:
            return super().lexical_search(user_id, terms, k, allowed, k1=k1, b=b)
        counts = Counter(terms)
        if not counts or k <= 0:
            return []
        with self._lock:  # one snapshot: counts and posting lists must agree
            if self._closed:
                raise RuntimeError("the memory backend is closed")
            self._conn.execute("BEGIN")
            try:
                got = self._cached_lists(user_id, list(counts))
            finally:
                self._conn.execute("COMMIT")
        if got is None:
            return []
        lists, n_docs, total_len = got
        ranked = bm25_arrays(
            lists,
            n_docs=n_docs,
            avg_len=total_len / n_docs,
            query_counts=counts,
            k1=k1,
            b=b,
            top=k if allowed is None else None,
        )
        if allowed is not None:
            ranked = [(s, v) for s, v in ranked if s in allowed]
        return ranked[:k]

    def _cached_lists(
        self, user_id: str, terms: list[str]
    ) -> tuple[dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]], int, int] | None:
        """Whole posting lists of ``terms`` from the cache, brought up to date (caller
        holds the lock inside a read transaction)."""
        assert self._postings is not None
        cache, c = self._postings, self._conn
        stats = c.execute(
            "SELECT n_docs, total_len FROM user_stats WHERE user_id = ?", (user_id,)
        ).fetchall()
        if not stats or not stats[0][0]:
            cache.drop(user_id)
            return None
        n_docs, total_len = int(stats[0][0]), int(stats[0][1])
        version = self._file_version()
        entry = cache.peek(user_id)
        if entry is None or entry.version != version:
            row = c.execute(  # newest first by rowid: stops at the user's last message
                "SELECT seq FROM messages WHERE +user_id = ? ORDER BY seq DESC LIMIT 1",
                (user_id,),
            ).fetchone()
            max_seq = int(row[0]) if row else 0
            if entry is not None:
                added = c.execute(
                    "SELECT COUNT(*) FROM messages WHERE seq > ? AND +user_id = ?",
                    (entry.max_seq, user_id),
                ).fetchone()[0]
                if entry.n_docs + int(added) != n_docs:  # not only additions: start over
                    entry = None
            if entry is None:
                entry = cache.user(user_id, n_docs=n_docs, max_seq=max_seq, version=version)
            entry.n_docs, entry.max_seq, entry.version = n_docs, max_seq, version
        # Lists are cached as far as postings are written (the mark); the terms of later
        # messages are added per query, not cached.
        upto, waiting = self._unindexed(c, user_id)
        out: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for term in terms:
            lst = cache.get(user_id, term)
            if lst is None:
                rows = self._posting_rows(user_id, term, 0, upto)
                lst = cache.put(user_id, term, *rows, upto=upto)
            elif lst.upto < upto:
                rows = self._posting_rows(user_id, term, lst.upto, upto)
                lst.extend(*rows, upto=upto)
                cache.grew(lst, len(rows[0]))
            got = (lst.seqs, lst.tfs, lst.dls)
            extra = [(seq, counts[term], dl) for seq, counts, dl in waiting if term in counts]
            if extra:
                more = np.asarray(extra, dtype=np.int64)
                got = tuple(  # type: ignore[assignment]
                    np.concatenate([have, more[:, i].astype(have.dtype)])
                    for i, have in enumerate(got)
                )
            out[term] = got
        return out, n_docs, total_len

    def _posting_rows(
        self, user_id: str, term: str, after: int, upto: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        # One text of "seq,tf,dl,..." parsed by numpy: a Python tuple per posting cost
        # ~1.5 us, and a cold list of a common term holds tens of thousands.
        text = self._conn.execute(
            "SELECT group_concat(seq || ',' || tf || ',' || dl, ',') FROM (SELECT seq, tf, dl "
            "FROM postings WHERE user_id = ? AND term = ? AND seq > ? AND seq <= ? "
            "ORDER BY seq)",
            (user_id, term, after, upto),
        ).fetchone()[0]
        if not text:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        arr = np.fromstring(text, dtype=np.int64, sep=",").reshape(-1, 3)
        if len(arr) > 1 and not bool(np.all(arr[1:, 0] > arr[:-1, 0])):
            arr = arr[np.argsort(arr[:, 0], kind="stable")]  # SQLite does not promise the order
        return arr[:, 0], arr[:, 1], arr[:, 2]

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
            c.executemany(  # in key order: each b-tree page is visited once per batch
                "INSERT OR REPLACE INTO embedding_cache (model, hash, vec) VALUES (?, ?, ?)",
                [
                    (model, h, np.asarray(vectors[h], dtype=np.float32).tobytes())
                    for h in sorted(vectors)
                ],
            )

    # -- records --------------------------------------------------------------------------
    def put_record(self, record: Record) -> None:
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
                    json.dumps(record.data, ensure_ascii=False),
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
        return _row_to_record(rows[0])

    def list_records(self, kind: str, user_id: str | None = None) -> list[Record]:
        sql = "SELECT kind, id, user_id, data, created_at, updated_at FROM records WHERE kind = ?"
        params: tuple[str, ...] = (kind,)
        if user_id is not None:
            sql += " AND user_id = ?"
            params += (user_id,)
        return [_row_to_record(r) for r in self._read(sql + " ORDER BY created_at, id", params)]

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
            c.execute(_SET_META, (key, value))

    # -- lifecycle ------------------------------------------------------------------------
    def delete_user(self, user_id: str, cache_hashes: Sequence[str] = ()) -> int:
        with self._tx() as c:
            n = c.execute("DELETE FROM messages WHERE user_id = ?", (user_id,)).rowcount
            c.execute("DELETE FROM postings WHERE user_id = ?", (user_id,))
            c.execute("DELETE FROM vectors WHERE user_id = ?", (user_id,))
            c.execute("DELETE FROM user_stats WHERE user_id = ?", (user_id,))
            c.execute("DELETE FROM records WHERE user_id = ?", (user_id,))
            c.executemany(
                "DELETE FROM embedding_cache WHERE hash = ?", [(h,) for h in cache_hashes]
            )
        with self._lock:
            self._vectors.pop(user_id, None)
            # secure_delete zeroes deleted cells, but b-tree rebalancing can leave stale
            # copies of index keys in free space: rebuild the file so nothing remains.
            self._conn.execute("VACUUM")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return int(n)

    def stats(self, user_id: str | None = None) -> BackendStats:
        where, params = ("WHERE user_id = ?", (user_id,)) if user_id is not None else ("", ())
        n, emb, users = self._read(
            f"SELECT COUNT(*), COALESCE(SUM(embedded), 0), COUNT(DISTINCT user_id) FROM messages "
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

    @contextmanager
    def writer_lease(self) -> Iterator[bool]:
        """An exclusive ``flock`` on ``<database>.writer`` (see
        :meth:`MemoryBackend.writer_lease`); where ``fcntl`` is missing (Windows), always
        leased: one writing process per store there."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            yield True
            return
        with self._lock:
            if self._closed:
                raise RuntimeError("the memory backend is closed")
            if self._lease_fd is None:
                self._lease_fd = os.open(self._lease_file, os.O_RDWR | os.O_CREAT, 0o600)
            fd = self._lease_fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            with self._lock:
                if self._lease_fd == fd:  # close() meanwhile released it with the file
                    fcntl.flock(fd, fcntl.LOCK_UN)

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()
                if self._lease_fd is not None:
                    os.close(self._lease_fd)
                    self._lease_fd = None
