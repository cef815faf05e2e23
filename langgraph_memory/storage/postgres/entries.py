"""The long-term entry index on :class:`~langgraph_memory.storage.postgres.backend.PostgresBackend`.

One row per entry in ``lgm_entry_index`` (migration 4): its text, term counts and display fields
(``jsonb``), its float32 vector (``bytea``) and the revision of its last change, drawn from the
``lgm_entry_rev`` sequence. Every write of the index holds one transaction-scoped advisory lock
(:data:`~langgraph_memory.storage.postgres.sql.ENTRY_LOCK`), so revisions commit in the order they
were drawn: a reader that has seen revision ``r`` never later finds a new change below it, whichever
process wrote. ``(user_id, rev)`` is indexed: reading what changed since a revision costs what
changed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from langgraph_memory.storage.capabilities import EntryIndex, IndexedEntry
from langgraph_memory.storage.entries_records import BUILT_KEY
from langgraph_memory.storage.postgres import sql as q
from langgraph_memory.storage.postgres.conn import PostgresConnection, snapshot

if TYPE_CHECKING:
    from psycopg import Connection

__all__ = ["PostgresEntryIndex"]

_COLS = "key, text, terms, doc, hash, vec, rev"


def _row(row: Sequence[Any]) -> IndexedEntry:
    key, text, terms, doc, digest, vec, rev = row
    return IndexedEntry(
        key,
        text,
        dict(terms),
        dict(doc),
        digest,
        None if vec is None else np.frombuffer(bytes(vec), dtype=np.float32).copy(),
        int(rev),
    )


def _lock(c: Connection) -> None:
    c.execute("SELECT pg_advisory_xact_lock(%s)", (q.lock_key(q.ENTRY_LOCK),))


def _rev(c: Connection) -> int:
    row = c.execute("SELECT nextval('lgm_entry_rev')").fetchone()
    assert row is not None
    return int(row[0])


class PostgresEntryIndex(PostgresConnection, EntryIndex):
    """:class:`~..capabilities.EntryIndex` in the ``lgm_entry_index`` table."""

    def put_entries(self, user_id: str, entries: Sequence[IndexedEntry]) -> int:
        if not entries:
            return 0
        n = 0
        with self._tx() as c:
            _lock(c)
            for e in entries:
                old = c.execute(
                    "SELECT text, hash FROM lgm_entry_index WHERE user_id = %s AND key = %s",
                    (user_id, e.key),
                ).fetchone()
                if old is None and e.text is None:
                    continue
                if old is not None and old[0] == e.text and old[1] == e.hash:
                    continue
                if e.text is None:
                    c.execute(
                        "UPDATE lgm_entry_index SET rev = %s, text = NULL, terms = '{}', "
                        "doc = '{}', hash = '', vec = NULL WHERE user_id = %s AND key = %s",
                        (_rev(c), user_id, e.key),
                    )
                else:
                    keep = old is not None and old[0] == e.text
                    vec = None if e.vector is None else np.asarray(e.vector, np.float32).tobytes()
                    c.execute(
                        "INSERT INTO lgm_entry_index"
                        " (user_id, key, rev, text, terms, doc, hash, vec)"
                        " VALUES (%s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s)"
                        " ON CONFLICT (user_id, key) DO UPDATE SET rev = excluded.rev,"
                        " text = excluded.text, terms = excluded.terms, doc = excluded.doc,"
                        " hash = excluded.hash,"
                        f" vec = {'lgm_entry_index.vec' if keep else 'excluded.vec'}",
                        (
                            user_id,
                            e.key,
                            _rev(c),
                            e.text,
                            json.dumps(e.terms, ensure_ascii=False),
                            json.dumps(e.doc, ensure_ascii=False),
                            e.hash,
                            vec,
                        ),
                    )
                n += 1
        return n

    def entries_since(self, user_id: str, rev: int) -> tuple[int, list[IndexedEntry]]:
        def read(c: Connection) -> tuple[Any, list[Any]]:
            with snapshot(c, "REPEATABLE READ"):  # one snapshot for both statements
                marker = c.execute(
                    "SELECT rev FROM lgm_entry_index WHERE user_id = %s AND key = %s",
                    (user_id, BUILT_KEY),
                ).fetchone()
                rows = c.execute(
                    f"SELECT {_COLS} FROM lgm_entry_index WHERE user_id = %s AND rev > %s "
                    "ORDER BY rev",
                    (user_id, rev),
                ).fetchall()
            return marker, rows

        marker, rows = self._read(read)
        gen = 0 if marker is None else int(marker[0])
        return gen, [_row(r) for r in rows if r[0] != BUILT_KEY]

    def mark_entries_built(self, user_id: str) -> int:
        with self._tx() as c:
            _lock(c)
            rev = _rev(c)
            c.execute(
                "INSERT INTO lgm_entry_index (user_id, key, rev, text, terms, doc, hash)"
                " VALUES (%s, %s, %s, NULL, '{}', '{}', '')"
                " ON CONFLICT (user_id, key) DO UPDATE SET rev = excluded.rev",
                (user_id, BUILT_KEY, rev),
            )
        return rev

    def pending_entries(self, limit: int) -> list[tuple[str, IndexedEntry]]:
        rows = self._read(
            lambda c: c.execute(
                f"SELECT user_id, {_COLS} FROM lgm_entry_index "
                "WHERE vec IS NULL AND text IS NOT NULL ORDER BY rev LIMIT %s",
                (int(limit),),
            ).fetchall()
        )
        return [(r[0], _row(r[1:])) for r in rows]

    def store_entry_vectors(self, items: Sequence[tuple[str, str, str, np.ndarray]]) -> int:
        if not items:
            return 0
        n = 0
        with self._tx() as c:
            _lock(c)
            for user_id, key, digest, vector in items:
                cur = c.execute(
                    "UPDATE lgm_entry_index SET vec = %s, rev = nextval('lgm_entry_rev') "
                    "WHERE user_id = %s AND key = %s AND hash = %s AND text IS NOT NULL",
                    (np.asarray(vector, np.float32).tobytes(), user_id, key, digest),
                )
                n += cur.rowcount
        return n
