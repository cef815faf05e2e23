"""The durable queue of :class:`~.backend.PostgresBackend`, shared by many workers.

A message is pending from its insert (same transaction) until its vector is stored.
Any number of processes embed at once: :meth:`PostgresQueue.embed_pending` claims the
oldest pending rows no one else holds (``SELECT ... FOR UPDATE SKIP LOCKED``), embeds
them and stores their vectors in that same transaction. A claimer that dies (or loses
its connection) mid-batch releases its claim when the server rolls the transaction
back, and the rows are claimed again by the next worker: none is lost, none embedded
twice.

Placement in the memory hierarchy is a per-message flag (``placed``, migration 3), not
a seq watermark: claims commit out of seq order, and a seq is drawn before its insert
commits, so a "placed up to seq N" mark could pass a message whose row or vector
commits later and skip it for good. :meth:`PostgresQueue.unplaced_messages` returns the
embedded messages not flagged yet, each user's only up to its oldest still-pending
message, so the one hierarchy writer (under the writer lease) still places a user's
messages in seq order; :meth:`PostgresQueue.mark_placed` flags them once they are
saved.

Lock order (no deadlock between claimers, inserts and ``delete_user``): a claim holds
only its message rows while it embeds, takes no per-user advisory lock, makes missing
vector indexes before anything else, and updates ``lgm_user_stats`` last, in user order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from langgraph_memory.core.records import Message
from langgraph_memory.storage.postgres import sql as q
from langgraph_memory.storage.postgres.conn import PostgresConnection

if TYPE_CHECKING:
    from psycopg import Connection

__all__ = ["PostgresQueue"]


class PostgresQueue(PostgresConnection):
    """Pending messages, their vectors and their placement flags (see the module docs)."""

    _indexed: set[int]  # dimensions whose HNSW index is known to exist

    def _messages(self, sql: str, params: Sequence[Any] | Mapping[str, Any]) -> list[Message]:
        rows = self._read(lambda c: c.execute(sql, params).fetchall())
        return [q.row_to_message(r) for r in rows]

    def pending_embeddings(self, limit: int) -> list[Message]:
        return self._messages(
            f"SELECT {q.MSG_COLS} FROM lgm_messages WHERE NOT embedded ORDER BY seq LIMIT %s",
            (max(int(limit), 0),),
        )

    def embed_pending(
        self, limit: int, embed: Callable[[list[Message]], np.ndarray]
    ) -> list[Message]:
        """Claim up to ``limit`` pending messages, embed them and store their vectors, all
        in one transaction; concurrent callers (threads or processes) get disjoint batches.

        See ``ClaimQueue.embed_pending``. The rows stay locked while ``embed`` runs;
        when it raises, or the connection drops, the transaction rolls back and the
        messages are pending again.
        """
        if limit <= 0:
            return []
        with self._tx() as c:
            batch = [q.row_to_message(r) for r in c.execute(q.CLAIM_PENDING, (int(limit),))]
            if not batch:
                return []
            vectors = np.asarray(embed(batch))
            made = self._write_vectors(c, _by_user(list(zip(batch, vectors, strict=True))))
        with self._lock:
            self._indexed |= made
        return batch

    def set_failed(self, user_id: str, ids: Sequence[str], failed: bool = True) -> int:
        # quarantined: failed, and out of the queue and of placement (embedded and placed
        # true) with no vector; put back: pending and unplaced again
        ids = list(dict.fromkeys(ids))
        if not ids:
            return 0
        with self._tx(user_id) as c:
            if failed:
                sql = (
                    "UPDATE lgm_messages SET embedded = true, placed = true, failed = true "
                    "WHERE user_id = %s AND id = ANY(%s::text[]) AND NOT embedded"
                )
            else:
                sql = (
                    "UPDATE lgm_messages SET embedded = false, placed = false, failed = false "
                    "WHERE user_id = %s AND id = ANY(%s::text[]) AND failed"
                )
            return int(c.execute(sql, (user_id, ids)).rowcount)

    def store_vectors(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        if not items:
            return
        by_user = _by_user(items)
        with self._tx(*by_user) as c:
            made = self._write_vectors(c, by_user)
        with self._lock:
            self._indexed |= made

    def _write_vectors(self, c: Connection, by_user: dict[str, dict[int, np.ndarray]]) -> set[int]:
        """Store vectors of messages still without one, in the transaction of ``c``;
        returns the dimensions whose HNSW index now exists."""
        rows: list[tuple[int, str, int, np.ndarray]] = []
        for user_id in sorted(by_user):
            vecs = by_user[user_id]
            done = c.execute(
                "UPDATE lgm_messages SET embedded = true WHERE user_id = %s "
                "AND seq = ANY(%s::bigint[]) AND NOT embedded RETURNING seq",
                (user_id, list(vecs)),
            ).fetchall()
            for (seq,) in sorted(done):
                vec = q.normalise(vecs[seq][None, :])[0]
                rows.append((seq, user_id, int(vec.shape[0]), vec))
        if not rows:
            return set()
        made = {dim for dim in sorted({r[2] for r in rows}) if self._ensure_index(c, dim)}
        c.cursor().executemany(
            "INSERT INTO lgm_vectors (seq, user_id, dim, vec) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (seq) DO UPDATE SET dim = EXCLUDED.dim, vec = EXCLUDED.vec",
            rows,
        )
        per_user: dict[str, int] = {}
        for _, user_id, _, _ in rows:
            per_user[user_id] = per_user.get(user_id, 0) + 1
        for user_id in sorted(per_user):
            c.execute(
                "UPDATE lgm_user_stats SET n_vectors = n_vectors + %s WHERE user_id = %s",
                (per_user[user_id], user_id),
            )
        return made

    def _ensure_index(self, c: Connection, dim: int) -> bool:
        """Make the HNSW index for vectors of ``dim`` unless it exists; True when it does."""
        with self._lock:
            if dim in self._indexed:
                return True
        if c.execute("SELECT 1 FROM lgm_vector_indexes WHERE dim = %s", (dim,)).fetchone():
            return True
        if not 0 < dim <= q.HNSW_MAX_DIM:
            return False  # exact search only
        c.execute("SELECT pg_advisory_xact_lock(%s)", (q.lock_key(q.INDEX_LOCK),))
        if c.execute("SELECT 1 FROM lgm_vector_indexes WHERE dim = %s", (dim,)).fetchone():
            return True
        name = q.hnsw_index_name(dim)
        c.execute(q.hnsw_index_sql(dim))
        c.execute("INSERT INTO lgm_vector_indexes (dim, index_name) VALUES (%s, %s)", (dim, name))
        return True

    def unplaced_messages(self, limit: int) -> list[Message]:
        return self._messages(q.UNPLACED, (max(int(limit), 0),))

    def mark_placed(self, seqs: Sequence[int]) -> None:
        seqs = sorted({int(s) for s in seqs})
        if not seqs:
            return
        with self._tx() as c:
            c.execute(
                "UPDATE lgm_messages SET placed = true WHERE seq = ANY(%s::bigint[]) AND embedded",
                (seqs,),
            )


def _by_user(items: Sequence[tuple[Message, np.ndarray]]) -> dict[str, dict[int, np.ndarray]]:
    """Vectors by user and seq; the first vector of a message wins, as on the other backends."""
    by_user: dict[str, dict[int, np.ndarray]] = {}
    for msg, vec in items:
        by_user.setdefault(msg.user_id, {}).setdefault(
            int(msg.seq), np.asarray(vec, dtype=np.float32).reshape(-1)
        )
    return by_user
