"""The long-term entry index on :class:`~langgraph_memory.storage.sqlite.backend.SQLiteBackend`.

One row per entry in ``entry_index`` (its text, term counts and display fields as
JSON, its float32 vector), keyed by ``(user_id, key)``, with the store-wide revision
of its last change. Revisions are given inside ``BEGIN IMMEDIATE`` (SQLite serialises
writers), so they become visible in order; ``(user_id, rev)`` is indexed, so reading
what changed since a revision costs what changed. The marker row (key ``""``) holds the
index generation.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

import numpy as np

from langgraph_memory.storage.capabilities import EntryIndex, IndexedEntry
from langgraph_memory.storage.entries_records import BUILT_KEY
from langgraph_memory.storage.sqlite.conn import SQLiteConnection

__all__ = ["SQLiteEntryIndex"]

_COLS = "key, text, terms, doc, hash, vec, rev"


def _row(row: tuple) -> IndexedEntry:
    key, text, terms, doc, digest, vec, rev = row
    return IndexedEntry(
        key,
        text,
        json.loads(terms),
        json.loads(doc),
        digest,
        None if vec is None else np.frombuffer(vec, dtype=np.float32).copy(),
        int(rev),
    )


def _next_rev(c: sqlite3.Connection) -> int:
    return int(c.execute("SELECT COALESCE(MAX(rev), 0) + 1 FROM entry_index").fetchone()[0])


class SQLiteEntryIndex(SQLiteConnection, EntryIndex):
    """:class:`~langgraph_memory.storage.capabilities.EntryIndex` in the ``entry_index`` table."""

    def put_entries(self, user_id: str, entries: Sequence[IndexedEntry]) -> int:
        if not entries:
            return 0
        n = 0
        with self._tx(messages=False) as c:
            rev = _next_rev(c)
            for e in entries:
                old = c.execute(
                    "SELECT text, hash, vec FROM entry_index WHERE user_id = ? AND key = ?",
                    (user_id, e.key),
                ).fetchone()
                if old is None and e.text is None:
                    continue
                if old is not None and old[0] == e.text and old[1] == e.hash:
                    continue
                if e.text is None:
                    row: tuple = (user_id, e.key, rev, None, "{}", "{}", "", None)
                else:
                    keep = old is not None and old[0] == e.text
                    vec = (
                        old[2]
                        if keep
                        else (
                            None
                            if e.vector is None
                            else np.asarray(e.vector, dtype=np.float32).tobytes()
                        )
                    )
                    row = (
                        user_id,
                        e.key,
                        rev,
                        e.text,
                        json.dumps(e.terms, ensure_ascii=False),
                        json.dumps(e.doc, ensure_ascii=False),
                        e.hash,
                        vec,
                    )
                c.execute("INSERT OR REPLACE INTO entry_index VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
                rev += 1
                n += 1
        return n

    def entries_since(self, user_id: str, rev: int) -> tuple[int, list[IndexedEntry]]:
        with self._snapshot() as c:  # one snapshot for both statements
            marker = c.execute(
                "SELECT rev FROM entry_index WHERE user_id = ? AND key = ?",
                (user_id, BUILT_KEY),
            ).fetchone()
            rows = c.execute(
                f"SELECT {_COLS} FROM entry_index WHERE user_id = ? AND rev > ? ORDER BY rev",
                (user_id, rev),
            ).fetchall()
        gen = 0 if marker is None else int(marker[0])
        return gen, [_row(r) for r in rows if r[0] != BUILT_KEY]

    def mark_entries_built(self, user_id: str) -> int:
        with self._tx(messages=False) as c:
            rev = _next_rev(c)
            c.execute(
                "INSERT OR REPLACE INTO entry_index VALUES (?, ?, ?, NULL, '{}', '{}', '', NULL)",
                (user_id, BUILT_KEY, rev),
            )
        return rev

    def pending_entries(self, limit: int) -> list[tuple[str, IndexedEntry]]:
        rows = self._read(
            f"SELECT user_id, {_COLS} FROM entry_index WHERE vec IS NULL AND text IS NOT NULL "
            "ORDER BY rev LIMIT ?",
            (int(limit),),
        )
        return [(r[0], _row(r[1:])) for r in rows]

    def store_entry_vectors(self, items: Sequence[tuple[str, str, str, np.ndarray]]) -> int:
        if not items:
            return 0
        n = 0
        with self._tx(messages=False) as c:
            rev = _next_rev(c)
            for user_id, key, digest, vector in items:
                cur = c.execute(
                    "UPDATE entry_index SET vec = ?, rev = ? "
                    "WHERE user_id = ? AND key = ? AND hash = ? AND text IS NOT NULL",
                    (np.asarray(vector, dtype=np.float32).tobytes(), rev, user_id, key, digest),
                )
                if cur.rowcount:
                    rev += 1
                    n += 1
        return n
