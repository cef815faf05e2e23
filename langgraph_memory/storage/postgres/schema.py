"""The PostgreSQL store's schema: its migrations, advisory-lock names and the
per-dimension HNSW index (no I/O here; :mod:`~langgraph_memory.storage.postgres.sql` re-exports
every name).

A migration's position in :data:`MIGRATIONS` is its version, recorded in
``lgm_migrations``; ``setup()`` runs those not yet applied, under an advisory lock, so
several processes may open a new store at once.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "MIGRATIONS",
    "RECORD_FIELD_INDEXES",
    "WRITER_LOCK",
    "MIGRATION_LOCK",
    "ENTRY_LOCK",
    "INDEX_LOCK",
    "HNSW_MAX_DIM",
    "hnsw_index_name",
    "hnsw_index_sql",
]

#: Schema migrations; a migration's position in this list is its version.
MIGRATIONS: list[str] = [
    """
    CREATE EXTENSION IF NOT EXISTS vector;
    CREATE TABLE lgm_messages (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        role text NOT NULL,
        name text,
        content text NOT NULL,
        ts timestamptz NOT NULL,
        ts_offset integer NOT NULL,
        metadata jsonb NOT NULL,
        pos integer NOT NULL,
        n_terms integer NOT NULL,
        tf jsonb NOT NULL,
        tsv tsvector,
        embedded boolean NOT NULL DEFAULT false,
        UNIQUE (user_id, id)
    );
    CREATE INDEX lgm_messages_session ON lgm_messages (user_id, session_id, pos);
    CREATE INDEX lgm_messages_user ON lgm_messages (user_id, seq);
    CREATE INDEX lgm_messages_pending ON lgm_messages (seq) WHERE NOT embedded;
    CREATE INDEX lgm_messages_tsv ON lgm_messages USING gin (tsv);
    CREATE INDEX lgm_messages_no_tsv ON lgm_messages (user_id) WHERE tsv IS NULL;
    CREATE TABLE lgm_user_stats (
        user_id text COLLATE "C" PRIMARY KEY,
        n_docs bigint NOT NULL,
        total_len bigint NOT NULL,
        n_vectors bigint NOT NULL DEFAULT 0
    );
    CREATE TABLE lgm_vectors (
        seq bigint PRIMARY KEY REFERENCES lgm_messages (seq) ON DELETE CASCADE,
        user_id text COLLATE "C" NOT NULL,
        dim integer NOT NULL,
        vec vector NOT NULL
    );
    CREATE INDEX lgm_vectors_user ON lgm_vectors (user_id, dim, seq);
    CREATE TABLE lgm_vector_indexes (
        dim integer PRIMARY KEY,
        index_name text NOT NULL
    );
    CREATE TABLE lgm_meta (
        key text COLLATE "C" PRIMARY KEY,
        value text NOT NULL
    );
    CREATE TABLE lgm_embedding_cache (
        model text COLLATE "C" NOT NULL,
        hash text COLLATE "C" NOT NULL,
        vec bytea NOT NULL,
        PRIMARY KEY (model, hash)
    );
    CREATE INDEX lgm_embedding_cache_hash ON lgm_embedding_cache (hash);
    CREATE TABLE lgm_records (
        kind text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        created_offset integer NOT NULL,
        updated_at timestamptz NOT NULL,
        updated_offset integer NOT NULL,
        PRIMARY KEY (kind, id)
    );
    CREATE INDEX lgm_records_user ON lgm_records (user_id, kind, created_at);
    """,
    # 1: per-user term statistics for pruned BM25 (df, largest tf, shortest message),
    # backfilled from the stored term counts.
    """
    CREATE TABLE lgm_term_stats (
        user_id text COLLATE "C" NOT NULL,
        term text COLLATE "C" NOT NULL,
        df bigint NOT NULL,
        max_tf integer NOT NULL,
        min_len integer NOT NULL,
        PRIMARY KEY (user_id, term)
    );
    INSERT INTO lgm_term_stats (user_id, term, df, max_tf, min_len)
    SELECT m.user_id, t.key COLLATE "C", count(*), max(t.value::integer), min(m.n_terms)
      FROM lgm_messages AS m CROSS JOIN LATERAL jsonb_each_text(m.tf) AS t
     GROUP BY 1, 2;
    """,
    # 2: the GIN index without its pending list. With it, inserts park their entries in
    # a list (up to gin_pending_list_limit, 4 MB) that every search scans until a vacuum
    # merges it: lexical search at 10k messages took 28/52 ms p50/p95 right after a bulk
    # load and 4.9/6.6 after VACUUM. Inserts cost about 2 % more without it.
    """
    ALTER INDEX lgm_messages_tsv SET (fastupdate = off);
    SELECT gin_clean_pending_list('lgm_messages_tsv'::regclass);
    """,
    # 3: a per-message flag for placement in the memory hierarchy, so that several
    # processes may embed at once (see postgres_queue). Rows already there get true
    # (no table rewrite); those the hierarchy's marks say are not placed yet become false:
    # the pending ones, and the embedded ones a crash left between the two marks. Run
    # again (its record lost), it leaves the flags alone: the marks are stale by then.
    """
    DO $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM information_schema.columns
                      WHERE table_schema = current_schema()
                        AND table_name = 'lgm_messages' AND column_name = 'placed') THEN
        ALTER TABLE lgm_messages ADD COLUMN placed boolean NOT NULL DEFAULT true;
        ALTER TABLE lgm_messages ALTER COLUMN placed SET DEFAULT false;
        UPDATE lgm_messages SET placed = false
         WHERE NOT embedded
            OR (seq > COALESCE((SELECT value::bigint FROM lgm_meta
                                 WHERE key = 'hierarchy_placed_seq'), 0)
                AND seq <= COALESCE((SELECT value::bigint FROM lgm_meta
                                      WHERE key = 'hierarchy_embedding_seq'), 0));
      END IF;
    END $$;
    CREATE INDEX IF NOT EXISTS lgm_messages_unplaced ON lgm_messages (seq)
     WHERE embedded AND NOT placed;
    """,
    # 4: the long-term entry index (see postgres_entries).
    """
    CREATE SEQUENCE IF NOT EXISTS lgm_entry_rev;
    CREATE TABLE IF NOT EXISTS lgm_entry_index (
        user_id text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        rev bigint NOT NULL,
        text text,
        terms jsonb NOT NULL,
        doc jsonb NOT NULL,
        hash text NOT NULL,
        vec bytea,
        PRIMARY KEY (user_id, key)
    );
    CREATE INDEX IF NOT EXISTS lgm_entry_index_user_rev ON lgm_entry_index (user_id, rev);
    CREATE INDEX IF NOT EXISTS lgm_entry_index_pending ON lgm_entry_index (rev)
     WHERE vec IS NULL AND text IS NOT NULL;
    """,
    # 5: record fields queried on every write or read (see RECORD_FIELD_INDEXES).
    """
    CREATE INDEX IF NOT EXISTS lgm_records_subject_key
        ON lgm_records (kind, user_id, (data->>'subject_key'));
    CREATE INDEX IF NOT EXISTS lgm_records_subject
        ON lgm_records (kind, user_id, (data->>'subject'));
    CREATE INDEX IF NOT EXISTS lgm_records_target
        ON lgm_records (kind, user_id, (data->>'target'));
    CREATE INDEX IF NOT EXISTS lgm_records_session
        ON lgm_records (kind, user_id, (data->>'session_id'));
    """,
    # 6: quarantined messages (see PostgresBackend.set_failed): out of the queue
    # (embedded and placed true) with no vector. A constant default: no table rewrite.
    """
    ALTER TABLE lgm_messages ADD COLUMN IF NOT EXISTS failed boolean NOT NULL DEFAULT false;
    """,
]

#: Record data fields with an expression index (migration 5): a query on one of them
#: (a str value) also compares ``data->>'<field>'``, which the index answers; the
#: containment alone would read every record of the kind and user. A fact's subject
#: is read by every new fact, an episode's target by its lesson, a task's session by
#: every context.
RECORD_FIELD_INDEXES = ("subject_key", "subject", "target", "session_id")

#: Advisory-lock namespace of the store's hierarchy writer (``writer_lease``).
WRITER_LOCK = "hierarchy-writer"
#: Advisory-lock key under which migrations run (one process at a time).
MIGRATION_LOCK = "migrations"
#: Advisory-lock key held by every write of the entry index: revisions commit in order.
ENTRY_LOCK = "entry-index"
#: Advisory-lock key under which a new per-dimension HNSW index is made.
INDEX_LOCK = "vector-index"
#: pgvector's HNSW index takes ``vector`` columns up to this dimension.
HNSW_MAX_DIM = 2000


def hnsw_index_name(dim: int) -> str:
    """The name of the partial HNSW index over the vectors of ``dim`` dimensions."""
    return f"lgm_vectors_hnsw_{int(dim)}"


def hnsw_index_sql(dim: int) -> Any:
    """``CREATE INDEX`` of the partial HNSW index (cosine) for vectors of ``dim``."""
    from psycopg import sql

    return sql.SQL(
        "CREATE INDEX IF NOT EXISTS {} ON lgm_vectors USING hnsw "
        "((vec::vector({})) vector_cosine_ops) WHERE dim = {}"
    ).format(sql.Identifier(hnsw_index_name(dim)), sql.Literal(int(dim)), sql.Literal(int(dim)))
