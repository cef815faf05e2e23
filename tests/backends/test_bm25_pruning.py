"""SQLite's posting lists cached in process (``bm25_arrays``): the same rankings as the
in-memory reference, through writes and deletes by other connections."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest

from langgraph_memory.core.records import Message
from langgraph_memory.retrieval.bm25 import bm25_arrays, bm25_scores
from langgraph_memory.storage import InMemoryBackend, SQLiteBackend

TERMS = ["a", "b", "c", "d", "e", "f"]


def _corpus(draw_docs: list[list[str]]) -> tuple[dict[str, list[tuple[int, int]]], dict[int, int]]:
    lists: dict[str, list[tuple[int, int]]] = {}
    doc_len: dict[int, int] = {}
    for seq, words in enumerate(draw_docs, start=1):
        doc_len[seq] = len(words)
        for w in dict.fromkeys(words):
            lists.setdefault(w, []).append((seq, words.count(w)))
    return lists, doc_len


def _msg(i: int, user: str, terms: list[str]) -> Message:
    return Message(f"m{i}", user, "s", "user", " ".join(terms), datetime.now(timezone.utc))


@pytest.mark.parametrize("posting_cache", [4_000_000, 50, 0])
def test_sqlite_lexical_search_equals_the_reference(tmp_path: Path, posting_cache: int) -> None:
    """Cached posting lists (topped up between queries, evicted when small) give the
    reference's results, whether or not the postings of the latest messages are written
    yet; so do writes, indexing and deletes through another connection."""
    rng = random.Random(5)
    pool = [f"w{i}" for i in range(200)] + ["咖啡", "绿茶"]
    common = ["trip", "cake", "report"]
    ref = InMemoryBackend()
    sq = SQLiteBackend(tmp_path / "db", posting_cache=posting_cache)
    other = SQLiteBackend(tmp_path / "db")  # as another process would
    n = 0

    def write(count: int, via: SQLiteBackend, users=("ann", "ann", "bob")) -> None:
        nonlocal n
        for _ in range(count):
            terms = [rng.choice(common) for _ in range(rng.randint(0, 3))]
            terms += [
                pool[int(rng.paretovariate(1.2)) % len(pool)] for _ in range(rng.randint(1, 5))
            ]
            m = _msg(n, rng.choice(users), terms)
            n += 1
            ref.insert_message(m, terms)
            via.insert_message(m, terms)
            if rng.random() < 0.05:  # the worker writes the postings now and then
                rng.choice([sq, other]).index_pending(rng.choice([1, 7, 4096]))

    def check(rounds: int) -> None:
        for _ in range(rounds):
            query = [rng.choice(common + pool[:20] + ["absent"]) for _ in range(rng.randint(1, 6))]
            k = rng.choice([1, 5, 10, 60, 10_000])
            allowed = None if rng.random() < 0.7 else set(rng.sample(range(1, n + 1), n // 3))
            user = rng.choice(["ann", "bob", "nobody"])
            assert sq.lexical_search(user, query, k, allowed) == ref.lexical_search(
                user, query, k, allowed
            )

    try:
        write(800, sq)
        check(100)
        write(200, sq)  # the cached lists are topped up
        check(60)
        write(200, other)
        check(60)
        other.delete_user("bob")  # deleted behind the reader's back...
        ref.delete_user("bob")
        write(150, other, users=("bob",))  # ...and written again
        check(80)
        sq.delete_user("ann")
        ref.delete_user("ann")
        check(30)
        write(100, sq)
        while other.index_pending(64):
            check(3)
        check(30)
    finally:
        sq.close()
        other.close()


def test_postings_wait_with_the_message_until_indexed(tmp_path: Path) -> None:
    sq = SQLiteBackend(tmp_path)
    terms = [["tea", "green", "tea"], ["coffee"], ["tea", "cake"], []]
    for i, t in enumerate(terms):
        sq.insert_message(_msg(i, "ann", t), t)
    sq.insert_message(_msg(9, "bob", ["tea"]), ["tea"])
    con = sq._conn
    assert con.execute("SELECT COUNT(*) FROM postings").fetchone()[0] == 0
    before = sq.lexical_search("ann", ["tea", "cake"], 10)
    raw_before = sq.postings("ann", ["tea", "cake"])
    assert [s for s, _ in before] == [3, 1]
    assert sq.index_pending(2) == 2  # the oldest first
    assert sq.lexical_search("ann", ["tea", "cake"], 10) == before
    assert sq.index_pending() == 3
    assert sq.index_pending() == 0
    assert con.execute("SELECT COUNT(*) FROM messages WHERE terms IS NOT NULL").fetchone()[0] == 0
    rows = con.execute("SELECT user_id, term, seq, tf, dl FROM postings ORDER BY seq, term")
    assert rows.fetchall() == [
        ("ann", "green", 1, 1, 3),
        ("ann", "tea", 1, 2, 3),
        ("ann", "coffee", 2, 1, 1),
        ("ann", "cake", 3, 1, 2),
        ("ann", "tea", 3, 1, 2),
        ("bob", "tea", 5, 1, 1),
    ]
    assert sq.lexical_search("ann", ["tea", "cake"], 10) == before
    after = sq.postings("ann", ["tea", "cake"])
    assert sorted(after.lists["tea"]) == sorted(raw_before.lists["tea"])
    assert after.doc_len == raw_before.doc_len and after.n_docs == raw_before.n_docs == 4
    sq.close()


def test_a_transaction_of_postings_is_bounded(tmp_path: Path, monkeypatch) -> None:
    """``add_message`` waits for the connection while postings are written: a
    transaction writes at most ``POSTINGS_PER_COMMIT`` of them (at least one message),
    and one call's transactions index everything, as one transaction did."""
    monkeypatch.setattr(SQLiteBackend, "POSTINGS_PER_COMMIT", 5)
    sq = SQLiteBackend(tmp_path)
    docs = [[f"w{i}x{k}" for k in range(3)] for i in range(6)] + [[f"big{k}" for k in range(9)]]
    for i, t in enumerate(docs):
        sq.insert_message(_msg(i, "ann", t), t)
    counts: list[int] = []
    one_transaction = SQLiteBackend._index_some

    def counted(self: SQLiteBackend, upto: int, top: int, limit: int) -> tuple[int, int]:
        got = one_transaction(self, upto, top, limit)
        counts.append(got[0])
        return got

    monkeypatch.setattr(SQLiteBackend, "_index_some", counted)
    assert sq.index_pending() == 7
    # 6 postings, 6, 6, then the 9 of one message alone (then none is left)
    assert counts == [2, 2, 2, 1, 0]
    assert sq._conn.execute("SELECT COUNT(*) FROM postings").fetchone()[0] == 27
    assert [s for s, _ in sq.lexical_search("ann", ["big3", "w2x1"], 10)] in ([7, 3], [3, 7])
    sq.close()


def test_a_store_from_before_deferred_postings_opens_indexed(tmp_path: Path) -> None:
    """Migration 2 on a store whose postings were written with each message: every
    message counts as indexed, and new ones wait as usual."""
    import sqlite3

    from langgraph_memory.storage.sqlite.backend import MIGRATIONS

    file = tmp_path / "memory.sqlite3"
    con = sqlite3.connect(file)
    con.executescript(MIGRATIONS[0] + MIGRATIONS[1])
    con.execute("CREATE TABLE lgm_migrations (v INTEGER PRIMARY KEY)")
    con.executemany("INSERT INTO lgm_migrations (v) VALUES (?)", [(0,), (1,)])
    for seq, (mid, words) in enumerate([("a", ["tea", "tea"]), ("b", ["cake"])], start=1):
        con.execute(
            "INSERT INTO messages (user_id, id, session_id, role, content, ts, metadata,"
            " n_terms, pos) VALUES ('ann', ?, 's', 'user', ?, '2024-01-01T00:00:00+00:00',"
            " '{}', ?, ?)",
            (mid, " ".join(words), len(words), seq - 1),
        )
        for term in dict.fromkeys(words):
            con.execute(
                "INSERT INTO postings VALUES ('ann', ?, ?, ?, ?)",
                (term, seq, words.count(term), len(words)),
            )
    con.execute("INSERT INTO user_stats VALUES ('ann', 2, 3)")
    con.commit()
    con.close()
    sq = SQLiteBackend(tmp_path)
    assert sq.get_meta("postings_upto") == "2"
    assert sq.index_pending() == 0
    assert [s for s, _ in sq.lexical_search("ann", ["tea"], 5)] == [1]
    sq.insert_message(_msg(7, "ann", ["tea"]), ["tea"])
    waiting = sq.lexical_search("ann", ["tea"], 5)
    assert sorted(s for s, _ in waiting) == [1, 3]
    assert sq.index_pending() == 1
    assert sq.lexical_search("ann", ["tea"], 5) == waiting
    sq.close()


def test_bm25_arrays_equals_bm25_scores() -> None:
    rng = random.Random(9)
    for _ in range(200):
        docs = [
            [rng.choice(TERMS) for _ in range(rng.randint(1, 8))] for _ in range(rng.randint(1, 80))
        ]
        lists, doc_len = _corpus(docs)
        counts = {t: rng.randint(1, 2) for t in rng.sample(TERMS, rng.randint(1, 4))}
        top = rng.choice([None, 1, 5, 50])
        avg = sum(doc_len.values()) / len(docs)
        arrays = {
            t: tuple(
                np.array(col)
                for col in zip(*[(s, tf, doc_len[s]) for s, tf in lists.get(t, [])], strict=True)
            )
            if lists.get(t)
            else (np.zeros(0), np.zeros(0), np.zeros(0))
            for t in counts
        }
        want = bm25_scores(
            {t: lists.get(t, []) for t in counts},
            n_docs=len(docs),
            avg_len=avg,
            doc_len=doc_len,
            query_counts=counts,
            top=top,
        )
        assert (
            bm25_arrays(arrays, n_docs=len(docs), avg_len=avg, query_counts=counts, top=top) == want
        )


def test_the_worker_indexes_what_an_earlier_process_left_waiting(tmp_path: Path) -> None:
    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import HashingEmbeddings

    sq = SQLiteBackend(tmp_path)
    for i in range(30):
        sq.insert_message(_msg(i, "ann", ["tea", f"w{i}"]), ["tea", f"w{i}"])
    want = sq.lexical_search("ann", ["tea", "w3"], 10)
    sq.close()  # as if the process stopped before its worker ran
    with MemoryManager(backend=SQLiteBackend(tmp_path), embeddings=HashingEmbeddings()) as mm:
        mm.flush()
        con = mm._backend._inner._conn  # type: ignore[attr-defined]
        assert con.execute("SELECT COUNT(*) FROM messages WHERE terms IS NOT NULL").fetchone() == (
            0,
        )
        assert con.execute("SELECT COUNT(DISTINCT seq) FROM postings").fetchone() == (30,)
        assert mm._backend.lexical_search("ann", ["tea", "w3"], 10) == want


def test_messages_stored_while_indexing_wait_for_the_next_call(tmp_path: Path, monkeypatch) -> None:
    """A call indexes the messages stored when it began: during a burst of writes it
    does not chase each new one a transaction at a time."""
    monkeypatch.setattr(SQLiteBackend, "POSTINGS_PER_COMMIT", 3)
    sq = SQLiteBackend(tmp_path)
    for i in range(4):
        sq.insert_message(_msg(i, "ann", ["tea", f"w{i}"]), ["tea", f"w{i}"])
    one_transaction = SQLiteBackend._index_some
    arrivals = iter(range(10, 13))

    def with_arrivals(self: SQLiteBackend, upto: int, top: int, limit: int) -> tuple[int, int]:
        n = one_transaction(self, upto, top, limit)
        if (i := next(arrivals, None)) is not None:  # add_message between transactions
            self.insert_message(_msg(i, "ann", ["tea"]), ["tea"])
        return n

    monkeypatch.setattr(SQLiteBackend, "_index_some", with_arrivals)
    assert sq.index_pending() == 4
    assert sq.index_pending() == 3  # the three that came meanwhile
    assert sq.index_pending() == 0
    assert len(sq.lexical_search("ann", ["tea"], 10)) == 7
    sq.close()


def test_a_message_deleted_while_its_postings_are_made_gets_none(tmp_path: Path) -> None:
    """Postings are made outside the write transaction (``add_message`` does not wait
    for the parsing): those of a message deleted meanwhile are not written."""
    sq = SQLiteBackend(tmp_path)
    other = SQLiteBackend(tmp_path)  # as another process would
    for i, words in enumerate([["tea", "cake"], ["tea"], ["coffee", "tea"]]):
        sq.insert_message(_msg(i, "ann", words), words)
    read = sq._read

    def read_then_delete(sql: str, params: Sequence[object] = ()) -> list[tuple]:
        rows = read(sql, params)
        if "terms IS NOT NULL" in sql:  # the terms are read: now m1 goes
            other.delete_messages("ann", ["m1"])
        return rows

    sq._read = read_then_delete  # type: ignore[method-assign]
    assert sq.index_pending() == 3
    del sq._read
    con = sq._conn
    assert con.execute("SELECT term, seq FROM postings ORDER BY seq, term").fetchall() == [
        ("cake", 1),
        ("tea", 1),
        ("coffee", 3),
        ("tea", 3),
    ]
    assert [s for s, _ in sq.lexical_search("ann", ["tea"], 5)] in ([1, 3], [3, 1])
    sq.close()
    other.close()
