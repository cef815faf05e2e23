"""PostgreSQL's pruned lexical search: exact against the in-memory reference, term
statistics kept right through inserts, deletes and concurrent writers, and fewer rows read.

``PostgresBackend.lexical_search`` reads only the messages that may reach the top
``k`` (see ``backends.postgres_lexical``); these tests hold it to the full BM25 of
``InMemoryBackend`` bit for bit: same seqs, same order, same float scores.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import pg_server
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langgraph_memory.core.records import Message
from langgraph_memory.retrieval.bm25 import bm25_scores
from langgraph_memory.storage import InMemoryBackend, MemoryBackend
from langgraph_memory.storage.postgres.lexical import (
    Row,
    TermStat,
    clauses,
    lexical_top,
    thresholds,
)

if TYPE_CHECKING:
    from langgraph_memory.storage.postgres.backend import PostgresBackend

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
COMMON = [f"w{i}" for i in range(40)]  # Zipf-like: w0 in most messages, w39 in few
CHINESE = ["花生", "过敏", "上周", "杭州", "出差", "喜欢", "绿茶", "爬山"]
RARE = [f"r{i}" for i in range(150)]


def _words(rng: random.Random) -> list[str]:
    """A message's terms: Zipf-like common words, Chinese words, rare words, repeats."""
    n = rng.choice([1, 2, 3, 5, 8, 8, 12, 20])
    out = []
    for _ in range(n):
        x = rng.random()
        if x < 0.6:
            out.append(COMMON[min(int(rng.paretovariate(1.0)) - 1, len(COMMON) - 1)])
        elif x < 0.8:
            out.append(rng.choice(CHINESE))
        else:
            out.append(rng.choice(RARE))
    if rng.random() < 0.2:
        out += out[:2]  # repeated terms: tf > 1
    return out


def _query(rng: random.Random) -> list[str]:
    pool = [*COMMON[:12], *CHINESE, *rng.sample(RARE, 5), "absent"]
    terms = rng.sample(pool, rng.randint(1, 6))
    if rng.random() < 0.3:
        terms.append(terms[0])  # a repeated query term weighs twice
    return terms


def _msg(mid: str, user: str, words: Sequence[str]) -> Message:
    return Message(mid, user, "s1", "user", " ".join(words), T0)


def _same(pg: PostgresBackend, ref: MemoryBackend, user: str, terms: list[str], **kw) -> None:
    got = pg.lexical_search(user, terms, **kw)
    want = ref.lexical_search(user, terms, **kw)
    assert got == want, (user, terms, kw)  # seqs, order and float scores, bit for bit


@pytest.fixture
def url(pg_databases: pg_server.TestDatabases) -> str:
    return pg_databases.new_database()


@pytest.fixture
def pg(url: str) -> Iterator[PostgresBackend]:
    from langgraph_memory.storage.postgres.backend import PostgresBackend

    with PostgresBackend(url) as b:
        yield b


def _psql(url: str, sql: str, params: tuple = ()) -> list[tuple]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as c:
        cur = c.execute(sql.encode(), params or None)
        return cur.fetchall() if cur.description else []


STATS = "SELECT user_id, term, df, max_tf, min_len FROM lgm_term_stats ORDER BY 1, 2"
RECOUNT = (
    'SELECT m.user_id, t.key COLLATE "C", count(*), max(t.value::integer), min(m.n_terms) '
    "FROM lgm_messages AS m CROSS JOIN LATERAL jsonb_each_text(m.tf) AS t GROUP BY 1, 2 "
    "ORDER BY 1, 2"
)


# -- exactness against the reference ---------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_corpora_rank_exactly_as_the_reference(
    pg: PostgresBackend, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langgraph_memory.storage.postgres import sql as postgres_sql

    # Messages whose distinct terms take over 40 bytes get no tsvector (about one in ten).
    monkeypatch.setattr(postgres_sql, "_MAX_TSVECTOR_BYTES", 40)
    rng = random.Random(seed)
    ref = InMemoryBackend()
    users = ["alice", "bob"]
    stored: dict[str, list[int]] = {u: [] for u in users}
    for i in range(500):
        user = users[0] if rng.random() < 0.8 else users[1]
        words = _words(rng)
        seqs = {b.insert_message(_msg(f"m{i}", user, words), words)[0].seq for b in (pg, ref)}
        assert len(seqs) == 1  # the same seqs on both
        stored[user] += seqs
        if rng.random() < 0.05:  # the same id again: stored once, counted once
            for b in (pg, ref):
                assert not b.insert_message(_msg(f"m{i}", user, words), words)[1]
    assert _psql(pg.conninfo, "SELECT count(*) FROM lgm_messages WHERE tsv IS NULL")[0][0] > 0
    pruned = 0
    for _ in range(120):
        terms = _query(rng)
        user = rng.choice(users)
        k = rng.choice([1, 3, 10, 10, 25, 1000])
        _same(pg, ref, user, terms, k=k)
        pruned += not pg.last_lexical.full and pg.last_lexical.rows > 0
        allowed = set(rng.sample(stored[user], min(len(stored[user]), rng.choice([3, 60, 300]))))
        _same(pg, ref, user, terms, k=k, allowed=allowed)
        pg.ALLOWED_DIRECT = 0  # a large allowed: pruned reads filtered in SQL
        _same(pg, ref, user, terms, k=k, allowed=allowed)
        del pg.ALLOWED_DIRECT
    assert pruned > 20  # the pruned path was taken, not only full reads
    for k1, b in [(0.0, 0.75), (2.0, 0.0), (1.2, 1.0), (0.5, 0.3), (1.2, 1.5), (-1.0, 0.75)]:
        for _ in range(10):  # the last two are outside the bounds' domain: plain BM25
            _same(pg, ref, "alice", _query(rng), k=10, k1=k1, b=b)
    assert pg.lexical_search("alice", ["w0"], 0) == []
    assert pg.lexical_search("alice", ["w0"], 10, allowed=set()) == []
    assert pg.lexical_search("nobody", ["w0"], 10) == []
    assert pg.lexical_search("alice", ["a\x00b", "w1"], 5) == ref.lexical_search(
        "alice", ["a\x00b", "w1"], 5
    )


def test_after_delete_user_and_reinsert(pg: PostgresBackend) -> None:
    rng = random.Random(9)
    ref = InMemoryBackend()
    for round_ in range(2):
        for i in range(150):
            user = "alice" if i % 3 else "bob"
            words = _words(rng)
            for b in (pg, ref):
                b.insert_message(_msg(f"m{round_}-{i}", user, words), words)
        for b in (pg, ref):
            b.delete_user("bob")
        for _ in range(30):
            terms, k = _query(rng), rng.choice([1, 5, 50])
            _same(pg, ref, "alice", terms, k=k)
            _same(pg, ref, "bob", terms, k=k)
    assert _psql(pg.conninfo, STATS) == _psql(pg.conninfo, RECOUNT)
    assert not _psql(pg.conninfo, "SELECT 1 FROM lgm_term_stats WHERE user_id = 'bob'")


# -- term statistics ---------------------------------------------------------------------
def test_term_stats_equal_a_recount(pg: PostgresBackend, url: str) -> None:
    rng = random.Random(4)
    ref: dict[tuple[str, str], list[int]] = {}
    for i in range(200):
        user = rng.choice(["alice", "bob", "carol"])
        words = _words(rng)
        pg.insert_message(_msg(f"m{i}", user, words), words)
        if i % 7 == 0:  # a duplicate counts nothing
            pg.insert_message(_msg(f"m{i}", user, words), words)
        if user != "carol":
            for term, tf in Counter(words).items():
                ref.setdefault((user, term), []).append(tf)
    pg.insert_message(_msg("empty", "alice", []), [])  # no terms: no statistics
    pg.delete_user("carol")
    got = _psql(url, STATS)
    assert got == _psql(url, RECOUNT)
    assert {(u, t): df for u, t, df, _, _ in got} == {key: len(v) for key, v in ref.items()}
    assert {(u, t): m for u, t, _, m, _ in got} == {key: max(v) for key, v in ref.items()}


def test_migration_backfills_term_stats(pg: PostgresBackend, url: str) -> None:
    from langgraph_memory.storage.postgres.backend import PostgresBackend

    rng = random.Random(5)
    for i in range(120):
        words = _words(rng)
        pg.insert_message(_msg(f"m{i}", rng.choice(["alice", "bob"]), words), words)
    want = _psql(url, STATS)
    _psql(url, "DROP TABLE lgm_term_stats; DELETE FROM lgm_migrations WHERE v >= 1")
    with PostgresBackend(url) as again:  # setup() runs migrations 1 and 2 again: the backfill
        assert _psql(url, STATS) == want == _psql(url, RECOUNT)
        assert again.lexical_search("alice", ["w0", "花生"], 5) == pg.lexical_search(
            "alice", ["w0", "花生"], 5
        )


def test_concurrent_writers_keep_term_stats_exact(url: str) -> None:
    from langgraph_memory.storage.postgres.backend import PostgresBackend

    texts = [_words(random.Random(i)) for i in range(80)]
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        try:
            with PostgresBackend(url, max_size=2) as b:
                for i, words in enumerate(texts):
                    for user in ("alice", f"own-{worker}"):
                        # shared ids (stored once) and each worker's own
                        for mid in (f"shared-{i}", f"w{worker}-{i}"):
                            b.insert_message(_msg(mid, user, words), words)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    assert _psql(url, STATS) == _psql(url, RECOUNT)
    df = dict(_psql(url, "SELECT term, df FROM lgm_term_stats WHERE user_id = 'alice'"))
    per_text = Counter(t for words in texts for t in set(words))
    assert df == {t: 3 * n for t, n in per_text.items()}  # shared once, each worker's own


# -- pruning ---------------------------------------------------------------------------------
def test_common_terms_are_pruned(pg: PostgresBackend) -> None:
    """Messages of five terms; ``a`` and ``b`` each in a third of them. A message with
    both outscores any with one (two idfs against at most one), so only the ~1/9 holding
    both are read: far fewer rows than the two posting lists."""
    rng = random.Random(6)
    ref = InMemoryBackend()
    has = Counter()
    for i in range(1800):
        words = [f"f{rng.randrange(400)}" for _ in range(5)]
        if i % 3 == 0:
            words[0] = "a"
        if rng.random() < 1 / 3:
            words[1] = "b"
        has.update(set(words) & {"a", "b"})
        for b in (pg, ref):
            b.insert_message(_msg(f"m{i}", "alice", words), words)
    _same(pg, ref, "alice", ["a", "b"], k=10)
    trace = pg.last_lexical
    either = has["a"] + has["b"]
    assert not trace.full and trace.rows < either / 4, (trace, either)
    # a rare term decides the top alone: only its messages are read
    for mid, words in (("x1", ["rare", "a"]), ("x2", ["rare"])):
        for b in (pg, ref):
            b.insert_message(_msg(mid, "alice", words), words)
    _same(pg, ref, "alice", ["a", "rare"], k=1)
    assert pg.last_lexical.rows == 2
    # one common term, all of whose messages tie but for length: every one is read
    _same(pg, ref, "alice", ["a"], k=10)
    assert pg.last_lexical.full and pg.last_lexical.rows == has["a"] + 1


# -- the planning alone ----------------------------------------------------------------------
def _fake_fetch(docs: dict[int, list[str]], untokenised: set[int]):
    def fetch(terms, new, old) -> list[Row]:
        def hits(seq: int, cls) -> bool:
            return seq not in untokenised and any(
                all(terms[i] in docs[seq] for i in c) for c in cls
            )

        out: list[Row] = []
        for seq, words in docs.items():
            take = hits(seq, new) and not hits(seq, old)
            if not old and seq in untokenised and set(words) & set(terms):
                take = True
            if take:
                tf = Counter(words)
                out.append((seq, len(words), *(tf.get(t) for t in terms)))
        return out

    return fetch


#: Terms of the property test: a few in most documents, most in few.
LETTERS = "aabbbccccddddeeeeeffffffgggggggghijklmnopq"


@settings(max_examples=400)
@given(
    docs=st.lists(st.lists(st.sampled_from(LETTERS), min_size=1, max_size=9), max_size=120),
    query=st.lists(st.sampled_from("abcdefghijklmnz"), min_size=1, max_size=6),
    k=st.sampled_from([1, 2, 3, 5, 10, 100]),
    k1=st.sampled_from([0.0, 0.6, 1.2, 2.0]),
    b=st.sampled_from([0.0, 0.5, 0.75, 1.0]),
    untokenised=st.sets(st.integers(1, 120), max_size=5),
)
def test_lexical_top_equals_full_bm25(docs, query, k, k1, b, untokenised) -> None:
    corpus = {seq: words for seq, words in enumerate(docs, start=1)}
    lists: dict[str, list[tuple[int, int]]] = {}
    for seq, words in corpus.items():
        for t, tf in Counter(words).items():
            lists.setdefault(t, []).append((seq, tf))
    counts = Counter(query)
    n, total = len(corpus), sum(len(w) for w in corpus.values())
    stats = {
        t: TermStat(len(p), max(tf for _, tf in p), min(len(corpus[s]) for s, _ in p))
        for t, p in lists.items()
    }
    want = bm25_scores(
        {t: lists.get(t, []) for t in counts},
        n_docs=n,
        avg_len=total / n if n else 1.0,
        doc_len={s: len(w) for s, w in corpus.items()},
        query_counts=counts,
        k1=k1,
        b=b,
        top=k,
    )
    got, trace = lexical_top(
        counts,
        stats,
        n_docs=n,
        total_len=total,
        k=k,
        fetch=_fake_fetch(corpus, untokenised & set(corpus)),
        k1=k1,
        b=b,
    )
    assert got == want
    assert trace.rows <= sum(len(p) for p in lists.values())


def test_clauses_cover_every_set_that_can_reach_tau() -> None:
    rng = random.Random(8)
    for _ in range(300):
        bounds = [rng.uniform(0.1, 5) for _ in range(rng.randint(1, 7))]
        tau = rng.uniform(0, sum(bounds) * 1.1)
        region = clauses(bounds, tau)
        for mask in range(1, 1 << len(bounds)):
            members = {i for i in range(len(bounds)) if mask >> i & 1}
            if sum(bounds[i] for i in members) >= tau * (1 + 1e-12):
                assert any(set(c) <= members for c in region), (bounds, tau, members)
    # C(14, 7) minimal sets: too many clauses; instead single terms, all but the six
    # weakest (together below tau)
    assert clauses([1.0] * 14, 7.0) == [(i,) for i in range(8)]
    assert clauses([3.0, 1.0], 10.0) == [(0, 1)]  # nothing reaches tau: an empty region's cover
    assert thresholds([5.0, 1.0], [2, 900], 1000)[-1] == 0.0
