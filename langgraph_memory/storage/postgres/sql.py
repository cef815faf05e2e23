"""The SQL and the row conversions of :class:`~.backend.PostgresBackend` (no I/O here).

Schema decisions, in brief:

- Tables are prefixed ``lgm_`` so the store can share a database with the
  application. Key text columns use ``COLLATE "C"``: the byte order SQLite and
  Python sort by.
- Timestamps are ``timestamptz`` plus the original UTC offset in seconds, so a
  message comes back with the offset it was written with (as on SQLite).
- Lexical search: each message keeps its jieba-pre-tokenised terms twice: a
  ``tsvector`` (GIN-indexed, without a pending list: searches never scan unmerged
  entries) that selects the candidate messages of a query, and
  a JSONB ``{term: count}`` map that gives the exact term frequencies BM25 needs,
  so rankings equal the other backends' bit for bit. Terms a ``tsvector`` cannot
  hold (empty, or over 255 bytes) enter it as a digest; a message whose terms do
  not fit in a ``tsvector`` at all gets none and is always a candidate.
  ``lgm_term_stats`` keeps, per user and term, the messages holding it (``df``),
  its largest count in one and the fewest terms of one: written in the insert's
  own statement, they let search bound what a term can add to a score and skip
  the messages that cannot reach the top (see :mod:`~langgraph_memory.storage.postgres.lexical`).
- The queue: a message is pending while ``embedded`` is false; embedders claim pending
  rows with ``FOR UPDATE SKIP LOCKED`` (:data:`CLAIM_PENDING`); ``placed`` (migration 3)
  flags what the memory hierarchy has placed (:data:`UNPLACED`).
- Vectors: one ``vector`` column of any dimension, L2-normalised on the way in;
  one partial HNSW index (``vector_cosine_ops``) per dimension, made the first
  time a vector of that dimension is stored. Several embedding models of
  different sizes can so share a store.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np

from langgraph_memory.core.records import Message, Record
from langgraph_memory.storage.postgres.schema import (
    ENTRY_LOCK,
    HNSW_MAX_DIM,
    INDEX_LOCK,
    MIGRATION_LOCK,
    MIGRATIONS,
    RECORD_FIELD_INDEXES,
    WRITER_LOCK,
    hnsw_index_name,
    hnsw_index_sql,
)

__all__ = [
    "record_query",
    "MIGRATIONS",
    "RECORD_FIELD_INDEXES",
    "WRITER_LOCK",
    "MIGRATION_LOCK",
    "ENTRY_LOCK",
    "INDEX_LOCK",
    "HNSW_MAX_DIM",
    "hnsw_index_name",
    "hnsw_index_sql",
    "MSG_COLS",
    "lexemes",
    "tsquery_text",
    "clause_tsquery",
    "lock_key",
    "to_db_time",
    "from_db_time",
    "row_to_message",
    "row_to_record",
    "reject_nul",
    "normalise",
    "rank_by_cosine",
]

MSG_COLS = "seq, user_id, id, session_id, role, name, content, ts, ts_offset, metadata"
REC_COLS = "kind, id, user_id, data, created_at, created_offset, updated_at, updated_offset"

SELECT_BY_ID = f"SELECT {MSG_COLS} FROM lgm_messages WHERE user_id = %s AND id = %s"

# The oldest pending messages no other transaction has claimed, locked until the claim
# commits (vectors stored) or rolls back (its connection died): claimers skip each other's.
CLAIM_PENDING = f"""
SELECT {MSG_COLS} FROM lgm_messages WHERE NOT embedded
 ORDER BY seq LIMIT %s FOR UPDATE SKIP LOCKED
"""

# Embedded messages not placed yet, oldest first; a user's only up to its oldest pending
# message (claimed ones included: their rows still read as pending). One statement, one
# snapshot. A user's messages commit in seq order (inserts hold the user's advisory lock
# from before their seq is drawn until commit), so no later commit can slip a message
# in front of one placed already.
UNPLACED = f"""
SELECT {MSG_COLS} FROM lgm_messages AS m
 WHERE m.embedded AND NOT m.placed
   AND NOT EXISTS (SELECT 1 FROM lgm_messages AS p
                    WHERE NOT p.embedded AND p.user_id = m.user_id AND p.seq < m.seq)
 ORDER BY m.seq LIMIT %s
"""

INSERT_MESSAGE = """
WITH ins AS (
    INSERT INTO lgm_messages (user_id, id, session_id, role, name, content, ts, ts_offset,
                              metadata, pos, n_terms, tf, tsv)
    VALUES (%(user_id)s, %(id)s, %(session_id)s, %(role)s, %(name)s, %(content)s, %(ts)s,
            %(ts_offset)s, %(metadata)s,
            (SELECT COALESCE(MAX(pos), -1) + 1 FROM lgm_messages
              WHERE user_id = %(user_id)s AND session_id = %(session_id)s),
            %(n_terms)s, %(tf)s, array_to_tsvector(%(lexemes)s::text[]))
    RETURNING seq
), stats AS (
    INSERT INTO lgm_user_stats (user_id, n_docs, total_len) VALUES (%(user_id)s, 1, %(n_terms)s)
    ON CONFLICT (user_id) DO UPDATE SET n_docs = lgm_user_stats.n_docs + 1,
        total_len = lgm_user_stats.total_len + EXCLUDED.total_len
), terms AS (
    INSERT INTO lgm_term_stats (user_id, term, df, max_tf, min_len)
    SELECT %(user_id)s::text, t.term, 1, t.tf, %(n_terms)s::integer
      FROM unnest(%(terms)s::text[], %(counts)s::integer[]) AS t(term, tf)
    ON CONFLICT (user_id, term) DO UPDATE SET df = lgm_term_stats.df + 1,
        max_tf = GREATEST(lgm_term_stats.max_tf, EXCLUDED.max_tf),
        min_len = LEAST(lgm_term_stats.min_len, EXCLUDED.min_len)
)
SELECT seq FROM ins
"""

# One statement, so the counts and the posting lists come from one snapshot. The
# candidates are the messages whose tsvector matches (GIN index) plus those too large
# to have one; the stored term counts then give exact term frequencies.
POSTINGS = """
SELECT NULL::bigint, n_docs, total_len, NULL::text
  FROM lgm_user_stats WHERE user_id = %(user_id)s
UNION ALL
SELECT m.seq, m.n_terms::bigint, (m.tf ->> t.term)::bigint, t.term
  FROM (SELECT seq, n_terms, tf FROM lgm_messages
         WHERE user_id = %(user_id)s AND tsv @@ %(query)s::tsquery
        UNION ALL
        SELECT seq, n_terms, tf FROM lgm_messages
         WHERE user_id = %(user_id)s AND tsv IS NULL) AS m
 CROSS JOIN LATERAL unnest(%(terms)s::text[]) AS t(term)
 WHERE m.tf ? t.term
"""

USER_STATS = """
SELECT NULL::bigint, n_docs, total_len, NULL::text
  FROM lgm_user_stats WHERE user_id = %(user_id)s
"""

# The user's totals and what lgm_term_stats keeps of the query's terms (no row: no user).
TERM_STATS = """
SELECT s.n_docs, s.total_len, t.term, t.df, t.max_tf, t.min_len
  FROM lgm_user_stats AS s
  LEFT JOIN lgm_term_stats AS t ON t.user_id = s.user_id AND t.term = ANY(%(terms)s::text[])
 WHERE s.user_id = %(user_id)s
"""


def _tf_rows(n_terms: int, where: str) -> str:
    """``seq, n_terms`` and the count of each of ``n_terms`` query terms (``%(t0)s``...;
    NULL when absent) of the user's messages that satisfy ``where``."""
    counts = "".join(f", (m.tf ->> %(t{i})s)::integer" for i in range(n_terms))
    return (
        f"SELECT m.seq, m.n_terms{counts} FROM lgm_messages AS m "
        f"WHERE m.user_id = %(user_id)s AND {where}"
    )


def region_rows(
    user_id: str,
    terms: Sequence[str],
    new: Sequence[Sequence[int]],
    old: Sequence[Sequence[int]],
    allowed: Sequence[int] | None,
) -> tuple[str, dict[str, Any]]:
    """A statement and its parameters reading rows of a region, for pruned BM25:
    ``seq, n_terms`` and the count of each of ``terms`` (NULL when absent) of the
    user's messages that hold every term of a clause of ``new`` and of no clause of
    ``old`` (clauses: sets of indexes into ``terms``).

    One ``@@`` per clause, so each is its own GIN scan (an AND skips through its
    lists) under a BitmapOr; ``old`` is checked on the rows only. Without ``old``
    (the first read), also the messages without a tsvector that hold a term. With
    ``allowed``, only messages whose seq is in it.
    """
    params: dict[str, Any] = {"user_id": user_id, "terms": list(terms), "allowed": allowed}
    params.update((f"t{i}", t) for i, t in enumerate(terms))
    params.update((f"q{i}", clause_tsquery(terms, [c])) for i, c in enumerate(new))
    params["old"] = clause_tsquery(terms, old)
    only = " AND m.seq = ANY(%(allowed)s::bigint[])" if allowed is not None else ""
    match = " OR ".join(f"m.tsv @@ %(q{i})s::tsquery" for i in range(len(new)))
    sql = _tf_rows(len(terms), f"({match}){only}")
    if old:
        return sql + " AND NOT m.tsv @@ %(old)s::tsquery", params
    untokenised = "m.tsv IS NULL AND m.tf ?| %(terms)s::text[]"
    return sql + " UNION ALL " + _tf_rows(len(terms), untokenised + only), params


def allowed_rows(
    user_id: str, terms: Sequence[str], allowed: Sequence[int]
) -> tuple[str, dict[str, Any]]:
    """Like :func:`region_rows`, for the messages in ``allowed`` that hold a term."""
    params: dict[str, Any] = {"user_id": user_id, "terms": list(terms), "allowed": allowed}
    params.update((f"t{i}", t) for i, t in enumerate(terms))
    where = "m.seq = ANY(%(allowed)s::bigint[]) AND m.tf ?| %(terms)s::text[]"
    return _tf_rows(len(terms), where), params


NEIGHBORS = f"""
SELECT {", ".join("m." + c.strip() for c in MSG_COLS.split(","))}, m.pos
  FROM lgm_messages AS m
  JOIN unnest(%(sessions)s::text[], %(lo)s::int[], %(hi)s::int[]) AS r(session_id, lo, hi)
    ON m.session_id = r.session_id COLLATE "C" AND m.pos BETWEEN r.lo AND r.hi
 WHERE m.user_id = %(user_id)s
 ORDER BY m.seq
"""

UPSERT_RECORD = f"""
INSERT INTO lgm_records ({REC_COLS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (kind, id) DO UPDATE SET
    data = EXCLUDED.data, created_at = EXCLUDED.created_at,
    created_offset = EXCLUDED.created_offset, updated_at = EXCLUDED.updated_at,
    updated_offset = EXCLUDED.updated_offset
WHERE lgm_records.user_id = EXCLUDED.user_id
RETURNING 1
"""

# Terms longer than this (in UTF-8 bytes) enter the tsvector as a digest; PostgreSQL's
# own limit is 2046 bytes per lexeme.
_MAX_LEXEME_BYTES = 255
# A tsvector holds at most 1 MiB of lexeme text; above this the message gets none.
_MAX_TSVECTOR_BYTES = 900_000


def _lexeme(term: str) -> str:
    if 0 < len(term.encode("utf-8")) <= _MAX_LEXEME_BYTES:
        return term
    return "lgm#" + hashlib.sha256(term.encode("utf-8")).hexdigest()[:32]


def lexemes(terms: Sequence[str]) -> list[str] | None:
    """The tsvector lexemes of a message's terms, or ``None`` when they cannot fit one.

    Example:
        >>> lexemes(["cat", "garden", "cat"])
        ['cat', 'garden']
    """
    out = list(dict.fromkeys(_lexeme(t) for t in terms))
    if sum(len(x.encode("utf-8")) for x in out) > _MAX_TSVECTOR_BYTES:
        return None
    return out


def tsquery_text(terms: Sequence[str]) -> str:
    """A tsquery matching any of ``terms`` (each quoted, so no term is parsed as syntax).

    It is passed as a query parameter, never spliced into SQL.

    Example:
        >>> tsquery_text(["it's", "a|b"])
        "'it''s' | 'a|b'"
    """
    return " | ".join(_quote(lex) for lex in dict.fromkeys(_lexeme(t) for t in terms))


def _quote(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def clause_tsquery(terms: Sequence[str], clauses: Sequence[Sequence[int]]) -> str:
    """A tsquery matching the messages that hold every term of one of ``clauses``
    (sets of indexes into ``terms``).

    Example:
        >>> clause_tsquery(["cat", "it's", "mat"], [(0, 1), (2,)])
        "('cat' & 'it''s') | ('mat')"
    """
    lexemes = [_quote(_lexeme(t)) for t in terms]
    return " | ".join("(" + " & ".join(lexemes[i] for i in c) + ")" for c in clauses)


def lock_key(namespace: str, value: str = "") -> int:
    """A stable signed 64-bit advisory-lock key for ``(namespace, value)``."""
    digest = hashlib.blake2b(f"langgraph-memory\0{namespace}\0{value}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


def to_db_time(dt: datetime) -> tuple[datetime, int]:
    """A datetime as ``(aware instant, UTC offset in seconds)``; naive is taken as UTC."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    offset = dt.utcoffset() or timedelta(0)
    return dt, int(offset.total_seconds())


def from_db_time(dt: datetime, offset: int) -> datetime:
    """The instant back in the offset it was written with."""
    tz = timezone.utc if offset == 0 else timezone(timedelta(seconds=offset))
    return dt.astimezone(tz)


def row_to_message(row: Sequence[Any]) -> Message:
    """A message from a row of :data:`MSG_COLS`."""
    seq, user_id, mid, session_id, role, name, content, ts, offset, meta = row[:10]
    return Message(
        id=mid,
        user_id=user_id,
        session_id=session_id,
        role=role,
        content=content,
        timestamp=from_db_time(ts, offset),
        name=name,
        metadata=meta,
        seq=int(seq),
    )


def row_to_record(row: Sequence[Any]) -> Record:
    """A record from a row of ``REC_COLS``."""
    kind, rid, user_id, data, created, c_off, updated, u_off = row
    return Record(
        kind=kind,
        id=rid,
        user_id=user_id,
        data=data,
        created_at=from_db_time(created, c_off),
        updated_at=from_db_time(updated, u_off),
    )


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, Mapping):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_has_nul(v) for v in value)
    return False


def reject_nul(value: Any, field: str) -> None:
    """Refuse text PostgreSQL cannot store: a NUL character anywhere in ``value``.

    Raises:
        ValueError: Naming the field.
    """
    if _has_nul(value):
        raise ValueError(
            f"{field} contains a NUL character (\\x00), which PostgreSQL cannot store in "
            "text or JSON; remove it before storing"
        )


def json_text(value: Any) -> str:
    """JSON as the other backends write it (the JSONB column normalises it further)."""
    return json.dumps(value, ensure_ascii=False)


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length in float32, exactly as ``VectorMatrix.append`` does."""
    vecs = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.asarray(vecs / norms, dtype=np.float32)


def _as_array(v: Any) -> np.ndarray:
    """A vector column value (pgvector's ``Vector`` or an array) as float32 numpy."""
    to_numpy = getattr(v, "to_numpy", None)
    return np.asarray(to_numpy() if to_numpy is not None else v, dtype=np.float32)


def rank_by_cosine(
    seqs: Sequence[int], vectors: Sequence[np.ndarray], query: np.ndarray, k: int
) -> list[tuple[int, float]]:
    """Score candidate rows against ``query`` the way ``VectorMatrix.search`` does.

    Cosines are float32 and rounded to 6 decimals; ties go to the older message.
    """
    if not seqs:
        return []
    q = np.asarray(query, dtype=np.float32).reshape(-1)
    matrix = np.stack([_as_array(v) for v in vectors])
    sims = np.round(matrix @ (q / float(np.linalg.norm(q))), 6)
    keys = np.asarray(seqs, dtype=np.int64)
    order = np.lexsort((keys, -sims))[:k]
    return [(int(keys[i]), float(sims[i])) for i in order]


def record_query(
    kind: str,
    user_id: str | None,
    contains: bool,
    limit: int | None,
    newest_first: bool,
    indexed: Sequence[str] = (),
) -> tuple[str, list[Any]]:
    """The statement of a record query and its parameters, but for the ``jsonb`` the data
    must contain, which goes right after the kind and user when ``contains``, and the
    string values of the ``indexed`` fields (see :data:`RECORD_FIELD_INDEXES`), which
    follow it in that order.

    Example:
        >>> sql, params = record_query("task", "ann", True, 1, True)
        >>> sql.endswith("ORDER BY created_at DESC, id DESC LIMIT %s"), params
        (True, ['task', 'ann', 1])
    """
    sql = f"SELECT {REC_COLS} FROM lgm_records WHERE kind = %s"
    params: list[Any] = [kind]
    if user_id is not None:
        sql += " AND user_id = %s"
        params.append(user_id)
    if contains:
        sql += " AND data @> %s"
    for name in indexed:  # the same condition again, in the form its index answers
        sql += f" AND data->>'{name}' = %s"
    order = "DESC" if newest_first else "ASC"
    sql += f" ORDER BY created_at {order}, id {order}"
    if limit is not None:
        sql += " LIMIT %s"
        params.append(max(int(limit), 0))
    return sql, params
