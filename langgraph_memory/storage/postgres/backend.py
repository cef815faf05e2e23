"""PostgreSQL + pgvector backend: many application workers on one server.

psycopg 3 with a connection pool; ``setup()`` runs the migrations of
:mod:`~langgraph_memory.storage.postgres.sql` (an ordered list whose index is the version, recorded
in ``lgm_migrations``) under an advisory lock, so two processes may run it at once. Every write is
one transaction and takes a per-user advisory lock, so writers of one user serialise (positions
within a session stay dense) while different users write in parallel. Many processes embed at once:
each claims a batch of pending messages with ``FOR UPDATE SKIP LOCKED`` and stores its vectors in
the claiming transaction, and a per-message ``placed`` flag feeds the hierarchy writer (see
:mod:`~langgraph_memory.storage.postgres.queue`). Lexical rankings equal the other backends' exactly
(the ``tsvector`` picks the candidates, stored term counts score them; per-term bounds skip the
messages that cannot reach the top, see :mod:`~langgraph_memory.storage.postgres.lexical`); vector
search is exact up to ``exact_search_limit`` candidate vectors and uses the HNSW index above that.

Errors: a wrong URL or a server that is down raises ``ConnectionError`` naming
the host (never the password); a server without pgvector raises ``RuntimeError``
saying how to install it; a connection found dropped by a read, or by a write before
it did anything, is retried once on a fresh one; later in a write it is reported as
``ConnectionError`` (rolled back, or its outcome unknown: nothing is dropped silently).
PostgreSQL cannot store NUL characters: text containing one raises ``ValueError``.

Example:
    >>> from langgraph_memory.storage.postgres.backend import PostgresBackend
    >>> url = "postgresql://app@localhost/app"
    >>> with PostgresBackend.from_conn_string(url) as backend:  # doctest: +SKIP
    ...     backend.stats().messages
    0
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from langgraph_memory.core.records import Message, Record
from langgraph_memory.storage.base import BackendStats, MemoryBackend
from langgraph_memory.storage.capabilities import (
    ClaimQueue,
    Postings,
    RecordValue,
    WriterLease,
    check_where,
)
from langgraph_memory.storage.postgres import sql as q
from langgraph_memory.storage.postgres.conn import snapshot
from langgraph_memory.storage.postgres.deletion import PostgresDeletion
from langgraph_memory.storage.postgres.entries import PostgresEntryIndex
from langgraph_memory.storage.postgres.lexical import LexicalTrace, TermStat, lexical_top
from langgraph_memory.storage.postgres.pages import PostgresPages
from langgraph_memory.storage.postgres.queue import PostgresQueue

if TYPE_CHECKING:
    from psycopg import Connection

__all__ = ["PostgresBackend"]


class PostgresBackend(
    PostgresEntryIndex,
    PostgresDeletion,
    PostgresQueue,
    PostgresPages,
    MemoryBackend,
    ClaimQueue,
    WriterLease,
):
    """Storage in a PostgreSQL database with the pgvector extension.

    Args:
        conninfo: A libpq URL or key/value string, e.g. ``postgresql://user:pw@host/db``.
        min_size: Connections the pool keeps open.
        max_size: Most connections the pool opens (threads beyond wait for one).
        exact_search_limit: Up to this many candidate vectors, vector search is exact
            (and equal to the other backends'); above it the HNSW index answers.
        ef_search: HNSW candidate-list size for approximate search (raised to the
            number of results asked for when that is larger).
        connect_timeout: Seconds to wait for the server when connecting.
        wait_timeout: Seconds a call waits for a connection while the server cannot be
            reached (down, restarting, or every connection busy); then it raises
            ``ConnectionError`` (a write has stored nothing: retry it). The background
            worker retries by itself and ``flush()`` goes on once the server is back.
        pool_kwargs: Extra arguments for ``psycopg_pool.ConnectionPool``.

    Raises:
        ConnectionError: When the server cannot be reached or refuses the login.
        RuntimeError: When the server has no pgvector extension (or it may not be created).
        ValueError: When ``conninfo`` is not a valid connection string.
    """

    name = "postgres"
    parallel_reads = True  # each search is a statement on its own pooled connection
    #: With up to this many ``allowed`` messages, lexical search reads them all by seq.
    ALLOWED_DIRECT = 5_000

    def __init__(
        self,
        conninfo: str,
        *,
        min_size: int = 1,
        max_size: int = 8,
        exact_search_limit: int = 20_000,
        ef_search: int = 100,
        connect_timeout: float = 10.0,
        wait_timeout: float = 10.0,
        pool_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(
            conninfo,
            min_size=min_size,
            max_size=max_size,
            connect_timeout=connect_timeout,
            wait_timeout=wait_timeout,
            pool_kwargs=pool_kwargs,
        )
        self.exact_search_limit = exact_search_limit
        self.ef_search = ef_search
        self._indexed: set[int] = set()
        #: How the latest :meth:`lexical_search` read the messages (rows, statements).
        self.last_lexical = LexicalTrace(0, 0, False)

    @classmethod
    def from_conn_string(cls, conninfo: str, **kwargs: Any) -> PostgresBackend:
        """Open a backend from a connection string; usable plainly or in a ``with``.

        Example:
            >>> url = "postgresql://user@host/db"
            >>> with PostgresBackend.from_conn_string(url) as b:  # doctest: +SKIP
            ...     b.users()
        """
        return cls(conninfo, **kwargs)

    def __enter__(self) -> PostgresBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- messages -------------------------------------------------------------------------
    def insert_message(self, msg: Message, terms: Sequence[str]) -> tuple[Message, bool]:
        from psycopg.types.json import Jsonb

        for field in ("user_id", "id", "session_id", "role", "name", "content"):
            q.reject_nul(getattr(msg, field), field)
        q.reject_nul(msg.metadata, "metadata")
        q.reject_nul(list(terms), "terms")
        counts = Counter(terms)
        ts, offset = q.to_db_time(msg.timestamp)
        with self._tx(msg.user_id) as c:
            row = c.execute(q.SELECT_BY_ID, (msg.user_id, msg.id)).fetchone()
            if row is not None:
                existing = q.row_to_message(row)
                if existing.content != msg.content or existing.session_id != msg.session_id:
                    raise ValueError(
                        f"message_id {msg.id!r} already exists for this user with other content"
                    )
                return existing, False
            inserted = c.execute(
                q.INSERT_MESSAGE,
                {
                    "user_id": msg.user_id,
                    "id": msg.id,
                    "session_id": msg.session_id,
                    "role": msg.role,
                    "name": msg.name,
                    "content": msg.content,
                    "ts": ts,
                    "ts_offset": offset,
                    "metadata": Jsonb(msg.metadata, dumps=q.json_text),
                    "n_terms": len(terms),
                    "tf": Jsonb(dict(counts), dumps=q.json_text),
                    "lexemes": q.lexemes(list(counts)),
                    "terms": list(counts),
                    "counts": list(counts.values()),
                },
            ).fetchone()
        assert inserted is not None
        stored = Message(
            id=msg.id,
            user_id=msg.user_id,
            session_id=msg.session_id,
            role=msg.role,
            content=msg.content,
            timestamp=msg.timestamp,
            name=msg.name,
            metadata=copy.deepcopy(msg.metadata),
            seq=int(inserted[0]),
        )
        return stored, True

    def get_messages(self, user_id: str, seqs: Sequence[int]) -> dict[int, Message]:
        seqs = [int(s) for s in seqs]
        if not seqs:
            return {}
        found = self._messages(
            f"SELECT {q.MSG_COLS} FROM lgm_messages WHERE user_id = %s AND seq = ANY(%s::bigint[])",
            (user_id, seqs),
        )
        return {m.seq: m for m in found}

    def get_message(self, user_id: str, message_id: str) -> Message | None:
        found = self._messages(q.SELECT_BY_ID, (user_id, message_id))
        return found[0] if found else None

    def session_messages(
        self, user_id: str, session_id: str, *, last: int | None = None
    ) -> list[Message]:
        base = f"SELECT {q.MSG_COLS} FROM lgm_messages WHERE user_id = %s AND session_id = %s"
        if last is None:
            return self._messages(base + " ORDER BY seq", (user_id, session_id))
        found = self._messages(
            base + " ORDER BY seq DESC LIMIT %s", (user_id, session_id, max(last, 0))
        )
        return found[::-1]

    def neighbors_many(
        self, user_id: str, seqs: Sequence[int], window: int
    ) -> dict[int, list[Message]]:
        seqs = list(dict.fromkeys(int(s) for s in seqs))
        out: dict[int, list[Message]] = {s: [] for s in seqs}
        if window <= 0 or not seqs:
            return out

        def run(c: Connection) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
            anchors = c.execute(
                "SELECT seq, session_id, pos FROM lgm_messages "
                "WHERE user_id = %s AND seq = ANY(%s::bigint[])",
                (user_id, seqs),
            ).fetchall()
            if not anchors:
                return [], []
            rows = c.execute(
                q.NEIGHBORS,
                {
                    "user_id": user_id,
                    "sessions": [a[1] for a in anchors],
                    "lo": [a[2] - window for a in anchors],
                    "hi": [a[2] + window for a in anchors],
                },
            ).fetchall()
            return anchors, rows

        anchors, rows = self._read(run)
        unique = list({r[0]: r for r in rows}.values())
        for seq, session, pos in anchors:
            out[seq] = [
                q.row_to_message(r)
                for r in unique
                if r[3] == session and r[0] != seq and abs(r[-1] - pos) <= window
            ]
        return out

    def iter_messages(self, user_id: str) -> list[Message]:
        return self._messages(
            f"SELECT {q.MSG_COLS} FROM lgm_messages WHERE user_id = %s ORDER BY seq", (user_id,)
        )

    def speaker_names(self, user_id: str, after: int = 0) -> tuple[set[str], int]:
        sql = (
            "SELECT name, MAX(seq) FROM lgm_messages WHERE user_id = %s AND seq > %s GROUP BY name"
        )
        rows = self._read(lambda c: c.execute(sql, (user_id, after)).fetchall())
        return {r[0] for r in rows if r[0]}, max((int(r[1]) for r in rows), default=after)

    # -- vectors (pending ones, claiming and storing: see postgres_queue) -------------------
    def vector_search(
        self, user_id: str, vector: np.ndarray, k: int, allowed: set[int] | None = None
    ) -> list[tuple[int, float]]:
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(query))
        if k <= 0 or norm == 0 or (allowed is not None and not allowed):
            return []
        unit = query / norm
        dim = int(query.shape[0])
        only = sorted(int(s) for s in allowed) if allowed is not None else None
        rows = self._read(lambda c: self._vector_candidates(c, user_id, unit, dim, k, only))
        return q.rank_by_cosine([r[0] for r in rows], [r[1] for r in rows], query, k)

    def _vector_candidates(
        self,
        c: Connection,
        user_id: str,
        unit: np.ndarray,
        dim: int,
        k: int,
        only: list[int] | None,
    ) -> list[tuple[Any, ...]]:
        from psycopg import sql

        row = c.execute(
            "SELECT n_vectors FROM lgm_user_stats WHERE user_id = %s", (user_id,)
        ).fetchone()
        n = int(row[0]) if row else 0
        if n == 0:
            return []
        size = min(n, len(only)) if only is not None else n
        limit = k + 64  # a margin so the float32 re-ranking sees every near tie
        where: sql.Composable = sql.SQL("user_id = %(u)s AND dim = %(dim)s")
        if only is not None:
            where += sql.SQL(" AND seq = ANY(%(only)s::bigint[])")
        params: dict[str, Any] = {"u": user_id, "dim": dim, "q": unit, "k": limit, "only": only}
        if size <= self.exact_search_limit:
            stmt = sql.SQL(
                "SELECT seq, vec FROM lgm_vectors WHERE {} ORDER BY vec <=> %(q)s, seq LIMIT %(k)s"
            ).format(where)
            # Binary results: parsing k + 64 vectors from text costs ~10 ms at 384 dimensions.
            return c.execute(stmt, params, binary=True).fetchall()
        with c.transaction():
            c.execute(
                "SELECT set_config('hnsw.ef_search', %s, true)",
                (str(max(self.ef_search, limit)),),
            )
            # Stale statistics can make the planner sort a btree range instead of walking
            # the HNSW index; above exact_search_limit the index is the point.
            c.execute("SELECT set_config('enable_sort', 'off', true)")
            if tuple(int(x) for x in self.pgvector_version.split(".")[:2]) >= (0, 8):
                c.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
            stmt = sql.SQL(
                "SELECT seq, vec FROM lgm_vectors WHERE {} "
                "ORDER BY vec::vector({}) <=> %(q)s::vector({}) LIMIT %(k)s"
            ).format(where, sql.Literal(dim), sql.Literal(dim))
            return c.execute(stmt, params, binary=True).fetchall()

    # -- lexical --------------------------------------------------------------------------
    def postings(self, user_id: str, terms: Sequence[str]) -> Postings:
        terms = list(dict.fromkeys(terms))
        if not terms:
            return Postings({}, 0, 0, {})
        search = [t for t in terms if "\x00" not in t]  # no stored term has a NUL
        params = {"user_id": user_id, "terms": search, "query": q.tsquery_text(search)}
        stmt = q.POSTINGS if search else q.USER_STATS
        rows = self._read(lambda c: c.execute(stmt, params).fetchall())
        stats = [r for r in rows if r[0] is None]
        if not stats:
            return Postings({}, 0, 0, {})
        lists: dict[str, list[tuple[int, int]]] = {t: [] for t in terms}
        doc_len: dict[int, int] = {}
        for seq, dl, tf, term in rows:
            if seq is not None:
                lists[term].append((int(seq), int(tf)))
                doc_len[int(seq)] = int(dl)
        for plist in lists.values():
            plist.sort()
        return Postings(lists, int(stats[0][1]), int(stats[0][2]), doc_len)

    def document_frequencies(self, user_id: str, terms: Sequence[str]) -> dict[str, int]:
        """From ``lgm_term_stats`` (no posting list is read)."""
        params = {"user_id": user_id, "terms": [t for t in terms if "\x00" not in t]}
        rows = self._read(lambda c: c.execute(q.TERM_STATS, params).fetchall())
        return {r[2]: int(r[3]) for r in rows if r[2] is not None and r[3]}

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
        """Exact BM25 top ``k``, reading only the messages that may reach it, in one
        snapshot (see :mod:`~langgraph_memory.storage.postgres.lexical`); equal to the other
        backends' bit for bit.

        With ``allowed`` of up to :attr:`ALLOWED_DIRECT` messages, those are read
        directly; a larger ``allowed`` filters the pruned reads in SQL.
        """
        if not (k1 >= 0 and 0 <= b <= 1):  # the bounds need these; plain BM25 otherwise
            return super().lexical_search(user_id, terms, k, allowed, k1=k1, b=b)
        counts = Counter(t for t in terms if "\x00" not in t)  # no stored term has a NUL
        if not counts or k <= 0 or (allowed is not None and not allowed):
            return []
        ranked, trace = self._read(
            lambda c: self._lexical_top(c, user_id, counts, k, allowed, k1, b)
        )
        self.last_lexical = trace
        return ranked

    def _lexical_top(
        self,
        c: Connection,
        user_id: str,
        counts: Counter[str],
        k: int,
        allowed: set[int] | None,
        k1: float,
        b: float,
    ) -> tuple[list[tuple[int, float]], LexicalTrace]:
        only = sorted(allowed) if allowed is not None else None
        direct = only is not None and len(only) <= self.ALLOWED_DIRECT

        def fetch(
            terms: Sequence[str], new: Sequence[tuple[int, ...]], old: Sequence[tuple[int, ...]]
        ) -> list[tuple[Any, ...]]:
            if only is not None and direct:  # the allowed messages holding a term, at once
                sql, params = q.allowed_rows(user_id, terms, only)
            else:
                sql, params = q.region_rows(user_id, terms, new, old, only)
            return c.execute(sql, params, binary=True).fetchall()

        with snapshot(c, "REPEATABLE READ, READ ONLY"):  # totals, term statistics, reads agree
            rows = c.execute(q.TERM_STATS, {"user_id": user_id, "terms": list(counts)}).fetchall()
            if not rows or not rows[0][0]:
                return [], LexicalTrace(0, 0, False)
            return lexical_top(
                counts,
                {r[2]: TermStat(int(r[3]), int(r[4]), int(r[5])) for r in rows if r[3]},
                n_docs=int(rows[0][0]),
                total_len=int(rows[0][1]),
                k=k,
                fetch=fetch,
                prune=not direct,
                k1=k1,
                b=b,
            )

    # -- cache ----------------------------------------------------------------------------
    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        hashes = list(hashes)
        if not hashes:
            return {}
        rows = self._read(
            lambda c: c.execute(
                "SELECT hash, vec FROM lgm_embedding_cache "
                "WHERE model = %s AND hash = ANY(%s::text[])",
                (model, hashes),
            ).fetchall()
        )
        return {h: np.frombuffer(blob, dtype=np.float32).copy() for h, blob in rows}

    def cache_put(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        if not vectors:
            return
        q.reject_nul([model, *vectors], "embedding cache key")
        # in key order: two processes caching the same texts lock their index entries in
        # one order (in any other order they deadlocked)
        keys = sorted(vectors)
        with self._tx() as c:
            c.execute(
                "INSERT INTO lgm_embedding_cache (model, hash, vec) "
                "SELECT %s, h, v FROM unnest(%s::text[], %s::bytea[]) AS x(h, v) "
                "ON CONFLICT (model, hash) DO UPDATE SET vec = EXCLUDED.vec",
                (
                    model,
                    keys,
                    [np.asarray(vectors[h], dtype=np.float32).tobytes() for h in keys],
                ),
            )

    # -- records --------------------------------------------------------------------------
    def put_record(self, record: Record) -> None:
        from psycopg.types.json import Jsonb

        for field in ("kind", "id", "user_id"):
            q.reject_nul(getattr(record, field), field)
        q.reject_nul(record.data, "data")
        created, c_off = q.to_db_time(record.created_at)
        updated, u_off = q.to_db_time(record.updated_at)
        with self._tx(record.user_id) as c:
            row = c.execute(
                q.UPSERT_RECORD,
                (
                    record.kind,
                    record.id,
                    record.user_id,
                    Jsonb(record.data, dumps=q.json_text),
                    created,
                    c_off,
                    updated,
                    u_off,
                ),
            ).fetchone()
            if row is None:
                raise ValueError(f"{record.kind} {record.id!r} belongs to another user")

    def get_record(self, kind: str, record_id: str, user_id: str | None = None) -> Record | None:
        rows = self._read(
            lambda c: c.execute(
                f"SELECT {q.REC_COLS} FROM lgm_records WHERE kind = %s AND id = %s",
                (kind, record_id),
            ).fetchall()
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
        from psycopg.types.json import Jsonb

        cond = check_where(where)
        q.reject_nul(cond, "where")
        indexed = [n for n in q.RECORD_FIELD_INDEXES if isinstance(cond.get(n), str)]
        sql, params = q.record_query(kind, user_id, bool(cond), limit, newest_first, indexed)
        if cond:  # jsonb containment: equal values of the same JSON type
            at = 2 if user_id is not None else 1
            params[at:at] = [Jsonb(cond, dumps=q.json_text), *(cond[n] for n in indexed)]
        rows = self._read(lambda c: c.execute(sql, params).fetchall())
        return [q.row_to_record(r) for r in rows]

    def count_records(self, kind: str, user_id: str | None = None) -> int:
        sql = "SELECT COUNT(*) FROM lgm_records WHERE kind = %s"
        params: tuple[str, ...] = (kind,)
        if user_id is not None:
            sql += " AND user_id = %s"
            params += (user_id,)
        row = self._read(lambda c: c.execute(sql, params).fetchone())
        return int(row[0]) if row else 0

    def delete_records(self, kind: str, ids: Sequence[str], user_id: str) -> int:
        if not ids:
            return 0
        with self._tx(user_id) as c:
            cur = c.execute(
                "DELETE FROM lgm_records WHERE kind = %s AND user_id = %s AND id = ANY(%s::text[])",
                (kind, user_id, list(dict.fromkeys(ids))),
            )
            return int(cur.rowcount)

    # -- store metadata -------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self._read(
            lambda c: c.execute("SELECT value FROM lgm_meta WHERE key = %s", (key,)).fetchone()
        )
        return str(row[0]) if row else None

    def set_meta(self, key: str, value: str) -> None:
        q.reject_nul([key, value], "meta")
        with self._tx() as c:
            c.execute(
                "INSERT INTO lgm_meta (key, value) VALUES (%s, %s) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (key, value),
            )

    # -- lifecycle ------------------------------------------------------------------------
    def stats(self, user_id: str | None = None) -> BackendStats:
        where, params = ("WHERE user_id = %s", (user_id,)) if user_id is not None else ("", ())
        row = self._read(
            lambda c: c.execute(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE embedded AND NOT failed), "
                f"COUNT(DISTINCT (user_id, session_id)), COUNT(DISTINCT user_id) FROM lgm_messages "
                f"{where}",
                params,
            ).fetchone()
        )
        assert row is not None
        return BackendStats(int(row[0]), int(row[1]), int(row[2]), int(row[3]))

    def users(self) -> list[str]:
        rows = self._read(
            lambda c: c.execute(
                "SELECT user_id FROM lgm_user_stats WHERE n_docs > 0 ORDER BY user_id"
            ).fetchall()
        )
        return [r[0] for r in rows]
