"""Deleting from :class:`~.backend.PostgresBackend`: one user's messages (their rows,
vectors, term statistics and the session positions after them) or a whole user.

Both take the user's advisory lock, then the message rows (waiting for a claimer that
holds some, see :mod:`~langgraph_memory.storage.postgres.queue`), so they never deadlock
with a claim; one the server still picks as a deadlock victim (against another writer of
the same rows) is run again, whole.

A deleted row is gone for every query, but PostgreSQL keeps its bytes in the table's
files until a ``VACUUM`` lets new rows reuse the space, and in its write-ahead log and
any backup: erasing those is the server operator's part.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from langgraph_memory.core.records import Message
from langgraph_memory.storage.postgres import sql as q
from langgraph_memory.storage.postgres.conn import PostgresConnection

__all__ = ["PostgresDeletion"]

T = TypeVar("T")


class PostgresDeletion(PostgresConnection):
    """``delete_messages`` and ``delete_user`` of the PostgreSQL store."""

    def _again_on_deadlock(self, fn: Callable[[], T]) -> T:
        """Run a whole deletion transaction, again when the server chose it as a deadlock
        victim (it was rolled back whole: running it again is safe); three tries."""
        for attempt in range(3):
            try:
                return fn()
            except self._pg.errors.DeadlockDetected:
                if attempt == 2:
                    raise
                time.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")  # pragma: no cover

    def delete_messages(
        self, user_id: str, ids: Sequence[str], cache_hashes: Sequence[str] = ()
    ) -> list[Message]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        return self._again_on_deadlock(lambda: self._delete_messages(user_id, ids, cache_hashes))

    def _delete_messages(
        self, user_id: str, ids: list[str], cache_hashes: Sequence[str]
    ) -> list[Message]:
        with self._tx(user_id) as c:
            rows = c.execute(
                f"DELETE FROM lgm_messages WHERE user_id = %s AND id = ANY(%s::text[]) "
                f"RETURNING {q.MSG_COLS}, pos, n_terms, tf",
                (user_id, ids),
            ).fetchall()
            gone = [q.row_to_message(r[:-3]) for r in rows]
            if gone:
                seqs = [m.seq for m in gone]
                c.execute(
                    "DELETE FROM lgm_vectors WHERE user_id = %s AND seq = ANY(%s::bigint[])",
                    (user_id, seqs),
                )
                c.execute(
                    "UPDATE lgm_user_stats SET n_docs = n_docs - %s, total_len = total_len - %s "
                    "WHERE user_id = %s",
                    (len(gone), sum(int(r[-2]) for r in rows), user_id),
                )
                df = Counter(term for r in rows for term in (r[-1] or {}))
                if df:  # max_tf and min_len stay bounds (pruning stays exact)
                    c.execute(
                        "UPDATE lgm_term_stats AS s SET df = s.df - d.n "
                        "FROM unnest(%s::text[], %s::integer[]) AS d(term, n) "
                        "WHERE s.user_id = %s AND s.term = d.term",
                        (list(df), list(df.values()), user_id),
                    )
                    c.execute(
                        "DELETE FROM lgm_term_stats WHERE user_id = %s AND df <= 0", (user_id,)
                    )
                c.execute(
                    "DELETE FROM lgm_user_stats WHERE user_id = %s AND n_docs <= 0", (user_id,)
                )
                # later turns close the gap, the latest deleted first (each shift once)
                shifts = sorted(
                    ((m.session_id, int(r[-3])) for m, r in zip(gone, rows, strict=True)),
                    key=lambda x: -x[1],
                )
                for session_id, pos in shifts:
                    c.execute(
                        "UPDATE lgm_messages SET pos = pos - 1 "
                        "WHERE user_id = %s AND session_id = %s AND pos > %s",
                        (user_id, session_id, pos),
                    )
            if cache_hashes:
                c.execute(
                    "DELETE FROM lgm_embedding_cache WHERE hash = ANY(%s::text[])",
                    (list(cache_hashes),),
                )
        return sorted(gone, key=lambda m: m.seq)

    def delete_user(self, user_id: str, cache_hashes: Sequence[str] = ()) -> int:
        return self._again_on_deadlock(lambda: self._delete_user(user_id, cache_hashes))

    def _delete_user(self, user_id: str, cache_hashes: Sequence[str]) -> int:
        with self._tx(user_id) as c:
            c.execute("DELETE FROM lgm_vectors WHERE user_id = %s", (user_id,))
            n = c.execute("DELETE FROM lgm_messages WHERE user_id = %s", (user_id,)).rowcount
            c.execute("DELETE FROM lgm_user_stats WHERE user_id = %s", (user_id,))
            c.execute("DELETE FROM lgm_term_stats WHERE user_id = %s", (user_id,))
            c.execute("DELETE FROM lgm_records WHERE user_id = %s", (user_id,))
            c.execute("DELETE FROM lgm_entry_index WHERE user_id = %s", (user_id,))
            if cache_hashes:
                c.execute(
                    "DELETE FROM lgm_embedding_cache WHERE hash = ANY(%s::text[])",
                    (list(cache_hashes),),
                )
        return int(n)
