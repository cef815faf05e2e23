"""The SQL of :class:`~langgraph_memory.storage.sqlite.backend.SQLiteBackend`, with no I/O.

Migrations (an ordered list whose position is the version, recorded in
``lgm_migrations``), the statements shared by several methods, the conversion of
rows to records, and the translation of a record query into SQL.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import datetime

from langgraph_memory.core.records import Message, Record
from langgraph_memory.storage.capabilities import RecordValue

__all__ = [
    "MIGRATIONS",
    "INDEXED_UPTO",
    "MSG_COLS",
    "REC_COLS",
    "SET_META",
    "row_to_message",
    "row_to_record",
    "record_query",
]

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
    # The long-term entry index (see backends.sqlite_entries).
    """
    CREATE TABLE entry_index (
        user_id TEXT NOT NULL,
        key TEXT NOT NULL,
        rev INTEGER NOT NULL,
        text TEXT,
        terms TEXT NOT NULL,
        doc TEXT NOT NULL,
        hash TEXT NOT NULL,
        vec BLOB,
        PRIMARY KEY (user_id, key)
    );
    CREATE INDEX entry_index_user_rev ON entry_index (user_id, rev);
    CREATE INDEX entry_index_rev ON entry_index (rev);
    CREATE INDEX entry_index_pending ON entry_index (rev) WHERE vec IS NULL AND text IS NOT NULL;
    """,
    # Record fields queried on every write or read: a fact's subject (its timeline and
    # near duplicates, read by every new fact), an episode's target (its lessons), a
    # task's session (the task in progress, read by every context). Without these a
    # query read every record of its kind and user: ~5 ms a fact at 10,000 facts.
    """
    CREATE INDEX records_subject_key
        ON records (kind, user_id, json_extract(data, '$.subject_key'));
    CREATE INDEX records_subject ON records (kind, user_id, json_extract(data, '$.subject'));
    CREATE INDEX records_target ON records (kind, user_id, json_extract(data, '$.target'));
    CREATE INDEX records_session ON records (kind, user_id, json_extract(data, '$.session_id'));
    """,
    # The embedding cache as a rowid table with its key in an index: a vector (1.5 KB)
    # took a third of a page in the key's b-tree, and hashes come in random order, so
    # every batch split pages all over it (2.4x the CPU of appending the rows). The key
    # leads with the hash, which deleting a user's texts looks up alone.
    """
    CREATE TABLE embedding_cache_rows (model TEXT NOT NULL, hash TEXT NOT NULL, vec BLOB NOT NULL);
    INSERT INTO embedding_cache_rows (model, hash, vec)
        SELECT model, hash, vec FROM embedding_cache;
    DROP TABLE embedding_cache;
    ALTER TABLE embedding_cache_rows RENAME TO embedding_cache;
    CREATE UNIQUE INDEX embedding_cache_key ON embedding_cache (hash, model);
    """,
    # A user's messages newest first, a page at a time (the inspector, see
    # storage.sqlite.pages): without it a page sorted all of the user's messages, or
    # walked every user's to find one's.
    """
    CREATE INDEX messages_user ON messages (user_id, seq);
    """,
]

#: Record data fields with an expression index (migration 5), and the index.
RECORD_FIELD_INDEXES = {
    "subject_key": "records_subject_key",
    "subject": "records_subject",
    "target": "records_target",
    "session_id": "records_session",
}

#: lgm_meta key: every message with a seq up to this one has its postings written.
INDEXED_UPTO = "postings_upto"

MSG_COLS = "seq, user_id, id, session_id, role, name, content, ts, metadata"
SET_META = (
    "INSERT INTO lgm_meta (key, value) VALUES (?, ?) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


def row_to_message(row: sqlite3.Row | tuple) -> Message:
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


def row_to_record(row: tuple) -> Record:
    kind, rid, user_id, data, created, updated = row
    return Record(
        kind=kind,
        id=rid,
        user_id=user_id,
        data=json.loads(data),
        created_at=datetime.fromisoformat(created),
        updated_at=datetime.fromisoformat(updated),
    )


#: The columns of a record row, in the order :func:`row_to_record` reads them.
REC_COLS = "kind, id, user_id, data, created_at, updated_at"


def record_query(
    kind: str,
    user_id: str | None,
    where: Mapping[str, RecordValue],
    limit: int | None,
    newest_first: bool,
) -> tuple[str, tuple[object, ...]]:
    """The statement and parameters of a record query (``where`` already checked).

    A field compares by JSON type as well as value: a bool matches only a JSON
    boolean, a number only a JSON number, a str only a JSON string.

    Example:
        >>> sql, params = record_query("task", "ann", {"status": "open"}, 1, True)
        >>> params
        ('task', 'ann', 'open', 1)
    """
    index = next((RECORD_FIELD_INDEXES[n] for n in where if n in RECORD_FIELD_INDEXES), None)
    hint = f" INDEXED BY {index}" if index else ""  # the planner favours records_user
    sql = f"SELECT {REC_COLS} FROM records{hint} WHERE kind = ?"
    params: list[object] = [kind]
    if user_id is not None:
        sql += " AND user_id = ?"
        params.append(user_id)
    for name, value in where.items():
        # the path is written out (a checked identifier), so an expression index on
        # json_extract(data, '$.<name>') answers the query (see MIGRATIONS)
        path = f"'$.{name}'"
        if isinstance(value, bool):
            sql += f" AND json_type(data, {path}) = ?"
            params += ["true" if value else "false"]
        elif isinstance(value, str):
            sql += f" AND json_extract(data, {path}) = ?"
            params += [value]
            # json_extract gives text for a JSON string, and for an array or an object (its
            # compact JSON, which opens with a bracket); a number, a bool or null never
            # equals text. Only a value that opens like one needs the type read, which
            # parses each row's JSON: half of a query by an indexed field.
            if value.startswith(("[", "{")):
                sql += f" AND json_type(data, {path}) = 'text'"
        else:
            sql += (
                f" AND json_extract(data, {path}) = ?"
                f" AND json_type(data, {path}) IN ('integer', 'real')"
            )
            params += [value]
    order = "DESC" if newest_first else "ASC"
    sql += f" ORDER BY created_at {order}, id {order}"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(max(int(limit), 0))
    return sql, tuple(params)
