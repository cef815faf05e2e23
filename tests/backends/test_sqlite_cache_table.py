"""The SQLite embedding cache: a rowid table keyed by an index (a migration of its own),
and a store from before it opens with its cached vectors."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

from langgraph_memory.storage import SQLiteBackend
from langgraph_memory.storage.sqlite.sql import MIGRATIONS


def test_a_cache_from_before_the_rowid_table_keeps_its_vectors(tmp_path: Path) -> None:
    con = sqlite3.connect(tmp_path / "memory.sqlite3")
    before = next(i for i, m in enumerate(MIGRATIONS) if "embedding_cache_rows" in m)
    con.executescript("".join(MIGRATIONS[:before]))
    con.execute("CREATE TABLE lgm_migrations (v INTEGER PRIMARY KEY)")
    con.executemany("INSERT INTO lgm_migrations (v) VALUES (?)", [(v,) for v in range(before)])
    old = {f"h{i}": np.full(4, i, dtype=np.float32) for i in range(3)}
    con.executemany(
        "INSERT INTO embedding_cache (model, hash, vec) VALUES ('m', ?, ?)",
        [(h, v.tobytes()) for h, v in old.items()],
    )
    con.commit()
    assert (
        "WITHOUT ROWID"
        in con.execute("SELECT sql FROM sqlite_master WHERE name = 'embedding_cache'").fetchone()[0]
    )
    con.close()
    sq = SQLiteBackend(tmp_path)
    got = sq.cache_get("m", ["h0", "h1", "h2", "h9"])
    assert sorted(got) == ["h0", "h1", "h2"]
    assert all(np.array_equal(got[h], old[h]) for h in old)
    schema = sq._conn.execute(
        "SELECT sql FROM sqlite_master WHERE tbl_name = 'embedding_cache'"
    ).fetchall()
    assert "WITHOUT ROWID" not in " ".join(s for (s,) in schema if s)
    # a key is still unique per model: a vector put again replaces the old one
    sq.cache_put("m", {"h1": np.full(4, 7, dtype=np.float32)})
    sq.cache_put("other", {"h1": np.full(4, 8, dtype=np.float32)})
    assert np.array_equal(sq.cache_get("m", ["h1"])["h1"], np.full(4, 7, dtype=np.float32))
    assert sq._conn.execute("SELECT COUNT(*) FROM embedding_cache").fetchone()[0] == 4
    plan = sq._conn.execute(
        "EXPLAIN QUERY PLAN DELETE FROM embedding_cache WHERE hash = ?", ("h1",)
    ).fetchall()
    assert "embedding_cache_key" in str(plan)  # deleting a user's texts: no table scan
    sq.close()
