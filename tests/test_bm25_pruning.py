"""SQLite's posting lists cached in process (``bm25_arrays``): the same rankings as the
in-memory reference, through writes and deletes by other connections."""

from __future__ import annotations

import random
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest

from langgraph_memory.backends import InMemoryBackend, SQLiteBackend
from langgraph_memory.records import Message
from langgraph_memory.retrieval.bm25 import bm25_arrays, bm25_scores

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
    reference's results; so do writes and deletes through another connection."""
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
    finally:
        sq.close()
        other.close()


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
